/*
 * Chrome's trace event writer (-t trace, docs/formats/trace.md): any
 * profile as a timeline for Perfetto, chrome://tracing, DevTools and
 * speedscope. Each thread (by its pid, tid and thread labels) is a pid and
 * tid of its own, named by `M` events; each run of a frame along a
 * thread's samples is one `X` event, ts and dur in microseconds. A sample
 * lasts its weight in the chosen type (--sample-type; default: the
 * profile's timeline, else as speedscope's output), a time in its unit,
 * anything else a microsecond a unit, so that a viewer's weights are the
 * folded stacks'. Samples with times start at their time, or where their
 * thread's sample before ended if that is later; samples without are laid
 * end to end. A frame's event ends at a gap, so that no event holds time
 * no sample had.
 *
 * Events are written as their runs end; frames ending together are
 * written outermost first, since a viewer orders events of one start and
 * length by their place in the file (speedscope's importer does).
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "../base/checked.h"
#include "../base/alloc.h"
#include "../base/diag.h"
#include "../base/numtext.h"
#include "../model/strtab.h"
#include "../model/view.h"
#include "trace.h"

/* A thread of the output: what its labels say, and its timeline. */
struct thread {
	int64_t pid, tid;
	uint8_t has_pid, has_tid;
	uint32_t pid_text, tid_text; /* a pid or tid that is a string ("stream 7"); 0: none */
	uint32_t name, process; /* label strings; 0: none */
	/* The open frames, outermost first: name (in `names`) and start. */
	uint32_t *open;
	int64_t *since;
	size_t depth, cap_open, cap_since;
	int64_t end_ns; /* where its last sample ended */
	int started;
};

struct writer {
	const struct model *m;
	struct output *out;
	struct view view;
	size_t type;
	double ns_per_value;
	struct thread *threads;
	size_t n_threads, cap_threads;
	struct hashidx thread_index;
	uint32_t *thread_of_labels; /* by label set; MODEL_NONE until seen */
	uint32_t key_pid, key_tid, key_thread, key_process;
	struct strtab names;
	uint32_t *name_of_function;
	struct model_frame *frames;
	size_t cap_frames;
	uint32_t *path;
	size_t cap_path;
	int64_t *values;
	int replaced_bytes, first_event;
	uint64_t empty_stacks;
};

static int thread_equals(const void *ctx, uint32_t i, const void *key)
{
	const struct thread *a = &((const struct writer *)ctx)->threads[i], *b = key;
	return a->has_pid == b->has_pid && a->pid == b->pid && a->has_tid == b->has_tid && a->tid == b->tid &&
	       a->pid_text == b->pid_text && a->tid_text == b->tid_text && a->name == b->name;
}

/* The thread of a label set: its pid and tid labels (numbers) and its thread label (a name). */
static uint32_t thread_of(struct writer *w, uint32_t labels)
{
	if (w->thread_of_labels[labels] != MODEL_NONE)
		return w->thread_of_labels[labels];
	const struct model *m = w->m;
	struct thread t;
	memset(&t, 0, sizeof t);
	const struct model_label_set *set = &m->label_sets[labels];
	for (uint32_t i = 0; i < set->count; i++) {
		const struct model_label *l = &m->labels[set->first + i];
		if (l->key == w->key_pid && !l->str)
			t.pid = l->num, t.has_pid = 1;
		else if (l->key == w->key_pid)
			t.pid_text = l->str;
		else if (l->key == w->key_tid && !l->str)
			t.tid = l->num, t.has_tid = 1;
		else if (l->key == w->key_tid)
			t.tid_text = l->str;
		else if (l->key == w->key_thread && l->str)
			t.name = l->str;
		else if (l->key == w->key_process && l->str)
			t.process = l->str;
	}
	uint32_t process = t.process;
	uint64_t h = hash_mix(hash_mix((uint64_t)t.pid * 2 + t.has_pid, (uint64_t)t.tid * 2 + t.has_tid),
			      hash_mix(t.name, hash_mix(t.pid_text, t.tid_text)));
	uint32_t id = hashidx_intern(&w->thread_index, h, thread_equals, w, &t, (void **)&w->threads, &w->n_threads,
				     &w->cap_threads, sizeof *w->threads);
	if (process)
		w->threads[id].process = process;
	return w->thread_of_labels[labels] = id;
}

