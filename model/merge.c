/*
 * merge: profiles made one, as pprof merges them. Each input's tables are
 * carried into the result through maps from its ids to the result's:
 *
 *  - strings on first use, so what no row or table names (a file's own
 *    time, its name) is not kept once per input;
 *  - functions, mappings and locations by what they are, as pprof keys
 *    them, the ids a file gave them aside: equal ones of different inputs
 *    meet, and memory grows with the distinct ones, not with the inputs.
 *    A mapping met at another address is the first's, its locations'
 *    addresses moved with it (pprof's rule for address randomisation);
 *  - samples, in a merge where some input has no times, summed by stack
 *    and label set, as pprof sums them (all-zero ones dropped, as pprof
 *    drops them); where every input has times (R's runs, timestamps, a
 *    timeline) or is a tree, appended in order, so two Rprof files merge
 *    into the file that appending them would make, and a later input's
 *    times follow the earlier's last (past 2^63 ns, every time is
 *    dropped, with a warning).
 *
 * The header: the same sample types (pprof's rule), runs only with runs,
 * one period type; the earliest start time, the sum of the durations, the
 * largest period, every distinct comment once; any other meta key as the
 * first input that has it says. A type with decimals in one input has
 * them in the result. Each rule is associative, so a merge of merges is
 * the merge of all (docs/formats/pprof.md, "Merging").
 *
 * model_copy copies one profile through the same maps, each item as it is.
 */
#include "merge.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/diag.h"
#include "../base/alloc.h"
#include "../base/numtext.h"

/* From a source's ids to the destination's; mg NULL: a copy, each item as it is. */
struct maps {
	struct model *dst;
	const struct model *src;
	struct merge *mg;
	uint32_t *strings; /* MODEL_NONE until first asked for */
	uint32_t *functions, *mappings, *locations, *stacks, *label_sets;
	uint64_t *shifts; /* by source mapping: what its addresses move by */
};

static uint32_t str_of(struct maps *mp, uint32_t id)
{
	if (mp->strings[id] == MODEL_NONE) {
		const struct strtab_entry *e = strtab_get(&mp->src->strings, id);
		mp->strings[id] = model_str(mp->dst, e->bytes, e->len);
	}
	return mp->strings[id];
}

/* Functions as pprof keys them: by name, system name, file and start line, not by id. */
static uint64_t function_key_hash(const struct model_function *f)
{
	uint64_t h = hash_mix(f->name, f->system_name);
	h = hash_mix(h, f->file_name);
	return hash_mix(hash_mix(h, (uint64_t)f->start_line), f->truncated);
}

static int same_function(const void *ctx, uint32_t id, const void *key)
{
	const struct model_function *a = &((const struct model *)ctx)->functions[id], *b = key;
	return a->name == b->name && a->system_name == b->system_name &&
	       a->file_name == b->file_name && a->start_line == b->start_line &&
	       a->truncated == b->truncated;
}

static uint32_t merged_function(struct merge *mg, struct model *dst, const struct model_function *f)
{
	uint64_t h = function_key_hash(f);
	uint32_t id = hashidx_find(&mg->functions, h, same_function, dst, f);
	if (id != HASHIDX_NONE)
		return id;
	id = model_function(dst, f);
	hashidx_insert(&mg->functions, h, id);
	return id;
}

static void map_functions(struct maps *mp)
{
	const struct model *src = mp->src;
	mp->functions = xmalloc((src->n_functions + 1) * sizeof *mp->functions);
	for (size_t i = 0; i < src->n_functions; i++) {
		struct model_function f = src->functions[i];
		f.name = str_of(mp, f.name);
		f.system_name = str_of(mp, f.system_name);
		f.file_name = str_of(mp, f.file_name);
		mp->functions[i] = mp->mg ? merged_function(mp->mg, mp->dst, &f) : model_function(mp->dst, &f);
		/* The tree's function-info goes with the function, first seen first. */
		struct model_function *d = &mp->dst->functions[mp->functions[i]];
		if (f.tree.known && !d->tree.known)
			d->tree = f.tree;
	}
}

