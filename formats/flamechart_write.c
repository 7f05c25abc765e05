/*
 * Flame chart writer (-t flamechart): the samples along x, depth along y
 * (docs/formats/flamechart.md). A box is a run: consecutive samples in
 * which one frame key sits at one depth under one parent box, the runs of
 * sprof's recursive run-length encoding. x is
 *  - time, on an axis in seconds, for samples that have times: R's ticks
 *    in CPU time, a timeline type's values (a .cpuprofile's wall time),
 *    or the times of timed rows (perf, JFR, speedscope), where a sample
 *    lasts until the next of its thread, at most its value in a type of
 *    time (an evented stretch's length, a perf period), else twice the
 *    usual gap between a thread's samples, and runs break where a thread
 *    was not sampled. Timed rows that name their thread (JFR's, Firefox's
 *    and speedscope's `thread` label, perf's `tid`) are drawn a lane per
 *    thread, the busiest first, on the
 *    one time axis; past MAX_LANES the least busy fold into one lane;
 *  - else the samples' values in the order of the file, as the subtitle
 *    says (an R profile by another type than time: in time order).
 * Consecutive boxes narrower than --minwidth under one parent (no wide
 * box between them) become one grey "..." box from the first one's start
 * to the last one's end, its title counting only theirs, drawn when it is
 * wide enough; their time stays in the parent's width either way.
 *
 * Rows are streamed up to four times: the total (for the scale), a survey
 * where x is not the drawn type (the axis's length; with timed rows the
 * threads, their samples and the usual gap), a dry run for the deepest box of each lane (the page's height
 * comes first in the file), and the drawing. Memory grows with the
 * deepest stack, the threads and label sets, output with the boxes wide
 * enough to draw. Boxes are written as their runs end, so a parent
 * follows its children; each carries data-first (its first sample in its
 * lane, from 1), data-len (its samples) and in lanes of threads
 * data-lane, by which flame.js orders them.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/diag.h"
#include "../base/numtext.h"
#include "../model/diff.h"
#include "../render/svg.h"
#include "../render/units.h"
#include "flamegraph.h"

/* Lanes drawn at most: 8 threads, or the 7 busiest and one of the rest. */
enum { MAX_LANES = 8 };
/* Ticks of the time axis are at least this many pixels apart. */
enum { TICK_SPACING = 90, ROW = 16 };
/* Gaps between a thread's samples are counted in 16 buckets per power of 2, for their median. */
enum { GAP_STEPS = 16, GAP_BUCKETS = 64 * GAP_STEPS };

enum clock {
	CLOCK_NONE,  /* x counts the drawn type's values */
	CLOCK_TYPE,  /* x counts a type of time: R's CPU time, or the model's timeline type */
	CLOCK_ROWS,  /* x is the rows' times */
};

struct open_box {
	uint32_t key;
	int64_t start;       /* x */
	int64_t value_start; /* the drawn type's values before it */
	uint64_t first;      /* sample number in the lane, from 1 */
};

/*
 * Narrow boxes merged so far at one depth, under the current parent: from
 * the first one's start to the last one's end, with their summed count and
 * how long they ran.
 */
struct pending {
	int used;
	int64_t start, end, count, ran;
	uint64_t first, end_sample;
	uint32_t runs;
};

/* A thread that timed rows name, or all the samples of a profile without threads. */
struct thread {
	int kind;         /* 0: none named; 1: by a string (JFR's thread); 2: by a number (perf's tid) */
	uint32_t str;
	int64_t num;
	uint64_t samples;
	int64_t value;
	uint32_t first_stack;
	int has_last;
	int64_t last_time;
	uint64_t last_repeat;
	int64_t last_value;
	size_t lane;
};

