/*
 * sprofplot writer (-t sprofplot, .sprof.svg): the panels of sprof's
 * plot_nodes, plot_stacks and plot_profiles in one static SVG grid
 * (docs/formats/sprof.md), from the views sprof.c works out:
 *
 *   nodes    self against total, labelled; the same on log axes (self + 1);
 *            bars of self, and of total, each sorted, nodes on every
 *            record ("permanent") left out of all four, as sprof does;
 *   stacks   length against refcount; bars of refcount, sorted;
 *   events   the stack id, its refcount and its length by record; the
 *            strip of stacks by record, coloured by id; with memory
 *            profiling, the change of each memory counter by record.
 *
 * Counts are records. --mincount N (default 5, sprof's) leaves out of the
 * bars and the stack panels what counts fewer than N records (a node by
 * its total, as sprof); each
 * panel's legend says what it left out. Every point, bar and dash carries
 * its values in its <title>.
 *
 * Bounded whatever the input: at most MAX_POINTS points and MAX_BARS bars
 * (the largest), MAX_LABELS labels; the event panels draw each run of one
 * stack (or each row's memory change) as a dash while there are at most
 * MAX_RUNS of them, else one mark per pixel column spanning the column's
 * smallest to largest value. The profile is streamed once more for them.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/diag.h"
#include "../render/plot.h"
#include "../render/svg.h"
#include "../render/units.h"
#include "sprof.h"

enum { MAX_POINTS = 400, MAX_BARS = 40, MAX_LABELS = 50, MAX_RUNS = 2000, DEFAULT_MINCOUNT = 5 };
/* A share of the y axis above the data, where the legend goes. */
#define HEADROOM 0.3

enum { PAGE_WIDTH = 1200, LEFT = 64, RIGHT = 16, TOP = 34, BOTTOM = 50, BAR_BOTTOM = 104 };

struct plotter {
	struct sprof *s;
	struct output *out;
	int64_t mincount;
	int replaced;
	double top; /* where the next row of panels starts */
	char under[64]; /* "N samples omitted", for --mincount */
};

static const char *check_count(const char *value)
{
	char *end;
	unsigned long long n = strtoull(value, &end, 10);
	return end == value || *end || value[0] == '-' || n > INT64_MAX ? "a whole number" : NULL;
}

static const struct format_option sprofplot_options[] = {
	{ "mincount", "N", "leave out of bars and stack panels what has fewer than N samples "
			   "(default 5, as sprof)", check_count },
	{ NULL, NULL, NULL, NULL },
};

/* Panel `col` of `cols` in the current row, its plot area `h` high. */
static struct plot_panel panel_at(struct plotter *pl, const char *id, const char *title, int col, int cols,
				  double h)
{
	double cell = (double)PAGE_WIDTH / cols;
	return (struct plot_panel){ .out = pl->out, .id = id, .title = title, .x = col * cell + LEFT,
				    .y = pl->top + TOP, .w = cell - LEFT - RIGHT, .h = h,
				    .replaced = &pl->replaced };
}

/* The legend's lines: the first always, the others only when they count something. */
struct legend {
	char line[6][112];
	size_t n;
};

static void legend_add(struct legend *l, int64_t count, const char *what, const char *more)
{
	if ((count > 0 || l->n == 0) && l->n < sizeof l->line / sizeof l->line[0])
		snprintf(l->line[l->n++], sizeof l->line[0], "%" PRId64 " %s%s", count, what, more);
}

static void end_with_legend(struct plot_panel *p, const struct legend *l)
{
	const char *text[sizeof l->line / sizeof l->line[0]];
	for (size_t i = 0; i < l->n; i++)
		text[i] = l->line[i];
	plot_panel_end(p, text, l->n);
}

/* ---- nodes ---- */

static struct sprof *sorting;
static int by_total_sort;

static int64_t node_value(uint32_t key)
{
	const struct sprof_node *n = &sorting->nodes[key];
	return by_total_sort ? n->total : n->self;
}

/* Largest first; equal ones by name, as node_keys lists them. */
static int larger_node(const void *a, const void *b)
{
	const uint32_t *x = a, *y = b;
	int64_t vx = node_value(x[0]), vy = node_value(y[0]);
	return vx != vy ? (vx < vy ? 1 : -1) : (x[1] > y[1]) - (x[1] < y[1]);
}

