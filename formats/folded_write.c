/*
 * Folded stacks writer: one line per distinct stack of names, in order of
 * first appearance, root first, with the summed weight of the chosen
 * sample type (--sample-type; default: samples for Rprof, else pprof's
 * default), or both counts of a differential profile ("stack BEFORE
 * AFTER") unless --sample-type picks one; a difference made by
 * --diff-base is written in that form too, its base's samples (negated in
 * the model) as BEFORE. Weights are written with their type's decimals,
 * as short as exact ("1.5").
 *
 * Frames are names: pprof's frames of one name from different locations
 * are one frame, so equal stacks of names are summed into one line, as
 * every flame graph tool expects. Every stack a sample has gets its line,
 * weight 0 included (folded input's zero lines, a pprof sample whose
 * values are all 0), but for the stacks of other types: a sample that
 * weighs 0 in the chosen type and something in another (another JFR or
 * perf event, a heap sample's freed space) is not the chosen type's, as
 * go tool pprof's graphs leave it out. In a tree a node with self count
 * 0 is only a caller, and has a line only when its whole subtree weighs
 * 0 (a node with Count 0).
 *
 * Folded stacks have no escaping: a ';' inside a name becomes ':', a line
 * break or NUL a space, with a warning, so that the output reads back.
 * Samples with an empty stack (which no line can hold) are left out with a
 * warning.
 */
#include <string.h>

#include "../base/alloc.h"
#include "../base/diag.h"
#include "../base/numtext.h"
#include "../model/diff.h"
#include "../model/view.h"
#include "folded.h"

enum { LISTED = 1, WRITTEN = 2 };

/* A stack of names: its innermost name and the stack of its callers; node 0 is the empty stack. */
struct name_node {
	uint32_t name, caller;
};

struct writer {
	const struct model *m;
	struct output *out;
	struct view view;
	size_t types[2], n_types; /* the types written, one or a differential's two */
	uint32_t diff_key; /* --diff-base's: both columns are types[0], the base's and the rest */
	/* Names as written, interned: functions of one name are one frame. */
	struct strtab names;
	uint32_t *name_of_function; /* MODEL_NONE until made */
	char *scratch;
	size_t cap_scratch;
	int changed_names;
	/* Stacks of names; none when the model's stacks are already (stacks_are_names). */
	struct name_node *nodes;
	size_t n_nodes, cap_nodes;
	struct hashidx node_index;
	uint32_t *node_of_stack;    /* by the model's stack id; NULL: each stack is its own node */
	int64_t *weights;           /* n_types per node */
	uint8_t *seen;              /* by node: LISTED, and WRITTEN for a line of the types written */
	uint32_t *order;            /* nodes in order of first appearance */
	size_t n_order, cap_order;
	uint8_t *weightless;        /* by stack id, for a tree: the subtree weighs 0 */
};

/* The name as written, with the bytes a folded line cannot hold in a name replaced. */
static uint32_t written_name(struct writer *w, const struct model_frame *fr)
{
	struct model_name name;
	model_frame_shown_name(w->m, fr, &name);
	grow((void **)&w->scratch, &w->cap_scratch, name.len + 1, 1);
	for (size_t i = 0; i < name.len; i++) {
		char c = name.bytes[i];
		if (c == ';' || c == '\n' || c == '\r' || c == '\0') {
			w->changed_names = 1;
			c = c == ';' ? ':' : ' ';
		}
		w->scratch[i] = c;
	}
	return strtab_intern(&w->names, w->scratch, name.len);
}

static uint32_t name_of(struct writer *w, const struct model_frame *fr)
{
	if (fr->function == MODEL_NONE)
		return written_name(w, fr);
	uint32_t *known = &w->name_of_function[fr->function];
	if (*known == MODEL_NONE)
		*known = written_name(w, fr);
	return *known;
}

static int node_equals(const void *ctx, uint32_t id, const void *key)
{
	const struct name_node *a = &((const struct writer *)ctx)->nodes[id], *b = key;
	return a->name == b->name && a->caller == b->caller;
}

static uint32_t name_node(struct writer *w, uint32_t name, uint32_t caller)
{
	struct name_node key = { name, caller };
	return hashidx_intern(&w->node_index, hash_mix(name, caller), node_equals, w, &key,
			      (void **)&w->nodes, &w->n_nodes, &w->cap_nodes, sizeof *w->nodes);
}

/*
 * The stack of names of every stack node, callers first (a caller is
 * always older than its node): a location's inlined callers' names, then
 * its own.
 */
