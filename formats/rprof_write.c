/*
 * Rprof writer: writes each run as R would have. #File lines the model
 * kept are written back between the same two samples, with their own
 * numbers; a file that a sample needs and no kept line defines gets the
 * next number, defined right before that sample, as R does. Each row is
 * built once and written as many times as it has ticks.
 *
 * Lines end as the file read had them (LF or CR LF, the last one with an
 * ending or not): each line's ending is written before the next line, so
 * that the last can be left without one. Unquoted runs (R before 2.9) are
 * written without quotes; a call site after the outermost frame comes
 * back after it. Ticks are whole lines: a sample type with decimals is
 * refused, never rounded.
 *
 * A profile with no runs (read from pprof) becomes one run: the interval
 * from its period, ticks from a count sample type or from a time type
 * divided by the period (docs/formats/rprof.md), inlined frames expanded.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/diag.h"
#include "../base/alloc.h"
#include "../base/numtext.h"
#include "../model/view.h"
#include "rprof.h"

struct numbered_path {
	uint32_t path;
	uint64_t number;
};

/*
 * Rprof writes a line per tick. Ticks read from Rprof were lines already,
 * but ticks made from other profiles' values (a count, or a time) can be
 * any number: nanoseconds summed by perf are billions. Past this many
 * lines (2.3 days of samples at R's default rate, gigabytes of text) the
 * output is refused before anything is written; --max-lines moves it.
 */
#define DEFAULT_MAX_LINES "10000000"

static const char *whole_number(const char *value)
{
	char *end;
	strtoull(value, &end, 10);
	return end == value || *end || value[0] == '-' ? "a whole number" : NULL;
}

const struct format_option rprof_options[] = {
	{ "max-lines", "N", "refuse to write more than N lines of ticks (default "
			    DEFAULT_MAX_LINES "; 0: no limit)", whole_number },
	{ NULL, NULL, NULL, NULL },
};

/* How a row's value of one sample type becomes ticks. */
struct ticks {
	size_t type;
	uint64_t unit_ns;   /* 0: the type counts samples */
	uint64_t period_ns;
};

struct writer {
	const struct model *m;
	struct output *out;
	struct ticks ticks;
	struct model_frame *frames;
	size_t cap_frames;
	/* #File numbers defined so far in the current run. */
	struct numbered_path *defined;
	size_t n_defined, cap_defined;
	struct hashidx defined_index;
	uint64_t max_number;
	size_t next_source_file;
	/* The line being built, after the ending of the line before it. */
	char *line;
	size_t len, cap;
	const char *eol; /* "\n", or "\r\n" */
	size_t eol_len;
	int started;     /* a line was written: the next starts with an ending */
};

static void append(struct writer *w, const void *data, size_t len)
{
	grow((void **)&w->line, &w->cap, w->len + len, 1);
	memcpy(w->line + w->len, data, len);
	w->len += len;
}

static void append_u64(struct writer *w, uint64_t v)
{
	char digits[U64_TEXT_MAX];
	const char *start = u64_text(digits, v);
	append(w, start, (size_t)(digits + U64_TEXT_MAX - start));
}

static int defined_has_path(const void *ctx, uint32_t i, const void *path)
{
	return ((const struct writer *)ctx)->defined[i].path == *(const uint32_t *)path;
}

static uint64_t number_of(const struct writer *w, uint32_t path)
{
	uint32_t i = hashidx_find(&w->defined_index, hash_mix(path, 0), defined_has_path, w, &path);
	return i == HASHIDX_NONE ? 0 : w->defined[i].number;
}

/* Ends the line before, if any: the last line's ending is written at the end. */
static void start_line(struct writer *w)
{
	if (w->started)
		output_write(w->out, w->eol, w->eol_len);
	w->started = 1;
}

static void define_file(struct writer *w, uint64_t number, uint32_t path)
{
	const struct strtab_entry *p = strtab_get(&w->m->strings, path);
	start_line(w);
	output_str(w->out, RPROF_FILE);
	output_u64(w->out, number);
	output_write(w->out, ": ", 2);
	output_write(w->out, p->bytes, p->len);
	grow((void **)&w->defined, &w->cap_defined, w->n_defined + 1, sizeof *w->defined);
	w->defined[w->n_defined] = (struct numbered_path){ path, number };
	hashidx_insert(&w->defined_index, hash_mix(path, 0), (uint32_t)w->n_defined++);
	if (number > w->max_number)
		w->max_number = number;
}

