/*
 * merge: appends one profile to another, as pprof merges profiles. They
 * must have the same sample types (pprof's rule) and, for Rprof's runs,
 * both have runs or neither. Every table is carried over through maps from
 * the source's ids to the destination's: strings and functions are
 * interned again, so equal ones meet (R's call sites with their files);
 * pprof locations, mappings and the
 * rows keep their order after the destination's. Runs and #File lines
 * keep their places among the rows, so two Rprof files merge into the
 * file that appending them would make. A type with decimals in one input
 * has them in the merge: the other's values are scaled to match. A second
 * timed input's times follow the first's last; when they would pass 2^63
 * ns, the merge keeps its samples and drops every time, with a warning.
 */
#include "merge.h"

#include <math.h>
#include <string.h>

#include "../base/diag.h"
#include "../base/alloc.h"
#include "../base/numtext.h"

struct maps {
	uint32_t *strings, *functions, *mappings, *locations, *stacks, *label_sets;
};

static int same_types(const struct model *a, const struct model *b)
{
	if (a->n_sample_types != b->n_sample_types)
		return 0;
	for (size_t i = 0; i < a->n_sample_types; i++)
		if (strcmp(model_cstr(a, a->sample_types[i].type), model_cstr(b, b->sample_types[i].type)) ||
		    strcmp(model_cstr(a, a->sample_types[i].unit), model_cstr(b, b->sample_types[i].unit)))
			return 0;
	return 1;
}

static void map_strings(struct model *dst, const struct model *src, struct maps *mp)
{
	mp->strings = xmalloc((src->strings.count + 1) * sizeof *mp->strings);
	for (size_t i = 0; i < src->strings.count; i++) {
		const struct strtab_entry *e = strtab_get(&src->strings, (uint32_t)i);
		mp->strings[i] = model_str(dst, e->bytes, e->len);
	}
}

static void map_functions(struct model *dst, const struct model *src, struct maps *mp)
{
	mp->functions = xmalloc((src->n_functions + 1) * sizeof *mp->functions);
	for (size_t i = 0; i < src->n_functions; i++) {
		struct model_function f = src->functions[i];
		f.name = mp->strings[f.name];
		f.system_name = mp->strings[f.system_name];
		f.file_name = mp->strings[f.file_name];
		mp->functions[i] = model_function(dst, &f);
		/* The tree's function-info goes with the function, first seen first. */
		struct model_function *d = &dst->functions[mp->functions[i]];
		if (f.tree.known && !d->tree.known) {
			d->tree.known = 1;
			d->tree.call_count = f.tree.call_count;
			d->tree.seen_count = f.tree.seen_count;
			d->tree.top_count = f.tree.top_count;
		}
	}
	mp->mappings = xmalloc((src->native.n_mappings + 1) * sizeof *mp->mappings);
	for (size_t i = 0; i < src->native.n_mappings; i++) {
		struct model_mapping mm = src->native.mappings[i];
		mm.filename = mp->strings[mm.filename];
		mm.build_id = mp->strings[mm.build_id];
		mp->mappings[i] = model_add_mapping(dst, &mm);
	}
}

static int plain(const struct model *src, const struct model_location *l)
{
	return !src->rules.tree_nodes && l->function != MODEL_NONE && l->native.id == 0 &&
	       l->native.mapping == MODEL_NONE && l->native.address == 0 && l->n_inlined == 0 &&
	       l->column == 0 && !l->native.is_folded;
}

static void map_locations(struct model *dst, const struct model *src, struct maps *mp)
{
	struct model_line *lines = NULL;
	size_t cap = 0;
	mp->locations = xmalloc((src->n_locations + 1) * sizeof *mp->locations);
	for (size_t i = 0; i < src->n_locations; i++) {
		struct model_location l = src->locations[i];
		/* Where R's outermost frame was called from: its strings are the source's. */
		l.call_site = (struct model_call_site){ mp->strings[l.call_site.file], l.call_site.line,
							mp->strings[l.call_site.raw] };
		if (plain(src, &l)) {
			mp->locations[i] = model_location_called(dst, mp->functions[l.function], l.line, l.call_site);
			continue;
		}
		grow((void **)&lines, &cap, l.n_inlined + 1, sizeof *lines);
		for (uint32_t k = 0; k < l.n_inlined; k++) {
			lines[k] = src->inlined[l.first_inlined + k];
			lines[k].function = mp->functions[lines[k].function];
		}
		if (l.function != MODEL_NONE)
			l.function = mp->functions[l.function];
		if (l.native.mapping != MODEL_NONE)
			l.native.mapping = mp->mappings[l.native.mapping];
		mp->locations[i] = model_add_location(dst, &l, lines, l.n_inlined);
	}
	free(lines);
	mp->stacks = xmalloc(src->n_stacks * sizeof *mp->stacks);
	mp->stacks[0] = MODEL_EMPTY_STACK;
	for (size_t i = 1; i < src->n_stacks; i++)
		mp->stacks[i] = model_stack(dst, mp->locations[src->stacks[i].location],
					    mp->stacks[src->stacks[i].caller]);
}

