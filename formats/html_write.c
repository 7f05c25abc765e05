/*
 * HTML report writer (-t html, .html): one self-contained page with the
 * views people open to understand a profile (docs/formats/html.md): the
 * summary's header, the functions by flat and cum with their callers and
 * callees, the flame graph and flame chart, the call tree top-down and
 * bottom-up, the hottest source lines, and sprof's tables and plots.
 *
 * Every number comes from the code that makes prof's other outputs:
 * functions from aggregate_by_name (as -t summary), frames keyed and named
 * as the flame pictures key them (flame_key), the pictures and
 * sprof's tables written by their own writers into a temporary file and
 * embedded (the pictures gzip-compressed, as base64, which the page
 * inflates with the browser's DecompressionStream when they are shown).
 * What the page adds is sums of the same values per stack: the trees,
 * the caller-callee edges (each counted once per stack, as pprof's peek),
 * and the lines.
 *
 * Bounded whatever the input: each table keeps its MAX_* largest rows
 * (by the largest share of any sample type, a tree node's callers kept
 * with it), and says how many it left out; the pictures elide narrow
 * boxes as they always do. Memory grows with the distinct stacks.
 *
 * Each type carries what its percentages are of (percent_total: the
 * whole profile's under a filter, the base's in a difference), so that
 * every tab's percentages are the summary's and go tool pprof's; the page
 * writes values in units as the summary does.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../base/alloc.h"
#include "../base/diag.h"
#include "../base/fdio.h"
#include "../model/aggregate.h"
#include "../model/diff.h"
#include "../render/flame.h"
#include "../render/html.h"
#include "format.h"

/*
 * sprof's views are per stack and slow to work out on millions of them
 * (it abbreviates every name as R does): past MAX_SPROF_STACKS distinct
 * stacks the page leaves them to -t sprof and -t sprofplot.
 */
enum { MAX_TREE_NODES = 20000, MAX_EDGES = 50000, MAX_LINES = 5000, MAX_FUNCTIONS = 20000,
       MAX_SPROF_ROWS = 300, MAX_SPROF_STACKS = 100000 };

/* A table of items, each with `width` values per sample type after it, interned by a key. */
struct table {
	void *items;
	size_t n, cap, item_size;
	int64_t *values; /* n * width */
	size_t cap_values, width;
	struct hashidx index;
};

struct tree_node {
	uint32_t parent, key;
};

struct edge {
	uint32_t caller, callee;
};

/* Keyed by its first LINE_KEY bytes (not the padding): the line and the file. */
struct line {
	int64_t line;
	uint32_t file;
};
#define LINE_KEY (sizeof(int64_t) + sizeof(uint32_t))

struct report {
	const struct model *m;
	struct output *out;
	const char *input; /* for the other writers' messages */
	size_t n_types;
	int diff, timed;
	struct flame_keys keys;
	struct strtab names; /* every name and file the page shows, sent once */
	uint32_t *name_of_key; /* by flame key: its name in `names` */
	size_t cap_name_of_key;
	int64_t *by_stack;   /* n_stacks * n_types: each stack's summed values */
	int64_t *totals;     /* per type, without a difference's base */
	int64_t *percent_of; /* per type: what percentages are of, as the summary's (percent_total) */
	int *drawable;       /* per type: the flame pictures can draw it */
	struct table top, bottom, edges, lines, functions;
	size_t first_type; /* --sample-type's, else the summary's: what the page opens on */
	size_t n_distinct_stacks; /* with a value of some type */
	int replaced;
};

static void table_init(struct table *t, size_t item_size, size_t width)
{
	memset(t, 0, sizeof *t);
	t->item_size = item_size;
	t->width = width;
}

static void table_free(struct table *t)
{
	free(t->items);
	free(t->values);
	hashidx_free(&t->index);
}

static int64_t *table_values(const struct table *t, size_t i)
{
	return t->values + i * t->width;
}

struct table_key {
	const struct table *t;
	size_t size;
};

static int item_equals(const void *ctx, uint32_t id, const void *key)
{
	const struct table_key *k = ctx;
	return memcmp((const char *)k->t->items + (size_t)id * k->t->item_size, key, k->size) == 0;
}

