/*
 * Legacy pprof: the memory map (legacy.h), read as Go's profile package
 * reads it: which lines count (executable ones, in /proc/PID/maps form or
 * the brief "START-END: FILE [(@OFFSET)] [BUILDID]" form, after a glog
 * prefix is cut and "$key" assignments replaced), each field taken as
 * Go's procMapsRE and briefMapsRE take it.
 */
#include "legacy.h"

#include <string.h>

#include "../base/alloc.h"
#include "../base/ascii.h"
#include "../base/diag.h"

/*
 * Bounds on "key = value" assignments, which no profiler here writes:
 * their number and key length, and the length of a line they make (no
 * map line is longer), so that time and memory stay linear in the input.
 */
enum { MAX_ATTRS = 256, MAX_KEY = 256, MAX_REPLACED_LINE = 65536 };

/* Go's \s in its patterns; TrimSpace also takes \v. */
static int is_space(char c)
{
	return legacy_is_space(c);
}

static int is_perm(char c)
{
	return c == '-' || c == 'r' || c == 'w' || c == 'x' || c == 'p';
}

static int not_space(char c)
{
	return !is_space(c);
}

static size_t run(const char *s, size_t len, size_t *i, int (*in_class)(char))
{
	size_t from = *i;
	while (*i < len && in_class(s[*i]))
		(*i)++;
	return *i - from;
}

/* "\s+" then a run of the class (at least one); the run, or 0 leaving *i. */
static int spaced(const char *s, size_t len, size_t *i, int (*in_class)(char), struct legacy_span *out)
{
	size_t j = *i;
	if (run(s, len, &j, is_space) == 0)
		return 0;
	const char *from = s + j;
	if (run(s, len, &j, in_class) == 0)
		return 0;
	*out = (struct legacy_span){ from, (size_t)(s + j - from) };
	*i = j;
	return 1;
}

static int has_0x(const char *s, size_t len, size_t i)
{
	return i + 1 < len && s[i] == '0' && s[i + 1] == 'x';
}

/* "(?:0x)?([[:xdigit:]]+)" from *i, trying the prefix first as Go does. */
static int hex_number(const char *s, size_t len, size_t *i, struct legacy_span *out)
{
	for (int with_0x = has_0x(s, len, *i); with_0x >= 0; with_0x--) {
		size_t j = *i + (with_0x ? 2 : 0);
		const char *from = s + j;
		if (run(s, len, &j, is_hex)) {
			*out = (struct legacy_span){ from, (size_t)(s + j - from) };
			*i = j;
			return 1;
		}
	}
	return 0;
}

/*
 * "^\s*(?:0x)?HEX[\s-]?\s*(?:0x)?HEX:?": a range. With nothing between
 * the numbers, Go's backtracking gives the second one the last digit.
 */
static int hex_range(const char *s, size_t len, size_t *i, struct legacy_span *start, struct legacy_span *end)
{
	run(s, len, i, is_space);
	if (!hex_number(s, len, i, start))
		return 0;
	size_t j = *i;
	if (j < len && (is_space(s[j]) || s[j] == '-'))
		j++;
	run(s, len, &j, is_space);
	if (!hex_number(s, len, &j, end)) {
		if (start->len < 2)
			return 0;
		start->len--;
		j = *i - 1;
		if (!hex_number(s, len, &j, end))
			return 0;
	}
	if (j < len && s[j] == ':')
		j++;
	*i = j;
	return 1;
}

struct map_entry {
	struct legacy_span start, end, perm, offset, file, build_id;
};

/* procMapsRE's tail after the range: [perm] [offset] DEV INODE [file], Go's order of tries. */
static int proc_maps_tail(const char *s, size_t len, size_t i, struct map_entry *e)
{
	for (int take_perm = 1; take_perm >= 0; take_perm--)
		for (int take_offset = 1; take_offset >= 0; take_offset--) {
			size_t j = i;
			struct legacy_span perm = { "", 0 }, offset = { "", 0 }, dev, inode, file = { "", 0 };
			if (take_perm && !spaced(s, len, &j, is_perm, &perm))
				continue;
			if (take_offset && !spaced(s, len, &j, is_hex, &offset))
				continue;
			if (!spaced(s, len, &j, is_hex, &dev) || j >= len || s[j] != ':')
				continue;
			j++;
			if (run(s, len, &j, is_hex) == 0 || !spaced(s, len, &j, is_digit, &inode))
				continue;
			spaced(s, len, &j, not_space, &file);
			e->perm = perm, e->offset = offset, e->file = file;
			return 1;
		}
	return 0;
}

/* briefMapsRE's tail: every part optional, each taken when it is there. */
static void brief_maps_tail(const char *s, size_t len, size_t i, struct map_entry *e)
{
	spaced(s, len, &i, is_perm, &e->perm);
	spaced(s, len, &i, not_space, &e->file);
	size_t j = i;
	if (run(s, len, &j, is_space) && j + 1 < len && s[j] == '(' && s[j + 1] == '@') {
		size_t k = j + 2;
		const char *from = s + k;
		if (run(s, len, &k, is_hex) && k < len && s[k] == ')') {
			e->offset = (struct legacy_span){ from, (size_t)(s + k - from) };
			i = k + 1;
		}
	}
	spaced(s, len, &i, is_hex, &e->build_id);
}

