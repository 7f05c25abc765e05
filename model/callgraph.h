/*
 * callgraph: a profile that is a call graph, not stacks, turned into the
 * model's samples. A reader of such a format (callgrind; Python's pstats)
 * adds each function's self cost per location and each call arc's
 * inclusive cost, in its file's order, then asks for the samples; the
 * decomposition, the same for every such format, is the one
 * docs/callgraph.md says, in short:
 *
 *  - flow starts at the functions nobody calls, then at what called
 *    functions start by themselves (what they hold beyond their calls in);
 *  - flow reaching a function is spent in the order its self costs and
 *    arcs were first added: a self cost becomes a sample under the path,
 *    an arc passes flow on for at most its inclusive cost, never into a
 *    function already on the path (recursion is counted once);
 *  - self cost that no path reached is a one-frame sample, so every
 *    self cost is kept exactly.
 *
 * Functions and locations are the model's ids; costs come one per event,
 * the model's first sample types in order. The sample types after the
 * events are call counts (pstats' calls and primitive calls): they do not
 * flow; each arc's counts become one sample with the callee under the
 * caller, on the first path the flow brought the caller (docs/callgraph.md).
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
 * Adds the counts (one per count type) of the calls from `site`, a
 * location of `caller`, into `callee`, whose frame is `callee_location`;
 * `caller` MODEL_NONE for calls from outside the profile, a one-frame
 * sample.
 */
void callgraph_add_count(struct callgraph *g, uint32_t caller, uint32_t site, uint32_t callee,
			 uint32_t callee_location, const int64_t *counts);

/* Adds the samples to the model, event by event, spending the graph's costs. */
void callgraph_samples(struct callgraph *g);

/* Frees the graph (not the model). */
void callgraph_free(struct callgraph *g);

#endif
