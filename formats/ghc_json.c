/*
 * GHC's JSON cost-centre profile reader (`+RTS -pj`, docs/formats/ghc.md).
 * One object: `tick_interval` (microseconds), `cost_centres` (id, label,
 * module, src_loc) and `profile`, the tree of cost-centre stacks, each
 * node naming its cost centre by id, with its individual `ticks`, `alloc`
 * (bytes) and `entries`, and its `children` nested in it. A node is a row
 * of its stack: ticks times the tick, alloc and entries, exactly, as the
 * speedscope app weighs them. Keys may come in any order, so the tree is
 * kept (as numbers, with a stack of its own, never by recursion) until
 * the cost centres and the tick are known.
 */
#include <inttypes.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/checked.h"
#include "../base/diag.h"
#include "../base/hashidx.h"
#include "../io/json.h"
#include "ghc.h"

struct node {
	int64_t cc;           /* the cost centre's id */
	int64_t ticks, alloc, entries;
	uint32_t parent;      /* its index; HASHIDX_NONE for the root */
	uint32_t stack;
	uint64_t line;        /* where it began, for messages */
	uint8_t has_id;
};

struct cost_centre {
	int64_t id;
	uint32_t location;
};

/* A node being read (json_tree says its depth): its index. */
struct open_node {
	uint32_t index;
};

struct reader {
	struct json j;
	struct model *m;
	int64_t tick_us;
	int have_tick, have_tree, have_centres;
	struct cost_centre *centres;
	size_t n_centres, cap_centres;
	struct hashidx centre_index;
	uint32_t *dense;      /* by id, once they are all read: see index_densely */
	size_t n_dense;
	struct node *nodes;
	size_t n_nodes, cap_nodes;
	struct open_node *open;
	size_t cap_open;
};

static int int_value(struct reader *r, const char *what, int64_t *v)
{
	enum json_token t = json_next(&r->j);
	if (t != JSON_NUMBER)
		return t == JSON_FAILED ? -1 : json_error(&r->j, "%s must be a number", what);
	return json_int(&r->j, what, v);
}

/* A count GHC writes: 0 or more. */
static int count_value(struct reader *r, const char *what, int64_t *v)
{
	if (int_value(r, what, v) < 0)
		return -1;
	return *v < 0 ? json_error(&r->j, "%s %" PRId64 " is negative", what, *v) : 0;
}

static int centre_equals(const void *ctx, uint32_t i, const void *key)
{
	return ((const struct reader *)ctx)->centres[i].id == *(const int64_t *)key;
}

static uint32_t find_centre(const struct reader *r, int64_t id)
{
	if (r->dense)
		return id >= 0 && (uint64_t)id < r->n_dense ? r->dense[id] : HASHIDX_NONE;
	return hashidx_find(&r->centre_index, hash_mix((uint64_t)id, 0), centre_equals, r, &id);
}

/*
 * The cost centres by id in an array, for the nodes, when the ids are as
 * GHC numbers them (1 to n): a hash lookup per node was a sixth of the
 * reading time. Ids spread wider stay in the hash.
 */
static void index_densely(struct reader *r)
{
	int64_t top = -1;
	for (size_t i = 0; i < r->n_centres; i++)
		if (r->centres[i].id < 0 || r->centres[i].id > top)
			top = r->centres[i].id < 0 ? INT64_MAX : r->centres[i].id;
	if (top >= 4 * (int64_t)r->n_centres + 1024)
		return;
	size_t n = (size_t)top + 1;
	uint32_t *dense = xmalloc((n + 1) * sizeof *dense);
	for (size_t i = 0; i < n; i++)
		dense[i] = HASHIDX_NONE;
	for (size_t i = 0; i < r->n_centres; i++)
		dense[r->centres[i].id] = (uint32_t)i;
	r->dense = dense;
	r->n_dense = n;
}

