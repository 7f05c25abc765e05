/*
 * json: the pull tokenizer of json.h. The grammar is checked with one
 * state and a stack of open containers, so that a reader asking for tokens
 * never sees a malformed document. A string longer than JSON_TEXT_MAX is
 * refused rather than allowed to grow memory; nesting costs a bit a level,
 * grown under --max-memory like every table (an old .cpuprofile's call
 * tree is two levels of JSON a frame, thousands deep), and nothing here
 * recurses.
 */
#include "json.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/diag.h"
#include "../base/numtext.h"
#include "../base/utf8.h"

/* What may come next. */
enum {
	EXPECT_FIRST_VALUE, /* a value, or ']' right after '[' */
	EXPECT_VALUE,
	EXPECT_FIRST_KEY,   /* a key, or '}' right after '{' */
	EXPECT_KEY,
	EXPECT_COLON,
	EXPECT_COMMA,       /* ',' or the container's end */
	EXPECT_NOTHING,     /* the top-level value is complete */
};

/* The longest number kept as text: far more digits than an int64 or a double has. */
enum { NUMBER_TEXT_MAX = 400 };

void json_begin(struct json *j, struct input *in)
{
	memset(j, 0, sizeof *j);
	j->in = in;
	j->buf = xmalloc(JSON_BUFFER + 1);
	j->buf[0] = '\0';
	j->line = 1;
	j->expect = EXPECT_VALUE;
}

void json_end(struct json *j)
{
	free(j->buf);
	free(j->text);
	free(j->nest);
}

int json_error(struct json *j, const char *fmt, ...)
{
	char what[300];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	diag_error(j->in->name, j->token_line, "%s (byte %" PRIu64 ")", what, j->token_offset);
	j->failed = 1;
	return -1;
}

/*
 * The buffer spent: refilled, and its first byte (see peek_byte). A NUL
 * follows the bytes read, which no scan of a string or a number takes:
 * their loops look for the buffer's end only once they stop.
 */
static int refill(struct json *j)
{
	j->consumed += j->end;
	j->at = j->end = 0;
	long n = input_read(j->in, j->buf, JSON_BUFFER);
	if (n < 0) {
		j->buf[0] = '\0';
		j->failed = 1;
		return -2;
	}
	j->end = (size_t)n;
	j->buf[n] = '\0';
	return n == 0 ? -1 : j->buf[0];
}

/* The next byte without taking it: 0-255, -1 at the end, -2 after a read error. */
static inline int peek_byte(struct json *j)
{
	return j->at < j->end ? j->buf[j->at] : refill(j);
}

static void take_byte(struct json *j)
{
	if (j->buf[j->at++] == '\n')
		j->line++;
}

static void text_add(struct json *j, const void *bytes, size_t n)
{
	if (j->len + n + 1 > j->cap)
		grow((void **)&j->text, &j->cap, j->len + n + 1, 1);
	memcpy(j->text + j->len, bytes, n);
	j->len += n;
	j->text[j->len] = '\0';
}

/*
 * `n` bytes copied; the short ones (keys, names, numbers) without a call,
 * as two words that may overlap.
 */
static inline void copy_bytes(char *to, const unsigned char *from, size_t n)
{
	if (n > 16) {
		memcpy(to, from, n);
	} else if (n >= 8) {
		uint64_t head, tail;
		memcpy(&head, from, 8);
		memcpy(&tail, from + n - 8, 8);
		memcpy(to, &head, 8);
		memcpy(to + n - 8, &tail, 8);
	} else if (n >= 4) {
		uint32_t head, tail;
		memcpy(&head, from, 4);
		memcpy(&tail, from + n - 4, 4);
		memcpy(to, &head, 4);
		memcpy(to + n - 4, &tail, 4);
	} else if (n > 0) {
		to[0] = (char)from[0];
		to[n / 2] = (char)from[n / 2];
		to[n - 1] = (char)from[n - 1];
	}
}