static void map_stacks(struct writer *w)
{
	const struct model *m = w->m;
	w->node_of_stack = xmalloc(m->n_stacks * sizeof *w->node_of_stack);
	w->node_of_stack[0] = name_node(w, 0, MODEL_NONE);
	for (size_t s = 1; s < m->n_stacks; s++) {
		uint32_t loc = m->stacks[s].location, node = w->node_of_stack[m->stacks[s].caller];
		for (uint32_t k = 0, n = model_location_depth(m, loc); k < n; k++) {
			struct model_frame fr = model_location_frame(m, loc, k);
			node = name_node(w, name_of(w, &fr), node);
		}
		w->node_of_stack[s] = node;
	}
}

/*
 * Are the model's stacks already stacks of names? They are when every
 * location is the only one of its function, with no inlined lines, and no
 * two functions are written with one name (folded input): then each stack
 * is its own node, and a big file's millions of stacks need no second
 * hash table.
 */
static int stacks_are_names(struct writer *w)
{
	const struct model *m = w->m;
	uint8_t *located = xcalloc(m->n_functions + 1, 1);
	int plain = 1;
	for (size_t i = 0; plain && i < m->n_locations; i++) {
		const struct model_location *l = &m->locations[i];
		plain = l->function != MODEL_NONE && l->n_inlined == 0 && !located[l->function]++;
	}
	free(located);
	/* A written name is never empty (model_frame_name): ids from 1, one per function when distinct. */
	for (size_t f = 0; plain && f < m->n_functions; f++) {
		struct model_frame fr = { (uint32_t)f, 0, MODEL_NONE };
		name_of(w, &fr);
	}
	return plain && w->names.count == m->n_functions + 1;
}

static uint32_t node_name(const struct writer *w, uint32_t node)
{
	if (w->node_of_stack)
		return w->nodes[node].name;
	const struct model *m = w->m;
	return w->name_of_function[m->locations[m->stacks[node].location].function];
}

static uint32_t node_caller(const struct writer *w, uint32_t node)
{
	return w->node_of_stack ? w->nodes[node].caller : w->m->stacks[node].caller;
}

/* For a tree: which nodes have no weight in their whole subtree (Count 0). */
static void find_weightless(struct writer *w, int64_t *values)
{
	const struct model *m = w->m;
	int64_t *below = xcalloc(m->n_stacks, sizeof *below);
	struct row_cursor rows;
	view_init(&w->view, m);
	rows_begin(m, &rows);
	for (const struct model_row *row; (row = rows_next(&rows));) {
		view_values(&w->view, row, values);
		for (size_t t = 0; t < w->n_types; t++)
			below[row->stack] |= values[w->types[t]];
	}
	rows_end(&rows);
	for (size_t s = m->n_stacks; s-- > 1;)
		below[m->stacks[s].caller] |= below[s];
	w->weightless = xmalloc(m->n_stacks);
	for (size_t s = 0; s < m->n_stacks; s++)
		w->weightless[s] = below[s] == 0;
	free(below);
}

/*
 * The weights a row adds to its line: the types written or, for a
 * difference, its one type in the column of its side: the base's samples
 * (negated in the model) in the first, the others in the second.
 */
static void row_columns(const struct writer *w, const struct model_row *row, const int64_t *values,
			int64_t *columns)
{
	if (w->diff_key == MODEL_NONE) {
		for (size_t t = 0; t < w->n_types; t++)
			columns[t] = values[w->types[t]];
		return;
	}
	int64_t v = values[w->types[0]];
	int base = model_is_base_sample(w->m, w->diff_key, row->labels);
	columns[0] = base ? diff_base_count(v) : 0;
	columns[1] = base ? 0 : v;
}

/* Does the row weigh anything in any type, written or not? */
static int weighs_in_any_type(const struct writer *w, const int64_t *values)
{
	for (size_t t = 0; t < w->view.n_types; t++)
		if (values[t] != 0)
			return 1;
	return 0;
}