struct lane {
	char name[160];
	uint64_t samples;
	int64_t value;
	size_t n_threads;
	int64_t busy; /* x its samples take, found by the dry run */
	unsigned max_depth;
	double root_y;
	/* The drawing's state. */
	struct open_box *open; /* open[d - 1] is the box at depth d */
	size_t depth, cap_open;
	struct pending *pending; /* pending[d] */
	size_t cap_pending;
	int64_t at, value_at; /* x, and the drawn type's values, so far */
	uint64_t sample;      /* the next sample's number */
	/* With timed rows: the last row, drawn when the next one of its lane says how long it lasted. */
	int held;
	uint32_t held_stack;
	int64_t held_time, held_value;
	uint64_t held_repeat;
};

struct chart {
	const struct model *m;
	const struct flame_options *opts;
	const struct flame_values *fv;
	struct flame_keys keys;
	struct flame_page page;
	int dry;
	enum clock clock;
	size_t x_type;     /* with CLOCK_NONE and CLOCK_TYPE: the type x counts */
	double ns_per_x;   /* 0: x is no time */
	int64_t axis;      /* x at the right end */
	int64_t longest;   /* with timed rows: the longest a sample lasts, in ns */
	double value_ns;   /* with timed rows of a type of time: a value's ns, the most a row lasts; 0: none */
	struct thread *threads;
	size_t n_threads;
	uint32_t *thread_of_set; /* by label set */
	struct lane *lanes;
	size_t n_lanes;
	int named; /* lanes are threads, named */
	size_t n_busy; /* threads with samples of the drawn type */
	uint32_t *keys_of_stack;
	size_t cap_keys_of_stack;
	struct model_frame *frames;
	size_t cap_frames;
};

static void emit(struct chart *c, struct lane *l, uint32_t key, size_t depth, struct pending box)
{
	if (c->dry) {
		if (depth > l->max_depth)
			l->max_depth = (unsigned)depth;
		return;
	}
	char extra[160];
	int n = snprintf(extra, sizeof extra, "%s data-first=\"%" PRIu64 "\" data-len=\"%" PRIu64 "\"",
			 key == FLAME_ELIDED ? " class=\"elided\"" : "", box.first, box.end_sample - box.first);
	if (key == FLAME_ELIDED)
		n += snprintf(extra + n, sizeof extra - (size_t)n, " data-runs=\"%" PRIu32 "\"", box.runs);
	if (c->named)
		snprintf(extra + n, sizeof extra - (size_t)n, " data-lane=\"%zu\"", (size_t)(l - c->lanes));
	c->page.root_y = l->root_y;
	c->page.ran_ns = c->ns_per_x > 0 ? (double)box.ran * c->ns_per_x : -1;
	flame_box(&c->page, key, (unsigned)depth, (struct flame_span){ box.start, box.end, box.count, 0, 0 }, extra);
}

static struct pending *pending_at(struct lane *l, size_t depth)
{
	if (depth >= l->cap_pending) {
		size_t old = l->cap_pending;
		grow((void **)&l->pending, &l->cap_pending, depth + 1, sizeof *l->pending);
		memset(l->pending + old, 0, (l->cap_pending - old) * sizeof *l->pending);
	}
	return &l->pending[depth];
}

/* Ends the merged narrow boxes at a depth: drawn as one "..." when that is wide enough. */
static void flush(struct chart *c, struct lane *l, size_t depth)
{
	struct pending *p = pending_at(l, depth);
	if (p->used && flame_wide_enough(&c->page, p->end - p->start))
		emit(c, l, FLAME_ELIDED, depth, *p);
	p->used = 0;
}

/* Ends the run of the lane's deepest open box, now. */
static void close_box(struct chart *c, struct lane *l)
{
	size_t depth = l->depth--;
	const struct open_box *b = &l->open[depth - 1];
	flush(c, l, depth + 1);
	struct pending *p = pending_at(l, depth);
	int64_t count = l->value_at - b->value_start;
	if (flame_wide_enough(&c->page, l->at - b->start)) {
		flush(c, l, depth);
		emit(c, l, b->key, depth,
		     (struct pending){ 1, b->start, l->at, count, l->at - b->start, b->first, l->sample, 1 });
		return;
	}
	if (!p->used)
		*p = (struct pending){ 1, b->start, 0, 0, 0, b->first, 0, 0 };
	p->end = l->at;
	p->count += count;
	p->ran += l->at - b->start;
	p->end_sample = l->sample;
	p->runs++;
}