/* pprof's mapping key: its size rounded up to 4 KiB, its offset, its build id or else its file. */
struct mapping_key {
	uint64_t size, offset;
	uint32_t file;
};

static struct mapping_key mapping_key(const struct model_mapping *m)
{
	uint64_t size = m->memory_limit - m->memory_start;
	size = (size + 0xfff) & ~(uint64_t)0xfff;
	return (struct mapping_key){ size, m->file_offset, m->build_id ? m->build_id : m->filename };
}

static int same_mapping(const void *ctx, uint32_t id, const void *key)
{
	struct mapping_key a = mapping_key(&((const struct model *)ctx)->native.mappings[id]);
	const struct mapping_key *b = key;
	return a.size == b->size && a.offset == b->offset && a.file == b->file;
}

static uint64_t mapping_key_hash(const struct mapping_key *k)
{
	return hash_mix(hash_mix(k->size, k->offset), k->file);
}

static uint32_t merged_mapping(struct merge *mg, struct model *dst, const struct model_mapping *m)
{
	struct mapping_key key = mapping_key(m);
	uint64_t h = mapping_key_hash(&key);
	uint32_t id = hashidx_find(&mg->mappings, h, same_mapping, dst, &key);
	if (id != HASHIDX_NONE)
		return id;
	id = model_add_mapping(dst, m);
	hashidx_insert(&mg->mappings, h, id);
	return id;
}

static void map_mappings(struct maps *mp)
{
	const struct model *src = mp->src;
	mp->mappings = xmalloc((src->native.n_mappings + 1) * sizeof *mp->mappings);
	mp->shifts = xmalloc((src->native.n_mappings + 1) * sizeof *mp->shifts);
	for (size_t i = 0; i < src->native.n_mappings; i++) {
		struct model_mapping mm = src->native.mappings[i];
		mm.filename = str_of(mp, mm.filename);
		mm.build_id = str_of(mp, mm.build_id);
		uint32_t id = mp->mg ? merged_mapping(mp->mg, mp->dst, &mm) : model_add_mapping(mp->dst, &mm);
		mp->mappings[i] = id;
		mp->shifts[i] = mp->dst->native.mappings[id].memory_start - mm.memory_start;
	}
}

/* A location the model interns itself: a function and a line, a call site, nothing native. */
static int plain(const struct model *src, const struct model_location *l)
{
	return !src->rules.tree_nodes && l->function != MODEL_NONE && l->native.id == 0 && l->native.mapping == MODEL_NONE &&
	       l->native.address == 0 && l->n_inlined == 0 && l->column == 0 && !l->native.is_folded;
}

/* A location with its inlined lines, as a merge keys it: everything but the file's id. */
struct location_key {
	const struct model_location *l;
	const struct model_line *inlined;
};

static uint64_t location_key_hash(const struct location_key *k)
{
	const struct model_location *l = k->l;
	uint64_t h = hash_mix(hash_mix(l->function, (uint64_t)l->line), (uint64_t)l->column);
	h = hash_mix(h, hash_mix(hash_mix(l->call_site.file, (uint64_t)l->call_site.line), l->call_site.raw));
	h = hash_mix(hash_mix(h, l->native.mapping), l->native.address);
	h = hash_mix(h, l->native.is_folded);
	for (uint32_t i = 0; i < l->n_inlined; i++)
		h = hash_mix(hash_mix(h, k->inlined[i].function), (uint64_t)k->inlined[i].line);
	return h;
}

static int same_line(const struct model_line *a, const struct model_line *b)
{
	return a->function == b->function && a->line == b->line && a->column == b->column;
}

static int same_location(const void *ctx, uint32_t id, const void *key)
{
	const struct model *m = ctx;
	const struct model_location *a = &m->locations[id], *b = ((const struct location_key *)key)->l;
	const struct model_line *inlined = ((const struct location_key *)key)->inlined;
	if (a->function != b->function || a->line != b->line || a->column != b->column ||
	    a->call_site.file != b->call_site.file || a->call_site.line != b->call_site.line ||
	    a->call_site.raw != b->call_site.raw ||
	    a->native.mapping != b->native.mapping || a->native.address != b->native.address ||
	    a->native.is_folded != b->native.is_folded || a->n_inlined != b->n_inlined)
		return 0;
	for (uint32_t i = 0; i < a->n_inlined; i++)
		if (!same_line(&m->inlined[a->first_inlined + i], &inlined[i]))
			return 0;
	return 1;
}

