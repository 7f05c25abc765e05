/*
 * aggregate: ticks per function name, as R's summaryRprof counts them
 * (by.self: the innermost frame; by.total: every name on the stack, once
 * per sample however often it recurs). A function counts by its shown
 * name (model_shown_name), so that functions of one name at other places
 * are rows apart. Frames with no function count by
 * the name viewers give them ("0x..." for an address, "<no location>"),
 * as folded stacks and Rprof show them. Shared by summaries and tests.
 * In a difference, self and total are the change (the profile minus the
 * base), and the base's own counts are kept beside them.
 */
#ifndef PROF_AGGREGATE_H
#define PROF_AGGREGATE_H

#include <stdint.h>

#include "model.h"
#include "view.h"

struct name_ticks {
	uint32_t name;       /* in name_totals.names */
	int64_t self, total; /* signed: a diff profile has negative values */
	/* In a difference (--diff-base), what the base's samples alone count, as the base counted them. */
	int64_t base_self, base_total;
};

struct name_totals {
	struct strtab names; /* a function's name (may be empty), or a frame's shown name */
	struct name_ticks *rows; /* one per name, in the order of first occurrence */
	size_t n;
};

/*
 * Ticks are the view's values of type `type`; rows with none are skipped.
 * Free with name_totals_free.
 */
void aggregate_by_name(struct view *v, size_t type, struct name_totals *out);
void name_totals_free(struct name_totals *t);

/*
 * What percentages of type `type` are of, as go tool pprof's (its report's
 * computeTotal): the sum of the values' magnitudes, or in a difference the
 * base's alone (-diff_base's percentages are of the base); of the whole
 * profile when a filter narrowed it (model.whole_totals).
 */
int64_t percent_total(struct view *v, size_t type);
/* percent_total of every type, malloc'd: n_types values. */
int64_t *percent_totals(const struct model *m);

#endif
