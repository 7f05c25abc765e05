/*
 * callgraph: a call graph's costs decomposed into stacks (callgraph.h;
 * docs/callgraph.md says why and what it means). The graph keeps, per
 * function, the order in which its self costs and arcs were added. The
 * decomposition spends the costs themselves as it places them (nothing is
 * copied, however large the graph), so a graph gives its samples once.
 */
#include "callgraph.h"

#include <stdlib.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/checked.h"
#include "../base/hashidx.h"

/* Self cost at a location of a function; values in self_values, n_events each. */
struct self_cost {
	uint32_t location, function;
};

/* Calls from a location of a function into another function. */
struct arc {
	uint32_t site, caller, callee; /* a location; two functions */
};

/* Calls counted on an arc (caller MODEL_NONE: from outside); values in count_values. */
struct count_arc {
	uint32_t caller, site, callee, callee_location;
};

/* Per function, what its flow may go to, in the order added: a self cost or an arc. */
struct entry {
	uint32_t function;
	uint32_t index;
	uint8_t is_arc;
};

struct callgraph {
	struct model *m;
	size_t n_events;
	struct self_cost *selfs;
	size_t n_selfs, cap_selfs;
	int64_t *self_values;
	size_t cap_self_values;
	struct arc *arcs;
	size_t n_arcs, cap_arcs;
	int64_t *arc_values; /* the calls' inclusive costs */
	size_t cap_arc_values;
	struct hashidx arc_index;
	struct entry *entries;
	size_t n_entries, cap_entries;
	uint32_t *self_of_location; /* by location id: its self cost + 1, 0 for none */
	size_t cap_self_of_location;
	size_t n_counts; /* count types, after the events */
	struct count_arc *counts;
	size_t n_count_arcs, cap_count_arcs;
	int64_t *count_values;
	size_t cap_count_values;
	/* By function: the stack above its frame when flow first reached it; MODEL_NONE before. */
	uint32_t *first_callers;
};

struct callgraph *callgraph_new(struct model *m, size_t n_events)
{
	struct callgraph *g = xcalloc(1, sizeof *g);
	g->m = m;
	g->n_events = n_events;
	g->n_counts = m->n_sample_types - n_events;
	return g;
}

void callgraph_free(struct callgraph *g)
{
	hashidx_free(&g->arc_index);
	free(g->selfs);
	free(g->self_values);
	free(g->arcs);
	free(g->arc_values);
	free(g->entries);
	free(g->self_of_location);
	free(g->counts);
	free(g->count_values);
	free(g->first_callers);
	free(g);
}

/* values += costs; -1 when a sum passes 2^63-1. */
static int add_costs(const struct callgraph *g, int64_t *values, const int64_t *costs)
{
	for (size_t e = 0; e < g->n_events; e++)
		if (checked_add_i64(values[e], costs[e], &values[e]))
			return -1;
	return 0;
}

static void add_entry(struct callgraph *g, uint32_t function, size_t index, int is_arc)
{
	grow((void **)&g->entries, &g->cap_entries, g->n_entries + 1, sizeof *g->entries);
	g->entries[g->n_entries++] = (struct entry){ function, (uint32_t)index, (uint8_t)is_arc };
}

/* Room for n + 1 rows of n_events values, the last one zeroed. */
static void grow_values(const struct callgraph *g, int64_t **values, size_t *cap, size_t n)
{
	grow((void **)values, cap, (n + 1) * g->n_events, sizeof **values);
	memset(*values + n * g->n_events, 0, g->n_events * sizeof **values);
}

int callgraph_add_self(struct callgraph *g, uint32_t function, uint32_t location, const int64_t *costs)
{
	if (location >= g->cap_self_of_location) {
		size_t had = g->cap_self_of_location;
		grow((void **)&g->self_of_location, &g->cap_self_of_location, (size_t)location + 1,
		     sizeof *g->self_of_location);
		memset(g->self_of_location + had, 0, (g->cap_self_of_location - had) * sizeof *g->self_of_location);
	}
	if (g->self_of_location[location] == 0) {
		size_t n = g->n_selfs;
		grow((void **)&g->selfs, &g->cap_selfs, n + 1, sizeof *g->selfs);
		grow_values(g, &g->self_values, &g->cap_self_values, n);
		g->selfs[n] = (struct self_cost){ location, function };
		g->self_of_location[location] = (uint32_t)++g->n_selfs;
		add_entry(g, function, n, 0);
	}
	return add_costs(g, g->self_values + (g->self_of_location[location] - 1) * g->n_events, costs);
}

