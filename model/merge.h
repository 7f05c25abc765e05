/* merge: one profile appended to another (several inputs, as pprof merges). */
#ifndef PROF_MERGE_H
#define PROF_MERGE_H

#include "model.h"

/* Appends src to dst; -1 after reporting, naming src_name, when they cannot merge. */
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
