/*
 * Instruments' deep copy reader (docs/formats/instruments.md), read as the
 * speedscope app's importer reads it, so that prof's stacks and weights
 * are the app's:
 *  - the header names the columns; a row's cell of a name is the last
 *    column of that name the row reaches. The symbol is "Symbol Name", or
 *    Instruments 16's "Symbol Names" less as many characters as the first
 *    row's has up to its last space;
 *  - a row's depth is the whitespace around its symbol (JavaScript's
 *    trim(), in UTF-16 units); a row deeper than one under the open row is
 *    speedscope's "Invalid format";
 *  - its weight is the whole number before the point of its total
 *    ("Bytes Used", else "Weight" or "Running Time"), in its unit
 *    (Bytes/KB/MB/GB; ms/s/min; cycles/Kc/Mc/Gc), as speedscope's pattern
 *    "N UNIT  P.P%" finds it (0 where it finds none). The self columns
 *    are not read: a node's self is what its total leaves after its
 *    children's, laid end to end as the app lays them;
 *  - frames are (Source Path, symbol).
 * One sample type: space/bytes, cpu/milliseconds or cycles/count, by the
 * first weight's unit. Memory grows with distinct frames and the depth.
 */
#include <string.h>

#include "../base/alloc.h"
#include "../base/ascii.h"
#include "../base/checked.h"
#include "../io/lines.h"
#include "../model/textcache.h"
#include "format.h"

int instruments_read(struct input *in, struct model *m);

enum { MAX_DEPTH = 1 << 16, MAX_WEIGHT_CELL = 256 };

/* The columns speedscope reads, by header name. */
enum column { COL_NONE, COL_BYTES, COL_WEIGHT, COL_RUNNING, COL_SYMBOL, COL_SYMBOLS, COL_SOURCE, N_COLUMNS };

static const char *const column_names[N_COLUMNS] = {
	NULL, "Bytes Used", "Weight", "Running Time", "Symbol Name", "Symbol Names", "Source Path",
};

enum unit_class { UNITS_NONE, UNITS_BYTES, UNITS_TIME, UNITS_CYCLES };

struct unit {
	const char *name;
	int64_t scale;
	enum unit_class class;
};

static const struct unit byte_units[] = {
	{ "Bytes", 1, UNITS_BYTES },
	{ "KB", 1024, UNITS_BYTES },
	{ "MB", 1024 * 1024, UNITS_BYTES },
	{ "GB", 1024 * 1024 * 1024, UNITS_BYTES },
	{ NULL, 0, UNITS_NONE },
};

static const struct unit weight_units[] = {
	{ "ms", 1, UNITS_TIME },
	{ "s", 1000, UNITS_TIME },
	{ "min", 60 * 1000, UNITS_TIME },
	{ "cycles", 1, UNITS_CYCLES },
	{ "Kc", 1000, UNITS_CYCLES },
	{ "Mc", 1000 * 1000, UNITS_CYCLES },
	{ "Gc", 1000 * 1000 * 1000, UNITS_CYCLES },
	{ NULL, 0, UNITS_NONE },
};

struct text {
	const char *s;
	size_t len;
};

struct open_frame {
	uint32_t stack;
	int64_t end; /* where the frame's total ends, laid from where it began */
};

struct reader {
	struct lines lines;
	struct model *m;
	uint8_t *columns; /* by header column: enum column */
	size_t n_columns, cap_columns;
	int first_row_read;
	size_t names_cut; /* UTF-16 units "Symbol Names" loses, by the first row */
	enum unit_class class;
	struct open_frame *open;
	size_t depth, cap_open;
	int64_t at, laid; /* where the next frame begins; how far samples are laid */
	struct text_cache frames; /* location by "path\tsymbol" */
	char *key;
	size_t cap_key;
	uint64_t rows;
};

/* The byte length of a JavaScript whitespace character (\s, trim) at s, or 0. */
static size_t space_at(const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;
	if (len == 0)
		return 0;
	if (u[0] == ' ' || (u[0] >= '\t' && u[0] <= '\r'))
		return 1;
	if (len >= 2 && u[0] == 0xc2 && u[1] == 0xa0)
		return 2;
	if (len < 3)
		return 0;
	if (u[0] == 0xe1 && u[1] == 0x9a && u[2] == 0x80) /* U+1680 */
		return 3;
	if (u[0] == 0xe2 && u[1] == 0x80 && (u[2] <= 0x8a || u[2] == 0xa8 || u[2] == 0xa9 || u[2] == 0xaf))
		return 3; /* U+2000-U+200A, U+2028, U+2029, U+202F */
	if (u[0] == 0xe2 && u[1] == 0x81 && u[2] == 0x9f) /* U+205F */
		return 3;
	if (u[0] == 0xe3 && u[1] == 0x80 && u[2] == 0x80) /* U+3000 */
		return 3;
	return u[0] == 0xef && u[1] == 0xbb && u[2] == 0xbf ? 3 : 0; /* U+FEFF */
}