static int arc_eq(const void *ctx, uint32_t id, const void *key)
{
	const struct arc *a = &((const struct callgraph *)ctx)->arcs[id], *k = key;
	return a->site == k->site && a->callee == k->callee;
}

int callgraph_add_call(struct callgraph *g, uint32_t caller, uint32_t site, uint32_t callee,
		       const int64_t *costs)
{
	struct arc k = { site, caller, callee };
	uint64_t h = hash_mix(site, callee);
	uint32_t at = hashidx_find(&g->arc_index, h, arc_eq, g, &k);
	if (at == HASHIDX_NONE) {
		size_t n = g->n_arcs;
		grow((void **)&g->arcs, &g->cap_arcs, n + 1, sizeof *g->arcs);
		grow_values(g, &g->arc_values, &g->cap_arc_values, n);
		g->arcs[n] = k;
		at = (uint32_t)g->n_arcs++;
		hashidx_insert(&g->arc_index, h, at);
		add_entry(g, caller, at, 1);
	}
	return add_costs(g, g->arc_values + (size_t)at * g->n_events, costs);
}

void callgraph_add_count(struct callgraph *g, uint32_t caller, uint32_t site, uint32_t callee,
			 uint32_t callee_location, const int64_t *counts)
{
	size_t n = g->n_count_arcs;
	grow((void **)&g->counts, &g->cap_count_arcs, n + 1, sizeof *g->counts);
	grow((void **)&g->count_values, &g->cap_count_values, (n + 1) * g->n_counts + 1, sizeof *g->count_values);
	g->counts[n] = (struct count_arc){ caller, site, callee, callee_location };
	memcpy(g->count_values + n * g->n_counts, counts, g->n_counts * sizeof *counts);
	g->n_count_arcs++;
}

static int64_t min64(int64_t a, int64_t b)
{
	return a < b ? a : b;
}

/* One function on the path that carries flow, with what it has left to place. */
struct frame {
	uint32_t function;
	uint32_t callers; /* the stack above it */
	int64_t left, asked;
	size_t next;      /* its next out entry */
	uint32_t arc;     /* the arc whose callee is the frame above; MODEL_NONE */
};

struct flow {
	struct callgraph *g;
	size_t event;
	size_t *first;   /* by function: its out entries are first[f] .. first[f+1] */
	size_t *start;   /* by function: entries before it are spent, for this event */
	int64_t *brought; /* by function: the event's cost of the calls into it from others */
	int64_t *own;     /* by function: the flow it starts by itself (own_flow) */
	struct entry *sorted;
	uint8_t *on_path;
	struct frame *path;
	size_t depth, cap_path;
	int64_t *values;
};

static void emit(struct flow *f, uint32_t location, uint32_t callers, int64_t value)
{
	memset(f->values, 0, f->g->m->n_sample_types * sizeof *f->values);
	f->values[f->event] = value;
	model_add_sample(f->g->m, model_stack(f->g->m, location, callers), f->values, NULL, 0);
}

static void push(struct flow *f, uint32_t function, uint32_t callers, int64_t amount)
{
	grow((void **)&f->path, &f->cap_path, f->depth + 1, sizeof *f->path);
	f->path[f->depth++] = (struct frame){ function, callers, amount, amount, f->start[function], MODEL_NONE };
	f->on_path[function] = 1;
	if (f->g->first_callers[function] == MODEL_NONE)
		f->g->first_callers[function] = callers;
}

/* The frame on top has placed what it could: its caller's arc spends that much. */
static void pop(struct flow *f)
{
	struct frame *done = &f->path[--f->depth];
	int64_t placed = done->asked - done->left;
	f->on_path[done->function] = 0;
	if (!f->depth)
		return;
	struct frame *caller = &f->path[f->depth - 1];
	int64_t *budget = &f->g->arc_values[(size_t)caller->arc * f->g->n_events + f->event];
	/* An arc that could not place all it was asked can place nothing more. */
	*budget = placed < done->asked ? 0 : *budget - placed;
	caller->left -= placed;
	caller->arc = MODEL_NONE;
}