/*
 * The nodes a panel shows, largest first: [key, position in node_keys]
 * pairs. As in sprof, `min` is compared with the total, in either panel.
 */
static size_t pick_nodes(struct plotter *pl, int by_total, int64_t min, uint32_t *picked, size_t *permanent)
{
	struct sprof *s = pl->s;
	size_t n = 0;
	*permanent = 0;
	for (size_t i = 0; i < s->n_nodes; i++) {
		const struct sprof_node *node = &s->nodes[s->node_keys[i]];
		if (node->total == s->len) {
			++*permanent;
			continue;
		}
		if (node->total >= min && (by_total || node->self > 0)) {
			picked[2 * n] = s->node_keys[i];
			picked[2 * n++ + 1] = (uint32_t)i;
		}
	}
	sorting = s;
	by_total_sort = by_total;
	if (n)
		qsort(picked, n, 2 * sizeof *picked, larger_node);
	return n;
}

/* Where labels went: a label is left out rather than drawn over another. */
struct boxes {
	double x[MAX_LABELS][4];
	size_t n;
};

static int free_at(const struct boxes *b, const struct plot_panel *p, const double *box)
{
	if (box[0] < p->x || box[2] > p->x + p->w || box[1] < p->y || box[3] > p->y + p->h)
		return 0;
	for (size_t i = 0; i < b->n; i++)
		if (box[0] < b->x[i][2] && b->x[i][0] < box[2] && box[1] < b->x[i][3] && b->x[i][1] < box[3])
			return 0;
	return 1;
}

/* A label beside the point at (x, y): right, left, above or below, where it is free. */
static void place_label(struct plot_panel *p, struct boxes *b, double x, double y, const char *name, size_t len)
{
	size_t chars;
	svg_first_characters(name, len, 18, &chars);
	double w = 6.2 * (double)(chars < 18 ? chars : 18), h = 11;
	double at[4][2] = { { x + 5, y - h / 2 }, { x - 5 - w, y - h / 2 }, { x - w / 2, y - 5 - h },
			    { x - w / 2, y + 5 } };
	for (int i = 0; i < 4 && b->n < MAX_LABELS; i++) {
		double box[4] = { at[i][0], at[i][1], at[i][0] + w, at[i][1] + h };
		if (free_at(b, p, box)) {
			memcpy(b->x[b->n++], box, sizeof box);
			plot_text(p, box[0], box[3] - 2, "start", 0, name, len, 18);
			return;
		}
	}
}

static void node_point(struct plot_panel *p, struct sprof *s, uint32_t key, int log, struct boxes *labels)
{
	const struct sprof_node *n = &s->nodes[key];
	size_t len;
	const char *name = sprof_name(s, key, &len);
	char values[96];
	double x = plot_x(p, (double)n->self + log), y = plot_y(p, (double)n->total);
	svg_printf(p->out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"rgb(255,255,255)\" "
			   "stroke=\"rgb(0,0,0)\">", x, y);
	snprintf(values, sizeof values, "self %" PRId64 ", total %" PRId64, n->self, n->total);
	plot_title(p, values, name, len);
	output_str(p->out, "</circle>\n");
	place_label(p, labels, x, y, name, len);
}

/* plot_nodes 1 and 4: self against total, labelled; log: x is self + 1. */
static void nodes_scatter(struct plotter *pl, int col, int log, uint32_t *picked)
{
	struct sprof *s = pl->s;
	size_t permanent, n = pick_nodes(pl, 1, 0, picked, &permanent), shown = n < MAX_POINTS ? n : MAX_POINTS;
	int64_t max_self = 0, max_total = 1, min_total = INT64_MAX;
	for (size_t i = 0; i < shown; i++) {
		const struct sprof_node *node = &s->nodes[picked[2 * i]];
		max_self = node->self > max_self ? node->self : max_self;
		max_total = node->total > max_total ? node->total : max_total;
		min_total = node->total < min_total ? node->total : min_total;
	}
	struct plot_panel p = panel_at(pl, log ? "nodes-log" : "nodes-time",
				       log ? "Nodes by time (log-log)" : "Nodes by time", col, 2, 300);
	plot_axis_fit(&p.xa, log, (double)max_self + log, log, 0, log ? "self + 1 (samples)" : "self (samples)");
	plot_axis_fit(&p.ya, log && shown ? (double)min_total : 0, (double)max_total, log, HEADROOM,
		      "total (samples)");
	plot_panel_begin(&p);
	struct boxes labels = { .n = 0 };
	for (size_t i = 0; i < shown; i++)
		node_point(&p, s, picked[2 * i], log, &labels);
	struct legend l = { .n = 0 };
	legend_add(&l, (int64_t)s->n_nodes, "nodes", "");
	legend_add(&l, (int64_t)permanent, "permanent (on every sample) omitted", "");
	legend_add(&l, (int64_t)(n - shown), "more not drawn", "");
	end_with_legend(&p, &l);
}

