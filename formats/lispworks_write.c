/*
 * LispWorks profiler tree writer: builds the call tree from the samples,
 * root first, each node's Count the weight of the samples through it,
 * children in order of first appearance, several roots when samples have
 * several outermost functions. Nodes are told apart by function name; in
 * a model read from a tree, by location, which keeps the tree's own nodes.
 * The function-info is the input's when it had one, else computed:
 * Seen-Count = weight of the samples the function is in (once each),
 * Top-Count = weight of those whose leaf it is, Call-Count 0.
 * The weight is the chosen sample type (--sample-type; default as pprof's);
 * one with decimals is refused, since a Count is a whole number.
 *
 * A tree line is UTF-8 text (the reader refuses anything else), so a name
 * is written with U+FFFD for each byte that is not UTF-8 and for a NUL,
 * and a space for a line break, with a warning. Nodes and function-info
 * go by the name as written: two names that come out the same are one
 * function of the tree, so what is written always reads back.
 *
 * Linear in the size of the model whatever the depth: the tree node of a
 * stack is remembered per stack node, samples add their weight to their
 * leaf only, Counts are summed up the tree once, and Seen-Count comes from
 * one walk that tracks which names are on the current path. Walks need no
 * recursion, so depth costs no C stack.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "../base/diag.h"
#include "../base/alloc.h"
#include "../base/utf8.h"
#include "../model/view.h"
#include "lispworks.h"

struct node {
	uint32_t key;      /* a written name, or a location when by_location */
	uint8_t by_location;
	uint32_t name;     /* in `written`; MODEL_NONE for an unsymbolized address */
	struct model_frame frame; /* the first frame seen here, which names the node */
	uint32_t parent, first_child, last_child, next_sibling;
	int64_t count;
};

struct info {
	int64_t seen, top, call;
	uint32_t on_path; /* how many nodes of this name the walk is inside */
};

struct writer {
	const struct model *m;
	struct output *out;
	struct view view;
	size_t type;
	int64_t *values;
	struct node *nodes; /* [0] is a virtual root above the real roots */
	size_t n_nodes, cap_nodes;
	struct hashidx index;
	struct strtab written;       /* names as the tree holds them */
	uint32_t *written_of;        /* by function: its name in `written`, plus 1; 0: not yet */
	char *scratch;
	size_t cap_scratch;
	int replaced;                /* some name needed replacing */
	struct info *info; /* by written name */
	size_t cap_info;
	uint32_t *node_of_stack; /* tree node of each stack node; 0: not yet */
	uint32_t *pending;       /* stack nodes waiting for their node */
	size_t cap_pending;
};

struct child_key {
	uint32_t parent, key;
	uint8_t by_location;
};

static int child_equals(const void *ctx, uint32_t id, const void *key)
{
	const struct node *n = &((const struct writer *)ctx)->nodes[id];
	const struct child_key *k = key;
	return n->parent == k->parent && n->key == k->key && n->by_location == k->by_location;
}

/* Appends the bytes of s as a tree line can hold them to w->scratch at *len. */
static void sanitize(struct writer *w, const char *s, size_t n, size_t *len)
{
	grow((void **)&w->scratch, &w->cap_scratch, *len + 3 * n + 1, 1);
	for (size_t i = 0; i < n;) {
		const unsigned char *c = (const unsigned char *)s + i;
		size_t k = *c && *c != '\n' && *c != '\r' ? utf8_char(c, n - i) : 0;
		if (k) {
			memcpy(w->scratch + *len, c, k);
			*len += k;
			i += k;
			continue;
		}
		const char *put = *c == '\n' || *c == '\r' ? " " : UTF8_REPLACEMENT;
		memcpy(w->scratch + *len, put, strlen(put));
		*len += strlen(put);
		w->replaced = 1;
		i++;
	}
}

/* A function's name as the tree holds it, made once per function. */
static uint32_t written_name(struct writer *w, uint32_t function)
{
	if (!w->written_of[function]) {
		struct model_frame fr = { function, 0, 0 };
		struct model_name name;
		size_t len = 0;
		model_frame_name(w->m, &fr, &name);
		sanitize(w, name.bytes, name.len, &len);
		uint32_t id = strtab_intern(&w->written, w->scratch, len);
		size_t old = w->cap_info;
		grow((void **)&w->info, &w->cap_info, id + 1, sizeof *w->info);
		memset(w->info + old, 0, (w->cap_info - old) * sizeof *w->info);
		w->written_of[function] = id + 1;
	}
	return w->written_of[function] - 1;
}

