/*
 * Java Flight Recorder reader (docs/formats/jfr.md). A file is chunks one
 * after another, each standing alone; a chunk is read whole, then walked
 * three times: for its metadata and checkpoint events (the classes and
 * the constant pools, which may come after the events that use them),
 * for its sample events' starts, and for those events in time order. Every event type whose class has a stackTrace field
 * becomes a sample type of its name, counting events; some also give a
 * weight (bytes allocated, nanoseconds blocked) as a second type,
 * "EVENT:FIELD". A sample's stack is its trace, frames named as
 * async-profiler's converters name them, the frame type kept in the
 * function's system name; its labels the thread, the thread state and
 * "truncated" when the JVM cut the stack; its time the event's start,
 * from the first sample's. A chunk's events are read in time order (the
 * JVM writes them as each thread's buffer fills); a chunk that starts
 * before the last sample of the chunk before is taken at that sample's
 * time, never going back.
 *
 * Memory: one chunk's bytes, its pool index, 16 bytes for each of its
 * sample events (their time order), and per chunk a cache of each
 * distinct stack trace, method, thread and state met; rows stream.
 */
#include <stdio.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/diag.h"
#include "jfr.h"

enum { HEADER_BYTES = 68, READ_STEP = 1 << 20, LABEL_CACHE = 64 };

/* What an event type became, across chunks (whose class ids differ). */
struct event_type {
	uint32_t name; /* model string */
	size_t count_type, weight_type;
};

struct reader {
	struct input *in;
	struct model *m;
	struct jfr_chunk c;
	struct jfr_stacks stacks;
	struct event_type *types;
	size_t n_types, cap_types;
	int64_t *values;
	size_t cap_values;
	uint64_t *checkpoints; /* offsets of a chunk's checkpoint events */
	size_t n_checkpoints, cap_checkpoints;
	struct timed_event *timed; /* a chunk's sample events, to be read in time order */
	size_t n_timed, cap_timed;
	uint64_t last_type_id; /* the last event's type id, and its class */
	uint32_t last_type;
	uint32_t label_thread, label_state, label_truncated, yes;
	struct label_cache {
		uint32_t thread, state;
		int truncated;
		uint32_t set; /* MODEL_NONE: empty slot */
	} label_cache[LABEL_CACHE];
	int has_first;
	int64_t first_ns, time;
	uint64_t chunks;
};

/* The events whose field says how much a sample weighs, and in what. */
static const struct weight {
	const char *event, *field, *unit;
} weights[] = {
	{ "jdk.ObjectAllocationSample", "weight", "bytes" },
	{ "jdk.ObjectAllocationInNewTLAB", "allocationSize", "bytes" },
	{ "jdk.ObjectAllocationOutsideTLAB", "allocationSize", "bytes" },
	{ "jdk.JavaMonitorEnter", "duration", "nanoseconds" },
	{ "jdk.JavaMonitorWait", "duration", "nanoseconds" },
	{ "jdk.ThreadPark", "duration", "nanoseconds" },
	{ "profiler.Malloc", "size", "bytes" },
	{ "profiler.LiveObject", "allocationSize", "bytes" },
	{ "profiler.WallClockSample", "samples", "count" },
};

static void grow_values(struct reader *r)
{
	size_t old = r->cap_values;
	grow((void **)&r->values, &r->cap_values, r->m->n_sample_types, sizeof *r->values);
	memset(r->values + old, 0, (r->cap_values - old) * sizeof *r->values);
}

/* The sample types of an event type, made at its first event in the file. */
static struct event_type *event_type(struct reader *r, const struct jfr_class *cl, const struct weight *w)
{
	const char *name = r->c.names + cl->name.at;
	uint32_t id = model_str(r->m, name, cl->name.len);
	for (size_t i = 0; i < r->n_types; i++)
		if (r->types[i].name == id)
			return &r->types[i];
	grow((void **)&r->types, &r->cap_types, r->n_types + 1, sizeof *r->types);
	struct event_type *t = &r->types[r->n_types++];
	t->name = id;
	t->count_type = model_add_sample_type(r->m, name, "count");
	t->weight_type = SIZE_MAX;
	if (w) {
		char weight_name[300];
		snprintf(weight_name, sizeof weight_name, "%s:%s", name, w->field);
		t->weight_type = model_add_sample_type(r->m, weight_name, w->unit);
	}
	grow_values(r);
	return t;
}

static int32_t first_field_named(const struct jfr_chunk *c, uint32_t type, const char *a, const char *b)
{
	int32_t i = jfr_field_named(c, type, a);
	return i >= 0 ? i : jfr_field_named(c, type, b);
}

