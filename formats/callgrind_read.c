/*
 * callgrind reader. A callgrind file is a call graph, not stacks: each
 * function's self cost per position, and per call arc the inclusive cost
 * of the calls. The reader parses the grammar and gathers both in one
 * pass, in file order, into the model's call graph, which makes the
 * stacks (model/callgraph.h; docs/callgraph.md says the rule and why).
 *
 * A function is keyed by its object, its file at the cost line and its
 * name, as KCachegrind keys it (code in `fi=` files is the function of
 * that file, inlined into the `fn=` one); objects are mappings,
 * instruction addresses location addresses. Header lines are kept in
 * meta as "callgrind:KEY"; a summary: or totals: far above the cost
 * lines' sum is a file cut short, read with a warning. The file's own
 * self costs and calls are also kept as they are, beside the samples
 * (model/graph.h), for the callgrind writer to give back. Memory grows
 * with positions and arcs, never with the lines that repeat them.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/ascii.h"
#include "../base/checked.h"
#include "../base/diag.h"
#include "../io/lines.h"
#include "../model/callgraph.h"
#include "callgrind.h"

/* A name-compression table: "(N) name" defines N, "(N)" refers to it. */
struct names {
	struct hashidx index;
	struct named {
		uint64_t number;
		uint32_t str;
	} *items;
	size_t n, cap;
};

enum { POS_ADDR, POS_LINE };

struct reader {
	struct lines lines;
	struct model *m;
	size_t n_events;
	int n_pos;
	int pos_kind[2];
	int body; /* a body line was read: the header is over */
	struct names objects, files, fns;
	struct hashidx mapping_of_object, location_index;
	/* The current position lines. */
	uint32_t ob, file, fn;
	uint32_t fn_file; /* the file current at fn=: the function's own, as calls name it */
	int has_fn;
	uint32_t cfile, cfn, cob;
	int has_cfile, has_cfn, has_cob;
	uint64_t last[2]; /* the last cost line's subpositions */
	/* The line after calls= (or a jump) is the call's position and its inclusive cost. */
	int call_pending, jump_pending;
	uint32_t callee;
	uint32_t callee_object; /* string id; 0: none */
	int64_t call_count;
	int64_t *costs; /* one cost line's counts */
	struct event_unit {
		uint32_t name, unit;
	} *event_units;
	size_t n_event_units, cap_event_units;
	struct callgraph *graph; /* from events: on */
	/* The object each (file, name) was first met in (MODEL_NONE: none). */
	struct first_object {
		uint32_t file, name, object;
	} *first_objects;
	size_t n_first_objects, cap_first_objects;
	struct hashidx first_object_index;
	/* Per event: the self costs' sum, and what the last summary: or totals: said. */
	int64_t *self_sum, *stated;
	uint64_t stated_line; /* 0: no such line after events: */
	const char *stated_key;
};

static int named_eq(const void *ctx, uint32_t id, const void *key)
{
	return ((const struct names *)ctx)->items[id].number == *(const uint64_t *)key;
}

static uint32_t names_find(const struct names *t, uint64_t number)
{
	return hashidx_find(&t->index, hash_bytes(&number, sizeof number), named_eq, t, &number);
}

static void names_set(struct names *t, uint64_t number, uint32_t str)
{
	uint32_t at = names_find(t, number);
	if (at != HASHIDX_NONE) {
		t->items[at].str = str;
		return;
	}
	grow((void **)&t->items, &t->cap, t->n + 1, sizeof *t->items);
	t->items[t->n] = (struct named){ number, str };
	hashidx_insert(&t->index, hash_bytes(&number, sizeof number), (uint32_t)t->n++);
}

static void names_free(struct names *t)
{
	hashidx_free(&t->index);
	free(t->items);
}

