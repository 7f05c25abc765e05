/*
 * callgraph: a call graph's costs decomposed into stacks (callgraph.h;
 * docs/callgraph.md says why and what it means). Per event, the graph's
 * strongly connected components (Tarjan) are condensed into a DAG, taken
 * callers first; what arrives at a component (its callers' shares, and
 * what it starts by itself) is split over what it holds in whole units,
 * so that every self cost, every call's cost and every arrival sums
 * exactly. Memory grows with functions, arcs and the stacks made.
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

/*
 * Calls counted on an arc (caller MODEL_NONE: from outside); values in
 * count_values. The call arc they count, whose flow may carry them, is
 * count_of_arc's (docs/callgraph.md, "Call counts").
 */
struct count_arc {
	uint32_t caller, site, callee, callee_location;
	uint8_t placed;
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
	uint32_t *self_of_location; /* by location id: its self cost + 1, 0 for none */
	size_t cap_self_of_location;
	size_t n_counts; /* count types, after the events */
	struct count_arc *counts;
	size_t n_count_arcs, cap_count_arcs;
	int64_t *count_values;
	size_t cap_count_values;
	uint32_t *count_of_arc; /* by arc: its count arc + 1, 0 for none */
	size_t cap_count_of_arc;
	int64_t *totals; /* by function, n_events each: the profiler's own total (callgraph_set_total); INT64_MAX unknown */
	size_t n_totals;
	/* By function: the stack above its frame when flow first reached it; MODEL_NONE before. */
	uint32_t *first_callers;
	size_t n_functions; /* the model's before the samples: the frames named below come after */
	/* The frames of time the graph holds but cannot place (docs/callgraph.md); MODEL_NONE until used. */
	uint32_t untraced_location, no_caller_location;
};

struct callgraph *callgraph_new(struct model *m, size_t n_events)
{
	struct callgraph *g = xcalloc(1, sizeof *g);
	g->m = m;
	g->n_events = n_events;
	g->n_counts = m->n_sample_types - n_events;
	g->untraced_location = g->no_caller_location = MODEL_NONE;
	return g;
}

void callgraph_free(struct callgraph *g)
{
	hashidx_free(&g->arc_index);
	free(g->selfs);
	free(g->self_values);
	free(g->arcs);
	free(g->arc_values);
	free(g->self_of_location);
	free(g->counts);
	free(g->count_values);
	free(g->count_of_arc);
	free(g->first_callers);
	free(g->totals);
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
	}
	return add_costs(g, g->self_values + (g->self_of_location[location] - 1) * g->n_events, costs);
}

static int arc_eq(const void *ctx, uint32_t id, const void *key)
{
	const struct arc *a = &((const struct callgraph *)ctx)->arcs[id], *k = key;
	return a->site == k->site && a->callee == k->callee;
}

/* A new arc's row, its costs zero. */
static uint32_t new_arc(struct callgraph *g, const struct arc *a)
{
	size_t n = g->n_arcs;
	grow((void **)&g->arcs, &g->cap_arcs, n + 1, sizeof *g->arcs);
	grow_values(g, &g->arc_values, &g->cap_arc_values, n);
	g->arcs[n] = *a;
	return (uint32_t)g->n_arcs++;
}

int callgraph_add_call(struct callgraph *g, uint32_t caller, uint32_t site, uint32_t callee,
		       const int64_t *costs)
{
	struct arc k = { site, caller, callee };
	uint64_t h = hash_mix(site, callee);
	uint32_t at = hashidx_find(&g->arc_index, h, arc_eq, g, &k);
	if (at == HASHIDX_NONE) {
		at = new_arc(g, &k);
		hashidx_insert(&g->arc_index, h, at);
	}
	return add_costs(g, g->arc_values + (size_t)at * g->n_events, costs);
}

int callgraph_add_distinct_call(struct callgraph *g, uint32_t caller, uint32_t site, uint32_t callee,
				const int64_t *costs)
{
	struct arc k = { site, caller, callee };
	size_t at = new_arc(g, &k); /* before arc_values is read: it may move */
	return add_costs(g, g->arc_values + at * g->n_events, costs);
}

void callgraph_set_total(struct callgraph *g, uint32_t function, const int64_t *totals)
{
	if (function >= g->n_totals) {
		size_t had = g->n_totals, cap = had * g->n_events;
		grow((void **)&g->totals, &cap, ((size_t)function + 1) * g->n_events, sizeof *g->totals);
		g->n_totals = cap / g->n_events;
		for (size_t i = had * g->n_events; i < g->n_totals * g->n_events; i++)
			g->totals[i] = INT64_MAX;
	}
	memcpy(g->totals + (size_t)function * g->n_events, totals, g->n_events * sizeof *totals);
}

/*
 * Counts added right after their arc (the same caller, site and callee)
 * are that arc's: its flow may carry them (docs/callgraph.md).
 */
static void link_to_arc(struct callgraph *g, size_t count)
{
	struct count_arc *c = &g->counts[count];
	size_t arc = g->n_arcs - 1;
	if (!g->n_arcs || c->caller == MODEL_NONE || g->arcs[arc].caller != c->caller ||
	    g->arcs[arc].site != c->site || g->arcs[arc].callee != c->callee)
		return;
	if (arc >= g->cap_count_of_arc) {
		size_t had = g->cap_count_of_arc;
		grow((void **)&g->count_of_arc, &g->cap_count_of_arc, arc + 1, sizeof *g->count_of_arc);
		memset(g->count_of_arc + had, 0, (g->cap_count_of_arc - had) * sizeof *g->count_of_arc);
	}
	if (g->count_of_arc[arc] == 0)
		g->count_of_arc[arc] = (uint32_t)count + 1;
}

void callgraph_add_count(struct callgraph *g, uint32_t caller, uint32_t site, uint32_t callee,
			 uint32_t callee_location, const int64_t *counts)
{
	size_t n = g->n_count_arcs;
	grow((void **)&g->counts, &g->cap_count_arcs, n + 1, sizeof *g->counts);
	grow((void **)&g->count_values, &g->cap_count_values, (n + 1) * g->n_counts + 1, sizeof *g->count_values);
	g->counts[n] = (struct count_arc){ caller, site, callee, callee_location, 0 };
	memcpy(g->count_values + n * g->n_counts, counts, g->n_counts * sizeof *counts);
	g->n_count_arcs++;
	link_to_arc(g, n);
}

/* a + b, held at INT64_MAX: sums of a hostile file's costs only weigh flow. */
static int64_t add_held(int64_t a, int64_t b)
{
	int64_t sum;
	return checked_add_i64(a, b, &sum) ? INT64_MAX : sum;
}