static uint32_t merged_location(struct merge *mg, struct model *dst, const struct model_location *l,
				const struct model_line *inlined)
{
	struct location_key key = { l, inlined };
	uint64_t h = location_key_hash(&key);
	uint32_t id = hashidx_find(&mg->locations, h, same_location, dst, &key);
	if (id != HASHIDX_NONE)
		return id;
	id = model_add_location(dst, l, inlined, l->n_inlined);
	hashidx_insert(&mg->locations, h, id);
	return id;
}

/* Source location i with the destination's ids: its lines' functions, mapping and address. */
static void mapped_location(struct maps *mp, size_t i, struct model_location *l,
			    struct model_line **lines, size_t *cap)
{
	*l = mp->src->locations[i];
	grow((void **)lines, cap, l->n_inlined + 1, sizeof **lines);
	for (uint32_t k = 0; k < l->n_inlined; k++) {
		(*lines)[k] = mp->src->inlined[l->first_inlined + k];
		(*lines)[k].function = mp->functions[(*lines)[k].function];
	}
	if (l->function != MODEL_NONE)
		l->function = mp->functions[l->function];
	if (l->call_site.file)
		l->call_site.file = str_of(mp, l->call_site.file);
	if (l->call_site.raw)
		l->call_site.raw = str_of(mp, l->call_site.raw);
	if (l->native.mapping != MODEL_NONE) {
		l->native.address += mp->shifts[l->native.mapping];
		l->native.mapping = mp->mappings[l->native.mapping];
	}
}

static void map_locations(struct maps *mp)
{
	const struct model *src = mp->src;
	struct model_line *lines = NULL;
	size_t cap = 0;
	mp->locations = xmalloc((src->n_locations + 1) * sizeof *mp->locations);
	for (size_t i = 0; i < src->n_locations; i++) {
		struct model_location l;
		mapped_location(mp, i, &l, &lines, &cap);
		if (plain(src, &l))
			mp->locations[i] = model_location_called(mp->dst, l.function, l.line, l.call_site);
		else if (mp->mg && !src->rules.tree_nodes)
			mp->locations[i] = merged_location(mp->mg, mp->dst, &l, lines);
		else
			mp->locations[i] = model_add_location(mp->dst, &l, lines, l.n_inlined);
	}
	free(lines);
	mp->stacks = xmalloc(src->n_stacks * sizeof *mp->stacks);
	mp->stacks[0] = MODEL_EMPTY_STACK;
	for (size_t i = 1; i < src->n_stacks; i++)
		mp->stacks[i] = model_stack(mp->dst, mp->locations[src->stacks[i].location],
					    mp->stacks[src->stacks[i].caller]);
}

static void map_label_sets(struct maps *mp)
{
	const struct model *src = mp->src;
	struct model_label *labels = NULL;
	size_t cap = 0;
	mp->label_sets = xmalloc(src->n_label_sets * sizeof *mp->label_sets);
	for (size_t i = 0; i < src->n_label_sets; i++) {
		const struct model_label_set *set = &src->label_sets[i];
		grow((void **)&labels, &cap, set->count + 1, sizeof *labels);
		for (uint32_t k = 0; k < set->count; k++) {
			struct model_label l = src->labels[set->first + k];
			l.key = str_of(mp, l.key);
			l.str = str_of(mp, l.str);
			l.num_unit = str_of(mp, l.num_unit);
			labels[k] = l;
		}
		mp->label_sets[i] = model_label_set(mp->dst, labels, set->count);
	}
	free(labels);
}