/* The item equal to `key` (compared on its first `key_size` bytes), appended with zero values when new. */
static uint32_t table_intern(struct table *t, const void *key, size_t key_size, uint64_t hash)
{
	struct table_key ctx = { t, key_size };
	uint32_t id = hashidx_find(&t->index, hash, item_equals, &ctx, key);
	if (id != HASHIDX_NONE)
		return id;
	grow(&t->items, &t->cap, t->n + 1, t->item_size);
	memset((char *)t->items + t->n * t->item_size, 0, t->item_size);
	memcpy((char *)t->items + t->n * t->item_size, key, key_size);
	/* One spare value: without sample types (width 0) the array still exists, so no NULL + 0. */
	grow((void **)&t->values, &t->cap_values, (t->n + 1) * t->width + 1, sizeof *t->values);
	memset(t->values + t->n * t->width, 0, t->width * sizeof *t->values);
	id = (uint32_t)t->n++;
	hashidx_insert(&t->index, hash, id);
	return id;
}

static void add_values(int64_t *to, const int64_t *values, size_t n)
{
	for (size_t i = 0; i < n; i++)
		to[i] += values[i];
}

/* A tree's child of `parent` for `key`: its self values first, then its totals. */
static uint32_t tree_child(struct table *t, uint32_t parent, uint32_t key)
{
	struct tree_node node = { parent, key };
	return table_intern(t, &node, sizeof node, hash_mix(parent, key));
}

static uint32_t name_of_key(struct report *r, uint32_t key)
{
	size_t old = r->cap_name_of_key;
	if (key >= old) {
		grow((void **)&r->name_of_key, &r->cap_name_of_key, key + 1, sizeof *r->name_of_key);
		memset(r->name_of_key + old, 0xff, (r->cap_name_of_key - old) * sizeof *r->name_of_key);
	}
	if (r->name_of_key[key] == MODEL_NONE) {
		size_t len;
		const char *text = flame_key_text(&r->keys, key, &len);
		r->name_of_key[key] = strtab_intern(&r->names, text, len);
	}
	return r->name_of_key[key];
}

/* Each stack's values summed over its rows; each type's total and whether a flame picture can draw it. */
static void sum_by_stack(struct report *r)
{
	struct view v;
	view_init(&v, r->m);
	size_t nt = r->n_types;
	int64_t *values = xmalloc((nt + 1) * sizeof *values);
	r->by_stack = xcalloc(r->m->n_stacks * nt + 1, sizeof *r->by_stack);
	r->totals = xcalloc(nt + 1, sizeof *r->totals);
	r->drawable = xcalloc(nt + 1, sizeof *r->drawable);
	int *negative = xcalloc(nt + 1, sizeof *negative);
	struct row_cursor rows;
	rows_begin(r->m, &rows);
	for (const struct model_row *row; (row = rows_next(&rows));) {
		view_values(&v, row, values);
		add_values(r->by_stack + (size_t)row->stack * nt, values, nt);
		if (model_is_base_sample(r->m, v.diff_key, row->labels))
			continue;
		add_values(r->totals, values, nt);
		for (size_t t = 0; t < nt; t++)
			negative[t] |= values[t] < 0;
	}
	rows_end(&rows);
	for (size_t t = 0; t < nt; t++)
		r->drawable[t] = !negative[t] && r->totals[t] != 0;
	free(negative);
	free(values);
}

/*
 * The walk down the model's stacks (a tree: each stack's caller is older
 * than it), from the root: a stack's frames go below its caller's in the
 * top-down tree, each with the values of every stack under it (`under`);
 * an edge or a line counts those values where it first occurs on the way
 * down, so that each stack counts it once however often it recurs, as
 * pprof's peek counts. `active` says how often each edge and line is on
 * the way down now.
 */
struct walk {
	uint32_t *first, *callees;  /* stack s's callees: callees[first[s] .. first[s + 1]) */
	int64_t *under;             /* by stack, per type: the values of it and every stack under it */
	uint32_t *active_edges, *active_lines;
	size_t cap_active_edges, cap_active_lines;
	uint32_t *undo;             /* the edges and lines to leave, deepest last: id * 2 + 1 for a line */
	size_t n_undo, cap_undo;
};

