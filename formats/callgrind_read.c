/*
 * callgrind reader. A callgrind file is a call graph, not stacks: each
 * function's self cost per position, and per call arc the inclusive cost
 * of the calls. The reader gathers both in one pass, then builds stacks
 * by decomposing each event's flow from the functions nobody calls (and
 * what called functions start by themselves, a thread's clone()) down
 * the arcs (docs/formats/callgrind.md says why and what it means):
 *
 *  - a function's self cost at a position is a sample whose innermost
 *    frame is that position, under the callers of the path that carried
 *    the flow there; call arcs are taken in file order, each for at most
 *    its inclusive cost, and never into a function already on the path
 *    (that part of a recursive function's inclusive cost is counted again
 *    by callgrind, already inside the outer call);
 *  - self cost that no path reaches (an inconsistent file, a function
 *    called only from code callgrind did not collect) is a sample of its
 *    own, so every self cost is kept exactly: prof's total is the sum
 *    of the cost lines.
 *
 * A function is keyed by its file at the cost line and its name, as
 * callgrind_annotate keys it (code in `fi=` files is the function of
 * that file, inlined into the `fn=` one); objects are mappings,
 * instruction addresses location addresses. Header lines are kept in
 * meta as "callgrind:KEY". Memory grows with positions and arcs, never
 * with the lines that repeat them.
 */
#include <stdlib.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/diag.h"
#include "../io/lines.h"
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

/* Self cost at a location of a function; values in reader.self_values, n_events each. */
struct self_cost {
	uint32_t location, function;
};

/* Calls from a position in a function to another function. */
struct arc {
	uint32_t site, caller, callee; /* a location; two functions */
};

/* Per function, what its flow may go to, in file order: a self cost or an arc. */
struct out_entry {
	uint32_t function;
	uint32_t index;
	uint8_t is_arc;
};

struct reader {
	struct lines lines;
	struct model *m;
	size_t n_events;
	int n_pos;
	int pos_kind[2];
	int body; /* a body line was read: the header is over */
	struct names objects, files, fns;
	struct hashidx mapping_of_object, location_index, arc_index;
	/* The current position lines. */
	uint32_t ob, file, fn;
	uint32_t fn_file; /* the file current at fn=: the function's own, as calls name it */
	int has_fn;
	uint32_t cfile, cfn;
	int has_cfile, has_cfn;
	uint64_t last[2]; /* the last cost line's subpositions */
	/* The line after calls= (or a jump) is the call's position and its inclusive cost. */
	int call_pending, jump_pending;
	uint32_t callee;
	int64_t *costs; /* one cost line's counts */
	struct event_unit {
		uint32_t name, unit;
	} *event_units;
	size_t n_event_units, cap_event_units;
	struct self_cost *selfs;
	size_t n_selfs, cap_selfs;
	int64_t *self_values;
	size_t cap_self_values;
	struct arc *arcs;
	size_t n_arcs, cap_arcs;
	int64_t *arc_values;
	size_t cap_arc_values;
	struct out_entry *entries;
	size_t n_entries, cap_entries;
	uint32_t *self_of_location; /* by location id: its self cost + 1, 0 for none */
	size_t cap_self_of_location;
};

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int starts(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);
	return len >= n && memcmp(s, prefix, n) == 0;
}

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