/* Which fields an event class's samples need; an event without a stack trace is no sample. */
static void plan_events(struct reader *r, uint32_t type)
{
	struct jfr_chunk *c = &r->c;
	struct jfr_event_plan *p = &c->classes[type].plan;
	p->planned = 1;
	p->stack = jfr_field_named(c, type, "stackTrace");
	if (p->stack < 0 || !jfr_field_at(c, type, p->stack)->pool || jfr_field_at(c, type, p->stack)->array)
		return;
	p->sample = 1;
	p->time = jfr_field_named(c, type, "startTime");
	p->thread = first_field_named(c, type, "sampledThread", "eventThread");
	p->state = jfr_field_named(c, type, "state");
	p->weight = -1;
	const struct weight *w = NULL;
	for (size_t i = 0; i < sizeof weights / sizeof *weights && !w; i++)
		if (jfr_text_is(c, c->classes[type].name, weights[i].event) &&
		    (p->weight = jfr_field_named(c, type, weights[i].field)) >= 0)
			w = &weights[i];
	int32_t last = p->stack;
	int32_t needed[] = { p->time, p->thread, p->state, p->weight };
	for (size_t i = 0; i < sizeof needed / sizeof *needed; i++) {
		if (needed[i] >= 0 && (jfr_field_at(c, type, needed[i])->array || (i < 3 && i > 0 && !jfr_field_at(c, type, needed[i])->pool)))
			needed[i] = -1; /* a thread or state inline, or an array: not what prof knows */
		last = needed[i] > last ? needed[i] : last;
	}
	p->time = needed[0], p->thread = needed[1], p->state = needed[2], p->weight = needed[3];
	p->last_needed = (uint32_t)last;
	struct event_type *t = event_type(r, &c->classes[type], w);
	p->count_type = t->count_type;
	p->weight_type = t->weight_type;
}

/* A number of ticks, or of a Timespan's unit, in nanoseconds; saturating. */
static int64_t span_ns(const struct jfr_chunk *c, int64_t v, uint8_t timespan)
{
	static const int64_t scale[] = { 1, 0, 1, 1000, 1000000, 1000000000 };
	/* Within 2^52 ticks and nanoseconds (52 days) in a double: exact to a nanosecond, and no division. */
	const double exact = (double)(INT64_C(1) << 52);
	double ns_double = (double)v * c->ns_per_tick;
	if (timespan == JFR_TICKS && v > -exact && v < exact && ns_double > -exact && ns_double < exact)
		return (int64_t)ns_double;
	__int128 ns = timespan == JFR_TICKS ? (__int128)v * 1000000000 / c->ticks_per_second : (__int128)v * scale[timespan];
	return ns > INT64_MAX ? INT64_MAX : ns < INT64_MIN ? INT64_MIN : (int64_t)ns;
}

static uint32_t intern_labels(struct reader *r, uint32_t thread, uint32_t state, int truncated)
{
	struct model_label labels[3];
	size_t n = 0;
	if (thread)
		labels[n++] = (struct model_label){ r->label_thread, thread, 0, 0 };
	if (state)
		labels[n++] = (struct model_label){ r->label_state, state, 0, 0 };
	if (truncated)
		labels[n++] = (struct model_label){ r->label_truncated, r->yes, 0, 0 };
	return model_label_set(r->m, labels, n);
}

/*
 * The label set of (thread, state, truncated). Interning it costs a hash
 * of three labels per event; the last sets made are kept in a small
 * table by their strings, which a few threads and states fill.
 */
static uint32_t sample_labels(struct reader *r, uint32_t thread, uint32_t state, int truncated)
{
	struct label_cache *slot = &r->label_cache[(thread * 31u + state * 7u + (unsigned)truncated) % LABEL_CACHE];
	if (slot->set != MODEL_NONE && slot->thread == thread && slot->state == state && slot->truncated == truncated)
		return slot->set;
	*slot = (struct label_cache){ thread, state, truncated, intern_labels(r, thread, state, truncated) };
	return slot->set;
}

/* The event's time from the first sample's, never before the sample before it. */
static int64_t sample_time(struct reader *r, int64_t ticks)
{
	const struct jfr_chunk *c = &r->c;
	int64_t ns = span_ns(c, ticks - c->start_ticks, JFR_TICKS);
	ns = __builtin_add_overflow(ns, c->start_ns, &ns) ? INT64_MAX : ns;
	if (!r->has_first) {
		r->has_first = 1;
		r->first_ns = ns;
	}
	int64_t from_first;
	if (!__builtin_sub_overflow(ns, r->first_ns, &from_first) && from_first > r->time)
		r->time = from_first;
	return r->time;
}

