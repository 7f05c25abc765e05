/*
 * V8 CPU profile reader (docs/formats/cpuprofile.md). One JSON object:
 * `nodes` (the call tree, flattened), `samples` (a node id per sample) and
 * `timeDeltas` (microseconds since the previous sample), `startTime` and
 * `endTime`, in any order. Each sample becomes a row in time order: its
 * stack is the path from the root to its node, "(root)" left out; its
 * values are one sample and the wall time until the next sample (the
 * last one's until endTime). Counts come from `samples`, never from
 * `hitCount`, which V8 gets wrong for a node or two in every file; only a
 * profile without `samples` is counted by hitCount, as DevTools does.
 *
 * DevTools' older format is read by DevTools' rules too: the tree nested
 * under `head` (a node's fields on the node, 1-based lines, `children`
 * holding nodes), `startTime` and `endTime` in seconds, and `timestamps`
 * (microseconds, one per sample, perhaps one more ending the last) in
 * place of `timeDeltas`. The tree is read with a stack of its own, never
 * by recursion, so any depth costs memory, not the C stack.
 *
 * Memory: the node table, and at most the one of the two parallel arrays
 * that comes before its partner (or both when `nodes` comes last), held as
 * varints, 1-3 bytes a sample, never as rows of their own.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/checked.h"
#include "../base/diag.h"
#include "../base/numtext.h"
#include "../base/spool.h"
#include "../base/varint.h"
#include "../io/json.h"
#include "cpuprofile.h"
#include "v8_frame.h"

/* A node's stack before it is built. */
#define STACK_UNBUILT (MODEL_NONE - 1)

struct node {
	int64_t id;
	int64_t parent;     /* valid when has_parent (while `head` is read: the parent's index) */
	int64_t hit_count;
	uint8_t has_parent;
	uint8_t on_path;    /* being built: met again, the tree has a cycle */
	uint32_t location;  /* MODEL_NONE: the root, no frame */
	uint32_t stack;
};


/* A time as written: in units of 10^-decimals of a second or a microsecond. */
struct when {
	int64_t v;
	unsigned decimals;
	int has;
};

/* What a callFrame (or an old node) says of its function. */

/* An old node being read: its index in nodes, what it said so far. */
struct open_node {
	uint32_t index;
	struct v8_call_frame cf;
	uint8_t has_id;
};

struct reader {
	struct json j;
	struct model *m;
	struct node *nodes;
	size_t n_nodes, cap_nodes;
	struct hashidx node_index;
	uint32_t *dense; /* node index by id, when ids are small: see index_densely */
	size_t n_dense;
	uint32_t *node_stack; /* each node's stack once built: 4 bytes a node stay in cache */
	struct edge {
		int64_t parent, child;
	} *edges; /* from `children` lists */
	size_t n_edges, cap_edges;
	struct v8_frames frames;
	uint32_t *path; /* nodes whose stacks are being built */
	size_t cap_path;
	struct open_node *open; /* the old format's nodes being read, outermost first */
	size_t cap_open;
	int have_nodes, have_samples, have_deltas, emitted;
	int old_format;  /* the tree came as `head` */
	int stamps;      /* the times came as `timestamps`, not `timeDeltas` */
	int64_t last_stamp;
	struct spool samples, deltas; /* zigzag varints, each held until its partner array comes */
	struct when start, end;
	int64_t start_time, end_time; /* in microseconds, once read */
	/*
	 * The clock: time since startTime (since 0 for timestamps), never
	 * going back (see add_sample); `stop` is where a last timestamp
	 * beyond the samples ends the last one.
	 */
	int64_t clock, latest, first_time, stop;
	int has_stop;
	uint64_t n_samples;
	int pending;
	uint32_t pending_stack;
	int64_t pending_time;
	size_t n_types; /* 0 until the first row: 1 (counts) or 2 (and wall time) */
};

static int node_equals(const void *ctx, uint32_t i, const void *key)
{
	return ((const struct reader *)ctx)->nodes[i].id == *(const int64_t *)key;
}