/* A bar from 0 to value, `i` of `n` along x, its title `values: name`, labelled below. */
static void bar(struct plot_panel *p, size_t i, size_t n, int64_t value, const char *values, const char *name,
		size_t len, const char *label, size_t label_len)
{
	double slot = p->w / (double)(n ? n : 1), x = p->x + slot * ((double)i + 0.1);
	double top = plot_y(p, (double)value);
	svg_printf(p->out, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"rgb(190,190,190)\" "
			   "stroke=\"rgb(0,0,0)\" stroke-width=\"0.5\">", x, top, slot * 0.8, plot_y(p, 0) - top);
	plot_title(p, values, name, len);
	output_str(p->out, "</rect>\n");
	plot_text(p, x + slot * 0.4 + 3, p->y + p->h + 6, "end", -90, label, label_len, 16);
}

/* plot_nodes 2 and 3: bars of self (of those with some) or of total, largest first. */
static void nodes_bars(struct plotter *pl, int col, int by_total, uint32_t *picked)
{
	struct sprof *s = pl->s;
	size_t permanent, all = pick_nodes(pl, by_total, 0, picked, &permanent);
	size_t n = pick_nodes(pl, by_total, pl->mincount, picked, &permanent), shown = n < MAX_BARS ? n : MAX_BARS;
	struct plot_panel p = panel_at(pl, by_total ? "nodes-total" : "nodes-self",
				       by_total ? "Nodes: total time in stack" : "Nodes: time as last of stack",
				       col, 2, 220);
	plot_axis_none(&p.xa, NULL);
	plot_axis_fit(&p.ya, 0, shown ? (double)node_value(picked[0]) : 1, 0, HEADROOM,
		      by_total ? "total (samples)" : "self (samples)");
	plot_panel_begin(&p);
	for (size_t i = 0; i < shown; i++) {
		size_t len;
		const char *name = sprof_name(s, picked[2 * i], &len);
		char values[64];
		snprintf(values, sizeof values, "%s %" PRId64, by_total ? "total" : "self", node_value(picked[2 * i]));
		bar(&p, i, shown, node_value(picked[2 * i]), values, name, len, name, len);
	}
	struct legend l = { .n = 0 };
	legend_add(&l, (int64_t)s->n_nodes, "nodes", "");
	legend_add(&l, (int64_t)(all - n), "with fewer than ", pl->under);
	legend_add(&l, (int64_t)permanent, "permanent (on every sample) omitted", "");
	legend_add(&l, (int64_t)(n - shown), "more not drawn", "");
	end_with_legend(&p, &l);
}

/* ---- stacks ---- */

static int larger_stack(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	int64_t vx = sorting->stacks[x].count, vy = sorting->stacks[y].count;
	return vx != vy ? (vx < vy ? 1 : -1) : (x > y) - (x < y);
}

/* The stacks of at least mincount records, largest first. */
static size_t pick_stacks(struct plotter *pl, uint32_t *picked)
{
	size_t n = 0;
	for (size_t i = 0; i < pl->s->n_stacks; i++)
		if (pl->s->stacks[i].count >= pl->mincount)
			picked[n++] = (uint32_t)i;
	sorting = pl->s;
	if (n)
		qsort(picked, n, sizeof *picked, larger_stack);
	return n;
}

static void stacks_legend(struct plotter *pl, struct plot_panel *p, size_t n, size_t shown)
{
	struct legend l = { .n = 0 };
	legend_add(&l, (int64_t)pl->s->n_stacks, "stacks", "");
	legend_add(&l, (int64_t)(pl->s->n_stacks - n), "with fewer than ", pl->under);
	legend_add(&l, (int64_t)(n - shown), "more not drawn", "");
	end_with_legend(p, &l);
}

