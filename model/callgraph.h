/*
 * callgraph: a profile that is a call graph, not stacks, turned into the
 * model's samples. A reader of such a format (callgrind; Python's pstats)
 * adds each function's self cost per location and each call arc's
 * inclusive cost, then asks for the samples; the decomposition, the same
 * for every such format, is the one docs/callgraph.md says, in short:
 *
 *  - the cycles (strongly connected components) are condensed, so the
 *    graph is a DAG whose arcs carry their measured inclusive costs;
 *  - each component stands for T = the larger of what its callers' arcs
 *    bring and what it holds (self costs and calls out of it); nobody
 *    calling it, it starts T at the top of a stack; called for less than
 *    it holds, it starts the rest under "(no recorded caller)"; called
 *    for more, the rest is "(untraced calls)" under it;
 *  - what arrives at a component is split over what it holds in
 *    proportion, in whole units, so every self cost, call and arrival
 *    sums exactly; a cycle is laid out as a tree from where it is entered.
 *
 * Functions and locations are the model's ids; costs come one per event,
 * the model's first sample types in order. The sample types after the
 * events are call counts (pstats' calls and primitive calls): they do not
 * flow; each arc's counts go with the callee under the caller, on the
 * first stack its arc's flow brought the callee, else on the first stack
 * the flow brought the caller (docs/callgraph.md).
 */
#ifndef PROF_CALLGRAPH_H
#define PROF_CALLGRAPH_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"

struct callgraph;

/*
 * An empty graph whose samples go to `m`, with `n_events` costs per entry;
 * the model's sample types past them (added before) are counts.
 */
struct callgraph *callgraph_new(struct model *m, size_t n_events);

/*
 * Adds `costs` to the self cost of `function` at `location` (a location
 * belongs to the function given first for it: the one whose flow places
 * its cost, which for an inlined frame is the function it is inlined
 * into). -1 when a sum would pass 2^63-1, for the caller to report.
 */
int callgraph_add_self(struct callgraph *g, uint32_t function, uint32_t location, const int64_t *costs);

/*
 * Adds `costs` to the inclusive cost of the calls from `site`, a location
 * of `caller`, into `callee`; an arc is its site and callee. -1 as above.
 */
int callgraph_add_call(struct callgraph *g, uint32_t caller, uint32_t site, uint32_t callee,
		       const int64_t *costs);

/*
 * As callgraph_add_call, for a reader whose arcs are distinct by the
 * format's own rule (pstats: each caller of a function once), which so
 * skips the lookup; a reader uses one of the two, never both.
 */
int callgraph_add_distinct_call(struct callgraph *g, uint32_t caller, uint32_t site, uint32_t callee,
				const int64_t *costs);

/*
 * Sets the profiler's own total (inclusive cost, one per event) of
 * `function` (pstats' ct): within a cycle, no function is laid out to a
 * total above it where the cycle's calls leave a choice. Optional.
 */
void callgraph_set_total(struct callgraph *g, uint32_t function, const int64_t *totals);

/*
 * Adds the counts (one per count type) of the calls from `site`, a
 * location of `caller`, into `callee`, whose frame is `callee_location`;
 * `caller` MODEL_NONE for calls from outside the profile, a one-frame
 * sample. Counts added right after their arc (the last added has the same
 * caller, site and callee) ride with its flow.
 */
void callgraph_add_count(struct callgraph *g, uint32_t caller, uint32_t site, uint32_t callee,
			 uint32_t callee_location, const int64_t *counts);

/* Adds the samples to the model, event by event, spending the graph's costs. */
void callgraph_samples(struct callgraph *g);

/* Frees the graph (not the model). */
void callgraph_free(struct callgraph *g);

#endif