/* One data event's sample, the cursor after its type id. */
static int add_event(struct reader *r, struct jfr_cursor *k, uint32_t type)
{
	struct jfr_chunk *c = &r->c;
	const struct jfr_event_plan *p = &c->classes[type].plan;
	uint64_t trace = 0, thread = 0, state = 0, weight = 0, ticks = 0;
	for (int32_t i = 0; i <= (int32_t)p->last_needed && !k->bad; i++) {
		const struct jfr_field *f = jfr_field_at(c, type, i);
		uint64_t v = jfr_get_number(k, f);
		if (i == p->stack)
			trace = v;
		else if (i == p->time)
			ticks = v;
		else if (i == p->thread)
			thread = v;
		else if (i == p->state)
			state = v;
		else if (i == p->weight)
			weight = v;
	}
	if (k->bad)
		return jfr_error(c, k->bad_at, "event %s: %s", c->names + c->classes[type].name.at, k->why ? k->why : "cut short");
	uint64_t stack = 0;
	if (jfr_stack_of(&r->stacks, jfr_field_at(c, type, p->stack)->type, trace, &stack) < 0)
		return -1;
	uint32_t thread_label = p->thread >= 0 ? jfr_thread_name(&r->stacks, jfr_field_at(c, type, p->thread)->type, thread) : 0;
	uint32_t state_label = p->state >= 0 ? jfr_state_name(&r->stacks, jfr_field_at(c, type, p->state)->type, state) : 0;
	r->values[p->count_type] = 1;
	if (p->weight_type != SIZE_MAX) {
		const struct jfr_field *f = jfr_field_at(c, type, p->weight);
		r->values[p->weight_type] = f->timespan ? span_ns(c, (int64_t)weight, f->timespan) : (int64_t)weight;
	}
	int64_t time = p->time >= 0 ? sample_time(r, (int64_t)ticks) : r->time;
	model_add_samples(r->m, (uint32_t)(stack >> 1), r->values, NULL, sample_labels(r, thread_label, state_label, stack & 1), 1, time);
	r->values[p->count_type] = 0;
	if (p->weight_type != SIZE_MAX)
		r->values[p->weight_type] = 0;
	return 0;
}

/*
 * An event's size and type id: 1 when it lies whole in [at, end), 0 when
 * end cuts it, -1 when its size cannot be (shorter than its own header).
 */
static int event_header(struct jfr_chunk *c, uint64_t at, uint64_t end, uint64_t *size, uint64_t *type, struct jfr_cursor *k)
{
	*k = jfr_cursor(c, at, end);
	*size = jfr_get_int(k);
	*type = jfr_get_long(k);
	if (k->bad)
		return 0;
	if (*size < k->at - at)
		return -1;
	return *size <= end - at;
}

/* A sample event of the chunk: where it is, and its start in ticks. */
struct timed_event {
	int64_t ticks;
	uint64_t at;
};

static int earlier(const void *a, const void *b)
{
	const struct timed_event *x = a, *y = b;
	if (x->ticks != y->ticks)
		return x->ticks < y->ticks ? -1 : 1;
	return x->at < y->at ? -1 : x->at > y->at;
}

/* The sample event at `at`: its class, and a cursor after its type id; UINT32_MAX after reporting. */
static uint32_t event_at(struct reader *r, uint64_t at, struct jfr_cursor *k)
{
	uint64_t size, type_id;
	event_header(&r->c, at, r->c.len, &size, &type_id, k);
	k->end = at + size;
	/* Events of one type come in runs (a sampler's buffer): look its class up once a run. */
	if (type_id != r->last_type_id) {
		r->last_type = jfr_class_of_id(&r->c, type_id);
		r->last_type_id = type_id;
	}
	if (r->last_type == HASHIDX_NONE)
		jfr_error(&r->c, at, "an event of type id %llu, which the metadata does not define", (unsigned long long)type_id);
	return r->last_type;
}

/* The start of the sample event at the cursor, in ticks; that of the event before when it has none. */
static int event_ticks(struct reader *r, struct jfr_cursor *k, uint32_t type, int64_t *ticks)
{
	const struct jfr_event_plan *p = &r->c.classes[type].plan;
	if (p->time < 0)
		return 0;
	jfr_seek_field(k, type, p->time);
	*ticks = (int64_t)jfr_get_number(k, jfr_field_at(&r->c, type, p->time));
	if (k->bad)
		return jfr_error(&r->c, k->bad_at, "event %s: %s", r->c.names + r->c.classes[type].name.at, k->why ? k->why : "cut short");
	return 0;
}

