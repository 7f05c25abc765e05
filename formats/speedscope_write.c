/*
 * speedscope writer: JSON in speedscope's file format (speedscope.c), one "sampled"
 * profile per sample type (or the one chosen with --sample-type), samples
 * in the model's order, so that an Rprof file is a timeline in speedscope's
 * time-order view. Samples labelled with two threads or more (a `thread`
 * label: JFR, Firefox, trace events, speedscope's own threads) give a
 * profile per type and thread, named "TITLE: TYPE: THREAD", as the app's
 * own importers give a profile per thread; in time, each starts at its
 * thread's first sample. A frame is a function, with its file and start line, as
 * speedscope's own pprof import makes them. An R profile opens on its CPU time. Names that are not UTF-8 get U+FFFD for
 * each bad byte, with a warning: JSON holds Unicode only. Weights of a
 * type with decimals are JSON numbers with a fraction ("1.5").
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "../base/diag.h"
#include "../base/alloc.h"
#include "../base/numtext.h"
#include "../base/spool.h"
#include "../base/varint.h"
#include "../io/json.h"
#include "../model/view.h"
#include "speedscope.h"

struct frame_key {
	uint32_t function; /* MODEL_NONE: keyed by location */
	uint32_t location;
};

/* A thread: its `thread` label (a string), else its `tid` (perf's, trace events' unnamed ones). */
struct thread {
	uint32_t str; /* 0: none */
	int has_tid;
	int64_t tid;
};

struct writer {
	const struct model *m;
	struct output *out;
	struct frame_key *frames; /* speedscope's frames, in order */
	size_t n_frames, cap_frames;
	struct hashidx frame_index;
	struct model_frame *expanded;
	size_t cap_expanded;
	int64_t *totals; /* per type and thread: [type * n_threads + thread] */
	int64_t *first_ns; /* with timed rows, per type and thread: its first sample's time; -1: none */
	uint8_t *has_rows; /* per type and thread: a sample of weight not 0 */
	/* Threads in the order they first come; one when no sample names its thread. */
	struct thread *threads;
	size_t n_threads;
	uint32_t *thread_of_set; /* by label set */
	int replaced_bytes;
};

static int frame_equals(const void *ctx, uint32_t id, const void *key)
{
	const struct frame_key *a = &((const struct writer *)ctx)->frames[id], *b = key;
	return a->function == b->function && a->location == b->location;
}

static uint32_t frame_of(struct writer *w, const struct model_frame *fr)
{
	struct frame_key key = { fr->function, fr->function == MODEL_NONE ? fr->location : 0 };
	return hashidx_intern(&w->frame_index, hash_mix(key.function, key.location), frame_equals, w,
			      &key, (void **)&w->frames, &w->n_frames, &w->cap_frames, sizeof *w->frames);
}

static void json_string(struct writer *w, const char *s, size_t len)
{
	w->replaced_bytes |= json_write_string(w->out, s, len);
}

static void write_frames(struct writer *w)
{
	const struct model *m = w->m;
	output_str(w->out, "\"shared\":{\"frames\":[");
	for (size_t i = 0; i < w->n_frames; i++) {
		const struct frame_key *k = &w->frames[i];
		struct model_frame fr = { k->function, 0, k->location };
		struct model_name name;
		model_frame_shown_name(m, &fr, &name);
		output_str(w->out, i ? ",{\"name\":" : "{\"name\":");
		json_string(w, name.bytes, name.len);
		if (k->function != MODEL_NONE && m->functions[k->function].file_name) {
			const struct strtab_entry *file = strtab_get(&m->strings, m->functions[k->function].file_name);
			output_str(w->out, ",\"file\":");
			json_string(w, file->bytes, file->len);
		}
		if (k->function != MODEL_NONE && m->functions[k->function].start_line > 0) {
			output_str(w->out, ",\"line\":");
			output_u64(w->out, (uint64_t)m->functions[k->function].start_line);
		}
		output_byte(w->out, '}');
	}
	output_str(w->out, "]}");
}