static void map_tables(struct maps *mp, struct model *dst, const struct model *src, struct merge *mg)
{
	*mp = (struct maps){ .dst = dst, .src = src, .mg = mg };
	mp->strings = xmalloc((src->strings.count + 1) * sizeof *mp->strings);
	memset(mp->strings, 0xff, (src->strings.count + 1) * sizeof *mp->strings);
	map_functions(mp);
	map_mappings(mp);
	map_locations(mp);
	map_label_sets(mp);
}

static void free_maps(struct maps *mp)
{
	free(mp->strings);
	free(mp->functions);
	free(mp->mappings);
	free(mp->shifts);
	free(mp->locations);
	free(mp->stacks);
	free(mp->label_sets);
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
static int append_rows(struct model *dst, struct maps *mp, const int64_t *scale,
		       const struct row_edit *edit)
{
	const struct model *src = mp->src;
	int64_t time_offset = dst->rows.has_last ? dst->rows.last.time_ns : 0;
	uint64_t sample = 0; /* index of the row's first sample in src */
	/* Every #File path is named before the replay needs it. */
	for (size_t i = 0; i < src->sessions.n_files; i++)
		str_of(mp, src->sessions.files[i].path);
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
		/* Untimed, dst ignores the time; the merge saw that the sum fits. */
		model_add_samples(dst, mp->stacks[stack], values, memory ? &r->memory : NULL,
				  mp->label_sets[labels], repeat, dst->timed_rows ? time_offset + r->time_ns : 0);
	}
	rows_end(&rows);
	free(values);
	model_replay_runs(dst, &replay, SIZE_MAX);
	return fits ? 0 : -1;
}

static int same_sample(const void *ctx, uint32_t id, const void *key)
{
	const struct merged_sample *a = &((const struct merge *)ctx)->samples[id], *b = key;
	return a->stack == b->stack && a->labels == b->labels;
}

/* The merge's sum for this stack and label set, made (all zeros) if new. */
static int64_t *sample_sums(struct merge *mg, uint32_t stack, uint32_t labels)
{
	size_t n = mg->dst->n_sample_types;
	struct merged_sample key = { stack, labels };
	size_t before = mg->n_samples;
	uint32_t id = hashidx_intern(&mg->sample_index, hash_mix(stack, labels), same_sample, mg, &key,
				     (void **)&mg->samples, &mg->n_samples, &mg->cap_samples,
				     sizeof *mg->samples);
	if (mg->n_samples > before) {
		grow((void **)&mg->sums, &mg->cap_sums, (mg->n_samples + 1) * n, sizeof *mg->sums);
		memset(mg->sums + (size_t)id * n, 0, n * sizeof *mg->sums);
	}
	return mg->sums + (size_t)id * n;
}

/*
 * Adds each row's values (times its repeat and `scale`) to the sum of its
 * stack and label set; rows of zeros are skipped, as pprof skips them.
 * -1 when a sum would pass 2^63.
 */
static int sum_rows(struct merge *mg, const struct model *src, const uint32_t *stacks,
		    const uint32_t *label_sets, const int64_t *scale)
{
	size_t n = src->n_sample_types;
	int fits = 1;
	struct row_cursor rows;
	rows_begin(src, &rows);
	for (const struct model_row *r; fits && (r = rows_next(&rows));) {
		int zero = 1;
		for (size_t t = 0; t < n; t++)
			zero &= r->values[t] == 0;
		if (zero)
			continue;
		int64_t *sums = sample_sums(mg, stacks ? stacks[r->stack] : r->stack,
					    label_sets ? label_sets[r->labels] : r->labels);
		for (size_t t = 0; t < n; t++) {
			int64_t v;
			fits &= r->repeat <= INT64_MAX &&
				!__builtin_mul_overflow(r->values[t], scale ? scale[t] : 1, &v) &&
				!__builtin_mul_overflow(v, (int64_t)r->repeat, &v) &&
				!__builtin_add_overflow(sums[t], v, &sums[t]);
		}
	}
	rows_end(&rows);
	return fits ? 0 : -1;
}

/* Inputs whose samples are in time order, or a tree's nodes: a merge of only these appends. */
static int ordered(const struct model *m)
{
	return model_has_times(m) || m->rules.tree_nodes;
}

