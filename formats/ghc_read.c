/*
 * GHC's `.prof` text report reader (docs/formats/ghc.md), every layout
 * GHC has printed: the header's `(N ticks @ 20 ms)` of GHC 6-7.2 or
 * `(N ticks @ 1000 us, P processors)` since, with or without the SRC
 * column (GHC 8+), and `-P`'s ticks and bytes columns.
 *
 * The report's first table is a flat summary and is skipped; the tree
 * below the header line that names `no.` and `entries` is read, one row
 * per cost-centre stack, its depth its indentation. A row's individual
 * figures are its samples: with -P its ticks times the tick and its bytes,
 * exactly; without, its percentages of the header's totals, as exact as
 * GHC printed them (a tenth of a percent). Its entries are a count of
 * their own. The inherited figures are what the stacks add up to, so
 * they are checked by the tests, not kept.
 *
 * A row's fields are found by the header's columns (GHC pads them to the
 * widest value, counted in UTF-8 characters), so a SRC such as
 * `<no location info>` keeps its spaces; a row that does not fit the
 * columns (a file padded by bytes) is split at its blanks instead, the
 * label and module being one word each. The numbers are taken from the
 * right.
 */
#include <inttypes.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/ascii.h"
#include "../base/checked.h"
#include "../io/lines.h"
#include "../model/textcache.h"
#include "ghc.h"

/* The tree's columns, as its header line places them. */
struct columns {
	size_t module, src; /* in characters from the line's start; src: SIZE_MAX when absent */
	size_t numbers;         /* after `no.`: entries and four percentages, and -P's ticks and bytes */
};

struct reader {
	struct lines lines;
	struct model *m;
	int64_t total_us;    /* ticks x the tick, from the header */
	int64_t tick_ns;
	int64_t total_alloc; /* bytes */
	int have_time, have_alloc;
	struct columns cols;
	struct text_cache locations; /* by a row's text from its label to its no. */
	uint32_t *path;      /* path[d]: the stack of the last row at depth d */
	size_t depth, cap_path; /* depth: how many of path are live */
	uint64_t rows;
};

/* A span of the line. */
struct span {
	const char *s;
	size_t len;
};

enum { MAX_NUMBERS = 7 };

static struct span trimmed(const char *s, size_t len)
{
	while (len > 0 && (*s == ' ' || *s == '\t'))
		s++, len--;
	while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\t'))
		len--;
	return (struct span){ s, len };
}

/* Digits (commas between them allowed, as GHC writes total alloc) as a whole number; -1 when not one. */
static int whole(struct span t, int commas, int64_t *v)
{
	*v = 0;
	if (t.len == 0 || !is_digit(t.s[0]))
		return -1;
	for (size_t i = 0; i < t.len; i++) {
		if (commas && t.s[i] == ',')
			continue;
		if (!is_digit(t.s[i]) || checked_mul_i64(*v, 10, v) || checked_add_i64(*v, t.s[i] - '0', v))
			return -1;
	}
	return 0;
}

/* GHC's %5.1f percentage, in tenths; -1 when not one (or above 100). */
static int tenths(struct span t, int64_t *v)
{
	if (t.len < 3 || t.s[t.len - 2] != '.' || !is_digit(t.s[t.len - 1]) ||
	    whole((struct span){ t.s, t.len - 2 }, 0, v) < 0 || *v > 100)
		return -1;
	*v = *v * 10 + (t.s[t.len - 1] - '0');
	return *v > 1000 ? -1 : 0;
}

/* Where `word` starts in the line after `from`, or NULL. */
static const char *find(const char *s, size_t len, size_t from, const char *word)
{
	size_t n = strlen(word);
	for (size_t i = from; i + n <= len; i++)
		if (memcmp(s + i, word, n) == 0)
			return s + i;
	return NULL;
}

