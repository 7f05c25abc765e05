/*
 * V8 CPU profile reader (docs/formats/cpuprofile.md). One JSON object:
 * `nodes` (the call tree, flattened), `samples` (a node id per sample) and
 * `timeDeltas` (microseconds since the previous sample), `startTime` and
 * `endTime`, in any order. Each sample becomes a row in time order: its
 * stack is the path from the root to its node, "(root)" left out; its
 * values are one sample and the wall time until the next sample (the
 * last one's until endTime). Counts come from `samples`, never from
 * `hitCount`, which V8 gets wrong for a node or two in every file.
 *
 * Memory: the node table, and at most the one of the two parallel arrays
 * that comes before its partner (or both when `nodes` comes last), held as
 * varints, 1-3 bytes a sample, never as rows of their own.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/diag.h"
#include "../base/spool.h"
#include "../base/varint.h"
#include "../io/json.h"
#include "cpuprofile.h"

/* A node's stack before it is built. */
#define STACK_UNBUILT (MODEL_NONE - 1)

struct node {
	int64_t id;
	int64_t parent;     /* valid when has_parent */
	uint8_t has_parent;
	uint8_t on_path;    /* being built: met again, the tree has a cycle */
	uint32_t location;  /* MODEL_NONE: the root, no frame */
	uint32_t stack;
};

/* A frame's identity: V8 tells functions apart by column too. */
struct frame_key {
	uint32_t function;
	int64_t line, column;
	uint32_t location;
};

struct reader {
	struct json j;
	struct model *m;
	struct node *nodes;
	size_t n_nodes, cap_nodes;
	struct hashidx node_index;
	struct edge {
		int64_t parent, child;
	} *edges; /* from `children` lists */
	size_t n_edges, cap_edges;
	struct frame_key *frames;
	size_t n_frames, cap_frames;
	uint32_t *path; /* nodes whose stacks are being built */
	size_t cap_path;
	struct hashidx frame_index;
	int have_nodes, have_samples, have_deltas, emitted;
	int has_head; /* the old DevTools format's tree */
	struct spool samples, deltas; /* zigzag varints, each held until its partner array comes */
	int64_t start_time, end_time;
	int has_start, has_end;
	/* The clock: time since startTime, never going back (see finish_pending). */
	int64_t clock, latest, first_time;
	uint64_t n_samples;
	int pending;
	uint32_t pending_stack;
	int64_t pending_time;
};

static int node_equals(const void *ctx, uint32_t i, const void *key)
{
	return ((const struct reader *)ctx)->nodes[i].id == *(const int64_t *)key;
}

static uint32_t find_node(const struct reader *r, int64_t id)
{
	return hashidx_find(&r->node_index, hash_mix((uint64_t)id, 0), node_equals, r, &id);
}

static int frame_equals(const void *ctx, uint32_t i, const void *key)
{
	const struct frame_key *a = &((const struct reader *)ctx)->frames[i], *b = key;
	return a->function == b->function && a->line == b->line && a->column == b->column;
}

/* The location of a callFrame: interned by function, line and column. */
static uint32_t frame_location(struct reader *r, uint32_t function, int64_t line, int64_t column)
{
	struct frame_key key = { function, line, column, 0 };
	uint64_t h = hash_mix(hash_mix(function, (uint64_t)line), (uint64_t)column);
	uint32_t i = hashidx_find(&r->frame_index, h, frame_equals, r, &key);
	if (i != HASHIDX_NONE)
		return r->frames[i].location;
	struct model_location l = { .function = function, .line = line, .column = column,
				    .native = { .mapping = MODEL_NONE } };
	key.location = model_add_location(r->m, &l, NULL, 0);
	grow((void **)&r->frames, &r->cap_frames, r->n_frames + 1, sizeof *r->frames);
	r->frames[r->n_frames] = key;
	hashidx_insert(&r->frame_index, h, (uint32_t)r->n_frames++);
	return key.location;
}

/* A 0-based position as the model holds it: 1-based, 0 when V8 says -1 (unknown). */
static int position(struct reader *r, const char *what, int64_t *v)
{
	if (json_int(&r->j, what, v) < 0)
		return -1;
	if (*v < -1 || *v == INT64_MAX)
		return json_error(&r->j, "%s %" PRId64 ": V8 writes 0 or more, or -1", what, *v);
	*v = *v + 1;
	return 0;
}

struct call_frame {
	uint32_t name, url;
	int64_t line, column;
	int has_name;
};

static int call_frame_field(struct reader *r, struct call_frame *cf)
{
	struct json *j = &r->j;
	enum json_token t;
	int name = strcmp(j->text, "functionName") == 0, url = strcmp(j->text, "url") == 0;
	int line = strcmp(j->text, "lineNumber") == 0, column = strcmp(j->text, "columnNumber") == 0;
	t = json_next(j);
	if (name || url) {
		if (t != JSON_STRING)
			return t == JSON_FAILED ? -1 : json_error(j, "callFrame's %s must be a string", name ? "functionName" : "url");
		*(name ? &cf->name : &cf->url) = model_str(r->m, j->text, j->len);
		cf->has_name |= name;
		return 0;
	}
	if (line || column) {
		if (t != JSON_NUMBER)
			return t == JSON_FAILED ? -1 : json_error(j, "callFrame's %s must be a number", line ? "lineNumber" : "columnNumber");
		return position(r, line ? "lineNumber" : "columnNumber", line ? &cf->line : &cf->column);
	}
	return json_skip(j, t);
}

