#include "view.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/diag.h"
#include "diff.h"

enum { TICK_SAMPLES, TICK_TIME, TICK_MEMORY };

/* The types of a profile of ticks, as the pprof profiles of R's tools name them. */
static const char *const tick_types[3][2] = {
	{ "samples", "count" }, { "cpu", "nanoseconds" }, { "alloc", "bytes" }
};

void view_init(struct view *v, const struct model *m)
{
	v->m = m;
	v->ticks = m->sessions.n_runs > 0;
	v->n_types = v->ticks ? 2 + (size_t)m->sessions.has_memory : m->n_sample_types;
	v->previous_memory = (struct model_memory){ 0, 0, 0, 0 };
	v->diff_key = model_diff_key(m);
}

const char *view_type(const struct view *v, size_t i)
{
	return v->ticks ? tick_types[i][0] : model_cstr(v->m, v->m->sample_types[i].type);
}

const char *view_unit(const struct view *v, size_t i)
{
	return v->ticks ? tick_types[i][1] : model_cstr(v->m, v->m->sample_types[i].unit);
}

unsigned view_decimals(const struct view *v, size_t i)
{
	return v->ticks ? 0 : v->m->sample_types[i].decimals;
}

int view_refuse_decimals(const struct view *v, size_t type, const char *what, const char *out_name)
{
	diag_error(out_name, 0, "sample type %s has fractional values (%u decimals): %s holds "
				"whole numbers only", view_type(v, type), view_decimals(v, type), what);
	return -1;
}

static uint64_t growth(uint64_t now, uint64_t before)
{
	return now > before ? now - before : 0;
}

/* summaryRprof's rule: each counter's growth, floored at 0, in bytes. */
static uint64_t allocated(const struct model_memory *now, const struct model_memory *before)
{
	return 8 * growth(now->small_v, before->small_v) + 8 * growth(now->big_v, before->big_v) +
	       growth(now->nodes, before->nodes);
}

void view_values(struct view *v, const struct model_row *r, int64_t *values)
{
	const struct model *m = v->m;
	if (!v->ticks) {
		for (size_t k = 0; k < v->n_types; k++)
			values[k] = r->values[k] * (int64_t)r->repeat;
		return;
	}
	const struct model_run *run = &m->sessions.runs[r->run];
	int64_t ticks = (int64_t)r->repeat * r->values[0];
	values[TICK_SAMPLES] = ticks;
	values[TICK_TIME] = ticks * (int64_t)run->interval_us * 1000;
	if (!m->sessions.has_memory)
		return;
	values[TICK_MEMORY] = 0;
	if (run->memory_profiling) {
		if (r->index > run->first_row)
			values[TICK_MEMORY] = (int64_t)allocated(&r->memory, &v->previous_memory);
		if (model_is_base_sample(m, v->diff_key, r->labels))
			values[TICK_MEMORY] = diff_base_count(values[TICK_MEMORY]); /* negated, as its ticks */
		v->previous_memory = r->memory;
	}
}

static int is_time(const struct view *v, size_t i)
{
	return view_unit_ns(view_unit(v, i)) != 0;
}

/* The type pprof's default_sample_type names, or the reader's (docs/model.md); SIZE_MAX: none. */
static size_t named_default(const struct view *v)
{
	uint32_t name = model_get_meta(v->m, "default_sample_type");
	for (size_t i = 0; name != HASHIDX_NONE && i < v->n_types; i++)
		if (model_str_is(v->m, name, view_type(v, i)))
			return i;
	return SIZE_MAX;
}

static int is_count(const struct view *v, size_t i)
{
	return strcmp(view_unit(v, i), "count") == 0;
}

/* Can the type become ticks: a count, or a time? (A type_test, below.) */
static int can_tick(const struct view *v, size_t i, const uint8_t *flags)
{
	(void)flags;
	return is_count(v, i) || is_time(v, i);
}