static void json_string(struct writer *w, const char *s, size_t len)
{
	w->replaced_bytes |= json_write_string(w->out, s, len);
}

/* A double in the fewest digits that read back as it (JSON.parse's reading). */
static void write_double(struct writer *w, double v)
{
	char text[40];
	if (v == (double)(int64_t)v && v < 1e15 && v > -1e15) {
		snprintf(text, sizeof text, "%.0f", v); /* not %g's 2e+04 */
		output_str(w->out, text);
		return;
	}
	/*
	 * The fewest digits by bisection: when p digits read back, so do p + 1
	 * (the nearest of p + 1 digits is no farther than p digits and a 0),
	 * and 17 always do.
	 */
	int fewest = 17;
	for (int lo = 1; lo < fewest;) {
		int mid = lo + (fewest - lo) / 2;
		snprintf(text, sizeof text, "%.*g", mid, v);
		if (strtod(text, NULL) == v)
			fewest = mid;
		else
			lo = mid + 1;
	}
	snprintf(text, sizeof text, "%.*g", fewest, v);
	output_str(w->out, text);
}

/*
 * ns / 1000 when it is v, in the fewest digits, as write_double would
 * write it but without its search. Below 10^13 microseconds a double's
 * spacing is under 0.002, so no decimal with fewer fractional digits
 * (0.001 or more away) reads back as v when this one does; and it does
 * without a check when v is the quotient of the two exact doubles, which
 * is rounded once. 0 when it does not read back as v, or past that bound.
 */
static int write_micros(struct writer *w, int64_t ns, double v)
{
	if (ns <= -10000000000000000 || ns >= 10000000000000000)
		return 0;
	uint64_t magnitude = ns < 0 ? 0 - (uint64_t)ns : (uint64_t)ns;
	char text[32];
	int len = snprintf(text, sizeof text, "%s%" PRIu64 ".%03u", ns < 0 ? "-" : "", magnitude / 1000,
			   (unsigned)(magnitude % 1000));
	while (text[len - 1] == '0')
		text[--len] = 0;
	if (text[len - 1] == '.')
		text[--len] = 0;
	if (v != (double)ns / 1000.0 && strtod(text, NULL) != v)
		return 0;
	output_str(w->out, text);
	return 1;
}

/*
 * An event's ts and dur in microseconds, as doubles, which is how viewers
 * read them: the dur is the one whose sum with the ts is the end's double
 * exactly, so that events ending together end together in a viewer too
 * (1000.1 + 0.2 is not 1000.3 in a double), and a child does not outlive
 * its parent by a rounding.
 */
static void write_span(struct writer *w, int64_t from_ns, int64_t to_ns)
{
	double ts = (double)from_ns / 1000.0, end = (double)to_ns / 1000.0, dur = end - ts;
	for (int k = 0; k < 8 && ts + dur != end; k++)
		dur = nextafter(dur, ts + dur < end ? HUGE_VAL : -HUGE_VAL);
	output_str(w->out, ",\"ts\":");
	if (!write_micros(w, from_ns, ts))
		write_double(w, ts);
	output_str(w->out, ",\"dur\":");
	int64_t span_ns;
	if (to_ns < from_ns || checked_sub_i64(to_ns, from_ns, &span_ns) || !write_micros(w, span_ns, dur))
		write_double(w, dur);
}

static void write_i64(struct writer *w, int64_t v)
{
	if (v < 0)
		output_byte(w->out, '-');
	output_u64(w->out, v < 0 ? 0 - (uint64_t)v : (uint64_t)v);
}