/* plot_stacks 1: each stack's length against its refcount. */
static void stacks_scatter(struct plotter *pl, uint32_t *picked)
{
	struct sprof *s = pl->s;
	size_t n = pick_stacks(pl, picked), shown = n < MAX_POINTS ? n : MAX_POINTS;
	uint32_t longest = 1;
	for (size_t i = 0; i < shown; i++)
		if (s->seqs[s->stacks[picked[i]].seq].depth > longest)
			longest = s->seqs[s->stacks[picked[i]].seq].depth;
	struct plot_panel p = panel_at(pl, "stacks-length", "Stacks: length by reference count", 0, 2, 220);
	plot_axis_fit(&p.xa, 0, shown ? (double)s->stacks[picked[0]].count : 1, 0, 0, "refcount (samples)");
	plot_axis_fit(&p.ya, 0, longest, 0, HEADROOM, "stack length");
	plot_panel_begin(&p);
	for (size_t i = 0; i < shown; i++) {
		const struct sprof_stack *st = &s->stacks[picked[i]];
		char values[96];
		snprintf(values, sizeof values, "stack %" PRIu32 ": refcount %" PRId64 ", length %" PRIu32,
			 picked[i] + 1, st->count, s->seqs[st->seq].depth);
		svg_printf(p.out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"rgb(255,255,255)\" "
				  "stroke=\"rgb(0,0,0)\">", plot_x(&p, (double)st->count),
			   plot_y(&p, s->seqs[st->seq].depth));
		plot_title(&p, values, NULL, 0);
		output_str(p.out, "</circle>\n");
	}
	stacks_legend(pl, &p, n, shown);
}

/* plot_stacks 2: bars of refcount, largest first, named by stack number. */
static void stacks_bars(struct plotter *pl, uint32_t *picked)
{
	struct sprof *s = pl->s;
	size_t n = pick_stacks(pl, picked), shown = n < MAX_BARS ? n : MAX_BARS;
	struct plot_panel p = panel_at(pl, "stacks-refcount", "Stacks by reference count", 1, 2, 220);
	plot_axis_none(&p.xa, "stack");
	plot_axis_fit(&p.ya, 0, shown ? (double)s->stacks[picked[0]].count : 1, 0, HEADROOM, "refcount (samples)");
	plot_panel_begin(&p);
	for (size_t i = 0; i < shown; i++) {
		char values[64], label[16];
		snprintf(values, sizeof values, "stack %" PRIu32 ": refcount %" PRId64, picked[i] + 1,
			 s->stacks[picked[i]].count);
		snprintf(label, sizeof label, "%" PRIu32, picked[i] + 1);
		bar(&p, i, shown, s->stacks[picked[i]].count, values, NULL, 0, label, strlen(label));
	}
	stacks_legend(pl, &p, n, shown);
}

/* ---- events ---- */

/* A mark of an event panel: records first..last, values lo..hi. */
struct piece {
	uint64_t first, last;
	int64_t lo, hi;
};

/*
 * What an event panel draws: each piece as it came while there are few
 * (exact), else one per column of `per` records, spanning their values;
 * for the strip (`mostly`) the value of the column's longest stretch.
 */
struct series {
	const char *what; /* "stack", "refcount", a memory counter ... */
	int exact, mostly;
	uint64_t per, len;
	struct piece *pieces;
	size_t n, cap;
	uint64_t column, best; /* the column being filled (UINT64_MAX: none), its longest stretch */
};

static void series_init(struct series *se, const char *what, int exact, uint64_t len, double width, int mostly)
{
	uint64_t columns = (uint64_t)width > 0 ? (uint64_t)width : 1;
	*se = (struct series){ .what = what, .exact = exact, .mostly = mostly, .len = len,
			       .per = len / columns + (len % columns != 0), .column = UINT64_MAX };
	if (se->per == 0)
		se->per = 1;
}

static void push(struct series *se, struct piece piece)
{
	grow((void **)&se->pieces, &se->cap, se->n + 1, sizeof *se->pieces);
	se->pieces[se->n++] = piece;
}

/* Records first..last of one value, into the column they fall in. */
static void add_to_column(struct series *se, uint64_t first, uint64_t last, int64_t value)
{
	uint64_t column = (first - 1) / se->per, stretch = last - first + 1;
	if (column != se->column) {
		uint64_t end = (column + 1) * se->per;
		push(se, (struct piece){ column * se->per + 1, end < se->len ? end : se->len, value, value });
		se->column = column;
		se->best = stretch;
		return;
	}
	struct piece *p = &se->pieces[se->n - 1];
	if (se->mostly && stretch > se->best) {
		p->lo = p->hi = value;
		se->best = stretch;
	} else if (!se->mostly) {
		p->lo = value < p->lo ? value : p->lo;
		p->hi = value > p->hi ? value : p->hi;
	}
}