/* The frames of every stack with weight, numbered before the profiles are written. */
static void number_frames(struct writer *w)
{
	const struct model *m = w->m;
	struct row_cursor rows;
	rows_begin(m, &rows);
	for (const struct model_row *row; (row = rows_next(&rows));) {
		size_t n = model_stack_frames(m, row->stack, &w->expanded, &w->cap_expanded);
		for (size_t k = n; k-- > 0;)
			frame_of(w, &w->expanded[k]);
	}
	rows_end(&rows);
}

static const char *speedscope_unit(const char *unit)
{
	static const char *const known[] = { "nanoseconds", "microseconds", "milliseconds", "seconds", "bytes" };
	for (size_t i = 0; i < sizeof known / sizeof *known; i++)
		if (strcmp(unit, known[i]) == 0)
			return known[i];
	return "none";
}

static void write_weight(struct writer *w, int64_t v, unsigned decimals)
{
	char text[DECIMAL_TEXT_MAX];
	output_write(w->out, text, decimal_text(text, v, decimals, 1));
}

static void write_sample(struct writer *w, uint32_t stack)
{
	size_t n = model_stack_frames(w->m, stack, &w->expanded, &w->cap_expanded);
	output_byte(w->out, '[');
	for (size_t k = n; k-- > 0;) {
		output_u64(w->out, frame_of(w, &w->expanded[k]));
		if (k)
			output_byte(w->out, ',');
	}
	output_byte(w->out, ']');
}

/* A label set's thread. */
static struct thread thread_named(const struct model *m, uint32_t set)
{
	struct thread t = { 0, 0, 0 };
	const struct model_label_set *s = &m->label_sets[set];
	for (uint32_t i = 0; i < s->count; i++) {
		const struct model_label *label = &m->labels[s->first + i];
		if (model_str_is(m, label->key, "thread") && label->str)
			t.str = label->str;
		else if (model_str_is(m, label->key, "tid"))
			t = (struct thread){ t.str, 1, label->num };
	}
	return t;
}

/*
 * Each label set's thread. Only samples that name a thread by a `thread`
 * label are split (perf's tids alone are not), and two threads at least.
 */
static void find_threads(struct writer *w)
{
	const struct model *m = w->m;
	w->thread_of_set = xcalloc(m->n_label_sets, sizeof *w->thread_of_set);
	w->threads = xmalloc((m->n_label_sets + 1) * sizeof *w->threads);
	uint8_t *seen = xcalloc(m->n_label_sets, 1);
	int named = 0;
	struct row_cursor rows;
	rows_begin(m, &rows);
	for (const struct model_row *row; (row = rows_next(&rows));) {
		if (seen[row->labels])
			continue;
		seen[row->labels] = 1;
		struct thread name = thread_named(m, row->labels);
		size_t t = 0;
		while (t < w->n_threads && (w->threads[t].str != name.str || w->threads[t].has_tid != name.has_tid ||
					    w->threads[t].tid != name.tid))
			t++;
		if (t == w->n_threads)
			w->threads[w->n_threads++] = name;
		w->thread_of_set[row->labels] = (uint32_t)t;
		named |= name.str != 0;
	}
	rows_end(&rows);
	free(seen);
	if (w->n_threads < 2 || !named) {
		w->n_threads = 1;
		memset(w->thread_of_set, 0, m->n_label_sets * sizeof *w->thread_of_set);
	}
}

/*
 * Totals per type, and no negative weight in a type to write (`only`, or
 * every type when SIZE_MAX): checked before anything is written.
 */