/* 1 and the entry, or 0 when the line is no map entry. */
static int map_entry(const char *s, size_t len, struct map_entry *e)
{
	memset(e, 0, sizeof *e);
	size_t i = 0;
	if (!hex_range(s, len, &i, &e->start, &e->end))
		return 0;
	if (!proc_maps_tail(s, len, i, e))
		brief_maps_tail(s, len, i, e);
	return 1;
}

/* strconv.ParseUint(s, 16, 64): 0 when it does not fit. */
static int hex_value(struct legacy_span t, uint64_t *v)
{
	*v = 0;
	for (size_t k = 0; k < t.len; k++) {
		char c = t.s[k];
		unsigned d = is_digit(c) ? (unsigned)(c - '0') : (unsigned)((c | 0x20) - 'a' + 10);
		if (*v >> 60)
			return 0;
		*v = *v << 4 | d;
	}
	return 1;
}

/* 1: an executable mapping added; 0: a line that is no entry; -1: an entry skipped. */
static int add_mapping(struct legacy_profile *p, const char *s, size_t len)
{
	struct map_entry e;
	struct legacy_mapping m = { 0, 0, 0, NULL, NULL };
	if (!map_entry(s, len, &e) || !hex_value(e.start, &m.start) || !hex_value(e.end, &m.limit) ||
	    !hex_value(e.offset, &m.offset))
		return 0;
	if (e.perm.len && !memchr(e.perm.s, 'x', e.perm.len))
		return -1;
	m.file = legacy_copy(e.file);
	m.build_id = legacy_copy(e.build_id);
	grow((void **)&p->mappings, &p->cap_mappings, p->n_mappings + 1, sizeof *p->mappings);
	p->mappings[p->n_mappings++] = m;
	return 1;
}

/* glog's "file.cc:123] " before a line (Go's logInfoRE). */
static void cut_log_prefix(const char **s, size_t *len)
{
	size_t k = 0;
	while (k < *len && (*s)[k] != '[' && (*s)[k] != ']')
		k++;
	if (k >= *len || (*s)[k] != ']' || k + 1 >= *len || !is_space((*s)[k + 1]))
		return;
	size_t j = k;
	while (j > 0 && is_digit((*s)[j - 1]))
		j--;
	if (j == k || j < 2 || (*s)[j - 1] != ':')
		return;
	*s += k + 2;
	*len -= k + 2;
}

static void append(char **out, size_t *out_len, size_t *cap, const char *s, size_t len)
{
	grow((void **)out, cap, *out_len + len + 1, 1);
	memcpy(*out + *out_len, s, len);
	*out_len += len;
}

/*
 * Replaces each "$key" by its value, the first assignment winning where
 * several match; 0 when the line grows past MAX_REPLACED_LINE.
 */
static int replace_attrs(const struct legacy_profile *p, const char *s, size_t len, char **out,
			 size_t *out_len, size_t *cap)
{
	*out_len = 0;
	append(out, out_len, cap, "", 0);
	for (size_t i = 0; i < len && *out_len <= MAX_REPLACED_LINE;) {
		const char *dollar = memchr(s + i, '$', len - i);
		size_t plain = (dollar ? (size_t)(dollar - s) : len) - i;
		append(out, out_len, cap, s + i, plain);
		if ((i += plain) == len)
			break;
		const struct legacy_attr *match = NULL;
		for (size_t a = 0; a < p->n_attrs && !match; a++) {
			size_t key_len = strlen(p->attrs[a].key);
			if (key_len <= len - i && memcmp(s + i, p->attrs[a].key, key_len) == 0)
				match = &p->attrs[a];
		}
		append(out, out_len, cap, match ? match->value : "$", match ? strlen(match->value) : 1);
		i += match ? strlen(match->key) : 1;
	}
	return *out_len <= MAX_REPLACED_LINE;
}

static void add_attr(struct legacy_profile *p, const char *s, size_t len, const char *source)
{
	const char *eq = memchr(s, '=', len);
	if (!eq)
		return;
	const char *key = s, *value = eq + 1;
	size_t key_len = (size_t)(eq - s), value_len = len - key_len - 1;
	legacy_trim(&key, &key_len);
	legacy_trim(&value, &value_len);
	if (p->n_attrs == MAX_ATTRS || key_len > MAX_KEY) {
		if (!p->attrs_dropped)
			diag_warn(source, 0, "more than %d assignments in the memory map, or a key longer than %d "
					     "bytes: ignored", MAX_ATTRS, MAX_KEY);
		p->attrs_dropped = 1;
		return;
	}
	char *dollar = xmalloc(key_len + 2);
	dollar[0] = '$';
	memcpy(dollar + 1, key, key_len);
	dollar[key_len + 1] = 0;
	grow((void **)&p->attrs, &p->cap_attrs, p->n_attrs + 1, sizeof *p->attrs);
	p->attrs[p->n_attrs++] = (struct legacy_attr){ dollar, legacy_copy((struct legacy_span){ value, value_len }) };
}

int legacy_read_maps(struct legacy_profile *p, struct lines *t)
{
	const char *s;
	size_t len, cap = 0, line_len;
	char *line = NULL;
	int rc;
	t->check_nul = 0;
	while ((rc = lines_next(t, &s, &len)) > 0) {
		cut_log_prefix(&s, &len);
		if (replace_attrs(p, s, len, &line, &line_len, &cap) && add_mapping(p, line, line_len) == 0)
			add_attr(p, line, line_len, t->in->name);
	}
	free(line);
	return rc;
}
