/*
 * callgrind writer: any profile as the callgrind format that KCachegrind
 * and callgrind_annotate read (docs/formats/callgrind.md). One event per
 * sample type of the view; per function (keyed by file and name, as
 * callgrind_annotate keys them, and by object) its self cost per line, and per call arc
 * the inclusive cost, so that callgrind_annotate's self and inclusive
 * totals are `prof -t summary`'s:
 *
 *  - a sample's value is self cost of its innermost frame, at its line;
 *  - each function on a sample's stack is called once, at its outermost
 *    occurrence, from the frame above it at that frame's line: the
 *    inclusive cost into a function then counts a sample once however
 *    often the function recurs in it, as the summary counts it;
 *  - callgrind_annotate takes a function that nobody calls as self plus
 *    its calls; a function at the root of a sample that is also called,
 *    or recurs under itself, gets that sample as a call from itself, so
 *    that its inclusive cost is still counted once.
 *
 * A callgrind file's profile as read, when nothing changed its samples,
 * is written from its own graph instead (model/graph.h, docs/model.md):
 * each self cost where it was, each call with its count and inclusive
 * cost, which no stacks can hold where a call cost more than its callee
 * holds or recurs.
 *
 * Names and files are compressed; objects (mappings) are written as ob=.
 * Call counts are the number of samples through the arc: a sampled
 * profile counts no calls. Memory grows with distinct stacks, functions
 * and arcs.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/diag.h"
#include "../base/numtext.h"
#include "../model/view.h"
#include "callgrind.h"

/* A function as callgrind sees it: file and name. */
struct cg_function {
	uint32_t file;    /* string id of m */
	uint32_t name;    /* string id in writer.names */
	uint32_t object;  /* mapping filename string id of m; 0 for none */
	uint32_t written; /* its compressed name id, 0 until written */
	uint8_t called, root_self_call;
	uint64_t stamp;   /* the last stack it was seen on */
};

/* A cost at a position: self (callee NONE) or a call arc's inclusive cost. */
struct cost {
	uint32_t function, callee;
	int64_t line, target;
	uint64_t samples; /* through the arc */
};

struct writer {
	const struct model *m;
	struct output *out;
	struct view view;
	size_t n_types;
	struct strtab names;
	struct cg_function *fns;
	size_t n_fns, cap_fns;
	struct hashidx fn_index;
	struct cost *costs;
	size_t n_costs, cap_costs;
	int64_t *values; /* n_types per cost */
	size_t cap_values;
	struct hashidx cost_index;
	/* Per stack id: its summed values and samples. */
	int64_t *stack_values;
	uint64_t *stack_samples;
	uint32_t *frame_fn;
	size_t cap_frame_fn;
	struct model_frame *frames;
	size_t cap_frames;
	uint32_t next_file_id;
	uint32_t *file_ids; /* by string id of m: compressed id, 0 unwritten */
};

struct fn_key {
	uint32_t file, name, object;
};

static int fn_eq(const void *ctx, uint32_t id, const void *key)
{
	const struct cg_function *f = &((const struct writer *)ctx)->fns[id];
	const struct fn_key *k = key;
	return f->file == k->file && f->name == k->name && f->object == k->object;
}

/*
 * The writer's function for a frame, by its file, its shown name and its
 * object: one name in two objects is two fn= blocks, each after its ob=,
 * as valgrind writes them (callgrind_annotate adds them up by name).
 */
static uint32_t function_named(struct writer *w, uint32_t file, const char *name, size_t len, uint32_t object)
{
	struct fn_key k = { file, strtab_intern(&w->names, name, len), object };
	uint64_t h = hash_mix(hash_mix(k.file, k.name), k.object);
	uint32_t at = hashidx_find(&w->fn_index, h, fn_eq, w, &k);
	if (at != HASHIDX_NONE)
		return at;
	grow((void **)&w->fns, &w->cap_fns, w->n_fns + 1, sizeof *w->fns);
	w->fns[w->n_fns] = (struct cg_function){ k.file, k.name, k.object, 0, 0, 0, 0 };
	hashidx_insert(&w->fn_index, h, (uint32_t)w->n_fns);
	return (uint32_t)w->n_fns++;
}