/*
 * No more than PATH_ARRIVALS stacks are made per event for the calls into
 * components, and past it one more per arc: a call arriving at a
 * component is added to the last stack made through its arc, so a graph
 * whose paths explode stays bounded and every arc keeps its caller
 * (docs/callgraph.md).
 */
#define PATH_ARRIVALS ((size_t)1 << 20)

/*
 * No more than CELLS_SPLIT parts per event come of splitting a component's
 * arrivals over its columns in proportion (arrivals x columns); past them
 * arrivals take columns in order (docs/callgraph.md).
 */
#define CELLS_SPLIT ((size_t)1 << 20)

/*
 * Flow arriving at a component: `amount` under `stack`, through `arc`
 * (MODEL_NONE: started there); the member it arrives at is entry_of's.
 * 16 bytes: 2.5 M of them on pstats-100k, read at random.
 */
struct arrival {
	uint32_t stack, arc;
	int64_t amount;
};

/*
 * A component's arrivals, a cache line of their ids at a time: they are
 * made while its callers are placed, far apart, and read together when it
 * is; a list of single arrivals made that read a chain of cache misses.
 */
enum { BLOCK_IDS = 14 };
struct arrival_block {
	uint32_t next, n; /* next: the component's next block, MODEL_NONE for none */
	uint32_t ids[BLOCK_IDS];
};

/* What a component's flow is split into: a self cost, a call out of it, or its untraced time. */
enum column_kind { COLUMN_SELF, COLUMN_CALL, COLUMN_UNTRACED };

struct column {
	enum column_kind kind;
	uint32_t member;   /* the function it belongs to */
	size_t index;      /* the self cost or the arc */
	int64_t total;
	uint32_t location; /* the self cost's, or the call's site; MODEL_NONE for untraced time */
	uint32_t callee, callee_comp, edge; /* the call's callee, that callee's component, the call's place in out[] */
};

struct tree_call;

/*
 * One event's graph, condensed: its strongly connected components (the
 * cycles, and each function on none alone) form a DAG, in Tarjan's order
 * (a component after every one it calls), taken callers first.
 */
/* A row's share of one column: whole units, and the remainder that may earn one more. */
struct remainder {
	__int128 rest;
	int64_t units;
	size_t column;
};

/* An arc as its caller's flow reads it, in the caller's run of them: no lookup of the arc. */
struct edge {
	uint32_t arc, callee, site;
	int64_t cost; /* in the event being decomposed */
};

struct flow {
	struct callgraph *g;
	size_t event;
	uint32_t n;
	int64_t *self;                    /* by function: its self costs' sum */
	size_t *self_first, *self_order;  /* by function: its self costs */
	size_t *out_first;                /* by caller: its arcs with a cost, not into itself, are out[out_first[f]..] */
	struct edge *out;
	__int128 *called_for;             /* by function: what all its callers' arcs bring */
	int64_t *brought;                 /* by component: what arcs from other components bring */
	uint32_t *comp, n_comps;          /* by function */
	size_t *comp_first;               /* by component: its members are members[comp_first[c]..] */
	uint32_t *members;
	int64_t *held, *untraced, *own;   /* by component: T, what arcs bring beyond its content, and the reverse */
	uint32_t *start;                  /* by component: the member its own flow starts at */
	struct arrival *arrivals;
	size_t n_arrivals, cap_arrivals;
	struct arrival_block *blocks;
	size_t n_blocks, cap_blocks;
	uint32_t *first_block, *last_block; /* by component; MODEL_NONE for none */
	uint32_t *entry_arrival;          /* by function: the last arrival at it, MODEL_NONE for none */
	uint32_t *edge_arrival;           /* by out[] edge: the last arrival through it past the bound, MODEL_NONE for none; NULL before */
	/*
	 * A cycle laid out from one entry: by function, its parent, the site
	 * it is called from there and what its subtree holds; its stack in
	 * this row.
	 */
	uint32_t *parent, *tree_site, *row_of, *callers, row;
	int64_t *subtree;
	int64_t *room;                    /* by function: what its total may still take (callgraph_set_total) */
	uint32_t *entry_slot;             /* by function: its place among a component's entries, MODEL_NONE */
	uint32_t *chain;                  /* room for a path up a cycle's tree */
	struct tree_call *heap;           /* a cycle's calls still to lay out, costliest on top */
	size_t n_heap, cap_heap;
	struct column *columns;
	size_t n_columns, cap_columns;
	size_t *col_first, *col_end;      /* by function: its columns in the component being placed */
	int64_t *values;
	size_t cells_left; /* proportional splits' row-by-column cells still to spend */
	/* The last frame made under a stack: a row's columns are mostly at one site (all of a pstats function's). */
	uint32_t made_location, made_above, made_stack;
};

static int64_t arc_cost(const struct flow *f, size_t arc)
{
	return f->g->arc_values[arc * f->g->n_events + f->event];
}

/* rows[first[k]..first[k+1]] are the ids whose key is k, in id order. */
static void bucket(size_t n_keys, size_t n, const uint32_t *key_of, size_t **first, size_t **rows)
{
	*first = xcalloc(n_keys + 2, sizeof **first);
	*rows = xmalloc((n + 1) * sizeof **rows);
	for (size_t i = 0; i < n; i++)
		if (key_of[i] != MODEL_NONE)
			(*first)[key_of[i] + 1]++;
	for (size_t k = 0; k < n_keys; k++)
		(*first)[k + 1] += (*first)[k];
	size_t *fill = xmalloc((n_keys + 1) * sizeof *fill);
	memcpy(fill, *first, (n_keys + 1) * sizeof *fill);
	for (size_t i = 0; i < n; i++)
		if (key_of[i] != MODEL_NONE)
			(*rows)[fill[key_of[i]]++] = i;
	free(fill);
}

enum { EDGES_AHEAD = 16 };

/*
 * The arcs that carry this event's flow, by caller, each with its callee
 * and cost, so that a caller's are read in a run; what they bring each
 * callee; the self costs by function.
 */
