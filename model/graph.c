/* graph: a call graph's own figures beside the samples (graph.h). */
#include "graph.h"

#include <stdlib.h>
#include <string.h>

#include "../base/alloc.h"

void model_graph_begin(struct model_graph *g, enum model_graph_kind kind, size_t n_costs)
{
	model_graph_free(g);
	g->kind = (uint8_t)kind;
	g->n_costs = n_costs ? n_costs : 1;
}

void model_graph_free(struct model_graph *g)
{
	free(g->functions);
	free(g->function_costs);
	free(g->arcs);
	free(g->arc_costs);
	hashidx_free(&g->arc_index);
	free(g->selfs);
	free(g->self_costs);
	hashidx_free(&g->self_index);
	memset(g, 0, sizeof *g);
}

/* Room for item n's `per` costs in *costs, zeroed. */
static void zeroed_costs(int64_t **costs, size_t *cap, size_t n, size_t per)
{
	grow((void **)costs, cap, (n + 1) * per, sizeof **costs);
	memset(*costs + n * per, 0, per * sizeof **costs);
}

size_t model_graph_add_function(struct model_graph *g, const struct model_graph_function *f)
{
	grow((void **)&g->functions, &g->cap_functions, g->n_functions + 1, sizeof *g->functions);
	zeroed_costs(&g->function_costs, &g->cap_function_costs, g->n_functions, 2 * g->n_costs);
	g->functions[g->n_functions] = *f;
	return g->n_functions++;
}

size_t model_graph_add_arc(struct model_graph *g, const struct model_graph_arc *a)
{
	grow((void **)&g->arcs, &g->cap_arcs, g->n_arcs + 1, sizeof *g->arcs);
	zeroed_costs(&g->arc_costs, &g->cap_arc_costs, g->n_arcs, 2 * g->n_costs);
	g->arcs[g->n_arcs] = *a;
	return g->n_arcs++;
}

static int arc_eq(const void *ctx, uint32_t id, const void *key)
{
	const struct model_graph_arc *a = &((const struct model_graph *)ctx)->arcs[id], *k = key;
	return a->site == k->site && a->callee == k->callee && a->caller == k->caller;
}

size_t model_graph_arc_at(struct model_graph *g, const struct model_graph_arc *a)
{
	uint64_t h = hash_mix(hash_mix(a->site, a->callee), a->caller);
	uint32_t at = hashidx_find(&g->arc_index, h, arc_eq, g, a);
	if (at != HASHIDX_NONE)
		return at;
	struct model_graph_arc fresh = *a;
	fresh.calls = fresh.primitive_calls = 0;
	size_t added = model_graph_add_arc(g, &fresh);
	hashidx_insert(&g->arc_index, h, (uint32_t)added);
	return added;
}

static int self_eq(const void *ctx, uint32_t id, const void *key)
{
	const struct model_graph_self *s = &((const struct model_graph *)ctx)->selfs[id], *k = key;
	return s->location == k->location && s->function == k->function;
}

size_t model_graph_self_at(struct model_graph *g, uint32_t function, uint32_t location)
{
	struct model_graph_self key = { function, location };
	uint64_t h = hash_mix(function, location);
	uint32_t at = hashidx_find(&g->self_index, h, self_eq, g, &key);
	if (at != HASHIDX_NONE)
		return at;
	grow((void **)&g->selfs, &g->cap_selfs, g->n_selfs + 1, sizeof *g->selfs);
	zeroed_costs(&g->self_costs, &g->cap_self_costs, g->n_selfs, g->n_costs);
	g->selfs[g->n_selfs] = key;
	hashidx_insert(&g->self_index, h, (uint32_t)g->n_selfs);
	return g->n_selfs++;
}