/* `total time  =  0.18 secs   (177 ticks @ 1000 us, 1 processor)`, or `(5 ticks @ 20 ms)`. */
static int total_time(struct reader *r, const char *s, size_t len)
{
	const char *open = memchr(s, '(', len), *end = s + len;
	const char *at = open ? find(s, len, (size_t)(open - s), " ticks @ ") : NULL;
	int64_t ticks, interval;
	if (!at || whole(trimmed(open + 1, (size_t)(at - open - 1)), 0, &ticks) < 0)
		return lines_fail(&r->lines, "total time without its `(N ticks @ INTERVAL ...)`");
	const char *num = at + 9, *unit = num;
	while (unit < end && is_digit(*unit))
		unit++;
	int ms = end - unit >= 3 && memcmp(unit, " ms", 3) == 0;
	if (whole((struct span){ num, (size_t)(unit - num) }, 0, &interval) < 0 || interval == 0 ||
	    (!ms && !(end - unit >= 3 && memcmp(unit, " us", 3) == 0)))
		return lines_fail(&r->lines,
				  "a tick of `%.*s`: GHC writes N us or N ms",
				  (int)(end - num > 20 ? 20 : end - num), num);
	if ((ms && checked_mul_i64(interval, 1000, &interval)) || checked_mul_i64(interval, 1000, &r->tick_ns) ||
	    checked_mul_i64(ticks, interval, &r->total_us))
		return lines_fail(&r->lines, "total time past 2^63 ns");
	r->have_time = 1;
	return 0;
}

/* `total alloc = 418,898,880 bytes  (excludes profiling overheads)`. */
static int total_alloc(struct reader *r, const char *s, size_t len)
{
	const char *eq = memchr(s, '=', len), *bytes = find(s, len, 0, " bytes");
	if (!eq || !bytes || bytes < eq || whole(trimmed(eq + 1, (size_t)(bytes - eq - 1)), 1, &r->total_alloc) < 0)
		return lines_fail(&r->lines, "total alloc without its `= N bytes`");
	r->have_alloc = 1;
	return 0;
}

/* The code point at character `col` of the line, as GHC counts them (bytes but UTF-8's continuations). */
static size_t byte_of_column(const char *s, size_t len, size_t col)
{
	size_t i = 0;
	for (size_t chars = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c < 0x80 || c > 0xBF) {
			if (chars == col)
				return i;
			chars++;
		}
	}
	return i;
}

static size_t column_of_byte(const char *s, size_t at)
{
	size_t chars = 0;
	for (size_t i = 0; i < at; i++)
		chars += (unsigned char)s[i] < 0x80 || (unsigned char)s[i] > 0xBF;
	return chars;
}

/* The next blank-separated word at or after *at; its length 0 at the line's end. */
static struct span next_word(const char *s, size_t len, size_t *at)
{
	while (*at < len && s[*at] == ' ')
		(*at)++;
	size_t start = *at;
	while (*at < len && s[*at] != ' ')
		(*at)++;
	return (struct span){ s + start, *at - start };
}

static int word_is(struct span w, const char *text)
{
	return w.len == strlen(text) && memcmp(w.s, text, w.len) == 0;
}

/*
 * The tree's header: `COST CENTRE MODULE [SRC] no. entries %time %alloc
 * %time %alloc [ticks bytes]`; 0 when the line is another (the first
 * table's header has no `no.`), -1 after reporting one that names other
 * columns.
 */
static int tree_header(struct reader *r, const char *s, size_t len)
{
	size_t at = 0;
	if (!word_is(next_word(s, len, &at), "COST") || !word_is(next_word(s, len, &at), "CENTRE") ||
	    !find(s, len, 0, " no. "))
		return 0;
	struct span w = next_word(s, len, &at);
	r->cols.module = column_of_byte(s, (size_t)(w.s - s));
	int module = word_is(w, "MODULE");
	w = next_word(s, len, &at);
	r->cols.src = SIZE_MAX;
	if (word_is(w, "SRC")) {
		r->cols.src = column_of_byte(s, (size_t)(w.s - s));
		w = next_word(s, len, &at);
	}
	static const char *const after_no[] = { "entries", "%time", "%alloc", "%time", "%alloc", "ticks", "bytes" };
	size_t k = 0;
	int named = module && word_is(w, "no.");
	for (; named && k < MAX_NUMBERS && (w = next_word(s, len, &at)).len > 0; k++)
		named = word_is(w, after_no[k]);
	if (!named || (k != 5 && k != 7) || next_word(s, len, &at).len > 0)
		return lines_fail(&r->lines,
				  "a cost-centre tree of unknown columns: GHC's are COST CENTRE MODULE [SRC] no. "
				  "entries %%time %%alloc %%time %%alloc [ticks bytes]");
	if (!r->have_time || (k == 5 && !r->have_alloc))
		return lines_fail(&r->lines,
				  "a cost-centre tree without the `total %s` line above it",
				  r->have_time ? "alloc" : "time");
	r->cols.numbers = k;
	return 1;
}

