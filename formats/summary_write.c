/*
 * summary writer: text for people. The profile as a whole (source and
 * format, sample type, interval, samples, total, distinct stacks, runs),
 * then every function by self and by total with percentages, as R's
 * summaryRprof (by.self, by.total) and `go tool pprof -top` count them:
 * per function name, self from the innermost frame, total once per sample
 * however often the name recurs in it. --sample-type picks the type.
 * Values of a type with decimals are written with all of them.
 *
 * --top N keeps each table's first N functions (0: all; prof gives a
 * terminal 20, as go tool pprof -top shows a screenful).
 *
 * A difference (--diff-base) gets one table instead: each function's self
 * and total in the base, in the profile, and the change, the largest
 * change (of total, then of self, either sign) first.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/aggregate.h"
#include "../base/alloc.h"
#include "../base/numtext.h"
#include "format.h"

struct summary {
	const struct model *m;
	struct output *out;
	struct view view;
	size_t type;
	int64_t total;
	size_t top; /* --top: rows per table; 0: all */
};

static void label(struct output *out, const char *text)
{
	char padded[24];
	snprintf(padded, sizeof padded, "%-16s ", text);
	output_str(out, padded);
}

static void line(struct output *out, const char *text, const char *value)
{
	label(out, text);
	output_str(out, value);
	output_byte(out, '\n');
}

/* A value of type `type`, with its decimals. */
static const char *value_text(const struct view *v, size_t type, int64_t value, char text[DECIMAL_TEXT_MAX])
{
	decimal_text(text, value, view_decimals(v, type), 0);
	return text;
}

static const char *meta(const struct model *m, const char *key, const char *otherwise)
{
	uint32_t v = model_get_meta(m, key);
	return v == HASHIDX_NONE ? otherwise : model_cstr(m, v);
}

static void write_interval(struct summary *s)
{
	const struct model *m = s->m;
	char text[160];
	size_t len = 0;
	for (size_t r = 0; r < m->sessions.n_runs && len < sizeof text - 40; r++)
		if (r == 0 || m->sessions.runs[r].interval_us != m->sessions.runs[r - 1].interval_us)
			len += (size_t)snprintf(text + len, sizeof text - len, "%s%" PRIu64,
						len ? ", " : "", m->sessions.runs[r].interval_us);
	if (m->sessions.n_runs) {
		snprintf(text + len, sizeof text - len, " microseconds");
		line(s->out, "interval:", text);
	} else if (model_get_meta(m, "period") != HASHIDX_NONE) {
		label(s->out, "period:");
		output_str(s->out, meta(m, "period", ""));
		output_byte(s->out, ' ');
		output_str(s->out, meta(m, "period_unit", ""));
		output_str(s->out, " (");
		output_str(s->out, meta(m, "period_type", ""));
		output_str(s->out, ")\n");
	}
}