static uint32_t function_of(struct writer *w, const struct model_frame *fr)
{
	const struct model *m = w->m;
	struct model_name shown;
	model_frame_name(m, fr, &shown);
	uint32_t mapping = m->locations[fr->location].native.mapping;
	return function_named(w, fr->function == MODEL_NONE ? 0 : m->functions[fr->function].file_name, shown.bytes,
			      shown.len, mapping == MODEL_NONE ? 0 : m->native.mappings[mapping].filename);
}

/* A function of the kept graph by the name its file gave it, in `object` (a string id; 0: none). */
static uint32_t kept_function(struct writer *w, uint32_t function, uint32_t object)
{
	const struct model_function *f = &w->m->functions[function];
	const struct strtab_entry *name = strtab_get(&w->m->strings, f->name ? f->name : f->system_name);
	return function_named(w, f->file_name, name->bytes, name->len, object);
}

/* The writer's function of a location's own line (code inlined into another is its own). */
static uint32_t function_at(struct writer *w, uint32_t location, int64_t *line)
{
	const struct model *m = w->m;
	struct model_frame own = model_location_frame(m, location, model_location_depth(m, location) - 1);
	uint32_t mapping = m->locations[location].native.mapping;
	*line = own.line;
	return kept_function(w, own.function, mapping == MODEL_NONE ? 0 : m->native.mappings[mapping].filename);
}

static int cost_eq(const void *ctx, uint32_t id, const void *key)
{
	const struct cost *c = &((const struct writer *)ctx)->costs[id], *k = key;
	return c->function == k->function && c->callee == k->callee && c->line == k->line;
}

static void add_cost(struct writer *w, struct cost k, const int64_t *values, uint64_t samples)
{
	uint64_t h = hash_mix(hash_mix(k.function, k.callee), (uint64_t)k.line);
	uint32_t at = hashidx_find(&w->cost_index, h, cost_eq, w, &k);
	if (at == HASHIDX_NONE) {
		grow((void **)&w->costs, &w->cap_costs, w->n_costs + 1, sizeof *w->costs);
		grow((void **)&w->values, &w->cap_values, (w->n_costs + 1) * w->n_types, sizeof *w->values);
		memset(w->values + w->n_costs * w->n_types, 0, w->n_types * sizeof *w->values);
		w->costs[w->n_costs] = k;
		w->costs[w->n_costs].samples = 0;
		at = (uint32_t)w->n_costs++;
		hashidx_insert(&w->cost_index, h, at);
	}
	w->costs[at].samples += samples;
	for (size_t t = 0; t < w->n_types; t++)
		w->values[(size_t)at * w->n_types + t] += values[t];
}

/* The stack's frames as writer functions, innermost first; how many. */
static size_t stack_functions(struct writer *w, uint32_t stack)
{
	size_t n = model_stack_frames(w->m, stack, &w->frames, &w->cap_frames);
	grow((void **)&w->frame_fn, &w->cap_frame_fn, n + 1, sizeof *w->frame_fn);
	for (size_t i = 0; i < n; i++)
		w->frame_fn[i] = function_of(w, &w->frames[i]);
	return n;
}

/*
 * First pass over the stacks: which functions are called (from another
 * frame, at their outermost occurrence), and which recur under themselves
 * at a sample's root.
 */
static void mark_calls(struct writer *w, uint32_t stack, uint64_t stamp)
{
	size_t n = stack_functions(w, stack);
	for (size_t i = n; i-- > 0;) {
		struct cg_function *f = &w->fns[w->frame_fn[i]];
		if (f->stamp == stamp) {
			if (w->frame_fn[i] == w->frame_fn[n - 1])
				w->fns[w->frame_fn[n - 1]].root_self_call = 1;
			continue;
		}
		f->stamp = stamp;
		f->called |= i + 1 < n;
	}
}

static int64_t start_line(const struct model *m, const struct model_frame *fr)
{
	return fr->function == MODEL_NONE ? 0 : m->functions[fr->function].start_line;
}

