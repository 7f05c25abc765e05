#include "aggregate.h"

#include <stdlib.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/checked.h"
#include "diff.h"

struct counter {
	struct name_totals *out;
	size_t cap_rows;
	/* Entry of each function, and of each location without one; MODEL_NONE: not yet. */
	uint32_t *of_function, *of_location;
	uint32_t *of_name; /* by string id in out->names */
	size_t cap_of_name;
};

/* The entry of a name, made when first seen. */
static uint32_t entry_of_name(struct counter *c, const char *bytes, size_t len)
{
	struct name_totals *out = c->out;
	uint32_t id = strtab_intern(&out->names, bytes, len);
	size_t old = c->cap_of_name;
	grow((void **)&c->of_name, &c->cap_of_name, (size_t)id + 1, sizeof *c->of_name);
	memset(c->of_name + old, 0xff, (c->cap_of_name - old) * sizeof *c->of_name);
	if (c->of_name[id] == MODEL_NONE) {
		grow((void **)&out->rows, &c->cap_rows, out->n + 1, sizeof *out->rows);
		out->rows[out->n] = (struct name_ticks){ id, 0, 0, 0, 0 };
		c->of_name[id] = (uint32_t)out->n++;
	}
	return c->of_name[id];
}

static uint32_t entry_of_frame(struct counter *c, const struct model *m, const struct model_frame *fr)
{
	uint32_t *known = fr->function != MODEL_NONE ? &c->of_function[fr->function]
						     : &c->of_location[fr->location];
	if (*known != MODEL_NONE)
		return *known;
	if (fr->function != MODEL_NONE) {
		const struct strtab_entry *e = strtab_get(&m->strings, model_shown_name(m, fr->function));
		*known = entry_of_name(c, e->bytes, e->len);
	} else {
		struct model_name name;
		model_frame_name(m, fr, &name);
		*known = entry_of_name(c, name.bytes, name.len);
	}
	return *known;
}

static uint32_t *unknown_entries(size_t n)
{
	uint32_t *entries = xmalloc((n + 1) * sizeof *entries);
	memset(entries, 0xff, (n + 1) * sizeof *entries);
	return entries;
}

/*
 * By stack node: what the view's rows at it weigh (own) and what all rows
 * at or under it weigh (sub), the view's ticks and the base's; whether
 * its names have entries yet.
 */
struct node_weights {
	int64_t *own, *sub, *base_own, *base_sub;
	uint8_t *entered;
};

/*
 * Makes the entries of a row's frames, leaf first, up to the first node an
 * earlier row entered (whose callers that row entered too): the names come
 * in order of first occurrence, each node's once.
 */
static void enter_stack(struct counter *c, const struct model *m, struct node_weights *w, uint32_t stack)
{
	for (; stack != MODEL_EMPTY_STACK && !w->entered[stack]; stack = m->stacks[stack].caller) {
		uint32_t loc = m->stacks[stack].location;
		for (uint32_t k = model_location_depth(m, loc); k-- > 0;) {
			struct model_frame fr = model_location_frame(m, loc, k);
			entry_of_frame(c, m, &fr);
		}
		w->entered[stack] = 1;
	}
}

/* The entered nodes as a tree: node p's children are kids[first[p] .. first[p + 1]). */
static void tree_of_nodes(const struct model *m, const struct node_weights *w, size_t **first, uint32_t **kids)
{
	size_t n = m->n_stacks;
	*first = xcalloc(n + 1, sizeof **first);
	*kids = xmalloc((n + 1) * sizeof **kids);
	for (size_t s = 1; s < n; s++)
		if (w->entered[s])
			(*first)[m->stacks[s].caller + 1]++;
	for (size_t s = 0; s < n; s++)
		(*first)[s + 1] += (*first)[s];
	size_t *fill = xmalloc((n + 1) * sizeof *fill);
	memcpy(fill, *first, (n + 1) * sizeof *fill);
	for (size_t s = 1; s < n; s++)
		if (w->entered[s])
			(*kids)[fill[m->stacks[s].caller]++] = (uint32_t)s;
	free(fill);
}

/*
 * Node s's frames onto the path (step 1: each name not on it yet counts
 * the node's subtree in its total, and the innermost frame its own rows
 * in its self) or off it (step -1).
 */
static void walk_node(struct counter *c, const struct model *m, const struct node_weights *w, uint32_t s, int step,
		      uint32_t *on_path)
{
	uint32_t loc = m->stacks[s].location, depth = model_location_depth(m, loc);
	for (uint32_t k = depth; k-- > 0;) {
		struct model_frame fr = model_location_frame(m, loc, k);
		uint32_t e = entry_of_frame(c, m, &fr);
		if (step < 0) {
			on_path[e]--;
			continue;
		}
		struct name_ticks *t = &c->out->rows[e];
		if (on_path[e]++ == 0) {
			t->total += w->sub[s];
			t->base_total += w->base_sub[s];
		}
		if (k + 1 == depth) {
			t->self += w->own[s];
			t->base_self += w->base_own[s];
		}
	}
}

