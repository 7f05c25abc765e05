/*
 * What the Java Flight Recorder reader's parts share (docs/formats/jfr.md):
 * jfr_decode.c reads a chunk's values (integers, strings, any value by
 * its class), jfr_meta.c its metadata event's classes and its
 * checkpoints' constant pools, jfr_stack.c what the pools' stack traces,
 * threads and states become in the model, jfr_read.c turns the chunks'
 * events into samples. Every read goes through a cursor that stops at the
 * end of its event: a read past it leaves the cursor `bad` and every
 * later read returns zeros, so callers check once per value, not per
 * byte.
 */
#ifndef PROF_JFR_H
#define PROF_JFR_H

#include <stdint.h>

#include "../base/hashidx.h"
#include "../base/spill.h"
#include "format.h"

int jfr_read(struct input *in, struct model *m);

/* How a class's values are written: primitives by their width, the rest field by field. */
enum jfr_kind {
	JFR_STRUCT, JFR_BOOLEAN, JFR_BYTE, JFR_CHAR, JFR_SHORT, JFR_INT, JFR_LONG,
	JFR_FLOAT, JFR_DOUBLE, JFR_STRING,
};

/* A piece of the names arena (jfr_chunk.names). */
struct jfr_text {
	uint32_t at, len;
};

/* How a field's number counts time (jdk.jfr.Timespan's value). */
enum jfr_timespan { JFR_NO_SPAN, JFR_TICKS, JFR_NANOSECONDS, JFR_MICROSECONDS, JFR_MILLISECONDS, JFR_SECONDS };

struct jfr_field {
	struct jfr_text name;
	uint64_t type_id;
	uint32_t type;   /* class index */
	uint8_t pool;    /* the value is a constant pool key */
	uint8_t array;
	uint8_t timespan;
};

/* What the events of one class become; filled at its first event. */
struct jfr_event_plan {
	uint8_t planned, sample;   /* sample: it has a stack trace */
	int32_t stack, time, thread, state, weight; /* field indexes; -1: none */
	int32_t object_class;      /* an allocation's class (objectClass), its stack's leaf; -1: none */
	uint32_t last_needed;      /* fields past it are not read */
	uint8_t longs;             /* every field up to it is one LEB128 number: a long or a pool key */
	uint32_t event_type;       /* what the reader made of its events */
};

struct jfr_class {
	uint64_t id;
	struct jfr_text name;
	uint8_t kind;
	uint8_t empty; /* its values take no bytes: no field holds anything */
	uint32_t first_field, n_fields;
	struct jfr_event_plan plan;
};

/* A metadata or checkpoint event, copied whole into jfr_chunk.kept. */
struct jfr_piece {
	uint64_t kept_at, chunk_at, len;
};

struct jfr_pool_entry {
	uint32_t type, piece;
	uint64_t key;
	uint64_t at; /* where the value starts in jfr_chunk.kept */
};

/* A growable byte buffer for decoded strings. */
struct jfr_bytes {
	char *s;
	size_t len, cap;
};

/*
 * One chunk: its metadata and checkpoint events, kept in memory, and what
 * they say. Its other events pass through (jfr_read.c).
 */
struct jfr_chunk {
	const char *file;   /* for messages */
	uint64_t file_at;   /* where the chunk starts in the file */
	unsigned char *kept;
	size_t kept_len, kept_cap;
	struct jfr_piece *pieces;
	size_t n_pieces, cap_pieces;
	int compressed;     /* integers are LEB128 */
	int64_t start_ns, start_ticks, ticks_per_second;
	double ns_per_tick;
	struct jfr_class *classes;
	size_t n_classes, cap_classes;
	struct hashidx class_index;
	struct jfr_field *fields;
	size_t n_fields, cap_fields;
	char *names;        /* the metadata's strings, decoded to UTF-8 */
	size_t names_len, names_cap;
	struct jfr_pool_entry *pool;
	size_t n_pool, cap_pool;
	struct hashidx pool_index;
	uint32_t string_type; /* java.lang.String's class: its pool holds strings; UINT32_MAX: none */
	int failed;         /* an error was reported */
};

/* Reads `bytes` of a chunk from `at` up to `end`. */
struct jfr_cursor {
	struct jfr_chunk *c;
	const unsigned char *bytes;
	uint64_t at, end;
	uint64_t chunk_at; /* where bytes[0] is in the chunk, for messages (modulo 2^64) */
	int bad; /* a read went past end, or a value was malformed */
	const char *why; /* what was malformed (NULL: cut short) */
	uint64_t bad_at; /* where the first bad read began, in the chunk */
};