static uint32_t child(struct writer *w, uint32_t parent, const struct model_frame *fr)
{
	const struct model *m = w->m;
	uint32_t name = fr->function == MODEL_NONE ? MODEL_NONE : written_name(w, fr->function);
	uint8_t by_location = m->rules.tree_nodes || name == MODEL_NONE;
	struct child_key key = { parent, by_location ? fr->location : name, by_location };
	uint64_t h = hash_mix(hash_mix(parent, key.key), by_location);
	uint32_t id = hashidx_find(&w->index, h, child_equals, w, &key);
	if (id != HASHIDX_NONE)
		return id;
	grow((void **)&w->nodes, &w->cap_nodes, w->n_nodes + 1, sizeof *w->nodes);
	id = (uint32_t)w->n_nodes++;
	w->nodes[id] = (struct node){ key.key, by_location, name, *fr, parent, 0, 0, 0, 0 };
	struct node *p = &w->nodes[parent];
	if (p->last_child)
		w->nodes[p->last_child].next_sibling = id;
	else
		p->first_child = id;
	p->last_child = id;
	hashidx_insert(&w->index, h, id);
	return id;
}

/* Below `node`, the frames of one location: its inlined callers first, its own line last. */
static uint32_t descend(struct writer *w, uint32_t node, uint32_t location)
{
	for (uint32_t k = 0, n = model_location_depth(w->m, location); k < n; k++) {
		struct model_frame fr = model_location_frame(w->m, location, k);
		node = child(w, node, &fr);
	}
	return node;
}

/* The tree node of a stack's innermost frame, found once per stack node. */
static uint32_t node_of(struct writer *w, uint32_t stack)
{
	const struct model *m = w->m;
	size_t n = 0;
	for (uint32_t s = stack; s != MODEL_EMPTY_STACK && !w->node_of_stack[s]; s = m->stacks[s].caller) {
		grow((void **)&w->pending, &w->cap_pending, n + 1, sizeof *w->pending);
		w->pending[n++] = s;
	}
	while (n-- > 0) {
		uint32_t s = w->pending[n], caller = m->stacks[s].caller;
		uint32_t parent = caller == MODEL_EMPTY_STACK ? 0 : w->node_of_stack[caller];
		w->node_of_stack[s] = descend(w, parent, m->stacks[s].location);
	}
	return stack == MODEL_EMPTY_STACK ? 0 : w->node_of_stack[stack];
}

/* A sample's weight goes to its leaf; Counts are summed up the tree later. */
static int add_row(struct writer *w, const struct model_row *row)
{
	view_values(&w->view, row, w->values);
	int64_t weight = w->values[w->type];
	if (weight < 0)
		return view_refuse_negative(w->m, row->index, w->type, weight, "a tree", w->out->name);
	uint32_t leaf = node_of(w, row->stack);
	if (leaf == 0)
		return 0;
	w->nodes[leaf].count += weight;
	if (w->nodes[leaf].name != MODEL_NONE)
		w->info[w->nodes[leaf].name].top += weight;
	return 0;
}

/* A child is made after its parent, so one pass from the last node sums every subtree. */
static void sum_counts(struct writer *w)
{
	for (size_t i = w->n_nodes; i-- > 1;)
		w->nodes[w->nodes[i].parent].count += w->nodes[i].count;
}

/*
 * Preorder without recursion: `enter` each node with its depth, `leave` it
 * after its subtree (leave may be NULL).
 */
static int walk(struct writer *w, int (*enter)(struct writer *, uint32_t, size_t),
		void (*leave)(struct writer *, uint32_t))
{
	uint32_t cur = w->nodes[0].first_child;
	size_t depth = 0;
	while (cur) {
		if (enter(w, cur, depth) < 0)
			return -1;
		if (w->nodes[cur].first_child) {
			cur = w->nodes[cur].first_child;
			depth++;
			continue;
		}
		for (;;) {
			if (leave)
				leave(w, cur);
			if (w->nodes[cur].next_sibling) {
				cur = w->nodes[cur].next_sibling;
				break;
			}
			cur = w->nodes[cur].parent;
			if (cur == 0)
				return 0;
			depth--;
		}
	}
	return 0;
}

/* Seen-Count: a sample counts once for a name, at the outermost node of that name. */
static int enter_seen(struct writer *w, uint32_t node, size_t depth)
{
	(void)depth;
	uint32_t name = w->nodes[node].name;
	if (name != MODEL_NONE && w->info[name].on_path++ == 0)
		w->info[name].seen += w->nodes[node].count;
	return 0;
}