/* Takes the top frame's next out entry: a self cost placed, or flow down an arc. */
static void step(struct flow *f)
{
	struct callgraph *g = f->g;
	struct frame *top = &f->path[f->depth - 1];
	const struct entry *e = &f->sorted[top->next++];
	int64_t *budget = (e->is_arc ? g->arc_values : g->self_values) + (size_t)e->index * g->n_events + f->event;
	int64_t take = min64(top->left, *budget);
	/* Spent entries at the front are not looked at again: each push would rescan them. */
	if (*budget <= 0 && top->next - 1 == f->start[top->function])
		f->start[top->function]++;
	if (take <= 0)
		return;
	if (!e->is_arc) {
		emit(f, g->selfs[e->index].location, top->callers, take);
		*budget -= take;
		top->left -= take;
		return;
	}
	const struct arc *a = &g->arcs[e->index];
	if (f->on_path[a->callee])
		return;
	top->arc = e->index;
	push(f, a->callee, model_stack(g->m, a->site, top->callers), take);
}

/*
 * The flow a function starts by itself: its self cost and its calls, less
 * what its callers bring. All of it for a function nobody calls; for one
 * that is also called, what is left is where it starts too (clone() in
 * the thread it makes, code called from where callgrind did not collect).
 * Calls into itself are neither: they are inside its outer call.
 */
static int64_t own_flow(const struct flow *f, uint32_t function)
{
	int64_t sum = 0;
	for (size_t i = f->first[function]; i < f->first[function + 1]; i++) {
		const struct entry *e = &f->sorted[i];
		const int64_t *v = e->is_arc ? f->g->arc_values : f->g->self_values;
		if (e->is_arc && f->g->arcs[e->index].callee == function)
			continue;
		if (checked_add_i64(sum, v[(size_t)e->index * f->g->n_events + f->event], &sum))
			sum = INT64_MAX;
	}
	return sum - f->brought[function];
}

static void flow_from(struct flow *f, uint32_t function, int64_t amount)
{
	push(f, function, MODEL_EMPTY_STACK, amount);
	while (f->depth) {
		struct frame *top = &f->path[f->depth - 1];
		if (top->left == 0 || top->next == f->first[top->function + 1])
			pop(f);
		else
			step(f);
	}
}

/*
 * Functions nobody calls first, then what called functions start by
 * themselves, so that callers' flow reaches its callees first.
 */
static void decompose_event(struct flow *f)
{
	struct callgraph *g = f->g;
	size_t n = g->m->n_functions;
	memcpy(f->start, f->first, n * sizeof *f->start);
	memset(f->brought, 0, n * sizeof *f->brought);
	for (size_t i = 0; i < g->n_arcs; i++) {
		const struct arc *a = &g->arcs[i];
		int64_t *in = &f->brought[a->callee];
		if (a->caller != a->callee &&
		    checked_add_i64(*in, g->arc_values[i * g->n_events + f->event], in))
			*in = INT64_MAX;
	}
	for (uint32_t fn = 0; fn < n; fn++)
		f->own[fn] = f->first[fn] == f->first[fn + 1] ? 0 : own_flow(f, fn);
	for (int called = 0; called < 2; called++)
		for (uint32_t fn = 0; fn < n; fn++)
			if ((f->brought[fn] > 0) == called && f->own[fn] > 0)
				flow_from(f, fn, f->own[fn]);
	/* What no path reached is a sample of its own: self costs are kept exactly. */
	for (size_t i = 0; i < g->n_selfs; i++) {
		int64_t *left = &g->self_values[i * g->n_events + f->event];
		if (*left > 0)
			emit(f, g->selfs[i].location, MODEL_EMPTY_STACK, *left);
		*left = 0;
	}
}

/* Count arcs by caller (the outside last), and the callers whose first path is known, to visit. */
struct count_walk {
	size_t *first; /* by caller: its arcs are order[first[c]] .. order[first[c+1]] */
	size_t *order;
	uint32_t *queue;
	size_t head, tail;
	uint8_t *queued;
	int64_t *values;
};

static void reach(struct callgraph *g, struct count_walk *w, uint32_t function, uint32_t above)
{
	if (g->first_callers[function] == MODEL_NONE)
		g->first_callers[function] = above;
	if (!w->queued[function]) {
		w->queued[function] = 1;
		w->queue[w->tail++] = function;
	}
}

