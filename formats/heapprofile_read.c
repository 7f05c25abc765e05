/*
 * V8 sampling heap profile reader (docs/formats/heapprofile.md). One JSON
 * object: `head`, the allocation tree, each node holding its `callFrame`,
 * its `selfSize` (bytes of the sampled allocations made with it on top of
 * the stack), its `children` nested in it and, from newer V8, an `id`;
 * and, from newer V8, `samples`: each sampled allocation's size, node and
 * ordinal. A node with bytes or samples is a row: its stack the path from
 * the root ("(root)" left out), its values the samples naming it and its
 * selfSize, which is the weight the speedscope app gives it (V8 scales a
 * node's allocations together, a sample's alone, so the samples' sizes do
 * not add up to selfSize). The tree is read with a stack of its own, never
 * by recursion, so any depth costs memory, not the C stack.
 */
#include <inttypes.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/diag.h"
#include "../base/hashidx.h"
#include "../base/spool.h"
#include "../base/varint.h"
#include "../io/json.h"
#include "format.h"
#include "v8_frame.h"

int heapprofile_read(struct input *in, struct model *m);

struct node {
	int64_t id;
	int64_t self_size;
	uint64_t samples;
	uint32_t parent;   /* the parent's index; HASHIDX_NONE for head */
	uint32_t location; /* MODEL_NONE: "(root)", no frame */
	uint32_t stack;
	uint8_t has_id;
};



/* A node being read: its index in nodes, what it said so far. */
struct open_node {
	uint32_t index;
	struct v8_call_frame cf;
	uint8_t has_frame, has_size;
};

struct reader {
	struct json j;
	struct model *m;
	struct node *nodes;
	size_t n_nodes, cap_nodes;
	struct hashidx node_index; /* by id, for samples, when ids are not dense */
	uint32_t *dense;           /* by id, when they are: see index_nodes */
	size_t n_dense;
	struct v8_frames frames;
	struct open_node *open; /* the nodes being read, head first */
	size_t cap_open;
	struct spool sample_nodes; /* each sample's nodeId, zigzag, until the tree is read */
	int have_head, have_samples;
};

/* The next value, a whole number, named `what` in messages. */
static int int_value(struct reader *r, const char *what, int64_t *v)
{
	enum json_token t = json_next(&r->j);
	if (t != JSON_NUMBER)
		return t == JSON_FAILED ? -1 : json_error(&r->j, "%s must be a number", what);
	return json_int(&r->j, what, v);
}

/* lineNumber or columnNumber: V8 writes it 0-based, -1 unknown; the model 1-based, 0 unknown. */
static int position(struct reader *r, const char *what, int64_t *v)
{
	if (int_value(r, what, v) < 0)
		return -1;
	if (*v < -1 || *v == INT64_MAX)
		return json_error(&r->j, "%s %" PRId64 ": V8 writes 0 or more, or -1", what, *v);
	*v += 1;
	return 0;
}

static int call_frame_field(struct reader *r, struct v8_call_frame *cf)
{
	struct json *j = &r->j;
	int name = strcmp(j->text, "functionName") == 0;
	if (name || strcmp(j->text, "url") == 0) {
		enum json_token t = json_next(j);
		if (t != JSON_STRING)
			return t == JSON_FAILED ? -1 : json_error(j, "callFrame's %s must be a string", name ? "functionName" : "url");
		*(name ? &cf->name : &cf->url) = model_str(r->m, j->text, j->len);
		cf->has_name |= name;
		return 0;
	}
	if (strcmp(j->text, "lineNumber") == 0)
		return position(r, "lineNumber", &cf->line);
	if (strcmp(j->text, "columnNumber") == 0)
		return position(r, "columnNumber", &cf->column);
	return json_skip(j, json_next(j));
}

static int call_frame(struct reader *r, struct open_node *o)
{
	struct json *j = &r->j;
	if (o->has_frame)
		return json_error(j, "a node with two callFrames");
	o->has_frame = 1;
	if (json_expect(j, JSON_OBJECT, "callFrame to be an object") < 0)
		return -1;
	for (enum json_token t; (t = json_next(j)) != JSON_OBJECT_END;)
		if (t != JSON_KEY || call_frame_field(r, &o->cf) < 0)
			return -1;
	return o->cf.has_name ? 0 : json_error(j, "a callFrame without functionName");
}