/* The values of each stack and every stack under it; the callees of each, together. */
static void walk_init(struct walk *w, const struct report *r)
{
	const struct model *m = r->m;
	size_t nt = r->n_types, n = m->n_stacks;
	memset(w, 0, sizeof *w);
	w->under = xmalloc((n * nt + 1) * sizeof *w->under);
	memcpy(w->under, r->by_stack, n * nt * sizeof *w->under);
	for (size_t s = n; s-- > 1;)
		add_values(w->under + (size_t)m->stacks[s].caller * nt, w->under + s * nt, nt);
	w->first = xcalloc(n + 1, sizeof *w->first);
	w->callees = xmalloc((n + 1) * sizeof *w->callees);
	for (size_t s = 1; s < n; s++)
		w->first[m->stacks[s].caller + 1]++;
	for (size_t s = 0; s < n; s++)
		w->first[s + 1] += w->first[s];
	uint32_t *next = xmalloc((n + 1) * sizeof *next);
	memcpy(next, w->first, n * sizeof *next);
	for (size_t s = 1; s < n; s++)
		w->callees[next[m->stacks[s].caller]++] = (uint32_t)s;
	free(next);
}

static void walk_free(struct walk *w)
{
	free(w->first);
	free(w->callees);
	free(w->under);
	free(w->active_edges);
	free(w->active_lines);
	free(w->undo);
}

/* An edge or line met on the way down: counted when it is not on the way already. */
static int enter(struct walk *w, uint32_t **active, size_t *cap, uint32_t id, uint32_t undo)
{
	if (id >= *cap) {
		size_t old = *cap;
		grow((void **)active, cap, id + 1, sizeof **active);
		memset(*active + old, 0, (*cap - old) * sizeof **active);
	}
	grow((void **)&w->undo, &w->cap_undo, w->n_undo + 1, sizeof *w->undo);
	w->undo[w->n_undo++] = undo;
	return (*active)[id]++ == 0;
}

/* A frame's line, counted with the values under it (`self`: its own, when it is the innermost frame). */
static void line_of_frame(struct report *r, struct walk *w, const struct model_frame *fr, const int64_t *under,
			  const int64_t *self)
{
	size_t nt = r->n_types;
	if (fr->function == MODEL_NONE || fr->line <= 0)
		return;
	const struct strtab_entry *file = strtab_get(&r->m->strings, r->m->functions[fr->function].file_name);
	if (file->len == 0)
		return;
	struct line key = { fr->line, strtab_intern(&r->names, file->bytes, file->len) };
	uint32_t id = table_intern(&r->lines, &key, LINE_KEY, hash_mix(key.file, (uint64_t)key.line));
	if (enter(w, &w->active_lines, &w->cap_active_lines, id, id * 2 + 1))
		add_values(table_values(&r->lines, id) + nt, under, nt);
	if (self)
		add_values(table_values(&r->lines, id), self, nt);
}

/*
 * Stack s's frames, outermost first, below its caller's top-down node
 * and after its caller's innermost key (MODEL_NONE at the root): returns
 * its own innermost node, and its innermost key in *key.
 */
static uint32_t enter_stack(struct report *r, struct walk *w, uint32_t s, uint32_t node, uint32_t *key)
{
	size_t nt = r->n_types;
	uint32_t location = r->m->stacks[s].location, depth = model_location_depth(r->m, location);
	const int64_t *under = w->under + (size_t)s * nt, *self = r->by_stack + (size_t)s * nt;
	for (uint32_t k = 0; k < depth; k++) {
		struct model_frame fr = model_location_frame(r->m, location, k);
		uint32_t caller = *key;
		*key = flame_key(&r->keys, &fr);
		node = tree_child(&r->top, node, *key);
		add_values(table_values(&r->top, node) + nt, under, nt);
		if (k + 1 == depth)
			add_values(table_values(&r->top, node), self, nt);
		if (caller != MODEL_NONE) {
			struct edge e = { caller, *key };
			uint32_t id = table_intern(&r->edges, &e, sizeof e, hash_mix(caller, *key));
			if (enter(w, &w->active_edges, &w->cap_active_edges, id, id * 2))
				add_values(table_values(&r->edges, id), under, nt);
		}
		line_of_frame(r, w, &fr, under, k + 1 == depth ? self : NULL);
	}
	return node;
}

struct visit {
	uint32_t stack, next, node, key;
	size_t undo; /* w->n_undo before the stack was entered */
};

