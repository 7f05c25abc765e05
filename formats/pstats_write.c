/*
 * pstats writer: any profile as the marshalled dict Python's pstats loads
 * (docs/formats/pstats.md), so that pstats, snakeviz and gprof2dot show
 * each function's self and cumulative time as `prof -t summary` does:
 *
 *  - a function is keyed (file, first line, name); one without a file
 *    has the empty file name, as the profile module keys C functions;
 *  - a sample's value (of the weight type the summary shows, in seconds
 *    when it is a time) is tt of its innermost frame, and of the arc from
 *    the frame above; ct of every function on the stack once however
 *    often it recurs (cProfile counts a recursive function's outermost
 *    calls), and of every caller-callee arc on it once likewise;
 *  - call counts come from the `calls` and `primitive_calls` types a
 *    pstats file gave: a sample of counts is calls of its innermost frame
 *    from the frame above. A profile without them counts one call per
 *    caller the stacks show (and one from outside for a root), primitive
 *    where the callee is not on the stack above: the least there were.
 *
 * A pstats file's profile as read, when nothing changed its samples and
 * its time is the weight, is written from its own graph instead
 * (model/graph.h, docs/model.md): every entry and caller as the file had
 * them, which no stacks can hold on a cycle.
 *
 * Written with marshal's version 2 types (no references), which every
 * Python from 2.7 on loads: tuples '(', UTF-8 strings 'u', 'i' or 'l'
 * integers, 'g' binary floats. Memory grows with distinct stacks,
 * functions and arcs.
 */
#include <string.h>

#include "../base/alloc.h"
#include "../base/utf8.h"
#include "../model/view.h"
#include "pstats.h"

struct ps_fn {
	uint32_t file;   /* string id of m; 0: none, the empty name */
	uint32_t name;   /* string id in writer.names */
	int64_t line;
	int64_t tt, ct, nc, cc;
	uint64_t stamp, seen;
	uint8_t root;    /* counted without call counts: at the root of a stack */
};

struct ps_arc {
	uint32_t caller, callee;
	int64_t tt, ct, nc, cc;
	uint64_t stamp;
	uint8_t primitive;
};

struct writer {
	const struct model *m;
	struct output *out;
	struct view view;
	size_t time;      /* the view's type written as times */
	size_t calls, primitive; /* the count types; SIZE_MAX when the profile has none */
	double scale;     /* seconds in one value of `time` */
	struct strtab names;
	struct ps_fn *fns;
	size_t n_fns, cap_fns;
	struct hashidx fn_index;
	struct ps_arc *arcs;
	size_t n_arcs, cap_arcs;
	struct hashidx arc_index;
	int64_t *stack_values; /* per stack: time, calls, primitive calls */
	uint8_t *stack_used;
	uint32_t *frame_fn;
	size_t cap_frame_fn;
	struct model_frame *frames;
	size_t cap_frames;
	uint64_t stamp;
};

struct fn_key {
	uint32_t file, name;
	int64_t line;
};

static int fn_eq(const void *ctx, uint32_t id, const void *key)
{
	const struct ps_fn *f = &((const struct writer *)ctx)->fns[id];
	const struct fn_key *k = key;
	return f->file == k->file && f->name == k->name && f->line == k->line;
}

/* The writer's function for a frame: its file, first line and shown name. */
static uint32_t function_of(struct writer *w, const struct model_frame *fr)
{
	const struct model *m = w->m;
	struct model_name shown;
	model_frame_name(m, fr, &shown);
	const struct model_function *f = fr->function == MODEL_NONE ? NULL : &m->functions[fr->function];
	struct fn_key k = { f ? f->file_name : 0, strtab_intern(&w->names, shown.bytes, shown.len),
			    f ? f->start_line : 0 };
	uint64_t h = hash_mix(hash_mix(k.file, k.name), (uint64_t)k.line);
	uint32_t at = hashidx_find(&w->fn_index, h, fn_eq, w, &k);
	if (at != HASHIDX_NONE)
		return at;
	grow((void **)&w->fns, &w->cap_fns, w->n_fns + 1, sizeof *w->fns);
	w->fns[w->n_fns] = (struct ps_fn){ .file = k.file, .name = k.name, .line = k.line };
	hashidx_insert(&w->fn_index, h, (uint32_t)w->n_fns);
	return (uint32_t)w->n_fns++;
}

static int arc_eq(const void *ctx, uint32_t id, const void *key)
{
	const struct ps_arc *a = &((const struct writer *)ctx)->arcs[id], *k = key;
	return a->caller == k->caller && a->callee == k->callee;
}