static inline struct jfr_cursor jfr_cursor(struct jfr_chunk *c, const unsigned char *bytes, uint64_t at, uint64_t end,
					   uint64_t chunk_at)
{
	struct jfr_cursor k = { c, bytes, at, end, chunk_at, 0, NULL, 0 };
	return k;
}

/* Marks the cursor bad at its place, for `why` (NULL: cut short), unless it is already. */
void jfr_bad(struct jfr_cursor *k, const char *why);

/* A cursor over kept piece `piece`, a whole metadata or checkpoint event. */
struct jfr_cursor jfr_piece_cursor(struct jfr_chunk *c, uint32_t piece);

/* Reports "offset N: ..." (N from the file's start) once per chunk; returns -1. */
int jfr_error(struct jfr_chunk *c, uint64_t at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

void jfr_chunk_reset(struct jfr_chunk *c);
void jfr_chunk_free(struct jfr_chunk *c);

uint64_t jfr_get_long_at(struct jfr_cursor *k);
uint32_t jfr_get_int_at(struct jfr_cursor *k);

/*
 * A LEB128 number of up to four bytes, read inline: keys take one or two,
 * a sample's ticks three or four, and event sizes four (the JVM pads them
 * to patch them in place). 1 when it was one; 0 leaves the cursor as it
 * was, for the whole read.
 */
static inline int jfr_short_leb128(struct jfr_cursor *k, uint64_t *v)
{
	if (!k->c->compressed || k->end - k->at < 4) {
		if (k->c->compressed && k->at < k->end && k->bytes[k->at] < 0x80) {
			*v = k->bytes[k->at++];
			return 1;
		}
		return 0;
	}
	/* Without a branch per byte, whose outcome the lengths' mix makes a guess. */
	const unsigned char *p = k->bytes + k->at;
	uint32_t w = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
	uint32_t stops = ~w & 0x80808080u; /* the high bit of each byte that ends a number */
	if (!stops)
		return 0;
	w &= stops ^ (stops - 1); /* the bytes up to the first that ends it */
	k->at += (unsigned)__builtin_ctz(stops) / 8 + 1;
	*v = (w & 0x7f) | (w >> 1 & 0x3f80) | (w >> 2 & 0x1fc000) | (w >> 3 & 0xfe00000);
	return 1;
}

static inline uint64_t jfr_get_long(struct jfr_cursor *k)
{
	uint64_t v;
	return jfr_short_leb128(k, &v) ? v : jfr_get_long_at(k);
}

static inline uint32_t jfr_get_int(struct jfr_cursor *k)
{
	uint64_t v;
	return jfr_short_leb128(k, &v) ? (uint32_t)v : jfr_get_int_at(k);
}
uint8_t jfr_get_byte(struct jfr_cursor *k);
/* A count of items that each take a byte or more: past the bytes left, the cursor is bad. */
uint64_t jfr_get_count(struct jfr_cursor *k);
/* A string in any encoding, appended to `out` as UTF-8 (NULL: skipped). */
void jfr_get_string(struct jfr_cursor *k, struct jfr_bytes *out);
/* Skips one value of a field (an array's every element). */
void jfr_skip_field(struct jfr_cursor *k, const struct jfr_field *f);
/* A whole number of a field: its integer, a pool key, 0 for other kinds (skipped). */
uint64_t jfr_get_number(struct jfr_cursor *k, const struct jfr_field *f);

/* Is the text `t` the C string `s`? */
int jfr_text_is(const struct jfr_chunk *c, struct jfr_text t, const char *s);
/* The field of class `type` named `name`, as an index into its fields; -1: none. */
int32_t jfr_field_named(const struct jfr_chunk *c, uint32_t type, const char *name);
/* The class with this id; UINT32_MAX: none. */
uint32_t jfr_class_of_id(const struct jfr_chunk *c, uint64_t id);
/* The class with this name; UINT32_MAX: none. */
uint32_t jfr_class_named(const struct jfr_chunk *c, const char *name);

/* Reads the metadata event kept as `piece`: the chunk's classes. 0, or -1 after reporting. */
int jfr_read_metadata(struct jfr_chunk *c, uint32_t piece);
/* Adds the constant pools of the checkpoint event kept as `piece`. 0, or -1 after reporting. */
int jfr_read_checkpoint(struct jfr_chunk *c, uint32_t piece);
/*
 * A cursor at the value of pool `type`'s entry `key`, up to the end of its
 * checkpoint event; bad (and why NULL) when there is none.
 */
struct jfr_cursor jfr_pool_value(struct jfr_chunk *c, uint32_t type, uint64_t key);

/*
 * Moves the cursor, at a value of class `type`, to its field `index`;
 * its earlier fields are skipped.
 */
void jfr_seek_field(struct jfr_cursor *k, uint32_t type, int32_t index);
/*
 * The text a field's value stands for, appended to `out`: a string, or
 * through pool keys and structs the text of the struct's field "string",
 * "name" or "description" (Symbol, Class, Method, ThreadState,
 * FrameType). 1, 0 when there is none (null, or a key not in its pool).
 */
int jfr_field_text(struct jfr_cursor *k, const struct jfr_field *f, struct jfr_bytes *out);

static inline const struct jfr_field *jfr_field_at(const struct jfr_chunk *c, uint32_t type, int32_t index)
{
	return &c->fields[c->classes[type].first_field + (uint32_t)index];
}

/*
 * A cache from a chunk's pool keys (one or two) to what prof made of
 * them. Writers number pool entries from 1 or from small ids, so a key
 * alone below 16 times the entries so far (and 4096) is a plain index
 * into `dense`: an array lookup per event where a hash lookup would cost
 * a third of the reading; memory stays proportional to the entries.
 */
struct jfr_keymap {
	struct jfr_keymap_entry {
		uint64_t a, b, value;
	} *entries; /* the keys that are not dense */
	size_t n, cap;
	struct hashidx index;
	uint64_t *dense; /* value + 1 by key; 0: none */
	size_t n_dense, cap_dense;
	size_t count; /* entries, dense or not */
};

/* What a chunk's pool keys became in the model (jfr_stack.c). */
struct jfr_stacks {
	struct model *m;
	struct jfr_chunk *c;
	struct jfr_keymap stacks, functions, methods, threads, states, classes;
	struct jfr_bytes text, name;
	uint32_t *frames;
	size_t cap_frames;
};

/*
 * The stack of stack trace `key` (pool of class trace_class), shifted left
 * once, with the truncated mark in bit 0; a key no pool holds is the empty
 * stack. 0, or -1 after reporting.
 */
int jfr_stack_of(struct jfr_stacks *s, uint32_t trace_class, uint64_t key, uint64_t *stack);
/*
 * *stack (as jfr_stack_of gives it) with the class of pool key `key` (of
 * class class_type) as its leaf: what an allocation allocated, named as
 * Java writes it ("java.lang.String", "byte[]"), as async-profiler's
 * converters show it. An empty stack, and a class no pool names (null),
 * add none.
 */
void jfr_with_class_leaf(struct jfr_stacks *s, uint32_t class_type, uint64_t key, uint64_t *stack);
/* A thread's name (its Java name, else its OS name) as a model string; 0 when none. */
uint32_t jfr_thread_name(struct jfr_stacks *s, uint32_t thread_class, uint64_t key);
/* A thread state's name as a model string; 0 when none. */
uint32_t jfr_state_name(struct jfr_stacks *s, uint32_t state_class, uint64_t key);
/* Forgets the chunk's keys, for the next chunk. */
void jfr_stacks_clear(struct jfr_stacks *s);
void jfr_stacks_free(struct jfr_stacks *s);

/* A sample as the model will take it, waiting for its place in time. */
struct jfr_sample {
	int64_t ns;      /* its start, in ns since 1970: what it is sorted by */
	int64_t weight;
	uint32_t stack, labels;
	uint32_t type;   /* the reader's event type, shifted left once; bit 0: the event has a time */
	uint32_t seq;    /* arrival, within a block: ties keep it */
};

/* A chunk's samples, put in time order in bounded memory (jfr_order.c). */
struct jfr_order {
	struct jfr_sample *block;
	size_t n, cap;
	int in_order; /* the block is sorted as it stands */
	struct spill runs;
	struct jfr_run {
		uint64_t at, end;
	} *run; /* sorted blocks in the spill */
	size_t n_runs, cap_runs;
};

void jfr_order_init(struct jfr_order *o);
void jfr_order_add(struct jfr_order *o, const struct jfr_sample *s);
/* Gives `take` every sample added since the last flush, in time order, and forgets them. */
void jfr_order_flush(struct jfr_order *o, void (*take)(void *ctx, const struct jfr_sample *s), void *ctx);
void jfr_order_free(struct jfr_order *o);

#endif