/* Nothing under it in any type: nothing to walk. */
static int empty(const struct report *r, const int64_t *values)
{
	for (size_t t = 0; t < r->n_types; t++)
		if (values[t])
			return 0;
	return 1;
}

/* The top-down tree, the edges and the lines, in one walk down the stacks. */
static void walk_stacks(struct report *r)
{
	struct walk w;
	walk_init(&w, r);
	size_t nt = r->n_types, n = 1, cap = 1;
	struct visit *path = xmalloc(sizeof *path);
	path[0] = (struct visit){ MODEL_EMPTY_STACK, w.first[0], 0, MODEL_NONE, 0 };
	/* The root holds every sample, as the flame graph's; those with no frame are its own. */
	add_values(table_values(&r->top, 0) + nt, w.under, nt);
	add_values(table_values(&r->top, 0), r->by_stack, nt);
	while (n > 0) {
		struct visit *at = &path[n - 1];
		if (at->next == w.first[at->stack + 1]) {
			for (; w.n_undo > at->undo; w.n_undo--) {
				uint32_t undo = w.undo[w.n_undo - 1];
				(undo & 1 ? w.active_lines : w.active_edges)[undo >> 1]--;
			}
			n--;
			continue;
		}
		uint32_t s = w.callees[at->next++];
		if (empty(r, w.under + (size_t)s * nt))
			continue;
		struct visit next = { s, w.first[s], 0, at->key, w.n_undo };
		next.node = enter_stack(r, &w, s, at->node, &next.key);
		grow((void **)&path, &cap, n + 1, sizeof *path);
		path[n++] = next;
	}
	free(path);
	walk_free(&w);
}

/* An item's share: the largest of its values' shares of their types' totals. */
static double share(const struct report *r, const int64_t *values)
{
	double most = 0;
	for (size_t t = 0; t < r->n_types; t++) {
		double whole = r->totals[t] < 0 ? -(double)r->totals[t] : (double)r->totals[t];
		double part = values[t] < 0 ? -(double)values[t] : (double)values[t];
		if (whole > 0 && part / whole > most)
			most = part / whole;
	}
	return most;
}

/*
 * A stack on its way through the bottom-up tree: its node there, and the
 * next frame to read, innermost first (stack node, and how many of its
 * location's frames are read).
 */
struct climber {
	uint32_t stack, node, at, frames_read;
};

/* The climber's next frame's key, or MODEL_NONE past the outermost; moves it on. */
static uint32_t climb(struct report *r, struct climber *c)
{
	const struct model *m = r->m;
	while (c->at != MODEL_EMPTY_STACK &&
	       c->frames_read == model_location_depth(m, m->stacks[c->at].location)) {
		c->at = m->stacks[c->at].caller;
		c->frames_read = 0;
	}
	if (c->at == MODEL_EMPTY_STACK)
		return MODEL_NONE;
	uint32_t location = m->stacks[c->at].location;
	struct model_frame fr = model_location_frame(m, location, model_location_depth(m, location) - 1 - c->frames_read++);
	return flame_key(&r->keys, &fr);
}

/*
 * The bottom-up tree, a level at a time: every stack's leaf, then its
 * caller under each node wide enough to keep (a share of 1/MAX_TREE_NODES
 * of some type), and so on. Stacks read leaf first share little, so
 * building the whole tree would take a node per frame of every stack;
 * this takes one per frame of the stacks under wide nodes.
 */
static void build_bottom_up(struct report *r, const uint32_t *stacks, size_t n_stacks)
{
	size_t nt = r->n_types;
	struct climber *climbers = xmalloc((n_stacks + 1) * sizeof *climbers);
	for (size_t i = 0; i < n_stacks; i++)
		climbers[i] = (struct climber){ stacks[i], 0, stacks[i], 0 };
	int64_t *root = table_values(&r->bottom, 0);
	add_values(root, r->by_stack, nt);
	add_values(root + nt, r->by_stack, nt);
	for (size_t i = 0; i < n_stacks; i++)
		add_values(root + nt, r->by_stack + (size_t)stacks[i] * nt, nt);
	for (size_t n = n_stacks; n > 0;) {
		for (size_t i = 0; i < n; i++) {
			struct climber *c = &climbers[i];
			const int64_t *values = r->by_stack + (size_t)c->stack * nt;
			uint32_t key = climb(r, c);
			if (key == MODEL_NONE) {
				add_values(table_values(&r->bottom, c->node), values, nt);
				c->node = MODEL_NONE;
				continue;
			}
			c->node = tree_child(&r->bottom, c->node, key);
			add_values(table_values(&r->bottom, c->node) + nt, values, nt);
		}
		size_t kept = 0;
		for (size_t i = 0; i < n; i++)
			if (climbers[i].node != MODEL_NONE &&
			    share(r, table_values(&r->bottom, climbers[i].node) + nt) * MAX_TREE_NODES >= 1)
				climbers[kept++] = climbers[i];
		n = kept;
	}
	free(climbers);
}

