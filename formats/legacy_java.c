/*
 * Legacy pprof, Java's kinds (docs/formats/legacy.md), by Go's rules
 * (legacy_java_profile.go): the "--- heapz 1 ---" and "--- contentionz 1
 * ---" texts with "format = java", and the symbol lines that follow their
 * samples and gperftools' Java CPU records: "0xADDR function (file:line)".
 * An address is only a key into those lines: legacy_finish gives each
 * location its function and line, and no address (Go's Aggregate).
 */
#include <string.h>

#include "../base/alloc.h"
#include "../base/ascii.h"
#include "legacy.h"

enum { JAVA_HEAP_RATE = 524288 };

/* Go's \w and a blank: attributeRx's class. */
static int is_attribute_char(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ' ';
}

static int span_is(struct legacy_span t, const char *s)
{
	return t.len == strlen(s) && memcmp(t.s, s, t.len) == 0;
}

/* attributeRx, "([\w ]+)=([\w ]+)", at its leftmost match; both parts trimmed. */
static int attribute(const char *s, size_t len, struct legacy_span *key, struct legacy_span *value)
{
	for (size_t i = 0; i < len;) {
		if (!is_attribute_char(s[i])) {
			i++;
			continue;
		}
		size_t j = i;
		while (j < len && is_attribute_char(s[j]))
			j++;
		if (j + 1 < len && s[j] == '=' && is_attribute_char(s[j + 1])) {
			size_t k = j + 1;
			while (k < len && is_attribute_char(s[k]))
				k++;
			*key = (struct legacy_span){ s + i, j - i };
			*value = (struct legacy_span){ s + j + 1, k - j - 1 };
			legacy_trim(&key->s, &key->len);
			legacy_trim(&value->s, &value->len);
			return 1;
		}
		i = j;
	}
	return 0;
}

int legacy_is_java_contention(const unsigned char *rest, size_t len)
{
	for (size_t at = 0; at < len;) {
		const unsigned char *nl = memchr(rest + at, '\n', len - at);
		const char *s = (const char *)rest + at;
		size_t n = nl ? (size_t)(nl - rest) - at : len - at;
		at += n + 1;
		if (legacy_is_space_or_comment(s, n))
			continue;
		legacy_trim(&s, &n);
		const char *eq = memchr(s, '=', n);
		if (n >= 3 && memcmp(s, "---", 3) == 0)
			return 0;
		if (!eq)
			return 0;
		struct legacy_span key = { s, (size_t)(eq - s) };
		legacy_trim(&key.s, &key.len);
		if (span_is(key, "format") || span_is(key, "resolution"))
			return 1;
	}
	return 0;
}

static void set_types(struct legacy_profile *p, const char *first, struct legacy_span unit)
{
	free(p->owned_unit);
	p->owned_unit = legacy_copy(unit);
	p->types[0][0] = first;
	p->types[0][1] = "count";
	p->types[1][0] = p->java_heap ? "inuse_space" : "delay";
	p->types[1][1] = p->owned_unit;
	p->n_types = 2;
}

/* One "key = value" of the header; 1 when the line is none (the samples begin). */
static int java_attribute(struct lines *t, struct legacy_profile *p, const char *s, size_t len)
{
	struct legacy_span key, value;
	int64_t v;
	if (!attribute(s, len, &key, &value))
		return 1;
	if (span_is(key, "format") && !span_is(value, "java"))
		return lines_error(t, 0, "not a Java profile's format", value.s, value.len);
	if (span_is(key, "format"))
		return 0;
	if (span_is(key, "resolution")) {
		set_types(p, p->java_heap ? "inuse_objects" : "contentions", value);
		return 0;
	}
	if (p->java_heap || !(span_is(key, "sampling period") || span_is(key, "ms since reset")))
		return lines_error(t, 0, "not a Java profile's attribute", s, len);
	if (!legacy_go_integer(value, &v))
		return lines_error(t, 0, "not a whole number", value.s, value.len);
	if (span_is(key, "ms since reset")) {
		p->duration_nanos = legacy_wrapping_mul(v, 1000 * 1000);
	} else {
		p->period_type = "contentions";
		p->period_unit = "count";
		p->period = v;
	}
	return 0;
}