/*
 * The chunk's sample events, from the header to `end`, in time order: a
 * JVM writes each thread's buffer as it fills, so a chunk's events go
 * back in time by up to its length. Their starts and places are sorted
 * (16 bytes an event of the chunk), unless they are in order already.
 */
static int read_events(struct reader *r, uint64_t end)
{
	struct jfr_chunk *c = &r->c;
	struct jfr_cursor k;
	uint64_t size, type_id;
	int64_t ticks = INT64_MIN;
	int in_order = 1;
	r->n_timed = 0;
	r->last_type_id = 0;
	for (uint64_t at = HEADER_BYTES; at < end; at += size) {
		event_header(c, at, end, &size, &type_id, &k);
		if (type_id < 2)
			continue;
		uint32_t type = event_at(r, at, &k);
		if (type == UINT32_MAX)
			return -1;
		if (!c->classes[type].plan.planned)
			plan_events(r, type);
		if (!c->classes[type].plan.sample)
			continue;
		int64_t before = ticks;
		if (event_ticks(r, &k, type, &ticks) < 0)
			return -1;
		in_order &= ticks >= before;
		grow((void **)&r->timed, &r->cap_timed, r->n_timed + 1, sizeof *r->timed);
		r->timed[r->n_timed++] = (struct timed_event){ ticks, at };
	}
	if (!in_order)
		qsort(r->timed, r->n_timed, sizeof *r->timed, earlier);
	for (size_t i = 0; i < r->n_timed; i++) {
		uint32_t type = event_at(r, r->timed[i].at, &k);
		if (add_event(r, &k, type) < 0)
			return -1;
	}
	return 0;
}

/*
 * Finds the chunk's metadata and checkpoint events; returns where its
 * whole events end (short of `end` only in a chunk cut short), or 0
 * after reporting.
 */
static uint64_t scan_chunk(struct reader *r, uint64_t end, int whole, uint64_t *metadata)
{
	struct jfr_chunk *c = &r->c;
	uint64_t at = HEADER_BYTES, size, type;
	struct jfr_cursor k;
	r->n_checkpoints = 0;
	*metadata = 0;
	for (; at < end; at += size) {
		int fits = event_header(c, at, end, &size, &type, &k);
		if (fits < 0 || (fits == 0 && whole))
			return jfr_error(c, at, "an event whose size (%llu bytes) does not fit its chunk", (unsigned long long)size), 0;
		if (fits == 0)
			break;
		if (type == 0)
			*metadata = at;
		else if (type == 1) {
			grow((void **)&r->checkpoints, &r->cap_checkpoints, r->n_checkpoints + 1, sizeof *r->checkpoints);
			r->checkpoints[r->n_checkpoints++] = at;
		}
	}
	return at;
}