static void map_label_sets(struct model *dst, const struct model *src, struct maps *mp)
{
	struct model_label *labels = NULL;
	size_t cap = 0;
	mp->label_sets = xmalloc(src->n_label_sets * sizeof *mp->label_sets);
	for (size_t i = 0; i < src->n_label_sets; i++) {
		const struct model_label_set *set = &src->label_sets[i];
		grow((void **)&labels, &cap, set->count + 1, sizeof *labels);
		for (uint32_t k = 0; k < set->count; k++) {
			struct model_label l = src->labels[set->first + k];
			l.key = mp->strings[l.key];
			l.str = mp->strings[l.str];
			l.num_unit = mp->strings[l.num_unit];
			labels[k] = l;
		}
		mp->label_sets[i] = model_label_set(dst, labels, set->count);
	}
	free(labels);
}

/* How many of the `repeat` samples from index `first` on lie in the edit's window. */
static uint64_t in_window(uint64_t first, uint64_t repeat, const struct row_edit *edit)
{
	uint64_t from = first > edit->first_sample ? first : edit->first_sample;
	uint64_t end = first + repeat < edit->end_sample ? first + repeat : edit->end_sample;
	return end > from ? end - from : 0;
}

/* Each value times its type's scale, rounded to the nearest; are any left that are not 0? */
static int scaled(int64_t *values, size_t n, const double *scale)
{
	int any = 0;
	for (size_t t = 0; t < n; t++) {
		double v = (double)values[t] * scale[t];
		values[t] = v >= 9.2e18 ? INT64_MAX : v <= -9.2e18 ? -INT64_MAX : llround(v);
		any |= values[t] != 0;
	}
	return any;
}

/*
 * Rows in order, with the runs and #File lines that stood before each,
 * their values times `scale` (per type: the decimals dst has more than
 * src), their times after dst's last. -1 when a value would pass 2^63.
 */
static int append_rows(struct model *dst, const struct model *src, const struct maps *mp,
		       const int64_t *scale, const struct row_edit *edit)
{
	int64_t time_offset = dst->rows.has_last ? dst->rows.last.time_ns : 0;
	uint64_t sample = 0; /* index of the row's first sample in src */
	struct run_replay replay = { src->sessions.runs, src->sessions.n_runs, src->sessions.files, src->sessions.n_files,
				     mp->strings, 0, 0 };
	int64_t *values = xmalloc((src->n_sample_types + 1) * sizeof *values);
	int fits = 1;
	dst->merge_barrier = dst->n_rows;
	struct row_cursor rows;
	rows_begin(src, &rows);
	for (const struct model_row *r; fits && (r = rows_next(&rows));) {
		model_replay_runs(dst, &replay, r->index);
		uint64_t repeat = r->repeat;
		uint32_t stack = r->stack, labels = r->labels;
		if (edit) {
			repeat = in_window(sample, r->repeat, edit);
			stack = edit->stacks ? edit->stacks[stack] : stack;
			labels = edit->label_sets ? edit->label_sets[labels] : labels;
		}
		sample += r->repeat;
		if (repeat == 0 || stack == MODEL_NONE)
			continue;
		int memory = src->sessions.has_memory && src->sessions.n_runs && src->sessions.runs[r->run].memory_profiling;
		for (size_t t = 0; t < src->n_sample_types; t++)
			fits &= !__builtin_mul_overflow(r->values[t], scale[t], &values[t]);
		if (edit && edit->scale && !scaled(values, src->n_sample_types, edit->scale))
			continue;
		/* Untimed, dst ignores the time; model_merge saw that the sum fits. */
		model_add_samples(dst, mp->stacks[stack], values, memory ? &r->memory : NULL,
				  mp->label_sets[labels], repeat, dst->timed_rows ? time_offset + r->time_ns : 0);
	}
	rows_end(&rows);
	free(values);
	model_replay_runs(dst, &replay, SIZE_MAX);
	return fits ? 0 : -1;
}

/*
 * Each type takes the more decimals of the two: dst's rows are scaled now,
 * src's as they are appended (scale[t]). -1 after reporting.
 */
