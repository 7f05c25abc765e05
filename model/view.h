/*
 * view: the sample types a profile shows to writers, and the one place
 * that chooses which of them a writer writes (docs/model.md).
 *
 * A profile whose rows carry sessions counts ticks only (R's profiler:
 * one tick per interval). Its view adds time, samples/count ticks times
 * the interval of the sample's session as cpu/nanoseconds, and with memory
 * profiling alloc/bytes: the bytes allocated at each sample by
 * summaryRprof's rule (8*small_v + 8*big_v + nodes, each counter's growth
 * since the sample before in the session floored at 0; 0 for a session's
 * first sample; negated for a base sample of a difference, whose ticks
 * are). Any other profile is seen as it is, each value times its row's
 * repeat.
 */
#ifndef PROF_VIEW_H
#define PROF_VIEW_H

#include "model.h"

struct view {
	const struct model *m;
	size_t n_types;
	int ticks; /* the rows carry sessions: types are ticks, time, memory */
	struct model_memory previous_memory;
	uint32_t diff_key; /* a difference's base label (diff.h); MODEL_NONE: no difference */
};

void view_init(struct view *v, const struct model *m);
const char *view_type(const struct view *v, size_t i);
const char *view_unit(const struct view *v, size_t i);
/* Where the point is in the type's values (model_sample_type.decimals); 0 for ticks. */
unsigned view_decimals(const struct view *v, size_t i);
/*
 * Reports that `what` ("Rprof") holds whole numbers only, and type `type`
 * has decimals; returns -1. A writer that counts calls it when the type it
 * picked has decimals, rather than round.
 */
int view_refuse_decimals(const struct view *v, size_t type, const char *what, const char *out_name);
/*
 * The values of a row, one per type. Rows must be asked for in order:
 * bytes allocated depend on the row before.
 */
void view_values(struct view *v, const struct model_row *row, int64_t *values);

/* What a writer will do with the type it picks, which decides the default. */
enum view_purpose {
	/* Weights (folded, trees, summaries): ticks for a profile of ticks, else
	 * the type meta default_sample_type names (pprof's, or the one the
	 * reader's own tools show first), else the last type, as go tool pprof. */
	VIEW_WEIGHT,
	/* A timeline: as VIEW_WEIGHT, but time for a profile of ticks. */
	VIEW_TIMELINE,
	/* Lines of ticks: a samples/count type, else VIEW_WEIGHT's when it is a
	 * count or a time (JFR's jdk.ExecutionSample), else the first count or
	 * time; a default passed over that is neither is named in a warning. */
	VIEW_TICKS,
};

/*
 * The type `wanted` names (from --sample-type): a type's name, an alias
 * (view_alias), or a 0-based index; SIZE_MAX when none.
 */
size_t view_find(const struct view *v, const char *wanted);
/*
 * Alias k, NULL past the last: a word users say ("cpu", "alloc-bytes"),
 * naming the first of the types it stands for that the profile has.
 */
const char *view_alias(size_t k);

/* The type a summary or a flame graph shows unless told (VIEW_WEIGHT); SIZE_MAX: no types. */
size_t view_default(const struct view *v);

/*
 * The type named by `wanted` (view_find), or when wanted is NULL the default for `purpose`.
 * 0, or -1 after reporting, naming `out_name`, the types there are and
 * --sample-type.
 */
int view_pick(const struct view *v, const char *wanted, enum view_purpose purpose,
	      const char *out_name, size_t *type);

/*
 * Reports that sample `index` has the negative `value` of `type`, which
 * `what` ("folded stacks") cannot hold, naming the types without negative
 * values for --sample-type (a delta profile's counts often have none).
 * Returns -1.
 */
int view_refuse_negative(const struct model *m, size_t index, size_t type, int64_t value,
			 const char *what, const char *out_name);

/* Nanoseconds in one of a time unit (nanoseconds ... seconds); 0 for any other unit. */
uint64_t view_unit_ns(const char *unit);

/*
 * Nanoseconds in one stored value of a type in `unit` with `decimals`:
 * values are fixed point (2.5 seconds at 1 decimal is stored as 25, each
 * 10^8 ns); 0 when the unit is not a time. Every value turned into a time
 * (the summary, --time, sprof's seconds, speedscope's clock) is scaled by
 * this, so that decimals count the same way everywhere.
 */
double view_ns_per_value(const char *unit, unsigned decimals);

#endif