static uint64_t big_endian(const unsigned char *p, int n)
{
	uint64_t v = 0;
	for (int i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

/* Reads up to `want` more bytes onto the chunk, growing it as they come; 0, or -1 on a read error. */
static int read_more(struct reader *r, uint64_t want)
{
	struct jfr_chunk *c = &r->c;
	while (want > 0) {
		size_t step = want < READ_STEP ? (size_t)want : READ_STEP;
		size_t cap = (size_t)c->cap;
		grow((void **)&c->bytes, &cap, (size_t)c->len + step, 1);
		c->cap = cap;
		long got = input_read(r->in, c->bytes + c->len, step);
		if (got < 0)
			return -1;
		if (got == 0)
			return 0;
		c->len += (uint64_t)got;
		want -= (uint64_t)got;
	}
	return 0;
}

/* The chunk header's checks; its size, or 0 after reporting. */
static uint64_t read_header(struct reader *r)
{
	struct jfr_chunk *c = &r->c;
	const unsigned char *h = c->bytes;
	if (memcmp(h, "FLR\0", 4) != 0)
		return jfr_error(c, 0, r->chunks ? "bytes after the last chunk that are no chunk (no \"FLR\\0\")"
						   : "not a JFR file (no \"FLR\\0\")"), 0;
	unsigned major = (unsigned)big_endian(h + 4, 2), minor = (unsigned)big_endian(h + 6, 2);
	if (major == 0 && minor == 9)
		return jfr_error(c, 4, "JFR format 0.9 (JDK 7 and 8), which the JDK's own tools do not read either"), 0;
	if (major != 1 && major != 2)
		return jfr_error(c, 4, "JFR format %u.%u: prof reads 1.x and 2.x (JDK 9 and later)", major, minor), 0;
	uint64_t size = big_endian(h + 8, 8);
	if (size < HEADER_BYTES)
		return jfr_error(c, 8, "a chunk size of %llu bytes, smaller than its header", (unsigned long long)size), 0;
	c->start_ns = (int64_t)big_endian(h + 32, 8);
	c->start_ticks = (int64_t)big_endian(h + 48, 8);
	c->ticks_per_second = (int64_t)big_endian(h + 56, 8);
	if (c->ticks_per_second <= 0)
		return jfr_error(c, 56, "%lld ticks per second", (long long)c->ticks_per_second), 0;
	c->ns_per_tick = 1e9 / (double)c->ticks_per_second;
	/* Byte 67 holds the flags (JDK 14 and later put the file state at 64): bit 0 is compressed integers. */
	c->compressed = h[67] & 1;
	return size;
}

/* The metadata, pools and events of the chunk in memory, read up to `end`. */
static int read_chunk_events(struct reader *r, int whole)
{
	struct jfr_chunk *c = &r->c;
	uint64_t metadata, end = scan_chunk(r, c->len, whole, &metadata);
	if (end == 0)
		return -1;
	if (metadata == 0) {
		if (whole)
			return jfr_error(c, HEADER_BYTES, "a chunk without a metadata event");
		diag_warn(c->file, 0, "offset %llu: the recording is cut short before the chunk's metadata: read up to the chunk before",
			  (unsigned long long)(c->file_at + end));
		return 0;
	}
	if (jfr_read_metadata(c, metadata, end) < 0)
		return -1;
	for (size_t i = 0; i < r->n_checkpoints; i++)
		if (jfr_read_checkpoint(c, r->checkpoints[i], end) < 0)
			return -1;
	if (!whole)
		diag_warn(c->file, 0, "offset %llu: the recording is cut short: read up to the last whole event",
			  (unsigned long long)(c->file_at + end));
	return read_events(r, end);
}

/* The next chunk: 1 read, 0 none left (or the rest cut short, with a warning), -1 after reporting. */
static int read_chunk(struct reader *r)
{
	struct jfr_chunk *c = &r->c;
	c->file_at += c->len;
	jfr_chunk_reset(c);
	c->len = 0;
	if (read_more(r, HEADER_BYTES) < 0)
		return -1;
	if (c->len == 0 && r->chunks > 0)
		return 0;
	if (c->len < HEADER_BYTES) {
		if (r->chunks == 0)
			return jfr_error(c, c->len, "a chunk header cut short");
		diag_warn(c->file, 0, "offset %llu: the recording is cut short inside a chunk header: read up to the chunk before",
			  (unsigned long long)(c->file_at + c->len));
		return 0;
	}
	uint64_t size = read_header(r);
	if (size == 0 || read_more(r, size - HEADER_BYTES) < 0)
		return -1;
	int whole = c->len == size;
	if (!whole && r->chunks == 0 && c->len == HEADER_BYTES)
		return jfr_error(c, c->len, "a chunk with nothing after its header");
	int read = read_chunk_events(r, whole);
	jfr_stacks_clear(&r->stacks);
	r->chunks++;
	return read < 0 ? -1 : whole;
}

/* jdk.ExecutionSample when the recording has it: CPU time is what most open a profile for. */
static void set_default_type(struct reader *r)
{
	for (size_t i = 0; i < r->n_types; i++)
		if (model_str_is(r->m, r->types[i].name, "jdk.ExecutionSample")) {
			model_set_meta(r->m, "default_sample_type", "jdk.ExecutionSample");
			return;
		}
	if (r->n_types)
		model_set_meta(r->m, "default_sample_type", model_cstr(r->m, r->types[0].name));
}

static void reader_free(struct reader *r)
{
	jfr_chunk_free(&r->c);
	jfr_stacks_free(&r->stacks);
	free(r->types);
	free(r->values);
	free(r->checkpoints);
	free(r->timed);
}

int jfr_read(struct input *in, struct model *m)
{
	struct reader r;
	memset(&r, 0, sizeof r);
	r.in = in;
	r.m = m;
	r.c.file = in->name;
	r.stacks.m = m;
	r.stacks.c = &r.c;
	r.label_thread = model_str(m, "thread", 6);
	r.label_state = model_str(m, "state", 5);
	r.label_truncated = model_str(m, "truncated", 9);
	r.yes = model_str(m, "true", 4);
	for (size_t i = 0; i < LABEL_CACHE; i++)
		r.label_cache[i].set = MODEL_NONE;
	m->rules.strict_r = 0;
	m->timed_rows = 1;
	int got;
	while ((got = read_chunk(&r)) > 0)
		;
	if (got == 0)
		set_default_type(&r);
	reader_free(&r);
	return got < 0 ? -1 : 0;
}
