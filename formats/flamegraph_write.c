/*
 * Flame graph writer (-t flamegraph): the frames flamegraph.pl draws for
 * the folded stacks of the same profile, one self-contained SVG. Samples
 * are summed by stack, stacks merged into a tree by frame key (name, or
 * name and line), siblings sorted by name with a frame's own weight to
 * the left of its callees, as flamegraph.pl's sorted lines place them;
 * but one box per name under a parent, where flamegraph.pl, sorting whole
 * lines, can draw two. Boxes narrower than --minwidth are left out with
 * their subtrees, inside their parents' widths. Memory grows with the
 * distinct stacks, output with the boxes wide enough to draw.
 *
 * A difference (--diff-base) is drawn as flamegraph.pl draws two-count
 * folded stacks: boxes sized by the profile, coloured by their change
 * from the base (red grew, blue shrank); code only the base ran has no
 * width, so no box (the summary lists it).
 */
#include <stdio.h>
#include <string.h>

#include "../base/diag.h"
#include "../base/alloc.h"
#include "../model/diff.h"
#include "flamegraph.h"

struct node {
	uint32_t key, parent, depth;
	int64_t self, total;
	int64_t base_self, base_total; /* a difference's base: its counts, positive */
};

struct graph {
	const struct model *m;
	int diff; /* a difference (--diff-base): boxes show their change */
	const struct flame_options *opts;
	struct flame_keys keys;
	struct node *nodes;
	size_t n_nodes, cap_nodes;
	struct hashidx child_index; /* by (parent, key) */
	/*
	 * Each node's children, together: children[first[n] .. first[n + 1]).
	 * Made once the tree is whole, so that laying it out reads arrays,
	 * not nodes scattered over the heap.
	 */
	uint32_t *first, *children;
	uint32_t *node_of;          /* by stack, root first: its node once known */
	uint32_t *climb;            /* stacks on the way to a known one */
	size_t cap_climb;
	uint32_t *keys_of_stack;
	size_t cap_keys_of_stack;
	struct model_frame *frames;
	size_t cap_frames;
};

struct child_key {
	uint32_t parent, key;
};

static int child_equals(const void *ctx, uint32_t id, const void *key)
{
	const struct node *n = &((const struct graph *)ctx)->nodes[id];
	const struct child_key *k = key;
	return n->parent == k->parent && n->key == k->key;
}

static uint32_t child(struct graph *g, uint32_t parent, uint32_t key)
{
	struct child_key k = { parent, key };
	uint64_t h = hash_mix(parent, key);
	uint32_t id = hashidx_find(&g->child_index, h, child_equals, g, &k);
	if (id != HASHIDX_NONE)
		return id;
	grow((void **)&g->nodes, &g->cap_nodes, g->n_nodes + 1, sizeof *g->nodes);
	id = (uint32_t)g->n_nodes++;
	g->nodes[id] = (struct node){ key, parent, g->nodes[parent].depth + 1, 0, 0, 0, 0 };
	hashidx_insert(&g->child_index, h, id);
	return id;
}

/* A location's frames below `node`: its inlined callers outermost first, then its own line. */
static uint32_t location_node(struct graph *g, uint32_t location, uint32_t node)
{
	for (uint32_t k = 0, n = model_location_depth(g->m, location); k < n; k++) {
		struct model_frame fr = model_location_frame(g->m, location, k);
		node = child(g, node, flame_key(&g->keys, &fr));
	}
	return node;
}

/* The node of a stack, root first: stacks share callers, so each is made once. */
static uint32_t stack_node(struct graph *g, uint32_t stack)
{
	size_t n = 0;
	for (; stack != MODEL_EMPTY_STACK && g->node_of[stack] == MODEL_NONE; stack = g->m->stacks[stack].caller) {
		grow((void **)&g->climb, &g->cap_climb, n + 1, sizeof *g->climb);
		g->climb[n++] = stack;
	}
	uint32_t node = stack == MODEL_EMPTY_STACK ? FLAME_ROOT : g->node_of[stack];
	while (n-- > 0) {
		uint32_t s = g->climb[n];
		node = g->node_of[s] = location_node(g, g->m->stacks[s].location, node);
	}
	return node;
}

/* With --reverse the path starts at the leaf: no caller is shared, each stack is walked. */
static uint32_t reversed_node(struct graph *g, uint32_t stack)
{
	size_t n = flame_stack_keys(&g->keys, stack, 1, &g->keys_of_stack, &g->cap_keys_of_stack,
				    &g->frames, &g->cap_frames);
	uint32_t node = FLAME_ROOT;
	for (size_t i = 0; i < n; i++)
		node = child(g, node, g->keys_of_stack[i]);
	return node;
}

