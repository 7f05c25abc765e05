/*
 * Firefox Profiler reader (docs/formats/firefox.md). Three shapes of one
 * idea, a profile of threads, each with its samples and the tables their
 * stacks index:
 *  - the Gecko format Firefox saves: tables as {schema, data} rows, a
 *    string table per thread, child processes under `processes`, each
 *    timed from its own meta.startTime;
 *  - the processed format (profiler.firefox.com's export, samply): tables
 *    as column arrays, since version 60 shared by all threads under
 *    `shared`, samples timed by `time` or `timeDeltas`, with a `weight`
 *    where samples were merged;
 *  - Firefox's old DevTools panel, a Gecko profile under `profile`: read
 *    as that panel showed it, and as speedscope reads it, content JS
 *    only (docs/formats/firefox.md says which frames go).
 * Each sample becomes a row: its weight (1 without one) and the time to
 * the thread's next sample (the last one's: meta.interval), its time since
 * the profile's first sample, its thread as a `thread` label (its name)
 * and a `tid` label (its number, where the file has one). Threads are
 * read one after another, each in time order. Samples without a stack
 * are none of the profile's, but still end the sample before them.
 * Unsymbolicated frames (names such as 0x8d53) are addresses.
 *
 * JSON gives keys in any order (a schema may follow its rows; `shared`
 * follows the threads), so the tables are held, the columns wanted as
 * doubles (numbers in the format are JavaScript's), until the file ends.
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/diag.h"
#include "../io/json.h"
#include "firefox.h"

/* Child processes inside child processes: Firefox nests one level. */
enum { MAX_NESTING = 8 };

enum col {
	COL_STACK, COL_TIME, COL_TIME_DELTAS, COL_WEIGHT,
	COL_PREFIX, COL_PREFIX_OFFSET, COL_FRAME,
	COL_LOCATION, COL_FUNC, COL_ADDRESS, COL_LINE, COL_LIB,
	COL_NAME, COL_RESOURCE, COL_FILE_NAME, COL_SOURCE, COL_FILENAME,
	N_COLS
};
static const char *const col_names[N_COLS] = {
	"stack", "time", "timeDeltas", "weight",
	"prefix", "prefixOffset", "frame",
	"location", "func", "address", "line", "lib",
	"name", "resource", "fileName", "source", "filename",
};

struct column {
	double *v; /* NAN: null, or a value that is no number */
	size_t n, cap;
	int has;
};

/* A table in either form; Gecko's rows become columns once read. */
struct table {
	struct column cols[N_COLS];
	int64_t schema[N_COLS]; /* -1: not in the schema */
	double *cells;          /* Gecko's rows, one after another */
	size_t n_cells, cap_cells;
	uint32_t *row_len;
	size_t n_rows, cap_rows;
	int has, has_data;
	uint64_t line;
	char weight_type[16]; /* samples' weightType; "" when not given */
};

struct strings {
	uint32_t *ids;
	size_t n, cap;
	int has;
};

struct lib {
	uint32_t name;
	uint64_t start, end, offset; /* Gecko's: where it was loaded; 0 in processed files */
	uint32_t mapping; /* MODEL_NONE until a frame needs it */
};

/* What one profile object (the file, a child process, a wrapper's) says of its threads. */
struct profile {
	double start_ms, interval_ms;
	int has_start, has_interval, processed, wrapper;
	struct table stacks, frames, funcs, resources; /* `shared` (processed, v60 on) */
	struct table sources; /* `shared.sources` (v58 on): the functions' files */
	struct strings strings;
	struct lib *libs;
	size_t n_libs, cap_libs;
};

struct thread {
	uint32_t name;
	int64_t tid;
	int has_tid;
	size_t profile;
	struct table samples, stacks, frames, funcs, resources;
	struct strings strings;
};

struct reader {
	struct json j;
	struct model *m;
	const char *file;
	struct profile *profiles;
	size_t n_profiles, cap_profiles;
	struct thread *threads;
	size_t n_threads, cap_threads;
	uint32_t label_thread, label_tid;
	uint32_t *frame_location; /* per frame of the thread being built: see location_of */
	size_t cap_frame_location;
	uint32_t *stack_of;
	size_t cap_stack_of;
	const char *weight_type; /* the first thread's, which every thread must share */
	int64_t zero_ns;         /* the earliest sample's time */
};

#define UNBUILT (MODEL_NONE - 1)

static void table_init(struct table *t)
{
	memset(t, 0, sizeof *t);
	for (int c = 0; c < N_COLS; c++)
		t->schema[c] = -1;
}

static void table_free(struct table *t)
{
	for (int c = 0; c < N_COLS; c++)
		free(t->cols[c].v);
	free(t->cells);
	free(t->row_len);
}

static int col_of(const char *name)
{
	for (int c = 0; c < N_COLS; c++)
		if (strcmp(col_names[c], name) == 0)
			return c;
	return -1;
}

static void push(double **v, size_t *n, size_t *cap, double x)
{
	if (*n == *cap)
		grow((void **)v, cap, *n + 1, sizeof **v);
	(*v)[(*n)++] = x;
}

/*
 * A number as JavaScript reads it. Times are written "1234.567": up to 15
 * digits are a whole number exactly, and one division by an exact power
 * of ten rounds as strtod does, at a fraction of its cost; the rest goes
 * to strtod.
 */
static double number(const char *text)
{
	static const double tens[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
				       1e12, 1e13, 1e14, 1e15 };
	const char *p = text + (*text == '-');
	uint64_t digits = 0;
	int n = 0, decimals = -1;
	for (; *p; p++) {
		if (*p == '.' && decimals < 0) {
			decimals = 0;
			continue;
		}
		if (*p < '0' || *p > '9' || ++n > 15)
			return strtod(text, NULL);
		digits = digits * 10 + (uint64_t)(*p - '0');
		decimals += decimals >= 0;
	}
	double v = (double)digits / tens[decimals > 0 ? decimals : 0];
	return *text == '-' ? -v : v;
}