static uint32_t find_node(const struct reader *r, int64_t id)
{
	if (r->dense && id >= 0 && (uint64_t)id < r->n_dense)
		return r->dense[id];
	return hashidx_find(&r->node_index, hash_mix((uint64_t)id, 0), node_equals, r, &id);
}

/*
 * Once the nodes are read, ids as V8 gives them (1 to n) index an array:
 * each sample names a node, and a hash lookup a sample was a third of
 * the reading time. Ids spread wider keep the hash alone.
 */
static void index_densely(struct reader *r)
{
	int64_t top = 0;
	r->node_stack = xmalloc((r->n_nodes + 1) * sizeof *r->node_stack);
	for (size_t i = 0; i < r->n_nodes; i++)
		r->node_stack[i] = STACK_UNBUILT;
	for (size_t i = 0; i < r->n_nodes; i++) {
		if (r->nodes[i].id < 0 || (uint64_t)r->nodes[i].id >= 4 * (uint64_t)r->n_nodes + 1024)
			return;
		if (r->nodes[i].id > top)
			top = r->nodes[i].id;
	}
	r->n_dense = (size_t)top + 1;
	r->dense = xmalloc(r->n_dense * sizeof *r->dense);
	for (size_t i = 0; i < r->n_dense; i++)
		r->dense[i] = HASHIDX_NONE;
	for (size_t i = 0; i < r->n_nodes; i++)
		r->dense[r->nodes[i].id] = (uint32_t)i;
}

/*
 * A position as the model holds it: 1-based, 0 unknown. V8 writes it
 * 0-based, -1 unknown; the old format 1-based, 0 unknown (DevTools takes
 * 1 off), where -1 is taken as unknown too.
 */
static int position(struct reader *r, const char *what, int64_t *v)
{
	if (json_int(&r->j, what, v) < 0)
		return -1;
	if (*v < -1 || *v == INT64_MAX)
		return json_error(&r->j, "%s %" PRId64 ": V8 writes 0 or more, or -1", what, *v);
	*v = r->old_format ? (*v < 0 ? 0 : *v) : *v + 1;
	return 0;
}

/*
 * A callFrame's field, its key just read: 1 when the key is one, 0 when
 * not (its value is still to come), -1 after reporting.
 */
static int call_frame_field(struct reader *r, struct v8_call_frame *cf)
{
	struct json *j = &r->j;
	enum json_token t;
	int name = strcmp(j->text, "functionName") == 0, url = strcmp(j->text, "url") == 0;
	int line = strcmp(j->text, "lineNumber") == 0, column = strcmp(j->text, "columnNumber") == 0;
	if (!name && !url && !line && !column)
		return 0;
	t = json_next(j);
	if (name || url) {
		if (t != JSON_STRING)
			return t == JSON_FAILED ? -1 : json_error(j, "callFrame's %s must be a string", name ? "functionName" : "url");
		*(name ? &cf->name : &cf->url) = model_str(r->m, j->text, j->len);
		cf->has_name |= name;
		return 1;
	}
	if (t != JSON_NUMBER)
		return t == JSON_FAILED ? -1 : json_error(j, "callFrame's %s must be a number", line ? "lineNumber" : "columnNumber");
	return position(r, line ? "lineNumber" : "columnNumber", line ? &cf->line : &cf->column) < 0 ? -1 : 1;
}

/* A callFrame as a location (v8_frame.h): it must have a name. */
static int frame_of_call_frame(struct reader *r, const struct v8_call_frame *cf, uint32_t *location)
{
	if (!cf->has_name)
		return json_error(&r->j, r->old_format ? "a node without functionName" : "a callFrame without functionName");
	*location = v8_frame_location(&r->frames, cf);
	return 0;
}

static int call_frame(struct reader *r, uint32_t *location)
{
	struct json *j = &r->j;
	struct v8_call_frame cf = { 0, 0, 0, 0, 0 };
	if (json_expect(j, JSON_OBJECT, "callFrame to be an object") < 0)
		return -1;
	for (enum json_token t; (t = json_next(j)) != JSON_OBJECT_END;) {
		int rc = t == JSON_KEY ? call_frame_field(r, &cf) : -1;
		if (rc == 0)
			rc = json_skip(j, json_next(j));
		if (rc < 0)
			return -1;
	}
	return frame_of_call_frame(r, &cf, location);
}