/* Writes the kept #File lines that stood before `row` in `run`. */
static void write_kept_files(struct writer *w, uint32_t run, size_t row)
{
	const struct model *m = w->m;
	while (w->next_source_file < m->sessions.n_files) {
		const struct model_source_file *f = &m->sessions.files[w->next_source_file];
		if (f->run != run || f->before_row > row)
			return;
		define_file(w, f->number, f->path);
		w->next_source_file++;
	}
}

/* Defines, R's way, each file these frames and the call site refer to that has no number yet. */
static void define_needed_files(struct writer *w, size_t n_frames, struct model_call_site site)
{
	for (size_t k = 0; k < n_frames; k++) {
		const struct model_frame *fr = &w->frames[k];
		if (fr->line <= 0 || fr->function == MODEL_NONE)
			continue;
		uint32_t file = w->m->functions[fr->function].file_name;
		if (!number_of(w, file))
			define_file(w, w->max_number + 1, file);
	}
	if (site.line && !number_of(w, site.file))
		define_file(w, w->max_number + 1, site.file);
}

/* A name's bytes; a line break in it is the file's line ending. */
static int append_name(struct writer *w, const char *bytes, size_t len)
{
	if (memchr(bytes, '\0', len)) {
		diag_error(w->out->name, 0, "function name with a NUL byte: Rprof cannot hold it");
		return -1;
	}
	for (const char *nl; w->eol_len > 1 && (nl = memchr(bytes, '\n', len)) != NULL;) {
		append(w, bytes, (size_t)(nl - bytes));
		append(w, w->eol, w->eol_len);
		len -= (size_t)(nl - bytes) + 1;
		bytes = nl + 1;
	}
	append(w, bytes, len);
	return 0;
}

/* The name R wrote: a truncated frame's raw bytes, which are its system name. */
static int build_name(struct writer *w, const struct model_frame *fr)
{
	const struct model_function *f =
		fr->function == MODEL_NONE ? NULL : &w->m->functions[fr->function];
	if (f && f->truncated) {
		const struct strtab_entry *raw = strtab_get(&w->m->strings, f->system_name);
		return append_name(w, raw->bytes, raw->len);
	}
	struct model_name name;
	model_frame_name(w->m, fr, &name);
	return append_name(w, name.bytes, name.len);
}

static void append_ref(struct writer *w, uint32_t file, int64_t line)
{
	append_u64(w, number_of(w, file));
	append(w, "#", 1);
	append_u64(w, (uint64_t)line);
	append(w, " ", 1);
}

static int build_frames(struct writer *w, const struct model_run *run, size_t n_frames)
{
	const struct model *m = w->m;
	for (size_t k = 0; k < n_frames; k++) {
		const struct model_frame *fr = &w->frames[k];
		const struct model_function *f =
			fr->function == MODEL_NONE ? NULL : &m->functions[fr->function];
		/* A reference alone: written as the call site, after the frames. */
		if (!f && model_is_call_site(m, fr->location))
			continue;
		if (f && f->truncated) {
			if (build_name(w, fr) < 0)
				return -1;
			continue;
		}
		if (f && fr->line > 0)
			append_ref(w, f->file_name, fr->line);
		if (!run->unquoted)
			append(w, "\"", 1);
		if (build_name(w, fr) < 0)
			return -1;
		append(w, run->unquoted ? " " : "\" ", run->unquoted ? 1 : 2);
	}
	return 0;
}


static void build_memory_prefix(struct writer *w, const struct model_memory *mem)
{
	const uint64_t fields[4] = { mem->small_v, mem->big_v, mem->nodes, mem->dup_count };
	for (int k = 0; k < 4; k++) {
		append(w, ":", 1);
		append_u64(w, fields[k]);
	}
	append(w, ":", 1);
}

static void write_header(struct writer *w, const struct model_run *run)
{
	start_line(w);
	if (run->memory_profiling)
		output_str(w->out, RPROF_MEMORY);
	if (run->gc_profiling)
		output_str(w->out, RPROF_GC);
	if (run->line_profiling)
		output_str(w->out, RPROF_LINE);
	output_str(w->out, RPROF_INTERVAL);
	output_u64(w->out, run->interval_us);
}

static int row_ticks(struct writer *w, const struct model_row *row, uint64_t *ticks)
{
	size_t i = row->index;
	int64_t v = row->values[w->ticks.type];
	if (v < 0)
		return view_refuse_negative(w->m, i, w->ticks.type, v, "Rprof", w->out->name);
	/* The validator saw that value x repeat fits. */
	uint64_t total = (uint64_t)v * row->repeat;
	/* Time becomes ticks of one period each, to the nearest. */
	if (w->ticks.unit_ns) {
		if (__builtin_mul_overflow(total, w->ticks.unit_ns, &total) ||
		    __builtin_add_overflow(total, w->ticks.period_ns / 2, &total)) {
			diag_error(w->out->name, 0, "sample %zu: too much time to count in ticks", i);
			return -1;
		}
		total /= w->ticks.period_ns;
	}
	*ticks = total;
	return 0;
}