/*
 * The next element of an array as a number: 1 and *v (NAN for null or
 * anything else, skipped; not converted unless `want`), 0 at the array's
 * end, -1 after reporting.
 */
static int cell(struct reader *r, double *v, int want)
{
	int64_t i;
	int k = json_next_number(&r->j, &i);
	*v = k == 1 ? (double)i : NAN;
	if (k == 3 && want) {
		*v = number(r->j.text);
		if (!isfinite(*v))
			return json_error(&r->j, "number out of range: %s", r->j.text);
	}
	if (k != 2)
		return k == 3 ? 1 : k;
	enum json_token t = json_next(&r->j);
	if (t == JSON_OBJECT || t == JSON_ARRAY)
		return json_skip(&r->j, t) < 0 ? -1 : 1;
	return t == JSON_FAILED ? -1 : 1;
}

static int column(struct reader *r, struct column *c)
{
	double v;
	int k;
	c->n = 0;
	c->has = 1;
	while ((k = cell(r, &v, 1)) == 1)
		push(&c->v, &c->n, &c->cap, v);
	return k;
}

static int schema(struct reader *r, struct table *t)
{
	if (json_expect(&r->j, JSON_OBJECT, "a table's schema") < 0)
		return -1;
	enum json_token tok;
	while ((tok = json_next(&r->j)) == JSON_KEY) {
		int c = col_of(r->j.text);
		enum json_token v = json_next(&r->j);
		if (v == JSON_FAILED)
			return -1;
		if (v != JSON_NUMBER)
			return json_error(&r->j, "a schema's column must be a number");
		int64_t index;
		if (json_int(&r->j, "a schema's column", &index) < 0)
			return -1;
		if (index < 0)
			return json_error(&r->j, "a schema's column must not be negative");
		if (c >= 0)
			t->schema[c] = index;
	}
	return tok == JSON_OBJECT_END ? 0 : -1;
}

/* The column that a row's cell k is, by the schema: -1 for none. */
static int col_at(const struct table *t, uint32_t k)
{
	for (int c = 0; c < N_COLS; c++)
		if (t->schema[c] == (int64_t)k)
			return c;
	return -1;
}

/* A row, its '[' read, into the columns the schema (read before it) names. */
static int direct_row(struct reader *r, struct table *t, const int8_t *cols_at, uint32_t n_at, int64_t width)
{
	double v;
	int k;
	uint32_t n = 0;
	while (1) {
		int c = n < n_at ? cols_at[n] : col_at(t, n);
		if ((k = cell(r, &v, c >= 0)) != 1)
			break;
		if (c >= 0)
			push(&t->cols[c].v, &t->cols[c].n, &t->cols[c].cap, v);
		if (n < UINT32_MAX)
			n++;
	}
	/* A short row's missing cells are null (most rows have them all). */
	for (int c = 0; c < N_COLS && k == 0 && (int64_t)n < width; c++)
		if (t->schema[c] >= (int64_t)n)
			push(&t->cols[c].v, &t->cols[c].n, &t->cols[c].cap, NAN);
	return k;
}

/* A row, its '[' read, held until the schema comes. */
static int held_row(struct reader *r, struct table *t)
{
	size_t before = t->n_cells;
	double v;
	int k;
	while ((k = cell(r, &v, 1)) == 1)
		push(&t->cells, &t->n_cells, &t->cap_cells, v);
	if (k < 0)
		return -1;
	if (t->n_cells - before > UINT32_MAX)
		return json_error(&r->j, "a row of more than 2^32 cells");
	grow((void **)&t->row_len, &t->cap_rows, t->n_rows + 1, sizeof *t->row_len);
	t->row_len[t->n_rows++] = (uint32_t)(t->n_cells - before);
	return 0;
}

/*
 * Firefox writes a table's schema before its rows: they go straight to
 * their columns, the cells no column wants not even converted. Rows
 * before their schema are held as cells (rows_to_columns).
 */
static int data_rows(struct reader *r, struct table *t)
{
	if (json_expect(&r->j, JSON_ARRAY, "a table's data") < 0)
		return -1;
	int direct = 0;
	int8_t cols_at[32];
	int64_t width = 0; /* cells a row has up to its last column */
	for (uint32_t k = 0; k < 32; k++)
		cols_at[k] = (int8_t)col_at(t, k);
	for (int c = 0; c < N_COLS; c++)
		if (t->schema[c] >= 0) {
			direct = 1;
			t->cols[c].has = 1;
			t->cols[c].n = 0;
			if (t->schema[c] >= width)
				width = t->schema[c] < INT64_MAX ? t->schema[c] + 1 : INT64_MAX;
		}
	t->has_data = !direct;
	enum json_token tok;
	while ((tok = json_next(&r->j)) == JSON_ARRAY)
		if ((direct ? direct_row(r, t, cols_at, 32, width) : held_row(r, t)) < 0)
			return -1;
	if (tok == JSON_ARRAY_END)
		return 0;
	return tok == JSON_FAILED ? -1 : json_error(&r->j, "a table's row must be an array");
}

/* Gecko's rows as the columns the schema names; cells past a short row's end are null. */
static void rows_to_columns(struct table *t)
{
	for (int c = 0; c < N_COLS; c++) {
		if (t->schema[c] < 0)
			continue;
		struct column *col = &t->cols[c];
		col->has = 1;
		col->n = 0;
		size_t at = 0;
		for (size_t i = 0; i < t->n_rows; i++) {
			double v = (uint64_t)t->schema[c] < t->row_len[i] ? t->cells[at + (size_t)t->schema[c]] : NAN;
			push(&col->v, &col->n, &col->cap, v);
			at += t->row_len[i];
		}
	}
}