/* An array of node ids (`children`), each an edge from `parent`. */
static int children(struct reader *r, int64_t parent)
{
	struct json *j = &r->j;
	if (json_expect(j, JSON_ARRAY, "children to be an array") < 0)
		return -1;
	for (enum json_token t; (t = json_next(j)) != JSON_ARRAY_END;) {
		int64_t child;
		if (t != JSON_NUMBER)
			return t == JSON_FAILED ? -1 : json_error(j, "children must be node ids");
		if (json_int(j, "a child id", &child) < 0)
			return -1;
		grow((void **)&r->edges, &r->cap_edges, r->n_edges + 1, sizeof *r->edges);
		r->edges[r->n_edges++] = (struct edge){ parent, child };
	}
	return 0;
}

static int node_id_value(struct reader *r, const char *what, int64_t *id)
{
	enum json_token t = json_next(&r->j);
	if (t != JSON_NUMBER)
		return t == JSON_FAILED ? -1 : json_error(&r->j, "%s must be a number", what);
	return json_int(&r->j, what, id);
}

static int hit_count_value(struct reader *r, int64_t *count)
{
	if (node_id_value(r, "a node's hitCount", count) < 0)
		return -1;
	return *count < 0 ? json_error(&r->j, "a node's hitCount %" PRId64 " is negative", *count) : 0;
}

/* Files node i, its id read, under its id: a second node of that id is refused. */
static int index_node(struct reader *r, uint32_t i)
{
	int64_t id = r->nodes[i].id;
	if (find_node(r, id) != HASHIDX_NONE)
		return json_error(&r->j, "two nodes with id %" PRId64, id);
	hashidx_insert(&r->node_index, hash_mix((uint64_t)id, 0), i);
	return 0;
}

/*
 * One node. Its children are edges resolved once every node is read:
 * a child may come before its parent.
 */
static int node(struct reader *r)
{
	struct json *j = &r->j;
	struct node n = { .location = MODEL_NONE, .stack = STACK_UNBUILT };
	int has_id = 0, has_frame = 0;
	size_t first_edge = r->n_edges;
	for (enum json_token t; (t = json_next(j)) != JSON_OBJECT_END;) {
		if (t != JSON_KEY)
			return -1;
		int rc;
		if (strcmp(j->text, "id") == 0)
			rc = node_id_value(r, "a node's id", &n.id), has_id = 1;
		else if (strcmp(j->text, "parent") == 0)
			rc = node_id_value(r, "a node's parent", &n.parent), n.has_parent = 1;
		else if (strcmp(j->text, "callFrame") == 0)
			rc = call_frame(r, &n.location), has_frame = 1;
		else if (strcmp(j->text, "children") == 0)
			rc = children(r, 0);
		else if (strcmp(j->text, "hitCount") == 0)
			rc = hit_count_value(r, &n.hit_count);
		else
			rc = json_skip(j, json_next(j));
		if (rc < 0)
			return -1;
	}
	if (!has_id || !has_frame)
		return json_error(j, "a node without %s", has_id ? "callFrame" : "id");
	for (size_t e = first_edge; e < r->n_edges; e++)
		r->edges[e].parent = n.id;
	grow((void **)&r->nodes, &r->cap_nodes, r->n_nodes + 1, sizeof *r->nodes);
	r->nodes[r->n_nodes] = n;
	return index_node(r, (uint32_t)r->n_nodes++);
}