/* The next samples' stack: runs end where it leaves the open path, and new ones start. */
static void enter(struct chart *c, struct lane *l, uint32_t stack)
{
	size_t n = flame_stack_keys(&c->keys, stack, c->opts->reverse, &c->keys_of_stack,
				    &c->cap_keys_of_stack, &c->frames, &c->cap_frames);
	size_t same = 0;
	while (same < n && same < l->depth && l->open[same].key == c->keys_of_stack[same])
		same++;
	while (l->depth > same)
		close_box(c, l);
	grow((void **)&l->open, &l->cap_open, n, sizeof *l->open);
	for (; l->depth < n; l->depth++)
		l->open[l->depth] = (struct open_box){ c->keys_of_stack[l->depth], l->at, l->value_at, l->sample };
}

/* Ends every run of the lane: at its end, or where its thread was not sampled. */
static void close_all(struct chart *c, struct lane *l)
{
	while (l->depth > 0)
		close_box(c, l);
	flush(c, l, 1);
}

/* Samples of one stack from `start` for `width` of x; a gap before them ends the open runs. */
static void draw(struct chart *c, struct lane *l, uint32_t stack, int64_t start, int64_t width, int64_t value,
		 uint64_t repeat)
{
	if (start > l->at) {
		close_all(c, l);
		l->at = start;
	}
	enter(c, l, stack);
	if (c->dry)
		l->busy += width;
	l->at += width;
	l->value_at += value;
	l->sample += repeat;
}

/*
 * The most a timed row lasts: its value, in a type of time (an evented
 * stretch's, a perf sample's period); else `longest` a sample.
 */
static int64_t row_lasts(const struct chart *c, uint64_t repeat, int64_t value)
{
	if (c->value_ns > 0) {
		double ns = (double)value * c->value_ns;
		return ns < 0 ? 0 : ns < 9.2e18 ? (int64_t)ns : INT64_MAX;
	}
	return c->longest * (int64_t)(repeat < 1000 ? repeat : 1000);
}

/* A held row of timed rows, now that it is known when it ends: at `next`, at most as long as it lasts. */
static void draw_held(struct chart *c, struct lane *l, int64_t next)
{
	if (!l->held)
		return;
	int64_t most = row_lasts(c, l->held_repeat, l->held_value);
	if (most > INT64_MAX - l->held_time) /* the axis ends at 2^63 ns */
		most = INT64_MAX - l->held_time;
	int64_t width = next < l->held_time ? 0 : next - l->held_time < most ? next - l->held_time : most;
	draw(c, l, l->held_stack, l->held_time, width, l->held_value, l->held_repeat);
	l->held = 0;
}

static struct lane *lane_of(const struct chart *c, uint32_t labels)
{
	return &c->lanes[c->n_threads ? c->threads[c->thread_of_set[labels]].lane : 0];
}

/* A row of a profile without timed rows: x grows by its value of the type x counts. */
static void take_in_order(struct chart *c, const struct model_row *row, const int64_t *values, uint32_t *last)
{
	struct lane *l = &c->lanes[0];
	if (row->stack != *last)
		enter(c, l, row->stack);
	*last = row->stack;
	l->at += c->clock == CLOCK_TYPE && values[c->x_type] < 0 ? 0 : values[c->x_type];
	l->value_at += values[c->fv->type];
	l->sample += row->repeat;
}

/* A timed row of the drawn type: the one before it in its lane now ends, and it waits for its own end. */
static void take_timed(struct chart *c, const struct model_row *row, int64_t value)
{
	struct lane *l = lane_of(c, row->labels);
	draw_held(c, l, row->time_ns);
	l->held = 1;
	l->held_stack = row->stack;
	l->held_time = row->time_ns > l->at ? row->time_ns : l->at; /* never back in time, not to overlap */
	l->held_value = value;
	l->held_repeat = row->repeat;
}