static void event_head(struct writer *w, const struct thread *t, const char *ph)
{
	output_str(w->out, w->first_event ? "\n{\"ph\":\"" : ",\n{\"ph\":\"");
	w->first_event = 0;
	output_str(w->out, ph);
	output_str(w->out, "\",\"pid\":");
	write_i64(w, t->pid);
	output_str(w->out, ",\"tid\":");
	write_i64(w, t->tid);
}

static void write_name(struct writer *w, const struct thread *t, const char *what, uint32_t str, const char *made)
{
	event_head(w, t, "M");
	output_str(w->out, ",\"name\":\"");
	output_str(w->out, what);
	output_str(w->out, "\",\"args\":{\"name\":");
	if (str) {
		const struct strtab_entry *e = strtab_get(&w->m->strings, str);
		json_string(w, e->bytes, e->len);
	} else {
		json_string(w, made, strlen(made));
	}
	output_str(w->out, "}}");
}

/*
 * Each thread's pid and tid: its labels' numbers; a pid that is a string
 * a number no other pid has (the same for the same string), none pid 1;
 * a tid other than a number one no labelled thread has. Then its names: a
 * process by its process label, else its pid's string, else (for a
 * profile of no pids) the profile's source; a thread by its thread label,
 * else its tid's string.
 */
static void write_threads(struct writer *w)
{
	int64_t next_tid = 1, next_pid = 2;
	for (size_t i = 0; i < w->n_threads; i++) {
		const struct thread *t = &w->threads[i];
		if (t->has_tid && t->tid >= next_tid && t->tid < INT64_MAX)
			next_tid = t->tid + 1;
		if (t->has_pid && t->pid >= next_pid && t->pid < INT64_MAX)
			next_pid = t->pid + 1;
	}
	uint32_t source = model_get_meta(w->m, "source");
	for (size_t i = 0; i < w->n_threads; i++) {
		struct thread *t = &w->threads[i];
		if (!t->has_pid && t->pid_text) {
			size_t k = 0;
			while (k < i && w->threads[k].pid_text != t->pid_text)
				k++;
			t->pid = k < i ? w->threads[k].pid : next_pid++;
			if (!t->process)
				t->process = t->pid_text;
		} else if (!t->has_pid) {
			t->pid = 1;
		}
		if (!t->has_tid)
			t->tid = next_tid++;
		if (!t->name)
			t->name = t->tid_text;
		int named_before = 0;
		for (size_t k = 0; k < i; k++)
			named_before |= w->threads[k].pid == t->pid;
		if (!named_before && (t->process || (!t->has_pid && !t->pid_text && source != HASHIDX_NONE)))
			write_name(w, t, "process_name", t->process ? t->process : source, NULL);
		char made[40];
		snprintf(made, sizeof made, "thread %" PRId64, t->tid);
		write_name(w, t, "thread_name", t->name, made);
	}
}

static uint32_t name_of(struct writer *w, const struct model_frame *fr)
{
	uint32_t *known = fr->function == MODEL_NONE ? NULL : &w->name_of_function[fr->function];
	if (known && *known != MODEL_NONE)
		return *known;
	struct model_name name;
	model_frame_shown_name(w->m, fr, &name);
	uint32_t id = strtab_intern(&w->names, name.bytes, name.len);
	if (known)
		*known = id;
	return id;
}

/* Ends the thread's open frames from `depth` on at `ns`, outermost first. */
static void close_frames(struct writer *w, struct thread *t, size_t depth, int64_t ns)
{
	for (size_t d = depth; d < t->depth; d++) {
		event_head(w, t, "X");
		write_span(w, t->since[d], ns);
		output_str(w->out, ",\"name\":");
		const struct strtab_entry *e = strtab_get(&w->names, t->open[d]);
		json_string(w, e->bytes, e->len);
		output_byte(w->out, '}');
	}
	if (depth < t->depth)
		t->depth = depth;
}