/* After `nodes`: children lists become parents, each node having one. */
static int link_children(struct reader *r)
{
	for (size_t e = 0; e < r->n_edges; e++) {
		uint32_t child = find_node(r, r->edges[e].child);
		if (child == HASHIDX_NONE)
			return json_error(&r->j, "node %" PRId64 " has child %" PRId64 ", which is no node",
					  r->edges[e].parent, r->edges[e].child);
		struct node *c = &r->nodes[child];
		if (c->has_parent && c->parent != r->edges[e].parent)
			return json_error(&r->j, "node %" PRId64 " has two parents", c->id);
		c->parent = r->edges[e].parent;
		c->has_parent = 1;
	}
	free(r->edges);
	r->edges = NULL;
	r->n_edges = r->cap_edges = 0;
	return 0;
}

static int nodes(struct reader *r)
{
	struct json *j = &r->j;
	if (r->have_nodes)
		return json_error(j, r->old_format ? "both a head tree and a nodes array" : "a second nodes array");
	if (json_expect(j, JSON_ARRAY, "nodes to be an array") < 0)
		return -1;
	for (enum json_token t; (t = json_next(j)) != JSON_ARRAY_END;) {
		if (t != JSON_OBJECT)
			return t == JSON_FAILED ? -1 : json_error(j, "nodes must be objects");
		if (node(r) < 0)
			return -1;
	}
	r->have_nodes = 1;
	if (link_children(r) < 0)
		return -1;
	index_densely(r);
	return 0;
}

/*
 * Opens an old node at `depth` of the tree being read (0: `head`), a child
 * of the node open above it: a slot in nodes, filled as its fields come;
 * its parent is the parent's index until the tree is read.
 */
static void open_old_node(void *ctx, size_t depth)
{
	struct reader *r = ctx;
	grow((void **)&r->open, &r->cap_open, depth + 1, sizeof *r->open);
	grow((void **)&r->nodes, &r->cap_nodes, r->n_nodes + 1, sizeof *r->nodes);
	r->nodes[r->n_nodes] = (struct node){ .location = MODEL_NONE, .stack = STACK_UNBUILT,
		.has_parent = depth > 0, .parent = depth > 0 ? r->open[depth - 1].index : 0 };
	r->open[depth] = (struct open_node){ .index = (uint32_t)r->n_nodes++ };
}

/* A key of the old node being read, and its value. */
static int old_node_field(void *ctx, size_t depth)
{
	struct reader *r = ctx;
	struct json *j = &r->j;
	struct open_node *o = &r->open[depth];
	int rc = call_frame_field(r, &o->cf);
	if (rc != 0)
		return rc < 0 ? -1 : 0;
	if (strcmp(j->text, "id") == 0) {
		o->has_id = 1;
		return node_id_value(r, "a node's id", &r->nodes[o->index].id);
	}
	if (strcmp(j->text, "hitCount") == 0)
		return hit_count_value(r, &r->nodes[o->index].hit_count);
	return json_skip(j, json_next(j));
}

static int close_old_node(void *ctx, size_t depth)
{
	struct reader *r = ctx;
	const struct open_node *o = &r->open[depth];
	if (!o->has_id)
		return json_error(&r->j, "a node without id");
	uint32_t location = MODEL_NONE;
	if (frame_of_call_frame(r, &o->cf, &location) < 0)
		return -1;
	r->nodes[o->index].location = location;
	return index_node(r, o->index);
}

/*
 * `head`, the old format's tree, each node holding its children, read by
 * json_tree without recursion (DevTools' compatibilityConversionHeadToNodes
 * recurses; a file thousands deep must not reach the C stack's end).
 */
static int old_tree(struct reader *r)
{
	struct json *j = &r->j;
	if (r->have_nodes)
		return json_error(j, r->old_format ? "a second head tree" : "both a nodes array and a head tree");
	r->old_format = 1;
	if (json_expect(j, JSON_OBJECT, "head to be a node object") < 0)
		return -1;
	static const struct json_tree_calls calls = { open_old_node, old_node_field, close_old_node };
	if (json_tree(j, &calls, r) < 0)
		return -1;
	for (size_t i = 0; i < r->n_nodes; i++)
		if (r->nodes[i].has_parent)
			r->nodes[i].parent = r->nodes[r->nodes[i].parent].id;
	r->have_nodes = 1;
	index_densely(r);
	return 0;
}