static int write_row(struct writer *w, const struct model_run *run, const struct model_row *row)
{
	const struct model *m = w->m;
	uint64_t ticks;
	if (row_ticks(w, row, &ticks) < 0)
		return -1;
	if (ticks == 0)
		return 0;
	size_t n_frames = model_stack_frames(m, row->stack, &w->frames, &w->cap_frames);
	/* The outermost frame's location is the stack's outermost: no second walk. */
	struct model_call_site site = n_frames ? m->locations[w->frames[n_frames - 1].location].call_site
					       : (struct model_call_site){ 0, 0, 0 };
	define_needed_files(w, n_frames, site);
	w->len = 0;
	append(w, w->eol, w->eol_len);
	if (run->memory_profiling && m->sessions.has_memory)
		build_memory_prefix(w, &row->memory);
	if (build_frames(w, run, n_frames) < 0)
		return -1;
	if (site.raw) {
		const struct strtab_entry *raw = strtab_get(&m->strings, site.raw);
		append(w, raw->bytes, raw->len);
	} else if (site.line) {
		append_ref(w, site.file, site.line);
	}
	/* Each tick is a line, its ending before it but for the file's first. */
	size_t skip = w->started ? 0 : w->eol_len;
	w->started = 1;
	for (uint64_t t = 0; t < ticks && !w->out->failed; t++, skip = 0)
		output_write(w->out, w->line + skip, w->len - skip);
	return 0;
}

/* Rows first_row..end of `rows` are the run's. */
static int write_run(struct writer *w, uint32_t r, const struct model_run *run, size_t end,
		     struct row_cursor *rows)
{
	write_header(w, run);
	w->n_defined = 0;
	w->max_number = 0;
	hashidx_free(&w->defined_index);
	for (size_t i = run->first_row; i < end; i++) {
		write_kept_files(w, r, i);
		if (write_row(w, run, rows_next(rows)) < 0)
			return -1;
	}
	write_kept_files(w, r, end);
	return 0;
}

static uint64_t unit_ns(const struct model *m, uint32_t unit)
{
	return view_unit_ns(model_cstr(m, unit));
}

static uint64_t period_ns(const struct model *m)
{
	uint32_t period = model_get_meta(m, "period"), unit = model_get_meta(m, "period_unit");
	if (period == HASHIDX_NONE || unit == HASHIDX_NONE)
		return 0;
	int64_t p = strtoll(model_cstr(m, period), NULL, 10);
	return p > 0 ? (uint64_t)p * unit_ns(m, unit) : 0;
}

static int is_count(const struct model *m, size_t type)
{
	return strcmp(model_cstr(m, m->sample_types[type].unit), "count") == 0;
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t r = a % b;
		a = b;
		b = r;
	}
	return a;
}

/*
 * Time becomes ticks of an interval that divides every sample's time, the
 * longest there is, so that no tick is rounded and there are the fewest
 * lines (Node's wall time has a period of 1 us: 40 s would be 40 million
 * lines). Rprof's interval is in whole microseconds; when no such interval
 * divides the times, ticks are the period's, rounded.
 */
static void exact_interval(const struct model *m, struct ticks *t, const char *type,
			   const char *out_name)
{
	uint64_t g = 0;
	struct row_cursor rows;
	rows_begin(m, &rows);
	for (const struct model_row *row; (row = rows_next(&rows));) {
		int64_t v = row->values[t->type];
		uint64_t ns;
		if (v != 0 && !__builtin_mul_overflow(v < 0 ? -(uint64_t)v : (uint64_t)v, t->unit_ns, &ns))
			g = gcd(g, ns);
	}
	rows_end(&rows);
	if (g < 1000 || g % 1000 != 0 || g == t->period_ns)
		return;
	diag_warn(out_name, 0, "writing sample.interval=%llu: the longest interval that divides "
			       "every sample's %s, so that each is a whole number of ticks",
		  (unsigned long long)(g / 1000), type);
	t->period_ns = g;
}