static void index_graph(struct flow *f)
{
	struct callgraph *g = f->g;
	size_t most = g->n_arcs > g->n_selfs ? g->n_arcs : g->n_selfs;
	uint32_t *key = xmalloc((most + 1) * sizeof *key);
	f->called_for = xcalloc(f->n + 1, sizeof *f->called_for);
	for (size_t i = 0; i < g->n_arcs; i++) {
		key[i] = g->arcs[i].caller != g->arcs[i].callee && arc_cost(f, i) > 0 ? g->arcs[i].caller : MODEL_NONE;
		if (key[i] != MODEL_NONE)
			f->called_for[g->arcs[i].callee] += arc_cost(f, i);
	}
	size_t *rows;
	bucket(f->n, g->n_arcs, key, &f->out_first, &rows);
	f->out = xmalloc((f->out_first[f->n] + 1) * sizeof *f->out);
	for (size_t i = 0; i < f->out_first[f->n]; i++) {
		/* The arcs by caller are far apart in the arcs by callee: misses asked for ahead overlap. */
		if (i + EDGES_AHEAD < f->out_first[f->n]) {
			__builtin_prefetch(&g->arcs[rows[i + EDGES_AHEAD]]);
			__builtin_prefetch(&g->arc_values[rows[i + EDGES_AHEAD] * g->n_events + f->event]);
		}
		f->out[i] = (struct edge){ (uint32_t)rows[i], g->arcs[rows[i]].callee, g->arcs[rows[i]].site,
					   arc_cost(f, rows[i]) };
	}
	free(rows);
	for (size_t i = 0; i < g->n_selfs; i++)
		key[i] = g->selfs[i].function;
	bucket(f->n, g->n_selfs, key, &f->self_first, &f->self_order);
	free(key);
	f->self = xcalloc(f->n + 1, sizeof *f->self);
	for (size_t i = 0; i < g->n_selfs; i++)
		f->self[g->selfs[i].function] =
			add_held(f->self[g->selfs[i].function], g->self_values[i * g->n_events + f->event]);
}

/* Tarjan's strongly connected components, without recursion: a hostile graph may be deep. */
static void find_components(struct flow *f)
{
	uint32_t n = f->n, counter = 0, depth = 0, held = 0;
	uint32_t *index = xmalloc((n + 1) * sizeof *index), *low = xmalloc((n + 1) * sizeof *low);
	uint32_t *path = xmalloc((n + 1) * sizeof *path), *stack = xmalloc((n + 1) * sizeof *stack);
	size_t *next = xmalloc((n + 1) * sizeof *next);
	f->comp = xmalloc((n + 1) * sizeof *f->comp);
	for (uint32_t v = 0; v < n; v++)
		index[v] = f->comp[v] = MODEL_NONE;
	for (uint32_t root = 0; root < n; root++) {
		if (index[root] != MODEL_NONE)
			continue;
		index[root] = low[root] = counter++;
		next[root] = f->out_first[root];
		path[depth++] = stack[held++] = root;
		while (depth) {
			uint32_t v = path[depth - 1];
			if (next[v] < f->out_first[v + 1]) {
				uint32_t w = f->out[next[v]++].callee;
				if (index[w] == MODEL_NONE) {
					index[w] = low[w] = counter++;
					next[w] = f->out_first[w];
					path[depth++] = stack[held++] = w;
				} else if (f->comp[w] == MODEL_NONE && index[w] < low[v]) {
					low[v] = index[w];
				}
				continue;
			}
			if (--depth && low[v] < low[path[depth - 1]])
				low[path[depth - 1]] = low[v];
			if (low[v] != index[v])
				continue;
			uint32_t w;
			do {
				w = stack[--held];
				f->comp[w] = f->n_comps;
			} while (w != v);
			f->n_comps++;
		}
	}
	free(index);
	free(low);
	free(path);
	free(stack);
	free(next);
	size_t *rows;
	bucket(f->n_comps, n, f->comp, &f->comp_first, &rows);
	f->members = xmalloc((n + 1) * sizeof *f->members);
	for (uint32_t i = 0; i < n; i++)
		f->members[i] = (uint32_t)rows[i];
	free(rows);
}

/* Function m's own total in this event (callgraph_set_total), INT64_MAX unknown. */
static int64_t known_total(const struct flow *f, uint32_t m)
{
	return m < f->g->n_totals ? f->g->totals[(size_t)m * f->g->n_events + f->event] : INT64_MAX;
}

/*
 * A component nobody calls (a program's entry point, a thread's start)
 * stands at least at its members' largest own total, starting there: its
 * calls into what the profiler did not trace (a script's C calls within
 * the import cycle) are there, not in the arcs. Returns what it stands for.
 */
static int64_t lift_to_total(struct flow *f, uint32_t c, int64_t content)
{
	int64_t top = content;
	for (size_t k = f->comp_first[c]; k < f->comp_first[c + 1]; k++) {
		int64_t total = known_total(f, f->members[k]);
		if (total != INT64_MAX && total > top) {
			top = total;
			f->start[c] = f->members[k];
		}
	}
	return top;
}

/* By component, what the arcs from other components bring it. */
static void weigh_arrivals(struct flow *f)
{
	const struct callgraph *g = f->g;
	f->brought = xcalloc(f->n_comps + 1, sizeof *f->brought);
	for (size_t i = 0; i < g->n_arcs; i++) {
		uint32_t to = f->comp[g->arcs[i].callee];
		if (f->comp[g->arcs[i].caller] != to && arc_cost(f, i) > 0)
			f->brought[to] = add_held(f->brought[to], arc_cost(f, i));
	}
}

/*
 * Per component: what the arcs from outside bring (in), what it holds
 * (its members' self costs and their calls out of it), and so the time
 * it stands for, T = max(in, held), or for one nobody calls, its largest
 * own total if more. Where T is more than it holds, the rest is untraced
 * time; where the arcs bring less, the component starts flow of its own,
 * at the member holding most beyond what calls bring it (the entry point).
 */
static void weigh_components(struct flow *f)
{
	f->held = xcalloc(f->n_comps + 1, sizeof *f->held);
	f->untraced = xcalloc(f->n_comps + 1, sizeof *f->untraced);
	f->own = xcalloc(f->n_comps + 1, sizeof *f->own);
	f->start = xmalloc((f->n_comps + 1) * sizeof *f->start);
	weigh_arrivals(f);
	for (uint32_t c = 0; c < f->n_comps; c++) {
		int64_t in = f->brought[c], content = 0;
		__int128 best = 0;
		f->start[c] = MODEL_NONE;
		for (size_t k = f->comp_first[c]; k < f->comp_first[c + 1]; k++) {
			uint32_t m = f->members[k];
			__int128 beyond = (__int128)f->self[m] - f->called_for[m];
			content = add_held(content, f->self[m]);
			for (size_t i = f->out_first[m]; i < f->out_first[m + 1]; i++) {
				beyond += f->out[i].cost;
				if (f->comp[f->out[i].callee] != c)
					content = add_held(content, f->out[i].cost);
			}
			if (f->start[c] == MODEL_NONE || beyond > best) {
				f->start[c] = m;
				best = beyond;
			}
		}
		int64_t stands = in > content ? in : content;
		if (in == 0)
			stands = lift_to_total(f, c, content);
		f->held[c] = stands;
		f->untraced[c] = stands - content;
		f->own[c] = stands - in;
	}
}

