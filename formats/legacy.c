/*
 * Legacy pprof: registration, probe, and what the kinds share (legacy.h):
 * the first lines' grammars, Go's number parsing and arithmetic, the
 * address lists. Go's patterns (legacy_profile.go) are matched by hand-written
 * scanners that take what Go's regexp would take, leftmost and greedy, in
 * time linear in the line: the patterns are small, and a general regex
 * engine would either choose differently (POSIX takes the longest match)
 * or risk quadratic time on long lines.
 */
#include "legacy.h"

#include <math.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/ascii.h"
#include "format.h"

int legacy_read(struct input *in, struct model *m);

int legacy_is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r';
}

void legacy_trim(const char **s, size_t *len)
{
	while (*len && (legacy_is_space(**s) || **s == '\v'))
		(*s)++, (*len)--;
	while (*len && (legacy_is_space((*s)[*len - 1]) || (*s)[*len - 1] == '\v'))
		(*len)--;
}

int legacy_is_space_or_comment(const char *s, size_t len)
{
	legacy_trim(&s, &len);
	return len == 0 || s[0] == '#';
}

static int is_lower_hex(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'f');
}

/* Go's float64 to int64 on amd64: out of range (or NaN) gives the lowest int64. */
int64_t legacy_go_int64(double x)
{
	if (!(x >= -9223372036854775808.0 && x < 9223372036854775808.0))
		return INT64_MIN;
	return (int64_t)x;
}

int64_t legacy_wrapping_mul(int64_t a, int64_t b)
{
	return (int64_t)((uint64_t)a * (uint64_t)b);
}

/* strconv.ParseInt(s, 10, 64) of "-?DIGITS"; 0 when out of range. */
int legacy_decimal(struct legacy_span t, int64_t *v)
{
	size_t i = t.len && t.s[0] == '-';
	uint64_t limit = i ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX, u = 0;
	if (i == t.len)
		return 0;
	for (; i < t.len; i++) {
		unsigned d = (unsigned)(t.s[i] - '0');
		if (u > (limit - d) / 10)
			return 0;
		u = u * 10 + d;
	}
	*v = t.len && t.s[0] == '-' ? (int64_t)(0 - u) : (int64_t)u;
	return 1;
}

/*
 * strconv.ParseInt(s, 0, 64) as Go's profiles use it: a sign, then
 * decimal, 0x hexadecimal, 0o or 0 octal, 0b binary. 0 when it is none.
 */
int legacy_go_integer(struct legacy_span t, int64_t *v)
{
	size_t i = 0;
	int negative = 0;
	if (i < t.len && (t.s[i] == '+' || t.s[i] == '-'))
		negative = t.s[i++] == '-';
	unsigned base = 10;
	if (t.len - i > 1 && t.s[i] == '0') {
		char b = (char)(t.s[i + 1] | 0x20);
		base = b == 'x' ? 16 : b == 'o' ? 8 : b == 'b' ? 2 : 8;
		i += base == 8 && b != 'o' ? 1 : 2;
	}
	if (i >= t.len)
		return 0;
	uint64_t limit = negative ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX, u = 0;
	for (; i < t.len; i++) {
		char c = (char)(t.s[i] | 0x20);
		unsigned d = is_digit(t.s[i]) ? (unsigned)(t.s[i] - '0') : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10) : 99;
		if (d >= base || u > (limit - d) / base)
			return 0;
		u = u * base + d;
	}
	*v = negative ? (int64_t)(0 - u) : (int64_t)u;
	return 1;
}

/* Go's parseHexAddresses: every "0x[0-9a-f]+" in turn, to the last sample (see legacy.h). */
int legacy_hex_addresses(struct legacy_profile *p, struct legacy_span t, size_t adjust_from)
{
	for (size_t i = 0; i + 2 < t.len;) {
		size_t k = i + 2;
		uint64_t a = 0;
		if (t.s[i] != '0' || t.s[i + 1] != 'x' || !is_lower_hex(t.s[k])) {
			i++;
			continue;
		}
		for (; k < t.len && is_lower_hex(t.s[k]); k++) {
			if (a >> 60)
				return 0;
			a = a << 4 | (uint64_t)(is_digit(t.s[k]) ? t.s[k] - '0' : t.s[k] - 'a' + 10);
		}
		legacy_push_address(p, p->samples[p->n_samples - 1].n_addresses >= adjust_from ? a - 1 : a);
		i = k;
	}
	return 1;
}

