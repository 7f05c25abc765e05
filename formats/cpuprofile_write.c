/*
 * V8 CPU profile writer (docs/formats/cpuprofile.md): any profile as the
 * `.cpuprofile` VS Code and Chrome DevTools open. `nodes` are the call
 * tree of the profile's stacks, a node a frame under its caller's node;
 * `samples` and `timeDeltas` are the model's samples in its order, each
 * weighing its value of one sample type as time: a time type as it is, a
 * count by the profile's period (1 ms, V8's default interval, without
 * one). A row of n equal samples is n samples, its weight shared exactly.
 * The deltas say when each sample begins, so sample i's weight is delta
 * i+1; a last sample at the root, no frame, ends the profile, since
 * viewers give the last sample no time (prof's reader drops it again).
 *
 * Memory: the nodes (distinct stacks), a node per model stack; rows are
 * read three times (nodes, samples, deltas), never held.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/diag.h"
#include "../base/numtext.h"
#include "../io/json.h"
#include "../model/view.h"
#include "cpuprofile.h"

/* The root's index in nodes; its id is 1, every node's its index + 1. */
enum { ROOT = 0 };

/* A node: a frame under its caller's node. */
struct node {
	uint32_t parent;
	uint32_t function; /* MODEL_NONE: keyed by location */
	uint32_t location;
	int64_t column;    /* the location's, on its own line's frame; 0 on inlined callers' */
	uint64_t hits;
};

/* How a value of the chosen type becomes microseconds: value * num / den, exactly. */
struct scale {
	uint64_t num, den;
};

struct writer {
	const struct model *m;
	struct output *out;
	struct view v;
	size_t type;
	struct scale scale;
	int64_t *values;
	struct node *nodes;
	size_t n_nodes, cap_nodes;
	struct hashidx node_index;
	uint32_t *stack_node; /* per model stack: its node + 1; 0 not yet made */
	uint32_t *path;       /* stacks whose nodes are being made */
	size_t cap_path;
	uint32_t *scripts;    /* url string ids, a scriptId each (its index + 1) */
	size_t n_scripts, cap_scripts;
	struct hashidx script_index;
	uint64_t sum;         /* the chosen type's values so far */
	int replaced_bytes;
};

static int node_equals(const void *ctx, uint32_t i, const void *key)
{
	const struct node *a = &((const struct writer *)ctx)->nodes[i], *b = key;
	return a->parent == b->parent && a->function == b->function && a->column == b->column &&
	       (a->function != MODEL_NONE || a->location == b->location);
}

/*
 * The node of a frame under `parent`. V8 keys a node by its function's
 * callFrame, so frames of one function at other lines are one node; the
 * column keeps functions that share a line apart, as V8 does.
 */
static uint32_t child_node(struct writer *w, uint32_t parent, const struct model_frame *fr, int own_line)
{
	struct node key = { parent, fr->function, fr->location,
			    own_line ? w->m->locations[fr->location].column : 0, 0 };
	if (key.function != MODEL_NONE)
		key.location = MODEL_NONE;
	uint64_t h = hash_mix(hash_mix(parent, key.function), hash_mix(key.location, (uint64_t)key.column));
	uint32_t i = hashidx_find(&w->node_index, h, node_equals, w, &key);
	if (i != HASHIDX_NONE)
		return i;
	/* A frame with a function is kept by its location too, for its name. */
	key.location = fr->location;
	grow((void **)&w->nodes, &w->cap_nodes, w->n_nodes + 1, sizeof *w->nodes);
	w->nodes[w->n_nodes] = key;
	hashidx_insert(&w->node_index, h, (uint32_t)w->n_nodes);
	return (uint32_t)w->n_nodes++;
}

/*
 * The node of a model stack: its frames under the node of its caller. The
 * callers up to one whose node is known are walked without recursion
 * (stacks are thousands deep), then made from the outside in.
 */
