/*
 * summary writer: text for people. The profile as a whole (source and
 * format, sample type, interval, then what is true of the type shown:
 * its samples, the time they took when the type is no time itself, its
 * total, their distinct stacks, R's runs), then every function by self and by
 * total with percentages, as R's summaryRprof (by.self, by.total) and
 * `go tool pprof -top` count them: per function name, self from the
 * innermost frame, total once per sample however often the name recurs
 * in it. --sample-type picks the type.
 *
 * Times and sizes are in a person's units, as go tool pprof prints them
 * (render/units.h: 2.15s, 1.50MB), counts as they are, every decimal;
 * --exact writes times and sizes so too, for scripts. Percentages are pprof's
 * (percent_total): of the whole profile under --focus, --ignore, --show
 * and --hide, of the base's total in a difference.
 *
 * --top N keeps each table's first N functions (0: all; prof gives a
 * terminal 20, as go tool pprof -top shows a screenful).
 *
 * A difference (--diff-base) says so in its header and gets one table
 * instead: each function's self and total in the base, in the profile,
 * and the change with its percentage, the largest change (of total, then
 * of self, either sign) first.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/aggregate.h"
#include "../model/diff.h"
#include "../base/alloc.h"
#include "../base/numtext.h"
#include "../render/units.h"
#include "format.h"

/* Room for a value as text: a number with its decimals, or a label in units. */
enum { VALUE_TEXT_MAX = 64 };