static int sum_types(struct writer *w, struct view *v, int64_t *values, size_t only)
{
	const struct model *m = w->m;
	size_t n = (v->n_types + 1) * w->n_threads;
	w->totals = xcalloc(n, sizeof *w->totals);
	w->first_ns = xmalloc(n * sizeof *w->first_ns);
	w->has_rows = xcalloc(n, 1);
	for (size_t i = 0; i < n; i++)
		w->first_ns[i] = -1;
	view_init(v, m);
	int rc = 0;
	struct row_cursor rows;
	rows_begin(m, &rows);
	for (const struct model_row *row; rc == 0 && (row = rows_next(&rows));) {
		view_values(v, row, values);
		size_t thread = w->thread_of_set[row->labels];
		for (size_t t = 0; t < v->n_types && rc == 0; t++) {
			if (values[t] < 0 && (only == SIZE_MAX || only == t))
				rc = view_refuse_negative(m, row->index, t, values[t], "speedscope",
							  w->out->name);
			w->totals[t * w->n_threads + thread] += values[t];
			w->has_rows[t * w->n_threads + thread] |= values[t] != 0;
			if (values[t] != 0 && m->timed_rows && w->first_ns[t * w->n_threads + thread] < 0)
				w->first_ns[t * w->n_threads + thread] = row->time_ns;
		}
	}
	rows_end(&rows);
	return rc;
}

/*
 * Where a thread's profile starts: in time, its first sample's time in the
 * type's unit (so that the threads line up as they ran), else 0.
 */
static int64_t start_value(const struct writer *w, struct view *v, size_t type, size_t thread)
{
	double ns = view_ns_per_value(view_unit(v, type), view_decimals(v, type));
	int64_t first = w->first_ns[type * w->n_threads + thread];
	if (w->n_threads < 2 || ns <= 0 || first <= 0)
		return 0;
	double start = (double)first / ns;
	return start < 9.2e18 ? (int64_t)(start + 0.5) : 0;
}

/*
 * A thread's samples of one type, its stacks and weights, gathered in one
 * pass over the rows for every thread: a pass per thread would make many
 * threads cost as many passes. Memory grows with the samples written.
 */
struct gathered {
	struct spool stacks, weights; /* weights zigzagged */
};

static void gather(struct writer *w, struct view *v, size_t type, int64_t *values, struct gathered *threads)
{
	for (size_t t = 0; t < w->n_threads; t++) {
		spool_free(&threads[t].stacks);
		spool_free(&threads[t].weights);
	}
	view_init(v, w->m);
	struct row_cursor rows;
	rows_begin(w->m, &rows);
	for (const struct model_row *row; (row = rows_next(&rows));) {
		view_values(v, row, values);
		if (values[type] == 0)
			continue;
		struct gathered *g = &threads[w->thread_of_set[row->labels]];
		spool_put(&g->stacks, row->stack);
		spool_put(&g->weights, varint_zigzag(values[type]));
	}
	rows_end(&rows);
}

/* A profile's samples (pass 0) or weights (pass 1): gathered, or every row's, streamed. */
static void write_samples(struct writer *w, struct view *v, size_t type, int64_t *values, int pass,
			  struct gathered *g)
{
	if (g) {
		struct spool *s = pass ? &g->weights : &g->stacks;
		spool_rewind(s);
		for (uint64_t i = 0; i < s->n; i++) {
			if (i)
				output_byte(w->out, ',');
			if (pass)
				write_weight(w, varint_unzigzag(spool_get(s)), view_decimals(v, type));
			else
				write_sample(w, (uint32_t)spool_get(s));
		}
		return;
	}
	view_init(v, w->m);
	int first = 1;
	struct row_cursor rows;
	rows_begin(w->m, &rows);
	for (const struct model_row *row; (row = rows_next(&rows));) {
		view_values(v, row, values);
		if (values[type] == 0)
			continue;
		if (!first)
			output_byte(w->out, ',');
		first = 0;
		if (pass)
			write_weight(w, values[type], view_decimals(v, type));
		else
			write_sample(w, row->stack);
	}
	rows_end(&rows);
}

