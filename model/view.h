/*
 * view: the sample types a profile shows to viewers (pprof, speedscope,
 * summaries, folded stacks, trees). A profile read from Rprof counts ticks
 * only; its view adds CPU time (ticks x interval of the sample's run,
 * cpu/nanoseconds) and, with memory profiling, alloc/bytes: the bytes
 * allocated at each sample by summaryRprof's rule (the growth of
 * 8*small_v + 8*big_v + nodes since the sample before in the run, or 0).
 * Any other profile is seen as it is, each value times its row's repeat.
 */
#ifndef PROF_VIEW_H
#define PROF_VIEW_H

#include "model.h"

struct view {
	const struct model *m;
	size_t n_types;
	int from_rprof;
	uint64_t previous_memory;
};

void view_init(struct view *v, const struct model *m);
const char *view_type(const struct view *v, size_t i);
const char *view_unit(const struct view *v, size_t i);
/*
 * The values of a row, one per type. Rows must be asked for in order:
 * bytes allocated depend on the row before.
 */
void view_values(struct view *v, const struct model_row *row, int64_t *values);
/*
 * The type named by `wanted` (a name or a 0-based index), or when NULL the
 * default: samples for Rprof, else pprof's default_sample_type, else the
 * last type. -1 after reporting (naming --sample-type) when there is none.
 */
int view_pick(const struct view *v, const char *wanted, const char *out_name, size_t *type);

/* Nanoseconds in one of a time unit (nanoseconds ... seconds); 0 for any other unit. */
uint64_t view_unit_ns(const char *unit);

#endif