/* A sample of `dur_ns` from `start_ns` (its time; INT64_MIN: none) on its thread. */
static void add_sample(struct writer *w, struct thread *t, uint32_t stack, int64_t start_ns, int64_t dur_ns)
{
	int64_t start = t->started && start_ns < t->end_ns ? t->end_ns : start_ns == INT64_MIN ? t->end_ns : start_ns;
	if (!t->started || start != t->end_ns)
		close_frames(w, t, 0, t->end_ns);
	t->started = 1;
	size_t n = model_stack_frames(w->m, stack, &w->frames, &w->cap_frames);
	grow((void **)&w->path, &w->cap_path, n + 1, sizeof *w->path);
	for (size_t k = 0; k < n; k++)
		w->path[k] = name_of(w, &w->frames[n - 1 - k]);
	size_t same = 0;
	while (same < n && same < t->depth && t->open[same] == w->path[same])
		same++;
	close_frames(w, t, same, start);
	grow((void **)&t->open, &t->cap_open, n + 1, sizeof *t->open);
	grow((void **)&t->since, &t->cap_since, n + 1, sizeof *t->since);
	for (size_t k = same; k < n; k++) {
		t->open[k] = w->path[k];
		t->since[k] = start;
	}
	t->depth = n;
	t->end_ns = start + dur_ns;
	w->empty_stacks += n == 0;
}

/* A row's time clock, for profiles whose samples have times: 0 when it has none. */
struct clock {
	int kind; /* 0 none, 1 timed rows, 2 runs, 3 timeline type */
	double ns_per_value;
	int64_t ns;
};

static int64_t row_time(const struct model *m, struct clock *c, const struct model_row *r)
{
	int64_t at = c->ns;
	if (c->kind == 1)
		return r->time_ns;
	if (c->kind == 2)
		c->ns += (int64_t)(r->repeat * m->sessions.runs[r->run].interval_us * 1000);
	else if (c->kind == 3)
		c->ns += (int64_t)((double)r->values[m->timeline_type] * (double)r->repeat * c->ns_per_value + 0.5);
	return c->kind ? at : INT64_MIN;
}

/*
 * Every row's thread, and no weight that cannot be a length: negative, or
 * a profile longer than 2^62 ns. Checked before anything is written.
 */
static int first_pass(struct writer *w)
{
	const struct model *m = w->m;
	double total = 0;
	int rc = 0;
	view_init(&w->view, m);
	struct row_cursor rows;
	rows_begin(m, &rows);
	for (const struct model_row *r; rc == 0 && (r = rows_next(&rows));) {
		view_values(&w->view, r, w->values);
		if (w->values[w->type] < 0)
			rc = view_refuse_negative(m, r->index, w->type, w->values[w->type], "a trace", w->out->name);
		total += (double)w->values[w->type] * w->ns_per_value;
		if (w->values[w->type] != 0)
			thread_of(w, r->labels);
	}
	rows_end(&rows);
	if (rc == 0 && total > 4.6e18 / 2)
		rc = -1, diag_error(w->out->name, 0, "the samples last past 2^62 nanoseconds: pick another --sample-type");
	return rc;
}

static void second_pass(struct writer *w)
{
	const struct model *m = w->m;
	struct clock c = { 0, 0, 0 };
	if (m->timed_rows)
		c.kind = 1;
	else if (m->sessions.n_runs)
		c.kind = 2;
	else if (m->timeline_type != SIZE_MAX) {
		const struct model_sample_type *tt = &m->sample_types[m->timeline_type];
		c.kind = 3;
		c.ns_per_value = view_ns_per_value(model_cstr(m, tt->unit), tt->decimals);
	}
	view_init(&w->view, m);
	struct row_cursor rows;
	rows_begin(m, &rows);
	for (const struct model_row *r; (r = rows_next(&rows));) {
		view_values(&w->view, r, w->values);
		int64_t at = row_time(m, &c, r);
		if (w->values[w->type] == 0)
			continue;
		int64_t dur = (int64_t)((double)w->values[w->type] * w->ns_per_value + 0.5);
		add_sample(w, &w->threads[thread_of(w, r->labels)], r->stack, at, dur);
	}
	rows_end(&rows);
	for (size_t i = 0; i < w->n_threads; i++)
		close_frames(w, &w->threads[i], 0, w->threads[i].end_ns);
}