static void build_stacks(struct report *r)
{
	size_t nt = r->n_types, n = 0;
	uint32_t *stacks = xmalloc(r->m->n_stacks * sizeof *stacks);
	tree_child(&r->top, MODEL_NONE, FLAME_ROOT);
	tree_child(&r->bottom, MODEL_NONE, FLAME_ROOT);
	for (size_t s = 1; s < r->m->n_stacks; s++)
		if (!empty(r, r->by_stack + s * nt))
			stacks[n++] = (uint32_t)s;
	r->n_distinct_stacks = n;
	walk_stacks(r);
	build_bottom_up(r, stacks, n);
	free(stacks);
}

/* Functions by name, as -t summary counts them, for every type. */
static void build_functions(struct report *r)
{
	size_t nt = r->n_types;
	for (size_t t = 0; t < nt; t++) {
		struct view v;
		struct name_totals totals;
		view_init(&v, r->m);
		aggregate_by_name(&v, t, &totals);
		for (size_t i = 0; i < totals.n; i++) {
			const struct strtab_entry *e = strtab_get(&totals.names, totals.rows[i].name);
			uint32_t name = e->len ? strtab_intern(&r->names, e->bytes, e->len)
					       : strtab_intern_cstr(&r->names, "<unknown>");
			uint32_t id = table_intern(&r->functions, &name, sizeof name, name);
			int64_t *values = table_values(&r->functions, id);
			values[t] = totals.rows[i].self;
			values[nt + t] = totals.rows[i].total;
		}
		name_totals_free(&totals);
	}
}

struct ranked {
	double share;
	uint32_t id;
};

static int larger_share(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;
	if (x->share != y->share)
		return x->share < y->share ? 1 : -1;
	return (x->id > y->id) - (x->id < y->id);
}

/*
 * Which items of a table the page keeps: all when there are at most
 * `most`, else the `most` of the largest share of `offset`'s values
 * (a tree's totals), marked in *kept.
 */
static size_t keep_largest(const struct report *r, struct table *t, size_t offset, size_t most, char *kept)
{
	if (t->n <= most) {
		memset(kept, 1, t->n);
		return 0;
	}
	struct ranked *rank = xmalloc(t->n * sizeof *rank);
	for (size_t i = 0; i < t->n; i++)
		rank[i] = (struct ranked){ share(r, table_values(t, i) + offset), (uint32_t)i };
	qsort(rank, t->n, sizeof *rank, larger_share);
	memset(kept, 0, t->n);
	for (size_t i = 0; i < most; i++)
		kept[rank[i].id] = 1;
	free(rank);
	return t->n - most;
}

static void json_values(struct output *out, const int64_t *values, size_t n)
{
	char text[32];
	for (size_t i = 0; i < n; i++) {
		snprintf(text, sizeof text, ",%" PRId64, values[i]);
		output_str(out, text);
	}
}

static void json_key(struct output *out, const char *key)
{
	output_str(out, ",\n\"");
	output_str(out, key);
	output_str(out, "\":");
}

/* What comes before a kept row's values: its names, and for a tree its parent's place (index). */
typedef void row_head(struct report *r, const struct table *t, size_t i, const uint32_t *index);

/*
 * The kept rows of a table as JSON arrays, [head..., value...], in table
 * order, and how many were left out (NAME_left_out).
 */
