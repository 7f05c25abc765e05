/*
 * Rprof facts carried in pprof. pprof has no runs, no #File numbering, no
 * memory snapshots and no truncated frames, so the writer puts them in
 *  - a comment per run:   "prof:rprof:run FIRST_SAMPLE HEADER-LINE",
 *  - a comment per #File: "prof:rprof:file RUN BEFORE_SAMPLE N PATH",
 *  - numeric labels rprof:small_v, rprof:big_v, rprof:nodes, rprof:dup_count,
 *  - the system name "prof:rprof:truncated" of a truncated frame,
 * one pprof sample per model row. Reading such a file back, this turns the
 * plain pprof model into the Rprof model it came from, so that Rprof ->
 * pprof -> Rprof gives back the same bytes. A profile whose annotations do
 * not fit (edited or merged since) stays a plain pprof profile.
 */
#include <stdlib.h>
#include <string.h>

#include "../io/diag.h"
#include "../model/alloc.h"
#include "pprof.h"
#include "rprof.h"

const char *const pprof_rprof_memory_keys[4] = { "rprof:small_v", "rprof:big_v", "rprof:nodes",
						  "rprof:dup_count" };
const char *const pprof_rprof_memory_units[4] = { "words", "words", "bytes", "count" };

struct annotations {
	struct model_run *runs;
	size_t n_runs, cap_runs;
	struct model_source_file *files;
	size_t n_files, cap_files;
};

static int starts(const struct strtab_entry *e, const char *prefix)
{
	size_t n = strlen(prefix);
	return e->len >= n && memcmp(e->bytes, prefix, n) == 0;
}

/* Reads "N " at *p; 0 on success. */
static int number(const char **p, const char *end, uint64_t *v)
{
	char *stop;
	if (*p >= end || **p < '0' || **p > '9')
		return -1;
	*v = strtoull(*p, &stop, 10);
	if (stop >= end || *stop != ' ')
		return -1;
	*p = stop + 1;
	return 0;
}

static int parse_run(const struct strtab_entry *e, struct model_run *run)
{
	const char *p = e->bytes + strlen(PPROF_RPROF_RUN), *end = e->bytes + e->len;
	uint64_t first;
	int memory, gc, line;
	if (number(&p, end, &first) < 0 || first > UINT32_MAX)
		return -1;
	p += rprof_header_flags(p, (size_t)(end - p), &memory, &gc, &line);
	size_t key = strlen(RPROF_INTERVAL);
	if ((size_t)(end - p) <= key || memcmp(p, RPROF_INTERVAL, key) != 0)
		return -1;
	*run = (struct model_run){ (uint32_t)first, strtoull(p + key, NULL, 10), (uint8_t)memory,
				   (uint8_t)gc, (uint8_t)line };
	return 0;
}

static int parse_file(struct model *m, const struct strtab_entry *e, struct model_source_file *f)
{
	const char *p = e->bytes + strlen(PPROF_RPROF_FILE), *end = e->bytes + e->len;
	uint64_t run, before;
	if (number(&p, end, &run) < 0 || number(&p, end, &before) < 0 ||
	    number(&p, end, &f->number) < 0 || run > UINT32_MAX || before > UINT32_MAX)
		return -1;
	f->run = (uint32_t)run;
	f->before_row = (uint32_t)before;
	f->path = model_str(m, p, (size_t)(end - p));
	return 0;
}

/* Collects the run and #File comments; -1 when one is malformed. */
static int collect(struct model *m, struct annotations *a)
{
	for (size_t i = 0; i < m->n_meta; i++) {
		if (!model_str_is(m, m->meta[i].key, "comment"))
			continue;
		const struct strtab_entry e = *strtab_get(&m->strings, m->meta[i].value);
		if (starts(&e, PPROF_RPROF_RUN)) {
			grow((void **)&a->runs, &a->cap_runs, a->n_runs + 1, sizeof *a->runs);
			if (parse_run(&e, &a->runs[a->n_runs++]) < 0)
				return -1;
		} else if (starts(&e, PPROF_RPROF_FILE)) {
			grow((void **)&a->files, &a->cap_files, a->n_files + 1, sizeof *a->files);
			if (parse_file(m, &e, &a->files[a->n_files++]) < 0)
				return -1;
		}
	}
	return 0;
}

static int memory_key(const struct model *m, uint32_t key)
{
	for (int k = 0; k < 4; k++)
		if (model_str_is(m, key, pprof_rprof_memory_keys[k]))
			return k;
	return -1;
}