/* The type written: the one asked for, else the profile's clock, else a timeline's default. */
static int pick_type(struct writer *w, const struct write_options *opts)
{
	const struct model *m = w->m;
	view_init(&w->view, m);
	if (!opts->sample_type && !m->sessions.n_runs && m->timeline_type != SIZE_MAX)
		w->type = m->timeline_type;
	else if (view_pick(&w->view, opts->sample_type, VIEW_TIMELINE, w->out->name, &w->type) < 0)
		return -1;
	w->ns_per_value = view_ns_per_value(view_unit(&w->view, w->type), view_decimals(&w->view, w->type));
	if (w->ns_per_value == 0)
		w->ns_per_value = 1000.0 / (double)pow10_i64(view_decimals(&w->view, w->type));
	return 0;
}

static void free_writer(struct writer *w)
{
	for (size_t i = 0; i < w->n_threads; i++) {
		free(w->threads[i].open);
		free(w->threads[i].since);
	}
	free(w->threads);
	hashidx_free(&w->thread_index);
	free(w->thread_of_labels);
	strtab_free(&w->names);
	free(w->name_of_function);
	free(w->frames);
	free(w->path);
	free(w->values);
}

int trace_write(const struct model *m, struct output *out, const struct write_options *opts)
{
	struct writer w;
	memset(&w, 0, sizeof w);
	w.m = m;
	w.out = out;
	w.first_event = 1;
	if (pick_type(&w, opts) < 0)
		return -1;
	strtab_init(&w.names);
	w.values = xmalloc((w.view.n_types + 1) * sizeof *w.values);
	w.thread_of_labels = xmalloc((m->n_label_sets + 1) * sizeof *w.thread_of_labels);
	for (size_t i = 0; i < m->n_label_sets; i++)
		w.thread_of_labels[i] = MODEL_NONE;
	w.name_of_function = xmalloc((m->n_functions + 1) * sizeof *w.name_of_function);
	for (size_t i = 0; i < m->n_functions; i++)
		w.name_of_function[i] = MODEL_NONE;
	/* Keys the model may lack: a string no label has then. */
	uint32_t none = MODEL_NONE - 1;
	w.key_pid = strtab_lookup(&m->strings, "pid", 3);
	w.key_tid = strtab_lookup(&m->strings, "tid", 3);
	w.key_thread = strtab_lookup(&m->strings, "thread", 6);
	w.key_process = strtab_lookup(&m->strings, "process", 7);
	uint32_t *keys[] = { &w.key_pid, &w.key_tid, &w.key_thread, &w.key_process };
	for (size_t i = 0; i < 4; i++)
		if (*keys[i] == HASHIDX_NONE)
			*keys[i] = none;
	int rc = first_pass(&w);
	if (rc == 0) {
		output_str(out, "{\"traceEvents\":[");
		write_threads(&w);
		second_pass(&w);
		output_str(out, "\n],\"displayTimeUnit\":\"ms\",\"otherData\":{\"exporter\":\"prof " PROF_VERSION "\"}}\n");
		if (w.empty_stacks)
			diag_warn(out->name, 0, "%" PRIu64 " samples with no frame: no event holds them", w.empty_stacks);
		if (w.replaced_bytes)
			diag_warn(out->name, 0, "names that are not UTF-8: bad bytes written as U+FFFD");
	}
	free_writer(&w);
	return rc;
}
