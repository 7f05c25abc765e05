/*
 * merge: several profiles made one, as pprof merges them
 * (docs/formats/pprof.md, "Merging"). Inputs are folded into the result
 * one at a time and may be freed as soon as they are in, so a merge of
 * thousands of files holds one input and the result, never all of them.
 */
#ifndef PROF_MERGE_H
#define PROF_MERGE_H

#include "model.h"

/*
 * A merge in progress. Its indexes key the result's functions, locations
 * and mappings as pprof's merge does (by what they are, not by the ids a
 * file gave them), so that equal ones from different inputs meet; while
 * samples are summed, `samples` holds one sum per stack and label set.
 */
struct merge {
	struct model *dst;
	int started;      /* an input is in */
	int append_only;  /* model_merge: rows appended, never summed */
	int summing;      /* samples are summed (some input had no times) */
	struct hashidx functions, locations, mappings;
	struct hashidx sample_index;
	struct merged_sample {
		uint32_t stack, labels;
	} *samples;
	size_t n_samples, cap_samples;
	int64_t *sums; /* n_sample_types per sample */
	size_t cap_sums;
	/* pprof's header numbers: the earliest start, the total duration, the largest period. */
	int64_t time_nanos, duration_nanos, period;
	uint8_t has_time, has_duration, has_period;
};

/* Starts a merge into dst, an empty model (model_init). */
void merge_begin(struct merge *mg, struct model *dst);
/*
 * Folds src into the result; src is not kept (free it after). -1 after
 * reporting, naming src_name, when it cannot merge: the merge is then
 * over (call merge_end to free it).
 */
int merge_add(struct merge *mg, const struct model *src, const char *src_name);
/* Finishes the result: the summed samples become its rows. Frees the merge's own memory. */
void merge_end(struct merge *mg);

/*
 * Appends src's rows after dst's (a difference's base, a fuzzer's merge
 * of a profile with itself), by the same rules for tables and header; -1
 * after reporting, naming src_name, when they cannot merge.
 */
int model_merge(struct model *dst, const struct model *src, const char *src_name);

/*
 * How rows change on their way into a copy: each stack through `stacks`
 * (MODEL_NONE: the row is dropped), each label set through `label_sets`,
 * of the samples by their index in time order only [first_sample,
 * end_sample) kept, and each value times `scale` (per type, rounded to
 * the nearest; a row whose values all become 0 is dropped, as pprof drops
 * it). NULL maps and scale: unchanged.
 */
struct row_edit {
	const uint32_t *stacks, *label_sets;
	uint64_t first_sample, end_sample;
	const double *scale;
};

/*
 * Fills `dst` (uninitialised) with a copy of src, every table and row,
 * its rows edited by `edit` (NULL: none); runs and #File lines keep their
 * places among the rows that are left.
 */
void model_copy(struct model *dst, const struct model *src, const struct row_edit *edit);

#endif