/* Second pass: the stack's self cost and its calls, as the top of the file says. */
static void add_stack(struct writer *w, uint32_t stack, uint64_t stamp)
{
	const int64_t *values = w->stack_values + (size_t)stack * w->n_types;
	uint64_t samples = w->stack_samples[stack];
	size_t n = stack_functions(w, stack);
	if (!n)
		return;
	add_cost(w, (struct cost){ w->frame_fn[0], MODEL_NONE, w->frames[0].line, 0, 0 }, values, samples);
	uint32_t root = w->frame_fn[n - 1];
	if (w->fns[root].called)
		w->fns[root].root_self_call = 1;
	for (size_t i = n; i-- > 0;) {
		struct cg_function *f = &w->fns[w->frame_fn[i]];
		if (f->stamp == stamp)
			continue;
		f->stamp = stamp;
		size_t caller = i + 1 < n ? i + 1 : i;
		if (caller == i && !f->root_self_call)
			continue;
		add_cost(w, (struct cost){ w->frame_fn[caller], w->frame_fn[i], w->frames[caller].line,
					   start_line(w->m, &w->frames[i]), 0 },
			 values, samples);
	}
}

/* The file's own self costs and calls (model/graph.h); their totals into `totals`. */
static void add_kept_graph(struct writer *w, int64_t *totals)
{
	const struct model_graph *g = &w->m->graph;
	for (size_t i = 0; i < g->n_selfs; i++) {
		int64_t line;
		uint32_t fn = function_at(w, g->selfs[i].location, &line);
		const int64_t *costs = model_graph_self_costs(g, i);
		add_cost(w, (struct cost){ fn, MODEL_NONE, line, 0, 0 }, costs, 0);
		for (size_t t = 0; t < w->n_types; t++)
			totals[t] += costs[t];
	}
	for (size_t i = 0; i < g->n_arcs; i++) {
		const struct model_graph_arc *a = &g->arcs[i];
		int64_t line;
		uint32_t caller = function_at(w, a->site, &line);
		uint32_t callee = kept_function(w, a->callee, a->callee_object);
		add_cost(w, (struct cost){ caller, callee, line, w->m->functions[a->callee].start_line, 0 },
			 model_graph_arc_costs(g, i) + g->n_costs, (uint64_t)a->calls);
	}
}

/* Sums the view's values per stack; -1 after refusing a negative value. */
static int sum_stacks(struct writer *w)
{
	const struct model *m = w->m;
	int64_t *values = xmalloc((w->n_types + 1) * sizeof *values);
	struct row_cursor rows;
	int rc = 0;
	rows_begin(m, &rows);
	for (const struct model_row *row; rc == 0 && (row = rows_next(&rows));) {
		view_values(&w->view, row, values);
		for (size_t t = 0; t < w->n_types && rc == 0; t++) {
			if (values[t] < 0)
				rc = view_refuse_negative(m, row->index, t, values[t], "callgrind", w->out->name);
			else
				w->stack_values[(size_t)row->stack * w->n_types + t] += values[t];
		}
		w->stack_samples[row->stack] += row->repeat;
	}
	rows_end(&rows);
	free(values);
	return rc;
}

/* Bytes of a name as one line can hold them: line breaks and NUL become blanks. */
static void write_name(struct output *out, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		output_byte(out, s[i] == '\n' || s[i] == '\r' || s[i] == '\0' ? ' ' : s[i]);
}

/* A type's name as one event name: no blanks, not empty, not too long. */
static void write_event(struct output *out, const char *type)
{
	size_t len = strlen(type);
	if (len == 0)
		output_byte(out, '_');
	for (size_t i = 0; i < len && i < CALLGRIND_EVENT_NAME_MAX; i++)
		output_byte(out, type[i] == ' ' || type[i] == '\t' || type[i] == '\n' || type[i] == '\r' ? '_' : type[i]);
}

/* "KEY=(N) name" the first time, "KEY=(N)" after. */
static void write_compressed(struct output *out, const char *key, uint32_t *id, uint32_t *next,
			     const char *name, size_t len)
{
	char text[40];
	int fresh = *id == 0;
	if (fresh)
		*id = ++*next;
	snprintf(text, sizeof text, "%s=(%" PRIu32 ")", key, *id);
	output_str(out, text);
	if (fresh) {
		output_byte(out, ' ');
		write_name(out, name, len);
	}
	output_byte(out, '\n');
}

static void write_file(struct writer *w, const char *key, uint32_t file)
{
	const struct strtab_entry *e = strtab_get(&w->m->strings, file);
	if (file == 0)
		write_compressed(w->out, key, &w->file_ids[0], &w->next_file_id, CALLGRIND_UNKNOWN_FILE, 3);
	else
		write_compressed(w->out, key, &w->file_ids[file], &w->next_file_id, e->bytes, e->len);
}