static struct ps_arc *arc_of(struct writer *w, uint32_t caller, uint32_t callee)
{
	struct ps_arc k = { .caller = caller, .callee = callee };
	uint64_t h = hash_mix(caller, callee);
	uint32_t at = hashidx_find(&w->arc_index, h, arc_eq, w, &k);
	if (at == HASHIDX_NONE) {
		grow((void **)&w->arcs, &w->cap_arcs, w->n_arcs + 1, sizeof *w->arcs);
		w->arcs[w->n_arcs] = k;
		at = (uint32_t)w->n_arcs++;
		hashidx_insert(&w->arc_index, h, at);
	}
	return &w->arcs[at];
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

/* Marks the functions of frames n-1 .. from as seen; is frame `from - 1`'s among them? */
static int above(struct writer *w, size_t n, size_t from)
{
	uint64_t mark = ++w->stamp;
	for (size_t i = n; i-- > from;)
		w->fns[w->frame_fn[i]].seen = mark;
	return from > 0 && w->fns[w->frame_fn[from - 1]].seen == mark;
}

/* A stack's time: tt of its innermost frame, ct of each function and arc on it once. */
static void add_time(struct writer *w, size_t n, int64_t value)
{
	uint64_t mark = ++w->stamp;
	w->fns[w->frame_fn[0]].tt += value;
	if (n > 1)
		arc_of(w, w->frame_fn[1], w->frame_fn[0])->tt += value;
	for (size_t i = 0; i < n; i++) {
		struct ps_fn *f = &w->fns[w->frame_fn[i]];
		if (f->stamp != mark) {
			f->stamp = mark;
			f->ct += value;
		}
		if (i + 1 < n) {
			struct ps_arc *a = arc_of(w, w->frame_fn[i + 1], w->frame_fn[i]);
			if (a->stamp != mark) {
				a->stamp = mark;
				a->ct += value;
			}
		}
	}
}

/* A stack's call counts: calls of its innermost frame, from the frame above. */
static void add_counts(struct writer *w, size_t n, int64_t calls, int64_t primitive)
{
	struct ps_fn *leaf = &w->fns[w->frame_fn[0]];
	leaf->nc += calls;
	leaf->cc += primitive;
	if (n > 1) {
		struct ps_arc *a = arc_of(w, w->frame_fn[1], w->frame_fn[0]);
		a->nc += calls;
		a->cc += primitive;
	}
}

/* Without counts: each arc on the stack was called, primitively where its callee is not above. */
static void mark_arcs(struct writer *w, size_t n)
{
	w->fns[w->frame_fn[n - 1]].root = 1;
	for (size_t i = 0; i + 1 < n; i++) {
		struct ps_arc *a = arc_of(w, w->frame_fn[i + 1], w->frame_fn[i]);
		if (!above(w, n, i + 1))
			a->primitive = 1;
	}
}

/* Per arc one call, per root one: the least calls the stacks show. */
static void least_counts(struct writer *w)
{
	for (size_t f = 0; f < w->n_fns; f++)
		w->fns[f].nc = w->fns[f].cc = w->fns[f].root;
	for (size_t i = 0; i < w->n_arcs; i++) {
		struct ps_arc *a = &w->arcs[i];
		a->nc = 1;
		a->cc = a->primitive;
		w->fns[a->callee].nc += 1;
		w->fns[a->callee].cc += a->primitive;
	}
}

/* Sums the view's values per stack; -1 after refusing a negative value. */
static int sum_stacks(struct writer *w)
{
	const struct model *m = w->m;
	int64_t *values = xmalloc((w->view.n_types + 1) * sizeof *values);
	size_t wanted[3] = { w->time, w->calls, w->primitive };
	struct row_cursor rows;
	int rc = 0;
	rows_begin(m, &rows);
	for (const struct model_row *row; rc == 0 && (row = rows_next(&rows));) {
		view_values(&w->view, row, values);
		w->stack_used[row->stack] = 1;
		for (size_t k = 0; k < 3 && rc == 0; k++) {
			if (wanted[k] == SIZE_MAX)
				continue;
			if (values[wanted[k]] < 0)
				rc = view_refuse_negative(m, row->index, wanted[k], values[wanted[k]], "pstats",
							  w->out->name);
			else
				w->stack_values[(size_t)row->stack * 3 + k] += values[wanted[k]];
		}
	}
	rows_end(&rows);
	free(values);
	return rc;
}

static void put_i32(struct output *out, uint32_t v)
{
	char bytes[4] = { (char)(v & 0xff), (char)(v >> 8 & 0xff), (char)(v >> 16 & 0xff), (char)(v >> 24) };
	output_write(out, bytes, 4);
}

/* An integer: 'i' when it fits 32 bits, else 'l', 15-bit digits with the sign on their count. */
static void put_int(struct output *out, int64_t v)
{
	if (v >= INT32_MIN && v <= INT32_MAX) {
		output_byte(out, MARSHAL_INT);
		put_i32(out, (uint32_t)(int32_t)v);
		return;
	}
	uint64_t magnitude = v < 0 ? -(uint64_t)v : (uint64_t)v;
	int digits = 0;
	for (uint64_t rest = magnitude; rest; rest >>= 15)
		digits++;
	output_byte(out, MARSHAL_LONG);
	put_i32(out, (uint32_t)(v < 0 ? -digits : digits));
	for (int k = 0; k < digits; k++, magnitude >>= 15) {
		char digit[2] = { (char)(magnitude & 0xff), (char)(magnitude >> 8 & 0x7f) };
		output_write(out, digit, 2);
	}
}

static void put_float(struct output *out, double d)
{
	uint64_t bits;
	memcpy(&bits, &d, sizeof bits);
	output_byte(out, MARSHAL_BINARY_FLOAT);
	put_i32(out, (uint32_t)bits);
	put_i32(out, (uint32_t)(bits >> 32));
}

/* A str: UTF-8, each byte that is not part of a character as U+FFFD, so that Python can load it. */
static void put_text(struct output *out, const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t bytes = 0;
	for (size_t i = 0; i < len;) {
		size_t n = utf8_char(u + i, len - i);
		bytes += n ? n : sizeof UTF8_REPLACEMENT - 1;
		i += n ? n : 1;
	}
	output_byte(out, MARSHAL_UNICODE);
	put_i32(out, (uint32_t)bytes);
	for (size_t i = 0; i < len;) {
		size_t n = utf8_char(u + i, len - i);
		if (n)
			output_write(out, s + i, n);
		else
			output_str(out, UTF8_REPLACEMENT);
		i += n ? n : 1;
	}
}

static void put_tuple(struct output *out, uint32_t n)
{
	output_byte(out, MARSHAL_TUPLE);
	put_i32(out, n);
}

static void put_key_of(struct output *out, const struct strtab_entry *file, int64_t line,
		       const struct strtab_entry *name)
{
	put_tuple(out, 3);
	put_text(out, file->bytes, file->len);
	put_int(out, line);
	put_text(out, name->bytes, name->len);
}

static void put_key(struct writer *w, const struct ps_fn *f)
{
	put_key_of(w->out, strtab_get(&w->m->strings, f->file), f->line, strtab_get(&w->names, f->name));
}

/* A model function's key as the pstats file that gave it had it: (file, line, name). */
static void put_function_key(struct writer *w, uint32_t function)
{
	const struct model_function *f = &w->m->functions[function];
	put_key_of(w->out, strtab_get(&w->m->strings, f->file_name), f->start_line,
		   strtab_get(&w->m->strings, f->name));
}

/* (cc, nc, tt, ct) or a caller's (nc, cc, tt, ct): counts, then self and inclusive time. */
static void put_figures(struct writer *w, int64_t first, int64_t second, const int64_t *costs)
{
	put_int(w->out, first);
	put_int(w->out, second);
	put_float(w->out, (double)costs[0] * w->scale);
	put_float(w->out, (double)costs[1] * w->scale);
}

/*
 * A pstats file's own graph, as it was read (model/graph.h): each entry
 * in the file's order, its callers in theirs, the profile module's bare
 * counts as bare counts.
 */
static void write_kept_graph(struct writer *w)
{
	const struct model_graph *g = &w->m->graph;
	struct output *out = w->out;
	size_t *first = xcalloc(w->m->n_functions + 1, sizeof *first), *order = xmalloc((g->n_arcs + 1) * sizeof *order);
	for (size_t i = 0; i < g->n_arcs; i++)
		first[g->arcs[i].callee + 1]++;
	for (size_t f = 0; f < w->m->n_functions; f++)
		first[f + 1] += first[f];
	for (size_t i = 0; i < g->n_arcs; i++)
		order[first[g->arcs[i].callee]++] = i;
	output_byte(out, MARSHAL_DICT);
	for (size_t k = 0; k < g->n_functions; k++) {
		const struct model_graph_function *fn = &g->functions[k];
		put_function_key(w, fn->function);
		put_tuple(out, 5);
		put_figures(w, fn->primitive_calls, fn->calls, model_graph_function_costs(g, k));
		output_byte(out, MARSHAL_DICT);
		size_t end = first[fn->function], at = end;
		while (at > 0 && g->arcs[order[at - 1]].callee == fn->function)
			at--;
		for (; at < end; at++) {
			const struct model_graph_arc *a = &g->arcs[order[at]];
			put_function_key(w, a->caller);
			if (a->counts_only) {
				put_int(out, a->calls);
				continue;
			}
			put_tuple(out, 4);
			put_figures(w, a->calls, a->primitive_calls, model_graph_arc_costs(g, order[at]));
		}
		output_byte(out, MARSHAL_NULL);
	}
	output_byte(out, MARSHAL_NULL);
	free(first);
	free(order);
}

/* {key: (cc, nc, tt, ct, {caller: (nc, cc, tt, ct)})}, functions in the order met. */
static void write_stats(struct writer *w)
{
	struct output *out = w->out;
	size_t *first = xcalloc(w->n_fns + 1, sizeof *first), *order = xmalloc((w->n_arcs + 1) * sizeof *order);
	for (size_t i = 0; i < w->n_arcs; i++)
		first[w->arcs[i].callee + 1]++;
	for (size_t f = 0; f < w->n_fns; f++)
		first[f + 1] += first[f];
	for (size_t i = 0; i < w->n_arcs; i++)
		order[first[w->arcs[i].callee]++] = i;
	output_byte(out, MARSHAL_DICT);
	for (size_t f = 0, at = 0; f < w->n_fns; f++) {
		const struct ps_fn *fn = &w->fns[f];
		put_key(w, fn);
		put_tuple(out, 5);
		put_int(out, fn->cc);
		put_int(out, fn->nc);
		put_float(out, (double)fn->tt * w->scale);
		put_float(out, (double)fn->ct * w->scale);
		output_byte(out, MARSHAL_DICT);
		for (; at < first[f]; at++) {
			const struct ps_arc *a = &w->arcs[order[at]];
			put_key(w, &w->fns[a->caller]);
			put_tuple(out, 4);
			put_int(out, a->nc);
			put_int(out, a->cc);
			put_float(out, (double)a->tt * w->scale);
			put_float(out, (double)a->ct * w->scale);
		}
		output_byte(out, MARSHAL_NULL);
	}
	output_byte(out, MARSHAL_NULL);
	free(first);
	free(order);
}

/* A type named `name` in unit count, or SIZE_MAX. */
static size_t count_type(const struct view *v, const char *name)
{
	for (size_t t = 0; t < v->n_types; t++)
		if (strcmp(view_type(v, t), name) == 0 && strcmp(view_unit(v, t), "count") == 0 &&
		    view_decimals(v, t) == 0)
			return t;
	return SIZE_MAX;
}

/* Seconds in one value: 10^-k for a time unit with its decimals; any other unit is taken as seconds. */
static double seconds_per_value(const struct view *v, size_t type)
{
	unsigned k = view_decimals(v, type);
	for (uint64_t ns = view_unit_ns(view_unit(v, type)); ns && ns < 1000000000; ns *= 10)
		k++;
	return pstats_scale(k);
}

static void writer_free(struct writer *w)
{
	strtab_free(&w->names);
	free(w->fns);
	hashidx_free(&w->fn_index);
	free(w->arcs);
	hashidx_free(&w->arc_index);
	free(w->stack_values);
	free(w->stack_used);
	free(w->frame_fn);
	free(w->frames);
}

int pstats_write(const struct model *m, struct output *out, const struct write_options *opts)
{
	struct writer w;
	memset(&w, 0, sizeof w);
	w.m = m;
	w.out = out;
	view_init(&w.view, m);
	if (view_pick(&w.view, opts->sample_type, VIEW_WEIGHT, out->name, &w.time) < 0)
		return -1;
	w.calls = count_type(&w.view, PSTATS_CALLS_TYPE);
	w.primitive = count_type(&w.view, PSTATS_PRIMITIVE_CALLS_TYPE);
	if (w.calls == SIZE_MAX || w.primitive == SIZE_MAX || w.calls == w.time || w.primitive == w.time)
		w.calls = w.primitive = SIZE_MAX;
	w.scale = seconds_per_value(&w.view, w.time);
	/* A pstats file as read: its own numbers, which its stacks cannot all hold (docs/model.md). */
	if (m->graph.kind == MODEL_GRAPH_PSTATS && w.time == 0 && w.calls != SIZE_MAX) {
		write_kept_graph(&w);
		return 0;
	}
	strtab_init(&w.names);
	w.stack_values = xcalloc(m->n_stacks * 3 + 1, sizeof *w.stack_values);
	w.stack_used = xcalloc(m->n_stacks + 1, 1);
	if (sum_stacks(&w) < 0) {
		writer_free(&w);
		return -1;
	}
	for (uint32_t s = 1; s < m->n_stacks; s++) {
		const int64_t *v = w.stack_values + (size_t)s * 3;
		if (!w.stack_used[s])
			continue;
		size_t n = stack_functions(&w, s);
		if (n == 0)
			continue;
		if (v[0])
			add_time(&w, n, v[0]);
		if (w.calls != SIZE_MAX)
			add_counts(&w, n, v[1], v[2]);
		else
			mark_arcs(&w, n);
	}
	if (w.calls == SIZE_MAX)
		least_counts(&w);
	write_stats(&w);
	writer_free(&w);
	return 0;
}