static int weight_type(struct reader *r, struct table *t)
{
	enum json_token tok = json_next(&r->j);
	if (tok == JSON_NULL)
		return 0;
	if (tok != JSON_STRING)
		return tok == JSON_FAILED ? -1 : json_error(&r->j, "weightType must be a string");
	if (strcmp(r->j.text, "samples") && strcmp(r->j.text, "tracing-ms") && strcmp(r->j.text, "bytes"))
		return json_error(&r->j, "unknown weightType \"%s\" (samples, tracing-ms and bytes are known)",
				  r->j.text);
	snprintf(t->weight_type, sizeof t->weight_type, "%s", r->j.text);
	return 0;
}

static int table(struct reader *r, struct table *t)
{
	if (json_expect(&r->j, JSON_OBJECT, "a table") < 0)
		return -1;
	t->has = 1;
	t->line = r->j.token_line;
	enum json_token tok;
	while ((tok = json_next(&r->j)) == JSON_KEY) {
		int c = col_of(r->j.text);
		int k = 0;
		if (strcmp(r->j.text, "schema") == 0) {
			k = schema(r, t);
		} else if (strcmp(r->j.text, "data") == 0) {
			k = data_rows(r, t);
		} else if (strcmp(r->j.text, "weightType") == 0) {
			k = weight_type(r, t);
		} else {
			enum json_token v = json_next(&r->j);
			if (c >= 0 && v == JSON_ARRAY)
				k = column(r, &t->cols[c]);
			else
				k = json_skip(&r->j, v);
		}
		if (k < 0)
			return -1;
	}
	if (tok != JSON_OBJECT_END)
		return -1;
	if (t->has_data)
		rows_to_columns(t);
	return 0;
}

static int string_array(struct reader *r, struct strings *s)
{
	if (json_expect(&r->j, JSON_ARRAY, "a string table") < 0)
		return -1;
	s->has = 1;
	s->n = 0;
	enum json_token tok;
	while ((tok = json_next(&r->j)) == JSON_STRING) {
		grow((void **)&s->ids, &s->cap, s->n + 1, sizeof *s->ids);
		s->ids[s->n++] = model_str(r->m, r->j.text, r->j.len);
	}
	if (tok == JSON_ARRAY_END)
		return 0;
	return tok == JSON_FAILED ? -1 : json_error(&r->j, "a string table must hold strings only");
}

/* A table named by `key`, if it is one of the four a thread's stacks index. */
static struct table *stack_table(const char *key, struct table *stacks, struct table *frames,
				 struct table *funcs, struct table *resources)
{
	if (strcmp(key, "stackTable") == 0)
		return stacks;
	if (strcmp(key, "frameTable") == 0)
		return frames;
	if (strcmp(key, "funcTable") == 0)
		return funcs;
	return strcmp(key, "resourceTable") == 0 ? resources : NULL;
}

static int is_strings_key(const char *key)
{
	return strcmp(key, "stringTable") == 0 || strcmp(key, "stringArray") == 0;
}

static int thread_field(struct reader *r, struct thread *t)
{
	const char *key = r->j.text;
	struct table *tab = stack_table(key, &t->stacks, &t->frames, &t->funcs, &t->resources);
	if (tab)
		return table(r, tab);
	if (strcmp(key, "samples") == 0)
		return table(r, &t->samples);
	if (is_strings_key(key))
		return string_array(r, &t->strings);
	int is_name = strcmp(key, "name") == 0, is_tid = strcmp(key, "tid") == 0;
	enum json_token v = json_next(&r->j);
	if (is_name && v == JSON_STRING) {
		t->name = model_str(r->m, r->j.text, r->j.len);
		return 0;
	}
	if (is_tid && v == JSON_NUMBER) {
		t->has_tid = json_int(&r->j, "a thread's tid", &t->tid) == 0;
		return t->has_tid ? 0 : -1;
	}
	return json_skip(&r->j, v);
}

static int thread(struct reader *r, size_t profile)
{
	grow((void **)&r->threads, &r->cap_threads, r->n_threads + 1, sizeof *r->threads);
	struct thread *t = &r->threads[r->n_threads++];
	memset(t, 0, sizeof *t);
	table_init(&t->samples);
	table_init(&t->stacks);
	table_init(&t->frames);
	table_init(&t->funcs);
	table_init(&t->resources);
	t->profile = profile;
	size_t index = r->n_threads - 1;
	enum json_token tok;
	while ((tok = json_next(&r->j)) == JSON_KEY)
		if (thread_field(r, &r->threads[index]) < 0)
			return -1;
	return tok == JSON_OBJECT_END ? 0 : -1;
}

static int threads(struct reader *r, size_t profile)
{
	if (json_expect(&r->j, JSON_ARRAY, "threads") < 0)
		return -1;
	enum json_token tok;
	while ((tok = json_next(&r->j)) == JSON_OBJECT)
		if (thread(r, profile) < 0)
			return -1;
	if (tok == JSON_ARRAY_END)
		return 0;
	return tok == JSON_FAILED ? -1 : json_error(&r->j, "a thread must be an object");
}

static int meta_number(struct reader *r, double *v, int *has)
{
	enum json_token tok = json_next(&r->j);
	if (tok == JSON_NUMBER) {
		*v = strtod(r->j.text, NULL);
		*has = isfinite(*v);
		return 0;
	}
	return json_skip(&r->j, tok);
}

