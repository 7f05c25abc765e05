/*
 * Java thread dumps: registration, probe, and the line grammar (jstack.h).
 * A dump is found anywhere in the input (a shell transcript, a JVM's own
 * stdout for kill -3), so the probe looks for a dump's lines among others
 * rather than at the first line.
 */
#include "jstack.h"

#include <stdint.h>
#include <string.h>

#include "../base/ascii.h"
#include "format.h"

int jstack_read(struct input *in, struct model *m);

/* `"NAME" ...` (NAME up to the next quote, or the line's end, as stackcollapse-jstack.pl takes it). */
static int parse_quoted_header(const char *s, size_t len, struct jstack_header *h)
{
	const char *close = memchr(s + 1, '"', len - 1);
	h->name = (struct jstack_text){ s + 1, close ? (size_t)(close - s - 1) : len - 1 };
	h->state = (struct jstack_text){ s, 0 };
	h->dump_to_file = 0;
	return 1;
}

/* `#N "NAME"[ virtual][ STATE[ TIME]]`: dump_to_file's header. */
static int parse_numbered_header(const char *s, size_t len, struct jstack_header *h)
{
	size_t i = 1;
	while (i < len && is_digit(s[i]))
		i++;
	if (i == 1 || i + 1 >= len || s[i] != ' ' || s[i + 1] != '"')
		return 0;
	const char *name = s + i + 2, *end = s + len;
	const char *close = memchr(name, '"', (size_t)(end - name));
	if (!close)
		return 0;
	h->name = (struct jstack_text){ name, (size_t)(close - name) };
	h->dump_to_file = 1;
	const char *at = close + 1;
	if ((size_t)(end - at) >= 8 && memcmp(at, " virtual", 8) == 0)
		at += 8;
	const char *word = at + (at < end && *at == ' ');
	const char *word_end = word;
	while (word_end < end && ((*word_end >= 'A' && *word_end <= 'Z') || *word_end == '_'))
		word_end++;
	int is_word = word > at && word_end > word && (word_end == end || *word_end == ' ');
	h->state = (struct jstack_text){ word, is_word ? (size_t)(word_end - word) : 0 };
	return 1;
}

int jstack_parse_header(const char *s, size_t len, struct jstack_header *h)
{
	if (len > 0 && s[0] == '"')
		return parse_quoted_header(s, len, h);
	return len > 0 && s[0] == '#' && parse_numbered_header(s, len, h);
}

int jstack_parse_state(const char *s, size_t len, struct jstack_text *state)
{
	static const char key[] = "java.lang.Thread.State: ";
	const size_t key_len = sizeof key - 1;
	for (const char *at = s, *end = s + len; (size_t)(end - at) >= key_len;) {
		const char *hit = memchr(at, 'j', (size_t)(end - at) - key_len + 1);
		if (!hit)
			return 0;
		if (memcmp(hit, key, key_len) == 0) {
			const char *word = hit + key_len, *word_end = word;
			while (word_end < end && *word_end != ' ' && *word_end != '\t')
				word_end++;
			if (word_end == word)
				return 0;
			*state = (struct jstack_text){ word, (size_t)(word_end - word) };
			return 1;
		}
		at = hit + 1;
	}
	return 0;
}

int jstack_parse_at(const char *s, size_t len, struct jstack_text *frame)
{
	size_t i = 0;
	while (i < len && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (len - i < 3 || memcmp(s + i, "at ", 3) != 0)
		return 0;
	*frame = (struct jstack_text){ s + i + 3, len - i - 3 };
	return 1;
}

int jstack_has(const char *s, size_t len, const char *needle)
{
	size_t n = strlen(needle);
	for (size_t i = 0; i + n <= len; i++)
		if (memcmp(s + i, needle, n) == 0)
			return 1;
	return 0;
}

size_t jstack_dump_start(const char *s, size_t len)
{
	static const char mark[] = "Full thread dump ";
	const size_t n = sizeof mark - 1;
	for (size_t i = 0; i + n <= len; i++)
		if (s[i] == 'F' && memcmp(s + i, mark, n) == 0)
			return i;
	return SIZE_MAX;
}

void jstack_unprefix(const char *prefix, size_t prefix_len, const char **s, size_t *len)
{
	size_t bare = prefix_len;
	while (bare > 0 && (prefix[bare - 1] == ' ' || prefix[bare - 1] == '\t'))
		bare--;
	if (prefix_len == 0 || *len < bare || memcmp(*s, prefix, bare) != 0)
		return;
	if (*len <= prefix_len) {
		for (size_t i = bare; i < *len; i++)
			if ((*s)[i] != ' ' && (*s)[i] != '\t')
				return;
		*s += *len;
		*len = 0;
	} else if (memcmp(*s, prefix, prefix_len) == 0) {
		*s += prefix_len;
		*len -= prefix_len;
	}
}

/*
 * Evidence anywhere in the prefix: "Full thread dump" is what every
 * HotSpot dump starts with; a thread header followed by its state line
 * or its first frame is one a dump_to_file or a cut dump holds.
 */
static enum probe_score jstack_probe(const unsigned char *prefix, size_t len)
{
	const char *s = (const char *)prefix, *end = s + len;
	int header = 0, numbered = 0, threads = 0;
	const char *console = NULL; /* the console's prefix on the dump's lines */
	size_t console_len = 0;
	for (int lines = 0; s < end && lines < 2000; lines++) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t n = (size_t)((nl ? nl : end) - s);
		const char *line = s;
		struct jstack_header h;
		struct jstack_text t;
		size_t dump = jstack_dump_start(s, n);
		if (dump == 0)
			return PROBE_STRONG;
		if (dump != SIZE_MAX) {
			console = s;
			console_len = dump;
		}
		jstack_unprefix(console, console_len, &line, &n);
		s = line;
		/* dump_to_file's JDK 21 frames: indented, without `at`. */
		int bare = numbered && n > 0 && (s[0] == ' ' || s[0] == '\t');
		if (header && (bare || jstack_parse_state(s, n, &t) || jstack_parse_at(s, n, &t)))
			threads++;
		header = jstack_parse_header(s, n, &h) && (h.dump_to_file || jstack_has(s, n, " prio="));
		numbered = header && h.dump_to_file;
		if (!nl)
			break;
		s = nl + 1;
	}
	/* A dump whose every line the console prefixed: its threads tell, with the mark. */
	if (console && threads)
		return PROBE_STRONG;
	return threads >= 2 ? PROBE_PROBABLE : threads ? PROBE_PLAUSIBLE : PROBE_NO;
}

static const char *const jstack_extensions[] = { ".jstack", ".tdump", NULL };

const struct format format_jstack = {
	.name = "jstack",
	.description = "Java thread dumps: jstack, jcmd Thread.print, kill -3, jcmd Thread.dump_to_file",
	.extensions = jstack_extensions,
	.binary = 0,
	.probe = jstack_probe,
	.read = jstack_read,
};
