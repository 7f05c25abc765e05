/*
 * Folded stacks, Brendan Gregg's flame graph input: "root;caller;leaf COUNT"
 * per line. Registration, probe, and the line grammar both directions share.
 */
#include <string.h>

#include "folded.h"

size_t folded_count_at(const char *s, size_t len)
{
	size_t space = len;
	while (space > 0 && s[space - 1] != ' ')
		space--;
	if (space < 2 || space == len)
		return 0;
	for (size_t i = space; i < len; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return space;
}

/* Every whole line in the prefix must parse; frames joined by ';' are stronger evidence. */
static int folded_probe(const unsigned char *prefix, size_t len)
{
	const char *s = (const char *)prefix, *end = s + len;
	int lines = 0, joined = 0;
	for (const char *nl; (nl = memchr(s, '\n', (size_t)(end - s))) != NULL; s = nl + 1) {
		size_t n = (size_t)(nl - s) - (nl > s && nl[-1] == '\r');
		if (memchr(s, '\0', n) || !folded_count_at(s, n))
			return 0;
		joined |= memchr(s, ';', n) != NULL;
		lines++;
	}
	/* One line longer than the prefix: frames joined by ';' are weak evidence. */
	if (lines == 0)
		return len > 1024 && !memchr(prefix, '\0', len) && memchr(prefix, ';', len) ? 20 : 0;
	return joined ? 80 : 40;
}

static const char *const folded_extensions[] = { ".folded", ".collapsed", NULL };

const struct format format_folded = {
	.name = "folded",
	.description = "folded stacks (flamegraph.pl, inferno, speedscope): root;...;leaf COUNT",
	.extensions = folded_extensions,
	.binary = 0,
	.probe = folded_probe,
	.read = folded_read,
	.write = folded_write,
};
