/*
 * diff: one profile minus another, as go tool pprof's -diff_base makes it
 * (docs/filters.md): the base's samples are merged in with their values
 * negated and the label pprof::base=true, so that pprof output is what Go
 * writes and reads, and a writer that shows a difference (folded's two
 * counts, the flame graph's colours, the summary's delta) tells the base's
 * samples by that label.
 */
#ifndef PROF_DIFF_H
#define PROF_DIFF_H

#include <stdint.h>

#include "model.h"

#define DIFF_BASE_LABEL "pprof::base"

/*
 * Subtracts `base` (read from `base_name`, and consumed: free it after)
 * from m; with `normalize`, m is first scaled to the base's totals, type
 * by type. -1 after reporting when the two cannot be compared. Validate
 * m after: the two sides' values together may sum past what writers add.
 */
int model_diff(struct model *m, struct model *base, int normalize, const char *base_name);

/* The key of the label that marks a base sample; MODEL_NONE in a profile that is no difference. */
uint32_t model_diff_key(const struct model *m);
/* Does label set `label_set` mark a base sample? (key: model_diff_key's) */
int model_is_base_sample(const struct model *m, uint32_t key, uint32_t label_set);

/* A base sample's value as the base counted it: negated back, INT64_MIN to INT64_MAX. */
static inline int64_t diff_base_count(int64_t value)
{
	return value == INT64_MIN ? INT64_MAX : -value;
}

#endif