/* Counts each node's children, then places them, in node order. */
static void group_children(struct graph *g)
{
	size_t n = g->n_nodes;
	g->first = xcalloc(n + 1, sizeof *g->first);
	g->children = xmalloc(n * sizeof *g->children);
	for (size_t i = 1; i < n; i++)
		g->first[g->nodes[i].parent + 1]++;
	for (size_t i = 0; i < n; i++)
		g->first[i + 1] += g->first[i];
	uint32_t *next = xmalloc(n * sizeof *next);
	memcpy(next, g->first, n * sizeof *next);
	for (size_t i = 1; i < n; i++)
		g->children[next[g->nodes[i].parent]++] = (uint32_t)i;
	free(next);
}

/*
 * Each sample's value on its stack's node; then totals, children after
 * parents. Samples with none are left out, as from folded stacks.
 */
static void build(struct graph *g, const struct flame_values *fv)
{
	struct view v;
	view_init(&v, g->m);
	int64_t *values = xmalloc((v.n_types + 1) * sizeof *values);
	struct row_cursor rows;
	rows_begin(g->m, &rows);
	for (const struct model_row *row; (row = rows_next(&rows));) {
		view_values(&v, row, values);
		if (values[fv->type] == 0)
			continue;
		uint32_t node = g->opts->reverse ? reversed_node(g, row->stack) : stack_node(g, row->stack);
		if (model_is_base_sample(g->m, fv->diff_key, row->labels))
			g->nodes[node].base_self += diff_base_count(values[fv->type]);
		else
			g->nodes[node].self += values[fv->type];
	}
	rows_end(&rows);
	free(values);
	for (size_t i = 0; i < g->n_nodes; i++) {
		g->nodes[i].total += g->nodes[i].self;
		g->nodes[i].base_total += g->nodes[i].base_self;
	}
	for (size_t i = g->n_nodes; i-- > 1;) {
		g->nodes[g->nodes[i].parent].total += g->nodes[i].total;
		g->nodes[g->nodes[i].parent].base_total += g->nodes[i].base_total;
	}
	group_children(g);
}

struct sibling {
	const char *text;
	size_t len;
	uint32_t node;
	int64_t before; /* the counts of narrow siblings between this one and the one before */
};

static int by_name(const void *a, const void *b)
{
	const struct sibling *x = a, *y = b;
	int c = memcmp(x->text, y->text, x->len < y->len ? x->len : y->len);
	if (c == 0)
		c = (x->len > y->len) - (x->len < y->len);
	/* One text, two keys (a function named like an address): any fixed order. */
	return c ? c : (x->node > y->node) - (x->node < y->node);
}

static struct sibling sibling_of(struct graph *g, uint32_t node)
{
	struct sibling s = { NULL, 0, node, 0 };
	s.text = flame_key_text(&g->keys, g->nodes[node].key, &s.len);
	return s;
}

/*
 * How many of the n wide siblings come before `narrow` in name order: its
 * count goes before that one (or after them all, into *after).
 */
static void place_narrow(struct sibling *wide, size_t n, const struct sibling *narrow, int64_t count,
			 int64_t *after)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (by_name(&wide[mid], narrow) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*(lo < n ? &wide[lo].before : after) += count;
}

/*
 * A node's children wide enough to draw, in name order, each with the
 * counts of the narrow ones before it: narrow siblings are not drawn but
 * take their place along x. Most children of a big profile are narrow,
 * so only the wide ones are sorted.
 */
static size_t wide_children(struct graph *g, uint32_t node, const struct flame_page *page,
			    struct sibling **wide, size_t *cap)
{
	const uint32_t *child = g->children + g->first[node];
	size_t count = g->first[node + 1] - g->first[node], n = 0;
	grow((void **)wide, cap, count, sizeof **wide);
	for (size_t i = 0; i < count; i++)
		if (flame_wide_enough(page, g->nodes[child[i]].total))
			(*wide)[n++] = sibling_of(g, child[i]);
	if (n > 1)
		qsort(*wide, n, sizeof **wide, by_name);
	int64_t after = 0;
	for (size_t i = 0; n > 0 && i < count; i++)
		if (!flame_wide_enough(page, g->nodes[child[i]].total)) {
			struct sibling narrow = sibling_of(g, child[i]);
			place_narrow(*wide, n, &narrow, g->nodes[child[i]].total, &after);
		}
	return n;
}

struct placed {
	uint32_t node;
	int64_t start;
};

