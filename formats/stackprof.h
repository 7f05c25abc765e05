/*
 * Ruby stackprof dumps (docs/formats/stackprof.md): what the Marshal and
 * JSON readers share. Both hand a dump's parts, as they come, to the
 * builder in stackprof_read.c: the mode and interval, each frame, each
 * integer of `raw` and of `raw_timestamp_deltas`; the builder makes the
 * stacks and, at the end, the samples. `frames` must come before `raw`,
 * as stackprof writes them, so that raw's frame ids are known as read and
 * a bad one is reported where it stands.
 */
#ifndef PROF_STACKPROF_H
#define PROF_STACKPROF_H

#include <stddef.h>
#include <stdint.h>

#include "../base/hashidx.h"
#include "../base/spool.h"
#include "../io/input.h"
#include "../model/model.h"

enum stackprof_mode { STACKPROF_NO_MODE, STACKPROF_CPU, STACKPROF_WALL, STACKPROF_OBJECT, STACKPROF_CUSTOM };

struct stackprof_frame {
	int64_t id;
	uint32_t location;
	int64_t self;    /* its own samples, for a dump without raw */
	uint8_t is_gc;   /* "(garbage collection)": alone, it goes on the stack before it */
};

/* A frame of the record before, and the stack up to it. */
struct stackprof_step {
	int64_t id;
	uint32_t stack, location;
	uint8_t is_gc;
};

/* A record of raw: a stack, and how many samples in a row had it. */
struct stackprof_record {
	uint32_t stack;
	int64_t count;
};

struct stackprof_dump {
	struct model *m;
	enum stackprof_mode mode;
	int64_t interval; /* 0: none given */
	struct stackprof_frame *frames;
	size_t n_frames, cap_frames;
	struct hashidx frame_index;
	/* raw, as read: records, and the one being read */
	struct stackprof_record *records;
	size_t n_records, cap_records;
	int has_raw;
	int64_t frames_left; /* of the record being read; -1: its length comes next, -2: its count */
	uint32_t stack, previous_stack;
	int64_t record_frames;
	uint32_t record_location; /* of its last frame */
	uint8_t record_is_gc;
	/*
	 * The record before, frame by frame: while a record repeats its ids
	 * from the root, its stacks are taken from here, not looked up again
	 * (a program's samples share their callers: most of raw is repeats).
	 */
	struct stackprof_step *before;
	size_t n_before, cap_before; /* n_before: the steps of one record, from the root */
	int same_as_before; /* the record being read has matched `before` so far */
	struct spool deltas; /* raw_timestamp_deltas, each >= 0 */
	int has_deltas;
};

void stackprof_dump_init(struct stackprof_dump *d, struct model *m);
void stackprof_dump_free(struct stackprof_dump *d);
/* The mode's name: 0, or -1 when stackprof has no such mode. */
int stackprof_set_mode(struct stackprof_dump *d, const unsigned char *name, size_t len);
/*
 * A frame: its name and file (string ids; MODEL_NONE: none), its line (0:
 * none) and its own samples. NULL, or why it is refused.
 */
const char *stackprof_add_frame(struct stackprof_dump *d, int64_t id, uint32_t name, uint32_t file,
				int64_t line, int64_t self);
/*
 * The id of a frame keyed by a String (stackprof's merges key frames by a
 * SHA-256 of name, file and line, and drop raw): one of its own, below
 * any id stackprof gives.
 */
int64_t stackprof_keyed_frame_id(const struct stackprof_dump *d);
/*
 * The next integer of raw (deltas 0) or of raw_timestamp_deltas (deltas
 * 1), and that array's end: what every front end does with them. NULL,
 * or why it is refused (in why[]).
 */
const char *stackprof_number(struct stackprof_dump *d, int deltas, int64_t v, char *why, size_t why_size);
const char *stackprof_numbers_end(struct stackprof_dump *d, int deltas);
/* The samples, once the whole dump is read: NULL, or why it is refused (in why[]). */
const char *stackprof_build(struct stackprof_dump *d, const char *input_name, char *why, size_t why_size);

/* The front ends: 0, or -1 after reporting. */
int stackprof_read_json(struct input *in, struct stackprof_dump *d);
int stackprof_read_marshal(struct input *in, struct stackprof_dump *d);

#endif