static void write_kept(struct report *r, const struct table *t, const char *name, const char *kept,
		       size_t left_out, row_head *head)
{
	uint32_t *index = xmalloc((t->n + 1) * sizeof *index);
	uint32_t n = 0;
	json_key(r->out, name);
	output_str(r->out, "[");
	for (size_t i = 0; i < t->n; i++) {
		if (!kept[i])
			continue;
		index[i] = n;
		output_str(r->out, n++ ? ",\n[" : "[");
		head(r, t, i, index);
		json_values(r->out, table_values(t, i), t->width);
		output_byte(r->out, ']');
	}
	output_str(r->out, "]");
	char key[64];
	snprintf(key, sizeof key, "%s_left_out", name);
	json_key(r->out, key);
	output_u64(r->out, left_out);
	free(index);
}

static void two_fields(struct output *out, uint64_t first, uint64_t second)
{
	output_u64(out, first);
	output_byte(out, ',');
	output_u64(out, second);
}

/* A tree node: its parent's place in the list (-1: the root's), its name. */
static void tree_head(struct report *r, const struct table *t, size_t i, const uint32_t *index)
{
	const struct tree_node *node = (const struct tree_node *)t->items + i;
	if (i == 0)
		output_str(r->out, "-1,-1");
	else
		two_fields(r->out, index[node->parent], name_of_key(r, node->key));
}

static void edge_head(struct report *r, const struct table *t, size_t i, const uint32_t *index)
{
	const struct edge *e = (const struct edge *)t->items + i;
	(void)index;
	two_fields(r->out, name_of_key(r, e->caller), name_of_key(r, e->callee));
}

static void line_head(struct report *r, const struct table *t, size_t i, const uint32_t *index)
{
	const struct line *l = (const struct line *)t->items + i;
	(void)index;
	two_fields(r->out, l->file, (uint64_t)l->line);
}

static void function_head(struct report *r, const struct table *t, size_t i, const uint32_t *index)
{
	(void)index;
	output_u64(r->out, ((const uint32_t *)t->items)[i]);
}

/*
 * A table's rows, the `most` largest by the values at `offset` (a tree's
 * totals), a tree node's callers kept with it, so that parents come
 * before their children.
 */
static void write_table(struct report *r, struct table *t, const char *name, size_t most, size_t offset,
			row_head *head)
{
	char *kept = xmalloc(t->n + 1);
	size_t left_out = keep_largest(r, t, offset, most, kept);
	for (size_t i = t->n; head == tree_head && i-- > 1;)
		if (kept[i])
			kept[((const struct tree_node *)t->items)[i].parent] = 1;
	write_kept(r, t, name, kept, left_out, head);
	free(kept);
}

/*
 * What writer `name` writes of the profile for sample type `type` (NULL:
 * its default), gzip-compressed or not, read back from a temporary file:
 * malloc'd, its length in *len; NULL when the writer refused (it said why).
 */
static unsigned char *captured(struct report *r, const char *name, const char *type, int gzip, size_t *len)
{
	FILE *tmp = tmpfile();
	if (!tmp)
		diag_fatal("cannot make a temporary file for -t html's %s", name);
	struct output part;
	output_open_fd(&part, fileno(tmp), r->out->name);
	if (gzip)
		output_gzip(&part, 6);
	struct write_options opts = { type, r->input, 6, NULL, 0 };
	int rc = format_by_name(name)->write(r->m, &part, &opts);
	if (output_commit(&part) < 0 || rc < 0) {
		fclose(tmp);
		return NULL;
	}
	off_t size = lseek(fileno(tmp), 0, SEEK_END);
	unsigned char *bytes = xmalloc((size_t)size + 1);
	if (size < 0 || fd_pread_all(fileno(tmp), bytes, (size_t)size, 0) != 0)
		diag_fatal("cannot read back -t html's %s", name);
	fclose(tmp);
	bytes[size] = 0;
	*len = (size_t)size;
	return bytes;
}

/* A picture as base64 of its gzip, or null when it is not drawn. */
static void write_picture(struct report *r, const char *writer, const char *type, int drawn)
{
	size_t len;
	unsigned char *bytes = drawn ? captured(r, writer, type, 1, &len) : NULL;
	if (!bytes) {
		output_str(r->out, "null");
		return;
	}
	output_byte(r->out, '"');
	html_base64(r->out, bytes, len);
	output_byte(r->out, '"');
	free(bytes);
}