/* A line below 0 (pprof allows one) is 0: "-N" would be a relative position. */
static int64_t line_of(int64_t line)
{
	return line < 0 ? 0 : line;
}

static void write_numbers(struct writer *w, int64_t position, const int64_t *values)
{
	char text[U64_TEXT_MAX + 2];
	snprintf(text, sizeof text, "%" PRId64, line_of(position));
	output_str(w->out, text);
	for (size_t t = 0; t < w->n_types; t++) {
		char *digits = u64_text(text, (uint64_t)values[t]);
		output_byte(w->out, ' ');
		output_write(w->out, digits, (size_t)(text + U64_TEXT_MAX - digits));
	}
	output_byte(w->out, '\n');
}

static void write_header(struct writer *w, const int64_t *totals)
{
	struct output *out = w->out;
	output_str(out, "# callgrind format\nversion: 1\ncreator: prof " PROF_VERSION "\n");
	uint32_t source = model_get_meta(w->m, "source");
	output_str(out, "cmd: ");
	write_name(out, source == HASHIDX_NONE ? "" : model_cstr(w->m, source),
		   source == HASHIDX_NONE ? 0 : strtab_get(&w->m->strings, source)->len);
	output_str(out, "\npositions: line\n");
	for (size_t t = 0; t < w->n_types; t++) {
		output_str(out, "event: ");
		write_event(out, view_type(&w->view, t));
		output_str(out, " : ");
		write_name(out, view_type(&w->view, t), strlen(view_type(&w->view, t)));
		output_str(out, " (");
		write_name(out, view_unit(&w->view, t), strlen(view_unit(&w->view, t)));
		output_str(out, ")\n");
	}
	output_str(out, "events:");
	for (size_t t = 0; t < w->n_types; t++) {
		output_byte(out, ' ');
		write_event(out, view_type(&w->view, t));
	}
	output_str(out, "\nsummary:");
	for (size_t t = 0; t < w->n_types; t++) {
		char text[U64_TEXT_MAX];
		char *digits = u64_text(text, (uint64_t)totals[t]);
		output_byte(out, ' ');
		output_write(out, digits, (size_t)(text + U64_TEXT_MAX - digits));
	}
	output_byte(out, '\n');
}

static const char *fn_name(const struct writer *w, uint32_t f, size_t *len)
{
	const struct strtab_entry *e = strtab_get(&w->names, w->fns[f].name);
	*len = e->len;
	return e->bytes;
}

/* ob= or cob=: an object by its compressed id; 0 is none, callgrind's "???". */
static void write_object(struct writer *w, const char *key, uint32_t *object_ids, uint32_t *next, uint32_t object)
{
	const struct strtab_entry *e = strtab_get(&w->m->strings, object);
	write_compressed(w->out, key, &object_ids[object], next, object ? e->bytes : CALLGRIND_UNKNOWN_FILE,
			 object ? e->len : 3);
}

/* Every function's costs, in the order functions were met. */
static void write_body(struct writer *w)
{
	uint32_t next_fn_id = 0, next_object_id = 0;
	uint32_t *fn_ids = xcalloc(w->n_fns + 1, sizeof *fn_ids);
	uint32_t *object_ids = xcalloc(w->m->strings.count + 1, sizeof *object_ids);
	size_t *first = xcalloc(w->n_fns + 1, sizeof *first), *order = xmalloc((w->n_costs + 1) * sizeof *order);
	for (size_t c = 0; c < w->n_costs; c++)
		first[w->costs[c].function + 1]++;
	for (size_t f = 0; f < w->n_fns; f++)
		first[f + 1] += first[f];
	for (size_t c = 0; c < w->n_costs; c++)
		order[first[w->costs[c].function]++] = c;
	size_t at = 0;
	uint32_t current_object = 0;
	for (uint32_t f = 0; f < w->n_fns; f++) {
		size_t len, until = at;
		while (until < w->n_costs && w->costs[order[until]].function == f)
			until++;
		if (until == at)
			continue;
		const char *name = fn_name(w, f, &len);
		output_byte(w->out, '\n');
		/* ob= lasts until the next: a function of no object after one of some is "???". */
		uint32_t object = w->fns[f].object;
		if (object != current_object) {
			write_object(w, "ob", object_ids, &next_object_id, object);
			current_object = object;
		}
		write_file(w, "fl", w->fns[f].file);
		write_compressed(w->out, "fn", &fn_ids[f], &next_fn_id, name, len);
		for (; at < until; at++) {
			const struct cost *c = &w->costs[order[at]];
			const int64_t *values = w->values + order[at] * w->n_types;
			if (c->callee != MODEL_NONE) {
				char text[64];
				uint32_t callee_object = w->fns[c->callee].object;
				if (callee_object != object)
					write_object(w, "cob", object_ids, &next_object_id, callee_object);
				if (w->fns[c->callee].file != w->fns[f].file)
					write_file(w, "cfi", w->fns[c->callee].file);
				name = fn_name(w, c->callee, &len);
				write_compressed(w->out, "cfn", &fn_ids[c->callee], &next_fn_id, name, len);
				snprintf(text, sizeof text, "calls=%" PRIu64 " %" PRId64 "\n", c->samples, line_of(c->target));
				output_str(w->out, text);
			}
			write_numbers(w, c->line, values);
		}
	}
	free(fn_ids);
	free(object_ids);
	free(first);
	free(order);
}