/* The location standing for function m's frame above its untraced time: its first self cost's or call's. */
static uint32_t frame_of(const struct flow *f, uint32_t m)
{
	if (f->self_first[m] < f->self_first[m + 1])
		return f->g->selfs[f->self_order[f->self_first[m]]].location;
	if (f->out_first[m] < f->out_first[m + 1])
		return f->g->arcs[f->out[f->out_first[m]].arc].site;
	return model_location(f->g->m, m, 0);
}

static uint32_t marker_location(struct model *m, uint32_t *location, const char *name)
{
	if (*location == MODEL_NONE) {
		struct model_function fn = { 0 };
		fn.name = fn.system_name = model_str(m, name, strlen(name));
		*location = model_location(m, model_function(m, &fn), 0);
	}
	return *location;
}

/* A sample of `value` at `stack`, with `counts` (the count types', NULL: none). */
static void emit(struct flow *f, uint32_t stack, int64_t value, const int64_t *counts)
{
	struct callgraph *g = f->g;
	memset(f->values, 0, g->m->n_sample_types * sizeof *f->values);
	f->values[f->event] = value;
	if (counts)
		memcpy(f->values + g->n_events, counts, g->n_counts * sizeof *counts);
	model_add_sample(g->m, stack, f->values, NULL, 0);
}

/* The count arc + 1 that counts the calls of `arc` (MODEL_NONE: none), 0 for none (link_to_arc). */
static uint32_t counted_by(const struct callgraph *g, uint32_t arc)
{
	return arc < g->cap_count_of_arc ? g->count_of_arc[arc] : 0;
}

/*
 * The counts of the arc an arrival came through, when they are not placed
 * yet and count calls into `location`: they go on the first stack the
 * flow brings the callee's frame through that arc, in the sample of its
 * own cost there if it has one (docs/callgraph.md).
 */
static const int64_t *arc_counts(const struct flow *f, const struct arrival *a, uint32_t location)
{
	struct callgraph *g = f->g;
	uint32_t count = counted_by(g, a->arc);
	if (!count)
		return NULL;
	size_t k = count - 1;
	if (g->counts[k].placed || g->counts[k].callee_location != location)
		return NULL;
	g->counts[k].placed = 1;
	return g->count_values + k * g->n_counts;
}

/* Where flow arrives: `entry`, in component `comp`, through `arc` at out[edge] (both MODEL_NONE for flow the component starts). */
struct into {
	uint32_t entry, comp, arc, edge;
};

/*
 * Flow into `to` under `stack`. Past the bound it is added to the last
 * arrival made past it through the same arc, whose stack holds the same
 * caller (the first through an arc past it is always made), or for flow
 * the component starts, to the entry's last arrival. Arrivals by arc are
 * kept only past the bound, which no real profile reaches, by the arc's
 * place among its caller's edges, which a caller's rows read in a run.
 */
static void arrive(struct flow *f, struct into to, uint32_t stack, int64_t amount)
{
	uint32_t entry = to.entry, c = to.comp, arc = to.arc;
	if (amount <= 0)
		return;
	int past = f->n_arrivals >= PATH_ARRIVALS;
	if (past && !f->edge_arrival) {
		size_t n_edges = f->out_first[f->n];
		f->edge_arrival = xmalloc((n_edges + 1) * sizeof *f->edge_arrival);
		memset(f->edge_arrival, 0xff, (n_edges + 1) * sizeof *f->edge_arrival);
	}
	uint32_t last = !past ? MODEL_NONE : arc != MODEL_NONE ? f->edge_arrival[to.edge] : f->entry_arrival[entry];
	if (last != MODEL_NONE) {
		f->arrivals[last].amount = add_held(f->arrivals[last].amount, amount);
		return;
	}
	grow((void **)&f->arrivals, &f->cap_arrivals, f->n_arrivals + 1, sizeof *f->arrivals);
	uint32_t at = (uint32_t)f->n_arrivals++;
	f->arrivals[at] = (struct arrival){ stack, arc, amount };
	uint32_t b = f->last_block[c];
	if (b == MODEL_NONE || f->blocks[b].n == BLOCK_IDS) {
		grow((void **)&f->blocks, &f->cap_blocks, f->n_blocks + 1, sizeof *f->blocks);
		uint32_t made = (uint32_t)f->n_blocks++;
		f->blocks[made].next = MODEL_NONE;
		f->blocks[made].n = 0;
		if (b == MODEL_NONE)
			f->first_block[c] = made;
		else
			f->blocks[b].next = made;
		f->last_block[c] = b = made;
	}
	f->blocks[b].ids[f->blocks[b].n++] = at;
	f->entry_arrival[entry] = at;
	if (past && arc != MODEL_NONE)
		f->edge_arrival[to.edge] = at;
}

/* Larger remainders first, ties to the first column: a total order, so the units left go to the same columns on every run. */
static int before(const struct remainder *x, const struct remainder *y)
{
	return x->rest != y->rest ? x->rest > y->rest : x->column < y->column;
}

static void swap_rests(struct remainder *a, struct remainder *b)
{
	struct remainder t = *a;
	*a = *b;
	*b = t;
}

/* Puts the k first of rests[0..n) in that order (in any order among themselves) before the others: quickselect. */
static void select_first(struct remainder *rests, size_t n, size_t k)
{
	size_t lo = 0, hi = n;
	while (k > lo && k < hi) {
		swap_rests(&rests[lo + (hi - lo) / 2], &rests[hi - 1]);
		size_t store = lo;
		for (size_t i = lo; i + 1 < hi; i++)
			if (before(&rests[i], &rests[hi - 1]))
				swap_rests(&rests[i], &rests[store++]);
		swap_rests(&rests[store], &rests[hi - 1]);
		if (k <= store)
			hi = store;
		else
			lo = store + 1;
	}
}

/*
 * amount * left / all, whole and remainder, all > 0, 0 <= amount <= all, left >= 0:
 * a quotient of long doubles (64 bits of mantissa: off by one at most)
 * corrected by the exact remainder, as a 128-bit division costs a tenth of
 * a decomposition.
 */
static struct remainder share_of(int64_t amount, int64_t left, int64_t all, size_t column)
{
	__int128 part = (__int128)amount * left;
	long double estimate = (long double)amount * (long double)left / (long double)all;
	/* amount <= all, so the quotient is at most left: a rounded estimate past it must not leave int64_t. */
	int64_t units = estimate >= (long double)left ? left : (int64_t)estimate;
	__int128 rest = part - (__int128)units * all;
	while (rest < 0) {
		units--;
		rest += all;
	}
	while (rest >= all) {
		units++;
		rest -= all;
	}
	return (struct remainder){ rest, units, column };
}

/*
 * Splits rows (amounts summing to what the columns hold) over columns in
 * proportion, in whole units, so that every row and every column sums
 * exactly: each row takes its share of what the columns have left, floors,
 * and the units left go to the largest remainders (ties to the first);
 * the last row takes what is left. share(ctx, row, column, units) gets
 * each part.
 */