/*
 * The stack of node i: its frame on its parent's stack. The path up to the
 * nearest node whose stack is known is walked without recursion (trees
 * are thousands deep), then built back down; a path that meets itself is
 * a cycle.
 */
static int stack_of(struct reader *r, uint32_t i, uint32_t *stack)
{
	if (r->node_stack[i] != STACK_UNBUILT) {
		*stack = r->node_stack[i];
		return 0;
	}
	size_t n_path = 0;
	uint32_t caller = MODEL_EMPTY_STACK;
	for (uint32_t at = i;; ) {
		struct node *n = &r->nodes[at];
		if (n->stack != STACK_UNBUILT) {
			caller = n->stack;
			break;
		}
		if (n->on_path)
			return json_error(&r->j, "the nodes' parents form a cycle through node %" PRId64, n->id);
		n->on_path = 1;
		grow((void **)&r->path, &r->cap_path, n_path + 1, sizeof *r->path);
		r->path[n_path++] = at;
		if (!n->has_parent)
			break;
		at = find_node(r, n->parent);
		if (at == HASHIDX_NONE)
			return json_error(&r->j, "node %" PRId64 " has parent %" PRId64 ", which is no node",
					  n->id, n->parent);
	}
	while (n_path > 0) {
		struct node *n = &r->nodes[r->path[--n_path]];
		n->stack = caller = n->location == MODEL_NONE ? caller : model_stack(r->m, n->location, caller);
		r->node_stack[r->path[n_path]] = caller;
		n->on_path = 0;
	}
	*stack = caller;
	return 0;
}

/*
 * The sample types, before the first row: one sample each, and with
 * times, the wall time from a sample to the next. A profile without times
 * (the old format's samples without timestamps, or hitCount alone) has no
 * wall time: DevTools spreads the profile's duration evenly over its
 * samples, a guess prof does not make.
 */
static void add_types(struct reader *r, int timed)
{
	if (r->n_types)
		return;
	model_add_sample_type(r->m, "samples", "count");
	if (timed)
		r->m->timeline_type = model_add_sample_type(r->m, "wall", "microseconds");
	r->n_types = timed ? 2 : 1;
}

/* The sample waiting for its end; -1 after reporting a wall time past 2^63 (an endTime far after a timestamp). */
static int add_pending(struct reader *r, int64_t until)
{
	int64_t values[2] = { 1, 0 };
	if (checked_sub_i64(until, r->pending_time, &values[1]))
		return json_error(&r->j, "the last sample ends 2^63 or more microseconds after it starts");
	add_types(r, 1);
	model_add_sample(r->m, r->pending_stack, values, NULL, 0);
	return 0;
}

/* The stack of the sample that is node `node_id`; 0, or -1 after reporting. */
static int sample_stack(struct reader *r, int64_t node_id, uint32_t *stack)
{
	uint32_t i = find_node(r, node_id);
	*stack = MODEL_EMPTY_STACK;
	if (i == HASHIDX_NONE)
		return json_error(&r->j, "sample %" PRIu64 " is node %" PRId64 ", which is no node",
				  r->n_samples, node_id);
	return stack_of(r, i, stack);
}

/*
 * A sample: its node and the time since the one before. Its row waits for
 * the next sample's time, which ends it. Chrome writes negative deltas at
 * times; the clock never goes back, as in speedscope, so no weight is
 * negative.
 */
static int add_sample(struct reader *r, int64_t node_id, int64_t delta)
{
	uint32_t stack;
	if (sample_stack(r, node_id, &stack) < 0)
		return -1;
	int64_t clock;
	if (checked_add_i64(r->clock, delta, &clock) || clock > INT64_MAX / 2 || clock < INT64_MIN / 2)
		return json_error(&r->j, "%s add up past the 64-bit range", r->stamps ? "timestamps" : "timeDeltas");
	r->clock = clock;
	if (r->n_samples++ == 0)
		r->first_time = r->latest = r->clock;
	if (r->clock > r->latest)
		r->latest = r->clock;
	if (r->pending && add_pending(r, r->latest) < 0)
		return -1;
	r->pending = 1;
	r->pending_stack = stack;
	r->pending_time = r->latest;
	return 0;
}