static void stream(struct chart *c)
{
	struct view v;
	view_init(&v, c->m);
	int64_t *values = xmalloc((v.n_types + 1) * sizeof *values);
	uint32_t last = MODEL_NONE;
	for (size_t i = 0; i < c->n_lanes; i++) {
		struct lane *l = &c->lanes[i];
		l->at = l->value_at = 0;
		l->sample = 1;
		l->depth = 0;
		l->held = 0;
	}
	struct row_cursor rows;
	rows_begin(c->m, &rows);
	for (const struct model_row *row; (row = rows_next(&rows));) {
		view_values(&v, row, values);
		if (c->clock != CLOCK_ROWS)
			take_in_order(c, row, values, &last);
		else if (values[c->fv->type] != 0)
			take_timed(c, row, values[c->fv->type]);
	}
	rows_end(&rows);
	for (size_t i = 0; i < c->n_lanes; i++) {
		draw_held(c, &c->lanes[i], INT64_MAX);
		close_all(c, &c->lanes[i]);
	}
	free(values);
}

/* The thread a label set names: JFR's `thread` (a string), else perf's `tid` (a number). */
static struct thread thread_named(const struct model *m, uint32_t set)
{
	struct thread t = { 0 };
	const struct model_label_set *s = &m->label_sets[set];
	for (uint32_t i = 0; i < s->count; i++) {
		const struct model_label *label = &m->labels[s->first + i];
		if (model_str_is(m, label->key, "thread") && label->str)
			return (struct thread){ .kind = 1, .str = label->str };
		if (model_str_is(m, label->key, "tid"))
			t = (struct thread){ .kind = 2, .num = label->num };
	}
	return t;
}

static int same_thread(const struct thread *a, const struct thread *b)
{
	return a->kind == b->kind && a->str == b->str && a->num == b->num;
}

/* What the qsort comparators below order by: C11's qsort passes no context. */
static const struct thread *sorted_threads;

static int by_thread(const void *x, const void *y)
{
	const struct thread *a = &sorted_threads[*(const uint32_t *)x], *b = &sorted_threads[*(const uint32_t *)y];
	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	if (a->kind == 2)
		return a->num < b->num ? -1 : a->num > b->num;
	return a->str < b->str ? -1 : a->str > b->str;
}

/* Each label set's thread, the threads made once each: sorted by thread, equal ones meet. */
static void find_threads(struct chart *c)
{
	const struct model *m = c->m;
	size_t n = m->n_label_sets;
	struct thread *named = xcalloc(n, sizeof *named);
	uint32_t *order = xmalloc(n * sizeof *order);
	for (size_t i = 0; i < n; i++) {
		named[i] = thread_named(m, (uint32_t)i);
		order[i] = (uint32_t)i;
	}
	sorted_threads = named;
	qsort(order, n, sizeof *order, by_thread);
	c->thread_of_set = xmalloc(n * sizeof *c->thread_of_set);
	c->threads = xcalloc(n, sizeof *c->threads);
	for (size_t i = 0; i < n; i++) {
		if (i == 0 || !same_thread(&named[order[i]], &named[order[i - 1]]))
			c->threads[c->n_threads++] = named[order[i]];
		c->thread_of_set[order[i]] = (uint32_t)(c->n_threads - 1);
	}
	free(named);
	free(order);
}

/* The median gap between a thread's samples, from its bucket: 2^((k + 0.5) / GAP_STEPS) ns. */
static int64_t usual_gap(const uint64_t *buckets, uint64_t n)
{
	uint64_t seen = 0;
	for (size_t k = 0; k < GAP_BUCKETS; k++)
		if ((seen += buckets[k]) * 2 >= n && n) {
			/* A day at most: a sample's width times a row's repeat (at most 1000) stays far from 2^63. */
			double gap = exp2((k + 0.5) / GAP_STEPS);
			return gap < 86400e9 ? (int64_t)gap : (int64_t)86400e9;
		}
	return 1000000; /* no thread was sampled twice: a sample is drawn 2 ms wide */
}