typedef void share_fn(struct flow *f, void *ctx, size_t row, size_t column, int64_t units);

static void split(struct flow *f, const int64_t *rows, size_t n_rows, int64_t *left, size_t n_columns,
		  share_fn *share, void *ctx)
{
	int64_t all = 0;
	for (size_t j = 0; j < n_columns; j++)
		all = add_held(all, left[j]);
	struct remainder *rests = xmalloc((n_columns + 1) * sizeof *rests);
	for (size_t i = 0; i < n_rows && all > 0; i++) {
		int64_t amount = i + 1 == n_rows || rows[i] > all ? all : rows[i], given = 0;
		if (amount <= 0)
			continue;
		size_t n = 0;
		for (size_t j = 0; j < n_columns; j++) {
			if (left[j] <= 0)
				continue;
			rests[n] = share_of(amount, left[j], all, j);
			given += rests[n++].units;
		}
		size_t extra = (size_t)(amount - given);
		select_first(rests, n, extra);
		for (size_t k = 0; k < n; k++) {
			size_t j = rests[k].column;
			int64_t units = rests[k].units + (k < extra && rests[k].rest > 0);
			if (units > left[j])
				units = left[j];
			if (units > 0) {
				share(f, ctx, i, j, units);
				left[j] -= units;
			}
		}
		all -= amount;
	}
	free(rests);
}

/*
 * Splits rows over columns in order, the first row taking the first
 * column's units until one of them is spent (a transport problem's
 * north-west corner): every row and every column sums exactly, in no more
 * than rows + columns - 1 parts.
 */
static void split_in_order(struct flow *f, const int64_t *rows, size_t n_rows, int64_t *left, size_t n_columns,
			   share_fn *share, void *ctx)
{
	size_t j = 0;
	for (size_t i = 0; i < n_rows; i++) {
		int64_t amount = rows[i];
		if (i + 1 == n_rows) {
			amount = 0;
			for (size_t k = j; k < n_columns; k++)
				amount = add_held(amount, left[k]);
		}
		while (amount > 0 && j < n_columns) {
			int64_t units = amount < left[j] ? amount : left[j];
			if (units > 0) {
				share(f, ctx, i, j, units);
				left[j] -= units;
				amount -= units;
			}
			if (left[j] <= 0)
				j++;
		}
	}
}

static void add_column(struct flow *f, const struct column *col)
{
	if (col->total <= 0)
		return;
	grow((void **)&f->columns, &f->cap_columns, f->n_columns + 1, sizeof *f->columns);
	f->columns[f->n_columns++] = *col;
}

/*
 * What component c holds, column by column: its members' self costs and
 * calls out of it, member after member (columns[col_first[m]..col_end[m]]
 * are m's), and its untraced time, its start member's last.
 */
static void gather_columns(struct flow *f, uint32_t c)
{
	struct callgraph *g = f->g;
	f->n_columns = 0;
	for (size_t k = f->comp_first[c]; k < f->comp_first[c + 1]; k++) {
		uint32_t m = f->members[k];
		f->col_first[m] = f->n_columns;
		for (size_t i = f->self_first[m]; i < f->self_first[m + 1]; i++) {
			size_t self = f->self_order[i];
			add_column(f, &(struct column){ COLUMN_SELF, m, self, g->self_values[self * g->n_events + f->event],
							g->selfs[self].location, MODEL_NONE, MODEL_NONE, MODEL_NONE });
		}
		for (size_t i = f->out_first[m]; i < f->out_first[m + 1]; i++) {
			const struct edge *e = &f->out[i];
			uint32_t callee_comp = f->comp[e->callee];
			if (callee_comp == c)
				continue;
			add_column(f, &(struct column){ COLUMN_CALL, m, e->arc, e->cost, e->site, e->callee, callee_comp,
							(uint32_t)i });
			/* Where the call's flow will arrive: far from here, and wanted for every row. */
			if (f->last_block[callee_comp] != MODEL_NONE)
				__builtin_prefetch(&f->blocks[f->last_block[callee_comp]]);
		}
		if (m == f->start[c])
			add_column(f, &(struct column){ COLUMN_UNTRACED, m, c, f->untraced[c], MODEL_NONE, MODEL_NONE, MODEL_NONE,
							MODEL_NONE });
		f->col_end[m] = f->n_columns;
	}
}

/* What member m holds in the current entry's share. */
static int64_t content_of(const struct flow *f, const int64_t *units, uint32_t m)
{
	int64_t sum = 0;
	for (size_t j = f->col_first[m]; j < f->col_end[m]; j++)
		sum = add_held(sum, units[j]);
	return sum;
}

/* A call within a cycle, by its cost: the tree takes the costliest first. */
struct tree_call {
	int64_t cost;
	size_t arc;
};

static int costlier(const struct tree_call *a, const struct tree_call *b)
{
	return a->cost != b->cost ? a->cost > b->cost : a->arc < b->arc;
}

static void push_call(struct flow *f, int64_t cost, size_t arc)
{
	grow((void **)&f->heap, &f->cap_heap, f->n_heap + 1, sizeof *f->heap);
	size_t i = f->n_heap++;
	f->heap[i] = (struct tree_call){ cost, arc };
	while (i && costlier(&f->heap[i], &f->heap[(i - 1) / 2])) {
		struct tree_call t = f->heap[i];
		f->heap[i] = f->heap[(i - 1) / 2];
		f->heap[(i - 1) / 2] = t;
		i = (i - 1) / 2;
	}
}

static struct tree_call pop_call(struct flow *f)
{
	struct tree_call top = f->heap[0];
	f->heap[0] = f->heap[--f->n_heap];
	for (size_t i = 0;;) {
		size_t best = i, l = 2 * i + 1, r = l + 1;
		if (l < f->n_heap && costlier(&f->heap[l], &f->heap[best]))
			best = l;
		if (r < f->n_heap && costlier(&f->heap[r], &f->heap[best]))
			best = r;
		if (best == i)
			break;
		struct tree_call t = f->heap[i];
		f->heap[i] = f->heap[best];
		f->heap[best] = t;
		i = best;
	}
	return top;
}

/* No deeper than this is a caller's room checked: past it a member goes right under the entry. */
#define ROOM_DEPTH 64

/*
 * Can member v, holding `content`, go under u without any caller above it
 * (the entry aside, which holds all of its tree) passing its room?
 */
static int has_room(const struct flow *f, uint32_t u, int64_t content)
{
	size_t depth = 0;
	for (uint32_t a = u; f->parent[a] != a; a = f->parent[a])
		if (++depth > ROOM_DEPTH || add_held(f->subtree[a], content) > f->room[a])
			return 0;
	return 1;
}