/* A sample without a time: one row of a sample, in the file's order. */
static int add_untimed_sample(struct reader *r, int64_t node_id)
{
	uint32_t stack;
	if (sample_stack(r, node_id, &stack) < 0)
		return -1;
	r->n_samples++;
	int64_t one = 1;
	add_types(r, 0);
	model_add_sample(r->m, stack, &one, NULL, 0);
	return 0;
}

/*
 * An entry of `timeDeltas` as it is, or of `timestamps` made a delta from
 * the one before, so that the clock counts from 0, not from startTime.
 */
static int time_entry(struct reader *r, int64_t v, int64_t *delta)
{
	if (!r->stamps) {
		*delta = v;
		return 0;
	}
	if (v > INT64_MAX / 4 || v < INT64_MIN / 4)
		return json_error(&r->j, "a timestamp %" PRId64 " is past 2^61 microseconds", v);
	*delta = v - r->last_stamp;
	r->last_stamp = v;
	return 0;
}

/*
 * A timestamp past the samples: where the last sample ends, as DevTools
 * reads it. A second one is a length mismatch.
 */
static int extra_stamp(struct reader *r, int64_t delta)
{
	if (!r->stamps || r->has_stop || r->deltas.n != r->samples.n + 1)
		return json_error(&r->j, "samples and %s differ in length (%" PRIu64 " and more)",
				  r->stamps ? "timestamps" : "timeDeltas", r->samples.n);
	r->has_stop = 1;
	r->stop = r->clock + delta;
	return 0;
}

/* An array's name, for messages: samples, timeDeltas or timestamps. */
static const char *array_name(const struct reader *r, int is_samples)
{
	return is_samples ? "samples" : r->stamps ? "timestamps" : "timeDeltas";
}

/* One entry of `samples` or of the times, streamed when its partner is held. */
static int parallel_entry(struct reader *r, int is_samples, int streaming, int64_t v)
{
	struct spool *own = is_samples ? &r->samples : &r->deltas, *partner = is_samples ? &r->deltas : &r->samples;
	if (!is_samples && time_entry(r, v, &v) < 0)
		return -1;
	if (!streaming) {
		spool_put(own, varint_zigzag(v));
		return 0;
	}
	if (own->n++ >= partner->n)
		return is_samples ? json_error(&r->j, "samples and %s differ in length (%" PRIu64 " and more)",
					       array_name(r, 0), partner->n)
				  : extra_stamp(r, v);
	int64_t other = varint_unzigzag(spool_get(partner));
	return add_sample(r, is_samples ? v : other, is_samples ? other : v);
}

/*
 * `samples` or the times (`is_samples` says which). Streamed into rows
 * when the nodes and the partner array are already read; else held.
 */
static int parallel_array(struct reader *r, int is_samples, int stamps)
{
	struct json *j = &r->j;
	int *have = is_samples ? &r->have_samples : &r->have_deltas;
	if (*have)
		return json_error(j, is_samples ? "a second samples array" : "a second array of times (timeDeltas or timestamps)");
	if (!is_samples)
		r->stamps = stamps;
	const char *name = array_name(r, is_samples);
	int streaming = r->have_nodes && (is_samples ? r->have_deltas : r->have_samples);
	char what[40];
	snprintf(what, sizeof what, "%s to be an array", name);
	if (json_expect(j, JSON_ARRAY, what) < 0)
		return -1;
	for (;;) {
		int64_t v;
		int got = json_next_int(j, &v);
		if (got == 0)
			break;
		if (got == 2) {
			enum json_token t = json_next(j);
			if (t == JSON_ARRAY_END)
				break;
			if (t != JSON_NUMBER)
				return t == JSON_FAILED ? -1 : json_error(j, "%s must hold numbers", name);
			got = json_int(j, is_samples ? "a sample's node id" : stamps ? "a timestamp" : "a time delta", &v) < 0 ? -1 : 1;
		}
		if (got < 0 || parallel_entry(r, is_samples, streaming, v) < 0)
			return -1;
	}
	*have = 1;
	r->emitted |= streaming;
	return 0;
}

