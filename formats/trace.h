/* What Chrome's trace event reader, its writer and their registration share. */
#ifndef PROF_TRACE_H
#define PROF_TRACE_H

#include "../io/json.h"
#include "format.h"

int trace_read(struct input *in, struct model *m);
int trace_write(const struct model *m, struct output *out, const struct write_options *opts);

/* Text being built: a frame's name, an event's args as JavaScript writes them. */
struct trace_text {
	char *bytes;
	size_t len, cap;
};

void trace_text_add(struct trace_text *t, const void *bytes, size_t n);

/*
 * The keys of an args object that the reader asks about (trace_args.c):
 * Hermes' frame fields, and a metadata event's name.
 */
enum trace_arg {
	ARG_LINE, ARG_COLUMN, ARG_NAME, ARG_CATEGORY, ARG_URL, ARG_PARAMS,
	ARG_ALLOCATED_CATEGORY, ARG_ALLOCATED_NAME, ARG_COUNT
};

/*
 * What trace_stringify saw of the outermost object's own keys, and its
 * work space, kept from call to call (an event's args are small, and
 * mostly come with every event).
 */
struct trace_level;
struct trace_member;
struct trace_args {
	unsigned present;                 /* a bit per enum trace_arg */
	struct trace_text value[ARG_COUNT]; /* each as JavaScript's String() gives it */
	uint8_t is_string[ARG_COUNT];
	struct trace_level *levels;
	struct trace_member *members;
	size_t cap_levels, cap_members;
};

/*
 * Appends to `out` the value that `first` (just read) begins, as
 * JavaScript's JSON.stringify writes what JSON.parse made of it: no
 * space, keys that are array indexes first and in order, a repeated key
 * once (its last value, at its first place), numbers as JavaScript prints
 * them. That text is part of a frame's name in speedscope, whose frames
 * prof's must equal. `args`, when not NULL, gets the outermost object's
 * keys of enum trace_arg. 0, or -1 after reporting.
 */
int trace_stringify(struct json *j, enum json_token first, struct trace_text *out, struct trace_args *args);
void trace_args_free(struct trace_args *args);

/* A number as JavaScript prints it (Number.prototype.toString), from JSON's text of it. */
void trace_js_number(struct trace_text *out, const char *text);

/*
 * The Profile and ProfileChunk events of a trace, each profile a V8 CPU
 * profile in parts (trace_v8.c): held until the trace is read, then read
 * by the .cpuprofile reader.
 */
struct trace_v8;
struct trace_v8 *trace_v8_new(void);
void trace_v8_free(struct trace_v8 *v);
/*
 * An event named Profile, ProfileChunk or CpuProfile: the key that pairs
 * a profile's events (its process and id: Chrome numbers profiles in
 * each process from 0x1), its thread, and its args as trace_stringify
 * wrote them.
 * 0, or -1 after reporting.
 */
int trace_v8_event(struct trace_v8 *v, struct input *in, const char *name, const char *key,
		   uint32_t thread, const struct trace_text *args);
/* Has any profile a sample? */
int trace_v8_has_samples(const struct trace_v8 *v);

/* A sample of a thread's timeline, before rows are made in time order. */
struct trace_stretch {
	int64_t start_ns;  /* from the trace's clock's zero */
	int64_t wall_ns;   /* how long each of its samples lasts */
	uint32_t stack, thread;
	uint64_t repeat;   /* how many samples: CPU samples in a row, or 1 */
	uint32_t order;    /* for a stable sort */
};

struct trace_stretches {
	struct trace_stretch *items;
	size_t n, cap;
};

void trace_stretch_add(struct trace_stretches *s, const struct trace_stretch *item);

/* Each profile's samples as stretches of m (`in` names the trace in messages): 0, or -1 after reporting. */
int trace_v8_stretches(struct trace_v8 *v, const char *in_name, struct model *m, struct trace_stretches *out);

#endif