static void attach(struct flow *f, uint32_t v, uint32_t u, uint32_t site, const int64_t *units)
{
	int64_t content = content_of(f, units, v);
	f->parent[v] = u;
	f->tree_site[v] = site;
	f->subtree[v] = content;
	for (uint32_t a = u; f->parent[a] != a; a = f->parent[a])
		f->subtree[a] = add_held(f->subtree[a], content);
}

/*
 * A cycle entered at `entry` is laid out as a tree along its own calls,
 * the costliest first (each member under the caller whose call into it
 * costs most among those already placed), so long as no caller's total
 * passes its own figure (its room: callgraph_set_total's, less what it
 * already has); a member no caller has room for goes right under the
 * entry, which reaches it through the cycle. A function alone is its
 * own tree.
 */
static void lay_out(struct flow *f, uint32_t entry, const int64_t *units)
{
	uint32_t c = f->comp[entry];
	const struct callgraph *g = f->g;
	for (size_t k = f->comp_first[c]; k < f->comp_first[c + 1]; k++)
		f->parent[f->members[k]] = MODEL_NONE;
	f->parent[entry] = entry;
	if (f->comp_first[c + 1] - f->comp_first[c] == 1)
		return;
	f->n_heap = 0;
	for (uint32_t u = entry;;) {
		for (size_t i = f->out_first[u]; i < f->out_first[u + 1]; i++)
			if (f->comp[f->out[i].callee] == c && f->parent[f->out[i].callee] == MODEL_NONE)
				push_call(f, f->out[i].cost, f->out[i].arc);
		u = MODEL_NONE;
		while (f->n_heap && u == MODEL_NONE) {
			const struct arc *a = &g->arcs[pop_call(f).arc];
			if (f->parent[a->callee] == MODEL_NONE &&
			    has_room(f, a->caller, content_of(f, units, a->callee))) {
				attach(f, a->callee, a->caller, a->site, units);
				u = a->callee;
			}
		}
		if (u == MODEL_NONE)
			break;
	}
	for (size_t k = f->comp_first[c]; k < f->comp_first[c + 1]; k++)
		if (f->parent[f->members[k]] == MODEL_NONE)
			attach(f, f->members[k], entry, frame_of(f, entry), units);
	for (size_t k = f->comp_first[c]; k < f->comp_first[c + 1]; k++)
		if (f->members[k] != entry)
			f->room[f->members[k]] -= f->subtree[f->members[k]];
}

/* The stack above member m's frame in the current row, whose entry is under `top`; up the tree without recursion. */
static uint32_t callers_of(struct flow *f, uint32_t m, uint32_t top)
{
	/* The entry is right under the row's stack: a function alone, or the root of a cycle's tree, needs no walk. */
	if (f->parent[m] == m) {
		if (f->g->first_callers[m] == MODEL_NONE)
			f->g->first_callers[m] = top;
		return top;
	}
	size_t depth = 0;
	uint32_t above = top;
	for (uint32_t v = m; f->row_of[v] != f->row; v = f->parent[v]) {
		f->chain[depth++] = v;
		if (f->parent[v] == v)
			break;
	}
	if (depth && f->parent[f->chain[depth - 1]] != f->chain[depth - 1])
		above = f->callers[f->parent[f->chain[depth - 1]]];
	else if (!depth)
		return f->callers[m];
	while (depth--) {
		uint32_t v = f->chain[depth];
		if (f->parent[v] != v)
			above = model_stack(f->g->m, f->tree_site[v], above);
		f->row_of[v] = f->row;
		f->callers[v] = above;
		if (f->g->first_callers[v] == MODEL_NONE)
			f->g->first_callers[v] = above;
	}
	return above;
}

/* The rows of one entry: its arrivals. */
struct entry_rows {
	uint32_t entry;
	const uint32_t *arrival; /* the arrivals' ids */
	size_t n;
	uint32_t location;       /* the entry's frame: the stack each row makes first is (location, its stack) */
};

/*
 * A row's first cells read tables larger than the cache at random: the
 * slot of the stack it makes first (location, its stack) and its arc's
 * counts (arc_counts). Misses asked for together overlap, so they are
 * fetched ahead, ROWS_AHEAD rows ahead (fetch_far) and, what those lead
 * to, half as far (fetch_near).
 */
enum { ROWS_AHEAD = 8 };

static void fetch_far(const struct flow *f, const struct entry_rows *rows, size_t row)
{
	const struct callgraph *g = f->g;
	if (row >= rows->n)
		return;
	const struct arrival *a = &f->arrivals[rows->arrival[row]];
	model_stack_prefetch(g->m, rows->location, a->stack);
	if (a->arc < g->cap_count_of_arc)
		__builtin_prefetch(&g->count_of_arc[a->arc]);
}

static void fetch_near(const struct flow *f, const struct entry_rows *rows, size_t row)
{
	const struct callgraph *g = f->g;
	if (row >= rows->n)
		return;
	uint32_t count = counted_by(g, f->arrivals[rows->arrival[row]].arc);
	if (count)
		__builtin_prefetch(&g->counts[count - 1]);
}

/* model_stack(location, above), the last one made kept. */
static uint32_t frame_under(struct flow *f, uint32_t location, uint32_t above)
{
	if (f->made_location != location || f->made_above != above) {
		f->made_location = location;
		f->made_above = above;
		f->made_stack = model_stack(f->g->m, location, above);
	}
	return f->made_stack;
}

static void place_share(struct flow *f, void *ctx, size_t row, size_t column, int64_t units)
{
	const struct entry_rows *rows = ctx;
	const struct arrival *a = &f->arrivals[rows->arrival[row]];
	const struct column *col = &f->columns[column];
	struct callgraph *g = f->g;
	if (f->row != rows->arrival[row] + 1) {
		f->row = rows->arrival[row] + 1;
		fetch_far(f, rows, row + ROWS_AHEAD);
		fetch_near(f, rows, row + ROWS_AHEAD / 2);
	}
	uint32_t location = col->kind == COLUMN_UNTRACED ? frame_of(f, col->member) : col->location;
	uint32_t frame = frame_under(f, location, callers_of(f, col->member, a->stack));
	const int64_t *counts = col->member == rows->entry ? arc_counts(f, a, location) : NULL;
	if (col->kind == COLUMN_SELF) {
		emit(f, frame, units, counts);
		return;
	}
	if (counts)
		emit(f, frame, 0, counts);
	if (col->kind == COLUMN_CALL)
		arrive(f, (struct into){ col->callee, col->callee_comp, (uint32_t)col->index, col->edge }, frame, units);
	else
		emit(f, model_stack(g->m, marker_location(g->m, &g->untraced_location, "(untraced calls)"), frame), units,
		     NULL);
}