/*
 * The survey: the axis's length; with timed rows each thread's samples
 * and last time, and the longest a sample lasts (twice the median gap).
 */
static void survey(struct chart *c)
{
	if (c->clock != CLOCK_ROWS && c->x_type == c->fv->type) {
		c->axis = c->fv->total; /* known already: no pass for it */
		return;
	}
	struct view v;
	view_init(&v, c->m);
	int64_t *values = xmalloc((v.n_types + 1) * sizeof *values);
	uint64_t *gaps = xcalloc(GAP_BUCKETS, sizeof *gaps), n_gaps = 0;
	c->axis = 0;
	struct row_cursor rows;
	rows_begin(c->m, &rows);
	for (const struct model_row *row; (row = rows_next(&rows));) {
		view_values(&v, row, values);
		if (c->clock != CLOCK_ROWS) {
			c->axis += values[c->x_type] < 0 && c->clock == CLOCK_TYPE ? 0 : values[c->x_type];
			continue;
		}
		if (values[c->fv->type] == 0)
			continue;
		struct thread *t = &c->threads[c->thread_of_set[row->labels]];
		if (t->has_last && row->time_ns > t->last_time) {
			gaps[(size_t)(log2((double)(row->time_ns - t->last_time)) * GAP_STEPS)]++;
			n_gaps++;
		}
		if (!t->samples)
			t->first_stack = row->stack;
		t->samples += row->repeat;
		t->value += values[c->fv->type];
		t->has_last = 1;
		t->last_time = row->time_ns;
		t->last_repeat = row->repeat;
		t->last_value = values[c->fv->type];
	}
	rows_end(&rows);
	if (c->clock == CLOCK_ROWS) {
		c->longest = 2 * usual_gap(gaps, n_gaps);
		for (size_t i = 0; i < c->n_threads; i++) {
			const struct thread *t = &c->threads[i];
			int64_t last = row_lasts(c, t->last_repeat, t->last_value);
			int64_t end = t->last_time > INT64_MAX - last ? INT64_MAX : t->last_time + last;
			if (t->samples && end > c->axis)
				c->axis = end;
		}
	}
	free(values);
	free(gaps);
}

static const struct thread *busiest_threads;

static int by_samples(const void *x, const void *y)
{
	const struct thread *a = &busiest_threads[*(const uint32_t *)x], *b = &busiest_threads[*(const uint32_t *)y];
	if (a->samples != b->samples)
		return a->samples > b->samples ? -1 : 1;
	return *(const uint32_t *)x < *(const uint32_t *)y ? -1 : 1;
}

/* A thread's name: JFR's, or perf's command (its stacks' outermost frame) and tid. */
static void thread_name(struct chart *c, const struct thread *t, char *out, size_t size)
{
	if (t->kind == 1) {
		snprintf(out, size, "%s", model_cstr(c->m, t->str));
		return;
	}
	size_t n = model_stack_frames(c->m, t->first_stack, &c->frames, &c->cap_frames);
	struct model_name name = { "", 0, { 0 } };
	if (n)
		model_frame_shown_name(c->m, &c->frames[n - 1], &name);
	if (t->kind == 2)
		snprintf(out, size, "%.*s%stid %" PRId64, (int)(name.len < 100 ? name.len : 100), name.bytes,
			 n ? " " : "", t->num);
	else
		snprintf(out, size, "no thread");
}

