/* merge: one profile appended to another (several inputs, as pprof merges). */
#ifndef PROF_MERGE_H
#define PROF_MERGE_H

#include "model.h"

/* Appends src to dst; -1 after reporting, naming src_name, when they cannot merge. */
int model_merge(struct model *dst, const struct model *src, const char *src_name);

#endif