/* A component's arrivals by entry, and the columns' units one entry's arrivals bring. */
struct entry_split {
	uint32_t *entries;  /* the entries, in the order they first arrive */
	size_t *first;      /* by entry: its arrivals are order[first[e]..first[e+1]] */
	uint32_t *order;
	int64_t *amounts;   /* the arrivals' amounts, in that order */
	int64_t *own;       /* by column: what its member's entry took first */
	int64_t *units;     /* by column: what the current entry takes */
	size_t row, n_entries; /* the current entry, SIZE_MAX before the first */
};

/* The current entry's share of every column, split over its arrivals, each under its own stack. */
static void place_entry(struct flow *f, struct entry_split *s)
{
	size_t e = s->row;
	lay_out(f, s->entries[e], s->units);
	size_t n_rows = s->first[e + 1] - s->first[e];
	struct entry_rows rows = { s->entries[e], s->order + s->first[e], n_rows, frame_of(f, s->entries[e]) };
	for (size_t row = 0; row < ROWS_AHEAD; row++)
		fetch_far(f, &rows, row);
	for (size_t row = 0; row < ROWS_AHEAD / 2; row++)
		fetch_near(f, &rows, row);
	size_t cells = n_rows > 1 ? n_rows * f->n_columns : 0;
	if (cells <= f->cells_left) {
		f->cells_left -= cells;
		split(f, s->amounts + s->first[e], n_rows, s->units, f->n_columns, place_share, &rows);
	} else {
		split_in_order(f, s->amounts + s->first[e], n_rows, s->units, f->n_columns, place_share, &rows);
	}
}

/* Places the entries before `row` not yet placed, each with what it took of its own member first. */
static void advance_to(struct flow *f, struct entry_split *s, size_t row)
{
	while (s->row != row) {
		if (s->row != SIZE_MAX)
			place_entry(f, s);
		s->row = s->row == SIZE_MAX ? 0 : s->row + 1;
		if (s->row == s->n_entries)
			break;
		memset(s->units, 0, f->n_columns * sizeof *s->units);
		uint32_t m = s->entries[s->row];
		for (size_t j = f->col_first[m]; j < f->col_end[m]; j++)
			s->units[j] = s->own[j];
	}
}

static void entry_share(struct flow *f, void *ctx, size_t row, size_t column, int64_t units)
{
	struct entry_split *s = ctx;
	advance_to(f, s, row);
	s->units[column] += units;
}

static void take_own(struct flow *f, void *ctx, size_t row, size_t column, int64_t units)
{
	(void)f;
	if (row == 0)
		((int64_t *)ctx)[column] = units;
}

/*
 * Each entry of a cycle first takes what its own member holds, up to what
 * arrives at it (what a member's callers bring is first its own, or a
 * member's total could pass its own figure); the rest of what arrives is
 * split over the rest of what the cycle holds, in proportion.
 */
static void take_own_first(struct flow *f, struct entry_split *s, int64_t *entry_amounts, int64_t *left)
{
	for (size_t e = 0; e < s->n_entries; e++) {
		uint32_t m = s->entries[e];
		size_t first = f->col_first[m], n = f->col_end[m] - first;
		int64_t held = 0;
		for (size_t j = 0; j < n; j++)
			held = add_held(held, left[first + j]);
		int64_t rows[2] = { entry_amounts[e] < held ? entry_amounts[e] : held, 0 };
		rows[1] = held - rows[0];
		memcpy(s->units, left + first, n * sizeof *s->units);
		split(f, rows, 2, s->units, n, take_own, s->own + first);
		for (size_t j = 0; j < n; j++)
			left[first + j] -= s->own[first + j];
		entry_amounts[e] -= rows[0];
	}
}

/* The member of component c an arrival came in at: its arc's callee, or where c's own flow starts. */
static uint32_t entry_of(const struct flow *f, const struct arrival *a, uint32_t c)
{
	return a->arc == MODEL_NONE ? f->start[c] : f->g->arcs[a->arc].callee;
}

/*
 * The arrivals at component c split over what it holds: first among its
 * entries (a function alone has one: all of it), then each entry's share
 * over its arrivals.
 */
static void place_component(struct flow *f, uint32_t c)
{
	if (f->first_block[c] == MODEL_NONE && f->held[c] > 0)
		arrive(f, (struct into){ f->start[c], c, MODEL_NONE, MODEL_NONE }, MODEL_EMPTY_STACK, f->held[c]);
	gather_columns(f, c);
	size_t n = 0, n_entries = 0;
	for (uint32_t b = f->first_block[c]; b != MODEL_NONE; b = f->blocks[b].next)
		n += f->blocks[b].n;
	uint32_t *ids = xmalloc((n + 1) * sizeof *ids);
	n = 0;
	for (uint32_t b = f->first_block[c]; b != MODEL_NONE; b = f->blocks[b].next)
		for (uint32_t k = 0; k < f->blocks[b].n; k++) {
			ids[n++] = f->blocks[b].ids[k];
			/* The arrivals were made far apart: misses asked for together overlap. */
			__builtin_prefetch(&f->arrivals[f->blocks[b].ids[k]]);
		}
	struct entry_split s = { xmalloc((n + 1) * sizeof *s.entries), xcalloc(n + 2, sizeof *s.first),
				 xmalloc((n + 1) * sizeof *s.order), xmalloc((n + 1) * sizeof *s.amounts),
				 xcalloc(f->n_columns + 1, sizeof *s.own), xcalloc(f->n_columns + 1, sizeof *s.units),
				 SIZE_MAX, 0 };
	int64_t *entry_amounts = xcalloc(n + 1, sizeof *entry_amounts);
	/* A function alone is every arrival's entry, with no look into the arcs. */
	uint32_t alone = f->comp_first[c + 1] - f->comp_first[c] == 1 ? f->members[f->comp_first[c]] : MODEL_NONE;
	uint32_t *entry_at = xmalloc((n + 1) * sizeof *entry_at); /* by arrival: its entry's place */
	for (size_t i = 0; i < n; i++) {
		uint32_t fn = alone != MODEL_NONE ? alone : entry_of(f, &f->arrivals[ids[i]], c);
		if (f->entry_slot[fn] == MODEL_NONE) {
			f->entry_slot[fn] = (uint32_t)n_entries;
			s.entries[n_entries++] = fn;
		}
		size_t e = entry_at[i] = f->entry_slot[fn];
		entry_amounts[e] = add_held(entry_amounts[e], f->arrivals[ids[i]].amount);
		s.first[e + 1]++;
	}
	s.n_entries = n_entries;
	for (size_t e = 0; e < n_entries; e++)
		s.first[e + 1] += s.first[e];
	size_t *fill = xmalloc((n_entries + 1) * sizeof *fill);
	memcpy(fill, s.first, (n_entries + 1) * sizeof *fill);
	for (size_t i = 0; i < n; i++) {
		size_t at = fill[entry_at[i]]++;
		s.order[at] = ids[i];
		s.amounts[at] = f->arrivals[ids[i]].amount;
	}
	free(fill);
	free(entry_at);
	free(ids);
	for (size_t e = 0; e < n_entries; e++) {
		f->entry_slot[s.entries[e]] = MODEL_NONE;
		f->room[s.entries[e]] = add_held(f->room[s.entries[e]], -entry_amounts[e]);
	}
	int64_t *left = xmalloc((f->n_columns + 1) * sizeof *left);
	for (size_t j = 0; j < f->n_columns; j++)
		left[j] = f->columns[j].total;
	if (n_entries > 1)
		take_own_first(f, &s, entry_amounts, left);
	split(f, entry_amounts, n_entries, left, f->n_columns, entry_share, &s);
	advance_to(f, &s, n_entries);
	free(left);
	free(entry_amounts);
	free(s.entries);
	free(s.first);
	free(s.order);
	free(s.amounts);
	free(s.own);
	free(s.units);
}