struct summary {
	const struct model *m;
	struct output *out;
	struct view view;
	size_t type;
	int exact; /* --exact */
	int64_t total;   /* of the profile's samples (a difference's: the change) */
	int64_t percent_of; /* what percentages are of (percent_total) */
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

/* A value of type `type` as a person reads it (with --exact: with all its decimals). */
static const char *value_in(const struct summary *s, size_t type, int64_t value, char text[VALUE_TEXT_MAX])
{
	unsigned decimals = view_decimals(&s->view, type);
	if (s->exact || !units_scaled(view_unit(&s->view, type))) {
		decimal_text(text, value, decimals, 0);
		return text;
	}
	units_label(text, VALUE_TEXT_MAX, (double)value / (double)pow10_i64(decimals), view_unit(&s->view, type));
	return text;
}

static const char *value_text(const struct summary *s, int64_t value, char text[VALUE_TEXT_MAX])
{
	return value_in(s, s->type, value, text);
}

static const char *meta(const struct model *m, const char *key, const char *otherwise)
{
	uint32_t v = model_get_meta(m, key);
	return v == HASHIDX_NONE ? otherwise : model_cstr(m, v);
}

/* A time or period in `unit` as a person reads it, or as it is with --exact. */
static void time_text(const struct summary *s, char *text, size_t size, const char *number, const char *unit)
{
	double value;
	if (s->exact || sscanf(number, "%lf", &value) != 1 || !units_scaled(unit))
		snprintf(text, size, "%s %s", number, unit);
	else
		units_label(text, size, value, unit);
}

static void write_interval(struct summary *s)
{
	const struct model *m = s->m;
	char text[160], number[32], one[VALUE_TEXT_MAX];
	size_t len = 0;
	for (size_t r = 0; r < m->sessions.n_runs && len < sizeof text - 40; r++)
		if (r == 0 || m->sessions.runs[r].interval_us != m->sessions.runs[r - 1].interval_us) {
			snprintf(number, sizeof number, "%" PRIu64, m->sessions.runs[r].interval_us);
			time_text(s, one, sizeof one, number, "microseconds");
			len += (size_t)snprintf(text + len, sizeof text - len, "%s%s", len ? ", " : "", one);
		}
	if (m->sessions.n_runs) {
		line(s->out, "interval:", text);
	} else if (model_get_meta(m, "period") != HASHIDX_NONE) {
		time_text(s, one, sizeof one, meta(m, "period", ""), meta(m, "period_unit", ""));
		snprintf(text, sizeof text, "%s (%s)", one, meta(m, "period_type", ""));
		line(s->out, "period:", text);
	}
}

/* A call graph's rows (pstats, callgrind) are functions' costs, not samples. */
static int is_call_graph(const struct model *m)
{
	const char *format = meta(m, "format", "");
	return m->graph.kind != MODEL_GRAPH_NONE || strcmp(format, "pstats") == 0 || strcmp(format, "callgrind") == 0;
}

/* What the header counts of the shown type's samples (a difference's: the profile's, not the base's). */
struct facts {
	int64_t samples;  /* samples with a value of the type */
	int64_t time;     /* their time, in time_type's values */
	size_t time_type; /* a time every such sample has (SIZE_MAX: none) */
	int64_t base;     /* a difference's base total */
	size_t stacks;    /* distinct stacks of such samples */
};

/* The first time type other than the shown one: a candidate for the samples' time. */
static size_t time_candidate(struct view *v, size_t shown)
{
	if (view_ns_per_value(view_unit(v, shown), 0) > 0)
		return SIZE_MAX;
	for (size_t t = 0; t < v->n_types; t++)
		if (t != shown && view_ns_per_value(view_unit(v, t), view_decimals(v, t)) > 0)
			return t;
	return SIZE_MAX;
}

static void count_facts(struct summary *s, struct facts *f)
{
	struct view v;
	view_init(&v, s->m);
	size_t count_type = SIZE_MAX;
	for (size_t t = 0; t < v.n_types; t++)
		if (count_type == SIZE_MAX && strcmp(view_type(&v, t), "samples") == 0)
			count_type = t;
	*f = (struct facts){ 0, 0, time_candidate(&v, s->type), 0, 0 };
	int64_t *values = xmalloc((v.n_types + 1) * sizeof *values);
	unsigned char *seen = xcalloc(s->m->n_stacks, 1);
	struct row_cursor rows;
	rows_begin(s->m, &rows);
	for (const struct model_row *row; (row = rows_next(&rows));) {
		view_values(&v, row, values);
		if (model_is_base_sample(s->m, v.diff_key, row->labels)) {
			f->base += diff_base_count(values[s->type]);
			s->total -= diff_base_count(values[s->type]);
			continue;
		}
		s->total += values[s->type];
		if (values[s->type] == 0)
			continue;
		f->stacks += !seen[row->stack]++;
		f->samples += count_type == SIZE_MAX ? (int64_t)row->repeat : values[count_type];
		if (f->time_type != SIZE_MAX && values[f->time_type] == 0)
			f->time_type = SIZE_MAX; /* another type's samples: no time of these */
		f->time += f->time_type == SIZE_MAX ? 0 : values[f->time_type];
	}
	rows_end(&rows);
	free(values);
	free(seen);
}

/* "total:" and, when percentages are of more than the samples shown, of what. */
static void write_total(struct summary *s, const struct facts *f)
{
	char text[3 * VALUE_TEXT_MAX + 80], total[VALUE_TEXT_MAX], whole[VALUE_TEXT_MAX], base[VALUE_TEXT_MAX];
	value_text(s, s->total, total);
	if (s->view.diff_key != MODEL_NONE) {
		value_text(s, s->percent_of, base);
		if (s->m->whole_totals)
			snprintf(text, sizeof text, "%s (%s of it kept by the filters)", base, value_text(s, f->base, whole));
		line(s->out, "base total:", s->m->whole_totals ? text : base);
		line(s->out, "total:", value_text(s, f->base + s->total, whole));
		snprintf(text, sizeof text, "%s%s (%s%.2f%% of the base's total)", s->total > 0 ? "+" : "", total,
			 s->total > 0 ? "+" : "", 100.0 * (double)s->total / (double)(s->percent_of ? s->percent_of : 1));
		line(s->out, "change:", text);
	} else if (s->m->whole_totals) {
		snprintf(text, sizeof text, "%s (%.2f%% of the whole profile's %s)", total,
			 100.0 * (double)s->total / (double)(s->percent_of ? s->percent_of : 1),
			 value_text(s, s->percent_of, whole));
		line(s->out, "total:", text);
	} else if (s->percent_of != s->total) {
		/* Negative values: pprof's percentages are of the values' sizes. */
		snprintf(text, sizeof text, "%s (percentages of %s, the sum of the values' sizes)", total,
			 value_text(s, s->percent_of, whole));
		line(s->out, "total:", text);
	} else {
		/* A number says what it counts: "37 count", "47791 Ir", exact "0.0146 seconds". */
		int named = s->exact || !units_scaled(view_unit(&s->view, s->type));
		snprintf(text, sizeof text, "%s%s%s", total, named ? " " : "", named ? view_unit(&s->view, s->type) : "");
		line(s->out, "total:", text);
	}
}

static void write_header(struct summary *s)
{
	const struct model *m = s->m;
	char text[200], number[VALUE_TEXT_MAX];
	struct facts f;
	count_facts(s, &f);
	snprintf(text, sizeof text, "%s (%s)", meta(m, "source", "?"), meta(m, "format", "?"));
	line(s->out, "source:", text);
	if (s->view.diff_key != MODEL_NONE) {
		snprintf(text, sizeof text, "%s minus %s (--diff-base)", meta(m, "source", "?"), meta(m, "diff_base", "?"));
		line(s->out, "difference:", text);
	}
	snprintf(text, sizeof text, "%s (%s)", view_type(&s->view, s->type), view_unit(&s->view, s->type));
	line(s->out, "sample type:", text);
	write_interval(s);
	if (!is_call_graph(m) && s->view.diff_key == MODEL_NONE) {
		snprintf(text, sizeof text, "%" PRId64, f.samples);
		line(s->out, "samples:", text);
	}
	if (f.time_type != SIZE_MAX && f.samples && s->view.diff_key == MODEL_NONE) {
		snprintf(text, sizeof text, "%s (%s)", value_in(s, f.time_type, f.time, number),
			 view_type(&s->view, f.time_type));
		line(s->out, "total time:", text);
	}
	write_total(s, &f);
	snprintf(text, sizeof text, "%zu", f.stacks);
	line(s->out, "distinct stacks:", text);
	if (m->sessions.n_runs) {
		snprintf(text, sizeof text, "%zu", m->sessions.n_runs);
		line(s->out, "runs:", text);
	}
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

/* `part` as a percentage of what percentages are of, "+" before a change that grew. */
static const char *percent(const struct summary *s, int64_t part, int is_change, char text[16])
{
	double whole = s->percent_of ? (double)s->percent_of : 1.0;
	snprintf(text, 16, "%s%.2f%%", is_change && part > 0 ? "+" : "", 100.0 * (double)part / whole);
	return text;
}

static void write_table(struct summary *s, struct name_totals *totals, int total_first)
{
	char text[3 * VALUE_TEXT_MAX], self[VALUE_TEXT_MAX], total[VALUE_TEXT_MAX], self_pc[16], total_pc[16];
	struct name_ticks *t = totals->rows;
	size_t n = totals->n;
	by_total = total_first;
	sort_names = &totals->names;
	if (n)
		qsort(t, n, sizeof *t, compare);
	output_str(s->out, total_first ? "\nby total:\n" : "\nby self:\n");
	output_str(s->out, "          self   self%         total  total%  function\n");
	size_t shown = s->top && s->top < n ? s->top : n;
	for (size_t i = 0; i < shown; i++) {
		snprintf(text, sizeof text, "%14s %7s %14s %7s  ", value_text(s, t[i].self, self),
			 percent(s, t[i].self, 0, self_pc), value_text(s, t[i].total, total),
			 percent(s, t[i].total, 0, total_pc));
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
	char number[VALUE_TEXT_MAX], text[VALUE_TEXT_MAX + 2], cell[VALUE_TEXT_MAX + 16];
	value_text(s, value, number);
	snprintf(text, sizeof text, "%s%s", is_change && value > 0 ? "+" : "", number);
	snprintf(cell, sizeof cell, "%14s", text);
	output_str(s->out, cell);
}

/* A change's percentage of the base's total, as go tool pprof -diff_base's flat% and cum%. */
static void change_percent(struct summary *s, int64_t change)
{
	char text[16], cell[24];
	snprintf(cell, sizeof cell, " %8s", percent(s, change, 1, text));
	output_str(s->out, cell);
}

static void write_changes(struct summary *s, struct name_totals *totals)
{
	struct name_ticks *t = totals->rows;
	sort_names = &totals->names;
	if (totals->n)
		qsort(t, totals->n, sizeof *t, compare_changes);
	output_str(s->out, "\nby change (the profile minus --diff-base's; % of the base's total):\n"
			   "     self base      self new   self change  change%    total base     total new"
			   "  total change  change%  function\n");
	for (size_t i = 0; i < totals->n; i++) {
		change_cell(s, t[i].base_self, 0);
		change_cell(s, t[i].base_self + t[i].self, 0);
		change_cell(s, t[i].self, 1);
		change_percent(s, t[i].self);
		change_cell(s, t[i].base_total, 0);
		change_cell(s, t[i].base_total + t[i].total, 0);
		change_cell(s, t[i].total, 1);
		change_percent(s, t[i].total);
		output_str(s->out, "  ");
		write_name(s, totals, t[i].name);
	}
}

static int summary_write(const struct model *m, struct output *out, const struct write_options *opts)
{
	const char *top = write_option(opts, "top");
	struct summary s = { m, out, { 0 }, 0, write_option(opts, "exact") != NULL, 0, 0,
			     top ? (size_t)strtoull(top, NULL, 10) : 0 };
	view_init(&s.view, m);
	if (s.view.n_types && view_pick(&s.view, opts->sample_type, VIEW_WEIGHT, out->name, &s.type) < 0)
		return -1;
	if (!s.view.n_types) {
		output_str(out, "empty profile: no sample types\n");
		return 0;
	}
	s.percent_of = percent_total(&s.view, s.type);
	write_header(&s);
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
	{ "exact", NULL, "values as the profile holds them, every decimal, not in units (for scripts)", NULL },
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
