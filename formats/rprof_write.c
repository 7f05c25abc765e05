/*
 * Rprof writer: writes each run as R would have. #File lines the model
 * kept are written back between the same two samples, with their own
 * numbers; a file that a sample needs and no kept line defines gets the
 * next number, defined right before that sample, as R does. Each row is
 * built once and written as many times as it has ticks.
 */
#include <string.h>

#include "../io/diag.h"
#include "../model/alloc.h"
#include "rprof.h"

struct numbered_path {
	uint32_t path;
	uint64_t number;
};

struct writer {
	const struct model *m;
	struct output *out;
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

static const struct model_function *frame_function(const struct model *m, uint32_t stack,
						   int64_t *line)
{
	const struct model_location *l = &m->locations[m->stacks[stack].location];
	*line = l->line;
	return &m->functions[l->function];
}

/* Defines, R's way, each file this stack refers to that has no number yet. */
static void define_needed_files(struct writer *w, uint32_t stack)
{
	for (; stack != MODEL_EMPTY_STACK; stack = w->m->stacks[stack].caller) {
		int64_t line;
		const struct model_function *f = frame_function(w->m, stack, &line);
		if (line > 0 && !number_of(w, f->file_name))
			define_file(w, w->max_number + 1, f->file_name);
	}
}

static int build_frames(struct writer *w, uint32_t stack)
{
	const struct model *m = w->m;
	for (; stack != MODEL_EMPTY_STACK; stack = m->stacks[stack].caller) {
		int64_t line;
		const struct model_function *f = frame_function(m, stack, &line);
		const struct strtab_entry *name = strtab_get(&m->strings, f->name);
		if (memchr(name->bytes, '\0', name->len)) {
			diag_error(w->out->name, 0, "function name with a NUL byte: Rprof cannot hold it");
			return -1;
		}
		if (f->truncated) {
			append(w, name->bytes, name->len);
			continue;
		}
		if (line > 0) {
			append_u64(w, number_of(w, f->file_name));
			append(w, "#", 1);
			append_u64(w, (uint64_t)line);
			append(w, " ", 1);
		}
		append(w, "\"", 1);
		append(w, name->bytes, name->len);
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

static int write_row(struct writer *w, const struct model_run *run, size_t i)
{
	const struct model *m = w->m;
	const struct model_row *row = &m->rows[i];
	define_needed_files(w, row->stack);
	w->len = 0;
	if (run->memory_profiling && m->has_memory)
		build_memory_prefix(w, &m->memory[i]);
	if (build_frames(w, row->stack) < 0)
		return -1;
	append(w, "\n", 1);
	/* A tick is one sample of the samples/count type. */
	uint64_t ticks = row->repeat * (uint64_t)m->values[i * m->n_sample_types];
	for (uint64_t t = 0; t < ticks && !w->out->failed; t++)
		output_write(w->out, w->line, w->len);
	return 0;
}

static int write_run(struct writer *w, uint32_t r)
{
	const struct model *m = w->m;
	const struct model_run *run = &m->runs[r];
	size_t end = r + 1 < m->n_runs ? m->runs[r + 1].first_row : m->n_rows;
	write_header(w, run);
	w->n_defined = 0;
	w->max_number = 0;
	hashidx_free(&w->defined_index);
	for (size_t i = run->first_row; i < end; i++) {
		write_kept_files(w, r, i);
		if (write_row(w, run, i) < 0)
			return -1;
	}
	write_kept_files(w, r, end);
	return 0;
}

int rprof_write(const struct model *m, struct output *out)
{
	if (m->n_runs == 0) {
		diag_error(out->name, 0, "the profile has no sampling interval for an Rprof header");
		return -1;
	}
	struct writer w;
	memset(&w, 0, sizeof w);
	w.m = m;
	w.out = out;
	int rc = 0;
	for (uint32_t r = 0; r < m->n_runs && rc == 0; r++)
		rc = write_run(&w, r);
	free(w.defined);
	hashidx_free(&w.defined_index);
	free(w.line);
	return rc;
}