/* Opens a node at `depth` of the tree (0: head), a child of the node open above it. */
static void open_node(void *ctx, size_t depth)
{
	struct reader *r = ctx;
	grow((void **)&r->open, &r->cap_open, depth + 1, sizeof *r->open);
	grow((void **)&r->nodes, &r->cap_nodes, r->n_nodes + 1, sizeof *r->nodes);
	r->nodes[r->n_nodes] = (struct node){ .location = MODEL_NONE,
		.parent = depth > 0 ? r->open[depth - 1].index : HASHIDX_NONE };
	r->open[depth] = (struct open_node){ .index = (uint32_t)r->n_nodes++ };
}

static int node_equals(const void *ctx, uint32_t i, const void *key)
{
	const struct node *n = &((const struct reader *)ctx)->nodes[i];
	return n->has_id && n->id == *(const int64_t *)key;
}

static uint32_t find_node(const struct reader *r, int64_t id)
{
	if (r->dense)
		return id >= 0 && (uint64_t)id < r->n_dense ? r->dense[id] : HASHIDX_NONE;
	return hashidx_find(&r->node_index, hash_mix((uint64_t)id, 0), node_equals, r, &id);
}

/*
 * The nodes by id, once the tree is read, for the samples: ids as V8
 * gives them (1 to n) index an array, a hash lookup a node was a fifth of
 * the reading time; ids spread wider go in the hash. A second node of an
 * id is refused.
 */
static int index_nodes(struct reader *r)
{
	int64_t top = -1;
	for (size_t i = 0; i < r->n_nodes; i++)
		if (r->nodes[i].has_id && (r->nodes[i].id < 0 || r->nodes[i].id > top))
			top = r->nodes[i].id < 0 ? INT64_MAX : r->nodes[i].id;
	int dense = top < 4 * (int64_t)r->n_nodes + 1024;
	if (dense) {
		r->n_dense = (size_t)top + 1;
		r->dense = xmalloc((r->n_dense + 1) * sizeof *r->dense);
		for (size_t i = 0; i < r->n_dense; i++)
			r->dense[i] = HASHIDX_NONE;
	}
	for (size_t i = 0; i < r->n_nodes; i++) {
		const struct node *n = &r->nodes[i];
		if (!n->has_id)
			continue;
		if (find_node(r, n->id) != HASHIDX_NONE)
			return json_error(&r->j, "two nodes with id %" PRId64, n->id);
		if (dense)
			r->dense[n->id] = (uint32_t)i;
		else
			hashidx_insert(&r->node_index, hash_mix((uint64_t)n->id, 0), (uint32_t)i);
	}
	return 0;
}

/* A key of the node being read, and its value. */
static int node_field(void *ctx, size_t depth)
{
	struct reader *r = ctx;
	struct json *j = &r->j;
	struct open_node *o = &r->open[depth];
	struct node *n = &r->nodes[o->index];
	if (strcmp(j->text, "callFrame") == 0)
		return call_frame(r, o);
	if (strcmp(j->text, "selfSize") == 0) {
		o->has_size = 1;
		if (int_value(r, "a node's selfSize", &n->self_size) < 0)
			return -1;
		return n->self_size < 0 ? json_error(j, "a node's selfSize %" PRId64 " is negative", n->self_size) : 0;
	}
	if (strcmp(j->text, "id") == 0) {
		n->has_id = 1;
		return int_value(r, "a node's id", &n->id);
	}
	return json_skip(j, json_next(j));
}

static int close_node(void *ctx, size_t depth)
{
	struct reader *r = ctx;
	const struct open_node *o = &r->open[depth];
	if (!o->has_frame || !o->has_size)
		return json_error(&r->j, "a node without %s", o->has_frame ? "selfSize" : "callFrame");
	r->nodes[o->index].location = v8_frame_location(&r->frames, &o->cf);
	return 0;
}

static int tree(struct reader *r)
{
	if (r->have_head)
		return json_error(&r->j, "a second head tree");
	r->have_head = 1;
	if (json_expect(&r->j, JSON_OBJECT, "head to be a node object") < 0)
		return -1;
	static const struct json_tree_calls calls = { open_node, node_field, close_node };
	return json_tree(&r->j, &calls, r);
}