static int meta(struct reader *r, size_t p)
{
	if (json_expect(&r->j, JSON_OBJECT, "meta") < 0)
		return -1;
	enum json_token tok;
	while ((tok = json_next(&r->j)) == JSON_KEY) {
		struct profile *pr = &r->profiles[p];
		double ignored;
		int k;
		if (strcmp(r->j.text, "startTime") == 0)
			k = meta_number(r, &pr->start_ms, &pr->has_start);
		else if (strcmp(r->j.text, "interval") == 0)
			k = meta_number(r, &pr->interval_ms, &pr->has_interval);
		else if (strcmp(r->j.text, "preprocessedProfileVersion") == 0)
			k = meta_number(r, &ignored, &pr->processed);
		else
			k = json_skip(&r->j, json_next(&r->j));
		if (k < 0)
			return -1;
	}
	return tok == JSON_OBJECT_END ? 0 : -1;
}

static int shared(struct reader *r, size_t p)
{
	if (json_expect(&r->j, JSON_OBJECT, "shared") < 0)
		return -1;
	enum json_token tok;
	while ((tok = json_next(&r->j)) == JSON_KEY) {
		struct profile *pr = &r->profiles[p];
		struct table *tab = stack_table(r->j.text, &pr->stacks, &pr->frames, &pr->funcs, &pr->resources);
		int k;
		if (tab)
			k = table(r, tab);
		else if (strcmp(r->j.text, "sources") == 0)
			k = table(r, &pr->sources);
		else if (is_strings_key(r->j.text))
			k = string_array(r, &pr->strings);
		else
			k = json_skip(&r->j, json_next(&r->j));
		if (k < 0)
			return -1;
	}
	return tok == JSON_OBJECT_END ? 0 : -1;
}

static int lib(struct reader *r, size_t p)
{
	struct profile *pr = &r->profiles[p];
	grow((void **)&pr->libs, &pr->cap_libs, pr->n_libs + 1, sizeof *pr->libs);
	struct lib *l = &pr->libs[pr->n_libs++];
	memset(l, 0, sizeof *l);
	l->mapping = MODEL_NONE;
	enum json_token tok;
	while ((tok = json_next(&r->j)) == JSON_KEY) {
		uint64_t *address = strcmp(r->j.text, "start") == 0 ? &l->start
				    : strcmp(r->j.text, "end") == 0 ? &l->end
				    : strcmp(r->j.text, "offset") == 0 ? &l->offset : NULL;
		int is_name = strcmp(r->j.text, "name") == 0;
		enum json_token v = json_next(&r->j);
		if (is_name && v == JSON_STRING)
			l->name = model_str(r->m, r->j.text, r->j.len);
		else if (address && v == JSON_NUMBER && r->j.text[strspn(r->j.text, "0123456789")] == '\0')
			*address = strtoull(r->j.text, NULL, 10);
		else if (json_skip(&r->j, v) < 0)
			return -1;
	}
	return tok == JSON_OBJECT_END ? 0 : -1;
}

static int libs(struct reader *r, size_t p)
{
	enum json_token tok = json_next(&r->j);
	if (tok != JSON_ARRAY)
		return json_skip(&r->j, tok);
	while ((tok = json_next(&r->j)) == JSON_OBJECT)
		if (lib(r, p) < 0)
			return -1;
	if (tok == JSON_ARRAY_END)
		return 0;
	return tok == JSON_FAILED ? -1 : json_error(&r->j, "a lib must be an object");
}

static int profile(struct reader *r, int depth, int wrapper);

static int processes(struct reader *r, int depth)
{
	enum json_token tok = json_next(&r->j);
	if (tok != JSON_ARRAY)
		return json_skip(&r->j, tok);
	while ((tok = json_next(&r->j)) == JSON_OBJECT)
		if (profile(r, depth + 1, 0) < 0)
			return -1;
	if (tok == JSON_ARRAY_END)
		return 0;
	return tok == JSON_FAILED ? -1 : json_error(&r->j, "a process must be an object");
}

static int profile_field(struct reader *r, size_t p, int depth)
{
	const char *key = r->j.text;
	if (strcmp(key, "meta") == 0)
		return meta(r, p);
	if (strcmp(key, "threads") == 0)
		return threads(r, p);
	if (strcmp(key, "shared") == 0)
		return shared(r, p);
	if (strcmp(key, "libs") == 0)
		return libs(r, p);
	if (strcmp(key, "processes") == 0)
		return processes(r, depth);
	if (strcmp(key, "profile") == 0) {
		if (json_expect(&r->j, JSON_OBJECT, "a DevTools panel's profile") < 0)
			return -1;
		return profile(r, depth + 1, 1);
	}
	return json_skip(&r->j, json_next(&r->j));
}

/* A profile object, its '{' read. */
static int profile(struct reader *r, int depth, int wrapper)
{
	if (depth > MAX_NESTING)
		return json_error(&r->j, "profiles nested more than %d deep", MAX_NESTING);
	grow((void **)&r->profiles, &r->cap_profiles, r->n_profiles + 1, sizeof *r->profiles);
	size_t p = r->n_profiles++;
	struct profile *pr = &r->profiles[p];
	memset(pr, 0, sizeof *pr);
	table_init(&pr->stacks);
	table_init(&pr->frames);
	table_init(&pr->funcs);
	table_init(&pr->resources);
	table_init(&pr->sources);
	pr->wrapper = wrapper;
	enum json_token tok;
	while ((tok = json_next(&r->j)) == JSON_KEY)
		if (profile_field(r, p, depth) < 0)
			return -1;
	return tok == JSON_OBJECT_END ? 0 : -1;
}

/* ---- Building the model once every table is known. ---- */