/* A lane per thread with samples, the busiest first; past MAX_LANES the rest share the last. */
static void make_lanes(struct chart *c)
{
	uint32_t *order = xmalloc((c->n_threads + 1) * sizeof *order);
	size_t busy = 0;
	for (size_t i = 0; i < c->n_threads; i++)
		if (c->threads[i].samples)
			order[busy++] = (uint32_t)i;
	busiest_threads = c->threads;
	qsort(order, busy, sizeof *order, by_samples);
	c->n_lanes = busy > MAX_LANES ? MAX_LANES : busy;
	c->lanes = xcalloc(c->n_lanes ? c->n_lanes : 1, sizeof *c->lanes);
	for (size_t i = 0; i < busy; i++) {
		struct thread *t = &c->threads[order[i]];
		struct lane *l = &c->lanes[i < c->n_lanes ? i : c->n_lanes - 1];
		t->lane = (size_t)(l - c->lanes);
		l->samples += t->samples;
		l->value += t->value;
		l->n_threads++;
		if (l->n_threads == 1)
			thread_name(c, t, l->name, sizeof l->name);
	}
	if (busy > MAX_LANES)
		snprintf(c->lanes[MAX_LANES - 1].name, sizeof c->lanes[0].name, "%zu other threads",
			 c->lanes[MAX_LANES - 1].n_threads);
	c->named = busy > 1 || (busy == 1 && c->threads[order[0]].kind != 0);
	c->n_busy = busy;
	free(order);
}

/* The rows the page needs: the axis's, each lane's, and one between lanes. */
static unsigned layout(struct chart *c)
{
	double top = flame_page_top(&c->page);
	unsigned row = c->ns_per_x > 0;
	for (size_t i = 0; i < c->n_lanes; i++) {
		struct lane *l = &c->lanes[i];
		row += i > 0;
		l->root_y = c->opts->inverted ? top + row * (double)ROW : top + (row + l->max_depth) * (double)ROW + 1;
		row += l->max_depth + 1;
	}
	return row;
}

/* The time axis: a tick and its time in units at each round step, a line down through the lanes. */
static void axis(struct chart *c)
{
	if (c->ns_per_x <= 0 || c->axis <= 0)
		return;
	double ns = (double)c->axis * c->ns_per_x, pixels = c->opts->width - 20.0;
	double step = pow(10, floor(log10(ns * TICK_SPACING / pixels)));
	for (int i = 0; step * pixels / ns < TICK_SPACING; i++)
		step *= i % 3 == 1 ? 2.5 : 2; /* 1, 2, 5, 10, 20, 50, ... */
	double top = flame_page_top(&c->page), bottom = c->page.height - 34;
	svg_printf(c->page.out, "<g id=\"axis\" data-ns=\"%.0f\" style=\"font-size: 11px; fill: rgb(90,90,90)\">\n", ns);
	for (double t = 0; t <= ns * (1 + 1e-9); t += step) {
		char label[32];
		double x = 10 + t / ns * pixels;
		units_label(label, sizeof label, t, "nanoseconds");
		svg_printf(c->page.out, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"rgb(200,200,200)\" "
					"stroke-width=\"0.5\"/><text x=\"%.1f\" y=\"%.1f\"%s>%s</text>\n",
			   x, x, top + ROW, bottom, x, top + 12, t == 0 ? "" : " text-anchor=\"middle\"", label);
	}
	output_str(c->page.out, "</g>\n");
}

static void subtitle(const struct chart *c, char *text, size_t size)
{
	uint32_t source = model_get_meta(c->m, "source");
	const char *order = c->fv->time_ordered ? "in time order" : "in the order of the file (it has no time order)";
	char lanes[64] = "";
	if (c->clock != CLOCK_NONE)
		order = "in time";
	if (c->named)
		snprintf(lanes, sizeof lanes, ", a lane per thread (%zu thread%s)", c->n_busy, c->n_busy == 1 ? "" : "s");
	snprintf(text, size, "%s: %s%s, %s%s%s", source == HASHIDX_NONE ? "profile" : model_cstr(c->m, source), order, lanes,
		 c->fv->type_name, c->opts->reverse ? ", stacks reversed (leaf at the root)" : "",
		 c->opts->frames_by_line ? ", a frame per line" : "");
}

