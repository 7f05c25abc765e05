/*
 * Folded stacks, Brendan Gregg's flame graph input: "root;caller;leaf COUNT"
 * per line. Registration, probe, and the line grammar both directions share.
 */
#include <string.h>

#include "../base/ascii.h"
#include "folded.h"

const char *const folded_differential_types[2] = { "before", "after" };

size_t folded_count_at(const char *s, size_t len, struct folded_count *c)
{
	size_t space = len;
	while (space > 0 && s[space - 1] != ' ')
		space--;
	if (space < 2 || space == len)
		return 0;
	size_t i = space;
	while (i < len && is_digit(s[i]))
		i++;
	size_t whole_end = i, fraction_end = i;
	if (i == space || (i < len && s[i] != '.'))
		return 0;
	for (i++; i < len && is_digit(s[i]); i++)
		if (s[i] != '0')
			fraction_end = i + 1;
	if (i < len)
		return 0;
	c->whole = s + space;
	c->whole_len = whole_end - space;
	c->fraction = s + whole_end + 1;
	c->fraction_len = fraction_end > whole_end ? fraction_end - whole_end - 1 : 0;
	return space;
}

enum folded_line_kind folded_line_kind(const char *s, size_t len)
{
	struct folded_count c;
	if (len > 0 && (s[0] == '#' || (len > 1 && s[0] == '/' && s[1] == '/')))
		return FOLDED_COMMENT;
	if (folded_count_at(s, len, &c))
		return FOLDED_COUNTED;
	size_t i = 0;
	while (i < len && (s[i] == ' ' || s[i] == '\t'))
		i++;
	return i == len ? FOLDED_BLANK : FOLDED_MALFORMED;
}

int folded_is_differential(const struct model *m)
{
	if (m->n_sample_types != 2 || m->sessions.n_runs)
		return 0;
	for (size_t i = 0; i < 2; i++)
		if (!model_str_is(m, m->sample_types[i].type, folded_differential_types[i]) ||
		    !model_str_is(m, m->sample_types[i].unit, "count"))
			return 0;
	return 1;
}

struct evidence {
	size_t counted, malformed;
	int joined; /* some counted line has frames joined by ';' */
};

static void weigh_line(struct evidence *e, const char *s, size_t n)
{
	switch (folded_line_kind(s, n)) {
	case FOLDED_COUNTED:
		e->counted++;
		e->joined |= memchr(s, ';', n) != NULL;
		break;
	case FOLDED_MALFORMED:
		e->malformed++;
		break;
	default:
		break;
	}
}

/*
 * Whole lines only: a prefix shorter than FORMAT_PROBE_BYTES is the whole
 * input, so its last line counts even without a newline. A malformed line
 * among many stacks (inferno's and speedscope's tests) is weak evidence
 * against; comments and blank lines are none either way.
 */
static int folded_probe(const unsigned char *prefix, size_t len)
{
	const char *s = (const char *)prefix, *end = s + len;
	struct evidence e = { 0, 0, 0 };
	if (memchr(prefix, '\0', len))
		return 0;
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		if (!nl && len == FORMAT_PROBE_BYTES)
			break;
		size_t n = (size_t)((nl ? nl : end) - s);
		weigh_line(&e, s, n - (n > 0 && s[n - 1] == '\r'));
		s = nl ? nl + 1 : end;
	}
	/* No whole line but one longer than the prefix: frames joined by ';' are weak evidence. */
	if (e.counted + e.malformed == 0)
		return s < end && memchr(s, ';', (size_t)(end - s)) ? 20 : 0;
	if (e.malformed == 0)
		return e.joined ? 80 : 40;
	return e.joined && e.counted >= 2 * e.malformed ? 30 : 0;
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