/*
 * From here on samples are summed: the rows so far (appended, each input
 * with times) become sums, and the result has no times.
 */
static int start_summing(struct merge *mg)
{
	struct model *dst = mg->dst;
	mg->summing = 1;
	int rc = sum_rows(mg, dst, NULL, NULL, NULL);
	rows_free(&dst->rows);
	rows_init(&dst->rows);
	dst->n_rows = dst->merge_barrier = 0;
	dst->timed_rows = 0;
	dst->timeline_type = SIZE_MAX;
	return rc;
}

/* Each type takes the more decimals: the sums so far, or dst's rows, are scaled to them. */
static int add_decimals(struct merge *mg, size_t type, unsigned more)
{
	struct model *dst = mg->dst;
	if (!mg->summing)
		return model_add_decimals(dst, type, more);
	int64_t factor = pow10_i64(more);
	size_t n = dst->n_sample_types;
	for (size_t i = 0; i < mg->n_samples; i++)
		if (__builtin_mul_overflow(mg->sums[i * n + type], factor, &mg->sums[i * n + type]))
			return -1;
	dst->sample_types[type].decimals = (uint8_t)(dst->sample_types[type].decimals + more);
	return 0;
}

/*
 * Each type takes the more decimals of the two: dst's now, src's as they
 * come in (scale[t]). -1 after reporting.
 */