/* A string field of a cost centre: copied, since the next token replaces the text. */
static int string_field(struct reader *r, const char *what, char **text, size_t *len)
{
	enum json_token t = json_next(&r->j);
	if (t != JSON_STRING)
		return t == JSON_FAILED ? -1 : json_error(&r->j, "a cost centre's %s must be a string", what);
	free(*text);
	*text = xmalloc(r->j.len + 1);
	memcpy(*text, r->j.text, r->j.len + 1);
	*len = r->j.len;
	return 0;
}

struct centre_text {
	char *label, *module, *src;
	size_t label_len, module_len, src_len;
	int64_t id;
	int has_id;
};

static int centre_field(struct reader *r, struct centre_text *c)
{
	const char *key = r->j.text;
	if (strcmp(key, "id") == 0)
		return c->has_id = 1, int_value(r, "a cost centre's id", &c->id);
	if (strcmp(key, "label") == 0)
		return string_field(r, "label", &c->label, &c->label_len);
	if (strcmp(key, "module") == 0)
		return string_field(r, "module", &c->module, &c->module_len);
	if (strcmp(key, "src_loc") == 0)
		return string_field(r, "src_loc", &c->src, &c->src_len);
	return json_skip(&r->j, json_next(&r->j));
}

static int centre_done(struct reader *r, const struct centre_text *c)
{
	if (!c->has_id || !c->label || !c->module)
		return json_error(&r->j, "a cost centre without %s", !c->has_id ? "id" : !c->label ? "label" : "module");
	if (find_centre(r, c->id) != HASHIDX_NONE)
		return json_error(&r->j, "two cost centres with id %" PRId64, c->id);
	grow((void **)&r->centres, &r->cap_centres, r->n_centres + 1, sizeof *r->centres);
	r->centres[r->n_centres] = (struct cost_centre){ c->id,
		ghc_location(r->m, c->module, c->module_len, c->label, c->label_len, c->src, c->src ? c->src_len : 0) };
	hashidx_insert(&r->centre_index, hash_mix((uint64_t)c->id, 0), (uint32_t)r->n_centres++);
	return 0;
}

static int cost_centre(struct reader *r)
{
	struct centre_text c;
	memset(&c, 0, sizeof c);
	int rc = 0;
	for (enum json_token t; rc == 0 && (t = json_next(&r->j)) != JSON_OBJECT_END;)
		rc = t == JSON_KEY ? centre_field(r, &c) : -1;
	if (rc == 0)
		rc = centre_done(r, &c);
	free(c.label);
	free(c.module);
	free(c.src);
	return rc;
}

static int cost_centres(struct reader *r)
{
	if (r->have_centres)
		return json_error(&r->j, "a second cost_centres");
	r->have_centres = 1;
	if (json_expect(&r->j, JSON_ARRAY, "cost_centres to be an array") < 0)
		return -1;
	for (enum json_token t; (t = json_next(&r->j)) != JSON_ARRAY_END;) {
		if (t != JSON_OBJECT)
			return t == JSON_FAILED ? -1 : json_error(&r->j, "cost_centres must be objects");
		if (cost_centre(r) < 0)
			return -1;
	}
	return 0;
}

/* Opens a node at `depth` (0: the root), a child of the node open above it. */
static void open_node(void *ctx, size_t depth)
{
	struct reader *r = ctx;
	grow((void **)&r->open, &r->cap_open, depth + 1, sizeof *r->open);
	grow((void **)&r->nodes, &r->cap_nodes, r->n_nodes + 1, sizeof *r->nodes);
	r->nodes[r->n_nodes] = (struct node){ .line = r->j.token_line,
		.parent = depth > 0 ? r->open[depth - 1].index : HASHIDX_NONE };
	r->open[depth] = (struct open_node){ .index = (uint32_t)r->n_nodes++ };
}

static int node_field(void *ctx, size_t depth)
{
	struct reader *r = ctx;
	struct node *n = &r->nodes[r->open[depth].index];
	const char *key = r->j.text;
	if (strcmp(key, "id") == 0)
		return n->has_id = 1, int_value(r, "a node's id", &n->cc);
	if (strcmp(key, "ticks") == 0)
		return count_value(r, "a node's ticks", &n->ticks);
	if (strcmp(key, "alloc") == 0)
		return count_value(r, "a node's alloc", &n->alloc);
	if (strcmp(key, "entries") == 0)
		return count_value(r, "a node's entries", &n->entries);
	return json_skip(&r->j, json_next(&r->j));
}