/* The text is `n` bytes from the buffer, copied once. */
static inline void text_set(struct json *j, const unsigned char *bytes, size_t n)
{
	if (n + 1 > j->cap)
		grow((void **)&j->text, &j->cap, n + 1, 1);
	copy_bytes(j->text, bytes, n);
	j->len = n;
	j->text[n] = '\0';
}

static void text_utf8(struct json *j, uint32_t c)
{
	unsigned char b[4];
	size_t n;
	if (c < 0x80) {
		b[0] = (unsigned char)c;
		n = 1;
	} else if (c < 0x800) {
		b[0] = (unsigned char)(0xc0 | c >> 6);
		b[1] = (unsigned char)(0x80 | (c & 0x3f));
		n = 2;
	} else if (c < 0x10000) {
		b[0] = (unsigned char)(0xe0 | c >> 12);
		b[1] = (unsigned char)(0x80 | (c >> 6 & 0x3f));
		b[2] = (unsigned char)(0x80 | (c & 0x3f));
		n = 3;
	} else {
		b[0] = (unsigned char)(0xf0 | c >> 18);
		b[1] = (unsigned char)(0x80 | (c >> 12 & 0x3f));
		b[2] = (unsigned char)(0x80 | (c >> 6 & 0x3f));
		b[3] = (unsigned char)(0x80 | (c & 0x3f));
		n = 4;
	}
	text_add(j, b, n);
}

static int hex4(struct json *j, uint32_t *v)
{
	*v = 0;
	for (int i = 0; i < 4; i++) {
		int c = peek_byte(j);
		if (c == -2)
			return -1;
		int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
			: c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
		if (d < 0)
			return json_error(j, "bad \\u escape in a string");
		take_byte(j);
		*v = *v << 4 | (uint32_t)d;
	}
	return 0;
}

/*
 * After "\u": one UTF-16 unit, or a surrogate pair. A lone surrogate
 * (JavaScript's JSON.stringify writes them) becomes U+FFFD, as a decoder
 * of UTF-16 does; U+0000 is refused, since no profile name holds a NUL.
 */
static int unicode_escape(struct json *j)
{
	uint32_t c;
	if (hex4(j, &c) < 0)
		return -1;
	if (c == 0)
		return json_error(j, "a NUL character (\\u0000) in a string");
	if (c >= 0xd800 && c < 0xdc00 && peek_byte(j) == '\\') {
		take_byte(j);
		if (peek_byte(j) != 'u')
			return json_error(j, "bad escape in a string");
		take_byte(j);
		uint32_t low;
		if (hex4(j, &low) < 0)
			return -1;
		if (low >= 0xdc00 && low < 0xe000) {
			text_utf8(j, 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00));
			return 0;
		}
		text_utf8(j, 0xfffd);
		c = low;
	}
	text_utf8(j, c >= 0xd800 && c < 0xe000 ? 0xfffd : c);
	return 0;
}

static int escape(struct json *j)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	int c = peek_byte(j);
	if (c == -2)
		return -1;
	const char *known = c > 0 ? strchr(from, c) : NULL;
	if (c == 'u') {
		take_byte(j);
		return unicode_escape(j);
	}
	if (!known)
		return json_error(j, "bad escape in a string");
	take_byte(j);
	text_add(j, &to[known - from], 1);
	return 0;
}

/* After the opening quote: the string's bytes into text, escapes undone, read across buffers. */
static int string_text_slow(struct json *j)
{
	j->len = 0;
	text_add(j, "", 0);
	for (;;) {
		if (j->len > JSON_TEXT_MAX)
			return json_error(j, "a string longer than %d bytes", JSON_TEXT_MAX);
		int c = peek_byte(j);
		if (c == -2)
			return -1;
		if (c == -1)
			return json_error(j, "the input ends inside a string");
		if (c < 0x20)
			return json_error(j, "a control character (byte 0x%02x) in a string", (unsigned)c);
		take_byte(j);
		if (c == '"')
			return 0;
		if (c == '\\') {
			if (escape(j) < 0)
				return -1;
			continue;
		}
		/* A run of plain bytes at once: names are mostly that. */
		size_t from = j->at - 1, to = j->at;
		while (to < j->end && j->buf[to] >= 0x20 && j->buf[to] != '"' && j->buf[to] != '\\')
			to++;
		text_add(j, j->buf + from, to - from);
		j->at = to;
	}
}

