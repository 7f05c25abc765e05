/*
 * sprof: Sawitzki's views of a profile (R package sprof; what it computes,
 * and where prof differs and why: docs/formats/sprof.md), worked out once
 * for the tables (-t sprof, sprof_write.c) and the plots (-t sprofplot,
 * sprofplot_write.c). sprof's definitions, without its unit bugs:
 *
 *  - a record is one sample (for an R profile, one tick); counts are in
 *    samples, or in the chosen sample type for other profiles (records of
 *    value 0 are no records); times in the time type's unit (an R
 *    profile's: each tick at its run's interval);
 *  - a stack is a sequence of node names (function names), root first,
 *    numbered from 1 as it first appears; records of the empty stack are
 *    records, of a stack of length 0;
 *  - a node is a function name: self counts the records it ends, total
 *    those it is in (once, however often it recurs);
 *  - runs (rrle): a run at depth d is a longest stretch of consecutive
 *    records whose stacks agree on depths 1..d, a box of a time-ordered
 *    flame chart; a node's nr_runs counts its runs at every depth.
 *
 * Memory grows with the profile's distinct stacks and functions (and the
 * deepest stack), never with its records: the rows are streamed.
 */
#ifndef PROF_SPROF_H
#define PROF_SPROF_H

#include <stdint.h>

#include "../render/abbreviate.h"
#include "../render/flame.h"
#include "format.h"

/* A prefix of stacks: a node name under a shorter prefix, stored once. */
struct sprof_seq {
	uint32_t key;    /* flame key of the innermost name; MODEL_NONE for the empty stack */
	uint32_t parent; /* the prefix one shorter; MODEL_NONE for the empty stack */
	uint32_t depth;  /* names in it */
	uint32_t root;   /* key of its outermost name */
};

struct sprof_stack {
	uint32_t seq;
	int64_t count, time; /* sprof's refcount, in records and in time */
};

struct sprof_node {
	int64_t self, total, self_time, total_time;
	uint64_t runs;              /* nr_runs */
	int64_t run_count, run_time; /* summed over its runs */
	uint8_t root, leaf;         /* outermost, innermost frame of some stack */
};

struct sprof {
	const struct model *m;
	struct view view;
	size_t type;      /* what a record counts */
	size_t time_type; /* SIZE_MAX when the profile has no time */
	double ns_per_time_value; /* view_ns_per_value of time_type */
	struct flame_keys keys; /* node names: one per function name */
	struct sprof_seq *seqs; /* [0] is the empty stack */
	size_t n_seqs, cap_seqs;
	struct hashidx seq_index;
	uint32_t *seq_of_stack; /* by model stack; MODEL_NONE until met */
	uint32_t *stack_of_seq; /* stack number from 0; MODEL_NONE for a prefix alone */
	size_t cap_stack_of_seq;
	struct sprof_stack *stacks; /* in order of first appearance */
	size_t n_stacks, cap_stacks;
	struct sprof_node *nodes; /* by key */
	uint32_t *node_keys;      /* the nodes' keys, by name in byte order */
	size_t n_nodes;
	struct abbreviations short_names; /* by position in node_keys */
	int64_t len, time; /* records, and their time */
	uint64_t runs;     /* runs of records with the identical stack */
	uint32_t max_depth;
	uint64_t *per_level; /* [d - 1]: distinct nodes at depth d over the stacks */
};

/*
 * Streams the profile once and works out every view. The count type is
 * --sample-type's, else samples (R's ticks, a samples/count type) or the
 * first time type. 0, or -1 after reporting (no such type, or a negative
 * value) naming `out`; free with sprof_free either way.
 */
int sprof_init(struct sprof *s, const struct model *m, const char *sample_type, struct output *out);
void sprof_free(struct sprof *s);

/* What a row's records count (its value of the count type), and their time. */
int64_t sprof_row_count(const struct sprof *s, const int64_t *values);
int64_t sprof_row_time(const struct sprof *s, const int64_t *values);
/* The stack number (from 0) of a model stack of a counted row. */
uint32_t sprof_stack_of(const struct sprof *s, uint32_t model_stack);
/* A node's name as shown (a key from node_keys): valid until a name is first made. */
const char *sprof_name(struct sprof *s, uint32_t key, size_t *len);

/* Seconds in `time` units of the time type, as text: "%.6f", or "NA" without a time type. */
void sprof_seconds(const struct sprof *s, double time, char *text, size_t size);

#endif