/* An error found once the file is read: at the line where its table began. */
static int refuse(struct reader *r, uint64_t line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int refuse(struct reader *r, uint64_t line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_verror(r->file, line, fmt, ap);
	va_end(ap);
	return -1;
}

/* An index into a table of n rows, or -1 after reporting. */
static int64_t index_in(struct reader *r, const struct table *t, const char *what, size_t i, double v,
			size_t n)
{
	if (!(v >= 0 && v < (double)n && v == floor(v)))
		return refuse(r, t->line, "%s of row %zu is %g: no row of the table it indexes", what, i, v);
	return (int64_t)v;
}

static const struct column *need(struct reader *r, const struct table *t, int c, const char *table_name)
{
	if (!t->cols[c].has) {
		refuse(r, t->line, "%s has no %s column", table_name, col_names[c]);
		return NULL;
	}
	return &t->cols[c];
}

/* A string of the table, or -1 after reporting. */
static int string_at(struct reader *r, const struct strings *s, const struct table *t, const char *what,
		     size_t i, double v, uint32_t *id)
{
	if (!s->has) {
		return refuse(r, t->line, "no string table for the thread's %s", what);
	}
	int64_t k = index_in(r, t, what, i, v, s->n);
	if (k < 0)
		return -1;
	*id = s->ids[k];
	return 0;
}

static int is_address(const char *s, size_t len, uint64_t *address)
{
	if (len < 3 || len > 18 || s[0] != '0' || s[1] != 'x')
		return 0;
	for (size_t i = 2; i < len; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f') || (s[i] >= 'A' && s[i] <= 'F')))
			return 0;
	*address = strtoull(s + 2, NULL, 16);
	return 1;
}

static uint32_t address_location(struct reader *r, uint64_t address, uint32_t mapping)
{
	struct model_location l;
	memset(&l, 0, sizeof l);
	l.function = MODEL_NONE;
	l.native.mapping = mapping;
	l.native.address = address;
	return model_add_location(r->m, &l, NULL, 0);
}

/* A JS location, "name (url:line:col)", its parts; 0 when it is not one. */
struct js_location {
	const char *name, *url;
	size_t name_len, url_len;
	int64_t line;
};

static size_t trailing_number(const char *s, size_t end, int64_t *v)
{
	size_t i = end;
	while (i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9' && end - i < 12)
		i--;
	if (i == end || i == 0 || s[i - 1] != ':' || (i > 1 && s[i - 2] >= '0' && s[i - 2] <= '9' && end - i >= 12))
		return 0;
	*v = strtoll(s + i, NULL, 10);
	return end - i + 1;
}

/*
 * speedscope's reading of a location (and the panel's): a name, white
 * space, then the last "(...)" closing the string; in it an URL, then
 * perhaps ":line" and ":column". The name is the function's, the line
 * where it starts.
 */
static int js_location(const char *s, size_t len, struct js_location *js)
{
	/* Gecko 32 on ends a JS location with its source's index: "[4]". */
	if (len > 2 && s[len - 1] == ']') {
		size_t i = len - 1;
		while (i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9')
			i--;
		if (i > 0 && i < len - 1 && s[i - 1] == '[')
			len = i - 1;
	}
	if (len < 4 || s[len - 1] != ')' || memchr(s, '\n', len) || memchr(s, '\r', len))
		return 0;
	size_t open = len - 1;
	while (open > 0 && !(s[open] == '(' && (s[open - 1] == ' ' || s[open - 1] == '\t')))
		open--;
	if (open == 0)
		return 0;
	size_t name_end = open - 1;
	while (name_end > 0 && (s[name_end - 1] == ' ' || s[name_end - 1] == '\t'))
		name_end--;
	js->name = s;
	js->name_len = name_end;
	js->url = s + open + 1;
	size_t url_end = len - 1 - (open + 1);
	int64_t a = 0, b = 0;
	size_t cut = trailing_number(js->url, url_end, &a);
	js->line = 0;
	if (cut) {
		url_end -= cut;
		js->line = a;
		cut = trailing_number(js->url, url_end, &b);
		if (cut) {
			url_end -= cut;
			js->line = b;
		}
	}
	js->url_len = url_end;
	return 1;
}

static int starts_with(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);
	return len >= n && memcmp(s, prefix, n) == 0;
}

/* Firefox's own JS and SpiderMonkey's self-hosted builtins, which the panel hid. */
static int is_internal(const struct js_location *js)
{
	return starts_with(js->url, js->url_len, "resource:") ||
	       (js->url_len == 11 && memcmp(js->url, "self-hosted", 11) == 0) ||
	       starts_with(js->url, js->url_len, "self-hosted:");
}

static uint32_t function_location(struct reader *r, uint32_t name, uint32_t file, int64_t line)
{
	struct model_function f;
	memset(&f, 0, sizeof f);
	f.name = f.system_name = name;
	f.file_name = file;
	f.start_line = line;
	return model_location(r->m, model_function(r->m, &f), 0);
}

static uint32_t lib_mapping(struct reader *r, struct profile *p, double lib)
{
	if (!(lib >= 0 && lib < (double)p->n_libs))
		return MODEL_NONE;
	struct lib *l = &p->libs[(size_t)lib];
	if (l->mapping == MODEL_NONE) {
		struct model_mapping mm;
		memset(&mm, 0, sizeof mm);
		mm.filename = l->name;
		mm.memory_start = l->start;
		mm.memory_limit = l->end;
		mm.file_offset = l->offset;
		l->mapping = model_add_mapping(r->m, &mm);
	}
	return l->mapping;
}

/* The lib a Gecko address was in, as the profile's libs say where each was loaded. */
static uint32_t gecko_mapping(struct reader *r, struct profile *p, uint64_t address)
{
	for (size_t i = 0; i < p->n_libs; i++)
		if (p->libs[i].start <= address && address < p->libs[i].end)
			return lib_mapping(r, p, (double)i);
	return MODEL_NONE;
}

/* A Gecko frame's location string as a location; MODEL_NONE: the panel hid it. */
static uint32_t gecko_location(struct reader *r, struct profile *p, uint32_t text)
{
	int wrapper = p->wrapper;
	const struct strtab_entry *e = strtab_get(&r->m->strings, text);
	struct js_location js;
	uint64_t address;
	if (is_address(e->bytes, e->len, &address))
		return wrapper ? MODEL_NONE : address_location(r, address, gecko_mapping(r, p, address));
	int is_js = js_location(e->bytes, e->len, &js);
	if (wrapper && (!is_js || is_internal(&js)))
		return MODEL_NONE;
	if (!is_js || (!wrapper && js.line == 0))
		return function_location(r, text, 0, 0);
	/* Functions are told apart by the whole location, as speedscope keys them. */
	uint32_t name = model_str(r->m, js.name, js.name_len);
	uint32_t file = model_str(r->m, js.url, js.url_len);
	struct model_function f;
	memset(&f, 0, sizeof f);
	f.name = name;
	f.system_name = text;
	f.file_name = file;
	f.start_line = js.line;
	return model_location(r->m, model_function(r->m, &f), 0);
}

struct tables {
	const struct table *samples, *stacks, *frames, *funcs, *resources;
	const struct strings *strings;
	struct profile *profile;
	int processed;
};

/* The lib of a processed frame: its own (v70 on), else its function's resource's. */
static double frame_lib(const struct tables *t, size_t f, size_t func)
{
	const struct column *lib = &t->frames->cols[COL_LIB];
	if (lib->has && f < lib->n && !isnan(lib->v[f]))
		return lib->v[f];
	const struct column *res = &t->funcs->cols[COL_RESOURCE];
	const struct column *rlib = &t->resources->cols[COL_LIB];
	if (!res->has || func >= res->n || !rlib->has)
		return NAN;
	double k = res->v[func];
	return k >= 0 && k < (double)rlib->n ? rlib->v[(size_t)k] : NAN;
}

/* A processed function's file: its fileName, or (v58 on) its source's filename; 0: none. */
static int function_file(struct reader *r, const struct tables *t, size_t fn, uint32_t *file)
{
	const struct column *files = &t->funcs->cols[COL_FILE_NAME];
	const struct column *source = &t->funcs->cols[COL_SOURCE];
	const struct table *sources = &r->profiles[0].sources;
	const struct column *names = &sources->cols[COL_FILENAME];
	*file = 0;
	if (files->has && fn < files->n && !isnan(files->v[fn]))
		return string_at(r, t->strings, t->funcs, "funcTable's fileName", fn, files->v[fn], file);
	if (!source->has || fn >= source->n || isnan(source->v[fn]))
		return 0;
	int64_t k = index_in(r, t->funcs, "funcTable's source", fn, source->v[fn], names->n);
	if (k < 0 || isnan(names->v[k]))
		return k < 0 ? -1 : 0;
	return string_at(r, t->strings, sources, "sources' filename", (size_t)k, names->v[k], file);
}

static int processed_location(struct reader *r, const struct tables *t, size_t f, uint32_t *location)
{
	const struct column *func = need(r, t->frames, COL_FUNC, "frameTable");
	const struct column *name = func ? need(r, t->funcs, COL_NAME, "funcTable") : NULL;
	if (!name)
		return -1;
	int64_t fn = index_in(r, t->frames, "frameTable's func", f, f < func->n ? func->v[f] : NAN, name->n);
	uint32_t text, file = 0;
	if (fn < 0 || string_at(r, t->strings, t->funcs, "funcTable's name", (size_t)fn, name->v[fn], &text) < 0)
		return -1;
	const struct strtab_entry *e = strtab_get(&r->m->strings, text);
	uint64_t address;
	if (is_address(e->bytes, e->len, &address)) {
		const struct column *addr = &t->frames->cols[COL_ADDRESS];
		if (addr->has && f < addr->n && addr->v[f] >= 0 && addr->v[f] < 18446744073709551616.0)
			address = (uint64_t)addr->v[f];
		*location = address_location(r, address, lib_mapping(r, t->profile, frame_lib(t, f, (size_t)fn)));
		return 0;
	}
	if (function_file(r, t, (size_t)fn, &file) < 0)
		return -1;
	const struct column *line = &t->frames->cols[COL_LINE];
	double l = line->has && f < line->n ? line->v[f] : NAN;
	struct model_function mf;
	memset(&mf, 0, sizeof mf);
	mf.name = mf.system_name = text;
	mf.file_name = file;
	*location = model_location(r->m, model_function(r->m, &mf), l >= 1 && l < 1e15 ? (int64_t)l : 0);
	return 0;
}

/* Frame f's location, made once per thread; MODEL_NONE: a frame the panel hid. */
static int location_of(struct reader *r, const struct tables *t, size_t f, uint32_t *location)
{
	if (r->frame_location[f] != UNBUILT) {
		*location = r->frame_location[f];
		return 0;
	}
	if (t->processed) {
		if (processed_location(r, t, f, location) < 0)
			return -1;
	} else {
		const struct column *loc = need(r, t->frames, COL_LOCATION, "frameTable");
		uint32_t text;
		if (!loc || string_at(r, t->strings, t->frames, "frameTable's location", f, loc->v[f], &text) < 0)
			return -1;
		*location = gecko_location(r, t->profile, text);
	}
	r->frame_location[f] = *location;
	return 0;
}

static size_t frame_count(const struct tables *t)
{
	const struct column *c = &t->frames->cols[t->processed ? COL_FUNC : COL_LOCATION];
	return c->has ? c->n : 0;
}

/* The model's stack of every row of the stack table, callers first: a prefix must come before its row. */
static int build_stacks(struct reader *r, const struct tables *t)
{
	const struct column *frame = need(r, t->stacks, COL_FRAME, "stackTable");
	if (!frame)
		return -1;
	const struct column *prefix = &t->stacks->cols[COL_PREFIX];
	const struct column *offset = &t->stacks->cols[COL_PREFIX_OFFSET];
	size_t n_frames = frame_count(t);
	grow((void **)&r->frame_location, &r->cap_frame_location, n_frames + 1, sizeof *r->frame_location);
	for (size_t f = 0; f < n_frames; f++)
		r->frame_location[f] = UNBUILT;
	grow((void **)&r->stack_of, &r->cap_stack_of, frame->n + 1, sizeof *r->stack_of);
	for (size_t i = 0; i < frame->n; i++) {
		uint32_t caller = MODEL_EMPTY_STACK, location;
		double p = prefix->has && i < prefix->n ? prefix->v[i] : NAN;
		if (offset->has && i < offset->n)
			p = offset->v[i] == 0 ? NAN : (double)i - offset->v[i];
		if (!isnan(p)) {
			/* Before its row, as Firefox writes them: a stack can then never be its own caller. */
			if (!(p >= 0 && p < (double)i && p == floor(p)))
				return refuse(r, t->stacks->line, "stackTable's prefix of row %zu is %g: not a row before it",
					      i, p);
			caller = r->stack_of[(size_t)p];
		}
		int64_t f = index_in(r, t->stacks, "stackTable's frame", i, frame->v[i], n_frames);
		if (f < 0 || location_of(r, t, (size_t)f, &location) < 0)
			return -1;
		r->stack_of[i] = location == MODEL_NONE ? caller : model_stack(r->m, location, caller);
	}
	return 0;
}

/*
 * Milliseconds to nanoseconds. Within 2^62 ns (146 years) either way, so
 * that the difference of any two, and of their sum, fits an int64.
 */
static int ms_to_ns(struct reader *r, const struct table *t, size_t i, double ms, int64_t *ns)
{
	double v = ms * 1e6;
	if (!(fabs(v) < 4611686018427387904.0))
		return refuse(r, t->line, "the time of sample %zu is %g ms: past 2^62 ns either way", i, ms);
	*ns = llround(v);
	return 0;
}

/* Sample i's time in ns since the file's profile began, from `time` or the running sum of `timeDeltas`. */
static int sample_times(struct reader *r, const struct thread *th, size_t n, int64_t *times)
{
	const struct table *s = &th->samples;
	const struct column *time = &s->cols[COL_TIME], *deltas = &s->cols[COL_TIME_DELTAS];
	if (!time->has && !deltas->has)
		return refuse(r, s->line, "samples have no time or timeDeltas column");
	const struct column *c = time->has ? time : deltas;
	if (c->n != n)
		return refuse(r, s->line, "samples have %zu times for %zu stacks", c->n, n);
	/* A child process's times count from its own startTime. */
	const struct profile *p = &r->profiles[th->profile], *root = &r->profiles[0];
	double offset = p->has_start && root->has_start ? p->start_ms - root->start_ms : 0;
	double at = offset;
	for (size_t i = 0; i < n; i++) {
		at = time->has ? c->v[i] + offset : at + c->v[i];
		if (isnan(at))
			return refuse(r, s->line, "sample %zu has no time", i);
		if (ms_to_ns(r, s, i, at, &times[i]) < 0)
			return -1;
		if (i > 0 && times[i] < times[i - 1])
			return refuse(r, s->line, "the time of sample %zu goes back, to %g ms", i, at);
	}
	return 0;
}

static struct tables tables_of(struct reader *r, const struct thread *th)
{
	struct profile *p = &r->profiles[th->profile];
	/* A child process's profile shares nothing; a processed file's threads share its `shared`. */
	struct profile *root = &r->profiles[0];
	struct tables t = {
		&th->samples,
		th->stacks.has ? &th->stacks : &root->stacks,
		th->frames.has ? &th->frames : &root->frames,
		th->funcs.has ? &th->funcs : &root->funcs,
		th->resources.has ? &th->resources : &root->resources,
		th->strings.has ? &th->strings : &root->strings,
		p, root->processed,
	};
	/* A processed file without its version still says so by its frames. */
	if (!t.frames->cols[COL_LOCATION].has && t.frames->cols[COL_FUNC].has)
		t.processed = 1;
	if (!th->stacks.has && root->stacks.has)
		t.profile = root;
	return t;
}

static int sample_weight(struct reader *r, const struct table *s, size_t i, int64_t *w)
{
	const struct column *c = &s->cols[COL_WEIGHT];
	double v = c->has ? c->v[i] : 1;
	if (isnan(v))
		v = 1;
	if (strcmp(r->weight_type, "tracing-ms") == 0)
		return ms_to_ns(r, s, i, v, w);
	if (!(v == floor(v) && fabs(v) < 4611686018427387904.0))
		return refuse(r, s->line, "the weight of sample %zu is %g: not a whole number within 2^62", i, v);
	*w = (int64_t)v;
	return 0;
}

static void add_types(struct reader *r)
{
	if (strcmp(r->weight_type, "tracing-ms") == 0)
		model_add_sample_type(r->m, "tracing", "nanoseconds");
	else if (strcmp(r->weight_type, "bytes") == 0)
		model_add_sample_type(r->m, "bytes", "bytes");
	else
		model_add_sample_type(r->m, "samples", "count");
	model_add_sample_type(r->m, "wall", "nanoseconds");
	r->m->timed_rows = 1;
}

static uint32_t thread_labels(struct reader *r, const struct thread *th, size_t index)
{
	uint32_t name = th->name;
	if (name == 0) {
		char made[32];
		int n = snprintf(made, sizeof made, "thread %zu", index);
		name = model_str(r->m, made, (size_t)n);
	}
	/* Threads of one name (each process has its GeckoMain) are told apart by their tid. */
	struct model_label l[2] = { { r->label_thread, name, 0, 0 }, { r->label_tid, 0, th->tid, 0 } };
	return model_label_set(r->m, l, th->has_tid ? 2 : 1);
}

static int thread_rows(struct reader *r, size_t index, int64_t *times, size_t n)
{
	const struct thread *th = &r->threads[index];
	struct tables t = tables_of(r, th);
	const struct column *stack = &th->samples.cols[COL_STACK];
	if (build_stacks(r, &t) < 0)
		return -1;
	const struct column *weight = &th->samples.cols[COL_WEIGHT];
	if (weight->has && weight->n != n)
		return refuse(r, th->samples.line, "samples have %zu weights for %zu stacks", weight->n, n);
	uint32_t labels = thread_labels(r, th, index);
	int64_t interval = 0;
	if (t.profile->has_interval && ms_to_ns(r, &th->samples, 0, t.profile->interval_ms, &interval) < 0)
		return -1;
	size_t n_stacks = t.stacks->cols[COL_FRAME].n;
	for (size_t i = 0; i < n; i++) {
		if (isnan(stack->v[i]))
			continue;
		int64_t k = index_in(r, &th->samples, "samples' stack", i, stack->v[i], n_stacks);
		int64_t values[2];
		if (k < 0 || sample_weight(r, &th->samples, i, &values[0]) < 0)
			return -1;
		values[1] = i + 1 < n ? times[i + 1] - times[i] : interval;
		model_add_samples(r->m, r->stack_of[k], values, NULL, labels, 1, times[i] - r->zero_ns);
	}
	return 0;
}

static const char *weight_type_of(const struct thread *th)
{
	return th->samples.weight_type[0] ? th->samples.weight_type : "samples";
}

/* Every thread's sample times, and the earliest of them all: the profile's zero. */
static int all_times(struct reader *r, int64_t **times)
{
	int have = 0;
	for (size_t i = 0; i < r->n_threads; i++) {
		const struct thread *th = &r->threads[i];
		size_t n = th->samples.cols[COL_STACK].n;
		times[i] = xmalloc((n + 1) * sizeof **times);
		if (!th->samples.has || n == 0)
			continue;
		if (strcmp(weight_type_of(th), r->weight_type) != 0) {
			diag_error(r->file, th->samples.line, "threads weigh their samples as %s and as %s",
				   r->weight_type, weight_type_of(th));
			return -1;
		}
		if (sample_times(r, th, n, times[i]) < 0)
			return -1;
		if (!have || times[i][0] < r->zero_ns)
			r->zero_ns = times[i][0];
		have = 1;
	}
	return 0;
}

static int build(struct reader *r)
{
	if (r->n_profiles == 0 || r->n_threads == 0) {
		diag_error(r->file, 0, "no threads: not a Firefox profile");
		return -1;
	}
	r->weight_type = weight_type_of(&r->threads[0]);
	for (size_t i = 0; i < r->n_threads; i++)
		if (r->threads[i].samples.cols[COL_STACK].n) {
			r->weight_type = weight_type_of(&r->threads[i]);
			break;
		}
	int64_t **times = xcalloc(r->n_threads, sizeof *times);
	int status = all_times(r, times);
	if (status == 0) {
		add_types(r);
		r->label_thread = model_str(r->m, "thread", 6);
		r->label_tid = model_str(r->m, "tid", 3);
		for (size_t i = 0; i < r->n_threads && status == 0; i++)
			if (r->threads[i].samples.has)
				status = thread_rows(r, i, times[i], r->threads[i].samples.cols[COL_STACK].n);
	}
	for (size_t i = 0; i < r->n_threads; i++)
		free(times[i]);
	free(times);
	return status;
}

static void free_reader(struct reader *r)
{
	for (size_t i = 0; i < r->n_threads; i++) {
		struct thread *t = &r->threads[i];
		table_free(&t->samples);
		table_free(&t->stacks);
		table_free(&t->frames);
		table_free(&t->funcs);
		table_free(&t->resources);
		free(t->strings.ids);
	}
	for (size_t i = 0; i < r->n_profiles; i++) {
		struct profile *p = &r->profiles[i];
		table_free(&p->stacks);
		table_free(&p->frames);
		table_free(&p->funcs);
		table_free(&p->resources);
		table_free(&p->sources);
		free(p->strings.ids);
		free(p->libs);
	}
	free(r->threads);
	free(r->profiles);
	free(r->frame_location);
	free(r->stack_of);
}

int firefox_read(struct input *in, struct model *m)
{
	struct reader r;
	memset(&r, 0, sizeof r);
	r.m = m;
	r.file = in->name;
	/* Weights may be time or bytes, and names may be empty: R's rules do not hold. */
	m->rules.strict_r = 0;
	json_begin(&r.j, in);
	int status = json_expect(&r.j, JSON_OBJECT, "a Firefox profile");
	if (status == 0)
		status = profile(&r, 0, 0);
	if (status == 0 && json_next(&r.j) != JSON_END)
		status = -1;
	json_end(&r.j);
	if (status == 0)
		status = build(&r);
	free_reader(&r);
	return status;
}