/*
 * Eight bytes at once: nonzero when one of them may end a run of a
 * string's plain bytes ('"', '\\' or a control character). The first
 * such byte is always flagged (bytes after it may be, wrongly: the caller
 * looks at them one by one).
 */
static inline uint64_t string_stops(uint64_t x)
{
	const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
	return ((x - ones * 0x20) | ((x ^ ones * '"') - ones) | ((x ^ ones * '\\') - ones)) & ~x & highs;
}

/* Which of a word's eight bytes (in memory's order) is the first flagged in `stops`. */
static inline size_t first_flagged_byte(uint64_t stops)
{
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return (size_t)__builtin_clzll(stops) / 8;
#else
	return (size_t)__builtin_ctzll(stops) / 8;
#endif
}

static inline int plain_string_byte(unsigned char c)
{
	return c >= 0x20 && c != '"' && c != '\\';
}

/*
 * After the opening quote, the string's bytes into text when they lie
 * whole in the buffer without an escape, as most strings (names, keys)
 * do: found eight bytes at a time, copied once, 1; else 0, nothing taken.
 */
static inline int string_here(struct json *j)
{
	const unsigned char *b = j->buf;
	size_t to = j->at;
	for (uint64_t word, stops; to + 8 <= j->end; to += 8) {
		memcpy(&word, b + to, 8);
		if ((stops = string_stops(word))) {
			to += first_flagged_byte(stops);
			goto found;
		}
	}
	while (plain_string_byte(b[to])) /* the NUL after the buffer stops it */
		to++;
found:
	if (to == j->end || b[to] != '"')
		return 0;
	text_set(j, b + j->at, to - j->at);
	j->at = to + 1;
	return 1;
}