/* A row's label, module and SRC by the header's columns; 0 when the row does not fit them. */
static int by_columns(const struct reader *r, const char *s, size_t len, size_t indent, struct span f[3])
{
	size_t module = byte_of_column(s, len, r->cols.module);
	size_t src = r->cols.src == SIZE_MAX ? len : byte_of_column(s, len, r->cols.src);
	int starts_module = module > indent && module < len && s[module - 1] == ' ' && s[module] != ' ';
	int starts_src = src == len || (src > module && src < len && s[src - 1] == ' ' && s[src] != ' ');
	if (!starts_module || !starts_src)
		return 0;
	f[0] = trimmed(s + indent, module - indent);
	f[1] = trimmed(s + module, src - module);
	f[2] = trimmed(s + src, len - src);
	return f[0].len > 0 && !memchr(f[1].s, ' ', f[1].len);
}

/* A row's label, module and SRC as words: label and module one word each, SRC the rest. */
static int by_words(const struct reader *r, const char *s, size_t len, size_t indent, struct span f[3])
{
	size_t at = indent;
	f[0] = next_word(s, len, &at);
	f[1] = next_word(s, len, &at);
	f[2] = trimmed(s + at, len - at);
	return f[1].len > 0 && (r->cols.src != SIZE_MAX || f[2].len == 0);
}

/* The row's numbers, `no.` first, from the right; *left: the bytes before them. */
static int numbers_from_right(const struct reader *r, const char *s, size_t len, struct span *nums, size_t *left)
{
	size_t n = r->cols.numbers + 1, end = len;
	for (size_t k = n; k-- > 0;) {
		while (end > 0 && s[end - 1] == ' ')
			end--;
		size_t start = end;
		while (start > 0 && s[start - 1] != ' ')
			start--;
		if (start == end)
			return -1;
		nums[k] = (struct span){ s + start, end - start };
		end = start;
	}
	*left = end;
	return 0;
}

/* The individual figures of a row as sample values. */
static int values_of(struct reader *r, const struct span *nums, int64_t values[GHC_TYPES])
{
	int64_t t, a, pct;
	if (whole(nums[0], 0, &t) < 0)
		return lines_fail(&r->lines, "no. '%.*s' is not a whole number", (int)nums[0].len, nums[0].s);
	if (whole(nums[1], 0, &values[GHC_ENTRIES]) < 0)
		return lines_fail(&r->lines,
				  "entries '%.*s' is not a whole number below 2^63", (int)nums[1].len, nums[1].s);
	for (size_t k = 2; k < 6; k++)
		if (tenths(nums[k], &pct) < 0)
			return lines_fail(&r->lines, "'%.*s' is not a percentage as GHC prints one (0.0 to 100.0)",
					  (int)(nums[k].len > 20 ? 20 : nums[k].len), nums[k].s);
	if (r->cols.numbers == MAX_NUMBERS) {
		if (whole(nums[6], 0, &t) < 0 || whole(nums[7], 0, &a) < 0)
			return lines_fail(&r->lines, "ticks and bytes must be whole numbers below 2^63");
		if (checked_mul_i64(t, r->tick_ns, &values[GHC_TIME]))
			return lines_fail(&r->lines, "%" PRId64 " ticks pass 2^63 ns", t);
		values[GHC_ALLOC] = a;
		return 0;
	}
	/* Without -P: the tenths of a percent of the totals, as exact as GHC printed them. */
	tenths(nums[2], &t);
	tenths(nums[3], &a);
	if (checked_mul_i64(t, r->total_us, &values[GHC_TIME]))
		return lines_fail(&r->lines, "%%time of the total time passes 2^63 ns");
	values[GHC_ALLOC] = r->total_alloc / 1000 * a + (r->total_alloc % 1000 * a + 500) / 1000;
	return 0;
}

