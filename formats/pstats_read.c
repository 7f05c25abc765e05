/*
 * pstats reader: the marshalled dict Python's cProfile and profile dump,
 * {(file, line, name): (cc, nc, tt, ct, {caller: (nc, cc, tt, ct) or nc})},
 * from Python 2.7 and every Python 3 (marshal versions 2 to 4). A small
 * bounded marshal reader of our own (docs/formats/pstats.md says why)
 * reads every object type, so that the code objects `python -m profile`
 * leaves in keys can be read past, in the layouts of the Pythons that
 * could be tested (2.7, 3.4 to 3.13); another layout is refused.
 *
 * The file is a call graph: each function's self time `tt` is its self
 * cost, each caller's `ct` the inclusive cost of its calls, and the
 * model's call graph (model/callgraph.h) makes the stacks. Call counts
 * (nc, primitive cc) are two more sample types, placed on the arcs.
 * What the file says is also kept as it is, beside the samples
 * (model/graph.h), for the pstats writer to give back.
 * Times are kept in seconds with the fewest decimals that give every
 * time of the file back bit for bit; where none do (the profile module's
 * float sums), with as many as the file's total allows.
 *
 * Memory grows with functions, arcs and the objects marshal may refer
 * back to; a string is at most PSTATS_STRING_MAX bytes, nesting at most
 * PSTATS_DEPTH_MAX deep.
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/checked.h"
#include "../base/diag.h"
#include "../model/callgraph.h"
#include "pstats.h"

enum { PSTATS_STRING_MAX = 1 << 24, PSTATS_DEPTH_MAX = 200, TUPLE_PEEK = 5, KEY_BYTES_MAX = 4096 };

/* What an object read is, as far as a pstats file needs to know. */
enum kind {
	K_PENDING, /* a reference slot whose object is still being read */
	K_END,     /* marshal's NULL: the end of a dict */
	K_INT,
	K_FLOAT,
	K_STR,     /* id: a model string */
	K_CODE,    /* id: the model string naming the code object */
	K_KEY,     /* id: a model function, from a (file, line, name) tuple */
	K_NUMS,    /* a tuple of n numbers at nums[id] */
	K_DICT,    /* n: its pairs */
	K_OTHER,
};

struct number {
	double d;
	int64_t i;
	uint8_t is_int;
};

struct value {
	uint8_t kind;
	uint8_t type; /* marshal's type byte, without the flag */
	uint8_t flagged;
	uint32_t id, n;
	struct number num;
};

/* A function's own statistics, by model function id. */
struct fn_stats {
	struct number cc, nc, tt, ct;
	uint32_t location;
	uint8_t has_entry;
	size_t first_arc, n_arcs; /* its callers, arcs[first_arc ..] */
	int64_t callers_nc;       /* their calls, summed as they are read */
};

/* A caller's line in a callee's entry, kept for every arc until the graph is built: the flag beside the caller, where the int64s' alignment leaves room. */
/*
 * What the graph's making reads of an arc's caller, apart from fns: 16
 * bytes a function, where fn_stats takes 128, so that the lookups of 1.5 M
 * arcs' callers stay in the cache.
 */
struct caller_brief {
	int64_t ct;     /* in units; INT64_MAX: no entry of its own */
	uint32_t site;  /* its location */
};

struct arc_stats {
	uint32_t caller;
	uint8_t bare; /* the profile module's bare count: no times */
	int64_t nc, cc;
	double tt, ct;
};

struct reader {
	struct input *in;
	struct model *m;
	uint64_t offset;
	int flagged; /* a reference flag was seen: marshal version 3 or later, Python 3.4+ */
	int failed;
	unsigned depth;
	struct value *refs;
	size_t n_refs, cap_refs;
	uint32_t *interned; /* Python 2's interned strings, for 'R' */
	size_t n_interned, cap_interned;
	struct number *nums;
	size_t n_nums, cap_nums;
	struct fn_stats *fns;
	size_t cap_fns;
	struct caller_brief *callers; /* by function, cap_fns of them, once the times' decimals are chosen */
	uint32_t *order; /* functions with an entry, in file order */
	size_t n_order, cap_order;
	struct arc_stats *arcs;
	size_t n_arcs, cap_arcs;
	char *text;
	size_t cap_text;
	unsigned decimals;
	double power; /* 10^decimals */
	/*
	 * Keys as the file wrote them, when it writes each whole every time
	 * (marshal version 2 has no references): a key's bytes met again are
	 * its function, without reading its strings again. Each is its
	 * struct key_bytes and its bytes, one after the other in key_text
	 * (one cache line to compare), indexed by where it starts.
	 */
	struct hashidx key_index;
	unsigned char *key_text;
	size_t n_key_text, cap_key_text;
};

struct key_bytes {
	uint32_t len, function;
};

