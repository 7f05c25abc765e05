/*
 * Rprof writer: writes each run as R would have. #File lines the model
 * kept are written back between the same two samples, with their own
 * numbers; a file that a sample needs and no kept line defines gets the
 * next number, defined right before that sample, as R does. Each row is
 * built once and written as many times as it has ticks.
 *
 * A profile with no runs (read from pprof) becomes one run: the interval
 * from its period, ticks from a count sample type or from a time type
 * divided by the period (FORMATS.md), inlined frames expanded.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../io/diag.h"
#include "../model/alloc.h"
#include "../model/view.h"
#include "rprof.h"

struct numbered_path {
	uint32_t path;
	uint64_t number;
};

/*
 * Rprof writes a line per tick. Ticks read from Rprof were lines already,
 * but ticks made from pprof's values (time / period, or a count) can be
 * any number: past this many (11 days of samples at R's default rate,
 * some 10 GB of text) a conversion would never end, and is refused.
 */
enum { MAX_TICKS = 100000000 };

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
	char *line;
	size_t len, cap;
};

static void append(struct writer *w, const void *data, size_t len)
{
	grow((void **)&w->line, &w->cap, w->len + len, 1);
	memcpy(w->line + w->len, data, len);
	w->len += len;
}

static void append_u64(struct writer *w, uint64_t v)
{
	char digits[20];
	size_t n = 0;
	do
		digits[sizeof digits - 1 - n++] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	append(w, digits + sizeof digits - n, n);
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

static void define_file(struct writer *w, uint64_t number, uint32_t path)
{
	const struct strtab_entry *p = strtab_get(&w->m->strings, path);
	output_str(w->out, RPROF_FILE);
	output_u64(w->out, number);
	output_write(w->out, ": ", 2);
	output_write(w->out, p->bytes, p->len);
	output_byte(w->out, '\n');
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
	while (w->next_source_file < m->n_source_files) {
		const struct model_source_file *f = &m->source_files[w->next_source_file];
		if (f->run != run || f->before_row > row)
			return;
		define_file(w, f->number, f->path);
		w->next_source_file++;
	}
}

/* Defines, R's way, each file these frames refer to that has no number yet. */
static void define_needed_files(struct writer *w, size_t n_frames)
{
	for (size_t k = 0; k < n_frames; k++) {
		const struct model_frame *fr = &w->frames[k];
		if (fr->line <= 0 || fr->function == MODEL_NONE)
			continue;
		uint32_t file = w->m->functions[fr->function].file_name;
		if (!number_of(w, file))
			define_file(w, w->max_number + 1, file);
	}
}

static int build_name(struct writer *w, const struct model_frame *fr)
{
	struct model_name name;
	model_frame_name(w->m, fr, &name);
	if (memchr(name.bytes, '\0', name.len)) {
		diag_error(w->out->name, 0, "function name with a NUL byte: Rprof cannot hold it");
		return -1;
	}
	append(w, name.bytes, name.len);
	return 0;
}

static int build_frames(struct writer *w, size_t n_frames)
{
	const struct model *m = w->m;
	for (size_t k = 0; k < n_frames; k++) {
		const struct model_frame *fr = &w->frames[k];
		const struct model_function *f =
			fr->function == MODEL_NONE ? NULL : &m->functions[fr->function];
		if (f && f->truncated) {
			if (build_name(w, fr) < 0)
				return -1;
			continue;
		}
		if (f && fr->line > 0) {
			append_u64(w, number_of(w, f->file_name));
			append(w, "#", 1);
			append_u64(w, (uint64_t)fr->line);
			append(w, " ", 1);
		}
		append(w, "\"", 1);
		if (build_name(w, fr) < 0)
			return -1;
		append(w, "\" ", 2);
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
	if (run->memory_profiling)
		output_str(w->out, RPROF_MEMORY);
	if (run->gc_profiling)
		output_str(w->out, RPROF_GC);
	if (run->line_profiling)
		output_str(w->out, RPROF_LINE);
	output_str(w->out, RPROF_INTERVAL);
	output_u64(w->out, run->interval_us);
	output_byte(w->out, '\n');
}

static int row_ticks(struct writer *w, const struct model_row *row, uint64_t *ticks)
{
	size_t i = row->index;
	int64_t v = row->values[w->ticks.type];
	if (v < 0) {
		diag_error(w->out->name, 0, "sample %zu has a negative value; Rprof cannot hold it", i);
		return -1;
	}
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
	define_needed_files(w, n_frames);
	w->len = 0;
	if (run->memory_profiling && m->has_memory)
		build_memory_prefix(w, &row->memory);
	if (build_frames(w, n_frames) < 0)
		return -1;
	append(w, "\n", 1);
	for (uint64_t t = 0; t < ticks && !w->out->failed; t++)
		output_write(w->out, w->line, w->len);
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

/* --sample-type by name or index, else a samples/count type, else a time type. */
static int pick_type(const struct model *m, const char *wanted, size_t *type)
{
	if (wanted) {
		uint32_t t = model_sample_type(m, wanted);
		*type = t;
		return t == HASHIDX_NONE ? -1 : 0;
	}
	for (size_t i = 0; i < m->n_sample_types; i++)
		if (strcmp(model_cstr(m, m->sample_types[i].type), "samples") == 0 && is_count(m, i))
			return *type = i, 0;
	for (size_t i = 0; i < m->n_sample_types; i++)
		if (unit_ns(m, m->sample_types[i].unit))
			return *type = i, 0;
	return -1;
}

static int choose_ticks(const struct model *m, const struct write_options *opts,
			const char *out_name, struct ticks *t)
{
	if (pick_type(m, opts->sample_type, &t->type) < 0) {
		diag_error(out_name, 0, "%s%s%s; Rprof needs ticks from a count or time sample type: "
					"choose one with --sample-type",
			   opts->sample_type ? "no sample type '" : "no count or time sample type",
			   opts->sample_type ? opts->sample_type : "", opts->sample_type ? "'" : "");
		return -1;
	}
	t->period_ns = period_ns(m);
	t->unit_ns = is_count(m, t->type) ? 0 : unit_ns(m, m->sample_types[t->type].unit);
	if (!is_count(m, t->type) && (!t->unit_ns || !t->period_ns)) {
		diag_error(out_name, 0, "sample type '%s' is neither a count nor a time with a "
					"sampling period; choose another with --sample-type",
			   model_cstr(m, m->sample_types[t->type].type));
		return -1;
	}
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
	*run = (struct model_run){ 0, interval_us, 0, 0, 0 };
	for (size_t i = 0; i < m->n_locations && !run->line_profiling; i++)
		run->line_profiling = m->locations[i].line > 0;
	return 0;
}

/* Counted before anything is written. */
static int ticks_in_bounds(struct writer *w)
{
	uint64_t total = 0;
	int rc = 0;
	struct row_cursor rows;
	rows_begin(w->m, &rows);
	for (const struct model_row *row; rc == 0 && (row = rows_next(&rows));) {
		uint64_t ticks;
		if ((rc = row_ticks(w, row, &ticks)) < 0)
			break;
		total += ticks;
		if (total > MAX_TICKS) {
			diag_error(w->out->name, 0, "more than %d samples to write, one line each; "
						    "choose another --sample-type, or another format",
				   MAX_TICKS);
			rc = -1;
		}
	}
	rows_end(&rows);
	return rc;
}

int rprof_write(const struct model *m, struct output *out, const struct write_options *opts)
{
	struct writer w;
	memset(&w, 0, sizeof w);
	w.m = m;
	w.out = out;
	if (choose_ticks(m, opts, out->name, &w.ticks) < 0 || ticks_in_bounds(&w) < 0)
		return -1;
	int rc = 0;
	struct row_cursor rows;
	rows_begin(m, &rows);
	if (m->n_runs == 0) {
		struct model_run run;
		rc = synthesize_run(m, &w.ticks, out->name, &run);
		if (rc == 0)
			rc = write_run(&w, 0, &run, m->n_rows, &rows);
	}
	for (uint32_t r = 0; r < m->n_runs && rc == 0; r++)
		rc = write_run(&w, r, &m->runs[r],
			       r + 1 < m->n_runs ? m->runs[r + 1].first_row : m->n_rows, &rows);
	rows_end(&rows);
	free(w.frames);
	free(w.defined);
	hashidx_free(&w.defined_index);
	free(w.line);
	return rc;
}