/* `count` records from `first` on, all of `value`. */
static void series_add(struct series *se, uint64_t first, uint64_t count, int64_t value)
{
	if (count == 0)
		return;
	if (se->exact) {
		push(se, (struct piece){ first, first + count - 1, value, value });
		return;
	}
	for (uint64_t at = first, last = first + count - 1; at <= last;) {
		uint64_t end = ((at - 1) / se->per + 1) * se->per;
		add_to_column(se, at, end < last ? end : last, value);
		at = (end < last ? end : last) + 1;
	}
}

/* The changes of a memory counter: at a row's first record, then none within it. */
static void add_change(struct series *se, uint64_t first, uint64_t count, uint64_t now, uint64_t before)
{
	if (first > 1)
		series_add(se, first, 1, (int64_t)(now - before));
	series_add(se, first + 1, count - 1, 0);
}

enum { IDS, REFCOUNTS, LENGTHS, STRIP, SMALL_V, BIG_V, NODES, DUPS, N_SERIES };

static const char *const series_names[N_SERIES] = { "stack", "refcount", "length", "stack", "vsize.small",
						     "vsize.large", "nodes", "duplications" };

static uint64_t counter(const struct model_memory *m, int which)
{
	return which == SMALL_V ? m->small_v : which == BIG_V ? m->big_v : which == NODES ? m->nodes : m->dup_count;
}

/* A run of records of one stack ends: its id, refcount, length and colour. */
static void add_run(struct plotter *pl, struct series *se, uint64_t first, uint64_t count, uint32_t stack)
{
	const struct sprof_stack *st = &pl->s->stacks[stack];
	series_add(&se[IDS], first, count, stack + 1);
	series_add(&se[REFCOUNTS], first, count, st->count);
	series_add(&se[LENGTHS], first, count, pl->s->seqs[st->seq].depth);
	series_add(&se[STRIP], first, count, stack + 1);
}

/* The profile once more, in order: the runs of stacks and the memory counters' changes. */
static void stream_events(struct plotter *pl, struct series *se)
{
	struct sprof *s = pl->s;
	int64_t *values = xmalloc((s->view.n_types + 1) * sizeof *values);
	uint64_t event = 1, run_first = 1;
	uint32_t run_stack = MODEL_NONE;
	struct model_memory before = { 0 };
	struct view v;
	view_init(&v, s->m);
	struct row_cursor rows;
	rows_begin(s->m, &rows);
	for (const struct model_row *row; (row = rows_next(&rows));) {
		view_values(&v, row, values);
		int64_t count = sprof_row_count(s, values);
		if (count <= 0)
			continue;
		uint32_t stack = sprof_stack_of(s, row->stack);
		if (stack != run_stack && run_stack != MODEL_NONE)
			add_run(pl, se, run_first, event - run_first, run_stack);
		run_first = stack != run_stack ? event : run_first;
		run_stack = stack;
		for (int c = SMALL_V; c < N_SERIES && s->m->sessions.has_memory; c++)
			add_change(&se[c], event, (uint64_t)count, counter(&row->memory, c), counter(&before, c));
		before = row->memory;
		event += (uint64_t)count;
	}
	rows_end(&rows);
	if (run_stack != MODEL_NONE)
		add_run(pl, se, run_first, event - run_first, run_stack);
	free(values);
}

static void range_text(char *text, size_t size, const struct series *se, const struct piece *pc)
{
	int n = snprintf(text, size, "events %" PRIu64 "..%" PRIu64 ": %s%s %" PRId64, pc->first, pc->last,
			 se->mostly && !se->exact ? "mostly " : "", se->what, pc->lo);
	if (pc->hi != pc->lo && n > 0 && (size_t)n < size)
		snprintf(text + n, size - (size_t)n, "..%" PRId64, pc->hi);
}