/* The byte length of a whitespace character ending s[0..len), or 0. */
static size_t space_before(const char *s, size_t len)
{
	for (size_t k = 1; k <= 3 && k <= len; k++)
		if (space_at(s + len - k, k) == k)
			return k;
	return 0;
}

static int is_word(char c)
{
	return is_digit(c) || (ascii_lower(c) >= 'a' && ascii_lower(c) <= 'z') || c == '_';
}

/* How many UTF-16 units a UTF-8 lead byte starts (a stray byte counts one, as its U+FFFD). */
static size_t utf16_units(unsigned char c)
{
	if ((c & 0xc0) == 0x80)
		return 0;
	return c >= 0xf0 && c <= 0xf4 ? 2 : 1;
}

/* s without its first `units` UTF-16 units, as String.slice takes them. */
static struct text slice_units(struct text t, size_t units)
{
	size_t i = 0, seen = 0;
	while (i < t.len && seen < units)
		seen += utf16_units((unsigned char)t.s[i++]);
	while (i < t.len && utf16_units((unsigned char)t.s[i]) == 0)
		i++;
	return (struct text){ t.s + i, t.len - i };
}

/* "P.P%" ending the pattern: digits, a point, digits, a percent sign. */
static int percent_at(const char *s, size_t len, size_t i)
{
	size_t d = i;
	while (d < len && is_digit(s[d]))
		d++;
	if (d == i || d >= len || s[d] != '.')
		return 0;
	size_t f = ++d;
	while (f < len && is_digit(s[f]))
		f++;
	return f > d && f < len && s[f] == '%';
}

/* The pattern's tail from i: a unit (\w+), whitespace, "P.P%"; the unit in *unit. */
static int tail_at(const char *s, size_t len, size_t i, struct text *unit)
{
	size_t w = i;
	while (w < len && is_word(s[w]))
		w++;
	size_t x = w, k;
	while ((k = space_at(s + x, len - x)) != 0)
		x += k;
	if (w == i || x == w || !percent_at(s, len, x))
		return 0;
	*unit = (struct text){ s + i, w - i };
	return 1;
}

/* After the number, ending at q: " ?" then the tail (the space required in the bytes pattern). */
static int after_number(const char *s, size_t len, size_t q, int space_needed, struct text *unit)
{
	if (q < len && s[q] == ' ' && tail_at(s, len, q + 1, unit))
		return 1;
	return !space_needed && tail_at(s, len, q, unit);
}

/*
 * The number at p as the regular expression's backtracking tries it:
 * the longest digits with their fraction first, then ever fewer digits.
 * *digits is the whole part, which parseInt reads.
 */
static int number_at(const char *s, size_t len, size_t p, int space_needed, struct text *digits,
		     struct text *unit)
{
	size_t e = p;
	while (e < len && is_digit(s[e]))
		e++;
	if (e == p)
		return 0;
	size_t f = e + 1;
	while (e < len && s[e] == '.' && f < len && is_digit(s[f]))
		f++;
	for (size_t q = f; q > e + 1; q--)
		if (after_number(s, len, q, space_needed, unit)) {
			*digits = (struct text){ s + p, e - p };
			return 1;
		}
	for (size_t q = e; q > p; q--)
		if (after_number(s, len, q, space_needed, unit)) {
			*digits = (struct text){ s + p, q - p };
			return 1;
		}
	return 0;
}

/* speedscope's /\s*(\d+(?:[.]\d+)?) ?(\w+)\s+(?:\d+(?:[.]\d+))%/ (the space required for bytes), unanchored. */
static int find_weight(struct text cell, int space_needed, struct text *digits, struct text *unit)
{
	for (size_t start = 0; start < cell.len; start++) {
		size_t p = start, k;
		while ((k = space_at(cell.s + p, cell.len - p)) != 0)
			p += k;
		if (number_at(cell.s, cell.len, p, space_needed, digits, unit))
			return 1;
	}
	return 0;
}

static const char *type_of(enum unit_class class, const char **unit)
{
	*unit = class == UNITS_BYTES ? "bytes" : class == UNITS_TIME ? "milliseconds" : "count";
	return class == UNITS_BYTES ? "space" : class == UNITS_TIME ? "cpu" : "cycles";
}

static const char *class_name(enum unit_class class)
{
	return class == UNITS_BYTES ? "bytes" : class == UNITS_TIME ? "time" : "cycles";
}