static void write_header(struct summary *s, size_t distinct_stacks)
{
	const struct model *m = s->m;
	char text[200];
	label(s->out, "source:");
	output_str(s->out, meta(m, "source", "?"));
	output_str(s->out, " (");
	output_str(s->out, meta(m, "format", "?"));
	output_str(s->out, ")\n");
	label(s->out, "sample type:");
	output_str(s->out, view_type(&s->view, s->type));
	output_str(s->out, " (");
	output_str(s->out, view_unit(&s->view, s->type));
	output_str(s->out, ")\n");
	write_interval(s);
	int64_t *values = xmalloc((s->view.n_types + 1) * sizeof *values);
	int64_t samples = 0;
	struct view v;
	view_init(&v, m);
	size_t count_type = SIZE_MAX, time_type = SIZE_MAX;
	double seconds_per_unit = 0;
	for (size_t t = 0; t < v.n_types; t++) {
		double scale = 1e-9 * view_ns_per_value(view_unit(&v, t), view_decimals(&v, t));
		if (count_type == SIZE_MAX && strcmp(view_type(&v, t), "samples") == 0)
			count_type = t;
		if (time_type == SIZE_MAX && scale > 0) {
			time_type = t;
			seconds_per_unit = scale;
		}
	}
	int64_t time = 0;
	char number[DECIMAL_TEXT_MAX];
	struct row_cursor rows;
	rows_begin(m, &rows);
	for (const struct model_row *row; (row = rows_next(&rows));) {
		view_values(&v, row, values);
		samples += count_type == SIZE_MAX ? (int64_t)row->repeat : values[count_type];
		time += time_type == SIZE_MAX ? 0 : values[time_type];
		s->total += values[s->type];
	}
	rows_end(&rows);
	free(values);
	/* Without a samples type, samples are the rows' repeats: whole. */
	decimal_text(number, samples, count_type == SIZE_MAX ? 0 : view_decimals(&v, count_type), 0);
	line(s->out, "samples:", number);
	if (time_type != SIZE_MAX) {
		snprintf(text, sizeof text, "%.3f seconds (%s)", (double)time * seconds_per_unit,
			 view_type(&v, time_type));
		line(s->out, "total time:", text);
	}
	snprintf(text, sizeof text, "%s %s", value_text(&s->view, s->type, s->total, number),
		 view_unit(&s->view, s->type));
	line(s->out, "total:", text);
	snprintf(text, sizeof text, "%zu", distinct_stacks);
	line(s->out, "distinct stacks:", text);
	snprintf(text, sizeof text, "%zu", m->sessions.n_runs ? m->sessions.n_runs : 1);
	line(s->out, "runs:", text);
}

static const struct strtab *sort_names;
static int by_total;

static int compare(const void *a, const void *b)
{
	const struct name_ticks *x = a, *y = b;
	int64_t kx = by_total ? x->total : x->self, ky = by_total ? y->total : y->self;
	int64_t lx = by_total ? x->self : x->total, ly = by_total ? y->self : y->total;
	if (kx != ky)
		return kx < ky ? 1 : -1;
	if (lx != ly)
		return lx < ly ? 1 : -1;
	return strcmp(strtab_get(sort_names, x->name)->bytes, strtab_get(sort_names, y->name)->bytes);
}

/* A table row's function, and the row's end. */
static void write_name(struct summary *s, const struct name_totals *totals, uint32_t name)
{
	const struct strtab_entry *e = strtab_get(&totals->names, name);
	if (e->len)
		output_write(s->out, e->bytes, e->len);
	else
		output_str(s->out, "<unknown>");
	output_byte(s->out, '\n');
}

static void write_table(struct summary *s, struct name_totals *totals, int total_first)
{
	char text[160], self[DECIMAL_TEXT_MAX], total[DECIMAL_TEXT_MAX];
	struct name_ticks *t = totals->rows;
	size_t n = totals->n;
	by_total = total_first;
	sort_names = &totals->names;
	if (n)
		qsort(t, n, sizeof *t, compare);
	output_str(s->out, total_first ? "\nby total:\n" : "\nby self:\n");
	output_str(s->out, "          self   self%         total  total%  function\n");
	double whole = s->total ? (double)s->total : 1.0;
	size_t shown = s->top && s->top < n ? s->top : n;
	for (size_t i = 0; i < shown; i++) {
		snprintf(text, sizeof text, "%14s %6.2f%% %14s %6.2f%%  ",
			 value_text(&s->view, s->type, t[i].self, self), 100.0 * (double)t[i].self / whole,
			 value_text(&s->view, s->type, t[i].total, total), 100.0 * (double)t[i].total / whole);
		output_str(s->out, text);
		write_name(s, totals, t[i].name);
	}
	if (shown < n) {
		snprintf(text, sizeof text, "(%zu more; --top 0 shows all)\n", n - shown);
		output_str(s->out, text);
	}
}

static int64_t magnitude(int64_t v)
{
	return v < 0 ? (v == INT64_MIN ? INT64_MAX : -v) : v;
}