static int match_decimals(struct model *dst, const struct model *src, const char *src_name,
			  int64_t *scale)
{
	for (size_t t = 0; t < src->n_sample_types; t++) {
		unsigned have = dst->sample_types[t].decimals, other = src->sample_types[t].decimals;
		if (other > have && model_add_decimals(dst, t, other - have) < 0) {
			diag_error(src_name, 0, "cannot merge: %s with %u decimals passes 2^63",
				   model_cstr(dst, dst->sample_types[t].type), other);
			return -1;
		}
		scale[t] = pow10_i64(have > other ? have - other : 0);
	}
	return 0;
}

/* Do src's times, after dst's last, all stay within 2^63 ns? */
static int times_fit_after(const struct model *dst, const struct model *src)
{
	int64_t offset = dst->rows.has_last ? dst->rows.last.time_ns : 0, sum;
	int fit = 1;
	struct row_cursor rows;
	rows_begin(src, &rows);
	for (const struct model_row *r; fit && (r = rows_next(&rows));)
		fit = !__builtin_add_overflow(offset, r->time_ns, &sum);
	rows_end(&rows);
	return fit;
}

static void append_comments(struct model *dst, const struct model *src, const struct maps *mp)
{
	for (size_t i = 0; i < src->n_meta; i++)
		if (strcmp(model_cstr(src, src->meta[i].key), "comment") == 0)
			model_add_meta(dst, mp->strings[src->meta[i].key], mp->strings[src->meta[i].value]);
}

static void map_tables(struct model *dst, const struct model *src, struct maps *mp)
{
	map_strings(dst, src, mp);
	map_functions(dst, src, mp);
	map_locations(dst, src, mp);
	map_label_sets(dst, src, mp);
}

static void free_maps(struct maps *mp)
{
	free(mp->strings);
	free(mp->functions);
	free(mp->mappings);
	free(mp->locations);
	free(mp->stacks);
	free(mp->label_sets);
}

int model_merge(struct model *dst, const struct model *src, const char *src_name)
{
	if (!same_types(dst, src)) {
		diag_error(src_name, 0, "cannot merge: its sample types differ from the first input's");
		return -1;
	}
	if (!dst->sessions.n_runs != !src->sessions.n_runs) {
		diag_error(src_name, 0, "cannot merge: one input has R's profiling runs and the other has none");
		return -1;
	}
	int64_t *scale = xmalloc((src->n_sample_types + 1) * sizeof *scale);
	if (match_decimals(dst, src, src_name, scale) < 0) {
		free(scale);
		return -1;
	}
	struct maps mp;
	/* The merged profile holds both inputs' rows: the looser rule of each. */
	dst->rules.strict_r &= src->rules.strict_r;
	dst->rules.keep_rows_apart |= src->rules.keep_rows_apart;
	dst->rules.tree_nodes |= src->rules.tree_nodes;
	if (dst->timed_rows && src->timed_rows && !times_fit_after(dst, src)) {
		diag_warn(src_name, 0, "sample times dropped: after the first input's, its times pass 2^63 ns");
		model_drop_times(dst);
	}
	if (dst->timed_rows && !src->timed_rows)
		model_drop_times(dst);
	map_tables(dst, src, &mp);
	int rc = append_rows(dst, src, &mp, scale, NULL);
	if (rc < 0)
		diag_error(src_name, 0, "cannot merge: a value passes 2^63 at the first input's decimals");
	append_comments(dst, src, &mp);
	free_maps(&mp);
	free(scale);
	return rc;
}

/* What a profile says besides its tables: meta, sample types, rules, how its lines ended. */
static void copy_header(struct model *dst, const struct model *src, const struct maps *mp)
{
	dst->rules = src->rules;
	dst->timeline_type = src->timeline_type;
	dst->timed_rows = src->timed_rows;
	dst->n_meta = 0; /* src's meta has its own "version" */
	for (size_t i = 0; i < src->n_meta; i++)
		model_add_meta(dst, mp->strings[src->meta[i].key], mp->strings[src->meta[i].value]);
	for (size_t t = 0; t < src->n_sample_types; t++) {
		const struct model_sample_type *type = &src->sample_types[t];
		model_add_sample_type(dst, model_cstr(src, type->type), model_cstr(src, type->unit));
		dst->sample_types[t].decimals = type->decimals;
	}
	dst->sessions.crlf = src->sessions.crlf;
	dst->sessions.no_final_newline = src->sessions.no_final_newline;
}

void model_copy(struct model *dst, const struct model *src, const struct row_edit *edit)
{
	model_init(dst);
	struct maps mp;
	map_tables(dst, src, &mp);
	copy_header(dst, src, &mp);
	int64_t *scale = xmalloc((src->n_sample_types + 1) * sizeof *scale);
	for (size_t t = 0; t < src->n_sample_types; t++)
		scale[t] = 1;
	append_rows(dst, src, &mp, scale, edit);
	free_maps(&mp);
	free(scale);
}
