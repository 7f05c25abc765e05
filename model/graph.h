/*
 * graph: a call graph's own figures, kept beside the samples made from
 * it (docs/model.md, "The kept call graph"). A pstats or callgrind file
 * is a call graph; the stacks made of it (model/callgraph.h) keep every
 * self cost, but no stacks can hold every inclusive cost and call count
 * a graph states. Its reader keeps here what the file says, so that the
 * same format's writer gives the file's own numbers back:
 *
 *  - functions: a function's own line (pstats' entry): its call counts,
 *    and per cost its self and inclusive cost (tt and ct);
 *  - arcs: the calls from a caller, at a site, into a callee: their
 *    counts, and per cost the callee's self cost in them (pstats' tt)
 *    and their inclusive cost (ct; callgrind's call cost);
 *  - selfs: a self cost at a location (callgrind's cost lines).
 *
 * Costs are in the units of the model's first `n_costs` sample types,
 * decimals included. The graph is true only of the samples it was made
 * with: a filter or a merge makes a new model without it, model_merge
 * drops it, and only the writer of the format it came from reads it.
 * Memory grows with functions, arcs and positions.
 */
#ifndef PROF_GRAPH_H
#define PROF_GRAPH_H

#include <stddef.h>
#include <stdint.h>

#include "../base/hashidx.h"

/* Whose figures the graph holds: only that format's writer reads them. */
enum model_graph_kind { MODEL_GRAPH_NONE, MODEL_GRAPH_PSTATS, MODEL_GRAPH_CALLGRIND };

struct model_graph_function {
	uint32_t function;
	int64_t calls, primitive_calls;
};

struct model_graph_arc {
	uint32_t caller, callee;
	uint32_t site;           /* a location of the caller; MODEL_NONE: none */
	uint32_t callee_object;  /* the callee's object file (callgrind's cob=), a string id; 0: none */
	int64_t calls, primitive_calls;
	uint8_t counts_only;     /* the profile module's bare count: no costs */
};

struct model_graph_self {
	uint32_t function, location;
};

struct model_graph {
	uint8_t kind; /* enum model_graph_kind */
	size_t n_costs;
	struct model_graph_function *functions;
	size_t n_functions, cap_functions;
	int64_t *function_costs; /* per function: n_costs self, then n_costs inclusive */
	size_t cap_function_costs;
	struct model_graph_arc *arcs;
	size_t n_arcs, cap_arcs;
	int64_t *arc_costs; /* per arc: n_costs self, then n_costs inclusive */
	size_t cap_arc_costs;
	struct hashidx arc_index; /* (site, callee), for model_graph_arc_at */
	struct model_graph_self *selfs;
	size_t n_selfs, cap_selfs;
	int64_t *self_costs; /* per self: n_costs */
	size_t cap_self_costs;
	struct hashidx self_index;
};

/* Starts an empty graph of `kind` with n_costs costs per item (at least 1). */
void model_graph_begin(struct model_graph *g, enum model_graph_kind kind, size_t n_costs);
/* Frees it and leaves no graph (MODEL_GRAPH_NONE). */
void model_graph_free(struct model_graph *g);

/* Appends a function's line; its costs, all zero, are filled by the caller. */
size_t model_graph_add_function(struct model_graph *g, const struct model_graph_function *f);
/* Appends an arc; its costs, all zero, are filled by the caller. */
size_t model_graph_add_arc(struct model_graph *g, const struct model_graph_arc *a);
/* The arc of `a`'s site and callee, appended as `a` (counts 0) when there is none yet. */
size_t model_graph_arc_at(struct model_graph *g, const struct model_graph_arc *a);
/* The self cost at a location, appended with costs 0 when there is none yet. */
size_t model_graph_self_at(struct model_graph *g, uint32_t function, uint32_t location);

/* An item's costs: self then inclusive for functions and arcs, n_costs each. */
static inline int64_t *model_graph_function_costs(const struct model_graph *g, size_t f)
{
	return g->function_costs + f * 2 * g->n_costs;
}
static inline int64_t *model_graph_arc_costs(const struct model_graph *g, size_t a)
{
	return g->arc_costs + a * 2 * g->n_costs;
}
static inline int64_t *model_graph_self_costs(const struct model_graph *g, size_t s)
{
	return g->self_costs + s * g->n_costs;
}

#endif