static int sum_weights(struct writer *w, int64_t *values)
{
	const struct model *m = w->m;
	uint64_t empty = 0;
	struct row_cursor rows;
	view_init(&w->view, m);
	rows_begin(m, &rows);
	for (const struct model_row *row; (row = rows_next(&rows));) {
		view_values(&w->view, row, values);
		int weighs = 0;
		int64_t columns[2];
		row_columns(w, row, values, columns);
		for (size_t t = 0; t < w->n_types; t++) {
			int64_t v = columns[t];
			if (v < 0) {
				rows_end(&rows);
				return view_refuse_negative(m, row->index, w->types[t], v, "folded stacks",
							    w->out->name);
			}
			weighs |= v != 0;
		}
		if (row->stack == MODEL_EMPTY_STACK) {
			empty += weighs;
			continue;
		}
		uint32_t node = w->node_of_stack ? w->node_of_stack[row->stack] : row->stack;
		if (!w->seen[node]) {
			w->seen[node] = LISTED;
			grow((void **)&w->order, &w->cap_order, w->n_order + 1, sizeof *w->order);
			w->order[w->n_order++] = node;
		}
		int zero_line = !weighs && !weighs_in_any_type(w, values) &&
				(!w->weightless || w->weightless[row->stack]);
		if (weighs || zero_line)
			w->seen[node] |= WRITTEN;
		for (size_t t = 0; t < w->n_types; t++)
			w->weights[(size_t)node * w->n_types + t] += columns[t];
	}
	rows_end(&rows);
	if (empty)
		diag_warn(w->out->name, 0, "%llu samples with an empty stack left out: no folded "
					   "line can hold them", (unsigned long long)empty);
	return 0;
}

static void write_weight(struct writer *w, int64_t v, size_t t)
{
	unsigned decimals = view_decimals(&w->view, w->types[t]);
	output_byte(w->out, ' ');
	if (decimals == 0) {
		output_u64(w->out, (uint64_t)v);
		return;
	}
	char text[DECIMAL_TEXT_MAX];
	output_write(w->out, text, decimal_text(text, v, decimals, 1));
}

static void write_lines(struct writer *w)
{
	uint32_t *path = NULL;
	size_t cap_path = 0;
	for (size_t i = 0; i < w->n_order; i++) {
		if (!(w->seen[w->order[i]] & WRITTEN))
			continue;
		size_t depth = 0;
		for (uint32_t n = w->order[i]; n != 0; n = node_caller(w, n)) {
			grow((void **)&path, &cap_path, depth + 1, sizeof *path);
			path[depth++] = node_name(w, n);
		}
		for (size_t k = depth; k-- > 0;) {
			const struct strtab_entry *e = strtab_get(&w->names, path[k]);
			output_write(w->out, e->bytes, e->len);
			if (k)
				output_byte(w->out, ';');
		}
		for (size_t t = 0; t < w->n_types; t++)
			write_weight(w, w->weights[(size_t)w->order[i] * w->n_types + t], t);
		output_byte(w->out, '\n');
	}
	free(path);
}

/* Both counts of a differential profile, unless --sample-type picks one; else the one picked. */
static int pick_types(struct writer *w, const struct write_options *opts)
{
	w->n_types = 1;
	w->diff_key = model_diff_key(w->m);
	if (!opts->sample_type && folded_is_differential(w->m)) {
		w->types[0] = 0;
		w->types[1] = 1;
		w->n_types = 2;
		return 0;
	}
	if (!w->m->n_rows)
		return 0;
	if (view_pick(&w->view, opts->sample_type, VIEW_WEIGHT, w->out->name, &w->types[0]) < 0)
		return -1;
	if (w->diff_key != MODEL_NONE) {
		w->n_types = 2;
		w->types[1] = w->types[0];
	}
	return 0;
}

int folded_write(const struct model *m, struct output *out, const struct write_options *opts)
{
	struct writer w;
	memset(&w, 0, sizeof w);
	w.m = m;
	w.out = out;
	view_init(&w.view, m);
	if (pick_types(&w, opts) < 0)
		return -1;
	int64_t *values = xmalloc((w.view.n_types + 1) * sizeof *values);
	strtab_init(&w.names);
	w.name_of_function = xmalloc((m->n_functions + 1) * sizeof *w.name_of_function);
	memset(w.name_of_function, 0xff, (m->n_functions + 1) * sizeof *w.name_of_function);
	if (!stacks_are_names(&w))
		map_stacks(&w);
	else
		w.n_nodes = m->n_stacks;
	w.weights = xcalloc(w.n_nodes * w.n_types, sizeof *w.weights);
	w.seen = xcalloc(w.n_nodes, 1);
	if (m->rules.tree_nodes)
		find_weightless(&w, values);
	int rc = sum_weights(&w, values);
	if (rc == 0)
		write_lines(&w);
	if (w.changed_names)
		diag_warn(out->name, 0, "names with ';', a line break or a NUL byte: written with ':' "
					"or a space, as folded stacks have no escaping");
	free(values);
	strtab_free(&w.names);
	free(w.name_of_function);
	free(w.scratch);
	free(w.nodes);
	hashidx_free(&w.node_index);
	free(w.node_of_stack);
	free(w.weights);
	free(w.seen);
	free(w.order);
	free(w.weightless);
	return rc;
}
