/*
 * What the Java Flight Recorder reader's parts share (docs/formats/jfr.md):
 * jfr_decode.c reads one chunk's bytes (integers, strings, the metadata
 * event's classes, the checkpoints' constant pools, any value by its
 * class), jfr_stack.c what the pools' stack traces, threads and states
 * become in the model, jfr_read.c turns the chunks' events into samples. Every read
 * goes through a cursor that stops at the chunk's end: a read past it
 * leaves the cursor `bad` and every later read returns zeros, so callers
 * check once per value, not per byte.
 */
#ifndef PROF_JFR_H
#define PROF_JFR_H

#include <stdint.h>

#include "../base/hashidx.h"
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
	uint32_t last_needed;      /* fields past it are not read */
	size_t count_type, weight_type; /* sample types; SIZE_MAX: none */
};

struct jfr_class {
	uint64_t id;
	struct jfr_text name;
	uint8_t kind;
	uint8_t empty; /* its values take no bytes: no field holds anything */
	uint32_t first_field, n_fields;
	struct jfr_event_plan plan;
};

struct jfr_pool_entry {
	uint32_t type;
	uint64_t key;
	uint64_t at; /* where the value starts in the chunk */
};

/* A growable byte buffer for decoded strings. */
struct jfr_bytes {
	char *s;
	size_t len, cap;
};

/* One chunk, whole in memory, and what its metadata and checkpoints say. */
struct jfr_chunk {
	const char *file;   /* for messages */
	uint64_t file_at;   /* where the chunk starts in the file */
	unsigned char *bytes;
	uint64_t len, cap;
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

/* Reads from a chunk's bytes up to `end`. */
struct jfr_cursor {
	struct jfr_chunk *c;
	uint64_t at, end;
	int bad; /* a read went past end, or a value was malformed */
	const char *why; /* what was malformed (NULL: cut short) */
	uint64_t bad_at; /* where the first bad read began */
};

static inline struct jfr_cursor jfr_cursor(struct jfr_chunk *c, uint64_t at, uint64_t end)
{
	struct jfr_cursor k = { c, at, end, 0, NULL, 0 };
	return k;
}

/* Reports "offset N: ..." (N from the file's start) once per chunk; returns -1. */
int jfr_error(struct jfr_chunk *c, uint64_t at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

void jfr_chunk_reset(struct jfr_chunk *c);
void jfr_chunk_free(struct jfr_chunk *c);

uint64_t jfr_get_long_at(struct jfr_cursor *k);
uint32_t jfr_get_int_at(struct jfr_cursor *k);

/* A one-byte LEB128 number here, else the whole read: most keys and small numbers take one byte. */
static inline uint64_t jfr_get_long(struct jfr_cursor *k)
{
	if (k->c->compressed && k->at < k->end && k->c->bytes[k->at] < 0x80)
		return k->c->bytes[k->at++];
	return jfr_get_long_at(k);
}

static inline uint32_t jfr_get_int(struct jfr_cursor *k)
{
	if (k->c->compressed && k->at < k->end && k->c->bytes[k->at] < 0x80)
		return k->c->bytes[k->at++];
	return jfr_get_int_at(k);
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

/* Reads the metadata event at `at`: the chunk's classes. 0, or -1 after reporting. */
int jfr_read_metadata(struct jfr_chunk *c, uint64_t at, uint64_t end);
/* Adds the constant pools of the checkpoint event at `at`. 0, or -1 after reporting. */
int jfr_read_checkpoint(struct jfr_chunk *c, uint64_t at, uint64_t end);
/* Where the value of pool `type`'s entry `key` starts; 0 when there is none. */
uint64_t jfr_pool_value(const struct jfr_chunk *c, uint32_t type, uint64_t key);

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
	struct jfr_keymap stacks, functions, methods, threads, states;
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
/* A thread's name (its Java name, else its OS name) as a model string; 0 when none. */
uint32_t jfr_thread_name(struct jfr_stacks *s, uint32_t thread_class, uint64_t key);
/* A thread state's name as a model string; 0 when none. */
uint32_t jfr_state_name(struct jfr_stacks *s, uint32_t state_class, uint64_t key);
/* Forgets the chunk's keys, for the next chunk. */
void jfr_stacks_clear(struct jfr_stacks *s);
void jfr_stacks_free(struct jfr_stacks *s);

#endif
