/*
 * DTrace, SystemTap and bpftrace stack aggregations: registration, probe
 * and the line grammar (dtrace.h); dtrace_read.c reads them. The three
 * share one format: their users pipe each into a FlameGraph collapser of
 * the same shape, and prof tells them apart by their lines.
 */
#include "dtrace.h"

#include <string.h>

#include "../base/ascii.h"
#include "format.h"

int dtrace_read(struct input *in, struct model *m);

int dtrace_is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

static size_t blanks(const char *s, size_t len)
{
	size_t i = 0;
	while (i < len && dtrace_is_blank(s[i]))
		i++;
	return i;
}

int dtrace_is_blank_line(const char *s, size_t len)
{
	return blanks(s, len) == len;
}

int dtrace_count_line(const char *s, size_t len, struct dtrace_text *digits)
{
	size_t i = blanks(s, len);
	if (i == len)
		return 0;
	for (size_t k = i; k < len; k++)
		if (!is_digit(s[k]))
			return 0;
	*digits = (struct dtrace_text){ s + i, len - i };
	return 1;
}

/* The next word of s from *i on, blanks skipped; its length (0 at the end). */
static size_t word(const char *s, size_t len, size_t *i, const char **w)
{
	*i += blanks(s + *i, len - *i);
	*w = s + *i;
	size_t start = *i;
	while (*i < len && !dtrace_is_blank(s[*i]))
		(*i)++;
	return *i - start;
}

static int all_digits(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (!is_digit(s[i]))
			return 0;
	return len > 0;
}

int dtrace_is_header(const char *s, size_t len)
{
	const char *w[4];
	size_t n[4], i = 0;
	for (size_t k = 0; k < 4; k++)
		n[k] = word(s, len, &i, &w[k]);
	if (n[0] == 3 && memcmp(w[0], "CPU", 3) == 0 && n[1] == 2 && memcmp(w[1], "ID", 2) == 0 &&
	    n[2] == 13 && memcmp(w[2], "FUNCTION:NAME", 13) == 0 && n[3] == 0)
		return 1;
	/* "CPU ID FUNCTION:NAME": the probe's function may be empty, its name not. */
	return all_digits(w[0], n[0]) && all_digits(w[1], n[1]) && n[2] > 1 && memchr(w[2], ':', n[2]) &&
	       w[2][n[2] - 1] != ':' && n[3] == 0;
}

int dtrace_is_stap_frame(const char *s, size_t len)
{
	size_t i = blanks(s, len);
	if (len - i < 3 || s[i] != '0' || s[i + 1] != 'x')
		return 0;
	size_t k = i + 2;
	while (k < len && is_hex(s[k]))
		k++;
	return k > i + 2 && len - k >= 3 && memcmp(s + k, " : ", 3) == 0;
}

static int is_word_start(char c)
{
	return (ascii_lower(c) >= 'a' && ascii_lower(c) <= 'z') || c == '_';
}

int dtrace_is_key_start(const char *s, size_t len)
{
	return len >= 2 && s[0] == '@' && s[1] == '[';
}

int dtrace_is_named_key(const char *s, size_t len)
{
	if (len < 3 || s[0] != '@' || !is_word_start(s[1]))
		return 0;
	size_t i = 2;
	while (i < len && (is_word_start(s[i]) || is_digit(s[i])))
		i++;
	return i < len && s[i] == '[';
}

int dtrace_key_end(const char *s, size_t len, struct dtrace_text *part, struct dtrace_text *digits)
{
	size_t i = 0;
	if (i < len && s[i] == ',')
		i++;
	if (i < len && dtrace_is_blank(s[i]))
		i++;
	for (size_t end = len; end-- > i;) {
		if (end + 3 >= len || memcmp(s + end, "]: ", 3) != 0 || !is_digit(s[end + 3]))
			continue;
		size_t k = end + 3;
		while (k < len && is_digit(s[k]))
			k++;
		*part = (struct dtrace_text){ s + i, end - i };
		*digits = (struct dtrace_text){ s + end + 3, k - end - 3 };
		return 1;
	}
	return 0;
}

/* What the prefix's lines are. */
struct evidence {
	int header, keys, key_ends, stap;
	size_t frames, counts, ticked, others; /* ticked: frames with a module, "module`function" */
};

static void weigh_line(struct evidence *e, const char *s, size_t n)
{
	struct dtrace_text part, digits;
	if (dtrace_is_blank_line(s, n))
		return;
	if (dtrace_is_header(s, n))
		e->header = 1;
	else if (dtrace_is_key_start(s, n))
		e->keys++;
	else if (e->keys && dtrace_key_end(s, n, &part, &digits))
		e->key_ends++;
	else if (dtrace_count_line(s, n, &digits))
		e->counts += e->frames > 0;
	else if (dtrace_is_blank(s[0])) {
		e->frames++;
		e->ticked += memchr(s, '`', n) != NULL;
		e->stap |= dtrace_is_stap_frame(s, n);
	} else
		e->others++;
}

/*
 * DTrace's header is its signature; so is bpftrace's "@[" key ended by
 * "]: N". Stacks then counts without either: indented frames, each stack
 * ended by a count line, and no other line (a bpftrace run's own lines,
 * "Attaching 1 probe...", aside); DTrace's "module`function" or
 * SystemTap's "0x... : function" frames make it likely, bare names only
 * doubtful.
 */
static enum probe_score dtrace_probe(const unsigned char *prefix, size_t len)
{
	const char *s = (const char *)prefix, *end = s + len;
	struct evidence e;
	memset(&e, 0, sizeof e);
	if (memchr(prefix, '\0', len))
		return PROBE_NO;
	for (int lines = 0; s < end && lines < 2000; lines++) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		if (!nl && len == FORMAT_PROBE_BYTES)
			break;
		size_t n = (size_t)((nl ? nl : end) - s);
		if (!(lines == 0 && starts_with(s, n, "Attaching ")))
			weigh_line(&e, s, n - (n > 0 && s[n - 1] == '\r'));
		s = nl ? nl + 1 : end;
	}
	if (e.header)
		return PROBE_NEAR_CERTAIN;
	if (e.keys && e.key_ends)
		return PROBE_STRONG;
	if (e.others || e.counts == 0)
		return PROBE_NO;
	return e.stap || e.ticked ? PROBE_LIKELY : PROBE_DOUBTFUL;
}

static const char *const dtrace_extensions[] = { ".stacks", NULL };

const struct format format_dtrace = {
	.name = "dtrace",
	.description = "DTrace, SystemTap and bpftrace stack aggregations (as FlameGraph's collapsers read them): "
		       "read only",
	.extensions = dtrace_extensions,
	.binary = 0,
	.probe = dtrace_probe,
	.read = dtrace_read,
	.write = NULL,
};