/* Preorder, so that each subtree follows its root in the file (flame.js relies on it). */
static void draw(struct graph *g, struct flame_page *page)
{
	struct placed *todo = xmalloc(sizeof *todo);
	struct sibling *wide = NULL;
	size_t n_todo = 1, cap_todo = 1, cap_wide = 0;
	todo[0] = (struct placed){ FLAME_ROOT, 0 };
	while (n_todo > 0) {
		struct placed at = todo[--n_todo];
		const struct node *n = &g->nodes[at.node];
		flame_box(page, n->key, n->depth,
			  (struct flame_span){ at.start, at.start + n->total, n->total, g->diff,
					       n->total - n->base_total },
			  NULL);
		size_t count = wide_children(g, at.node, page, &wide, &cap_wide);
		grow((void **)&todo, &cap_todo, n_todo + count, sizeof *todo);
		int64_t start = at.start + n->self;
		for (size_t i = 0; i < count; i++) {
			start += wide[i].before;
			/* Stored last to first, so that the first is drawn next. */
			todo[n_todo + count - 1 - i] = (struct placed){ wide[i].node, start };
			start += g->nodes[wide[i].node].total;
		}
		n_todo += count;
	}
	free(todo);
	free(wide);
}

/* A difference's largest change of a box drawn, either sign. */
static int64_t largest_change(const struct graph *g, const struct flame_page *page)
{
	int64_t largest = 0;
	for (size_t i = 0; g->diff && i < g->n_nodes; i++) {
		int64_t change = g->nodes[i].total - g->nodes[i].base_total;
		change = change < 0 ? -change : change;
		if (flame_wide_enough(page, g->nodes[i].total) && change > largest)
			largest = change;
	}
	return largest;
}

static unsigned deepest_drawn(const struct graph *g, const struct flame_page *page)
{
	unsigned depth = 0;
	for (size_t i = 0; i < g->n_nodes; i++)
		if (g->nodes[i].depth > depth && flame_wide_enough(page, g->nodes[i].total))
			depth = g->nodes[i].depth;
	return depth;
}

/* Every name made before sorting: making one may move the others. */
static void make_texts(struct graph *g)
{
	size_t len;
	for (size_t i = 0; i < g->keys.n; i++)
		flame_key_text(&g->keys, (uint32_t)i, &len);
}

static void subtitle(const struct model *m, const struct flame_options *opts,
		     const struct flame_values *fv, char *text, size_t size)
{
	uint32_t source = model_get_meta(m, "source"), base = model_get_meta(m, "diff_base");
	int diff = fv->diff_key != MODEL_NONE && base != HASHIDX_NONE;
	snprintf(text, size, "%s%s%s: %s%s%s%s", source == HASHIDX_NONE ? "profile" : model_cstr(m, source),
		 diff ? " minus " : "", diff ? model_cstr(m, base) : "", fv->type_name, opts->reverse ? ", stacks reversed (leaf at the root)" : "",
		 opts->frames_by_line ? ", a frame per line" : "",
		 fv->diff_key != MODEL_NONE ? ", change from the base: red grew, blue shrank" : "");
}

int flamegraph_write(const struct model *m, struct output *out, const struct write_options *given)
{
	struct flame_options read;
	flame_options_read(given, &read);
	const struct flame_options *opts = &read;
	struct flame_values fv;
	if (flame_total(m, out, opts, 0, &fv) < 0)
		return -1;
	struct graph g;
	memset(&g, 0, sizeof g);
	g.m = m;
	g.opts = opts;
	g.diff = fv.diff_key != MODEL_NONE;
	flame_keys_init(&g.keys, m, opts->frames_by_line);
	grow((void **)&g.nodes, &g.cap_nodes, 1, sizeof *g.nodes);
	g.nodes[g.n_nodes++] = (struct node){ FLAME_ROOT, MODEL_NONE, 0, 0, 0, 0, 0 };
	g.node_of = xmalloc(m->n_stacks * sizeof *g.node_of);
	memset(g.node_of, 0xff, m->n_stacks * sizeof *g.node_of);
	build(&g, &fv);
	make_texts(&g);

	struct flame_page page;
	char sub[512];
	flame_page_init(&page, out, &g.keys, opts, &fv);
	subtitle(m, opts, &fv, sub, sizeof sub);
	page.title = opts->title ? opts->title : opts->inverted ? "Icicle Graph" : "Flame Graph";
	page.subtitle = sub;
	page.max_depth = deepest_drawn(&g, &page);
	page.max_change = largest_change(&g, &page);
	flame_page_begin(&page);
	draw(&g, &page);
	flame_page_end(&page);

	flame_keys_free(&g.keys);
	free(g.nodes);
	hashidx_free(&g.child_index);
	free(g.node_of);
	free(g.first);
	free(g.children);
	free(g.climb);
	free(g.keys_of_stack);
	free(g.frames);
	return 0;
}

static const char *const flamegraph_extensions[] = { ".svg", NULL };

const struct format format_flamegraph = {
	.name = "flamegraph",
	.description = "flame graph, one interactive SVG (write only): flamegraph.pl's frames",
	.extensions = flamegraph_extensions,
	.binary = 0,
	.probe = NULL,
	.read = NULL,
	.options = flame_options,
	.write = flamegraph_write,
};