/* The first weight's unit names the one sample type; later ones must be of its kind. */
static int settle_class(struct reader *r, enum unit_class class)
{
	if (r->class == UNITS_NONE) {
		const char *unit, *type = type_of(class, &unit);
		model_add_sample_type(r->m, type, unit);
		r->class = class;
	}
	if (class != r->class)
		return lines_errorf(&r->lines, 0, "a weight in %s after weights in %s: prof keeps one unit",
				    class_name(class), class_name(r->class));
	return 0;
}

/* A total cell's weight in *w: 0 where speedscope's pattern finds none; -1 refused. */
static int weight_of(struct reader *r, struct text cell, const struct unit *units, int64_t *w)
{
	struct text digits, unit;
	*w = 0;
	if (cell.len > MAX_WEIGHT_CELL)
		return lines_errorf(&r->lines, 0, "a weight cell of %zu bytes (at most %d)", cell.len,
				    MAX_WEIGHT_CELL);
	if (!find_weight(cell, units == byte_units, &digits, &unit))
		return 0;
	const struct unit *u = units;
	while (u->name && !(strlen(u->name) == unit.len && memcmp(u->name, unit.s, unit.len) == 0))
		u++;
	if (!u->name)
		return lines_error(&r->lines, 0, "unrecognized units (speedscope: \"Unrecognized units\") in",
				   cell.s, cell.len);
	int64_t value = 0;
	for (size_t i = 0; i < digits.len; i++)
		if (checked_mul_i64(value, 10, &value) || checked_add_i64(value, digits.s[i] - '0', &value))
			return lines_errorf(&r->lines, 0, "a weight past 2^63");
	if (checked_mul_i64(value, u->scale, w))
		return lines_errorf(&r->lines, 0, "a weight past 2^63");
	return settle_class(r, u->class);
}

/* The row's weight by the cells it has: Bytes Used, else Weight or Running Time, else -1 (none). */
static int row_weight(struct reader *r, const struct text *cells, const uint8_t *has, int64_t *w)
{
	if (has[COL_BYTES])
		return weight_of(r, cells[COL_BYTES], byte_units, w);
	if (!has[COL_WEIGHT] && !has[COL_RUNNING]) {
		*w = -1;
		return 0;
	}
	if (has[COL_WEIGHT] && cells[COL_WEIGHT].len)
		return weight_of(r, cells[COL_WEIGHT], weight_units, w);
	*w = 0;
	return has[COL_RUNNING] ? weight_of(r, cells[COL_RUNNING], weight_units, w) : 0;
}

/* Samples up to `to`, at the open stack (the app adds the time between two events to the stack then). */
static void lay_to(struct reader *r, int64_t to)
{
	if (to <= r->laid)
		return;
	int64_t value = to - r->laid;
	model_add_samples(r->m, r->open[r->depth - 1].stack, &value, NULL, 0, 1, 0);
	r->laid = to;
}

static void leave_frame(struct reader *r)
{
	if (r->open[r->depth - 1].end > r->at)
		r->at = r->open[r->depth - 1].end;
	lay_to(r, r->at);
	r->depth--;
}

static uint32_t location_of(struct reader *r, struct text path, struct text name)
{
	grow((void **)&r->key, &r->cap_key, path.len + name.len + 1, 1);
	memcpy(r->key, path.s, path.len);
	r->key[path.len] = '\t';
	memcpy(r->key + path.len + 1, name.s, name.len);
	uint64_t hash;
	uint32_t found = text_cache_find(&r->frames, r->key, path.len + name.len + 1, &hash);
	if (found != HASHIDX_NONE)
		return found;
	uint32_t id = model_str(r->m, name.s, name.len);
	struct model_function f = { id, id, path.len ? model_str(r->m, path.s, path.len) : 0, 0, 0, 0,
				    { 0, 0, 0, 0 } };
	uint32_t location = model_location(r->m, model_function(r->m, &f), 0);
	text_cache_add(&r->frames, hash, r->key, path.len + name.len + 1, location);
	return location;
}

/* The symbol cell without its whitespace, and how many UTF-16 units that was. */
static struct text trimmed(struct text t, size_t *units)
{
	size_t k;
	*units = 0;
	while ((k = space_at(t.s, t.len)) != 0)
		t.s += k, t.len -= k, ++*units;
	while ((k = space_before(t.s, t.len)) != 0)
		t.len -= k, ++*units;
	return t;
}