/* A dash at its value over its records, or a bar from a column's smallest value to its largest. */
static void dash(struct plot_panel *p, const struct series *se, const struct piece *pc)
{
	double x1 = plot_x(p, (double)pc->first - 0.5), x2 = plot_x(p, (double)pc->last + 0.5);
	double y1 = plot_y(p, (double)pc->hi) - 1.5, y2 = plot_y(p, (double)pc->lo) + 1.5, mid = (x1 + x2) / 2;
	double w = x2 - x1 < 1.5 ? 1.5 : x2 - x1;
	char text[160];
	svg_printf(p->out, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"rgb(0,0,0)\">",
		   mid - w / 2, y1, w, y2 - y1);
	range_text(text, sizeof text, se, pc);
	plot_title(p, text, NULL, 0);
	output_str(p->out, "</rect>\n");
}

static void series_legend(struct plot_panel *p, const struct sprof *s, const struct series *se, const char *what)
{
	struct legend l = { .n = 0 };
	legend_add(&l, s->len, "records", what);
	if (!se->exact)
		legend_add(&l, (int64_t)se->per, "records a mark: ",
			   se->mostly ? "the stack of their longest run" : "their least to their most");
	end_with_legend(p, &l);
}

/* plot_profiles 1-3 and 5-8: a value by record. */
static void series_panel(struct plotter *pl, const struct series *se, const char *id, const char *title,
			 int col, int cols, const char *ylab, const char *what)
{
	int64_t lo = 0, hi = 1;
	for (size_t i = 0; i < se->n; i++) {
		lo = se->pieces[i].lo < lo ? se->pieces[i].lo : lo;
		hi = se->pieces[i].hi > hi ? se->pieces[i].hi : hi;
	}
	struct plot_panel p = panel_at(pl, id, title, col, cols, cols > 3 ? 160 : 200);
	plot_axis_span(&p.xa, 0.5, (double)pl->s->len + 0.5, "event (sample)");
	plot_axis_fit(&p.ya, (double)lo, (double)hi, 0, HEADROOM / 2, ylab);
	plot_panel_begin(&p);
	for (size_t i = 0; i < se->n; i++)
		dash(&p, se, &se->pieces[i]);
	series_legend(&p, pl->s, se, what);
}

/* plot_profiles 4: one strip, each record coloured by its stack id (R's rainbow over the ids). */
static void strip_panel(struct plotter *pl, const struct series *se)
{
	struct plot_panel p = panel_at(pl, "profiles-strip", "stacks by event", 0, 1, 40);
	plot_axis_span(&p.xa, 0.5, (double)pl->s->len + 0.5, "event (sample)");
	plot_axis_none(&p.ya, NULL);
	plot_panel_begin(&p);
	for (size_t i = 0; i < se->n; i++) {
		const struct piece *pc = &se->pieces[i];
		double x1 = plot_x(&p, (double)pc->first - 0.5), x2 = plot_x(&p, (double)pc->last + 0.5);
		char fill[32], text[160];
		svg_hsl(360.0 * (double)(pc->lo - 1) / (double)pl->s->n_stacks, 1, 0.5, fill, sizeof fill);
		svg_printf(p.out, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" fill=\"%s\">", x1, p.y,
			   x2 - x1, p.h, fill);
		range_text(text, sizeof text, se, pc);
		plot_title(&p, text, NULL, 0);
		output_str(p.out, "</rect>\n");
	}
	series_legend(&p, pl->s, se, ", coloured by stack id");
}

/* ---- the page ---- */

static double row_height(double plot_height, int bars)
{
	return TOP + plot_height + (bars ? BAR_BOTTOM : BOTTOM);
}

/* Rows: nodes' points, nodes' bars, stacks, three by event, the strip, and memory. */
static double page_height(const struct sprof *s)
{
	return 60 + row_height(300, 0) + 2 * row_height(220, 1) + row_height(200, 0) + row_height(40, 0) +
	       (s->m->sessions.has_memory ? row_height(160, 0) : 0);
}