static int match_decimals(struct merge *mg, const struct model *src, const char *src_name,
			  int64_t *scale)
{
	struct model *dst = mg->dst;
	for (size_t t = 0; t < src->n_sample_types; t++) {
		unsigned have = dst->sample_types[t].decimals, other = src->sample_types[t].decimals;
		if (other > have && add_decimals(mg, t, other - have) < 0) {
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

/* Do both say `key` and say it differently? */
static int meta_differs(const struct model *a, const struct model *b, const char *key)
{
	uint32_t x = model_get_meta(a, key), y = model_get_meta(b, key);
	return x != HASHIDX_NONE && y != HASHIDX_NONE && strcmp(model_cstr(a, x), model_cstr(b, y)) != 0;
}

/* pprof's rules: equal sample types and period types; runs only with runs. -1 after reporting. */
static int compatible(const struct model *dst, const struct model *src, const char *src_name)
{
	const char *why = NULL;
	if (!same_types(dst, src))
		why = "its sample types differ from the first input's";
	else if (meta_differs(dst, src, "period_type") || meta_differs(dst, src, "period_unit"))
		why = "its period type differs from the first input's";
	else if (!dst->sessions.n_runs != !src->sessions.n_runs)
		why = "one input has R's profiling runs and the other has none";
	if (why)
		diag_error(src_name, 0, "cannot merge: %s", why);
	return why ? -1 : 0;
}

/* The header's numbers, as the pprof reader keeps them: decimal text in meta. */
static void take_number(const struct model *src, const char *key, int64_t *into, uint8_t *has,
			int64_t (*combine)(int64_t, int64_t))
{
	uint32_t id = model_get_meta(src, key);
	if (id == HASHIDX_NONE)
		return;
	int64_t v = strtoll(model_cstr(src, id), NULL, 10);
	*into = *has ? combine(*into, v) : v;
	*has = 1;
}

/* The earliest time; 0 is no time. */
static int64_t earliest(int64_t a, int64_t b)
{
	return a == 0 || (b != 0 && b < a) ? b : a;
}

static int64_t sum_saturated(int64_t a, int64_t b)
{
	int64_t s;
	return __builtin_add_overflow(a, b, &s) ? (b > 0 ? INT64_MAX : INT64_MIN) : s;
}

static int64_t largest(int64_t a, int64_t b)
{
	return b > a ? b : a;
}

static int numeric_key(const struct model *m, uint32_t key)
{
	return model_str_is(m, key, "time_nanos") || model_str_is(m, key, "duration_nanos") ||
	       model_str_is(m, key, "period");
}

static int has_meta_row(const struct model *m, size_t n, uint32_t key, uint32_t value)
{
	for (size_t i = 0; i < n; i++)
		if (m->meta[i].key == key && (value == MODEL_NONE || m->meta[i].value == value))
			return 1;
	return 0;
}

/*
 * src's meta into dst's: each distinct comment once; of any other key,
 * the rows of the first input that has it. The numbers are combined apart.
 */
static void merge_meta(struct merge *mg, struct maps *mp)
{
	struct model *dst = mg->dst;
	const struct model *src = mp->src;
	size_t before = dst->n_meta;
	take_number(src, "time_nanos", &mg->time_nanos, &mg->has_time, earliest);
	take_number(src, "duration_nanos", &mg->duration_nanos, &mg->has_duration, sum_saturated);
	take_number(src, "period", &mg->period, &mg->has_period, largest);
	for (size_t i = 0; i < src->n_meta; i++) {
		const struct model_meta *row = &src->meta[i];
		if (numeric_key(src, row->key))
			continue;
		uint32_t key = str_of(mp, row->key);
		int comment = model_str_is(src, row->key, "comment");
		if (comment ? !has_meta_row(dst, dst->n_meta, key, str_of(mp, row->value))
			    : !has_meta_row(dst, before, key, MODEL_NONE))
			model_add_meta(dst, key, str_of(mp, row->value));
	}
}

static void set_number(struct model *m, const char *key, int64_t v, int has)
{
	char text[24];
	if (!has)
		return;
	snprintf(text, sizeof text, "%" PRId64, v);
	model_set_meta(m, key, text);
}

/* What the first input says besides its tables: sample types, rules, how its lines ended. */
static void take_header(struct merge *mg, const struct model *src)
{
	struct model *dst = mg->dst;
	dst->rules = src->rules;
	dst->timeline_type = src->timeline_type;
	dst->timed_rows = src->timed_rows;
	dst->n_meta = 0; /* src's meta has its own "version" */
	for (size_t t = 0; t < src->n_sample_types; t++) {
		const struct model_sample_type *type = &src->sample_types[t];
		model_add_sample_type(dst, model_cstr(src, type->type), model_cstr(src, type->unit));
		dst->sample_types[t].decimals = type->decimals;
	}
	dst->sessions.crlf = src->sessions.crlf;
	dst->sessions.no_final_newline = src->sessions.no_final_newline;
}

/* A later input's header: checked, its rules and decimals taken, its times placed. -1 after reporting. */
static int join_header(struct merge *mg, const struct model *src, const char *src_name, int64_t *scale)
{
	struct model *dst = mg->dst;
	if (compatible(dst, src, src_name) < 0 || match_decimals(mg, src, src_name, scale) < 0)
		return -1;
	/* The merged profile holds every input's rows: the looser rule of each. */
	dst->rules.strict_r &= src->rules.strict_r;
	dst->rules.keep_rows_apart |= src->rules.keep_rows_apart;
	dst->rules.tree_nodes |= src->rules.tree_nodes;
	if (!mg->summing && !mg->append_only && !ordered(src) && start_summing(mg) < 0) {
		diag_error(src_name, 0, "cannot merge: a sum passes 2^63");
		return -1;
	}
	if (mg->summing)
		return 0;
	if (dst->timed_rows && src->timed_rows && !times_fit_after(dst, src)) {
		diag_warn(src_name, 0, "sample times dropped: after the first input's, its times pass 2^63 ns");
		model_drop_times(dst);
	}
	if (dst->timed_rows && !src->timed_rows)
		model_drop_times(dst);
	return 0;
}

/* dst's functions, locations and mappings, indexed so that a later input's meet them. */
static void index_tables(struct merge *mg)
{
	const struct model *dst = mg->dst;
	for (uint32_t i = 0; i < dst->n_functions; i++)
		hashidx_insert(&mg->functions, function_key_hash(&dst->functions[i]), i);
	for (uint32_t i = 0; i < dst->native.n_mappings; i++) {
		struct mapping_key key = mapping_key(&dst->native.mappings[i]);
		hashidx_insert(&mg->mappings, mapping_key_hash(&key), i);
	}
	for (uint32_t i = 0; i < dst->n_locations; i++) {
		const struct model_location *l = &dst->locations[i];
		struct location_key key = { l, l->n_inlined ? dst->inlined + l->first_inlined : NULL };
		if (!plain(dst, l) && !dst->rules.tree_nodes)
			hashidx_insert(&mg->locations, location_key_hash(&key), i);
	}
}

void merge_begin(struct merge *mg, struct model *dst)
{
	memset(mg, 0, sizeof *mg);
	mg->dst = dst;
}

int merge_add(struct merge *mg, const struct model *src, const char *src_name)
{
	struct model *dst = mg->dst;
	int64_t *scale = xmalloc((src->n_sample_types + 1) * sizeof *scale);
	int rc = 0;
	if (!mg->started) {
		take_header(mg, src);
		for (size_t t = 0; t < src->n_sample_types; t++)
			scale[t] = 1;
		mg->summing = !mg->append_only && !ordered(src);
		if (mg->summing)
			dst->timed_rows = 0, dst->timeline_type = SIZE_MAX;
		mg->started = 1;
	} else {
		rc = join_header(mg, src, src_name, scale);
	}
	if (rc == 0) {
		struct maps mp;
		map_tables(&mp, dst, src, mg);
		rc = mg->summing ? sum_rows(mg, src, mp.stacks, mp.label_sets, scale)
				 : append_rows(dst, &mp, scale, NULL);
		if (rc < 0)
			diag_error(src_name, 0, "cannot merge: a value passes 2^63 %s",
				   mg->summing ? "in a sum" : "at the first input's decimals");
		merge_meta(mg, &mp);
		free_maps(&mp);
	}
	free(scale);
	return rc;
}

void merge_end(struct merge *mg)
{
	struct model *dst = mg->dst;
	size_t n = dst->n_sample_types;
	for (size_t i = 0; mg->summing && i < mg->n_samples; i++) {
		const int64_t *sums = mg->sums + i * n;
		int zero = 1;
		for (size_t t = 0; t < n; t++)
			zero &= sums[t] == 0;
		if (!zero)
			model_add_samples(dst, mg->samples[i].stack, sums, NULL, mg->samples[i].labels, 1, 0);
	}
	set_number(dst, "time_nanos", mg->time_nanos, mg->has_time && mg->time_nanos);
	set_number(dst, "duration_nanos", mg->duration_nanos, mg->has_duration);
	set_number(dst, "period", mg->period, mg->has_period);
	hashidx_free(&mg->functions);
	hashidx_free(&mg->locations);
	hashidx_free(&mg->mappings);
	hashidx_free(&mg->sample_index);
	free(mg->samples);
	free(mg->sums);
	memset(mg, 0, sizeof *mg);
}

int model_merge(struct model *dst, const struct model *src, const char *src_name)
{
	struct merge mg;
	/* Rows from elsewhere: the graph the rows were made from is no longer theirs. */
	model_graph_free(&dst->graph);
	merge_begin(&mg, dst);
	mg.started = mg.append_only = 1;
	index_tables(&mg);
	take_number(dst, "time_nanos", &mg.time_nanos, &mg.has_time, earliest);
	take_number(dst, "duration_nanos", &mg.duration_nanos, &mg.has_duration, sum_saturated);
	take_number(dst, "period", &mg.period, &mg.has_period, largest);
	int rc = merge_add(&mg, src, src_name);
	merge_end(&mg);
	return rc;
}

void model_copy(struct model *dst, const struct model *src, const struct row_edit *edit)
{
	model_init(dst);
	struct maps mp;
	struct merge header = { .dst = dst };
	map_tables(&mp, dst, src, NULL);
	take_header(&header, src);
	for (size_t i = 0; i < src->n_meta; i++)
		model_add_meta(dst, str_of(&mp, src->meta[i].key), str_of(&mp, src->meta[i].value));
	int64_t *scale = xmalloc((src->n_sample_types + 1) * sizeof *scale);
	for (size_t t = 0; t < src->n_sample_types; t++)
		scale[t] = 1;
	append_rows(dst, &mp, scale, edit);
	free_maps(&mp);
	free(scale);
}