/* The chance that a heap sample of this average size was taken (Go's scaleHeapSample). */
void legacy_unsample(int64_t *count, int64_t *size, int64_t rate)
{
	if (*count == 0 || *size == 0) {
		*count = *size = 0;
		return;
	}
	if (rate <= 1)
		return;
	double average = (double)*size / (double)*count;
	double scale = 1 / (1 - exp(-average / (double)rate));
	*count = legacy_go_int64((double)*count * scale);
	*size = legacy_go_int64((double)*size * scale);
}

char *legacy_copy(struct legacy_span t)
{
	char *c = xmalloc(t.len + 1);
	if (t.len)
		memcpy(c, t.s, t.len);
	c[t.len] = 0;
	return c;
}

/* Where `what` first occurs in s (memmem is a GNU extension); NULL when nowhere. */
static const char *find(const char *s, size_t len, const char *what)
{
	size_t n = strlen(what);
	for (size_t i = 0; n <= len && i <= len - n; i++)
		if (memcmp(s + i, what, n) == 0)
			return s + i;
	return NULL;
}

int legacy_contains(const char *s, size_t len, const char *what)
{
	return find(s, len, what) != NULL;
}

int legacy_is_map_start(const char *s, size_t len)
{
	return legacy_contains(s, len, "--- Memory map: ---") || legacy_contains(s, len, "MAPPED_LIBRARIES:");
}

/* A run of characters of a class from *i; its length. */
static size_t run(const char *s, size_t len, size_t *i, int (*in_class)(char))
{
	size_t from = *i;
	while (*i < len && in_class(s[*i]))
		(*i)++;
	return *i - from;
}

static int is_blank_char(char c)
{
	return c == ' ';
}

static int literal(const char *s, size_t len, size_t *i, char c)
{
	if (*i < len && s[*i] == c) {
		(*i)++;
		return 1;
	}
	return 0;
}

/* " *DIGITS" then `after`: the numbers of the heap header's "N: N [N: N]". */
static int spaced_digits(const char *s, size_t len, size_t *i, char after)
{
	run(s, len, i, is_blank_char);
	return run(s, len, i, is_digit) > 0 && (after == 0 || literal(s, len, i, after));
}

/* "heap profile: *N: *N *\[ *N: *N *\]" from *i; the spans of the four numbers. */
static int heap_counts(const char *s, size_t len, size_t *i, const char *num[4], size_t num_len[4])
{
	static const char after[4] = { ':', 0, ':', 0 };
	*i += strlen("heap profile:");
	for (int k = 0; k < 4; k++) {
		if (k == 2) {
			run(s, len, i, is_blank_char);
			if (!literal(s, len, i, '['))
				return 0;
		}
		run(s, len, i, is_blank_char);
		num[k] = s + *i;
		if (!spaced_digits(s, len, i, after[k]))
			return 0;
		num_len[k] = (size_t)(s + *i - num[k]) - (after[k] != 0);
	}
	run(s, len, i, is_blank_char);
	return literal(s, len, i, ']');
}

static int is_sampler_char(char c)
{
	return (c >= 'a' && c <= 'z') || is_digit(c) || c == '_';
}