static void leave_seen(struct writer *w, uint32_t node)
{
	if (w->nodes[node].name != MODEL_NONE)
		w->info[w->nodes[node].name].on_path--;
}

static void take_stored_info(struct writer *w)
{
	for (size_t i = 0; i < w->m->n_functions; i++) {
		const struct model_function *f = &w->m->functions[i];
		/* A function on no node says nothing about the tree. */
		if (!f->tree.known || !w->written_of[i])
			continue;
		struct info *in = &w->info[w->written_of[i] - 1];
		in->call = f->tree.call_count;
		in->seen = f->tree.seen_count;
		in->top = f->tree.top_count;
	}
}

static void write_name(struct writer *w, const struct node *n)
{
	struct model_name name;
	if (n->name != MODEL_NONE) {
		const struct strtab_entry *e = strtab_get(&w->written, n->name);
		output_write(w->out, e->bytes, e->len);
		return;
	}
	model_frame_name(w->m, &n->frame, &name);
	output_write(w->out, name.bytes, name.len);
}

static int write_node(struct writer *w, uint32_t node, size_t depth)
{
	const struct node *n = &w->nodes[node];
	static const struct info none = { 0, 0, 0, 0 };
	const struct info *in = n->name == MODEL_NONE ? &none : &w->info[n->name];
	char numbers[120];
	snprintf(numbers, sizeof numbers, "%zu|%" PRId64 "|%" PRId64 "|%" PRId64 "|%" PRId64 "|", depth,
		 n->count, in->call, in->seen, in->top);
	output_str(w->out, numbers);
	write_name(w, n);
	output_byte(w->out, '\n');
	return w->out->failed ? -1 : 0;
}

static void write_header(struct writer *w)
{
	uint32_t name = model_get_meta(w->m, "tree_name");
	if (name == HASHIDX_NONE)
		name = model_get_meta(w->m, "source");
	output_str(w->out, LISPWORKS_MARKER ": ");
	if (name != HASHIDX_NONE) {
		const struct strtab_entry *e = strtab_get(&w->m->strings, name);
		size_t len = 0;
		sanitize(w, e->bytes, e->len, &len);
		output_write(w->out, w->scratch, len);
	}
	output_byte(w->out, '\n');
}

int lispworks_write(const struct model *m, struct output *out, const struct write_options *opts)
{
	struct writer w;
	memset(&w, 0, sizeof w);
	w.m = m;
	w.out = out;
	view_init(&w.view, m);
	if (m->n_rows && view_pick(&w.view, opts->sample_type, VIEW_WEIGHT, out->name, &w.type) < 0)
		return -1;
	/* A tree's Count is a whole number: a fraction is refused, not rounded. */
	if (m->n_rows && view_decimals(&w.view, w.type))
		return view_refuse_decimals(&w.view, w.type, "a LispWorks tree", out->name);
	w.values = xmalloc((w.view.n_types + 1) * sizeof *w.values);
	strtab_init(&w.written);
	w.written_of = xcalloc(m->n_functions + 1, sizeof *w.written_of);
	w.node_of_stack = xcalloc(m->n_stacks, sizeof *w.node_of_stack);
	grow((void **)&w.nodes, &w.cap_nodes, 1, sizeof *w.nodes);
	w.nodes[0] = (struct node){ 0, 0, MODEL_NONE, { MODEL_NONE, 0, 0 }, 0, 0, 0, 0, 0 };
	w.n_nodes = 1;
	int rc = 0;
	struct row_cursor rows;
	rows_begin(m, &rows);
	for (const struct model_row *row; rc == 0 && (row = rows_next(&rows));)
		rc = add_row(&w, row);
	rows_end(&rows);
	if (rc == 0) {
		sum_counts(&w);
		walk(&w, enter_seen, leave_seen);
		take_stored_info(&w);
		write_header(&w);
		rc = walk(&w, write_node, NULL);
	}
	free(w.nodes);
	hashidx_free(&w.index);
	free(w.info);
	free(w.written_of);
	free(w.scratch);
	strtab_free(&w.written);
	if (rc == 0 && w.replaced)
		diag_warn(out->name, 0, "names with line breaks, NUL bytes or bytes that are not "
					"UTF-8: written with a space or U+FFFD, as a tree line is UTF-8 text");
	free(w.node_of_stack);
	free(w.pending);
	free(w.values);
	return rc;
}