/*
 * Components in the DAG's order (callers first): each starts the flow it
 * holds beyond what its callers bring (at the top of a stack for one
 * nobody calls, under a frame that says so for one that is also called),
 * then splits what arrives over what it holds.
 */
static void decompose_event(struct callgraph *g, size_t event)
{
	struct flow f = { .g = g, .event = event, .n = (uint32_t)g->n_functions, .cells_left = CELLS_SPLIT,
			  .made_location = MODEL_NONE };
	index_graph(&f);
	find_components(&f);
	weigh_components(&f);
	size_t nc = f.n_comps + 1, nf = (size_t)f.n + 1;
	f.first_block = xmalloc(nc * sizeof *f.first_block);
	f.last_block = xmalloc(nc * sizeof *f.last_block);
	f.entry_arrival = xmalloc(nf * sizeof *f.entry_arrival);
	memset(f.first_block, 0xff, nc * sizeof *f.first_block);
	memset(f.last_block, 0xff, nc * sizeof *f.last_block);
	memset(f.entry_arrival, 0xff, nf * sizeof *f.entry_arrival);
	f.parent = xmalloc(nf * sizeof *f.parent);
	f.entry_slot = xmalloc(nf * sizeof *f.entry_slot);
	f.chain = xmalloc(nf * sizeof *f.chain);
	memset(f.entry_slot, 0xff, nf * sizeof *f.entry_slot);
	f.tree_site = xcalloc(nf, sizeof *f.tree_site);
	f.subtree = xcalloc(nf, sizeof *f.subtree);
	f.room = xmalloc(nf * sizeof *f.room);
	for (size_t i = 0; i < nf; i++)
		f.room[i] = known_total(&f, (uint32_t)i);
	f.col_first = xcalloc(nf, sizeof *f.col_first);
	f.col_end = xcalloc(nf, sizeof *f.col_end);
	f.row_of = xcalloc(nf, sizeof *f.row_of);
	f.callers = xcalloc(nf, sizeof *f.callers);
	f.values = xcalloc(g->m->n_sample_types + 1, sizeof *f.values);
	for (uint32_t c = f.n_comps; c-- > 0;) {
		if (f.own[c] > 0) {
			int called = f.own[c] < f.held[c];
			uint32_t above = called ? model_stack(g->m, marker_location(g->m, &g->no_caller_location,
											"(no recorded caller)"),
							      MODEL_EMPTY_STACK)
						: MODEL_EMPTY_STACK;
			arrive(&f, (struct into){ f.start[c], c, MODEL_NONE, MODEL_NONE }, above, f.own[c]);
		}
		/* The next component's arrivals were made far apart from each other and from here. */
		if (c && f.first_block[c - 1] != MODEL_NONE)
			__builtin_prefetch(&f.blocks[f.first_block[c - 1]]);
		place_component(&f, c);
	}
	void *arrays[] = { f.self, f.self_first, f.self_order, f.out_first, f.out, f.called_for, f.brought, f.comp,
			   f.comp_first, f.members, f.held, f.untraced, f.own, f.start, f.arrivals, f.blocks, f.first_block,
			   f.last_block, f.entry_arrival, f.edge_arrival, f.parent, f.entry_slot, f.chain, f.tree_site, f.subtree, f.room, f.heap, f.row_of, f.callers,
			   f.columns, f.col_first, f.col_end, f.values };
	for (size_t i = 0; i < sizeof arrays / sizeof *arrays; i++)
		free(arrays[i]);
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

/*
 * The counts of the arcs from `caller` (g->n_functions: outside) that
 * their flow did not carry, each one sample; the flow reached the callees
 * of those it carried.
 */
static void place_arcs_of(struct callgraph *g, struct count_walk *w, size_t caller)
{
	struct model *m = g->m;
	uint32_t site = MODEL_NONE, above = MODEL_EMPTY_STACK;
	for (size_t i = w->first[caller]; i < w->first[caller + 1]; i++) {
		const struct count_arc *a = &g->counts[w->order[i]];
		if (a->placed)
			continue;
		if (a->caller != MODEL_NONE && a->site != site) {
			site = a->site;
			above = model_stack(m, a->site, g->first_callers[a->caller]);
		}
		memset(w->values, 0, g->n_events * sizeof *w->values);
		memcpy(w->values + g->n_events, g->count_values + w->order[i] * g->n_counts,
		       g->n_counts * sizeof *w->values);
		model_add_sample(m, model_stack(m, a->callee_location, above), w->values, NULL, 0);
		reach(g, w, a->callee, above);
	}
}

/*
 * Counts the flow did not carry go where it first brought their caller. A caller the flow
 * never reached (calls that took no time) is reached through the arcs of
 * counts, breadth first from what the flow reached, then from any caller
 * left (a root of calls only), in function order.
 */
static void place_counts(struct callgraph *g)
{
	size_t n = g->n_functions;
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
	size_t n = g->n_functions = g->m->n_functions;
	/* Each arc and self cost makes a stack or two (pstats-100k: 1.7 an arc), bounded as docs/callgraph.md says. */
	model_reserve_stacks(g->m, 2 * (g->n_arcs + g->n_selfs));
	g->first_callers = xmalloc((n + 1) * sizeof *g->first_callers);
	for (size_t i = 0; i < n; i++)
		g->first_callers[i] = MODEL_NONE;
	for (size_t event = 0; event < g->n_events; event++)
		decompose_event(g, event);
	if (g->n_count_arcs)
		place_counts(g);
}