/* Digits as a number; 0 when there are none or it passes 2^63-1. */
static int number_at(const char *s, size_t len, size_t *i, uint64_t *v, int hex)
{
	size_t start = *i;
	*v = 0;
	for (; *i < len; (*i)++) {
		char c = s[*i];
		unsigned d;
		if (is_digit(c))
			d = (unsigned)(c - '0');
		else if (hex && c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else if (hex && c >= 'A' && c <= 'F')
			d = (unsigned)(c - 'A' + 10);
		else
			break;
		if (*v > (UINT64_C(0x7fffffffffffffff) - d) / (hex ? 16 : 10))
			return 0;
		*v = *v * (hex ? 16 : 10) + d;
	}
	return *i > start;
}

/*
 * The value of a name line ("(N) name", "(N)" or "name") as a string id;
 * "???" is callgrind's unknown file, prof's empty one. -1 after reporting.
 */
static int name_value(struct reader *r, struct names *t, const char *s, size_t len, int is_file,
		      uint32_t *str)
{
	if (len >= 2 && s[0] == '(' && is_digit(s[1])) {
		size_t i = 1;
		uint64_t number;
		if (!number_at(s, len, &i, &number, 0) || i >= len || s[i] != ')')
			return lines_error(&r->lines, 0, "bad name id", s, len);
		if (++i == len) {
			uint32_t at = names_find(t, number);
			if (at == HASHIDX_NONE)
				return lines_error(&r->lines, 0, "name id used before it is defined", s, len);
			*str = t->items[at].str;
			return 0;
		}
		if (s[i] != ' ')
			return lines_error(&r->lines, 0, "no blank after the name id", s, len);
		s += i + 1;
		len -= i + 1;
		*str = is_file && len == 3 && memcmp(s, CALLGRIND_UNKNOWN_FILE, 3) == 0 ? 0
											: model_str(r->m, s, len);
		names_set(t, number, *str);
		return 0;
	}
	*str = is_file && len == 3 && memcmp(s, CALLGRIND_UNKNOWN_FILE, 3) == 0 ? 0 : model_str(r->m, s, len);
	return 0;
}

static int mapping_eq(const void *ctx, uint32_t id, const void *key)
{
	return ((const struct model *)ctx)->native.mappings[id].filename == *(const uint32_t *)key;
}

/* The mapping of an object file, made on first use; MODEL_NONE for none. */
static uint32_t mapping_of(struct reader *r, uint32_t object, int has_object)
{
	if (!has_object)
		return MODEL_NONE;
	uint64_t h = hash_mix(object, 0x6f62);
	uint32_t at = hashidx_find(&r->mapping_of_object, h, mapping_eq, r->m, &object);
	if (at == HASHIDX_NONE) {
		struct model_mapping map = { 0 };
		map.id = r->m->native.n_mappings + 1;
		map.filename = object;
		map.has_functions = 1;
		map.has_filenames = 1;
		map.has_line_numbers = r->pos_kind[r->n_pos - 1] == POS_LINE;
		at = model_add_mapping(r->m, &map);
		hashidx_insert(&r->mapping_of_object, h, at);
	}
	return at;
}

static int first_object_eq(const void *ctx, uint32_t id, const void *key)
{
	const struct first_object *a = &((const struct reader *)ctx)->first_objects[id], *b = key;
	return a->file == b->file && a->name == b->name;
}

/*
 * The function of a name in a file and an object: functions of the same
 * name and file in two objects (callgrind's "0x..." names of code without
 * symbols, in a library and in [vdso]) are two, as KCachegrind keys them.
 * The first object met keeps the plain function; another one's is told
 * apart by an id of its own, its object's mapping (1 for no object).
 */
static uint32_t function_of(struct reader *r, uint32_t object, uint32_t file, uint32_t name)
{
	struct first_object key = { file, name, object };
	uint32_t at = hashidx_intern(&r->first_object_index, hash_mix(file, name), first_object_eq, r, &key,
				     (void **)&r->first_objects, &r->n_first_objects, &r->cap_first_objects,
				     sizeof *r->first_objects);
	struct model_function f = { 0 };
	f.name = f.system_name = name;
	f.file_name = file;
	if (r->first_objects[at].object != object)
		f.native_id = object == MODEL_NONE ? 1 : (uint64_t)mapping_of(r, object, 1) + 2;
	return model_function(r->m, &f);
}

struct location_key {
	uint32_t function, outer, mapping;
	int64_t line;
	uint64_t address;
};

static int location_eq(const void *ctx, uint32_t id, const void *key)
{
	const struct model *m = ctx;
	const struct model_location *l = &m->locations[id];
	const struct location_key *k = key;
	uint32_t outer = l->n_inlined ? m->inlined[l->first_inlined].function : l->function;
	return l->function == k->function && outer == k->outer && l->line == k->line &&
	       l->native.address == k->address && l->native.mapping == k->mapping;
}

/*
 * The location of a position, interned. Code of another file inside
 * function `outer` (after fi=) is callgrind_annotate's function of that
 * file and name, inlined into `outer` at an unknown line.
 */
static uint32_t location_at(struct reader *r, uint32_t function, uint32_t outer, uint32_t mapping,
			    const uint64_t pos[2])
{
	struct location_key k = { function, outer, mapping, (int64_t)pos[POS_LINE], pos[POS_ADDR] };
	uint64_t h = hash_mix(hash_mix(hash_mix(function, outer), mapping), hash_mix((uint64_t)k.line, k.address));
	uint32_t at = hashidx_find(&r->location_index, h, location_eq, r->m, &k);
	if (at == HASHIDX_NONE) {
		struct model_location l = { 0 };
		struct model_line into = { outer, 0, 0 };
		l.function = function;
		l.line = k.line;
		l.native.mapping = mapping;
		l.native.address = k.address;
		at = model_add_location(r->m, &l, &into, function != outer);
		hashidx_insert(&r->location_index, h, at);
	}
	return at;
}

/*
 * Subpositions at s[*i..len): absolute (decimal, or hex "0x"), relative
 * to the last cost line's ("+N", "-N") or the same ("*"). Fills pos.
 */
static int positions(struct reader *r, const char *s, size_t len, size_t *i, uint64_t pos[2])
{
	pos[0] = pos[1] = 0;
	for (int k = 0; k < r->n_pos; k++) {
		int kind = r->pos_kind[k];
		uint64_t last = r->last[kind], v;
		while (*i < len && (s[*i] == ' ' || s[*i] == '\t'))
			(*i)++;
		if (*i < len && s[*i] == '*') {
			v = last;
			(*i)++;
		} else if (*i < len && (s[*i] == '+' || s[*i] == '-')) {
			char sign = s[(*i)++];
			if (!number_at(s, len, i, &v, 0))
				return lines_error(&r->lines, 0, "bad relative position", s, len);
			if (sign == '-' && v > last)
				return lines_error(&r->lines, 0, "position below 0", s, len);
			if (sign == '+' && v > UINT64_C(0x7fffffffffffffff) - last)
				return lines_error(&r->lines, 0, "position larger than 2^63-1", s, len);
			v = sign == '+' ? last + v : last - v;
		} else {
			int hex = *i + 1 < len && s[*i] == '0' && (s[*i + 1] == 'x' || s[*i + 1] == 'X');
			*i += hex ? 2 : 0;
			if (!number_at(s, len, i, &v, hex))
				return lines_error(&r->lines, 0, "bad position", s, len);
		}
		if (*i < len && s[*i] != ' ' && s[*i] != '\t')
			return lines_error(&r->lines, 0, "bad position", s, len);
		pos[kind] = v;
	}
	return 0;
}

/* Counts after the positions: one per event at most, missing ones 0. */
static int counts(struct reader *r, const char *s, size_t len, size_t i)
{
	memset(r->costs, 0, r->n_events * sizeof *r->costs);
	for (size_t e = 0;; e++) {
		while (i < len && (s[i] == ' ' || s[i] == '\t'))
			i++;
		if (i == len)
			return 0;
		if (e == r->n_events)
			return lines_errorf(&r->lines, 0, "more counts than the %zu events", r->n_events);
		uint64_t v;
		size_t at = i;
		if (!number_at(s, len, &i, &v, 0) && at < len && is_digit(s[at]))
			return lines_error(&r->lines, 0, "count larger than 2^63-1", s, len);
		if (i == at || (i < len && s[i] != ' ' && s[i] != '\t'))
			return lines_error(&r->lines, 0, "bad count", s, len);
		r->costs[e] = (int64_t)v;
	}
}

/* Adds the line's costs to `sums`; -1 when one would pass 2^63-1. */
static int add_costs(const struct reader *r, int64_t *sums)
{
	for (size_t e = 0; e < r->n_events; e++)
		if (checked_add_i64(sums[e], r->costs[e], &sums[e]))
			return -1;
	return 0;
}

/* The self cost at `here`, kept as the file says it (model/graph.h). */
static int keep_self(struct reader *r, uint32_t outer, uint32_t here)
{
	struct model_graph *g = &r->m->graph;
	return add_costs(r, model_graph_self_costs(g, model_graph_self_at(g, outer, here)));
}

/* A call's count and inclusive cost, kept as the file says them. */
static int keep_call(struct reader *r, uint32_t outer, uint32_t here)
{
	struct model_graph *g = &r->m->graph;
	struct model_graph_arc key = { outer, r->callee, here, r->callee_object, 0, 0, 0 };
	size_t at = model_graph_arc_at(g, &key);
	if (checked_add_i64(g->arcs[at].calls, r->call_count, &g->arcs[at].calls))
		return -1;
	return add_costs(r, model_graph_arc_costs(g, at) + r->n_events);
}

/* A line of positions and counts: self cost, or a call's position and inclusive cost. */
static int cost_line(struct reader *r, const char *s, size_t len)
{
	size_t i = 0;
	uint64_t pos[2];
	if (!r->n_events)
		return lines_error(&r->lines, 0, "cost line before 'events:'", s, len);
	if (!r->has_fn)
		return lines_error(&r->lines, 0, "cost line before any 'fn='", s, len);
	if (positions(r, s, len, &i, pos) < 0 || counts(r, s, len, i) < 0)
		return -1;
	r->last[0] = pos[0];
	r->last[1] = pos[1];
	int jump = r->jump_pending, call = r->call_pending;
	r->jump_pending = r->call_pending = 0;
	if (jump)
		return 0;
	uint32_t outer = function_of(r, r->ob, r->fn_file, r->fn);
	uint32_t here = location_at(r, function_of(r, r->ob, r->file, r->fn), outer,
				    mapping_of(r, r->ob, r->ob != MODEL_NONE), pos);
	for (size_t e = 0; !call && e < r->n_events; e++)
		if (checked_add_i64(r->self_sum[e], r->costs[e], &r->self_sum[e]))
			r->self_sum[e] = INT64_MAX;
	int rc = call ? callgraph_add_call(r->graph, outer, here, r->callee, r->costs)
		      : callgraph_add_self(r->graph, outer, here, r->costs);
	if (rc == 0)
		rc = call ? keep_call(r, outer, here) : keep_self(r, outer, here);
	return rc < 0 ? lines_errorf(&r->lines, 0, "costs at one position pass 2^63-1") : 0;
}

/* "calls=COUNT TARGET": the callee's target position is checked, not kept (docs). */
static int calls_line(struct reader *r, const char *s, size_t len)
{
	size_t i = strlen("calls=");
	uint64_t count, pos[2];
	if (!r->has_cfn)
		return lines_error(&r->lines, 0, "calls= without cfn= before it", s, len);
	if (!number_at(s, len, &i, &count, 0) || (i < len && s[i] != ' '))
		return lines_error(&r->lines, 0, "bad call count", s, len);
	if (positions(r, s, len, &i, pos) < 0)
		return -1;
	uint32_t file = r->has_cfile ? r->cfile : r->file, object = r->has_cob ? r->cob : r->ob;
	if (checked_i64_of_u64(count, &r->call_count))
		return lines_error(&r->lines, 0, "call count larger than 2^63-1", s, len);
	r->callee = function_of(r, object, file, r->cfn);
	r->callee_object = object == MODEL_NONE ? 0 : object;
	r->has_cfile = r->has_cfn = r->has_cob = 0;
	r->call_pending = 1;
	return 0;
}

struct spec {
	const char *key;
	struct names *(*table)(struct reader *r);
	int is_file;
};

static struct names *objects(struct reader *r) { return &r->objects; }
static struct names *files(struct reader *r) { return &r->files; }
static struct names *fns(struct reader *r) { return &r->fns; }

/* A "key=value" line; what each key sets. */
static int spec_line(struct reader *r, const char *s, size_t len, const char *eq)
{
	static const struct spec specs[] = {
		{ "ob", objects, 0 },  { "cob", objects, 0 }, { "fl", files, 1 },  { "fi", files, 1 },
		{ "fe", files, 1 },    { "cfi", files, 1 },   { "cfl", files, 1 }, { "jfi", files, 1 },
		{ "fn", fns, 0 },      { "cfn", fns, 0 },     { "jfn", fns, 0 },
	};
	size_t klen = (size_t)(eq - s);
	if (starts_with(s, len, "calls="))
		return calls_line(r, s, len);
	if (starts_with(s, len, "jump=") || starts_with(s, len, "jcnd=")) {
		r->jump_pending = 1;
		return 0;
	}
	for (size_t k = 0; k < sizeof specs / sizeof *specs; k++) {
		if (strlen(specs[k].key) != klen || memcmp(s, specs[k].key, klen) != 0)
			continue;
		uint32_t str = 0;
		if (name_value(r, specs[k].table(r), eq + 1, len - klen - 1, specs[k].is_file, &str) < 0)
			return -1;
		/* cob= is the next call's callee's object; without it, the caller's. */
		if (s[0] == 'o') {
			r->ob = str;
		} else if (s[0] == 'c' && s[1] == 'o') {
			r->cob = str;
			r->has_cob = 1;
		} else if (s[0] == 'f' && s[1] == 'n') {
			r->fn = str;
			r->fn_file = r->file;
			r->has_fn = 1;
		} else if (s[0] == 'f') {
			if (s[1] != 'l' && !r->has_fn)
				return lines_error(&r->lines, 0, "fi= or fe= before any fn=", s, len);
			r->file = str;
		} else if (s[0] == 'c' && s[2] == 'n') {
			r->cfn = str;
			r->has_cfn = 1;
		} else if (s[0] == 'c' && s[1] == 'f') {
			r->cfile = str;
			r->has_cfile = 1;
		}
		return 0;
	}
	return lines_error(&r->lines, 0, "unknown line", s, len);
}

/* "positions: instr line" and its kin. */
static int positions_header(struct reader *r, const char *v, size_t len)
{
	r->n_pos = 0;
	for (size_t i = 0; i < len;) {
		while (i < len && v[i] == ' ')
			i++;
		size_t start = i;
		while (i < len && v[i] != ' ')
			i++;
		if (i == start)
			break;
		int kind = i - start == 5 && memcmp(v + start, "instr", 5) == 0 ? POS_ADDR
			   : i - start == 4 && memcmp(v + start, "line", 4) == 0 ? POS_LINE
										   : -1;
		if (kind < 0 || r->n_pos == 2 || (r->n_pos == 1 && r->pos_kind[0] == kind))
			return lines_error(&r->lines, 0, "positions: must be 'instr', 'line' or both", v, len);
		r->pos_kind[r->n_pos++] = kind;
	}
	if (!r->n_pos)
		return lines_error(&r->lines, 0, "positions: names none", v, len);
	return 0;
}

/* The unit of a callgrind event, by what valgrind's tools count. */
static const char *event_unit(const char *name, size_t len)
{
	static const char *const units[][2] = {
		{ "Ir", "instructions" }, { "Dr", "reads" },     { "Dw", "writes" },   { "I1mr", "misses" },
		{ "D1mr", "misses" },     { "D1mw", "misses" },  { "ILmr", "misses" }, { "DLmr", "misses" },
		{ "DLmw", "misses" },     { "I2mr", "misses" },  { "D2mr", "misses" }, { "D2mw", "misses" },
		{ "Bc", "branches" },     { "Bcm", "mispredictions" }, { "Bi", "branches" },
		{ "Bim", "mispredictions" }, { "Ge", "events" }, { "sysCount", "calls" },
		{ "sysTime", "milliseconds" },
	};
	for (size_t i = 0; i < sizeof units / sizeof *units; i++)
		if (strlen(units[i][0]) == len && memcmp(units[i][0], name, len) == 0)
			return units[i][1];
	return "count";
}

/*
 * "event: NAME : LONG NAME (UNIT)", as prof writes it: the unit of NAME.
 * Kept until events: names the events (valgrind writes no such line).
 */
static void event_header(struct reader *r, const char *v, size_t len)
{
	const char *colon = memchr(v, ':', len), *open = NULL;
	size_t n = colon ? (size_t)(colon - v) : 0;
	while (n > 0 && (v[n - 1] == ' ' || v[n - 1] == '\t'))
		n--;
	if (!colon || n == 0 || len < 2 || v[len - 1] != ')')
		return;
	for (const char *p = v + len - 1; p > colon; p--)
		if (*p == '(')
			open = p;
	if (!open || open + 1 == v + len - 1)
		return;
	grow((void **)&r->event_units, &r->cap_event_units, r->n_event_units + 1, sizeof *r->event_units);
	r->event_units[r->n_event_units].name = model_str(r->m, v, n);
	r->event_units[r->n_event_units++].unit = model_str(r->m, open + 1, (size_t)(v + len - 1 - open - 1));
}

/* The unit an event: line gave the event, else what valgrind's tools count. */
static const char *unit_of(struct reader *r, const char *name, size_t len)
{
	uint32_t id = strtab_lookup(&r->m->strings, name, len);
	for (size_t i = r->n_event_units; id != HASHIDX_NONE && i-- > 0;)
		if (r->event_units[i].name == id)
			return model_cstr(r->m, r->event_units[i].unit);
	return event_unit(name, len);
}

static int events_header(struct reader *r, const char *v, size_t len)
{
	if (r->n_events)
		return lines_error(&r->lines, 0, "a second 'events:' line (several parts are not read)", v, len);
	for (size_t i = 0; i < len;) {
		while (i < len && (v[i] == ' ' || v[i] == '\t'))
			i++;
		size_t start = i;
		while (i < len && v[i] != ' ' && v[i] != '\t')
			i++;
		if (i == start)
			break;
		char type[CALLGRIND_EVENT_NAME_MAX + 1];
		size_t n = i - start < sizeof type - 1 ? i - start : sizeof type - 1;
		memcpy(type, v + start, n);
		type[n] = '\0';
		if (n != i - start)
			return lines_error(&r->lines, 0, "event name longer than 255 bytes", v, len);
		if (r->n_events == CALLGRIND_EVENTS_MAX)
			return lines_errorf(&r->lines, 0, "more than %d events", CALLGRIND_EVENTS_MAX);
		model_add_sample_type(r->m, type, unit_of(r, type, n));
		r->n_events++;
	}
	if (!r->n_events)
		return lines_error(&r->lines, 0, "'events:' names no event", v, len);
	r->costs = xcalloc(r->n_events, sizeof *r->costs);
	r->self_sum = xcalloc(r->n_events, sizeof *r->self_sum);
	r->stated = xcalloc(r->n_events, sizeof *r->stated);
	r->graph = callgraph_new(r->m, r->n_events);
	model_graph_begin(&r->m->graph, MODEL_GRAPH_CALLGRIND, r->n_events);
	return 0;
}

/* The counts a summary: or totals: line gives, once events: has named them; malformed ones are 0. */
static void stated_totals(struct reader *r, const char *key, const char *v, size_t len)
{
	if (!r->n_events)
		return;
	r->stated_line = lines_number(&r->lines);
	r->stated_key = key;
	size_t i = 0;
	for (size_t e = 0; e < r->n_events; e++) {
		uint64_t count = 0;
		while (i < len && (v[i] == ' ' || v[i] == '\t'))
			i++;
		r->stated[e] = number_at(v, len, &i, &count, 0) ? (int64_t)count : 0;
	}
}

/*
 * A file cut short (copied or sent before its end) keeps its summary:
 * line but loses cost lines: when what the file states is far above what
 * its cost lines hold (docs/formats/callgrind.md: by more than 1%), it is
 * read as it is, with a warning that says so; 1 then.
 */
static int warn_if_cut_short(struct reader *r)
{
	for (size_t e = 0; r->stated_line && e < r->n_events; e++) {
		int64_t stated = r->stated[e], sum = r->self_sum[e];
		if (stated <= 0 || sum >= stated - stated / 100)
			continue;
		diag_warn(r->lines.in->name, r->stated_line, "%s says %" PRId64 " %s, but the cost lines sum to %" PRId64
			  " (%.1f%%): the file looks cut short; read as it is", r->stated_key, stated,
			  model_cstr(r->m, r->m->sample_types[e].type), sum, 100.0 * (double)sum / (double)stated);
		return 1;
	}
	return 0;
}

/* "key: value": kept in meta as callgrind:KEY; positions and events also read. */
static int header_line(struct reader *r, const char *s, size_t len, size_t colon)
{
	const char *v = s + colon + 1;
	size_t vlen = len - colon - 1;
	while (vlen > 0 && (*v == ' ' || *v == '\t'))
		v++, vlen--;
	if (colon == 7 && starts_with(s, len, "version")) {
		if (!(vlen >= 1 && v[0] == '1' && (vlen == 1 || v[1] == '.')))
			return lines_error(&r->lines, 0, "only callgrind format version 1 is read", s, len);
	} else if (colon == 9 && starts_with(s, len, "positions")) {
		if (r->body)
			return lines_error(&r->lines, 0, "positions: after the first cost", s, len);
		if (positions_header(r, v, vlen) < 0)
			return -1;
	} else if (colon == 5 && starts_with(s, len, "event")) {
		event_header(r, v, vlen);
	} else if (colon == 6 && starts_with(s, len, "events")) {
		if (events_header(r, v, vlen) < 0)
			return -1;
	} else if ((colon == 7 && starts_with(s, len, "summary")) || (colon == 6 && starts_with(s, len, "totals"))) {
		stated_totals(r, s[0] == 's' ? "summary:" : "totals:", v, vlen);
	}
	char key[64] = "callgrind:";
	size_t n = colon < sizeof key - 11 ? colon : sizeof key - 11;
	memcpy(key + 10, s, n);
	model_add_meta(r->m, model_str(r->m, key, 10 + n), model_str(r->m, v, vlen));
	return 0;
}

static int body_line(struct reader *r, const char *s, size_t len)
{
	if (len == 0 || s[0] == '#')
		return 0;
	if (is_digit(s[0]) || s[0] == '+' || s[0] == '-' || s[0] == '*') {
		r->body = 1;
		return cost_line(r, s, len);
	}
	size_t k = 0;
	while (k < len && ((s[k] >= 'a' && s[k] <= 'z') || (s[k] >= 'A' && s[k] <= 'Z')))
		k++;
	if (k > 0 && k < len && s[k] == ':')
		return header_line(r, s, len, k);
	if (r->call_pending || r->jump_pending)
		return lines_error(&r->lines, 0, "no position line after calls= or a jump", s, len);
	if (k > 0 && k < len && s[k] == '=') {
		r->body = 1;
		return spec_line(r, s, len, s + k);
	}
	return lines_error(&r->lines, 0, "unknown line", s, len);
}

static void reader_free(struct reader *r)
{
	names_free(&r->objects);
	names_free(&r->files);
	names_free(&r->fns);
	hashidx_free(&r->mapping_of_object);
	hashidx_free(&r->location_index);
	hashidx_free(&r->first_object_index);
	free(r->first_objects);
	free(r->costs);
	free(r->self_sum);
	free(r->stated);
	free(r->event_units);
	if (r->graph)
		callgraph_free(r->graph);
}

int callgrind_read(struct input *in, struct model *m)
{
	struct reader r;
	memset(&r, 0, sizeof r);
	r.m = m;
	r.n_pos = 1;
	r.pos_kind[0] = POS_LINE;
	r.ob = MODEL_NONE;
	m->rules = (struct model_rules){ 0 };
	const char *s;
	size_t len;
	int rc;
	lines_begin(&r.lines, in);
	while ((rc = lines_next(&r.lines, &s, &len)) != 0)
		if ((rc < 0 || body_line(&r, s, len) < 0) && !lines_go_on(&r.lines))
			break;
	/* A cut file may end anywhere: a call without its position line is what was lost. */
	int cut_short = !r.lines.failed && r.n_events && warn_if_cut_short(&r);
	if (!r.lines.failed && !cut_short && (r.call_pending || r.jump_pending))
		lines_errorf(&r.lines, 0, "the file ends after calls= or a jump, before its position line");
	if (!r.lines.failed && !r.n_events) {
		if (lines_number(&r.lines) == 0)
			diag_error(in->name, 0, "empty input");
		else
			diag_error(in->name, 0, "no 'events:' line: not a callgrind file");
		r.lines.failed = 1;
	}
	if (!r.lines.failed)
		callgraph_samples(r.graph);
	reader_free(&r);
	return r.lines.failed ? -1 : 0;
}
