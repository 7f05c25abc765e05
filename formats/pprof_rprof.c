/*
 * Rprof facts carried in pprof. pprof has no runs, no #File numbering, no
 * memory snapshots and no truncated frames, so the writer puts them in
 *  - a comment per run:   "prof:rprof:run FIRST_SAMPLE [WORDS ]HEADER-LINE",
 *    the words saying how names and lines were written ("unquoted ",
 *    "crlf ", "no-final-newline "),
 *  - a comment per #File: "prof:rprof:file RUN BEFORE_SAMPLE N PATH",
 *  - numeric labels rprof:small_v, rprof:big_v, rprof:nodes, rprof:dup_count,
 *  - labels rprof:call_file and rprof:call_line: the call site of a
 *    sample's outermost frame (a reference after it), which is no frame,
 *  - the system name "prof:rprof:truncated RAW" of a truncated frame,
 * one pprof sample per model row (docs/formats/rprof.md). Reading, the
 * pprof reader asks here first, from the decoded file, whether it is such
 * a profile; if so it builds the Rprof model it came from directly, so
 * that Rprof -> pprof -> Rprof gives back the same bytes. A profile whose
 * annotations do not fit (edited or merged since) stays a plain pprof
 * profile, with a warning.
 */
#include <stdlib.h>
#include <string.h>

#include "../base/diag.h"
#include "../base/alloc.h"
#include "../base/ascii.h"
#include "pprof.h"
#include "rprof.h"

const char *const pprof_rprof_memory_keys[4] = { "rprof:small_v", "rprof:big_v", "rprof:nodes",
						  "rprof:dup_count" };
const char *const pprof_rprof_memory_units[4] = { "words", "words", "bytes", "count" };

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

/* Takes `word` at *p if it is there. */
static int word(const char **p, const char *end, const char *word)
{
	size_t n = strlen(word);
	if ((size_t)(end - *p) < n || memcmp(*p, word, n) != 0)
		return 0;
	*p += n;
	return 1;
}