/*
 * A callFrame as a location; NULL-named "(root)" is no frame. A function
 * is its name (DevTools' "(anonymous)" for ""), url and start line.
 */
static int call_frame(struct reader *r, uint32_t *location)
{
	struct json *j = &r->j;
	struct call_frame cf = { 0, 0, 0, 0, 0 };
	if (json_expect(j, JSON_OBJECT, "callFrame to be an object") < 0)
		return -1;
	for (enum json_token t; (t = json_next(j)) != JSON_OBJECT_END;)
		if (t != JSON_KEY || call_frame_field(r, &cf) < 0)
			return -1;
	if (!cf.has_name)
		return json_error(j, "a callFrame without functionName");
	if (model_str_is(r->m, cf.name, "(root)")) {
		*location = MODEL_NONE;
		return 0;
	}
	struct model_function f = { .name = cf.name, .file_name = cf.url, .start_line = cf.line };
	if (model_str_is(r->m, cf.name, ""))
		f.name = model_str(r->m, "(anonymous)", 11);
	*location = frame_location(r, model_function(r->m, &f), cf.line, cf.column);
	return 0;
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
		else
			rc = json_skip(j, json_next(j));
		if (rc < 0)
			return -1;
	}
	if (!has_id || !has_frame)
		return json_error(j, "a node without %s", has_id ? "callFrame" : "id");
	if (find_node(r, n.id) != HASHIDX_NONE)
		return json_error(j, "two nodes with id %" PRId64, n.id);
	for (size_t e = first_edge; e < r->n_edges; e++)
		r->edges[e].parent = n.id;
	grow((void **)&r->nodes, &r->cap_nodes, r->n_nodes + 1, sizeof *r->nodes);
	r->nodes[r->n_nodes] = n;
	hashidx_insert(&r->node_index, hash_mix((uint64_t)n.id, 0), (uint32_t)r->n_nodes++);
	return 0;
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
		return json_error(j, "a second nodes array");
	if (json_expect(j, JSON_ARRAY, "nodes to be an array") < 0)
		return -1;
	for (enum json_token t; (t = json_next(j)) != JSON_ARRAY_END;) {
		if (t != JSON_OBJECT)
			return t == JSON_FAILED ? -1 : json_error(j, "nodes must be objects");
		if (node(r) < 0)
			return -1;
	}
	r->have_nodes = 1;
	return link_children(r);
}

/*
 * The stack of node i: its frame on its parent's stack. The path up to the
 * nearest node whose stack is known is walked without recursion (trees
 * are thousands deep), then built back down; a path that meets itself is
 * a cycle.
 */
static int stack_of(struct reader *r, uint32_t i, uint32_t *stack)
{
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
		n->on_path = 0;
	}
	*stack = caller;
	return 0;
}

static void add_pending(struct reader *r, int64_t until)
{
	int64_t values[2] = { 1, until - r->pending_time };
	model_add_sample(r->m, r->pending_stack, values, NULL, 0);
}

/*
 * A sample: its node and the time since the one before. Its row waits for
 * the next sample's time, which ends it. Chrome writes negative deltas at
 * times; the clock never goes back, as in speedscope, so no weight is
 * negative.
 */
static int add_sample(struct reader *r, int64_t node_id, int64_t delta)
{
	uint32_t i = find_node(r, node_id), stack = MODEL_EMPTY_STACK;
	if (i == HASHIDX_NONE)
		return json_error(&r->j, "sample %" PRIu64 " is node %" PRId64 ", which is no node",
				  r->n_samples, node_id);
	if (stack_of(r, i, &stack) < 0)
		return -1;
	if ((delta > 0 && r->clock > INT64_MAX / 2 - delta) || (delta < 0 && r->clock < INT64_MIN / 2 - delta))
		return json_error(&r->j, "timeDeltas add up past the 64-bit range");
	r->clock += delta;
	if (r->n_samples++ == 0)
		r->first_time = r->latest = r->clock;
	if (r->clock > r->latest)
		r->latest = r->clock;
	if (r->pending)
		add_pending(r, r->latest);
	r->pending = 1;
	r->pending_stack = stack;
	r->pending_time = r->latest;
	return 0;
}

/*
 * `samples` or `timeDeltas` (`is_samples` says which). Streamed into rows
 * when the nodes and the partner array are already read; else held.
 */