/* One of `samples`: its node is what counts; size and ordinal are checked and left. */
static int sample(struct reader *r)
{
	struct json *j = &r->j;
	int64_t node_id = 0, size;
	int has_node = 0;
	for (enum json_token t; (t = json_next(j)) != JSON_OBJECT_END;) {
		if (t != JSON_KEY)
			return -1;
		int rc;
		if (strcmp(j->text, "nodeId") == 0)
			rc = int_value(r, "a sample's nodeId", &node_id), has_node = 1;
		else if (strcmp(j->text, "size") == 0)
			rc = int_value(r, "a sample's size", &size) < 0 ? -1 :
			     size < 0 ? json_error(j, "a sample's size %" PRId64 " is negative", size) : 0;
		else
			rc = json_skip(j, json_next(j));
		if (rc < 0)
			return -1;
	}
	if (!has_node)
		return json_error(j, "a sample without nodeId");
	spool_put(&r->sample_nodes, varint_zigzag(node_id));
	return 0;
}

static int samples(struct reader *r)
{
	struct json *j = &r->j;
	if (r->have_samples)
		return json_error(j, "a second samples array");
	r->have_samples = 1;
	if (json_expect(j, JSON_ARRAY, "samples to be an array") < 0)
		return -1;
	for (enum json_token t; (t = json_next(j)) != JSON_ARRAY_END;) {
		if (t != JSON_OBJECT)
			return t == JSON_FAILED ? -1 : json_error(j, "samples must be objects");
		if (sample(r) < 0)
			return -1;
	}
	return 0;
}

/*
 * Each sample counted on its node, once the tree is read. V8 builds the
 * samples after the tree, so the allocations it samples while writing
 * the tree name nodes the tree does not hold: those are left out, said once.
 */
static void count_samples(struct reader *r)
{
	uint64_t lost = 0;
	for (uint64_t k = 0; k < r->sample_nodes.n; k++) {
		int64_t id = varint_unzigzag(spool_get(&r->sample_nodes));
		uint32_t i = find_node(r, id);
		if (i == HASHIDX_NONE)
			lost++;
		else
			r->nodes[i].samples++;
	}
	if (lost)
		diag_warn(r->j.in->name, 0, "%" PRIu64 " of %" PRIu64 " samples name a node the tree does not hold "
			  "(allocated as V8 wrote the profile): left out of the counts", lost, r->sample_nodes.n);
}

/*
 * A row a node with bytes or samples, in the file's order (the tree's,
 * depth first): a parent comes before its children, so its stack is built.
 */
static void rows(struct reader *r)
{
	if (r->have_samples)
		model_add_sample_type(r->m, "samples", "count");
	model_add_sample_type(r->m, "space", "bytes");
	for (size_t i = 0; i < r->n_nodes; i++) {
		struct node *n = &r->nodes[i];
		uint32_t caller = n->parent == HASHIDX_NONE ? MODEL_EMPTY_STACK : r->nodes[n->parent].stack;
		n->stack = n->location == MODEL_NONE ? caller : model_stack(r->m, n->location, caller);
		if (n->self_size == 0 && n->samples == 0)
			continue;
		int64_t values[2] = { (int64_t)n->samples, n->self_size };
		model_add_sample(r->m, n->stack, r->have_samples ? values : values + 1, NULL, 0);
	}
}

static int top_field(struct reader *r)
{
	if (strcmp(r->j.text, "head") == 0)
		return tree(r);
	if (strcmp(r->j.text, "samples") == 0)
		return samples(r);
	return json_skip(&r->j, json_next(&r->j));
}

static int read_profile(struct reader *r)
{
	struct json *j = &r->j;
	if (json_expect(j, JSON_OBJECT, "a JSON object (a V8 heap profile)") < 0)
		return -1;
	for (enum json_token t; (t = json_next(j)) != JSON_OBJECT_END;)
		if (t != JSON_KEY || top_field(r) < 0)
			return -1;
	if (!r->have_head)
		return json_error(j, "no head tree: not a V8 heap profile");
	if (index_nodes(r) < 0)
		return -1;
	count_samples(r);
	rows(r);
	return json_next(j) == JSON_END ? 0 : -1;
}

int heapprofile_read(struct input *in, struct model *m)
{
	struct reader r;
	memset(&r, 0, sizeof r);
	r.m = m;
	v8_frames_init(&r.frames, m);
	json_begin(&r.j, in);
	model_set_meta(m, "default_sample_type", "space");
	m->rules.strict_r = 0;
	int rc = read_profile(&r);
	json_end(&r.j);
	free(r.nodes);
	hashidx_free(&r.node_index);
	free(r.dense);
	v8_frames_free(&r.frames);
	free(r.open);
	spool_free(&r.sample_nodes);
	return rc;
}