/* Every stack's costs and calls; their totals into `totals`. -1 after refusing a negative value. */
static int add_stacks(struct writer *w, int64_t *totals)
{
	const struct model *m = w->m;
	w->stack_values = xcalloc(m->n_stacks * (w->n_types + 1), sizeof *w->stack_values);
	w->stack_samples = xcalloc(m->n_stacks + 1, sizeof *w->stack_samples);
	if (sum_stacks(w) < 0)
		return -1;
	for (uint32_t s = 1; s < m->n_stacks; s++) {
		for (size_t t = 0; t < w->n_types; t++)
			totals[t] += w->stack_values[(size_t)s * w->n_types + t];
		if (w->stack_samples[s])
			mark_calls(w, s, 2 * (uint64_t)s);
	}
	for (uint32_t s = 1; s < m->n_stacks; s++)
		if (w->stack_samples[s])
			add_stack(w, s, 2 * (uint64_t)s + 1);
	return 0;
}

static void writer_free(struct writer *w)
{
	strtab_free(&w->names);
	free(w->fns);
	hashidx_free(&w->fn_index);
	free(w->costs);
	free(w->values);
	hashidx_free(&w->cost_index);
	free(w->stack_values);
	free(w->stack_samples);
	free(w->frame_fn);
	free(w->frames);
	free(w->file_ids);
}

int callgrind_write(const struct model *m, struct output *out, const struct write_options *opts)
{
	struct writer w;
	memset(&w, 0, sizeof w);
	w.m = m;
	w.out = out;
	view_init(&w.view, m);
	w.n_types = w.view.n_types;
	/* --sample-type has no say: every type is an event. It is still checked. */
	size_t picked;
	if (opts->sample_type && view_pick(&w.view, opts->sample_type, VIEW_WEIGHT, out->name, &picked) < 0)
		return -1;
	if (w.n_types == 0 || w.n_types > CALLGRIND_EVENTS_MAX) {
		diag_error(out->name, 0, "callgrind needs 1 to %d sample types as its events; the profile has %zu",
			   CALLGRIND_EVENTS_MAX, w.n_types);
		return -1;
	}
	for (size_t t = 0; t < w.n_types; t++)
		if (view_decimals(&w.view, t))
			return view_refuse_decimals(&w.view, t, "callgrind", out->name);
	strtab_init(&w.names);
	w.file_ids = xcalloc(m->strings.count + 1, sizeof *w.file_ids);
	int64_t *totals = xcalloc(w.n_types + 1, sizeof *totals);
	if (m->graph.kind == MODEL_GRAPH_CALLGRIND && m->graph.n_costs == w.n_types)
		add_kept_graph(&w, totals);
	else if (add_stacks(&w, totals) < 0) {
		free(totals);
		writer_free(&w);
		return -1;
	}
	write_header(&w, totals);
	write_body(&w);
	output_str(out, "\ntotals:");
	for (size_t t = 0; t < w.n_types; t++) {
		char text[U64_TEXT_MAX];
		char *digits = u64_text(text, (uint64_t)totals[t]);
		output_byte(out, ' ');
		output_write(out, digits, (size_t)(text + U64_TEXT_MAX - digits));
	}
	output_byte(out, '\n');
	free(totals);
	writer_free(&w);
	return 0;
}
