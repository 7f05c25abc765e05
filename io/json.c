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
	j->buf = xmalloc(JSON_BUFFER);
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

/* The next byte without taking it: 0-255, -1 at the end, -2 after a read error. */
static int peek_byte(struct json *j)
{
	if (j->at == j->end) {
		j->consumed += j->end;
		j->at = j->end = 0;
		long n = input_read(j->in, j->buf, JSON_BUFFER);
		if (n < 0) {
			j->failed = 1;
			return -2;
		}
		j->end = (size_t)n;
		if (n == 0)
			return -1;
	}
	return j->buf[j->at];
}

static void take_byte(struct json *j)
{
	if (j->buf[j->at++] == '\n')
		j->line++;
}

static void text_add(struct json *j, const void *bytes, size_t n)
{
	grow((void **)&j->text, &j->cap, j->len + n + 1, 1);
	memcpy(j->text + j->len, bytes, n);
	j->len += n;
	j->text[j->len] = '\0';
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

/* After the opening quote: the string's bytes into text. */
static int string_text(struct json *j)
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

static int is_number_byte(int c)
{
	return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
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
 * A number's bytes into text: a run at a time from the buffer (profiles
 * are mostly numbers: sample ids and deltas), read again where the
 * buffer ends inside it.
 */
static int number_text(struct json *j)
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

/* Skips white space (and a UTF-8 byte-order mark at the very start). */
static int skip_space(struct json *j)
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

static enum json_token value(struct json *j, int c)
{
	if (c == '{' || c == '[')
		return open_container(j, (unsigned char)c);
	if (c == '"') {
		take_byte(j);
		return string_text(j) < 0 ? JSON_FAILED : after_value(j, JSON_STRING);
	}
	if (c == '-' || (c >= '0' && c <= '9'))
		return number_text(j) < 0 ? JSON_FAILED : after_value(j, JSON_NUMBER);
	enum json_token t = literal(j);
	return t == JSON_FAILED ? t : after_value(j, t);
}

/* Punctuation between values: ',' and ':'. */
static enum json_token punctuation(struct json *j, int c)
{
	if (c == ':' && j->expect == EXPECT_COLON) {
		take_byte(j);
		j->expect = EXPECT_VALUE;
		return json_next(j);
	}
	if (c == ',' && j->expect == EXPECT_COMMA) {
		take_byte(j);
		j->expect = nest_is_object(j, j->depth - 1) ? EXPECT_KEY : EXPECT_VALUE;
		return json_next(j);
	}
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
	int c = skip_space(j);
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
		return punctuation(j, c);
	if (j->expect == EXPECT_FIRST_KEY || j->expect == EXPECT_KEY) {
		if (c != '"') {
			json_error(j, "expected a key in quotes");
			return JSON_FAILED;
		}
		take_byte(j);
		if (string_text(j) < 0)
			return JSON_FAILED;
		j->expect = EXPECT_COLON;
		return JSON_KEY;
	}
	return value(j, c);
}

/*
 * The digits at `at`, when they end inside the buffer and make a whole
 * number in int64 as RFC 8259 writes it (no leading zero): their end,
 * else 0 (json_next then reads them, or says what is wrong).
 */
static size_t plain_int(const struct json *j, size_t at, int64_t *v)
{
	const unsigned char *b = j->buf;
	int negative = b[at] == '-';
	size_t from = at + (size_t)negative, to = from;
	uint64_t u = 0;
	while (to < j->end && b[to] >= '0' && b[to] <= '9' && to - from < 18)
		u = u * 10 + (uint64_t)(b[to++] - '0');
	if (to == from || to >= j->end || is_number_byte(b[to]) || (b[from] == '0' && to - from > 1))
		return 0;
	*v = negative ? -(int64_t)u : (int64_t)u;
	return to;
}

int json_next_int(struct json *j, int64_t *v)
{
	if (j->failed)
		return -1;
	if (j->depth == 0 || nest_is_object(j, j->depth - 1))
		return 2;
	int c = skip_space(j);
	if (c == ',' && j->expect == EXPECT_COMMA) {
		take_byte(j);
		j->expect = EXPECT_VALUE;
		c = skip_space(j);
	}
	if (c == ']' && j->expect != EXPECT_VALUE)
		return json_next(j) == JSON_ARRAY_END ? 0 : -1;
	if (c == -2)
		return -1;
	size_t end;
	if ((j->expect != EXPECT_VALUE && j->expect != EXPECT_FIRST_VALUE) || (c != '-' && (c < '0' || c > '9')) ||
	    !(end = plain_int(j, j->at, v)))
		return 2;
	j->at = end;
	after_value(j, JSON_NUMBER);
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
