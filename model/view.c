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

/* pprof's default_sample_type when it names a type, else the last type. */
static size_t default_weight(const struct view *v)
{
	uint32_t name = model_get_meta(v->m, "default_sample_type");
	for (size_t i = 0; name != HASHIDX_NONE && i < v->n_types; i++)
		if (model_str_is(v->m, name, view_type(v, i)))
			return i;
	return v->n_types - 1;
}

/* SIZE_MAX when the profile has no type of the kind. */
static size_t default_type(const struct view *v, enum view_purpose purpose)
{
	if (v->n_types == 0)
		return SIZE_MAX;
	if (v->ticks)
		return purpose == VIEW_TIMELINE ? TICK_TIME : TICK_SAMPLES;
	if (purpose != VIEW_TICKS)
		return default_weight(v);
	for (size_t i = 0; i < v->n_types; i++)
		if (strcmp(view_type(v, i), "samples") == 0 && strcmp(view_unit(v, i), "count") == 0)
			return i;
	for (size_t i = 0; i < v->n_types; i++)
		if (is_time(v, i))
			return i;
	return SIZE_MAX;
}

static size_t named_type(const struct view *v, const char *wanted)
{
	for (size_t i = 0; i < v->n_types; i++)
		if (strcmp(view_type(v, i), wanted) == 0)
			return i;
	char *end;
	unsigned long i = strtoul(wanted, &end, 10);
	return *wanted && !*end && i < v->n_types ? i : SIZE_MAX;
}

/* Which types a message names: each test takes a view, a type and what the caller counted. */
typedef int (*type_test)(const struct view *v, size_t i, const uint8_t *flags);

/* Can the type become ticks: a count, or a time? */
static int can_tick(const struct view *v, size_t i, const uint8_t *flags)
{
	(void)flags;
	return strcmp(view_unit(v, i), "count") == 0 || is_time(v, i);
}

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
 * message: the types `fits` takes (all when NULL), cut short when long.
 * Returns the length; text is "" when no type fits.
 */
static size_t join_types(const struct view *v, type_test fits, const uint8_t *flags, int units,
			 char *text, size_t size)
{
	size_t len = 0;
	text[0] = '\0';
	for (size_t i = 0; i < v->n_types && len + 1 < size; i++)
		if (!fits || fits(v, i, flags))
			len += (size_t)snprintf(text + len, size - len, "%s%s%s%s", len ? ", " : "",
						view_type(v, i), units ? "/" : "", units ? view_unit(v, i) : "");
	return len;
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
	char with_data[200];
	size_t len = join_types(v, flagged, has_data, 0, with_data, sizeof with_data);
	if (!has_data[type] && m->n_rows)
		diag_warn(out_name, 0, "sample type %s is 0 in every sample%s%s", view_type(v, type),
			  len ? "; types with data, for --sample-type: " : "", with_data);
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
	char others[200];
	size_t len = join_types(&v, not_flagged, negative, 0, others, sizeof others);
	diag_error(out_name, 0, "sample %zu has %s %lld: %s cannot hold a negative value%s%s",
		   index, view_type(&v, type), (long long)value, what,
		   len ? "; types without, for --sample-type: " : "", others);
	free(values);
	free(negative);
	return -1;
}

int view_pick(const struct view *v, const char *wanted, enum view_purpose purpose,
	      const char *out_name, size_t *type)
{
	*type = wanted ? named_type(v, wanted) : default_type(v, purpose);
	if (*type != SIZE_MAX) {
		if (!wanted && !v->ticks)
			warn_if_empty(v, *type, out_name);
		return 0;
	}
	char types[200];
	if (wanted) {
		size_t len = join_types(v, NULL, NULL, 1, types, sizeof types);
		diag_error(out_name, 0, "no sample type '%s'; choose one with --sample-type (%s)",
			   wanted, len ? types : "the profile has none");
	} else {
		size_t len = join_types(v, can_tick, NULL, 1, types, sizeof types);
		diag_error(out_name, 0, "no samples/count or time sample type to write as ticks; "
					"choose a count or a time with --sample-type (%s)",
			   len ? types : "the profile has no count and no time type");
	}
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