/* One sampled profile: a thread's samples (`g`), or all, then their weights, in the model's order. */
static void write_profile(struct writer *w, struct view *v, size_t type, size_t thread, const char *title,
			  int64_t *values, struct gathered *g)
{
	const struct model *m = w->m;
	output_str(w->out, "{\"type\":\"sampled\",\"name\":");
	char name[768];
	int len = snprintf(name, sizeof name, "%s: %s", title, view_type(v, type));
	const struct thread *t = &w->threads[thread];
	if (w->n_threads > 1 && len >= 0 && (size_t)len < sizeof name && t->str)
		len += snprintf(name + len, sizeof name - (size_t)len, ": %s", model_cstr(m, t->str));
	else if (w->n_threads > 1 && len >= 0 && (size_t)len < sizeof name)
		len += snprintf(name + len, sizeof name - (size_t)len, t->has_tid ? ": tid %" PRId64 : ": no thread", t->tid);
	json_string(w, name, len >= 0 && (size_t)len < sizeof name ? (size_t)len : sizeof name - 1);
	output_str(w->out, ",\"unit\":\"");
	output_str(w->out, speedscope_unit(view_unit(v, type)));
	int64_t start = start_value(w, v, type, thread), total = w->totals[type * w->n_threads + thread];
	output_str(w->out, "\",\"startValue\":");
	write_weight(w, start, view_decimals(v, type));
	output_str(w->out, ",\"endValue\":");
	write_weight(w, total > INT64_MAX - start ? INT64_MAX : start + total, view_decimals(v, type));
	for (int pass = 0; pass < 2; pass++) {
		output_str(w->out, pass ? "],\"weights\":[" : ",\"samples\":[");
		write_samples(w, v, type, values, pass, g);
	}
	output_str(w->out, "]}");
}

static const char *title_of(const struct model *m)
{
	uint32_t name = model_get_meta(m, "tree_name");
	if (name == HASHIDX_NONE)
		name = model_get_meta(m, "source");
	return name == HASHIDX_NONE ? "profile" : model_cstr(m, name);
}

int speedscope_write(const struct model *m, struct output *out, const struct write_options *opts)
{
	struct writer w;
	struct view v;
	size_t chosen = 0, active = 0;
	memset(&w, 0, sizeof w);
	w.m = m;
	w.out = out;
	view_init(&v, m);
	/* Opens on the profile's timeline: for ticks, their time, so it reads in seconds. */
	if (opts->sample_type && view_pick(&v, opts->sample_type, VIEW_TIMELINE, out->name, &chosen) < 0)
		return -1;
	if (!opts->sample_type && v.n_types && view_pick(&v, NULL, VIEW_TIMELINE, out->name, &active) < 0)
		return -1;
	int64_t *values = xmalloc((v.n_types + 1) * sizeof *values);
	find_threads(&w);
	int rc = sum_types(&w, &v, values, opts->sample_type ? chosen : SIZE_MAX);
	if (rc == 0) {
		const char *title = title_of(m);
		size_t written = 0, opens_on = 0;
		struct gathered *threads = w.n_threads > 1 ? xcalloc(w.n_threads, sizeof *threads) : NULL;
		number_frames(&w);
		output_str(out, "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",");
		write_frames(&w);
		output_str(out, ",\"profiles\":[");
		for (size_t t = 0; t < v.n_types; t++) {
			if (opts->sample_type && t != chosen)
				continue;
			if (t == active)
				opens_on = written;
			if (threads)
				gather(&w, &v, t, values, threads);
			for (size_t thread = 0; thread < w.n_threads; thread++) {
				/* A thread without samples of the type has no profile of it; one profile is always written. */
				if (w.n_threads > 1 && !w.has_rows[t * w.n_threads + thread])
					continue;
				if (written++)
					output_byte(out, ',');
				write_profile(&w, &v, t, thread, title, values, threads ? &threads[thread] : NULL);
			}
		}
		for (size_t i = 0; threads && i < w.n_threads; i++) {
			spool_free(&threads[i].stacks);
			spool_free(&threads[i].weights);
		}
		free(threads);
		output_str(out, "],\"name\":");
		json_string(&w, title, strlen(title));
		output_str(out, ",\"activeProfileIndex\":");
		output_u64(out, opts->sample_type ? 0 : opens_on);
		output_str(out, ",\"exporter\":\"prof " PROF_VERSION "\"}\n");
	}
	if (w.replaced_bytes)
		diag_warn(out->name, 0, "names that are not UTF-8: bad bytes written as U+FFFD");
	free(values);
	free(w.totals);
	free(w.first_ns);
	free(w.has_rows);
	free(w.threads);
	free(w.thread_of_set);
	free(w.frames);
	hashidx_free(&w.frame_index);
	free(w.expanded);
	return rc;
}