static void events_rows(struct plotter *pl)
{
	struct sprof *s = pl->s;
	struct series se[N_SERIES];
	double width3 = PAGE_WIDTH / 3.0 - LEFT - RIGHT, width4 = PAGE_WIDTH / 4.0 - LEFT - RIGHT;
	for (int i = 0; i < N_SERIES; i++)
		series_init(&se[i], series_names[i], i < SMALL_V ? s->runs <= MAX_RUNS : s->m->n_rows * 2 <= MAX_RUNS,
			    (uint64_t)s->len, i == STRIP ? PAGE_WIDTH - LEFT - RIGHT : i < SMALL_V ? width3 : width4,
			    i == STRIP);
	stream_events(pl, se);
	series_panel(pl, &se[IDS], "profiles-ids", "stack ids by event", 0, 3, "stack id", ", in stacks' runs");
	series_panel(pl, &se[REFCOUNTS], "profiles-refcount", "stack reference count by event", 1, 3,
		     "refcount (samples)", ", in stacks' runs");
	series_panel(pl, &se[LENGTHS], "profiles-length", "stack length by event", 2, 3, "stack length",
		     ", in stacks' runs");
	pl->top += row_height(200, 0);
	strip_panel(pl, &se[STRIP]);
	pl->top += row_height(40, 0);
	static const char *const ids[] = { "memory-vsize-small", "memory-vsize-large", "memory-nodes",
					   "memory-duplications" };
	for (int c = SMALL_V; c < N_SERIES && s->m->sessions.has_memory; c++) {
		char title[64];
		snprintf(title, sizeof title, "%s by event", series_names[c]);
		series_panel(pl, &se[c], ids[c - SMALL_V], title, c - SMALL_V, 4, "change", ", as R counts them");
	}
	for (int i = 0; i < N_SERIES; i++)
		free(se[i].pieces);
}

static void subtitle(const struct plotter *pl, char *text, size_t size)
{
	const struct sprof *s = pl->s;
	uint32_t source = model_get_meta(s->m, "source");
	char seconds[64] = "", label[48];
	if (s->time_type != SIZE_MAX) {
		/* In units, as the summary writes times: "(940ms)". */
		units_label(label, sizeof label, (double)s->time * s->ns_per_time_value, "nanoseconds");
		snprintf(seconds, sizeof seconds, " (%s)", label);
	}
	snprintf(text, size, "%s: %" PRId64 " %s%s, %zu stacks, %zu functions, %s", source == HASHIDX_NONE ? "profile"
		 : model_cstr(s->m, source), s->len, view_type(&s->view, s->type), seconds, s->n_stacks, s->n_nodes,
		 s->view.ticks ? "in time order" : "in the order of the file (it has no time order)");
}

static void draw(struct plotter *pl)
{
	struct sprof *s = pl->s;
	char sub[512];
	subtitle(pl, sub, sizeof sub);
	plot_page_begin(pl->out, PAGE_WIDTH, page_height(s), "sprof", sub, &pl->replaced);
	uint32_t *picked = xmalloc((2 * s->n_nodes + s->n_stacks + 1) * sizeof *picked);
	pl->top = 60;
	nodes_scatter(pl, 0, 0, picked);
	nodes_scatter(pl, 1, 1, picked);
	pl->top += row_height(300, 0);
	nodes_bars(pl, 0, 0, picked);
	nodes_bars(pl, 1, 1, picked);
	pl->top += row_height(220, 1);
	stacks_scatter(pl, picked);
	stacks_bars(pl, picked);
	pl->top += row_height(220, 1);
	free(picked);
	events_rows(pl);
	plot_page_end(pl->out);
}

static int sprofplot_write(const struct model *m, struct output *out, const struct write_options *opts)
{
	struct sprof s;
	const char *mincount = write_option(opts, "mincount");
	struct plotter pl = { .s = &s, .out = out,
			      .mincount = mincount ? (int64_t)strtoull(mincount, NULL, 10) : DEFAULT_MINCOUNT };
	int rc = sprof_init(&s, m, opts->sample_type, out);
	if (rc == 0 && s.len == 0) {
		diag_error(opts->input ? opts->input : out->name, 0, "no samples: nothing to draw");
		rc = -1;
	}
	if (rc == 0) {
		snprintf(pl.under, sizeof pl.under, "%" PRId64 " %s omitted", pl.mincount, "samples");
		draw(&pl);
	}
	if (pl.replaced)
		diag_warn(out->name, 0, "names that are not UTF-8: bad bytes written as U+FFFD");
	sprof_free(&s);
	return rc;
}

const struct format format_sprofplot = {
	.name = "sprofplot",
	.description = "sprof's plots of nodes, stacks and events, one static SVG (write only)",
	.extensions = (const char *const[]){ ".sprof.svg", NULL },
	.binary = 0,
	.probe = NULL,
	.read = NULL,
	.options = sprofplot_options,
	.write = sprofplot_write,
};