static int enter_frame(struct reader *r, struct text symbol, struct text path, int64_t weight)
{
	size_t depth;
	struct text name = trimmed(symbol, &depth);
	if (depth > r->depth)
		return lines_errorf(&r->lines, 0, "a row indented %zu under %zu open rows "
				    "(speedscope: \"Invalid format\")", depth, r->depth);
	if (depth >= MAX_DEPTH)
		return lines_errorf(&r->lines, 0, "a row deeper than %d levels", MAX_DEPTH);
	while (r->depth > depth)
		leave_frame(r);
	uint32_t caller = depth ? r->open[depth - 1].stack : MODEL_EMPTY_STACK;
	grow((void **)&r->open, &r->cap_open, depth + 1, sizeof *r->open);
	r->open[depth].stack = model_stack(r->m, location_of(r, path, name), caller);
	if (checked_add_i64(r->at, weight, &r->open[depth].end))
		return lines_errorf(&r->lines, 0, "weights adding up past 2^63");
	r->depth = depth + 1;
	r->rows++;
	return 0;
}

/* The first row: how much of "Symbol Names" is cut, up to and with its last space. */
static void settle_names_cut(struct reader *r, const struct text *cells, const uint8_t *has)
{
	r->first_row_read = 1;
	if (!has[COL_SYMBOLS])
		return;
	struct text t = cells[COL_SYMBOLS];
	size_t units = 0, cut = 0;
	for (size_t i = 0; i < t.len; i++) {
		units += utf16_units((unsigned char)t.s[i]);
		if (t.s[i] == ' ')
			cut = units;
	}
	r->names_cut = cut;
}

static int read_row(struct reader *r, const char *s, size_t len)
{
	struct text cells[N_COLUMNS];
	uint8_t has[N_COLUMNS] = { 0 };
	size_t column = 0;
	for (size_t at = 0;; column++) {
		const char *tab = memchr(s + at, '\t', len - at);
		size_t end = tab ? (size_t)(tab - s) : len;
		if (column < r->n_columns && r->columns[column] != COL_NONE) {
			cells[r->columns[column]] = (struct text){ s + at, end - at };
			has[r->columns[column]] = 1;
		}
		if (!tab)
			break;
		at = end + 1;
	}
	if (!r->first_row_read)
		settle_names_cut(r, cells, has);
	struct text symbol = { NULL, 0 }, path = { "", 0 };
	if (has[COL_SYMBOL] && cells[COL_SYMBOL].len)
		symbol = cells[COL_SYMBOL];
	else if (has[COL_SYMBOLS])
		symbol = slice_units(cells[COL_SYMBOLS], r->names_cut);
	if (symbol.len == 0)
		return 0;
	if (has[COL_SOURCE])
		path = cells[COL_SOURCE];
	int64_t weight;
	if (row_weight(r, cells, has, &weight) < 0)
		return -1;
	return enter_frame(r, symbol, path, weight);
}

static void read_header(struct reader *r, const char *s, size_t len)
{
	for (size_t at = 0;;) {
		const char *tab = memchr(s + at, '\t', len - at);
		size_t end = tab ? (size_t)(tab - s) : len;
		uint8_t kind = COL_NONE;
		for (uint8_t k = 1; k < N_COLUMNS; k++)
			if (strlen(column_names[k]) == end - at && memcmp(column_names[k], s + at, end - at) == 0)
				kind = k;
		grow((void **)&r->columns, &r->cap_columns, r->n_columns + 1, 1);
		r->columns[r->n_columns++] = kind;
		if (!tab)
			return;
		at = end + 1;
	}
}

static int read_lines(struct reader *r)
{
	const char *s;
	size_t len;
	int got = lines_next(&r->lines, &s, &len);
	if (got <= 0)
		return got < 0 ? -1 : lines_errorf(&r->lines, 1, "empty: no deep copy header");
	read_header(r, s, len);
	if (!memchr(r->columns, COL_BYTES, r->n_columns) && !memchr(r->columns, COL_WEIGHT, r->n_columns) &&
	    !memchr(r->columns, COL_RUNNING, r->n_columns))
		return lines_errorf(&r->lines, 1, "no column speedscope weighs by (Weight, Running Time "
				    "or Bytes Used)");
	while ((got = lines_next(&r->lines, &s, &len)) != 0)
		if ((got < 0 || read_row(r, s, len) < 0) && !lines_go_on(&r->lines))
			return -1;
	while (r->depth)
		leave_frame(r);
	if (r->lines.failed)
		return -1;
	if (r->rows == 0)
		return lines_errorf(&r->lines, 0, "no row with a symbol under the header");
	if (r->laid == 0)
		return lines_errorf(&r->lines, 0, "no weight speedscope reads (\"N UNIT  P.P%%\" "
				    "under Weight, Running Time or Bytes Used)");
	return 0;
}

int instruments_read(struct input *in, struct model *m)
{
	struct reader r;
	memset(&r, 0, sizeof r);
	r.m = m;
	m->rules.strict_r = 0;
	lines_begin(&r.lines, in);
	int status = read_lines(&r);
	free(r.columns);
	free(r.open);
	free(r.key);
	text_cache_free(&r.frames);
	return status;
}