static uint32_t function_of(struct reader *r, uint32_t file, uint32_t name)
{
	struct model_function f = { 0 };
	f.name = f.system_name = name;
	f.file_name = file;
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

/* values += costs; -1 after reporting a sum past 2^63-1. */
static int add_costs(struct reader *r, int64_t *values)
{
	for (size_t e = 0; e < r->n_events; e++)
		if (__builtin_add_overflow(values[e], r->costs[e], &values[e]))
			return lines_errorf(&r->lines, 0, "costs at one position pass 2^63-1");
	return 0;
}

static void add_entry(struct reader *r, uint32_t function, size_t index, int is_arc)
{
	grow((void **)&r->entries, &r->cap_entries, r->n_entries + 1, sizeof *r->entries);
	r->entries[r->n_entries++] = (struct out_entry){ function, (uint32_t)index, (uint8_t)is_arc };
}

/* Self cost at a location of function `outer`, whose flow places it. */
static int self_line(struct reader *r, uint32_t location, uint32_t outer)
{
	if (location >= r->cap_self_of_location) {
		size_t had = r->cap_self_of_location;
		grow((void **)&r->self_of_location, &r->cap_self_of_location, location + 1,
		     sizeof *r->self_of_location);
		memset(r->self_of_location + had, 0, (r->cap_self_of_location - had) * sizeof *r->self_of_location);
	}
	if (r->self_of_location[location] == 0) {
		size_t n = r->n_selfs;
		grow((void **)&r->selfs, &r->cap_selfs, n + 1, sizeof *r->selfs);
		grow((void **)&r->self_values, &r->cap_self_values, (n + 1) * r->n_events, sizeof *r->self_values);
		memset(r->self_values + n * r->n_events, 0, r->n_events * sizeof *r->self_values);
		r->selfs[n] = (struct self_cost){ location, outer };
		r->self_of_location[location] = (uint32_t)++r->n_selfs;
		add_entry(r, r->selfs[n].function, n, 0);
	}
	return add_costs(r, r->self_values + (r->self_of_location[location] - 1) * r->n_events);
}

static int arc_eq(const void *ctx, uint32_t id, const void *key)
{
	const struct arc *a = &((const struct reader *)ctx)->arcs[id], *k = key;
	return a->site == k->site && a->callee == k->callee;
}

static int call_line(struct reader *r, uint32_t site, uint32_t outer)
{
	struct arc k = { site, outer, r->callee };
	uint64_t h = hash_mix(site, r->callee);
	uint32_t at = hashidx_find(&r->arc_index, h, arc_eq, r, &k);
	if (at == HASHIDX_NONE) {
		size_t n = r->n_arcs;
		grow((void **)&r->arcs, &r->cap_arcs, n + 1, sizeof *r->arcs);
		grow((void **)&r->arc_values, &r->cap_arc_values, (n + 1) * r->n_events, sizeof *r->arc_values);
		memset(r->arc_values + n * r->n_events, 0, r->n_events * sizeof *r->arc_values);
		r->arcs[n] = k;
		at = (uint32_t)r->n_arcs++;
		hashidx_insert(&r->arc_index, h, at);
		add_entry(r, k.caller, at, 1);
	}
	return add_costs(r, r->arc_values + (size_t)at * r->n_events);
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
	uint32_t outer = function_of(r, r->fn_file, r->fn);
	uint32_t here = location_at(r, function_of(r, r->file, r->fn), outer,
				    mapping_of(r, r->ob, r->ob != MODEL_NONE), pos);
	return call ? call_line(r, here, outer) : self_line(r, here, outer);
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
	uint32_t file = r->has_cfile ? r->cfile : r->file;
	r->callee = function_of(r, file, r->cfn);
	r->has_cfile = r->has_cfn = 0;
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
	if (starts(s, len, "calls="))
		return calls_line(r, s, len);
	if (starts(s, len, "jump=") || starts(s, len, "jcnd=")) {
		r->jump_pending = 1;
		return 0;
	}
	for (size_t k = 0; k < sizeof specs / sizeof *specs; k++) {
		if (strlen(specs[k].key) != klen || memcmp(s, specs[k].key, klen) != 0)
			continue;
		uint32_t str = 0;
		if (name_value(r, specs[k].table(r), eq + 1, len - klen - 1, specs[k].is_file, &str) < 0)
			return -1;
		/* cob= only names ids: the callee's object comes with its own fn= lines. */
		if (s[0] == 'o') {
			r->ob = str;
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
	return 0;
}

/* "key: value": kept in meta as callgrind:KEY; positions and events also read. */
static int header_line(struct reader *r, const char *s, size_t len, size_t colon)
{
	const char *v = s + colon + 1;
	size_t vlen = len - colon - 1;
	while (vlen > 0 && (*v == ' ' || *v == '\t'))
		v++, vlen--;
	if (colon == 7 && starts(s, len, "version")) {
		if (!(vlen >= 1 && v[0] == '1' && (vlen == 1 || v[1] == '.')))
			return lines_error(&r->lines, 0, "only callgrind format version 1 is read", s, len);
	} else if (colon == 9 && starts(s, len, "positions")) {
		if (r->body)
			return lines_error(&r->lines, 0, "positions: after the first cost", s, len);
		if (positions_header(r, v, vlen) < 0)
			return -1;
	} else if (colon == 5 && starts(s, len, "event")) {
		event_header(r, v, vlen);
	} else if (colon == 6 && starts(s, len, "events")) {
		if (events_header(r, v, vlen) < 0)
			return -1;
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

static int64_t min64(int64_t a, int64_t b)
{
	return a < b ? a : b;
}

/* One function on the path that carries flow, with what it has left to place. */
struct frame {
	uint32_t function;
	uint32_t callers; /* the stack above it */
	int64_t left, asked;
	size_t next;      /* its next out entry */
	uint32_t arc;     /* the arc whose callee is the frame above; MODEL_NONE */
};

struct flow {
	struct reader *r;
	size_t event;
	size_t *first;   /* by function: its out entries are first[f] .. first[f+1] */
	size_t *start;   /* by function: entries before it are spent, for this event */
	int64_t *brought; /* by function: the event's cost of the calls into it from others */
	int64_t *own;     /* by function: the flow it starts by itself (own_flow) */
	struct out_entry *sorted;
	uint8_t *on_path;
	struct frame *path;
	size_t depth, cap_path;
	int64_t *values;
};

static void emit(struct flow *f, uint32_t location, uint32_t callers, int64_t value)
{
	memset(f->values, 0, f->r->n_events * sizeof *f->values);
	f->values[f->event] = value;
	model_add_sample(f->r->m, model_stack(f->r->m, location, callers), f->values, NULL, 0);
}

static void push(struct flow *f, uint32_t function, uint32_t callers, int64_t amount)
{
	grow((void **)&f->path, &f->cap_path, f->depth + 1, sizeof *f->path);
	f->path[f->depth++] = (struct frame){ function, callers, amount, amount, f->start[function], MODEL_NONE };
	f->on_path[function] = 1;
}

/* The frame on top has placed what it could: its caller's arc spends that much. */
static void pop(struct flow *f)
{
	struct frame *done = &f->path[--f->depth];
	int64_t placed = done->asked - done->left;
	f->on_path[done->function] = 0;
	if (!f->depth)
		return;
	struct frame *caller = &f->path[f->depth - 1];
	int64_t *budget = &f->r->arc_values[(size_t)caller->arc * f->r->n_events + f->event];
	/* An arc that could not place all it was asked can place nothing more. */
	*budget = placed < done->asked ? 0 : *budget - placed;
	caller->left -= placed;
	caller->arc = MODEL_NONE;
}

/* Takes the top frame's next out entry: a self cost placed, or flow down an arc. */
static void step(struct flow *f)
{
	struct reader *r = f->r;
	struct frame *top = &f->path[f->depth - 1];
	const struct out_entry *e = &f->sorted[top->next++];
	int64_t *budget = (e->is_arc ? r->arc_values : r->self_values) + (size_t)e->index * r->n_events + f->event;
	int64_t take = min64(top->left, *budget);
	/* Spent entries at the front are not looked at again: each push would rescan them. */
	if (*budget <= 0 && top->next - 1 == f->start[top->function])
		f->start[top->function]++;
	if (take <= 0)
		return;
	if (!e->is_arc) {
		emit(f, r->selfs[e->index].location, top->callers, take);
		*budget -= take;
		top->left -= take;
		return;
	}
	const struct arc *a = &r->arcs[e->index];
	if (f->on_path[a->callee])
		return;
	top->arc = e->index;
	push(f, a->callee, model_stack(r->m, a->site, top->callers), take);
}

/*
 * The flow a function starts by itself: its self cost and its calls, less
 * what its callers bring. All of it for a function nobody calls; for one
 * that is also called, what is left is where it starts too (clone() in
 * the thread it makes, code called from where callgrind did not collect).
 * Calls into itself are neither: they are inside its outer call.
 */
static int64_t own_flow(const struct flow *f, uint32_t function)
{
	int64_t sum = 0;
	for (size_t i = f->first[function]; i < f->first[function + 1]; i++) {
		const struct out_entry *e = &f->sorted[i];
		const int64_t *v = e->is_arc ? f->r->arc_values : f->r->self_values;
		if (e->is_arc && f->r->arcs[e->index].callee == function)
			continue;
		if (__builtin_add_overflow(sum, v[(size_t)e->index * f->r->n_events + f->event], &sum))
			sum = INT64_MAX;
	}
	return sum - f->brought[function];
}

static void flow_from(struct flow *f, uint32_t function, int64_t amount)
{
	push(f, function, MODEL_EMPTY_STACK, amount);
	while (f->depth) {
		struct frame *top = &f->path[f->depth - 1];
		if (top->left == 0 || top->next == f->first[top->function + 1])
			pop(f);
		else
			step(f);
	}
}

/*
 * Functions nobody calls first, then what called functions start by
 * themselves, so that callers' flow reaches its callees first.
 */
static void decompose_event(struct flow *f)
{
	struct reader *r = f->r;
	size_t n = r->m->n_functions;
	memcpy(f->start, f->first, n * sizeof *f->start);
	memset(f->brought, 0, n * sizeof *f->brought);
	for (size_t i = 0; i < r->n_arcs; i++) {
		const struct arc *a = &r->arcs[i];
		int64_t *in = &f->brought[a->callee];
		if (a->caller != a->callee &&
		    __builtin_add_overflow(*in, r->arc_values[i * r->n_events + f->event], in))
			*in = INT64_MAX;
	}
	for (uint32_t fn = 0; fn < n; fn++)
		f->own[fn] = f->first[fn] == f->first[fn + 1] ? 0 : own_flow(f, fn);
	for (int called = 0; called < 2; called++)
		for (uint32_t fn = 0; fn < n; fn++)
			if ((f->brought[fn] > 0) == called && f->own[fn] > 0)
				flow_from(f, fn, f->own[fn]);
	/* What no path reached is a sample of its own: self costs are kept exactly. */
	for (size_t i = 0; i < r->n_selfs; i++) {
		int64_t *left = &r->self_values[i * r->n_events + f->event];
		if (*left > 0)
			emit(f, r->selfs[i].location, MODEL_EMPTY_STACK, *left);
		*left = 0;
	}
}

/* The stacks, event by event, from the graph read (see the top of the file). */
static void decompose(struct reader *r)
{
	struct model *m = r->m;
	size_t n = m->n_functions;
	struct flow f = { r, 0, xcalloc(n + 1, sizeof *f.first), xcalloc(n + 1, sizeof *f.start),
			  xcalloc(n + 1, sizeof *f.brought), xcalloc(n + 1, sizeof *f.own),
			  xmalloc((r->n_entries + 1) * sizeof *f.sorted), xcalloc(n + 1, 1), NULL, 0, 0,
			  xcalloc(r->n_events, sizeof *f.values) };
	for (size_t i = 0; i < r->n_entries; i++)
		f.first[r->entries[i].function + 1]++;
	for (size_t i = 0; i < n; i++)
		f.first[i + 1] += f.first[i];
	size_t *fill = xmalloc((n + 1) * sizeof *fill);
	memcpy(fill, f.first, (n + 1) * sizeof *fill);
	for (size_t i = 0; i < r->n_entries; i++)
		f.sorted[fill[r->entries[i].function]++] = r->entries[i];
	free(fill);
	for (f.event = 0; f.event < r->n_events; f.event++)
		decompose_event(&f);
	free(f.first);
	free(f.start);
	free(f.brought);
	free(f.own);
	free(f.sorted);
	free(f.on_path);
	free(f.path);
	free(f.values);
}

static void reader_free(struct reader *r)
{
	names_free(&r->objects);
	names_free(&r->files);
	names_free(&r->fns);
	hashidx_free(&r->mapping_of_object);
	hashidx_free(&r->location_index);
	hashidx_free(&r->arc_index);
	free(r->costs);
	free(r->event_units);
	free(r->selfs);
	free(r->self_values);
	free(r->arcs);
	free(r->arc_values);
	free(r->entries);
	free(r->self_of_location);
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
	if (!r.lines.failed && (r.call_pending || r.jump_pending))
		lines_errorf(&r.lines, 0, "the file ends after calls= or a jump, before its position line");
	if (!r.lines.failed && !r.n_events) {
		if (lines_number(&r.lines) == 0)
			diag_error(in->name, 0, "empty input");
		else
			diag_error(in->name, 0, "no 'events:' line: not a callgrind file");
		r.lines.failed = 1;
	}
	if (!r.lines.failed)
		decompose(&r);
	reader_free(&r);
	return r.lines.failed ? -1 : 0;
}