static int parse_run(const struct strtab_entry *e, struct model_run *run, struct pprof_rprof *a)
{
	const char *p = e->bytes + strlen(PPROF_RPROF_RUN), *end = e->bytes + e->len;
	uint64_t first;
	int memory, gc, line;
	if (number(&p, end, &first) < 0 || first > UINT32_MAX)
		return -1;
	uint8_t unquoted = (uint8_t)word(&p, end, PPROF_RPROF_UNQUOTED);
	a->crlf |= word(&p, end, PPROF_RPROF_CRLF);
	a->no_final_newline |= word(&p, end, PPROF_RPROF_NO_FINAL_NEWLINE);
	p += rprof_header_flags(p, (size_t)(end - p), &memory, &gc, &line);
	size_t key = strlen(RPROF_INTERVAL);
	if ((size_t)(end - p) <= key || memcmp(p, RPROF_INTERVAL, key) != 0)
		return -1;
	*run = (struct model_run){ (uint32_t)first, strtoull(p + key, NULL, 10), (uint8_t)memory,
				   (uint8_t)gc, (uint8_t)line, unquoted };
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

/* A string of the file by its index, or NULL when the index is out of range. */
static const struct strtab_entry *raw_str(const struct model *m, const struct pprof_raw *raw,
					  int64_t index)
{
	if (index < 0 || (uint64_t)index >= raw->n_strings)
		return NULL;
	return strtab_get(&m->strings, raw->strings[index]);
}

/* Collects the run and #File comments; -1 when one is malformed. */
static int collect(struct model *m, const struct pprof_raw *raw, struct pprof_rprof *a)
{
	for (size_t i = 0; i < raw->n_comments; i++) {
		const struct strtab_entry *e = raw_str(m, raw, (int64_t)raw->comments[i]);
		if (!e)
			continue;
		const struct strtab_entry copy = *e;
		if (starts_with(copy.bytes, copy.len, PPROF_RPROF_RUN)) {
			grow((void **)&a->runs, &a->cap_runs, a->n_runs + 1, sizeof *a->runs);
			if (parse_run(&copy, &a->runs[a->n_runs++], a) < 0)
				return -1;
		} else if (starts_with(copy.bytes, copy.len, PPROF_RPROF_FILE)) {
			grow((void **)&a->files, &a->cap_files, a->n_files + 1, sizeof *a->files);
			if (parse_file(m, &copy, &a->files[a->n_files++]) < 0)
				return -1;
		}
	}
	return 0;
}

static int str_is(const struct strtab_entry *e, const char *s)
{
	return e && e->len == strlen(s) && memcmp(e->bytes, s, e->len) == 0;
}

enum { CALL_FILE = 4, CALL_LINE = 5, CALL_RAW = 6 };

/* Which of the labels the writer puts on a sample this is (0-3: memory), or -1. */
static int label_kind(const struct model *m, const struct pprof_raw *raw, int64_t key)
{
	const struct strtab_entry *e = raw_str(m, raw, key);
	for (int k = 0; k < 4; k++)
		if (str_is(e, pprof_rprof_memory_keys[k]))
			return k;
	return str_is(e, PPROF_RPROF_CALL_FILE) ? CALL_FILE
	       : str_is(e, PPROF_RPROF_CALL_LINE) ? CALL_LINE
	       : str_is(e, PPROF_RPROF_CALL_RAW) ? CALL_RAW : -1;
}

static int type_is(const struct model *m, const struct pprof_raw *raw, size_t i, const char *name)
{
	return str_is(raw_str(m, raw, raw->sample_types[i].type), name);
}

static int places_fit(const struct pprof_rprof *a, size_t n_rows)
{
	for (size_t r = 0; r < a->n_runs; r++)
		if ((r == 0 && a->runs[0].first_row != 0) || a->runs[r].first_row > n_rows ||
		    (r > 0 && a->runs[r].first_row < a->runs[r - 1].first_row))
			return 0;
	for (size_t f = 0; f < a->n_files; f++) {
		const struct model_source_file *sf = &a->files[f];
		if (sf->run >= a->n_runs)
			return 0;
		size_t end = sf->run + 1 < a->n_runs ? a->runs[sf->run + 1].first_row : n_rows;
		if (sf->before_row < a->runs[sf->run].first_row || sf->before_row > end ||
		    (f > 0 && sf->run < a->files[f - 1].run))
			return 0;
	}
	return 1;
}

/* Every sample a row of at least one tick, labelled only as the writer labels them. */
static int samples_fit(const struct model *m, const struct pprof_raw *raw)
{
	for (size_t i = 0; i < raw->n_samples; i++) {
		const struct pprof_raw_sample *s = &raw->samples[i];
		if (s->n_values != raw->n_sample_types || (int64_t)raw->values[s->first_value] < 1)
			return 0;
		for (size_t k = 0; k < s->n_labels; k++) {
			const perftools_profiles_Label *l = &raw->labels[s->first_label + k];
			int kind = label_kind(m, raw, l->key);
			if (kind < 0 || ((kind == CALL_FILE || kind == CALL_RAW) && !raw_str(m, raw, l->str)))
				return 0;
		}
	}
	return 1;
}

/* Do the annotations describe this profile, as the writer made it? */
static int consistent(const struct model *m, const struct pprof_raw *raw,
		      const struct pprof_rprof *a)
{
	size_t types = raw->n_sample_types;
	return a->n_runs && !raw->n_mappings && (types == 2 || types == 3) &&
	       type_is(m, raw, 0, "samples") && type_is(m, raw, 1, "cpu") &&
	       places_fit(a, raw->n_samples) && samples_fit(m, raw);
}

/* A sample's memory columns and call site, from its labels. */
static void sample_labels(const struct model *m, const struct pprof_raw *raw,
			  const struct pprof_raw_sample *s, struct model_memory *mem,
			  struct model_call_site *site)
{
	uint64_t *fields[4] = { &mem->small_v, &mem->big_v, &mem->nodes, &mem->dup_count };
	memset(mem, 0, sizeof *mem);
	*site = (struct model_call_site){ 0, 0, 0 };
	for (size_t k = 0; k < s->n_labels; k++) {
		const perftools_profiles_Label *l = &raw->labels[s->first_label + k];
		int kind = label_kind(m, raw, l->key);
		if (kind == CALL_FILE)
			site->file = raw->strings[l->str];
		else if (kind == CALL_RAW)
			site->raw = raw->strings[l->str];
		else if (kind == CALL_LINE)
			site->line = l->num;
		else
			*fields[kind] = (uint64_t)l->num;
	}
}

/* The stack with its outermost frame given a call site (or the site alone). */
static uint32_t with_call_site(struct model *m, struct pprof_rprof *a, uint32_t stack,
			       struct model_call_site site)
{
	size_t n = 0;
	for (uint32_t s = stack; s != MODEL_EMPTY_STACK; s = m->stacks[s].caller) {
		grow((void **)&a->frames, &a->cap_frames, n + 1, sizeof *a->frames);
		a->frames[n++] = m->locations[m->stacks[s].location];
	}
	if (n == 0)
		return model_stack(m, model_location_called(m, MODEL_NONE, 0, site), MODEL_EMPTY_STACK);
	/* Bytes alone: a "<no location>" frame keeps the file and line it holds. */
	if (!site.line) {
		site.file = a->frames[n - 1].call_site.file;
		site.line = a->frames[n - 1].call_site.line;
	}
	stack = model_stack(m, model_location_called(m, a->frames[n - 1].function,
						     a->frames[n - 1].line, site), MODEL_EMPTY_STACK);
	for (size_t k = n - 1; k-- > 0;)
		stack = model_stack(m, model_location(m, a->frames[k].function, a->frames[k].line), stack);
	return stack;
}

int pprof_rprof_detect(struct model *m, const struct pprof_raw *raw, const char *source,
		       struct pprof_rprof *a)
{
	memset(a, 0, sizeof *a);
	if (collect(m, raw, a) < 0 || (a->n_runs && !consistent(m, raw, a))) {
		diag_warn(source, 0, "its Rprof annotations do not fit the profile (edited since?); "
				     "read as plain pprof");
		pprof_rprof_free(a);
		return 0;
	}
	a->replay = (struct run_replay){ a->runs, a->n_runs, a->files, a->n_files, NULL, 0, 0 };
	return a->n_runs > 0;
}

void pprof_rprof_function(struct model *m, struct model_function *f)
{
	/* A copy: interning may move the table's entries (not the bytes). */
	const struct strtab_entry system = *strtab_get(&m->strings, f->system_name);
	size_t marker = strlen(PPROF_RPROF_TRUNCATED);
	f->truncated = system.len >= marker && memcmp(system.bytes, PPROF_RPROF_TRUNCATED, marker) == 0;
	f->native_id = 0;
	if (!f->truncated)
		f->system_name = f->name;
	/* The raw bytes follow the marker; files before that held them as the name. */
	else if (system.len > marker)
		f->system_name = model_str(m, system.bytes + marker + 1, system.len - marker - 1);
	else
		f->system_name = f->name;
}

void pprof_rprof_add_sample(struct model *m, struct pprof_rprof *a, const struct pprof_raw *raw,
			    size_t index, uint32_t stack)
{
	const struct pprof_raw_sample *s = &raw->samples[index];
	struct model_memory mem;
	struct model_call_site site;
	const int64_t one_tick = 1;
	model_replay_runs(m, &a->replay, index);
	sample_labels(m, raw, s, &mem, &site);
	if (site.line || site.raw)
		stack = with_call_site(m, a, stack, site);
	/* One pprof sample stood for a row of `count` identical ticks. */
	model_add_samples(m, stack, &one_tick,
			  m->sessions.runs[m->sessions.n_runs - 1].memory_profiling ? &mem : NULL, 0,
			  raw->values[s->first_value], 0);
}

void pprof_rprof_finish(struct model *m, struct pprof_rprof *a)
{
	model_replay_runs(m, &a->replay, SIZE_MAX);
	m->sessions.crlf = a->crlf;
	m->sessions.no_final_newline = a->no_final_newline;
}

void pprof_rprof_free(struct pprof_rprof *a)
{
	free(a->runs);
	free(a->files);
	free(a->frames);
	memset(a, 0, sizeof *a);
}