static int run_at(const char *s, size_t len, size_t *i, int (*in_class)(char))
{
	size_t from = *i;
	while (*i < len && in_class(s[*i]))
		(*i)++;
	return *i > from;
}

static int is_blank(char c)
{
	return c == ' ';
}

static int is_address_char(char c)
{
	return c == ' ' || c == 'x' || is_digit(c) || (c >= 'a' && c <= 'f');
}

/*
 * javaSampleRx, " *(\d+) +(\d+) +@ +([ x0-9a-f]*)", at its leftmost match;
 * a start inside a run of digits fails as the run's first did.
 */
static int java_sample(const char *s, size_t len, struct legacy_span g[3])
{
	for (size_t i = 0; i < len; i++) {
		if (!is_digit(s[i]))
			continue;
		size_t j = i, second;
		run_at(s, len, &j, is_digit);
		size_t first_end = j;
		if (run_at(s, len, &j, is_blank) && (second = j, run_at(s, len, &j, is_digit))) {
			size_t second_end = j;
			if (run_at(s, len, &j, is_blank) && j < len && s[j] == '@' && (j++, run_at(s, len, &j, is_blank))) {
				size_t from = j;
				while (j < len && is_address_char(s[j]))
					j++;
				g[0] = (struct legacy_span){ s + i, first_end - i };
				g[1] = (struct legacy_span){ s + second, second_end - second };
				g[2] = (struct legacy_span){ s + from, j - from };
				return 1;
			}
		}
		i = first_end - 1;
	}
	return 0;
}

/* One sample: the size (or delay) first, then the count; 1 when the line is none. */
static int java_sample_line(struct lines *t, struct legacy_profile *p, const char *s, size_t len)
{
	struct legacy_span g[3];
	int64_t size, count;
	if (!java_sample(s, len, g))
		return 1;
	if (!legacy_decimal(g[0], &size) || !legacy_decimal(g[1], &count))
		return lines_error(t, 0, "a number out of range", s, len);
	if (p->n_types == 0)
		return lines_errorf(t, 0, "a sample before the \"resolution\" that names its types");
	struct legacy_sample *sample = legacy_add_sample(p);
	if (p->java_heap) {
		if (count == 0)
			return lines_error(t, 0, "a heap sample's count is 0", s, len);
		sample->has_bytes = 1;
		sample->bytes = size / count;
		legacy_unsample(&count, &size, JAVA_HEAP_RATE);
	} else if (p->period != 0) {
		count = legacy_wrapping_mul(count, p->period);
		size = legacy_wrapping_mul(size, p->period);
	}
	sample->values[0] = count;
	sample->values[1] = size;
	if (!legacy_hex_addresses(p, g[2], SIZE_MAX))
		return lines_error(t, 0, "an address out of range", s, len);
	return 0;
}

/* filepath.Base */
static struct legacy_span base_name(struct legacy_span path)
{
	while (path.len > 1 && path.s[path.len - 1] == '/')
		path.len--;
	if (path.len == 0)
		return (struct legacy_span){ ".", 1 };
	size_t k = path.len;
	while (k > 0 && path.s[k - 1] != '/')
		k--;
	if (k == path.len)
		return path;
	return (struct legacy_span){ path.s + k, path.len - k };
}

/* The rightmost "(" at or before `last` that follows a blank: Go's greedy "(.*)\s+\(". */
static size_t open_paren(const char *s, size_t last)
{
	for (size_t k = last + 1; k-- > 1;)
		if (s[k] == '(' && legacy_is_space(s[k - 1]))
			return k;
	return 0;
}