/* Ticks of R's own profile are its lines; any other profile's come from a count or a time. */
static int choose_ticks(const struct model *m, const struct write_options *opts,
			const char *out_name, struct ticks *t)
{
	struct view v;
	view_init(&v, m);
	if (view_pick(&v, opts->sample_type, VIEW_TICKS, out_name, &t->type) < 0)
		return -1;
	/* A tick is a line: a fraction of one cannot be written, and is not rounded. */
	if (view_decimals(&v, t->type))
		return view_refuse_decimals(&v, t->type, "Rprof", out_name);
	int ticks = v.ticks ? strcmp(view_unit(&v, t->type), "bytes") != 0 : is_count(m, t->type);
	t->period_ns = period_ns(m);
	t->unit_ns = ticks ? 0 : unit_ns(m, m->sample_types[t->type].unit);
	if (!ticks && t->unit_ns)
		exact_interval(m, t, view_type(&v, t->type), out_name);
	if (!ticks && (!t->unit_ns || !t->period_ns)) {
		diag_error(out_name, 0, "sample type '%s' is neither a count nor a time with a "
					"sampling period; choose another with --sample-type",
			   view_type(&v, t->type));
		return -1;
	}
	/* Samples and time of a profile of ticks are the same lines. */
	if (v.ticks)
		t->type = 0;
	return 0;
}

/* The one run of a profile that has none: interval from the period. */
static int synthesize_run(const struct model *m, const struct ticks *t, const char *out_name,
			  struct model_run *run)
{
	uint64_t interval_us = t->period_ns / 1000;
	if (t->period_ns == 0 && !t->unit_ns) {
		/* Counted samples with no period at all (a LispWorks tree): say what is assumed. */
		diag_warn(out_name, 0, "the profile has no sampling interval; writing R's default, "
				       "sample.interval=%d", RPROF_DEFAULT_INTERVAL_US);
		interval_us = RPROF_DEFAULT_INTERVAL_US;
	} else if (interval_us == 0) {
		diag_error(out_name, 0, "sampling period under a microsecond: "
					"nothing to write as Rprof's sample.interval");
		return -1;
	}
	*run = (struct model_run){ .interval_us = interval_us };
	for (size_t i = 0; i < m->n_locations && !run->line_profiling; i++)
		run->line_profiling = m->locations[i].line > 0;
	return 0;
}

/* Counted before anything is written: a line per tick, and a limit on lines. */
static int ticks_in_bounds(struct writer *w, const struct write_options *opts)
{
	const char *limit_text = write_option(opts, "max-lines");
	uint64_t limit = strtoull(limit_text ? limit_text : DEFAULT_MAX_LINES, NULL, 10), total = 0;
	int rc = 0;
	struct row_cursor rows;
	rows_begin(w->m, &rows);
	for (const struct model_row *row; rc == 0 && (row = rows_next(&rows));) {
		uint64_t ticks;
		if ((rc = row_ticks(w, row, &ticks)) == 0 && __builtin_add_overflow(total, ticks, &total))
			total = UINT64_MAX;
	}
	rows_end(&rows);
	if (rc == 0 && limit && total > limit) {
		diag_error(w->out->name, 0, "%llu lines of ticks to write (one per sample.interval), "
					    "more than --max-lines %llu; raise it, or choose another "
					    "--sample-type or format", (unsigned long long)total,
			   (unsigned long long)limit);
		rc = -1;
	}
	return rc;
}

int rprof_write(const struct model *m, struct output *out, const struct write_options *opts)
{
	struct writer w;
	memset(&w, 0, sizeof w);
	w.m = m;
	w.out = out;
	w.eol = m->sessions.crlf ? "\r\n" : "\n";
	w.eol_len = strlen(w.eol);
	if (choose_ticks(m, opts, out->name, &w.ticks) < 0 || ticks_in_bounds(&w, opts) < 0)
		return -1;
	int rc = 0;
	struct row_cursor rows;
	rows_begin(m, &rows);
	if (m->sessions.n_runs == 0) {
		struct model_run run;
		rc = synthesize_run(m, &w.ticks, out->name, &run);
		if (rc == 0)
			rc = write_run(&w, 0, &run, m->n_rows, &rows);
	}
	for (uint32_t r = 0; r < m->sessions.n_runs && rc == 0; r++)
		rc = write_run(&w, r, &m->sessions.runs[r],
			       r + 1 < m->sessions.n_runs ? m->sessions.runs[r + 1].first_row : m->n_rows, &rows);
	rows_end(&rows);
	if (w.started && !m->sessions.no_final_newline)
		output_write(out, w.eol, w.eol_len);
	free(w.frames);
	free(w.defined);
	hashidx_free(&w.defined_index);
	free(w.line);
	return rc;
}
