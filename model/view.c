#include "view.h"

#include <stdlib.h>
#include <string.h>

#include "../io/diag.h"

static const char *const rprof_types[3][2] = {
	{ "samples", "count" }, { "cpu", "nanoseconds" }, { "alloc", "bytes" }
};

void view_init(struct view *v, const struct model *m)
{
	v->m = m;
	v->from_rprof = m->n_runs > 0;
	v->n_types = v->from_rprof ? 2 + (size_t)m->has_memory : m->n_sample_types;
	v->previous_memory = 0;
}

const char *view_type(const struct view *v, size_t i)
{
	return v->from_rprof ? rprof_types[i][0] : model_cstr(v->m, v->m->sample_types[i].type);
}

const char *view_unit(const struct view *v, size_t i)
{
	return v->from_rprof ? rprof_types[i][1] : model_cstr(v->m, v->m->sample_types[i].unit);
}

static uint64_t memory_total(const struct model_memory *mem)
{
	return 8 * mem->small_v + 8 * mem->big_v + mem->nodes;
}

void view_values(struct view *v, const struct model_row *r, int64_t *values)
{
	const struct model *m = v->m;
	if (!v->from_rprof) {
		for (size_t k = 0; k < v->n_types; k++)
			values[k] = r->values[k] * (int64_t)r->repeat;
		return;
	}
	const struct model_run *run = &m->runs[r->run];
	int64_t ticks = (int64_t)r->repeat * r->values[0];
	values[0] = ticks;
	values[1] = ticks * (int64_t)run->interval_us * 1000;
	if (!m->has_memory)
		return;
	values[2] = 0;
	if (run->memory_profiling) {
		uint64_t total = memory_total(&r->memory);
		if (r->index > run->first_row && total > v->previous_memory)
			values[2] = (int64_t)(total - v->previous_memory);
		v->previous_memory = total;
	}
}

int view_pick(const struct view *v, const char *wanted, const char *out_name, size_t *type)
{
	if (!v->from_rprof) {
		uint32_t t = model_sample_type(v->m, wanted);
		*type = t;
		if (t != HASHIDX_NONE)
			return 0;
	} else if (!wanted) {
		*type = 0;
		return 0;
	} else {
		char *end;
		unsigned long i = strtoul(wanted, &end, 10);
		for (size_t k = 0; k < v->n_types; k++)
			if (strcmp(view_type(v, k), wanted) == 0 || (*wanted && !*end && i == k))
				return *type = k, 0;
	}
	diag_error(out_name, 0, "no sample type '%s'; choose one with --sample-type (%s%s%s)",
		   wanted ? wanted : "", v->n_types ? view_type(v, 0) : "the profile has none",
		   v->n_types > 1 ? ", ..., " : "", v->n_types > 1 ? view_type(v, v->n_types - 1) : "");
	return -1;
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