/* javaLocationFileLineRx, "^(.*)\s+\((.+):(-?\d+)\)$"; the function, file and line. */
static int file_line(const char *s, size_t len, struct legacy_symbol *sym)
{
	if (len < 5 || s[len - 1] != ')')
		return 0;
	size_t q = len - 1;
	while (q > 0 && is_digit(s[q - 1]))
		q--;
	if (q == len - 1)
		return 0;
	if (q > 0 && s[q - 1] == '-')
		q--;
	if (q == 0 || s[q - 1] != ':' || q < 3)
		return 0;
	size_t colon = q - 1, k = open_paren(s, colon - 2);
	if (k == 0)
		return 0;
	int64_t line;
	struct legacy_span digits = { s + q, len - 1 - q };
	sym->line = legacy_decimal(digits, &line) && line > 0 ? line : 0;
	sym->function = legacy_copy((struct legacy_span){ s, k - 1 });
	sym->file = legacy_copy((struct legacy_span){ s + k + 1, colon - k - 1 });
	return 1;
}

/* javaLocationPathRx, "^(.*)\s+\((.*)\)$": the function and the path's base name. */
static int path_only(const char *s, size_t len, struct legacy_symbol *sym)
{
	if (len < 3 || s[len - 1] != ')')
		return 0;
	size_t k = open_paren(s, len - 2);
	if (k == 0)
		return 0;
	sym->function = legacy_copy((struct legacy_span){ s, k - 1 });
	sym->file = legacy_copy(base_name((struct legacy_span){ s + k + 1, len - k - 2 }));
	return 1;
}

/* javaLocationRx, "^\s*0x([[:xdigit:]]+)\s+(.*)\s*$"; other lines are ignored. */
static int symbol_line(struct lines *t, struct legacy_profile *p, const char *s, size_t len)
{
	size_t i = 2;
	uint64_t address = 0;
	if (len < 3 || s[0] != '0' || s[1] != 'x' || !run_at(s, len, &i, is_hex) ||
	    !run_at(s, len, &i, legacy_is_space))
		return 0;
	for (size_t k = 2; is_hex(s[k]); k++) {
		if (address >> 60)
			return lines_error(t, 0, "an address out of range", s, len);
		address = address << 4 | (uint64_t)(is_digit(s[k]) ? s[k] - '0' : (s[k] | 0x20) - 'a' + 10);
	}
	struct legacy_symbol sym = { address, NULL, NULL, 0 };
	s += i;
	len -= i;
	if (!file_line(s, len, &sym) && !path_only(s, len, &sym)) {
		int is_stub = legacy_contains(s, len, "generated stub/JIT");
		sym.function = is_stub ? legacy_copy((struct legacy_span){ "STUB", 4 }) : legacy_copy((struct legacy_span){ s, len });
		sym.file = legacy_copy((struct legacy_span){ "", 0 });
	}
	grow((void **)&p->symbols, &p->cap_symbols, p->n_symbols + 1, sizeof *p->symbols);
	p->symbols[p->n_symbols++] = sym;
	return 0;
}

/* The header's attributes, the samples, then symbol lines, each part ending where a line is none of it. */
int legacy_read_java(struct lines *t, struct legacy_profile *p, int with_header)
{
	enum { HEADER, SAMPLES, SYMBOLS } part = with_header ? HEADER : SYMBOLS;
	const char *s;
	size_t len;
	int rc;
	p->java = 1;
	while ((rc = lines_next(t, &s, &len)) != 0) {
		if (rc < 0 || (legacy_trim(&s, &len), len == 0))
			continue;
		if (part == HEADER && (rc = java_attribute(t, p, s, len)) <= 0) {
			if (rc < 0 && !lines_go_on(t))
				return -1;
			continue;
		}
		part = part == HEADER ? SAMPLES : part;
		if (part == SAMPLES && (rc = java_sample_line(t, p, s, len)) <= 0) {
			if (rc < 0 && !lines_go_on(t))
				return -1;
			continue;
		}
		part = SYMBOLS;
		if (symbol_line(t, p, s, len) < 0 && !lines_go_on(t))
			return -1;
	}
	return t->failed ? -1 : 0;
}