/* SIZE_MAX when the profile has no type of the kind. */
static size_t default_type(const struct view *v, enum view_purpose purpose)
{
	if (v->n_types == 0)
		return SIZE_MAX;
	if (v->ticks)
		return purpose == VIEW_TIMELINE ? TICK_TIME : TICK_SAMPLES;
	size_t named = named_default(v), shown = named != SIZE_MAX ? named : v->n_types - 1;
	if (purpose != VIEW_TICKS)
		return shown;
	for (size_t i = 0; i < v->n_types; i++)
		if (strcmp(view_type(v, i), "samples") == 0 && is_count(v, i))
			return i;
	if (can_tick(v, shown, NULL))
		return shown;
	for (size_t i = 0; i < v->n_types; i++)
		if (can_tick(v, i, NULL))
			return i;
	return SIZE_MAX;
}

size_t view_default(const struct view *v)
{
	return default_type(v, VIEW_WEIGHT);
}

/*
 * The words users of each ecosystem say for a type (go tool pprof's
 * names, async-profiler's modes), each the first of its types that the
 * profile has: a name the profile itself has always wins.
 */
enum { ALIAS_TYPES = 6 };
static const struct {
	const char *alias;
	const char *types[ALIAS_TYPES]; /* NULL after the last */
} aliases[] = {
	{ "cpu", { "cpu", "jdk.ExecutionSample", "jdk.CPUTimeSample", "cpu-clock", "task-clock", "cycles" } },
	{ "wall", { "wall", "time" } },
	{ "alloc", { "alloc_objects", "jdk.ObjectAllocationSample", "jdk.ObjectAllocationInNewTLAB" } },
	{ "alloc-bytes", { "alloc_space", "jdk.ObjectAllocationSample:weight",
			   "jdk.ObjectAllocationInNewTLAB:allocationSize", "alloc" } },
	{ "lock", { "delay", "jdk.JavaMonitorEnter:duration", "jdk.ThreadPark:duration" } },
	{ "heap", { "inuse_space" } },
};

const char *view_alias(size_t k)
{
	return k < sizeof aliases / sizeof *aliases ? aliases[k].alias : NULL;
}

static size_t exact_type(const struct view *v, const char *name)
{
	for (size_t i = 0; i < v->n_types; i++)
		if (strcmp(view_type(v, i), name) == 0)
			return i;
	return SIZE_MAX;
}

static size_t aliased_type(const struct view *v, const char *wanted)
{
	for (size_t k = 0; k < sizeof aliases / sizeof *aliases; k++) {
		if (strcmp(aliases[k].alias, wanted) != 0)
			continue;
		for (size_t t = 0; t < ALIAS_TYPES && aliases[k].types[t]; t++)
			if (exact_type(v, aliases[k].types[t]) != SIZE_MAX)
				return exact_type(v, aliases[k].types[t]);
	}
	return SIZE_MAX;
}

size_t view_find(const struct view *v, const char *wanted)
{
	size_t i = exact_type(v, wanted);
	if (i == SIZE_MAX)
		i = aliased_type(v, wanted);
	char *end;
	unsigned long index = strtoul(wanted, &end, 10);
	if (i == SIZE_MAX && *wanted && !*end && index < v->n_types)
		i = index;
	return i;
}

/* Which types a message names: each test takes a view, a type and what the caller counted. */
typedef int (*type_test)(const struct view *v, size_t i, const uint8_t *flags);

static int flagged(const struct view *v, size_t i, const uint8_t *flags)
{
	(void)v;
	return flags[i];
}

static int not_flagged(const struct view *v, size_t i, const uint8_t *flags)
{
	(void)v;
	return !flags[i];
}

/*
 * "alloc_objects, inuse_objects" (with units: "samples/count, ...") for a
 * message (allocated): every type `fits` takes (all when NULL); "" when
 * none does.
 */
static char *join_types(const struct view *v, type_test fits, const uint8_t *flags, int units)
{
	size_t len = 0, cap = 0;
	char *text = NULL;
	grow((void **)&text, &cap, 1, 1);
	text[0] = '\0';
	for (size_t i = 0; i < v->n_types; i++) {
		if (fits && !fits(v, i, flags))
			continue;
		const char *type = view_type(v, i), *unit = units ? view_unit(v, i) : "";
		grow((void **)&text, &cap, len + strlen(type) + strlen(unit) + 4, 1);
		len += (size_t)sprintf(text + len, "%s%s%s%s", len ? ", " : "", type, units ? "/" : "", unit);
	}
	return text;
}