/* heapHeaderRE's tail: " *@ *(heap[_a-z0-9]*)/?(\d*)". */
static int heap_sampler(const char *s, size_t len, size_t i, struct legacy_heap_header *h)
{
	run(s, len, &i, is_blank_char);
	if (!literal(s, len, &i, '@'))
		return 0;
	run(s, len, &i, is_blank_char);
	if (!starts_with(s + i, len - i, "heap"))
		return 0;
	const char *name = s + i;
	size_t name_len = run(s, len, &i, is_sampler_char);
	literal(s, len, &i, '/');
	const char *rate = s + i;
	size_t rate_len = run(s, len, &i, is_digit);
	int64_t period = 0;
	if (rate_len && !legacy_decimal((struct legacy_span){ rate, rate_len }, &period))
		return -1;
#define NAME_IS(x) (name_len == strlen(x) && memcmp(name, x, name_len) == 0)
	if (NAME_IS("heapz_v2") || NAME_IS("heap_v2"))
		h->v2 = 1, h->period = period;
	else if (NAME_IS("heapprofile"))
		h->v2 = 0, h->period = 1;
	else if (NAME_IS("heap"))
		h->v2 = 1, h->period = period / 2;
	else
		return -1;
#undef NAME_IS
	return 1;
}

/* growthHeaderRE's and fragmentationHeaderRE's tail: " @ growthz?". */
static int other_sampler(const char *s, size_t len, size_t i, const char *name)
{
	return starts_with(s + i, len - i, " @ ") && starts_with(s + i + 3, len - i - 3, name);
}

static int same_digits(const char *a, size_t a_len, const char *b, size_t b_len)
{
	return a_len == b_len && memcmp(a, b, a_len) == 0;
}

static int is_zero(const char *a, size_t len)
{
	return len == 1 && a[0] == '0';
}

/*
 * Go tries heapHeaderRE at its leftmost match; a sampler it does not know
 * makes the line no heap header at all, without trying growth's pattern.
 */
int legacy_heap_header(const char *s, size_t len, struct legacy_heap_header *h)
{
	memset(h, 0, sizeof *h);
	const char *num[4];
	size_t num_len[4];
	for (int pattern = 0; pattern < 3; pattern++) {
		for (const char *at = s; (at = find(at, len - (size_t)(at - s), "heap profile:")); at++) {
			size_t i = (size_t)(at - s);
			if (!heap_counts(s, len, &i, num, num_len))
				continue;
			int found = pattern == 0   ? heap_sampler(s, len, i, h)
				    : pattern == 1 ? other_sampler(s, len, i, "growth")
						   : other_sampler(s, len, i, "fragmentation");
			if (found < 0)
				return 0;
			if (!found)
				continue;
			if (pattern > 0) {
				h->period = 1;
				return 1;
			}
			h->has_alloc = (!same_digits(num[2], num_len[2], num[0], num_len[0]) && !is_zero(num[2], num_len[2])) ||
				       (!same_digits(num[3], num_len[3], num[1], num_len[1]) && !is_zero(num[3], num_len[3]));
			return 1;
		}
	}
	return 0;
}

/* countStartRE: "\A(\S+) profile: total \d+\z"; the type's span. */
int legacy_count_start(const char *s, size_t len, size_t *type_len)
{
	size_t i = 0;
	while (i < len && !legacy_is_space(s[i]))
		i++;
	*type_len = i;
	if (i == 0 || !starts_with(s + i, len - i, " profile: total "))
		return 0;
	i += strlen(" profile: total ");
	return run(s, len, &i, is_digit) > 0 && i == len;
}

/* threadzStartRE: "--- threadz \d+ ---" anywhere in the line. */
int legacy_is_threadz_start(const char *s, size_t len)
{
	for (const char *at = s; (at = find(at, len - (size_t)(at - s), "--- threadz ")); at++) {
		size_t i = (size_t)(at - s) + 12;
		if (run(s, len, &i, is_digit) && starts_with(s + i, len - i, " ---"))
			return 1;
	}
	return 0;
}

/*
 * Where the rightmost "/ID) stack: ---" has its "/", so that a thread's
 * first line is found in one pass however often its parts recur; 0 when
 * there is none.
 */
static size_t last_thread_id(const char *s, size_t len)
{
	size_t slash = 0;
	for (const char *end = s; (end = find(end, len - (size_t)(end - s), ") stack: ---")); end++) {
		size_t k = (size_t)(end - s), d = k;
		while (d > 0 && is_digit(s[d - 1]))
			d--;
		if (d < k && d > 0 && s[d - 1] == '/')
			slash = d - 1;
	}
	return slash;
}