/* The bytes a number's text is taken from (what is well formed is checked after). */
static const unsigned char number_bytes[256] = {
	['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1, ['5'] = 1, ['6'] = 1, ['7'] = 1, ['8'] = 1, ['9'] = 1,
	['-'] = 1, ['+'] = 1, ['.'] = 1, ['e'] = 1, ['E'] = 1,
};

static int is_number_byte(int c)
{
	return number_bytes[(unsigned char)c];
}

static inline int is_digit(unsigned char c)
{
	return (unsigned)(c - '0') < 10;
}

/* A number's scan, when it can be read where it lies. */
struct scanned {
	size_t len;
	int whole;  /* no fraction or exponent, at most 18 digits: value holds it */
	int64_t value;
};

/*
 * The number at `at` (a digit or '-'), in one pass, when it is as RFC
 * 8259 writes it and ends inside the buffer, before a byte that is no
 * number's: 1 and *n; else 0, for number_text to read it across buffers
 * or say what is wrong. The NUL after the buffer stops every loop.
 */
static inline int scan_number(const struct json *j, size_t at, struct scanned *n)
{
	const unsigned char *from = j->buf + at, *s = from;
	int negative = *s == '-';
	s += negative;
	const unsigned char *digits = s;
	uint64_t u = 0;
	if (*s == '0')
		s++;
	else
		for (; is_digit(*s); s++)
			u = u * 10 + (uint64_t)(*s - '0');
	size_t n_digits = (size_t)(s - digits);
	int fraction = 0;
	if (*s == '.') {
		const unsigned char *first = ++s;
		while (is_digit(*s))
			s++;
		fraction = 1;
		if (s == first)
			return 0;
	}
	if (*s == 'e' || *s == 'E') {
		s += s[1] == '+' || s[1] == '-' ? 2 : 1;
		const unsigned char *first = s;
		while (is_digit(*s))
			s++;
		fraction = 1;
		if (s == first)
			return 0;
	}
	n->len = (size_t)(s - from);
	if (n_digits == 0 || (size_t)(s - j->buf) >= j->end || is_number_byte(*s) || n->len > NUMBER_TEXT_MAX)
		return 0;
	n->whole = !fraction && n_digits <= 18;
	n->value = negative ? -(int64_t)u : (int64_t)u;
	return 1;
}

/* RFC 8259's number: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? */
static int number_well_formed(const char *s)
{
	if (*s == '-')
		s++;
	if (*s == '0')
		s++;
	else if (*s >= '1' && *s <= '9')
		while (*s >= '0' && *s <= '9')
			s++;
	else
		return 0;
	if (*s == '.') {
		if (!(*++s >= '0' && *s <= '9'))
			return 0;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		if (!(*s >= '0' && *s <= '9'))
			return 0;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	return *s == '\0';
}

/*
 * A number's bytes into text, read across buffers (number_text), and
 * checked.
 */
static int number_text_slow(struct json *j)
{
	j->len = 0;
	text_add(j, "", 0);
	while (peek_byte(j) >= 0) {
		size_t to = j->at;
		while (to < j->end && is_number_byte(j->buf[to]))
			to++;
		if (j->len + (to - j->at) > NUMBER_TEXT_MAX)
			return json_error(j, "a number longer than %d characters", NUMBER_TEXT_MAX);
		text_add(j, j->buf + j->at, to - j->at);
		j->at = to;
		if (to < j->end)
			break;
	}
	if (j->failed)
		return -1;
	if (!number_well_formed(j->text))
		return json_error(j, "bad number '%.40s'", j->text);
	return 0;
}

/* A number's bytes into text: at once where it lies in the buffer, as most do. */
static inline int number_text(struct json *j)
{
	struct scanned n;
	if (!scan_number(j, j->at, &n))
		return number_text_slow(j);
	text_set(j, j->buf + j->at, n.len);
	j->at += n.len;
	return 0;
}

static enum json_token literal(struct json *j)
{
	static const char *const words[] = { "true", "false", "null" };
	static const enum json_token tokens[] = { JSON_TRUE, JSON_FALSE, JSON_NULL };
	char word[8];
	size_t n = 0;
	for (int c; (c = peek_byte(j)) >= 'a' && c <= 'z' && n < sizeof word - 1;) {
		word[n++] = (char)c;
		take_byte(j);
	}
	word[n] = '\0';
	for (size_t i = 0; i < 3; i++)
		if (strcmp(word, words[i]) == 0)
			return tokens[i];
	if (!j->failed)
		json_error(j, n ? "bad word '%s'" : "not JSON here", word);
	return JSON_FAILED;
}

/* Skips white space (and a UTF-8 byte-order mark at the very start); see skip_space. */
static int skip_space_slow(struct json *j)
{
	if (j->consumed == 0 && j->at == 0 && peek_byte(j) == 0xef && j->end >= 3 &&
	    memcmp(j->buf, "\xef\xbb\xbf", 3) == 0)
		j->at = 3;
	int c;
	while ((c = peek_byte(j)) == ' ' || c == '\t' || c == '\n' || c == '\r') {
		take_byte(j);
		/* The rest of the buffer's white space at once: pretty-printed files have much. */
		while (j->at < j->end && (j->buf[j->at] == ' ' || j->buf[j->at] == '\t' || j->buf[j->at] == '\r'))
			j->at++;
	}
	j->token_offset = j->consumed + j->at;
	j->token_line = j->line;
	return c;
}

/*
 * The next token's first byte, white space skipped, its place noted for
 * messages. Most tokens follow the one before with no space between
 * them. (At the very start the buffer is empty: the slow way looks for
 * the byte-order mark.)
 */
static inline int skip_space(struct json *j)
{
	if (j->at < j->end && j->buf[j->at] > ' ') {
		j->token_offset = j->consumed + j->at;
		j->token_line = j->line;
		return j->buf[j->at];
	}
	return skip_space_slow(j);
}

static enum json_token after_value(struct json *j, enum json_token t)
{
	j->expect = j->depth ? EXPECT_COMMA : EXPECT_NOTHING;
	return t;
}

/* Is the open container at level `depth` (0 outermost) an object? */
static int nest_is_object(const struct json *j, size_t depth)
{
	return j->nest[depth / 8] >> (depth % 8) & 1;
}

static enum json_token open_container(struct json *j, unsigned char kind)
{
	take_byte(j);
	if (j->depth / 8 + 1 > j->cap_nest)
		grow((void **)&j->nest, &j->cap_nest, j->depth / 8 + 1, 1);
	unsigned char bit = (unsigned char)(1u << (j->depth % 8));
	if (kind == '{')
		j->nest[j->depth / 8] |= bit;
	else
		j->nest[j->depth / 8] &= (unsigned char)~bit;
	j->depth++;
	j->expect = kind == '{' ? EXPECT_FIRST_KEY : EXPECT_FIRST_VALUE;
	return kind == '{' ? JSON_OBJECT : JSON_ARRAY;
}

static enum json_token close_container(struct json *j, int c)
{
	unsigned char open = c == '}' ? '{' : '[';
	if (j->depth == 0 || nest_is_object(j, j->depth - 1) != (open == '{') ||
	    !(j->expect == EXPECT_COMMA || j->expect == (c == '}' ? EXPECT_FIRST_KEY : EXPECT_FIRST_VALUE))) {
		json_error(j, "unexpected '%c'", c);
		return JSON_FAILED;
	}
	take_byte(j);
	j->depth--;
	return after_value(j, c == '}' ? JSON_OBJECT_END : JSON_ARRAY_END);
}

/* A value that is no string and no number (json_next reads those). */
static enum json_token value(struct json *j, int c)
{
	if (c == '{' || c == '[')
		return open_container(j, (unsigned char)c);
	enum json_token t = literal(j);
	return t == JSON_FAILED ? t : after_value(j, t);
}

/* What is wrong where a ':' or a ',' (or the container's end) must come. */
static enum json_token punctuation_error(struct json *j)
{
	if (j->expect == EXPECT_COLON)
		json_error(j, "expected ':' after a key");
	else
		json_error(j, "expected ',' or '%c'", nest_is_object(j, j->depth - 1) ? '}' : ']');
	return JSON_FAILED;
}

enum json_token json_next(struct json *j)
{
	if (j->failed)
		return JSON_FAILED;
	int c;
	/* The punctuation between values is taken on the way to the next token. */
	for (;;) {
		c = skip_space(j);
		if (c == ':' && j->expect == EXPECT_COLON)
			j->expect = EXPECT_VALUE;
		else if (c == ',' && j->expect == EXPECT_COMMA)
			j->expect = nest_is_object(j, j->depth - 1) ? EXPECT_KEY : EXPECT_VALUE;
		else
			break;
		j->at++;
	}
	int is_key = j->expect == EXPECT_KEY || j->expect == EXPECT_FIRST_KEY;
	int is_value = j->expect == EXPECT_VALUE || j->expect == EXPECT_FIRST_VALUE;
	/* Keys, strings and numbers: the tokens that come most, before the checks of what may not come. */
	if (c == '"' && (is_key || is_value)) {
		j->at++;
		if (!string_here(j) && string_text_slow(j) < 0)
			return JSON_FAILED;
		if (!is_key)
			return after_value(j, JSON_STRING);
		j->expect = EXPECT_COLON;
		return JSON_KEY;
	}
	if (is_value && (c == '-' || is_digit((unsigned char)c)))
		return number_text(j) < 0 ? JSON_FAILED : after_value(j, JSON_NUMBER);
	if (c == -2)
		return JSON_FAILED;
	if (j->expect == EXPECT_NOTHING) {
		if (c == -1)
			return JSON_END;
		json_error(j, "more after the JSON value");
		return JSON_FAILED;
	}
	if (c == -1) {
		json_error(j, j->consumed + j->end == 0 ? "empty input" : "the input ends inside the JSON value");
		return JSON_FAILED;
	}
	if (c == '}' || c == ']')
		return close_container(j, c);
	if (j->expect == EXPECT_COLON || j->expect == EXPECT_COMMA)
		return punctuation_error(j);
	if (is_key) {
		json_error(j, "expected a key in quotes");
		return JSON_FAILED;
	}
	return value(j, c);
}

/*
 * What json_next_int and json_next_number share: inside an array, the
 * next element's first byte (the ',' before it taken), when it may be a
 * number: 3 with *c; else what they return (0 at the array's end, 2 for
 * anything else, -1 after reporting).
 */
static int array_number_start(struct json *j, int *c)
{
	if (j->depth == 0 || nest_is_object(j, j->depth - 1))
		return 2;
	while ((*c = skip_space(j)) == ',' && j->expect == EXPECT_COMMA) {
		j->at++;
		j->expect = EXPECT_VALUE;
	}
	if (*c == ']' && j->expect != EXPECT_VALUE)
		return json_next(j) == JSON_ARRAY_END ? 0 : -1;
	if (*c == -2)
		return -1;
	if ((j->expect != EXPECT_VALUE && j->expect != EXPECT_FIRST_VALUE) || (*c != '-' && (*c < '0' || *c > '9')))
		return 2;
	return 3;
}

/*
 * The next number of an array where it lies, when it is (after a ',')
 * the next byte and ends inside the buffer, as in arrays of samples, and
 * is whole if `whole` asks: 1, taken, its scan in *n. When the array's
 * ']' is the next byte: 0, taken. Else 2, nothing taken, for the ways of
 * array_number_start.
 */
static inline int array_number_here(struct json *j, struct scanned *n, int whole)
{
	size_t at = j->at;
	int c = j->buf[at];
	if (j->expect == EXPECT_COMMA && c == ',')
		c = j->buf[++at];
	else if (c == ']' && (j->expect == EXPECT_COMMA || j->expect == EXPECT_FIRST_VALUE))
		at = SIZE_MAX; /* the array's end */
	else if (j->expect != EXPECT_VALUE && j->expect != EXPECT_FIRST_VALUE)
		return 2;
	if (j->depth == 0 || nest_is_object(j, j->depth - 1))
		return 2;
	if (at == SIZE_MAX) {
		j->token_offset = j->consumed + j->at;
		j->token_line = j->line;
		j->at++;
		j->depth--;
		after_value(j, JSON_ARRAY_END);
		return 0;
	}
	if (!(is_digit((unsigned char)c) || c == '-') || !scan_number(j, at, n) || (whole && !n->whole))
		return 2;
	j->token_offset = j->consumed + at;
	j->token_line = j->line;
	j->at = at + n->len;
	after_value(j, JSON_NUMBER);
	return 1;
}

int json_next_int(struct json *j, int64_t *v)
{
	struct scanned n;
	if (j->failed)
		return -1;
	int here = array_number_here(j, &n, 1);
	if (here == 0)
		return 0;
	if (here == 2) {
		int c, k = array_number_start(j, &c);
		if (k != 3 || !scan_number(j, j->at, &n) || !n.whole)
			return k == 3 ? 2 : k;
		j->at += n.len;
		after_value(j, JSON_NUMBER);
	}
	*v = n.value;
	return 1;
}

int json_next_number(struct json *j, int64_t *v)
{
	struct scanned n;
	if (j->failed)
		return -1;
	int here = array_number_here(j, &n, 0);
	if (here == 0)
		return 0;
	if (here == 2) {
		int c, k = array_number_start(j, &c);
		if (k != 3)
			return k;
		if (!scan_number(j, j->at, &n)) {
			if (number_text_slow(j) < 0)
				return -1;
			after_value(j, JSON_NUMBER);
			return 3;
		}
		j->at += n.len;
		after_value(j, JSON_NUMBER);
	}
	if (n.whole) {
		*v = n.value;
		return 1;
	}
	text_set(j, j->buf + j->at - n.len, n.len);
	return 3;
}

int json_next_whole(struct json *j, int64_t *v)
{
	struct scanned n;
	size_t at = j->at;
	int expect = j->expect;
	if (j->failed)
		return -1;
	if (expect == EXPECT_COLON && j->buf[at] == ':')
		at++;
	else if (expect == EXPECT_COMMA && j->buf[at] == ',' && !nest_is_object(j, j->depth - 1))
		at++;
	else if (expect != EXPECT_VALUE && expect != EXPECT_FIRST_VALUE)
		return 0;
	if (!(is_digit(j->buf[at]) || j->buf[at] == '-') || !scan_number(j, at, &n) || !n.whole)
		return 0;
	j->token_offset = j->consumed + at;
	j->token_line = j->line;
	j->at = at + n.len;
	after_value(j, JSON_NUMBER);
	*v = n.value;
	return 1;
}

int json_input_ends(struct json *j)
{
	if (j->failed)
		return -1;
	int c = skip_space(j);
	if (c == ',' && j->expect == EXPECT_COMMA) {
		take_byte(j);
		j->expect = EXPECT_VALUE;
		c = skip_space(j);
	}
	return c == -2 ? -1 : c == -1;
}

int json_skip(struct json *j, enum json_token first)
{
	if (first == JSON_FAILED)
		return -1;
	if (first != JSON_OBJECT && first != JSON_ARRAY)
		return 0;
	size_t depth = j->depth - 1;
	while (j->depth > depth)
		if (json_next(j) == JSON_FAILED)
			return -1;
	return 0;
}

/* The next token of the tree's node open at depth - 1, which may open or close one. */
static int tree_step(struct json *j, const struct json_tree_calls *calls, void *ctx, uint8_t **in_children,
		     size_t *cap, size_t *depth)
{
	size_t at = *depth - 1;
	enum json_token t = json_next(j);
	if (t == JSON_FAILED)
		return -1;
	if ((*in_children)[at]) {
		if (t == JSON_ARRAY_END) {
			(*in_children)[at] = 0;
			return 0;
		}
		if (t != JSON_OBJECT)
			return json_error(j, "children must be node objects");
		grow((void **)in_children, cap, *depth + 1, 1);
		(*in_children)[(*depth)++] = 0;
		calls->open(ctx, at + 1);
		return 0;
	}
	if (t == JSON_OBJECT_END) {
		(*depth)--;
		return calls->close(ctx, at);
	}
	if (strcmp(j->text, "children") == 0) {
		(*in_children)[at] = 1;
		return json_expect(j, JSON_ARRAY, "children to be an array of nodes");
	}
	return calls->field(ctx, at);
}

int json_tree(struct json *j, const struct json_tree_calls *calls, void *ctx)
{
	size_t depth = 1, cap = 0;
	uint8_t *in_children = NULL;
	grow((void **)&in_children, &cap, 1, 1);
	in_children[0] = 0;
	calls->open(ctx, 0);
	int rc = 0;
	while (depth > 0 && rc == 0)
		rc = tree_step(j, calls, ctx, &in_children, &cap, &depth);
	free(in_children);
	return rc;
}

int json_expect(struct json *j, enum json_token want, const char *what)
{
	enum json_token t = json_next(j);
	if (t == want)
		return 0;
	return t == JSON_FAILED ? -1 : json_error(j, "expected %s", what);
}

int json_int(struct json *j, const char *what, int64_t *v)
{
	const char *s = j->text;
	int negative = *s == '-';
	uint64_t u = 0, limit = negative ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	for (s += negative; *s >= '0' && *s <= '9'; s++) {
		unsigned d = (unsigned)(*s - '0');
		if (u > (limit - d) / 10)
			return json_error(j, "%s '%.40s' is past the 64-bit range", what, j->text);
		u = u * 10 + d;
	}
	if (*s)
		return json_error(j, "%s must be a whole number, not '%.40s'", what, j->text);
	*v = negative ? (int64_t)(0 - u) : (int64_t)u;
	return 0;
}

/* The digits of a number (no sign), and the power of ten they are scaled by. */
static int split_decimal(const char *s, uint64_t *digits, int64_t *exponent)
{
	uint64_t d = 0;
	int64_t e = 0;
	int point = 0;
	for (; (*s >= '0' && *s <= '9') || *s == '.'; s++) {
		if (*s == '.') {
			point = 1;
			continue;
		}
		if (d > (UINT64_MAX - 9) / 10)
			return -1;
		d = d * 10 + (uint64_t)(*s - '0');
		e -= point;
	}
	if (*s == 'e' || *s == 'E') {
		int64_t x = 0;
		int negative = *++s == '-';
		s += *s == '-' || *s == '+';
		for (; *s >= '0' && *s <= '9'; s++)
			if ((x = x * 10 + (*s - '0')) > 1000)
				return d == 0 ? (*digits = 0, *exponent = 0, 0) : -1;
		e += negative ? -x : x;
	}
	while (d && d % 10 == 0 && e < 0) {
		d /= 10;
		e++;
	}
	*digits = d;
	*exponent = d ? e : 0;
	return 0;
}

int json_decimal(struct json *j, const char *what, int64_t *v, unsigned *decimals)
{
	int negative = j->text[0] == '-';
	uint64_t digits;
	int64_t exponent;
	if (split_decimal(j->text + negative, &digits, &exponent) < 0 || exponent < -DECIMALS_MAX)
		return json_error(j, "%s '%.40s' has more digits than prof keeps (%d decimals, 19 digits)",
				  what, j->text, DECIMALS_MAX);
	unsigned need = exponent < 0 ? (unsigned)-exponent : 0;
	unsigned scale = (unsigned)(exponent > 0 ? exponent : 0);
	if (need > *decimals)
		*decimals = need;
	else
		scale += *decimals - need;
	for (; scale > 0; scale--) {
		if (digits > (uint64_t)INT64_MAX / 10)
			return json_error(j, "%s '%.40s' is too large", what, j->text);
		digits *= 10;
	}
	if (digits > (uint64_t)INT64_MAX)
		return json_error(j, "%s '%.40s' is too large", what, j->text);
	*v = negative ? -(int64_t)digits : (int64_t)digits;
	return 0;
}

int json_prefix_is_object(const unsigned char *prefix, size_t len)
{
	size_t i = len >= 3 && memcmp(prefix, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
	while (i < len && (prefix[i] == ' ' || prefix[i] == '\t' || prefix[i] == '\n' || prefix[i] == '\r'))
		i++;
	return i < len && prefix[i] == '{';
}

int json_prefix_has(const unsigned char *prefix, size_t len, const char *needle)
{
	size_t n = strlen(needle);
	for (const unsigned char *p = prefix; n <= len && (size_t)(p - prefix) <= len - n; p++) {
		p = memchr(p, needle[0], len - n + 1 - (size_t)(p - prefix));
		if (!p)
			return 0;
		if (memcmp(p, needle, n) == 0)
			return 1;
	}
	return 0;
}

int json_write_string(struct output *out, const char *s, size_t len)
{
	int replaced = 0;
	output_byte(out, '"');
	for (size_t i = 0; i < len;) {
		unsigned char c = (unsigned char)s[i];
		if (c == '"' || c == '\\') {
			output_byte(out, '\\');
			output_byte(out, (char)c);
			i++;
		} else if (c < 0x20) {
			char esc[8];
			snprintf(esc, sizeof esc, "\\u%04x", c);
			output_str(out, esc);
			i++;
		} else if (c < 0x80) {
			output_byte(out, (char)c);
			i++;
		} else {
			size_t n = utf8_char((const unsigned char *)s + i, len - i);
			if (n) {
				output_write(out, s + i, n);
				i += n;
			} else {
				output_str(out, UTF8_REPLACEMENT);
				replaced = 1;
				i++;
			}
		}
	}
	output_byte(out, '"');
	return replaced;
}