static int compare_changes(const void *a, const void *b)
{
	const struct name_ticks *x = a, *y = b;
	int64_t kx = magnitude(x->total), ky = magnitude(y->total);
	int64_t lx = magnitude(x->self), ly = magnitude(y->self);
	if (kx != ky)
		return kx < ky ? 1 : -1;
	if (lx != ly)
		return lx < ly ? 1 : -1;
	return strcmp(strtab_get(sort_names, x->name)->bytes, strtab_get(sort_names, y->name)->bytes);
}

/* A column of the change table: a value of the summary's type, "+" before a change that grew. */
static void change_cell(struct summary *s, int64_t value, int is_change)
{
	char number[DECIMAL_TEXT_MAX], text[DECIMAL_TEXT_MAX + 2], cell[DECIMAL_TEXT_MAX + 16];
	value_text(&s->view, s->type, value, number);
	snprintf(text, sizeof text, "%s%s", is_change && value > 0 ? "+" : "", number);
	snprintf(cell, sizeof cell, "%14s", text);
	output_str(s->out, cell);
}

static void write_changes(struct summary *s, struct name_totals *totals)
{
	struct name_ticks *t = totals->rows;
	sort_names = &totals->names;
	if (totals->n)
		qsort(t, totals->n, sizeof *t, compare_changes);
	output_str(s->out, "\nby change (the profile minus --diff-base's):\n"
			   "     self base      self new   self change    total base     total new  total change  function\n");
	for (size_t i = 0; i < totals->n; i++) {
		change_cell(s, t[i].base_self, 0);
		change_cell(s, t[i].base_self + t[i].self, 0);
		change_cell(s, t[i].self, 1);
		change_cell(s, t[i].base_total, 0);
		change_cell(s, t[i].base_total + t[i].total, 0);
		change_cell(s, t[i].total, 1);
		output_str(s->out, "  ");
		write_name(s, totals, t[i].name);
	}
}

static size_t count_distinct_stacks(const struct model *m)
{
	unsigned char *seen = xcalloc(m->n_stacks, 1);
	size_t n = 0;
	struct row_cursor rows;
	rows_begin(m, &rows);
	for (const struct model_row *row; (row = rows_next(&rows));)
		n += !seen[row->stack]++;
	rows_end(&rows);
	free(seen);
	return n;
}

int summary_write(const struct model *m, struct output *out, const struct write_options *opts)
{
	const char *top = write_option(opts, "top");
	struct summary s = { m, out, { 0 }, 0, 0, top ? (size_t)strtoull(top, NULL, 10) : 0 };
	view_init(&s.view, m);
	if (s.view.n_types && view_pick(&s.view, opts->sample_type, VIEW_WEIGHT, out->name, &s.type) < 0)
		return -1;
	if (!s.view.n_types) {
		output_str(out, "empty profile: no sample types\n");
		return 0;
	}
	write_header(&s, count_distinct_stacks(m));
	struct name_totals totals;
	view_init(&s.view, m);
	aggregate_by_name(&s.view, s.type, &totals);
	if (s.view.diff_key != MODEL_NONE) {
		write_changes(&s, &totals);
	} else {
		write_table(&s, &totals, 0);
		write_table(&s, &totals, 1);
	}
	name_totals_free(&totals);
	return 0;
}

static const char *whole_number(const char *value)
{
	char *end;
	strtoull(value, &end, 10);
	return end == value || *end || value[0] == '-' ? "a whole number" : NULL;
}

static const struct format_option summary_options[] = {
	{ "top", "N", "list the first N functions by self and by total (0: all; default: all, "
		      "but 20 to a terminal)", whole_number },
	{ NULL, NULL, NULL, NULL },
};

const struct format format_summary = {
	.name = "summary",
	.description = "text for people: totals, then functions by self and by total (write only)",
	.extensions = (const char *const[]){ ".summary.txt", NULL },
	.binary = 0,
	.probe = NULL,
	.read = NULL,
	.write = summary_write,
	.options = summary_options,
};