/* threadStartRE: "--- Thread HEX (name: .*\/\d+) stack: ---" anywhere in the line. */
int legacy_is_thread_start(const char *s, size_t len)
{
	size_t slash = last_thread_id(s, len);
	for (const char *at = s; slash && (at = find(at, len - (size_t)(at - s), "--- Thread ")); at++) {
		size_t i = (size_t)(at - s) + 11;
		if (run(s, len, &i, is_hex) && starts_with(s + i, len - i, " (name: ") && i + 8 <= slash)
			return 1;
	}
	return 0;
}

enum legacy_text_kind legacy_text_kind(const char *s, size_t len)
{
	struct legacy_heap_header h;
	size_t type_len;
	if (legacy_heap_header(s, len, &h))
		return LEGACY_HEAP;
	if (starts_with(s, len, "--- contentionz ") || starts_with(s, len, "--- mutex:") ||
	    starts_with(s, len, "--- contention:"))
		return LEGACY_CONTENTION;
	if (legacy_count_start(s, len, &type_len))
		return LEGACY_COUNT;
	if (legacy_is_threadz_start(s, len) || legacy_is_thread_start(s, len))
		return LEGACY_THREAD;
	const char *trimmed = s;
	legacy_trim(&trimmed, &len);
	if (len == 15 && memcmp(trimmed, "--- heapz 1 ---", 15) == 0)
		return LEGACY_JAVA_HEAP;
	return LEGACY_NONE;
}

static uint64_t word_at(const unsigned char *b, unsigned word, int big_endian)
{
	uint64_t v = 0;
	for (unsigned k = 0; k < word; k++)
		v |= (uint64_t)b[big_endian ? word - 1 - k : k] << (8 * k);
	return v;
}

/* Go tries 32-bit little-endian, 32-bit big-endian, 64-bit little-endian, then big-endian. */
int legacy_is_cpu_header(const unsigned char *b, size_t len, unsigned *word, int *big_endian,
			 uint64_t *period_us)
{
	for (int k = 0; k < 4; k++) {
		unsigned w = k < 2 ? 4 : 8;
		int be = k % 2;
		if (len < 5 * (size_t)w)
			continue;
		uint64_t h[5];
		for (int j = 0; j < 5; j++)
			h[j] = word_at(b + j * w, w, be);
		if (h[0] == 0 && h[1] == 3 && h[2] <= 1 && h[3] > 0 && h[4] == 0) {
			*word = w;
			*big_endian = be;
			*period_us = h[3];
			return h[2] == 0 ? 1 : 2;
		}
	}
	return 0;
}

/* The first line of a prefix, without its CR; NULL when the prefix has no line ending. */
static const char *first_line(const unsigned char *b, size_t len, size_t *line_len, size_t *next)
{
	const unsigned char *nl = memchr(b, '\n', len);
	*line_len = nl ? (size_t)(nl - b) : len;
	*next = nl ? *line_len + 1 : len;
	if (*line_len && b[*line_len - 1] == '\r')
		(*line_len)--;
	return (const char *)b;
}

static int legacy_probe(const unsigned char *prefix, size_t len)
{
	unsigned word;
	int be;
	uint64_t period;
	if (legacy_is_cpu_header(prefix, len, &word, &be, &period))
		return 95;
	size_t at = 0, line_len, next;
	const char *line = first_line(prefix, len, &line_len, &next);
	if (legacy_text_kind(line, line_len) != LEGACY_NONE)
		return 95;
	/* A count profile may follow comment lines. */
	while (legacy_is_space_or_comment(line, line_len) && at + next < len) {
		at += next;
		line = first_line(prefix + at, len - at, &line_len, &next);
	}
	enum legacy_text_kind kind = legacy_text_kind(line, line_len);
	return kind == LEGACY_COUNT || kind == LEGACY_THREAD ? 90 : 0;
}

static const char *const extensions[] = { ".heap", NULL };

const struct format format_legacy = {
	.name = "legacy",
	.description = "legacy pprof (go tool pprof): gperftools' CPU, heap, thread profiles, Go's text ones: read only",
	.extensions = extensions,
	.probe = legacy_probe,
	.read = legacy_read,
};