static int bad_row(struct reader *r)
{
	return lines_fail(&r->lines, "a tree row needs a label, a module%s, no. and %zu numbers",
			  r->cols.src == SIZE_MAX ? "" : ", SRC", r->cols.numbers);
}

static int tree_row(struct reader *r, const char *s, size_t len)
{
	struct span nums[MAX_NUMBERS + 1], f[3];
	size_t left, indent = 0;
	while (indent < len && s[indent] == ' ')
		indent++;
	if (numbers_from_right(r, s, len, nums, &left) < 0 || left <= indent)
		return bad_row(r);
	if (indent > r->depth)
		return lines_fail(&r->lines, "indented %zu, more than one deeper than the row above", indent);
	int64_t values[GHC_TYPES];
	if (values_of(r, nums, values) < 0)
		return -1;
	/* A cost centre's text repeats on every row of it: looked up by its bytes, parsed once. */
	uint64_t hash;
	uint32_t location = text_cache_find(&r->locations, s + indent, left - indent, &hash);
	if (location == HASHIDX_NONE) {
		if (!by_columns(r, s, left, indent, f) && !by_words(r, s, left, indent, f))
			return bad_row(r);
		location = ghc_location(r->m, f[1].s, f[1].len, f[0].s, f[0].len, f[2].s, f[2].len);
		text_cache_add(&r->locations, hash, s + indent, left - indent, location);
	}
	uint32_t caller = indent > 0 ? r->path[indent - 1] : MODEL_EMPTY_STACK;
	uint32_t stack = model_stack(r->m, location, caller);
	grow((void **)&r->path, &r->cap_path, indent + 1, sizeof *r->path);
	r->path[indent] = stack;
	r->depth = indent + 1;
	r->rows++;
	ghc_add_row(r->m, stack, values);
	return 0;
}

/* A line above the tree: the totals are kept, the rest (title, command, first table) passed over. */
static int above_tree(struct reader *r, const char *s, size_t len, int *in_tree)
{
	struct span t = trimmed(s, len);
	if (t.len >= 10 && memcmp(t.s, "total time", 10) == 0)
		return total_time(r, t.s, t.len);
	if (t.len >= 11 && memcmp(t.s, "total alloc", 11) == 0)
		return total_alloc(r, t.s, t.len);
	int rc = tree_header(r, s, len);
	*in_tree = rc > 0;
	return rc < 0 ? -1 : 0;
}

static int read_report(struct reader *r)
{
	const char *s;
	size_t len;
	int got, in_tree = 0;
	while ((got = lines_next(&r->lines, &s, &len)) != 0) {
		int rc = got;
		if (got > 0 && !in_tree)
			rc = above_tree(r, s, len, &in_tree);
		else if (got > 0 && trimmed(s, len).len > 0)
			rc = tree_row(r, s, len);
		if (rc < 0 && !lines_go_on(&r->lines))
			return -1;
	}
	if (r->lines.failed)
		return -1;
	if (!in_tree)
		return lines_errorf(&r->lines, lines_number(&r->lines),
				    "no cost-centre tree (its header names no. and entries): not a GHC profile");
	if (r->rows == 0)
		return lines_errorf(&r->lines, lines_number(&r->lines), "a cost-centre tree without rows");
	return 0;
}

int ghc_read_text(struct input *in, struct model *m)
{
	struct reader r;
	memset(&r, 0, sizeof r);
	r.m = m;
	lines_begin(&r.lines, in);
	ghc_begin(m);
	int rc = read_report(&r);
	free(r.path);
	text_cache_free(&r.locations);
	return rc;
}