static uint32_t node_of_stack(struct writer *w, uint32_t stack)
{
	const struct model *m = w->m;
	size_t n_path = 0;
	uint32_t node = ROOT;
	for (uint32_t s = stack; s != MODEL_EMPTY_STACK; s = m->stacks[s].caller) {
		if (w->stack_node[s]) {
			node = w->stack_node[s] - 1;
			break;
		}
		grow((void **)&w->path, &w->cap_path, n_path + 1, sizeof *w->path);
		w->path[n_path++] = s;
	}
	while (n_path > 0) {
		uint32_t s = w->path[--n_path], location = m->stacks[s].location;
		uint32_t depth = model_location_depth(m, location);
		for (uint32_t k = 0; k < depth; k++) {
			struct model_frame fr = model_location_frame(m, location, k);
			node = child_node(w, node, &fr, k + 1 == depth);
		}
		w->stack_node[s] = node + 1;
	}
	return node;
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

/* The period of one count in nanoseconds: pprof's period in a time unit, else V8's 1 ms. */
static uint64_t count_ns(const struct model *m)
{
	uint32_t period = model_get_meta(m, "period"), unit = model_get_meta(m, "period_unit");
	uint64_t unit_ns = unit == HASHIDX_NONE ? 0 : view_unit_ns(model_cstr(m, unit));
	if (period != HASHIDX_NONE && unit_ns) {
		char *end;
		unsigned long long v = strtoull(model_cstr(m, period), &end, 10);
		if (*end == '\0' && v > 0 && v <= UINT64_MAX / unit_ns)
			return v * unit_ns;
	}
	return 1000000;
}

/*
 * The chosen type's scale to microseconds, reduced so that value * num
 * stays in range: its unit's nanoseconds, a count's period, or for any
 * other unit (bytes, instructions) a microsecond a unit; over 1000 and
 * 10^decimals. -1 when it cannot be made.
 */
static int make_scale(struct writer *w, const char *unit)
{
	uint64_t ns = view_unit_ns(unit);
	if (!ns)
		ns = strcmp(unit, "count") == 0 ? count_ns(w->m) : 1000;
	struct scale s = { ns, 1 };
	for (unsigned k = 0; k < 3 + view_decimals(&w->v, w->type); k++) {
		uint64_t g = gcd(s.num, 10);
		s.num /= g;
		if (s.den > UINT64_MAX / (10 / g))
			return -1;
		s.den *= 10 / g;
	}
	if (s.den > UINT64_MAX / s.num)
		return -1;
	w->scale = s;
	return 0;
}

/* A value sum as microseconds, rounded down; -1 past 2^63. */
static int64_t microseconds(const struct writer *w, uint64_t sum)
{
	uint64_t q = sum / w->scale.den, r = sum % w->scale.den;
	if (q > (uint64_t)INT64_MAX / w->scale.num)
		return -1;
	return (int64_t)(q * w->scale.num + r * w->scale.num / w->scale.den);
}

/*
 * The type written: --sample-type's; else the input's timeline (a
 * .cpuprofile's wall time), else the default timeline type when it is a
 * time, else the first time type, else the default. A profile of R's ticks
 * weighs its samples as their CPU time.
 */
static int pick_type(struct writer *w, const struct write_options *opts)
{
	struct view *v = &w->v;
	if (view_pick(v, opts->sample_type, VIEW_TIMELINE, w->out->name, &w->type) < 0)
		return -1;
	if (!opts->sample_type && w->m->timeline_type < v->n_types)
		w->type = w->m->timeline_type;
	for (size_t t = 0; !opts->sample_type && !view_unit_ns(view_unit(v, w->type)) && t < v->n_types; t++)
		if (view_unit_ns(view_unit(v, t)))
			w->type = t;
	if (v->ticks && strcmp(view_type(v, w->type), "samples") == 0)
		w->type = 1; /* cpu: the view of ticks is samples, cpu[, alloc] */
	const char *unit = view_unit(v, w->type);
	if (make_scale(w, unit) < 0) {
		diag_error(w->out->name, 0, "sample type '%s' has more decimals than microseconds can hold",
			   view_type(v, w->type));
		return -1;
	}
	if (!view_unit_ns(unit) && strcmp(unit, "count") != 0)
		diag_warn(w->out->name, 0, "a .cpuprofile holds times: '%s' in %s written a microsecond a unit",
			  view_type(v, w->type), unit);
	return 0;
}

/* Pass 1: the nodes, each one's samples, and the total; no negative weight. */
static int make_nodes(struct writer *w, uint64_t *n_samples)
{
	const struct model *m = w->m;
	int rc = 0;
	struct row_cursor rows;
	view_init(&w->v, m);
	w->stack_node = xcalloc(m->n_stacks + 1, sizeof *w->stack_node);
	grow((void **)&w->nodes, &w->cap_nodes, 1, sizeof *w->nodes);
	w->nodes[ROOT] = (struct node){ ROOT, MODEL_NONE, MODEL_NONE, 0, 1 };
	w->n_nodes = 1;
	rows_begin(m, &rows);
	for (const struct model_row *row; rc == 0 && (row = rows_next(&rows));) {
		view_values(&w->v, row, w->values);
		int64_t value = w->values[w->type];
		if (value < 0)
			rc = view_refuse_negative(m, row->index, w->type, value, "a .cpuprofile", w->out->name);
		else if (microseconds(w, w->sum += (uint64_t)value) < 0) {
			diag_error(w->out->name, 0, "the samples add up past 2^63 microseconds");
			rc = -1;
		}
		uint32_t node = node_of_stack(w, row->stack);
		w->nodes[node].hits += row->repeat;
		*n_samples += row->repeat;
	}
	rows_end(&rows);
	return rc;
}

/* The scriptId of a url: "0" for none, as V8 gives natives, else one per url from 1. */
static int script_equals(const void *ctx, uint32_t i, const void *key)
{
	return ((const struct writer *)ctx)->scripts[i] == *(const uint32_t *)key;
}

static uint32_t script_id(struct writer *w, uint32_t url)
{
	if (url == 0)
		return 0;
	return hashidx_intern(&w->script_index, hash_mix(url, 0), script_equals, w, &url, (void **)&w->scripts,
			      &w->n_scripts, &w->cap_scripts, sizeof *w->scripts) + 1;
}

static void write_i64(struct output *out, int64_t v)
{
	if (v < 0)
		output_byte(out, '-');
	output_u64(out, v < 0 ? 0 - (uint64_t)v : (uint64_t)v);
}

/* A 0-based line or column as V8 writes it: -1 unknown. */
static void write_position(struct output *out, int64_t from_1)
{
	if (from_1 > 0)
		output_u64(out, (uint64_t)(from_1 - 1));
	else
		output_str(out, "-1");
}

static void write_call_frame(struct writer *w, const struct node *n, uint32_t index)
{
	const struct model *m = w->m;
	struct output *out = w->out;
	const struct model_function *f = n->function == MODEL_NONE ? NULL : &m->functions[n->function];
	output_str(out, "\"callFrame\":{\"functionName\":");
	if (index == ROOT) {
		output_str(out, "\"(root)\"");
	} else {
		struct model_frame fr = { n->function, 0, n->location };
		struct model_name name;
		model_frame_name(m, &fr, &name);
		w->replaced_bytes |= json_write_string(out, name.bytes, name.len);
	}
	uint32_t url = f ? f->file_name : 0;
	output_str(out, ",\"scriptId\":\"");
	output_u64(out, script_id(w, url));
	output_str(out, "\",\"url\":");
	const struct strtab_entry *text = strtab_get(&m->strings, url);
	w->replaced_bytes |= json_write_string(out, text->bytes, text->len);
	output_str(out, ",\"lineNumber\":");
	write_position(out, f ? f->start_line : 0);
	output_str(out, ",\"columnNumber\":");
	write_position(out, n->column);
	output_byte(out, '}');
}

/* The nodes, in the order made (a parent before its children), with their children's ids. */
static void write_nodes(struct writer *w)
{
	struct output *out = w->out;
	uint32_t *first = xcalloc(w->n_nodes + 1, sizeof *first), *children = xmalloc(w->n_nodes * sizeof *children);
	uint32_t *filled = xcalloc(w->n_nodes, sizeof *filled);
	for (size_t i = 1; i < w->n_nodes; i++)
		first[w->nodes[i].parent + 1]++;
	for (size_t i = 0; i < w->n_nodes; i++)
		first[i + 1] += first[i];
	for (size_t i = 1; i < w->n_nodes; i++) {
		uint32_t p = w->nodes[i].parent;
		children[first[p] + filled[p]++] = (uint32_t)i;
	}
	free(filled);
	output_str(out, "{\"nodes\":[");
	for (size_t i = 0; i < w->n_nodes; i++) {
		output_str(out, i ? ",{\"id\":" : "{\"id\":");
		output_u64(out, i + 1);
		output_byte(out, ',');
		write_call_frame(w, &w->nodes[i], (uint32_t)i);
		output_str(out, ",\"hitCount\":");
		output_u64(out, w->nodes[i].hits);
		if (first[i + 1] > first[i]) {
			output_str(out, ",\"children\":[");
			for (uint32_t c = first[i]; c < first[i + 1]; c++) {
				if (c > first[i])
					output_byte(out, ',');
				output_u64(out, children[c] + 1);
			}
			output_byte(out, ']');
		}
		output_byte(out, '}');
	}
	output_byte(out, ']');
	free(first);
	free(children);
}

static uint32_t node_of_row(const struct writer *w, const struct model_row *row)
{
	return row->stack == MODEL_EMPTY_STACK ? ROOT : w->stack_node[row->stack] - 1;
}

/* Pass 2: each sample's node id, a row's repeat times; then the root, ending the last. */
static void write_samples(struct writer *w, uint64_t n_samples)
{
	struct row_cursor rows;
	int first = 1;
	output_str(w->out, ",\"samples\":[");
	rows_begin(w->m, &rows);
	for (const struct model_row *row; (row = rows_next(&rows));)
		for (uint64_t k = 0; k < row->repeat; k++) {
			if (!first)
				output_byte(w->out, ',');
			first = 0;
			output_u64(w->out, node_of_row(w, row) + 1);
		}
	rows_end(&rows);
	output_str(w->out, n_samples ? ",1]" : "]");
}

/*
 * Pass 3: the deltas, the first from startTime to the first sample, then
 * each sample's weight, ending it. A row's n samples share its value
 * equally, the remainder a unit each to the first; times are the running
 * sum in microseconds, rounded down, so that the total stays exact.
 */
static void write_deltas(struct writer *w, int64_t first_delta, uint64_t n_samples)
{
	struct row_cursor rows;
	uint64_t sum = 0;
	int64_t before = 0;
	output_str(w->out, ",\"timeDeltas\":[");
	if (n_samples)
		output_u64(w->out, (uint64_t)first_delta);
	view_init(&w->v, w->m);
	rows_begin(w->m, &rows);
	for (const struct model_row *row; (row = rows_next(&rows));) {
		view_values(&w->v, row, w->values);
		uint64_t value = (uint64_t)w->values[w->type], share = value / row->repeat, rest = value % row->repeat;
		for (uint64_t k = 0; k < row->repeat; k++) {
			sum += share + (k < rest);
			int64_t now = microseconds(w, sum);
			output_byte(w->out, ',');
			output_u64(w->out, (uint64_t)(now - before));
			before = now;
		}
	}
	rows_end(&rows);
	output_str(w->out, "]}\n");
}

/* A meta row of the input's as an integer within 2^62, or `otherwise`. */
static int64_t meta_time(const struct model *m, const char *key, int64_t otherwise)
{
	uint32_t id = model_get_meta(m, key);
	if (id == HASHIDX_NONE)
		return otherwise;
	char *end;
	long long v = strtoll(model_cstr(m, id), &end, 10);
	return *end == '\0' && v < INT64_MAX / 2 && v > INT64_MIN / 2 ? v : otherwise;
}

int cpuprofile_write(const struct model *m, struct output *out, const struct write_options *opts)
{
	struct writer w;
	uint64_t n_samples = 0;
	memset(&w, 0, sizeof w);
	w.m = m;
	w.out = out;
	view_init(&w.v, m);
	w.values = xmalloc((w.v.n_types + 1) * sizeof *w.values);
	/* A profile with no sample types has no rows either: its nodes are the root alone. */
	w.scale = (struct scale){ 1, 1 };
	int rc = w.v.n_types ? pick_type(&w, opts) : 0;
	if (rc == 0)
		rc = make_nodes(&w, &n_samples);
	if (rc == 0) {
		/* The input's clock, when it was a .cpuprofile: the same start, the first sample as late. */
		int64_t start = meta_time(m, "start_time_us", 0);
		int64_t first = meta_time(m, "first_sample_us", start) - start;
		if (first < 0 || first > INT64_MAX / 4 || model_get_meta(m, "start_time_us") == HASHIDX_NONE)
			first = 0;
		write_nodes(&w);
		output_str(out, ",\"startTime\":");
		write_i64(out, start);
		output_str(out, ",\"endTime\":");
		write_i64(out, start + first + microseconds(&w, w.sum));
		write_samples(&w, n_samples);
		write_deltas(&w, first, n_samples);
	}
	if (w.replaced_bytes)
		diag_warn(out->name, 0, "names that are not UTF-8: bad bytes written as U+FFFD");
	free(w.values);
	free(w.nodes);
	hashidx_free(&w.node_index);
	free(w.stack_node);
	free(w.path);
	free(w.scripts);
	hashidx_free(&w.script_index);
	return rc;
}