/*
 * A default that is zero in every sample draws an empty picture: say so,
 * naming the types that have data (Go's empty block and mutex profiles).
 */
static void warn_if_empty(const struct view *v, size_t type, const char *out_name)
{
	const struct model *m = v->m;
	uint8_t *has_data = xcalloc(v->n_types + 1, 1);
	struct row_cursor rows;
	rows_begin(m, &rows);
	for (const struct model_row *r; (r = rows_next(&rows)) && !has_data[type];)
		for (size_t k = 0; k < v->n_types; k++)
			has_data[k] |= r->values[k] != 0;
	rows_end(&rows);
	char *with_data = join_types(v, flagged, has_data, 0);
	if (!has_data[type] && m->n_rows)
		diag_warn(out_name, 0, "sample type %s is 0 in every sample%s%s", view_type(v, type),
			  *with_data ? "; types with data, for --sample-type: " : "", with_data);
	free(with_data);
	free(has_data);
}

int view_refuse_negative(const struct model *m, size_t index, size_t type, int64_t value,
			 const char *what, const char *out_name)
{
	struct view v;
	view_init(&v, m);
	int64_t *values = xmalloc((v.n_types + 1) * sizeof *values);
	uint8_t *negative = xcalloc(v.n_types + 1, 1);
	struct row_cursor rows;
	rows_begin(m, &rows);
	for (const struct model_row *r; (r = rows_next(&rows));) {
		view_values(&v, r, values);
		for (size_t k = 0; k < v.n_types; k++)
			negative[k] |= values[k] < 0;
	}
	rows_end(&rows);
	char *others = join_types(&v, not_flagged, negative, 0);
	diag_error(out_name, 0, "sample %zu has %s %lld: %s cannot hold a negative value%s%s",
		   index, view_type(&v, type), (long long)value, what,
		   *others ? "; types without, for --sample-type: " : "", others);
	free(others);
	free(values);
	free(negative);
	return -1;
}

/* A writer of ticks that cannot take the profile's default says which type it took instead. */
static void say_other_than_default(const struct view *v, size_t type, const char *out_name)
{
	size_t shown = view_default(v);
	if (shown != type && !can_tick(v, shown, NULL))
		diag_warn(out_name, 0, "writing sample type %s: the profile's default, %s, is neither a "
				       "count nor a time; choose another with --sample-type",
			  view_type(v, type), view_type(v, shown));
}

int view_pick(const struct view *v, const char *wanted, enum view_purpose purpose,
	      const char *out_name, size_t *type)
{
	*type = wanted ? view_find(v, wanted) : default_type(v, purpose);
	if (*type != SIZE_MAX) {
		if (!wanted && !v->ticks)
			warn_if_empty(v, *type, out_name);
		if (!wanted && !v->ticks && purpose == VIEW_TICKS)
			say_other_than_default(v, *type, out_name);
		return 0;
	}
	char *types = join_types(v, wanted ? NULL : can_tick, NULL, 1);
	if (wanted)
		diag_error(out_name, 0, "no sample type '%s'; choose one with --sample-type (%s)",
			   wanted, *types ? types : "the profile has none");
	else
		diag_error(out_name, 0, "no samples/count or time sample type to write as ticks; "
					"choose a count or a time with --sample-type (%s)",
			   *types ? types : "the profile has no count and no time type");
	free(types);
	return -1;
}

double view_ns_per_value(const char *unit, unsigned decimals)
{
	return (double)view_unit_ns(unit) / pow(10, decimals);
}

uint64_t view_unit_ns(const char *unit)
{
	static const struct {
		const char *name;
		uint64_t ns;
	} units[] = { { "nanoseconds", 1 }, { "microseconds", 1000 }, { "milliseconds", 1000000 },
		      { "seconds", 1000000000 } };
	for (size_t i = 0; i < sizeof units / sizeof *units; i++)
		if (strcmp(unit, units[i].name) == 0)
			return units[i].ns;
	return 0;
}