static int time_field(struct reader *r, struct when *w, const char *what)
{
	enum json_token t = json_next(&r->j);
	if (t != JSON_NUMBER)
		return t == JSON_FAILED ? -1 : json_error(&r->j, "%s must be a number", what);
	w->has = 1;
	w->decimals = 0;
	return json_decimal(&r->j, what, &w->v, &w->decimals);
}

static int top_field(struct reader *r)
{
	const char *key = r->j.text;
	if (strcmp(key, "nodes") == 0)
		return nodes(r);
	if (strcmp(key, "head") == 0)
		return old_tree(r);
	if (strcmp(key, "samples") == 0)
		return parallel_array(r, 1, 0);
	if (strcmp(key, "timeDeltas") == 0 || strcmp(key, "timestamps") == 0)
		return parallel_array(r, 0, key[4] == 's');
	if (strcmp(key, "startTime") == 0)
		return time_field(r, &r->start, "startTime");
	if (strcmp(key, "endTime") == 0)
		return time_field(r, &r->end, "endTime");
	return json_skip(&r->j, json_next(&r->j));
}

/*
 * startTime or endTime in microseconds: V8 writes whole microseconds, the
 * old format seconds (a fraction of a microsecond is dropped).
 */
static int microseconds(struct reader *r, const struct when *w, const char *what, int64_t *us)
{
	if (!r->old_format) {
		*us = w->v;
		return w->decimals ? json_error(&r->j, "%s must be a whole number of microseconds", what) : 0;
	}
	if (w->decimals >= 6) {
		*us = w->v / pow10_i64(w->decimals - 6);
		return 0;
	}
	int64_t scale = pow10_i64(6 - w->decimals);
	if (w->v > INT64_MAX / 4 / scale || w->v < INT64_MIN / 4 / scale)
		return json_error(&r->j, "%s is past 2^61 microseconds", what);
	*us = w->v * scale;
	return 0;
}

static int read_times(struct reader *r)
{
	if ((r->start.has && microseconds(r, &r->start, "startTime", &r->start_time) < 0) ||
	    (r->end.has && microseconds(r, &r->end, "endTime", &r->end_time) < 0))
		return -1;
	if (r->start.has && r->end.has && r->end_time < r->start_time)
		return json_error(&r->j, "endTime %" PRId64 " is before startTime %" PRId64, r->end_time, r->start_time);
	if (r->start.has && r->end.has && r->end_time - (uint64_t)r->start_time > INT64_MAX / 2)
		return json_error(&r->j, "endTime is more than 2^62 microseconds after startTime");
	return 0;
}

/*
 * Without `samples`, DevTools counts each node by its hitCount: so does
 * prof, a row a node in the file's order (no time order to keep).
 */
static int rows_from_hit_counts(struct reader *r)
{
	add_types(r, 0);
	for (size_t i = 0; i < r->n_nodes; i++) {
		uint32_t stack;
		if (r->nodes[i].hit_count == 0)
			continue;
		if (stack_of(r, (uint32_t)i, &stack) < 0)
			return -1;
		/* One sample of that count, not that many samples: the number may be huge. */
		model_add_sample(r->m, stack, &r->nodes[i].hit_count, NULL, 0);
	}
	return 0;
}

/* The samples held until the end, paired with their times if any. */
static int held_samples(struct reader *r)
{
	if (!r->have_deltas) {
		for (uint64_t k = 0; k < r->samples.n; k++)
			if (add_untimed_sample(r, varint_unzigzag(spool_get(&r->samples))) < 0)
				return -1;
		return 0;
	}
	if (r->samples.n != r->deltas.n && !(r->stamps && r->deltas.n == r->samples.n + 1))
		return json_error(&r->j, "samples has %" PRIu64 " entries and %s %" PRIu64,
				  r->samples.n, array_name(r, 0), r->deltas.n);
	if (!r->emitted)
		for (uint64_t k = 0; k < r->samples.n; k++)
			if (add_sample(r, varint_unzigzag(spool_get(&r->samples)),
				       varint_unzigzag(spool_get(&r->deltas))) < 0)
				return -1;
	/* A timestamp left over, streamed or held, ends the last sample. */
	if (r->deltas.n == r->samples.n + 1 && !r->has_stop && r->deltas.read_at < r->deltas.used)
		return extra_stamp(r, varint_unzigzag(spool_get(&r->deltas)));
	return 0;
}

