/*
 * aggregate: ticks per function name, as R's summaryRprof counts them
 * (by.self: the innermost frame; by.total: every name on the stack, once
 * per sample however often it recurs). Shared by summaries and tests.
 */
#ifndef PROF_AGGREGATE_H
#define PROF_AGGREGATE_H

#include <stdint.h>

#include "model.h"
#include "view.h"

struct name_ticks {
	uint32_t name;
	int64_t self, total; /* signed: a diff profile has negative values */
};

/*
 * One entry per distinct function name that occurs in a sample, in
 * the order of first occurrence; *count gets their number. Ticks are the
 * view's values of type `type`; rows with none are skipped, and so are
 * frames with no function (unsymbolized addresses). Free with free().
 */
struct name_ticks *aggregate_by_name(struct view *v, size_t type, size_t *count);

#endif