static int fail(struct reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(struct reader *r, const char *fmt, ...)
{
	if (!r->failed) {
		char what[512];
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(what, sizeof what, fmt, ap);
		va_end(ap);
		diag_error(r->in->name, 0, "offset %" PRIu64 ": %s", r->offset, what);
	}
	r->failed = 1;
	return -1;
}

/* The next n bytes, consumed; NULL at the end of input (said) or a read error (said by input). */
static const unsigned char *take(struct reader *r, size_t n)
{
	const unsigned char *p = input_take_buffered(r->in, n);
	if (p) {
		r->offset += n;
		return p;
	}
	long got = input_peek(r->in, n, &p);
	if (got < 0) {
		r->failed = 1;
		return NULL;
	}
	if ((size_t)got < n) {
		fail(r, "the file ends inside an object (%zu bytes short)", n - (size_t)got);
		return NULL;
	}
	input_skip(r->in, n);
	r->offset += n;
	return p;
}

static int skip_bytes(struct reader *r, uint64_t n)
{
	while (n > 0) {
		size_t part = n < 65536 ? (size_t)n : 65536;
		if (!take(r, part))
			return -1;
		n -= part;
	}
	return 0;
}

static int32_t le32(const unsigned char *p)
{
	return (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
}

static uint64_t le64(const unsigned char *p)
{
	return (uint64_t)(uint32_t)le32(p) | (uint64_t)(uint32_t)le32(p + 4) << 32;
}

/* marshal's binary float: an IEEE double, little-endian. */
static double le_double(const unsigned char *p)
{
	uint64_t bits = le64(p);
	double d;
	memcpy(&d, &bits, sizeof d);
	return d;
}

static int read_i32(struct reader *r, int32_t *v)
{
	const unsigned char *p = take(r, 4);
	if (!p)
		return -1;
	*v = le32(p);
	return 0;
}

/* A count or length: an int32 that must be 0 or more. */
static int read_size(struct reader *r, uint32_t *n)
{
	int32_t v;
	if (read_i32(r, &v) < 0)
		return -1;
	if (v < 0)
		return fail(r, "negative size %" PRId32, v);
	*n = (uint32_t)v;
	return 0;
}

static int read_value(struct reader *r, struct value *v);

/* 'l': a count of 15-bit digits, its sign the number's; past int64 it is no number prof keeps. */
static int read_long(struct reader *r, struct value *v)
{
	int32_t n;
	if (read_i32(r, &n) < 0)
		return -1;
	uint64_t digits = n < 0 ? (uint64_t)-(int64_t)n : (uint64_t)n;
	if (digits > 4) {
		v->kind = K_OTHER;
		return skip_bytes(r, digits * 2);
	}
	const unsigned char *p = take(r, (size_t)digits * 2);
	if (!p)
		return -1;
	uint64_t magnitude = 0;
	for (size_t k = digits; k-- > 0;) {
		unsigned digit = p[2 * k] | p[2 * k + 1] << 8;
		if (digit > 0x7fff)
			return fail(r, "a long integer digit above 32767");
		magnitude = magnitude << 15 | digit;
	}
	if (magnitude > INT64_MAX) {
		v->kind = K_OTHER;
		return 0;
	}
	v->num.i = n < 0 ? -(int64_t)magnitude : (int64_t)magnitude;
	return 0;
}

/* 'f': a float as text, its length in one byte (marshal versions 0 and 1). */
static int read_text_float(struct reader *r, double *d)
{
	const unsigned char *p = take(r, 1);
	if (!p)
		return -1;
	size_t len = p[0];
	if (!(p = take(r, len)))
		return -1;
	char text[257], *end;
	memcpy(text, p, len);
	text[len] = '\0';
	*d = strtod(text, &end);
	if (len == 0 || *end != '\0')
		return fail(r, "a float written as text is not a number: '%s'", text);
	return 0;
}

static int read_number(struct reader *r, struct value *v)
{
	const unsigned char *p;
	v->kind = K_INT;
	switch (v->type) {
	case MARSHAL_INT: {
		int32_t i;
		if (read_i32(r, &i) < 0)
			return -1;
		v->num.i = i;
		break;
	}
	case MARSHAL_INT64:
		if (!(p = take(r, 8)))
			return -1;
		v->num.i = (int64_t)le64(p);
		break;
	case MARSHAL_LONG:
		if (read_long(r, v) < 0)
			return -1;
		break;
	case MARSHAL_BINARY_FLOAT:
		if (!(p = take(r, 8)))
			return -1;
		v->kind = K_FLOAT;
		v->num.d = le_double(p);
		return 0;
	default: /* MARSHAL_FLOAT */
		v->kind = K_FLOAT;
		return read_text_float(r, &v->num.d);
	}
	v->num.d = (double)v->num.i;
	v->num.is_int = 1;
	return 0;
}

static int read_string(struct reader *r, struct value *v)
{
	uint32_t len;
	if (v->type == MARSHAL_SHORT_ASCII || v->type == MARSHAL_SHORT_ASCII_INTERNED) {
		const unsigned char *p = take(r, 1);
		if (!p)
			return -1;
		len = p[0];
	} else if (read_size(r, &len) < 0) {
		return -1;
	}
	if (len > PSTATS_STRING_MAX)
		return fail(r, "a string of %" PRIu32 " bytes: prof takes at most %d", len, PSTATS_STRING_MAX);
	const unsigned char *p = take(r, len);
	if (!p)
		return -1;
	v->kind = K_STR;
	v->id = model_str(r->m, (const char *)p, len);
	/* Python 2's interned strings, which 'R' refers to, carry no flag. */
	if (v->type == MARSHAL_INTERNED && !v->flagged) {
		grow((void **)&r->interned, &r->cap_interned, r->n_interned + 1, sizeof *r->interned);
		r->interned[r->n_interned++] = v->id;
	}
	return 0;
}

/* A marshal reference: 'r' to the reference list, Python 2's 'R' to its interned strings. */
static int read_reference(struct reader *r, struct value *v)
{
	uint32_t index;
	if (read_size(r, &index) < 0)
		return -1;
	if (v->type == MARSHAL_STRINGREF) {
		if (index >= r->n_interned)
			return fail(r, "reference to interned string %" PRIu32 " of %zu", index, r->n_interned);
		*v = (struct value){ .kind = K_STR, .type = MARSHAL_INTERNED, .id = r->interned[index] };
		return 0;
	}
	if (index >= r->n_refs)
		return fail(r, "reference to object %" PRIu32 " of %zu", index, r->n_refs);
	if (r->refs[index].kind == K_PENDING)
		return fail(r, "reference to object %" PRIu32 ", which is still being read", index);
	*v = r->refs[index];
	return 0;
}

/* A (file, line, name) tuple is a function. */
static int make_key(struct reader *r, const struct value *item, struct value *v)
{
	if (item[1].num.i < 0 || item[1].num.i > INT32_MAX)
		return fail(r, "a function's line %" PRId64 " is out of range", item[1].num.i);
	struct model_function f = { 0 };
	f.name = f.system_name = item[2].id;
	f.file_name = item[0].id;
	f.start_line = item[1].num.i;
	uint32_t id = model_function(r->m, &f);
	if (id >= r->cap_fns) {
		size_t had = r->cap_fns;
		grow((void **)&r->fns, &r->cap_fns, (size_t)id + 1, sizeof *r->fns);
		memset(r->fns + had, 0, (r->cap_fns - had) * sizeof *r->fns);
	}
	if (!r->fns[id].location)
		r->fns[id].location = model_location(r->m, id, f.start_line) + 1;
	v->kind = K_KEY;
	v->id = id;
	return 0;
}

/* The bytes of a string object that sets no reference and records none (no 't'); 0 if it is not one. */
static size_t plain_string_at(const unsigned char *p, size_t left)
{
	if (left < 2)
		return 0;
	switch (p[0]) {
	case MARSHAL_SHORT_ASCII:
	case MARSHAL_SHORT_ASCII_INTERNED:
		return (size_t)p[1] + 2;
	case MARSHAL_STRING:
	case MARSHAL_UNICODE:
	case MARSHAL_ASCII:
	case MARSHAL_ASCII_INTERNED:
		if (left < 5 || (uint32_t)le32(p + 1) > KEY_BYTES_MAX)
			return 0;
		return (size_t)(uint32_t)le32(p + 1) + 5;
	default:
		return 0;
	}
}

/*
 * How many bytes the three items of a tuple at p take, all in `left`, when
 * they are a key that sets no reference: a plain string, an 'i' and a
 * plain string; 0 when they are not.
 */
static size_t plain_key_at(const unsigned char *p, size_t left)
{
	size_t file = plain_string_at(p, left);
	if (file == 0 || file + 5 >= left || p[file] != MARSHAL_INT)
		return 0;
	size_t name = plain_string_at(p + file + 5, left - file - 5);
	return name && file + 5 + name <= left ? file + 5 + name : 0;
}

/* plain_key_at at the input: 0 too for a key longer than KEY_BYTES_MAX. */
static size_t plain_key_bytes(struct reader *r, const unsigned char **bytes)
{
	long got = input_peek(r->in, KEY_BYTES_MAX, bytes);
	return got > 0 ? plain_key_at(*bytes, (size_t)got) : 0;
}

/* The bytes of a tuple's header for `n` items, unflagged, at p: 0 if it is not one. */
static size_t tuple_header_at(const unsigned char *p, size_t left, uint32_t n)
{
	if (left >= 2 && p[0] == MARSHAL_SMALL_TUPLE && p[1] == n)
		return 2;
	return left >= 5 && p[0] == MARSHAL_TUPLE && (uint32_t)le32(p + 1) == n ? 5 : 0;
}

/*
 * A time prof can scale: 0 or more, finite (NaN fails both tests), and at
 * most 10^15 s, so that a whole number of seconds fits an int64 however
 * few decimals the file's total leaves.
 */
static int finite_time(double seconds)
{
	return seconds >= 0 && seconds <= 1e15;
}

/*
 * A caller's (nc, cc, tt, ct) as Python 2's marshal writes it, and Python
 * 3's where nothing in it is shared: a tuple of two 'i' counts and two 'g'
 * times, none with the reference flag. Read at once: its bytes
 * (plain_stats_at; plain_caller_stats consumes them, 1); 0 when written
 * otherwise, or when a number is one to refuse: read then as any object,
 * which says why.
 */
static size_t plain_stats_at(const unsigned char *p, size_t left, struct arc_stats *a)
{
	size_t at = tuple_header_at(p, left, 4);
	if (at == 0 || at + 28 > left || p[at] != MARSHAL_INT || p[at + 5] != MARSHAL_INT ||
	    p[at + 10] != MARSHAL_BINARY_FLOAT || p[at + 19] != MARSHAL_BINARY_FLOAT)
		return 0;
	int32_t nc = le32(p + at + 1), cc = le32(p + at + 6);
	a->tt = le_double(p + at + 11);
	a->ct = le_double(p + at + 20);
	if (nc < 0 || cc < 0 || !finite_time(a->tt) || !finite_time(a->ct))
		return 0;
	a->nc = nc;
	a->cc = cc;
	return at + 28;
}

/*
 * The bytes of a caller's entry at p when both its key and its statistics
 * are plain (plain_key_bytes, plain_caller_stats), *key_at and *key_len
 * where its key's items lie; 0 when it is not such an entry, or is not all
 * in the `left` bytes.
 */
static size_t plain_entry_at(const unsigned char *p, size_t left, size_t *key_at, size_t *key_len)
{
	size_t at = tuple_header_at(p, left, 3);
	size_t key = at ? plain_key_at(p + at, left - at) : 0, stats = at + key;
	struct arc_stats unused;
	size_t stats_bytes =
		key && key <= KEY_BYTES_MAX && stats < left ? plain_stats_at(p + stats, left - stats, &unused) : 0;
	if (stats_bytes == 0)
		return 0;
	*key_at = at;
	*key_len = key;
	return stats + stats_bytes;
}

/*
 * A lookup of a caller's key misses the cache twice, in the key index and
 * in key_text, both larger than it; misses asked for together overlap. So
 * the plain entries ahead in the buffer are hashed as they come in reach,
 * their slots fetched, then the next KEYS_AHEAD / 2 keys' bytes where
 * those slots point: a look every KEYS_AHEAD / 2 entries of a callers
 * dict, KEYS_AHEAD ahead. What a look found of an entry's layout is kept
 * for known_plain_caller, by entry, modulo KEYS_AHEAD.
 */
enum { KEYS_AHEAD = 16, AHEAD_BYTES = 4096 };

struct keys_ahead {
	uint64_t hash[KEYS_AHEAD];
	uint32_t bytes[KEYS_AHEAD];              /* the entry's */
	uint32_t key_at[KEYS_AHEAD], key_len[KEYS_AHEAD]; /* where its key's items lie in it */
	uint32_t hashed;                         /* entries looked at, from the dict's first */
};

static void look_ahead(struct reader *r, struct keys_ahead *k, uint32_t entry)
{
	const unsigned char *p;
	long got = input_peek(r->in, AHEAD_BYTES, &p);
	if (got <= 0)
		return; /* the end, or a read error, which the input has said and the next read fails on */
	size_t left = (size_t)got, pos = 0, key_at, key_len;
	for (uint32_t e = entry; e < entry + KEYS_AHEAD; e++) {
		size_t n = plain_entry_at(p + pos, left - pos, &key_at, &key_len);
		if (n == 0)
			break;
		if (e >= k->hashed) {
			size_t slot = e % KEYS_AHEAD;
			k->hash[slot] = hash_bytes(p + pos + key_at, key_len);
			hashidx_prefetch(&r->key_index, k->hash[slot]);
			k->bytes[slot] = (uint32_t)n;
			k->key_at[slot] = (uint32_t)key_at;
			k->key_len[slot] = (uint32_t)key_len;
			k->hashed = e + 1;
		}
		pos += n;
	}
	for (uint32_t e = entry; e < entry + KEYS_AHEAD / 2 && e < k->hashed; e++) {
		uint32_t id = hashidx_candidate(&r->key_index, k->hash[e % KEYS_AHEAD]);
		if (id != HASHIDX_NONE)
			__builtin_prefetch(r->key_text + id);
	}
}

/* A key's bytes where they lie in the input. */
struct key_at {
	const unsigned char *bytes;
	uint32_t len;
};

static int key_bytes_eq(const void *ctx, uint32_t at, const void *key)
{
	const unsigned char *text = ((const struct reader *)ctx)->key_text;
	const struct key_at *want = key;
	struct key_bytes have;
	memcpy(&have, text + at, sizeof have);
	return have.len == want->len && memcmp(text + at + sizeof have, want->bytes, want->len) == 0;
}

/*
 * A key whose bytes were met before is their function, its bytes
 * consumed: 1. 0 when they were not: with them copied to the end of
 * key_text for remember_key (*copied set, *h their hash), or, when they
 * are no plain key or past what an index can number, not.
 */
static int known_key(struct reader *r, struct value *v, int *copied, uint64_t *h)
{
	const unsigned char *p;
	size_t len = plain_key_bytes(r, &p);
	if (len == 0 || r->n_key_text > UINT32_MAX / 2)
		return 0;
	struct key_bytes k = { (uint32_t)len, 0 };
	struct key_at key = { p, (uint32_t)len };
	*h = hash_bytes(p, len);
	uint32_t found = hashidx_find(&r->key_index, *h, key_bytes_eq, r, &key);
	if (found == HASHIDX_NONE) {
		grow((void **)&r->key_text, &r->cap_key_text, r->n_key_text + sizeof k + len, 1);
		memcpy(r->key_text + r->n_key_text, &k, sizeof k);
		memcpy(r->key_text + r->n_key_text + sizeof k, p, len);
		*copied = 1;
		return 0;
	}
	input_skip(r->in, len);
	r->offset += len;
	memcpy(&k, r->key_text + found, sizeof k);
	v->kind = K_KEY;
	v->id = k.function;
	v->n = 3;
	return 1;
}

/* The key known_key copied last is `function`'s. */
static void remember_key(struct reader *r, uint64_t h, uint32_t function)
{
	struct key_bytes k;
	unsigned char *at = r->key_text + r->n_key_text;
	memcpy(&k, at, sizeof k);
	k.function = function;
	memcpy(at, &k, sizeof k);
	hashidx_insert(&r->key_index, h, (uint32_t)r->n_key_text);
	r->n_key_text += sizeof k + k.len;
}

/*
 * Tuples, lists, sets: their items read (references inside them may be
 * used later), then what the tuple is to pstats: a function's key, a
 * tuple of numbers (a caller's statistics), or nothing it needs.
 */
static int read_sequence(struct reader *r, struct value *v)
{
	uint32_t n;
	if (v->type == MARSHAL_SMALL_TUPLE) {
		const unsigned char *p = take(r, 1);
		if (!p)
			return -1;
		n = p[0];
	} else if (read_size(r, &n) < 0) {
		return -1;
	}
	int is_tuple = v->type == MARSHAL_TUPLE || v->type == MARSHAL_SMALL_TUPLE;
	uint64_t key_hash = 0;
	int key_copied = 0;
	if (is_tuple && n == 3 && known_key(r, v, &key_copied, &key_hash))
		return 0;
	struct value item[TUPLE_PEEK];
	int numbers = is_tuple;
	for (uint32_t k = 0; k < n; k++) {
		struct value one;
		if (read_value(r, &one) < 0)
			return -1;
		if (one.kind == K_END)
			return fail(r, "a NULL inside a tuple, list or set");
		if (k < TUPLE_PEEK)
			item[k] = one;
		numbers &= one.kind == K_INT || one.kind == K_FLOAT;
	}
	v->kind = K_OTHER;
	v->n = n;
	if (is_tuple && n == 3 && item[0].kind == K_STR && item[1].kind == K_INT &&
	    (item[2].kind == K_STR || item[2].kind == K_CODE)) {
		if (make_key(r, item, v) < 0)
			return -1;
		if (key_copied)
			remember_key(r, key_hash, v->id);
		return 0;
	}
	if (numbers && n > 0 && n <= TUPLE_PEEK) {
		grow((void **)&r->nums, &r->cap_nums, r->n_nums + n, sizeof *r->nums);
		for (uint32_t k = 0; k < n; k++)
			r->nums[r->n_nums + k] = item[k].num;
		v->kind = K_NUMS;
		v->id = (uint32_t)r->n_nums;
		r->n_nums += n;
	}
	return 0;
}

static int read_dict(struct reader *r, struct value *v)
{
	v->kind = K_DICT;
	v->n = 0;
	for (;;) {
		struct value key, value;
		if (read_value(r, &key) < 0)
			return -1;
		if (key.kind == K_END)
			return 0;
		if (read_value(r, &value) < 0)
			return -1;
		if (value.kind == K_END)
			return fail(r, "a dict's key without a value");
		v->n++;
	}
}

/* Objects read past: n of them, the type of the last in *last. */
static int read_past(struct reader *r, int n, int *last)
{
	for (int k = 0; k < n; k++) {
		struct value one;
		if (read_value(r, &one) < 0)
			return -1;
		*last = one.type;
	}
	return 0;
}

static int read_text_of(struct reader *r, struct value *v, const char *what)
{
	if (read_value(r, v) < 0)
		return -1;
	if (v->kind != K_STR)
		return fail(r, "a code object's %s is not a string", what);
	return 0;
}

/* The bytecode: bytes, or a reference to bytes met before. */
static int is_bytes_type(unsigned char byte)
{
	return (byte & ~MARSHAL_FLAG_REF) == MARSHAL_STRING || byte == MARSHAL_REF;
}

/*
 * A code object (`python -m profile` keys its first frame by one): the
 * raw int32 fields before its objects are as many as its Python's layout
 * says, so the layout is told apart before reading them: Python 2.7 has
 * 4 (and its files no reference flags), 3.0 to 3.7 and 3.11 to 3.13 have 5, 3.8 to 3.10 have 6, and the
 * first object is always the bytecode's bytes (or a reference to them),
 * where the other layout has the flags' low byte. Five fields are 3.11's
 * when the fifth object is bytes (co_localspluskinds), else 3.7's (a
 * tuple, co_freevars). Named as Python shows it, less the address.
 */
static int read_code(struct reader *r, struct value *v)
{
	const unsigned char *p;
	long got = input_peek(r->in, 25, &p);
	if (got < 0)
		return r->failed = 1, -1;
	int n_ints = !r->flagged && got > 16 && p[16] == MARSHAL_STRING ? 4
		     : got > 24 && is_bytes_type(p[24]) && !is_bytes_type(p[20]) ? 6
		     : got > 20 && is_bytes_type(p[20]) ? 5 : 0;
	if (n_ints == 0)
		return fail(r, "a code object of a layout prof does not know (it reads Python 2.7's and 3.4 to 3.13's)");
	int type, newer = 0;
	int32_t line;
	struct value file, name, past;
	if (skip_bytes(r, 4 * (uint64_t)n_ints) < 0 || read_past(r, 5, &type) < 0)
		return -1;
	if (n_ints == 5 && type == MARSHAL_STRING)
		newer = 1;
	else if (read_past(r, 1, &type) < 0)
		return -1;
	if (read_text_of(r, &file, "file name") < 0 || read_text_of(r, &name, "name") < 0 ||
	    (newer && read_text_of(r, &past, "qualified name") < 0) || read_i32(r, &line) < 0)
		return -1;
	if (read_past(r, newer ? 2 : 1, &type) < 0)
		return -1;
	const struct strtab_entry *f = strtab_get(&r->m->strings, file.id), *nm = strtab_get(&r->m->strings, name.id);
	size_t need = f->len + nm->len + 64;
	grow((void **)&r->text, &r->cap_text, need, 1);
	int len = snprintf(r->text, need, "<code object %.*s, file \"%.*s\", line %" PRId32 ">", (int)nm->len,
			   nm->bytes, (int)f->len, f->bytes, line);
	v->kind = K_CODE;
	v->id = model_str(r->m, r->text, (size_t)len);
	return 0;
}

static int read_typed(struct reader *r, struct value *v)
{
	switch (v->type) {
	case MARSHAL_NULL:
		v->kind = K_END;
		return 0;
	case MARSHAL_NONE:
	case MARSHAL_FALSE:
	case MARSHAL_TRUE:
	case MARSHAL_STOPITER:
	case MARSHAL_ELLIPSIS:
		v->kind = K_OTHER;
		return 0;
	case MARSHAL_INT:
	case MARSHAL_INT64:
	case MARSHAL_LONG:
	case MARSHAL_FLOAT:
	case MARSHAL_BINARY_FLOAT:
		return read_number(r, v);
	case MARSHAL_COMPLEX:
		v->kind = K_OTHER;
		return read_text_float(r, &v->num.d) < 0 ? -1 : read_text_float(r, &v->num.d);
	case MARSHAL_BINARY_COMPLEX:
		v->kind = K_OTHER;
		return skip_bytes(r, 16);
	case MARSHAL_STRING:
	case MARSHAL_INTERNED:
	case MARSHAL_UNICODE:
	case MARSHAL_ASCII:
	case MARSHAL_ASCII_INTERNED:
	case MARSHAL_SHORT_ASCII:
	case MARSHAL_SHORT_ASCII_INTERNED:
		return read_string(r, v);
	case MARSHAL_TUPLE:
	case MARSHAL_SMALL_TUPLE:
	case MARSHAL_LIST:
	case MARSHAL_SET:
	case MARSHAL_FROZENSET:
		return read_sequence(r, v);
	case MARSHAL_DICT:
		return read_dict(r, v);
	case MARSHAL_CODE:
		return read_code(r, v);
	default:
		return fail(r, "unknown marshal type byte 0x%02x", v->type);
	}
}

/*
 * Any object. One with the reference flag takes the next place in the
 * reference list before its items are read, as Python numbers them.
 */
static int read_value(struct reader *r, struct value *v)
{
	const unsigned char *p = take(r, 1);
	if (!p)
		return -1;
	unsigned char byte = p[0];
	*v = (struct value){ .type = byte & ~MARSHAL_FLAG_REF, .flagged = byte >> 7 };
	if (v->type == MARSHAL_REF || v->type == MARSHAL_STRINGREF)
		return v->flagged ? fail(r, "a flagged reference") : read_reference(r, v);
	r->flagged |= v->flagged;
	if (++r->depth > PSTATS_DEPTH_MAX)
		return fail(r, "objects nested more than %d deep", PSTATS_DEPTH_MAX);
	size_t slot = SIZE_MAX;
	if (byte & MARSHAL_FLAG_REF) {
		grow((void **)&r->refs, &r->cap_refs, r->n_refs + 1, sizeof *r->refs);
		slot = r->n_refs++;
		r->refs[slot] = (struct value){ .kind = K_PENDING };
	}
	int rc = read_typed(r, v);
	r->depth--;
	if (rc == 0 && slot != SIZE_MAX)
		r->refs[slot] = *v;
	return rc;
}

static int whole(struct reader *r, const struct number *n, const char *what, int64_t *out)
{
	if (!n->is_int || n->i < 0)
		return fail(r, "%s is not a whole number of 0 or more", what);
	*out = n->i;
	return 0;
}

static int plain_caller_stats(struct reader *r, struct arc_stats *a)
{
	const unsigned char *p;
	long got = input_peek(r->in, 33, &p);
	size_t n = got > 0 ? plain_stats_at(p, (size_t)got, a) : 0;
	if (n == 0)
		return 0;
	input_skip(r->in, n);
	r->offset += n;
	return 1;
}

/* A caller's statistics as any object: cProfile's (nc, cc, tt, ct), or the profile module's bare count. */
static int read_caller_stats(struct reader *r, struct arc_stats *a)
{
	struct value v;
	if (read_value(r, &v) < 0)
		return -1;
	if (v.kind == K_INT) {
		if (whole(r, &v.num, "a caller's call count", &a->nc) < 0)
			return -1;
		a->bare = 1;
	} else if (v.kind == K_NUMS && v.n == 4) {
		const struct number *n = &r->nums[v.id];
		if (whole(r, &n[0], "a caller's nc", &a->nc) < 0 || whole(r, &n[1], "a caller's cc", &a->cc) < 0)
			return -1;
		if (!finite_time(n[2].d) || !finite_time(n[3].d))
			return fail(r, "a caller's time is negative, not finite or past 10^15 s");
		a->tt = n[2].d;
		a->ct = n[3].d;
		/* Numbers no reference can name again need no room past this. */
		if (!v.flagged && v.id + 4 == r->n_nums)
			r->n_nums = v.id;
	} else {
		return fail(r, "a caller's statistics are neither a count nor a tuple of 4 numbers");
	}
	return 0;
}

/*
 * A caller's statistics, and its calls summed with the others', where a
 * sum past 2^63 can be refused at its offset (Python's ints have no bound).
 */
static int keep_arc(struct reader *r, uint32_t callee, const struct arc_stats *a)
{
	if (checked_add_i64(r->fns[callee].callers_nc, a->nc, &r->fns[callee].callers_nc))
		return fail(r, "a function's callers' call counts add up past 2^63");
	grow((void **)&r->arcs, &r->cap_arcs, r->n_arcs + 1, sizeof *r->arcs);
	r->arcs[r->n_arcs++] = *a;
	return 0;
}

static int read_caller(struct reader *r, uint32_t callee, uint32_t caller)
{
	struct arc_stats a = { .caller = caller };
	if (!plain_caller_stats(r, &a) && read_caller_stats(r, &a) < 0)
		return -1;
	return keep_arc(r, callee, &a);
}

/*
 * Caller entry n, which look_ahead found plain, when its key is one met
 * before and its statistics are none to refuse: its arc kept, its bytes
 * consumed, 1 (-1 when the arc is refused). 0 when not: it is read then
 * as any object.
 */
static int known_plain_caller(struct reader *r, const struct keys_ahead *k, uint32_t n, uint32_t callee)
{
	size_t slot = n % KEYS_AHEAD, bytes = k->bytes[slot], stats = k->key_at[slot] + k->key_len[slot];
	const unsigned char *p;
	if (input_peek(r->in, bytes, &p) != (long)bytes)
		return 0;
	struct key_at key = { p + k->key_at[slot], k->key_len[slot] };
	uint32_t found = hashidx_find(&r->key_index, k->hash[slot], key_bytes_eq, r, &key);
	struct arc_stats a = { .caller = 0 };
	if (found == HASHIDX_NONE || plain_stats_at(p + stats, bytes - stats, &a) != bytes - stats)
		return 0;
	struct key_bytes known;
	memcpy(&known, r->key_text + found, sizeof known);
	a.caller = known.function;
	input_skip(r->in, bytes);
	r->offset += bytes;
	return keep_arc(r, callee, &a) < 0 ? -1 : 1;
}

static int read_callers(struct reader *r, uint32_t callee)
{
	struct fn_stats *f = &r->fns[callee];
	f->first_arc = r->n_arcs;
	const unsigned char *p = take(r, 1);
	if (!p)
		return -1;
	unsigned char byte = p[0];
	if ((byte & ~MARSHAL_FLAG_REF) == MARSHAL_REF) {
		struct value v = { .type = MARSHAL_REF };
		if (read_reference(r, &v) < 0)
			return -1;
		if (v.kind != K_DICT || v.n != 0)
			return fail(r, "an entry's callers refer to an object that is not an empty dict");
		return 0;
	}
	if ((byte & ~MARSHAL_FLAG_REF) != MARSHAL_DICT)
		return fail(r, "an entry's fifth item, its callers, is not a dict");
	size_t slot = SIZE_MAX;
	if (byte & MARSHAL_FLAG_REF) {
		grow((void **)&r->refs, &r->cap_refs, r->n_refs + 1, sizeof *r->refs);
		slot = r->n_refs++;
		r->refs[slot] = (struct value){ .kind = K_PENDING };
	}
	uint32_t n = 0;
	struct keys_ahead ahead; /* read only below `hashed` */
	ahead.hashed = 0;
	for (;; n++) {
		struct value key;
		if (n % (KEYS_AHEAD / 2) == 0)
			look_ahead(r, &ahead, n);
		int known = n < ahead.hashed ? known_plain_caller(r, &ahead, n, callee) : 0;
		if (known < 0)
			return -1;
		if (known)
			continue;
		if (read_value(r, &key) < 0)
			return -1;
		if (key.kind == K_END)
			break;
		if (key.kind != K_KEY)
			return fail(r, "a caller's key is not a (file, line, name) tuple");
		if (read_caller(r, callee, key.id) < 0)
			return -1;
	}
	if (slot != SIZE_MAX)
		r->refs[slot] = (struct value){ .kind = K_DICT, .type = MARSHAL_DICT, .n = n };
	r->fns[callee].n_arcs = r->n_arcs - r->fns[callee].first_arc;
	return 0;
}

/* An entry's value: (cc, nc, tt, ct, callers). */
static int read_entry(struct reader *r, uint32_t fn)
{
	const unsigned char *p = take(r, 1);
	if (!p)
		return -1;
	int type = p[0] & ~MARSHAL_FLAG_REF, flagged = p[0] >> 7;
	uint32_t n;
	if (type == MARSHAL_SMALL_TUPLE) {
		if (!(p = take(r, 1)))
			return -1;
		n = p[0];
	} else if (type != MARSHAL_TUPLE || read_size(r, &n) < 0) {
		return r->failed ? -1 : fail(r, "an entry's statistics are not a tuple");
	}
	if (n != 5)
		return fail(r, "an entry's statistics are %" PRIu32 " items, not 5", n);
	if (flagged) {
		grow((void **)&r->refs, &r->cap_refs, r->n_refs + 1, sizeof *r->refs);
		r->refs[r->n_refs++] = (struct value){ .kind = K_OTHER, .type = (uint8_t)type };
	}
	struct value v[4];
	for (int k = 0; k < 4; k++) {
		if (read_value(r, &v[k]) < 0)
			return -1;
		if (v[k].kind != K_INT && v[k].kind != K_FLOAT)
			return fail(r, "an entry's item %d is not a number", k + 1);
	}
	int64_t count;
	if (whole(r, &v[0].num, "an entry's cc", &count) < 0 || whole(r, &v[1].num, "an entry's nc", &count) < 0)
		return -1;
	if (!finite_time(v[2].num.d) || !finite_time(v[3].num.d))
		return fail(r, "an entry's time is negative, not finite or past 10^15 s");
	struct fn_stats *f = &r->fns[fn];
	f->cc = v[0].num;
	f->nc = v[1].num;
	f->tt = v[2].num;
	f->ct = v[3].num;
	return read_callers(r, fn);
}

static int read_stats(struct reader *r)
{
	const unsigned char *p = take(r, 1);
	if (!p)
		return -1;
	if ((p[0] & ~MARSHAL_FLAG_REF) != MARSHAL_DICT)
		return fail(r, "not a pstats file: it does not start with marshal's dict");
	r->flagged = p[0] >> 7;
	if (r->flagged) {
		grow((void **)&r->refs, &r->cap_refs, 1, sizeof *r->refs);
		r->refs[r->n_refs++] = (struct value){ .kind = K_PENDING };
	}
	for (;;) {
		struct value key;
		if (read_value(r, &key) < 0)
			return -1;
		if (key.kind == K_END)
			return 0;
		if (key.kind != K_KEY)
			return fail(r, "a key is not a (file, line, name) tuple");
		if (r->fns[key.id].has_entry)
			return fail(r, "a function's key is in the file twice");
		r->fns[key.id].has_entry = 1;
		grow((void **)&r->order, &r->cap_order, r->n_order + 1, sizeof *r->order);
		r->order[r->n_order++] = key.id;
		if (read_entry(r, key.id) < 0)
			return -1;
	}
}

/* 10^d for d up to 18 (choose_decimals' most), exact: each is a double. */
static double power10(unsigned d)
{
	static const double power[] = { 1e0,  1e1,  1e2,  1e3,	1e4,  1e5,  1e6,  1e7,	1e8, 1e9,
					1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18 };
	return power[d < sizeof power / sizeof *power ? d : sizeof power / sizeof *power - 1];
}

/*
 * llround for 0 <= x < 2^63, without its call: a time is rounded three
 * times an arc. x - its integer part is exact (below 2^52 the part is; at
 * and above, x is whole).
 */
static int64_t round_time(double x)
{
	int64_t whole = (int64_t)x;
	return whole + (x - (double)whole >= 0.5);
}

/* Does x come back bit for bit as a whole number of 10^-d seconds? */
static int exact_at(double x, unsigned d)
{
	double scaled = x * power10(d);
	if (scaled >= 4e18)
		return 0;
	return (double)round_time(scaled) * pstats_scale(d) == x;
}

static int all_exact_at(const struct reader *r, unsigned d)
{
	for (size_t k = 0; k < r->n_order; k++) {
		const struct fn_stats *f = &r->fns[r->order[k]];
		if (!exact_at(f->tt.d, d) || !exact_at(f->ct.d, d))
			return 0;
	}
	for (size_t k = 0; k < r->n_arcs; k++)
		if (!exact_at(r->arcs[k].tt, d) || !exact_at(r->arcs[k].ct, d))
			return 0;
	return 1;
}

/*
 * The fewest decimals of seconds at which every time is exact (cProfile's
 * are whole nanoseconds, or microseconds in Python 2); else as many as
 * keep the file's largest sum below 2^61.
 */
static unsigned choose_decimals(const struct reader *r)
{
	double bound = 0, sum = 0;
	for (size_t k = 0; k < r->n_order; k++) {
		const struct fn_stats *f = &r->fns[r->order[k]];
		sum += f->tt.d;
		bound = fmax(bound, f->ct.d);
	}
	for (size_t k = 0; k < r->n_arcs; k++)
		bound = fmax(bound, fmax(r->arcs[k].tt, r->arcs[k].ct));
	bound = fmax(bound, sum) * 4;
	unsigned most = 0;
	while (most < 18 && bound * power10(most + 1) < 2.3e18)
		most++;
	/* No d below the fewest that each time needs can do: start there, in one pass. */
	unsigned d = 0;
	for (size_t k = 0; k < r->n_order && d <= most; k++) {
		const struct fn_stats *f = &r->fns[r->order[k]];
		while (d <= most && !(exact_at(f->tt.d, d) && exact_at(f->ct.d, d)))
			d++;
	}
	for (size_t k = 0; k < r->n_arcs && d <= most; k++)
		while (d <= most && !(exact_at(r->arcs[k].tt, d) && exact_at(r->arcs[k].ct, d)))
			d++;
	for (; d <= most; d++)
		if (all_exact_at(r, d))
			return d;
	return most;
}

static int64_t units(const struct reader *r, double seconds)
{
	return round_time(seconds * r->power);
}

/*
 * The profile module's callers carry counts only: the callee's ct goes
 * to its callers (not itself) in proportion to their calls, gprof's
 * assumption, the remainder to the last.
 */
static void split_bare(const struct reader *r, const struct fn_stats *f, uint32_t callee, int64_t *ct_of)
{
	/* Calls of the callers but itself: a part of callers_nc, so no sum can pass 2^63. */
	int64_t calls = f->callers_nc, total = units(r, f->ct.d), given = 0;
	size_t last = SIZE_MAX;
	for (size_t k = 0; k < f->n_arcs; k++) {
		if (r->arcs[f->first_arc + k].caller == callee)
			calls -= r->arcs[f->first_arc + k].nc;
		else
			last = k;
	}
	for (size_t k = 0; k < f->n_arcs; k++) {
		const struct arc_stats *a = &r->arcs[f->first_arc + k];
		ct_of[k] = 0;
		if (a->caller == callee || calls == 0)
			continue;
		ct_of[k] = k == last ? total - given : llround((double)total * ((double)a->nc / (double)calls));
		if (ct_of[k] < 0)
			ct_of[k] = 0;
		given += ct_of[k];
	}
}

/* A function's self time, its callers' inclusive times and the counts, into the graph. */
static int add_function(struct reader *r, struct callgraph *g, uint32_t fn, int64_t **ct_of, size_t *cap)
{
	const struct fn_stats *f = &r->fns[fn];
	int64_t self = units(r, f->tt.d), total = units(r, f->ct.d);
	if (callgraph_add_self(g, fn, f->location - 1, &self) < 0)
		return fail(r, "the times add up past 2^63");
	callgraph_set_total(g, fn, &total);
	grow((void **)ct_of, cap, f->n_arcs + 1, sizeof **ct_of);
	if (f->n_arcs && r->arcs[f->first_arc].bare)
		split_bare(r, f, fn, *ct_of);
	else
		for (size_t k = 0; k < f->n_arcs; k++)
			(*ct_of)[k] = units(r, r->arcs[f->first_arc + k].ct);
	/*
	 * Calls take no more than their caller's ct (its outermost calls hold
	 * them): the profile module's ('profile', 0, 'profiler') has 0, and
	 * Python 3.6's cProfile gives namedtuple's exec 0 while it calls.
	 */
	for (size_t k = 0; k < f->n_arcs; k++) {
		int64_t caller_ct = r->callers[r->arcs[f->first_arc + k].caller].ct;
		if ((*ct_of)[k] > caller_ct)
			(*ct_of)[k] = caller_ct;
	}
	int64_t cc = f->cc.i;
	for (size_t k = 0; k < f->n_arcs; k++) {
		const struct arc_stats *a = &r->arcs[f->first_arc + k];
		uint32_t site = r->callers[a->caller].site;
		/*
		 * The function's primitive calls, exact, go to its callers in
		 * file order, each up to the primitive calls it made (cProfile's;
		 * the profile module counts a caller's calls only), none to itself.
		 */
		int64_t asked = a->caller == fn ? 0 : a->bare ? a->nc : a->cc;
		int64_t counts[2] = { a->nc, asked < cc ? asked : cc };
		if (callgraph_add_distinct_call(g, a->caller, site, fn, &(*ct_of)[k]) < 0)
			return fail(r, "the times add up past 2^63");
		callgraph_add_count(g, a->caller, site, fn, f->location - 1, counts);
		cc -= counts[1];
	}
	/*
	 * Calls from outside the profile (its first function, or a thread's)
	 * are the rest; both counts are 0 to 2^63-1, so their difference fits.
	 */
	int64_t outside[2] = { f->nc.i > f->callers_nc ? f->nc.i - f->callers_nc : 0, cc };
	if (outside[0] || outside[1])
		callgraph_add_count(g, MODEL_NONE, MODEL_NONE, fn, f->location - 1, outside);
	return 0;
}

static void brief_callers(struct reader *r)
{
	r->callers = xmalloc((r->cap_fns + 1) * sizeof *r->callers);
	for (size_t fn = 0; fn < r->cap_fns; fn++)
		r->callers[fn] = (struct caller_brief){ r->fns[fn].has_entry ? units(r, r->fns[fn].ct.d) : INT64_MAX,
							r->fns[fn].location - 1 };
}

/*
 * The file's own figures, kept beside the samples (model/graph.h) so that
 * the pstats writer gives them back: each entry, and its callers in the
 * file's order.
 */
static void keep_graph(struct reader *r)
{
	struct model_graph *g = &r->m->graph;
	model_graph_begin(g, MODEL_GRAPH_PSTATS, 1);
	for (size_t k = 0; k < r->n_order; k++) {
		const struct fn_stats *f = &r->fns[r->order[k]];
		struct model_graph_function kept = { r->order[k], f->nc.i, f->cc.i };
		int64_t *costs = model_graph_function_costs(g, model_graph_add_function(g, &kept));
		costs[0] = units(r, f->tt.d);
		costs[1] = units(r, f->ct.d);
		for (size_t i = 0; i < f->n_arcs; i++) {
			const struct arc_stats *a = &r->arcs[f->first_arc + i];
			struct model_graph_arc arc = { a->caller, r->order[k], r->callers[a->caller].site, 0,
						       a->nc, a->cc, a->bare };
			costs = model_graph_arc_costs(g, model_graph_add_arc(g, &arc));
			costs[0] = units(r, a->tt);
			costs[1] = units(r, a->ct);
		}
	}
}

/* Frees what was read; again, nothing. */
static void reader_free(struct reader *r)
{
	free(r->refs);
	free(r->interned);
	free(r->nums);
	free(r->fns);
	free(r->callers);
	free(r->order);
	free(r->arcs);
	free(r->text);
	hashidx_free(&r->key_index);
	free(r->key_text);
	r->refs = NULL;
	r->interned = NULL;
	r->nums = NULL;
	r->fns = NULL;
	r->callers = NULL;
	r->order = NULL;
	r->arcs = NULL;
	r->text = NULL;
	r->key_text = NULL;
}

static int build(struct reader *r)
{
	struct model *m = r->m;
	r->decimals = choose_decimals(r);
	r->power = power10(r->decimals);
	model_add_sample_type(m, PSTATS_TIME_TYPE, "seconds");
	model_add_sample_type(m, PSTATS_CALLS_TYPE, "count");
	model_add_sample_type(m, PSTATS_PRIMITIVE_CALLS_TYPE, "count");
	model_add_decimals(m, 0, r->decimals);
	model_set_meta(m, "default_sample_type", PSTATS_TIME_TYPE);
	brief_callers(r);
	keep_graph(r);
	struct callgraph *g = callgraph_new(m, 1);
	int64_t *ct_of = NULL;
	size_t cap = 0;
	int rc = 0;
	for (size_t k = 0; k < r->n_order && rc == 0; k++)
		rc = add_function(r, g, r->order[k], &ct_of, &cap);
	free(ct_of);
	/* What was read is in the graphs now: its room is the stacks' to take. */
	reader_free(r);
	if (rc == 0)
		callgraph_samples(g);
	callgraph_free(g);
	return rc;
}


int pstats_read(struct input *in, struct model *m)
{
	struct reader r;
	memset(&r, 0, sizeof r);
	r.in = in;
	r.m = m;
	m->rules.strict_r = 0;
	int rc = read_stats(&r);
	if (rc == 0) {
		const unsigned char *p;
		long after = input_peek(in, 1, &p);
		if (after > 0)
			diag_warn(in->name, 0, "offset %" PRIu64 ": bytes after the statistics, ignored as Python ignores them",
				  r.offset);
		rc = after < 0 ? -1 : build(&r);
	}
	reader_free(&r);
	return rc;
}