/*
 * The last sample's row: until the timestamp after it, else endTime,
 * never before the sample. A last sample at the root, which has no frame
 * (prof's writer ends a profile so, for viewers that give the last sample
 * no time), is no row when nothing comes after it. -1 after reporting.
 */
static int last_row(struct reader *r)
{
	if (!r->pending)
		return 0;
	int64_t origin = r->stamps ? 0 : r->start_time;
	int64_t end = r->has_stop ? r->stop : r->end.has && r->start.has ? r->end_time - origin : r->latest;
	if (end <= r->latest && r->pending_stack == MODEL_EMPTY_STACK && r->n_samples > 1)
		return 0;
	return add_pending(r, end > r->latest ? end : r->latest);
}

/* After the object: samples held until now, then the last one's row. */
static int finish(struct reader *r)
{
	struct json *j = &r->j;
	if (!r->have_nodes)
		return json_error(j, "no nodes array: not a V8 CPU profile");
	if (r->have_deltas && !r->have_samples)
		return json_error(j, "%s but no samples array", array_name(r, 0));
	if (read_times(r) < 0)
		return -1;
	if (!r->have_samples)
		return rows_from_hit_counts(r);
	if (held_samples(r) < 0)
		return -1;
	if (last_row(r) < 0)
		return -1;
	add_types(r, r->have_deltas);
	return 0;
}

static void set_meta_int(struct model *m, const char *key, int64_t v)
{
	char text[24];
	snprintf(text, sizeof text, "%" PRId64, v);
	model_set_meta(m, key, text);
}

/* What the rows' weights do not say: where the clock started and ended. */
static void time_meta(struct reader *r)
{
	if (r->start.has)
		set_meta_int(r->m, "start_time_us", r->start_time);
	if (r->end.has)
		set_meta_int(r->m, "end_time_us", r->end_time);
	/* The first sample's time and the duration, when they are within int64. */
	int64_t origin = r->stamps ? 0 : r->start_time, v;
	if (r->n_samples && r->have_deltas && !checked_add_i64(origin, r->first_time, &v))
		set_meta_int(r->m, "first_sample_us", v);
	if (r->start.has && r->end.has && !checked_sub_i64(r->end_time, r->start_time, &v) && !checked_mul_i64(v, 1000, &v))
		set_meta_int(r->m, "duration_nanos", v);
}

static int read_profile(struct reader *r)
{
	struct json *j = &r->j;
	if (json_expect(j, JSON_OBJECT, "a JSON object (a V8 CPU profile)") < 0)
		return -1;
	for (enum json_token t; (t = json_next(j)) != JSON_OBJECT_END;)
		if (t != JSON_KEY || top_field(r) < 0)
			return -1;
	if (finish(r) < 0)
		return -1;
	return json_next(j) == JSON_END ? 0 : -1;
}

int cpuprofile_read(struct input *in, struct model *m)
{
	struct reader r;
	memset(&r, 0, sizeof r);
	r.m = m;
	v8_frames_init(&r.frames, m);
	json_begin(&r.j, in);
	model_set_meta(m, "default_sample_type", "wall");
	m->rules.strict_r = 0;
	int rc = read_profile(&r);
	if (rc == 0)
		time_meta(&r);
	json_end(&r.j);
	free(r.nodes);
	free(r.dense);
	free(r.node_stack);
	hashidx_free(&r.node_index);
	free(r.edges);
	v8_frames_free(&r.frames);
	free(r.path);
	free(r.open);
	spool_free(&r.samples);
	spool_free(&r.deltas);
	return rc;
}