/* A text writer's output as a JSON string, each of its tables cut to `most` rows. */
static void write_text(struct report *r, const char *writer, const char *type, size_t most, int header_only)
{
	size_t len;
	char *text = (char *)captured(r, writer, type, 0, &len);
	if (!text) {
		output_str(r->out, "null");
		return;
	}
	size_t kept = 0, rows = 0;
	if (header_only) {
		char *blank = strstr(text, "\n\n");
		kept = blank ? (size_t)(blank - text) + 1 : len;
	}
	/* Each table of sprof's is "# name", a header, rows, a blank line. */
	for (size_t i = 0; !header_only && i < len;) {
		char *end = memchr(text + i, '\n', len - i);
		size_t line_len = end ? (size_t)(end - (text + i)) + 1 : len - i;
		rows = line_len <= 1 || text[i] == '#' ? 0 : rows + 1;
		if (rows <= most + 1) {
			memmove(text + kept, text + i, line_len);
			kept += line_len;
		}
		i += line_len;
	}
	r->replaced |= html_json_string(r->out, text, kept);
	free(text);
}

static void write_types(struct report *r)
{
	struct view v;
	view_init(&v, r->m);
	json_key(r->out, "types");
	output_str(r->out, "[");
	for (size_t t = 0; t < r->n_types; t++) {
		output_str(r->out, t ? ",{\"name\":" : "{\"name\":");
		r->replaced |= html_json_string(r->out, view_type(&v, t), strlen(view_type(&v, t)));
		output_str(r->out, ",\"unit\":");
		r->replaced |= html_json_string(r->out, view_unit(&v, t), strlen(view_unit(&v, t)));
		output_str(r->out, ",\"decimals\":");
		output_u64(r->out, view_decimals(&v, t));
		output_str(r->out, ",\"total\":");
		char text[32];
		snprintf(text, sizeof text, "%" PRId64, r->totals[t]);
		output_str(r->out, text);
		output_str(r->out, ",\"percent_of\":");
		snprintf(text, sizeof text, "%" PRId64, r->percent_of[t]);
		output_str(r->out, text);
		output_str(r->out, ",\"drawable\":");
		output_str(r->out, r->drawable[t] ? "true" : "false");
		output_str(r->out, "}");
	}
	output_str(r->out, "]");
	json_key(r->out, "default_type");
	output_u64(r->out, r->first_type);
}

/* Per type: the summary's header, the flame graph and, with a time order, the flame chart. */
static void write_per_type(struct report *r)
{
	static const char *const parts[] = { "header", "flamegraph", "flamechart" };
	for (size_t p = 0; p < 3; p++) {
		json_key(r->out, parts[p]);
		output_str(r->out, "[");
		for (size_t t = 0; t < r->n_types; t++) {
			char type[24];
			snprintf(type, sizeof type, "%zu", t);
			output_str(r->out, t ? ",\n" : "");
			if (p == 0)
				write_text(r, "summary", type, 0, 1);
			else
				write_picture(r, parts[p], type,
					      r->drawable[t] && (p == 1 || (r->timed && !r->diff)));
		}
		output_str(r->out, "]");
	}
}

/* sprof's tables and plots, counting the type the page opens on, when the flame pictures can draw it. */
static void write_sprof(struct report *r)
{
	char type[24];
	snprintf(type, sizeof type, "%zu", r->first_type);
	int drawn = r->n_types > 0 && r->drawable[r->first_type] && !r->diff &&
		    r->n_distinct_stacks <= MAX_SPROF_STACKS;
	json_key(r->out, "sprof");
	if (drawn)
		write_text(r, "sprof", type, MAX_SPROF_ROWS, 0);
	else
		output_str(r->out, "null");
	json_key(r->out, "sprofplot");
	write_picture(r, "sprofplot", type, drawn);
	json_key(r->out, "distinct_stacks");
	output_u64(r->out, r->n_distinct_stacks);
}

/* The warnings prof gave before and while writing the page (the reader's first). */
static void write_warnings(struct report *r)
{
	const char *text;
	size_t n = diag_warnings(0, &text);
	json_key(r->out, "warnings");
	output_str(r->out, "[");
	for (size_t i = 0; diag_warnings(i, &text), text; i++) {
		output_str(r->out, i ? ",\n" : "");
		r->replaced |= html_json_string(r->out, text, strlen(text));
	}
	output_str(r->out, "]");
	json_key(r->out, "n_warnings");
	output_u64(r->out, n);
}