static int close_node(void *ctx, size_t depth)
{
	struct reader *r = ctx;
	return r->nodes[r->open[depth].index].has_id ? 0 : json_error(&r->j, "a profile node without id");
}

static int tree(struct reader *r)
{
	if (r->have_tree)
		return json_error(&r->j, "a second profile tree");
	r->have_tree = 1;
	if (json_expect(&r->j, JSON_OBJECT, "profile to be a node object") < 0)
		return -1;
	static const struct json_tree_calls calls = { open_node, node_field, close_node };
	return json_tree(&r->j, &calls, r);
}

/* The rows, in the tree's order: a parent before its children, so its stack is built. */
static int rows(struct reader *r)
{
	int64_t tick_ns;
	if (checked_mul_i64(r->tick_us, 1000, &tick_ns))
		return json_error(&r->j, "tick_interval %" PRId64 " us passes 2^63 ns", r->tick_us);
	index_densely(r);
	for (size_t i = 0; i < r->n_nodes; i++) {
		struct node *n = &r->nodes[i];
		uint32_t c = find_centre(r, n->cc);
		if (c == HASHIDX_NONE) {
			diag_error(r->j.in->name, n->line, "a profile node of cost centre %" PRId64
				   ", which cost_centres does not list", n->cc);
			return -1;
		}
		uint32_t caller = n->parent == HASHIDX_NONE ? MODEL_EMPTY_STACK : r->nodes[n->parent].stack;
		n->stack = model_stack(r->m, r->centres[c].location, caller);
		int64_t values[GHC_TYPES] = { 0 };
		if (checked_mul_i64(n->ticks, tick_ns, &values[GHC_TIME])) {
			diag_error(r->j.in->name, n->line, "%" PRId64 " ticks pass 2^63 ns", n->ticks);
			return -1;
		}
		values[GHC_ALLOC] = n->alloc;
		values[GHC_ENTRIES] = n->entries;
		ghc_add_row(r->m, n->stack, values);
	}
	return 0;
}

static int top_field(struct reader *r)
{
	const char *key = r->j.text;
	if (strcmp(key, "cost_centres") == 0)
		return cost_centres(r);
	if (strcmp(key, "profile") == 0)
		return tree(r);
	if (strcmp(key, "tick_interval") == 0) {
		r->have_tick = 1;
		if (count_value(r, "tick_interval", &r->tick_us) < 0)
			return -1;
		return r->tick_us == 0 ? json_error(&r->j, "tick_interval is 0") : 0;
	}
	return json_skip(&r->j, json_next(&r->j));
}

static int read_profile(struct reader *r)
{
	struct json *j = &r->j;
	if (json_expect(j, JSON_OBJECT, "a JSON object (GHC's +RTS -pj profile)") < 0)
		return -1;
	for (enum json_token t; (t = json_next(j)) != JSON_OBJECT_END;)
		if (t != JSON_KEY || top_field(r) < 0)
			return -1;
	if (!r->have_tree || !r->have_centres || !r->have_tick)
		return json_error(j, "no %s: not GHC's +RTS -pj profile",
				  !r->have_tree ? "profile tree" : !r->have_centres ? "cost_centres" : "tick_interval");
	if (json_next(j) != JSON_END)
		return -1;
	return rows(r);
}

int ghc_read_json(struct input *in, struct model *m)
{
	struct reader r;
	memset(&r, 0, sizeof r);
	r.m = m;
	json_begin(&r.j, in);
	ghc_begin(m);
	int rc = read_profile(&r);
	json_end(&r.j);
	free(r.centres);
	hashidx_free(&r.centre_index);
	free(r.dense);
	free(r.nodes);
	free(r.open);
	return rc;
}