/* The counts of the arcs from `caller` (m->n_functions: outside), each one sample. */
static void place_arcs_of(struct callgraph *g, struct count_walk *w, size_t caller)
{
	struct model *m = g->m;
	for (size_t i = w->first[caller]; i < w->first[caller + 1]; i++) {
		const struct count_arc *a = &g->counts[w->order[i]];
		uint32_t above = a->caller == MODEL_NONE ? MODEL_EMPTY_STACK
							 : model_stack(m, a->site, g->first_callers[a->caller]);
		memset(w->values, 0, g->n_events * sizeof *w->values);
		memcpy(w->values + g->n_events, g->count_values + w->order[i] * g->n_counts,
		       g->n_counts * sizeof *w->values);
		model_add_sample(m, model_stack(m, a->callee_location, above), w->values, NULL, 0);
		reach(g, w, a->callee, above);
	}
}

/*
 * Counts go where the flow first brought their caller. A caller the flow
 * never reached (calls that took no time) is reached through the arcs of
 * counts, breadth first from what the flow reached, then from any caller
 * left (a root of calls only), in function order.
 */
static void place_counts(struct callgraph *g)
{
	size_t n = g->m->n_functions;
	struct count_walk w = { xcalloc(n + 2, sizeof *w.first), xmalloc((g->n_count_arcs + 1) * sizeof *w.order),
				xmalloc((n + 1) * sizeof *w.queue), 0, 0, xcalloc(n + 1, 1),
				xcalloc(g->m->n_sample_types + 1, sizeof *w.values) };
	for (size_t i = 0; i < g->n_count_arcs; i++)
		w.first[(g->counts[i].caller == MODEL_NONE ? n : g->counts[i].caller) + 1]++;
	for (size_t i = 0; i <= n; i++)
		w.first[i + 1] += w.first[i];
	size_t *fill = xmalloc((n + 2) * sizeof *fill);
	memcpy(fill, w.first, (n + 2) * sizeof *fill);
	for (size_t i = 0; i < g->n_count_arcs; i++)
		w.order[fill[g->counts[i].caller == MODEL_NONE ? n : g->counts[i].caller]++] = i;
	free(fill);
	for (uint32_t fn = 0; fn < n; fn++)
		if (g->first_callers[fn] != MODEL_NONE)
			reach(g, &w, fn, MODEL_NONE);
	place_arcs_of(g, &w, n);
	for (uint32_t root = 0;; root++) {
		for (; w.head < w.tail; w.head++)
			place_arcs_of(g, &w, w.queue[w.head]);
		while (root < n && (w.queued[root] || w.first[root] == w.first[root + 1]))
			root++;
		if (root == n)
			break;
		reach(g, &w, root, MODEL_EMPTY_STACK);
	}
	free(w.first);
	free(w.order);
	free(w.queue);
	free(w.queued);
	free(w.values);
}

void callgraph_samples(struct callgraph *g)
{
	struct model *m = g->m;
	size_t n = m->n_functions;
	struct flow f = { g, 0, xcalloc(n + 1, sizeof *f.first), xcalloc(n + 1, sizeof *f.start),
			  xcalloc(n + 1, sizeof *f.brought), xcalloc(n + 1, sizeof *f.own),
			  xmalloc((g->n_entries + 1) * sizeof *f.sorted), xcalloc(n + 1, 1), NULL, 0, 0,
			  xcalloc(m->n_sample_types + 1, sizeof *f.values) };
	g->first_callers = xmalloc((n + 1) * sizeof *g->first_callers);
	for (size_t i = 0; i < n; i++)
		g->first_callers[i] = MODEL_NONE;
	for (size_t i = 0; i < g->n_entries; i++)
		f.first[g->entries[i].function + 1]++;
	for (size_t i = 0; i < n; i++)
		f.first[i + 1] += f.first[i];
	size_t *fill = xmalloc((n + 1) * sizeof *fill);
	memcpy(fill, f.first, (n + 1) * sizeof *fill);
	for (size_t i = 0; i < g->n_entries; i++)
		f.sorted[fill[g->entries[i].function]++] = g->entries[i];
	free(fill);
	for (f.event = 0; f.event < g->n_events; f.event++)
		decompose_event(&f);
	if (g->n_count_arcs)
		place_counts(g);
	free(f.first);
	free(f.start);
	free(f.brought);
	free(f.own);
	free(f.sorted);
	free(f.on_path);
	free(f.path);
	free(f.values);
}