/* What x counts: time where the samples have times, else the drawn type's values. */
static void choose_clock(struct chart *c)
{
	struct view v;
	view_init(&v, c->m);
	c->x_type = c->fv->type;
	if (c->m->timed_rows) {
		c->clock = CLOCK_ROWS;
		c->ns_per_x = 1;
		c->value_ns = view_ns_per_value(view_unit(&v, c->fv->type), view_decimals(&v, c->fv->type));
		find_threads(c);
		return;
	}
	if (c->m->timeline_type != SIZE_MAX && !v.ticks)
		c->x_type = c->m->timeline_type;
	else if (!c->fv->time_ordered)
		return;
	c->ns_per_x = view_ns_per_value(view_unit(&v, c->x_type), view_decimals(&v, c->x_type));
	c->clock = c->ns_per_x > 0 ? CLOCK_TYPE : CLOCK_NONE;
	if (c->clock == CLOCK_NONE)
		c->x_type = c->fv->type;
}

/* Each lane's root: its thread and share, across the whole axis. */
static void roots(struct chart *c)
{
	for (size_t i = 0; i < c->n_lanes; i++) {
		struct lane *l = &c->lanes[i];
		char name[sizeof l->name + 32];
		snprintf(name, sizeof name, "%s: %.2f%%", l->name, 100.0 * (double)l->value / (double)c->fv->percent_of);
		c->page.root_name = c->named ? name : NULL;
		int64_t ran = c->clock == CLOCK_ROWS ? l->busy : c->axis;
		emit(c, l, FLAME_ROOT, 0,
		     (struct pending){ 1, 0, c->axis, c->clock == CLOCK_ROWS ? l->value : c->fv->total, ran, 1,
				       1 + (c->clock == CLOCK_ROWS ? l->samples : c->lanes[0].sample - 1), 1 });
	}
	c->page.root_name = NULL;
}

static void chart_free(struct chart *c)
{
	for (size_t i = 0; i < c->n_lanes; i++) {
		free(c->lanes[i].open);
		free(c->lanes[i].pending);
	}
	free(c->lanes);
	free(c->threads);
	free(c->thread_of_set);
	flame_keys_free(&c->keys);
	free(c->keys_of_stack);
	free(c->frames);
}

int flamechart_write(const struct model *m, struct output *out, const struct write_options *given)
{
	struct flame_options read;
	flame_options_read(given, &read);
	const struct flame_options *opts = &read;
	struct flame_values fv;
	if (model_diff_key(m) != MODEL_NONE) {
		diag_error(out->name, 0, "a difference (--diff-base) has no one time order to chart: "
					 "draw it with -t flamegraph");
		return -1;
	}
	if (flame_total(m, out, opts, 1, &fv) < 0)
		return -1;
	struct chart c;
	memset(&c, 0, sizeof c);
	c.m = m;
	c.opts = opts;
	c.fv = &fv;
	choose_clock(&c);
	survey(&c);
	if (c.clock == CLOCK_ROWS) {
		make_lanes(&c);
	} else {
		c.n_lanes = 1;
		c.lanes = xcalloc(1, sizeof *c.lanes);
	}
	flame_keys_init(&c.keys, m, opts->frames_by_line);
	struct flame_values scale = fv;
	scale.total = c.axis > 0 ? c.axis : 1;
	flame_page_init(&c.page, out, &c.keys, opts, &scale);
	c.page.percent_of = fv.percent_of; /* the titles' shares are the summary's, not of the axis */
	char sub[512];
	subtitle(&c, sub, sizeof sub);
	c.page.title = opts->title ? opts->title : "Flame Chart";
	c.page.subtitle = sub;
	c.dry = 1;
	stream(&c);
	c.dry = 0;
	c.page.max_depth = layout(&c) - 1;
	flame_page_head(&c.page);
	layout(&c);
	axis(&c);
	flame_page_frames(&c.page);
	/* The roots first: flame.js finds depths from them. */
	roots(&c);
	stream(&c);
	flame_page_end(&c.page);
	chart_free(&c);
	return 0;
}

static const char *const flamechart_extensions[] = { ".chart.svg", NULL };

const struct format format_flamechart = {
	.name = "flamechart",
	.description = "flame chart, one interactive SVG (write only): samples in time, a lane per thread; boxes are runs",
	.extensions = flamechart_extensions,
	.binary = 0,
	.probe = NULL,
	.read = NULL,
	.options = flame_options,
	.write = flamechart_write,
};