static void write_names(struct report *r)
{
	json_key(r->out, "names");
	output_str(r->out, "[");
	for (size_t i = 0; i < r->names.count; i++) {
		const struct strtab_entry *e = strtab_get(&r->names, (uint32_t)i);
		output_str(r->out, i ? ",\n" : "");
		r->replaced |= html_json_string(r->out, e->bytes, e->len);
	}
	output_str(r->out, "]}");
}

static void write_meta(struct report *r)
{
	static const char *const keys[] = { "source", "format", "duration_nanos", "diff_base" };
	output_str(r->out, "{\"version\":\"" PROF_VERSION "\"");
	for (size_t i = 0; i < 4; i++) {
		uint32_t value = model_get_meta(r->m, keys[i]);
		const char *text = value == HASHIDX_NONE ? "" : model_cstr(r->m, value);
		json_key(r->out, keys[i]);
		r->replaced |= html_json_string(r->out, text, strlen(text));
	}
	json_key(r->out, "timed");
	output_str(r->out, r->timed && !r->diff ? "true" : "false");
	json_key(r->out, "diff");
	output_str(r->out, r->diff ? "true" : "false");
}

static void report_free(struct report *r)
{
	flame_keys_free(&r->keys);
	strtab_free(&r->names);
	free(r->name_of_key);
	free(r->by_stack);
	free(r->totals);
	free(r->percent_of);
	free(r->drawable);
	table_free(&r->top);
	table_free(&r->bottom);
	table_free(&r->edges);
	table_free(&r->lines);
	table_free(&r->functions);
}

static int html_write(const struct model *m, struct output *out, const struct write_options *opts)
{
	struct report r;
	memset(&r, 0, sizeof r);
	r.m = m;
	r.out = out;
	struct view v;
	view_init(&v, m);
	r.n_types = v.n_types;
	r.diff = v.diff_key != MODEL_NONE;
	r.timed = model_has_times(m);
	r.input = opts->input;
	if (r.n_types && view_pick(&v, opts->sample_type, VIEW_WEIGHT, out->name, &r.first_type) < 0)
		return -1;
	size_t nt = r.n_types;
	flame_keys_init(&r.keys, m, 0);
	strtab_init(&r.names);
	table_init(&r.top, sizeof(struct tree_node), 2 * nt);
	table_init(&r.bottom, sizeof(struct tree_node), 2 * nt);
	table_init(&r.edges, sizeof(struct edge), nt);
	table_init(&r.lines, sizeof(struct line), 2 * nt);
	table_init(&r.functions, sizeof(uint32_t), 2 * nt);
	sum_by_stack(&r);
	r.percent_of = percent_totals(m);
	build_stacks(&r);
	build_functions(&r);

	uint32_t source = model_get_meta(m, "source");
	char title[256];
	snprintf(title, sizeof title, "prof: %s", source == HASHIDX_NONE ? "profile" : model_cstr(m, source));
	html_page_begin(out, title);
	write_meta(&r);
	write_types(&r);
	write_per_type(&r);
	write_sprof(&r);
	write_table(&r, &r.functions, "functions", MAX_FUNCTIONS, nt, function_head);
	write_table(&r, &r.top, "top_down", MAX_TREE_NODES, nt, tree_head);
	write_table(&r, &r.bottom, "bottom_up", MAX_TREE_NODES, nt, tree_head);
	write_table(&r, &r.edges, "edges", MAX_EDGES, 0, edge_head);
	write_table(&r, &r.lines, "lines", MAX_LINES, nt, line_head);
	write_warnings(&r);
	write_names(&r);
	html_page_end(out);
	if (r.replaced)
		diag_warn(out->name, 0, "names that are not UTF-8: bad bytes written as U+FFFD");
	report_free(&r);
	return 0;
}

const struct format format_html = {
	.name = "html",
	.description = "a report for people, one self-contained HTML page (write only): "
		       "top functions, flame graph and chart, call trees, source lines, sprof",
	.extensions = (const char *const[]){ ".html", NULL },
	.binary = 0,
	.probe = NULL,
	.read = NULL,
	.write = html_write,
};