/* Do the annotations describe this profile, as the writer made it? */
static int consistent(const struct model *m, const struct annotations *a)
{
	size_t types = m->n_sample_types;
	if (a->n_runs == 0 || m->n_mappings || (types != 2 && types != 3) ||
	    !model_str_is(m, m->sample_types[0].type, "samples") || !model_str_is(m, m->sample_types[1].type, "cpu"))
		return 0;
	for (size_t r = 0; r < a->n_runs; r++)
		if ((r == 0 && a->runs[0].first_row != 0) || a->runs[r].first_row > m->n_rows ||
		    (r > 0 && a->runs[r].first_row < a->runs[r - 1].first_row))
			return 0;
	for (size_t f = 0; f < a->n_files; f++) {
		const struct model_source_file *sf = &a->files[f];
		size_t end = sf->run + 1 < a->n_runs ? a->runs[sf->run + 1].first_row : m->n_rows;
		if (sf->run >= a->n_runs || sf->before_row < a->runs[sf->run].first_row ||
		    sf->before_row > end || (f > 0 && sf->run < a->files[f - 1].run))
			return 0;
	}
	struct row_cursor rows;
	rows_begin(m, &rows);
	const struct model_row *row;
	while ((row = rows_next(&rows)) && row->values[0] >= 1)
		;
	rows_end(&rows);
	if (row)
		return 0;
	for (size_t i = 0; i < m->n_labels; i++)
		if (memory_key(m, m->labels[i].key) < 0)
			return 0;
	return 1;
}

static void row_memory(const struct model *m, const struct model_row *row, struct model_memory *mem)
{
	uint64_t *fields[4] = { &mem->small_v, &mem->big_v, &mem->nodes, &mem->dup_count };
	const struct model_label_set *set = &m->label_sets[row->labels];
	memset(mem, 0, sizeof *mem);
	for (uint32_t k = 0; k < set->count; k++) {
		const struct model_label *l = &m->labels[set->first + k];
		*fields[memory_key(m, l->key)] = (uint64_t)l->num;
	}
}

/* Builds the Rprof model in `to`, which takes over the strings of `from`. */
static void rebuild(struct model *from, struct model *to, const struct annotations *a)
{
	uint32_t *functions = xmalloc((from->n_functions + 1) * sizeof *functions);
	uint32_t *locations = xmalloc((from->n_locations + 1) * sizeof *locations);
	uint32_t *stacks = xmalloc(from->n_stacks * sizeof *stacks);
	for (size_t i = 0; i < from->n_functions; i++) {
		struct model_function f = from->functions[i];
		f.truncated = model_str_is(from, f.system_name, PPROF_RPROF_TRUNCATED);
		f.system_name = f.name;
		f.id = 0;
		functions[i] = model_function(to, &f);
	}
	for (size_t i = 0; i < from->n_locations; i++)
		locations[i] = model_location(to, functions[from->locations[i].function],
					      from->locations[i].line);
	stacks[0] = MODEL_EMPTY_STACK;
	for (size_t i = 1; i < from->n_stacks; i++)
		stacks[i] = model_stack(to, locations[from->stacks[i].location],
					stacks[from->stacks[i].caller]);
	struct run_replay replay = { a->runs, a->n_runs, a->files, a->n_files, NULL, 0, 0 };
	const int64_t one_tick = 1;
	struct row_cursor rows;
	rows_begin(from, &rows);
	for (const struct model_row *row; (row = rows_next(&rows));) {
		model_replay_runs(to, &replay, row->index);
		struct model_memory mem;
		row_memory(from, row, &mem);
		/* One pprof sample stood for a row of `count` identical ticks. */
		model_add_samples(to, stacks[row->stack], &one_tick,
				  to->runs[to->n_runs - 1].memory_profiling ? &mem : NULL, 0,
				  (uint64_t)row->values[0]);
	}
	rows_end(&rows);
	model_replay_runs(to, &replay, SIZE_MAX);
	free(functions);
	free(locations);
	free(stacks);
}

int pprof_rprof_restore(struct model *m, const char *source)
{
	struct annotations a;
	memset(&a, 0, sizeof a);
	int restored = 0;
	if (collect(m, &a) < 0 || (a.n_runs && !consistent(m, &a))) {
		diag_warn(source, 0, "its Rprof annotations do not fit the profile (edited since?); "
				     "read as plain pprof");
	} else if (a.n_runs) {
		struct model rprof;
		model_init(&rprof);
		strtab_free(&rprof.strings);
		rprof.strings = m->strings;
		rprof.n_meta = 0;
		model_set_meta(&rprof, "version", "1.0");
		model_add_sample_type(&rprof, "samples", "count");
		rebuild(m, &rprof, &a);
		strtab_init(&m->strings);
		model_free(m);
		*m = rprof;
		restored = 1;
	}
	free(a.runs);
	free(a.files);
	return restored;
}