static int parallel_array(struct reader *r, int is_samples)
{
	struct json *j = &r->j;
	const char *name = is_samples ? "samples" : "timeDeltas";
	struct spool *own = is_samples ? &r->samples : &r->deltas, *partner = is_samples ? &r->deltas : &r->samples;
	int *have = is_samples ? &r->have_samples : &r->have_deltas;
	int streaming = r->have_nodes && (is_samples ? r->have_deltas : r->have_samples);
	if (*have)
		return json_error(j, "a second %s array", name);
	if (json_expect(j, JSON_ARRAY, is_samples ? "samples to be an array" : "timeDeltas to be an array") < 0)
		return -1;
	for (enum json_token t; (t = json_next(j)) != JSON_ARRAY_END;) {
		int64_t v;
		if (t != JSON_NUMBER)
			return t == JSON_FAILED ? -1 : json_error(j, "%s must hold numbers", name);
		if (json_int(j, is_samples ? "a sample's node id" : "a time delta", &v) < 0)
			return -1;
		if (!streaming) {
			spool_put(own, varint_zigzag(v));
			continue;
		}
		if (own->n++ >= partner->n)
			return json_error(j, "samples and timeDeltas differ in length (%" PRIu64 " and more)", partner->n);
		int64_t other = varint_unzigzag(spool_get(partner));
		if (add_sample(r, is_samples ? v : other, is_samples ? other : v) < 0)
			return -1;
	}
	*have = 1;
	r->emitted |= streaming;
	return 0;
}

static int time_field(struct reader *r, int64_t *v, int *has, const char *what)
{
	enum json_token t = json_next(&r->j);
	if (t != JSON_NUMBER)
		return t == JSON_FAILED ? -1 : json_error(&r->j, "%s must be a number", what);
	*has = 1;
	return json_int(&r->j, what, v);
}

static int top_field(struct reader *r)
{
	const char *key = r->j.text;
	if (strcmp(key, "nodes") == 0)
		return nodes(r);
	if (strcmp(key, "samples") == 0)
		return parallel_array(r, 1);
	if (strcmp(key, "timeDeltas") == 0)
		return parallel_array(r, 0);
	if (strcmp(key, "startTime") == 0)
		return time_field(r, &r->start_time, &r->has_start, "startTime");
	if (strcmp(key, "endTime") == 0)
		return time_field(r, &r->end_time, &r->has_end, "endTime");
	r->has_head |= strcmp(key, "head") == 0;
	return json_skip(&r->j, json_next(&r->j));
}

/* After the object: samples held until now, then the last one's row. */
static int finish(struct reader *r)
{
	struct json *j = &r->j;
	if (!r->have_nodes && r->has_head)
		return json_error(j, "an old DevTools profile (a \"head\" tree, not a nodes list), which prof does not read");
	if (!r->have_nodes)
		return json_error(j, "no nodes array: not a V8 CPU profile");
	if (!r->have_samples || !r->have_deltas)
		return json_error(j, "no %s array", r->have_samples ? "timeDeltas" : "samples");
	if (r->samples.n != r->deltas.n)
		return json_error(j, "samples has %" PRIu64 " entries and timeDeltas %" PRIu64,
				  r->samples.n, r->deltas.n);
	if (!r->emitted)
		for (uint64_t k = 0; k < r->samples.n; k++)
			if (add_sample(r, varint_unzigzag(spool_get(&r->samples)),
				       varint_unzigzag(spool_get(&r->deltas))) < 0)
				return -1;
	if (r->has_start && r->has_end && r->end_time < r->start_time)
		return json_error(j, "endTime %" PRId64 " is before startTime %" PRId64, r->end_time, r->start_time);
	if (r->has_start && r->has_end && r->end_time - (uint64_t)r->start_time > INT64_MAX / 2)
		return json_error(j, "endTime is more than 2^62 microseconds after startTime");
	if (r->pending) {
		int64_t end = r->has_end && r->has_start ? r->end_time - r->start_time : r->latest;
		add_pending(r, end > r->latest ? end : r->latest);
	}
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
	if (r->has_start)
		set_meta_int(r->m, "start_time_us", r->start_time);
	if (r->has_end)
		set_meta_int(r->m, "end_time_us", r->end_time);
	/* The first sample's time, when it is within int64 (finish keeps first_time within 2^62). */
	if (r->n_samples && (r->first_time >= 0 ? r->start_time <= INT64_MAX - r->first_time
						 : r->start_time >= INT64_MIN - r->first_time))
		set_meta_int(r->m, "first_sample_us", r->start_time + r->first_time);
	if (r->has_start && r->has_end && r->end_time - r->start_time <= INT64_MAX / 1000)
		set_meta_int(r->m, "duration_nanos", (r->end_time - r->start_time) * 1000);
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
	json_begin(&r.j, in);
	model_add_sample_type(m, "samples", "count");
	m->timeline_type = model_add_sample_type(m, "wall", "microseconds");
	model_set_meta(m, "default_sample_type", "samples");
	m->rules.strict_r = 0;
	int rc = read_profile(&r);
	if (rc == 0)
		time_meta(&r);
	json_end(&r.j);
	free(r.nodes);
	hashidx_free(&r.node_index);
	free(r.edges);
	free(r.frames);
	free(r.path);
	hashidx_free(&r.frame_index);
	spool_free(&r.samples);
	spool_free(&r.deltas);
	return rc;
}