/* Every entered node's frames counted, depth first without recursion: a stack may be deep. */
static void count_tree(struct counter *c, const struct model *m, const struct node_weights *w)
{
	size_t *first, *next = xmalloc((m->n_stacks + 1) * sizeof *next);
	uint32_t *kids, *path = xmalloc((m->n_stacks + 1) * sizeof *path);
	uint32_t *on_path = xcalloc(c->out->n + 1, sizeof *on_path);
	tree_of_nodes(m, w, &first, &kids);
	size_t depth = 0;
	path[depth] = MODEL_EMPTY_STACK;
	next[depth++] = first[MODEL_EMPTY_STACK];
	while (depth) {
		uint32_t s = path[depth - 1];
		if (next[depth - 1] < first[s + 1]) {
			uint32_t kid = kids[next[depth - 1]++];
			walk_node(c, m, w, kid, 1, on_path);
			path[depth] = kid;
			next[depth++] = first[kid];
			continue;
		}
		if (s != MODEL_EMPTY_STACK)
			walk_node(c, m, w, s, -1, on_path);
		depth--;
	}
	free(first);
	free(kids);
	free(next);
	free(path);
	free(on_path);
}

/*
 * Each row's ticks go to its stack node; a node's subtree sums them, and a
 * name counts, once, the subtrees of the nodes where it first shows on
 * their paths: rows plus stack nodes, not rows times their depth.
 */
void aggregate_by_name(struct view *v, size_t type, struct name_totals *out)
{
	const struct model *m = v->m;
	size_t n = m->n_stacks;
	struct counter c = { out, 0, unknown_entries(m->n_functions), unknown_entries(m->n_locations), NULL, 0 };
	struct node_weights w = { xcalloc(n + 1, sizeof *w.own), NULL, xcalloc(n + 1, sizeof *w.base_own), NULL,
				  xcalloc(n + 1, 1) };
	int64_t *values = xmalloc((v->n_types + 1) * sizeof *values);
	memset(out, 0, sizeof *out);
	strtab_init(&out->names);
	struct row_cursor rows;
	rows_begin(m, &rows);
	for (const struct model_row *row; (row = rows_next(&rows));) {
		view_values(v, row, values);
		int64_t ticks = values[type];
		if (ticks == 0)
			continue;
		enter_stack(&c, m, &w, row->stack);
		w.own[row->stack] += ticks;
		if (model_is_base_sample(m, v->diff_key, row->labels))
			w.base_own[row->stack] += diff_base_count(ticks);
	}
	rows_end(&rows);
	w.sub = xmalloc((n + 1) * sizeof *w.sub);
	w.base_sub = xmalloc((n + 1) * sizeof *w.base_sub);
	memcpy(w.sub, w.own, (n + 1) * sizeof *w.sub);
	memcpy(w.base_sub, w.base_own, (n + 1) * sizeof *w.base_sub);
	for (size_t s = n; s-- > 1;) {
		w.sub[m->stacks[s].caller] += w.sub[s];
		w.base_sub[m->stacks[s].caller] += w.base_sub[s];
	}
	count_tree(&c, m, &w);
	free(values);
	free(w.own);
	free(w.sub);
	free(w.base_own);
	free(w.base_sub);
	free(w.entered);
	free(c.of_function);
	free(c.of_location);
	free(c.of_name);
}

void name_totals_free(struct name_totals *t)
{
	strtab_free(&t->names);
	free(t->rows);
	memset(t, 0, sizeof *t);
}

/* a + b, at most INT64_MAX: both are magnitudes. */
static int64_t saturated_add(int64_t a, int64_t b)
{
	int64_t sum;
	return checked_add_i64(a, b, &sum) ? INT64_MAX : sum;
}

static void sum_magnitudes(const struct model *m, int64_t *whole, int64_t *base)
{
	struct view v;
	view_init(&v, m);
	int64_t *values = xmalloc((v.n_types + 1) * sizeof *values);
	struct row_cursor rows;
	rows_begin(m, &rows);
	for (const struct model_row *row; (row = rows_next(&rows));) {
		view_values(&v, row, values);
		int is_base = model_is_base_sample(m, v.diff_key, row->labels);
		for (size_t t = 0; t < v.n_types; t++) {
			int64_t size = values[t] < 0 ? diff_base_count(values[t]) : values[t];
			whole[t] = saturated_add(whole[t], size);
			base[t] = is_base ? saturated_add(base[t], size) : base[t];
		}
	}
	rows_end(&rows);
	free(values);
}

int64_t *percent_totals(const struct model *m)
{
	struct view v;
	view_init(&v, m);
	int64_t *totals = xcalloc(v.n_types + 1, sizeof *totals);
	if (m->whole_totals) {
		memcpy(totals, m->whole_totals, v.n_types * sizeof *totals);
		return totals;
	}
	int64_t *base = xcalloc(v.n_types + 1, sizeof *base);
	sum_magnitudes(m, totals, base);
	for (size_t t = 0; t < v.n_types; t++)
		totals[t] = base[t] > 0 ? base[t] : totals[t];
	free(base);
	return totals;
}

int64_t percent_total(struct view *v, size_t type)
{
	int64_t *totals = percent_totals(v->m), total = totals[type];
	free(totals);
	return total;
}
