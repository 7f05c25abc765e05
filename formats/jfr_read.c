/*
 * Java Flight Recorder reader (docs/formats/jfr.md). A file is chunks one
 * after another, each standing alone. A chunk streams in once: its
 * metadata and checkpoint events (the classes and the constant pools,
 * which may come after the events that use them) are kept, its other
 * events spilled as they came (base/spill.h). Then the spill is read
 * once, each event decoded once, unless its samples go back in time:
 * then the spill is read for their starts, and again. Every event type whose class has
 * a stackTrace field becomes a sample type of its name, counting events;
 * some also give a weight (bytes allocated, nanoseconds blocked) as a
 * second type, "EVENT:FIELD". A sample's stack is its trace, frames named
 * as async-profiler's converters name them, the frame type kept in the
 * function's system name; its labels the thread, the thread state and
 * "truncated" when the JVM cut the stack; its time the event's start,
 * from the first sample's. A chunk's samples go to the model in time
 * order (the JVM writes events as each thread's buffer fills): as they
 * are decoded, taken back if one goes back in time (rows_take_back),
 * and then through jfr_order.c. A chunk
 * that starts before the last sample of the chunk before is taken at
 * that sample's time, never going back.
 *
 * Memory: a chunk's metadata and checkpoint events, its pool index, up to
 * 16 MB of its other events (the rest in a temporary file), jfr_order.c's
 * block, and per chunk a cache of each distinct stack trace, method,
 * thread and state met; rows stream.
 */
#include <stdio.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/checked.h"
#include "../base/diag.h"
#include "jfr.h"

enum {
	HEADER_BYTES = 68,
	EVENT_HEADER_MAX = 18, /* an event's size and type id, nine bytes each at most */
	READ_STEP = 1 << 20,
	EVENTS_IN_MEMORY = 16 << 20, /* a JDK's chunks (12 MB at most by default) stay in memory */
	LABEL_CACHE_BITS = 10,
	LABEL_CACHE = 1 << LABEL_CACHE_BITS,
};

/* The samples' clock: the first sample's time, and the last sample's from it. */
struct clock {
	int has_first;
	int64_t first_ns, time;
};

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
	uint64_t chunk_size, end; /* the chunk's size, and where its whole events end */
	uint64_t present;         /* where in the chunk the input ended, when it ends inside */
	uint32_t metadata;        /* the piece of the chunk's metadata event; UINT32_MAX: none */
	uint32_t *checkpoints;    /* the pieces of its checkpoint events */
	size_t n_checkpoints, cap_checkpoints;
	struct spill events;      /* its other events, as they came */
	uint64_t events_whole;    /* the spill's bytes that hold whole events */
	uint64_t spilled_to;      /* where in the chunk the last spilled event ends */
	struct gap {              /* where spilled events stop following each other in the chunk */
		uint64_t spill_at, chunk_at;
	} *gaps;
	size_t n_gaps, cap_gaps;
	int in_order;             /* its samples are in time order as they came */
	struct jfr_order order;   /* else they are put in order here */
	/*
	 * A chunk's samples go to the model as they are decoded, before it is
	 * known that they are in order; `mark` is where the rows stood, to
	 * take them back (with the time) when one goes back in time or needs
	 * a new sample type after some were taken.
	 */
	int taking, restart;
	size_t taken;
	int64_t taken_ns;
	struct rows_mark mark;
	struct clock clock_at_mark;
	uint64_t last_type_id; /* the last event's type id, and its class */
	uint32_t last_type;
	int warned_undefined;  /* of an event type the chunk's metadata does not define */
	int64_t earliest_ns, latest_ns; /* of the samples decoded in this pass, while the clock has no first */
	uint32_t label_thread, label_state, label_truncated, yes;
	struct label_cache {
		uint32_t thread, state;
		int truncated;
		uint32_t set; /* MODEL_NONE: empty slot */
	} label_cache[LABEL_CACHE];
	struct clock clock;
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

/* The sample types of an event type, made at its first event in the file; its index in r->types. */
static uint32_t event_type(struct reader *r, const struct jfr_class *cl, const struct weight *w)
{
	const char *name = r->c.names + cl->name.at;
	uint32_t id = model_str(r->m, name, cl->name.len);
	for (size_t i = 0; i < r->n_types; i++)
		if (r->types[i].name == id)
			return (uint32_t)i;
	/* A sample type widens the rows: the mark would no longer fit them. */
	if (r->taking && r->taken) {
		r->restart = 1;
		return UINT32_MAX;
	}
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
	if (r->taking) {
		rows_mark_free(&r->mark);
		rows_mark(r->m, &r->mark);
	}
	return (uint32_t)(r->n_types - 1);
}

static int32_t first_field_named(const struct jfr_chunk *c, uint32_t type, const char *a, const char *b)
{
	int32_t i = jfr_field_named(c, type, a);
	return i >= 0 ? i : jfr_field_named(c, type, b);
}

/*
 * Which fields an event class's samples need; an event without a stack
 * trace is no sample. Not planned when its sample type cannot be made
 * yet (r->restart).
 */
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
	int32_t needed[] = { p->time, p->thread, p->state, p->weight, jfr_field_named(c, type, "objectClass") };
	for (size_t i = 0; i < sizeof needed / sizeof *needed; i++) {
		int pooled = i == 0 || i == 3; /* times and weights are numbers; the rest, pool keys */
		if (needed[i] >= 0 && (jfr_field_at(c, type, needed[i])->array || (!pooled && !jfr_field_at(c, type, needed[i])->pool)))
			needed[i] = -1; /* a thread, state or class inline, or an array: not what prof knows */
		last = needed[i] > last ? needed[i] : last;
	}
	p->time = needed[0], p->thread = needed[1], p->state = needed[2], p->weight = needed[3], p->object_class = needed[4];
	p->last_needed = (uint32_t)last;
	p->longs = (uint8_t)c->compressed;
	for (int32_t i = 0; i <= last; i++) {
		const struct jfr_field *f = jfr_field_at(c, type, i);
		if (f->array || (!f->pool && c->classes[f->type].kind != JFR_LONG))
			p->longs = 0;
	}
	p->event_type = event_type(r, &c->classes[type], w);
	if (p->event_type == UINT32_MAX)
		memset(p, 0, sizeof *p);
}

static const char *const span_units[] = { "", "ticks", "nanoseconds", "microseconds", "milliseconds", "seconds" };

/* A number of ticks, or of a Timespan's unit, in nanoseconds: 1 when they cannot hold it. */
static int span_ns(const struct jfr_chunk *c, int64_t v, uint8_t timespan, int64_t *ns)
{
	static const int64_t scale[] = { 1, 0, 1, 1000, 1000000, 1000000000 };
	if (timespan != JFR_TICKS)
		return checked_mul_i64(v, scale[timespan], ns);
	/* Within 2^52 ticks and nanoseconds (52 days) in a double: exact to a nanosecond, and no division. */
	const double exact = (double)(INT64_C(1) << 52);
	double ns_double = (double)v * c->ns_per_tick;
	if (v > -exact && v < exact && ns_double > -exact && ns_double < exact) {
		*ns = (int64_t)ns_double;
		return 0;
	}
	/* Exact: 2^63 ticks times 10^9 is below 2^127. */
	__int128 wide = (__int128)v * 1000000000 / c->ticks_per_second;
	if (wide > INT64_MAX || wide < INT64_MIN)
		return 1;
	*ns = (int64_t)wide;
	return 0;
}

/* An event's start in ticks as nanoseconds since 1970: 1 when they cannot hold it. */
static int start_ns(const struct jfr_chunk *c, int64_t ticks, int64_t *ns)
{
	int64_t from_chunk;
	return checked_sub_i64(ticks, c->start_ticks, &from_chunk) || span_ns(c, from_chunk, JFR_TICKS, ns) ||
	       checked_add_i64(*ns, c->start_ns, ns);
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
	/* Fibonacci hashing of the three: one multiply, where hash_mix is a call an event. */
	uint32_t key = (thread * 0x9e3779b1u) ^ (state * 0x85ebca77u) ^ (uint32_t)truncated;
	struct label_cache *slot = &r->label_cache[(key * 0x9e3779b1u) >> (32 - LABEL_CACHE_BITS)];
	if (slot->set != MODEL_NONE && slot->thread == thread && slot->state == state && slot->truncated == truncated)
		return slot->set;
	*slot = (struct label_cache){ thread, state, truncated, intern_labels(r, thread, state, truncated) };
	return slot->set;
}

/*
 * The event's time from the first sample's, never before the sample
 * before it. One after the first by more than int64_t holds was refused
 * (too_far_from_first); one before it by so much is before the sample
 * before too.
 */
static int64_t sample_time(struct reader *r, int64_t ns)
{
	struct clock *k = &r->clock;
	if (!k->has_first) {
		k->has_first = 1;
		k->first_ns = ns;
	}
	int64_t from_first;
	if (!checked_sub_i64(ns, k->first_ns, &from_first) && from_first > k->time)
		k->time = from_first;
	return k->time;
}

/*
 * Is a sample's start (ns since 1970) after the first sample's by more
 * than int64_t holds? The first is the clock's; while there is none, it
 * will be the earliest of this chunk's samples, so the span of those
 * decoded so far must fit.
 */
static int too_far_from_first(struct reader *r, int64_t ns)
{
	int64_t from_first;
	if (r->clock.has_first)
		return ns > r->clock.first_ns && checked_sub_i64(ns, r->clock.first_ns, &from_first);
	r->earliest_ns = ns < r->earliest_ns ? ns : r->earliest_ns;
	r->latest_ns = ns > r->latest_ns ? ns : r->latest_ns;
	return checked_sub_i64(r->latest_ns, r->earliest_ns, &from_first);
}

/*
 * The size and type id of the event at `at`, from the input not yet
 * consumed: 1, 0 when the input ends first, -1 after reporting.
 */
static int peek_event_header(struct reader *r, uint64_t at, uint64_t chunk_size, uint64_t *size, uint64_t *type)
{
	const unsigned char *data;
	size_t want = chunk_size - at < EVENT_HEADER_MAX ? (size_t)(chunk_size - at) : EVENT_HEADER_MAX;
	long got = input_peek(r->in, want, &data);
	if (got < 0)
		return -1;
	r->present = at + (uint64_t)got;
	struct jfr_cursor k = jfr_cursor(&r->c, data, 0, (uint64_t)got, at);
	*size = jfr_get_int(&k);
	*type = jfr_get_long(&k);
	if (k.bad && (size_t)got < want)
		return 0;
	if (k.bad || *size < k.at || *size > chunk_size - at)
		return jfr_error(&r->c, at, "an event whose size (%llu bytes) does not fit its chunk", (unsigned long long)*size);
	return 1;
}

/* Bytes of a metadata or checkpoint event, onto the kept ones. */
static void keep_bytes(struct jfr_chunk *c, const unsigned char *data, size_t len)
{
	grow((void **)&c->kept, &c->kept_cap, c->kept_len + len, 1);
	memcpy(c->kept + c->kept_len, data, len);
	c->kept_len += len;
}

/* Moves an event's `size` bytes of input to the kept pieces or the spill: 1, 0 when the input ends first, -1 on a read error. */
static int move_event(struct reader *r, uint64_t at, uint64_t size, int keep)
{
	struct jfr_chunk *c = &r->c;
	for (uint64_t moved = 0; moved < size;) {
		const unsigned char *data;
		long got = input_peek(r->in, size - moved < READ_STEP ? (size_t)(size - moved) : READ_STEP, &data);
		if (got <= 0)
			return (int)got;
		if (keep)
			keep_bytes(c, data, (size_t)got);
		else
			spill_put(&r->events, data, (size_t)got);
		input_skip(r->in, (size_t)got);
		moved += (uint64_t)got;
		r->present = at + moved;
	}
	return 1;
}

/* A metadata or checkpoint event just kept, from `kept_at`. */
static void add_piece(struct reader *r, size_t kept_at, uint64_t at, uint64_t size, uint64_t type)
{
	struct jfr_chunk *c = &r->c;
	grow((void **)&c->pieces, &c->cap_pieces, c->n_pieces + 1, sizeof *c->pieces);
	c->pieces[c->n_pieces] = (struct jfr_piece){ kept_at, at, size };
	uint32_t piece = (uint32_t)c->n_pieces++;
	if (type == 0) { /* a chunk may hold several (JDK 14 and later): the last knows every class */
		r->metadata = piece;
		return;
	}
	grow((void **)&r->checkpoints, &r->cap_checkpoints, r->n_checkpoints + 1, sizeof *r->checkpoints);
	r->checkpoints[r->n_checkpoints++] = piece;
}

/* The data event of `size` bytes at `at` is in the spill from `spill_at`. */
static void note_spilled(struct reader *r, uint64_t spill_at, uint64_t at, uint64_t size)
{
	if (r->spilled_to != at) {
		grow((void **)&r->gaps, &r->cap_gaps, r->n_gaps + 1, sizeof *r->gaps);
		r->gaps[r->n_gaps++] = (struct gap){ spill_at, at };
	}
	r->spilled_to = at + size;
}

/* One event at r->end, however large, through the input's buffer: 1, 0 when the input ends first, -1 after reporting. */
static int take_event(struct reader *r, uint64_t chunk_size)
{
	struct jfr_chunk *c = &r->c;
	uint64_t at = r->end, size, type;
	int got = peek_event_header(r, at, chunk_size, &size, &type);
	if (got <= 0)
		return got;
	int keep = type < 2;
	size_t kept_at = c->kept_len;
	uint64_t spill_at = spill_size(&r->events);
	got = move_event(r, at, size, keep);
	if (got <= 0) {
		c->kept_len = kept_at;
		return got;
	}
	if (keep)
		add_piece(r, kept_at, at, size, type);
	else
		note_spilled(r, spill_at, at, size);
	r->events_whole = spill_size(&r->events);
	r->end = at + size;
	return 1;
}

/*
 * The events that lie whole at the start of `data` (`got` bytes of the
 * chunk from r->end): data events spilled a run at a time, the others
 * kept. How many bytes they take; 0 when the first is not whole there.
 */
static size_t take_whole_events(struct reader *r, const unsigned char *data, size_t got, int *failed)
{
	struct jfr_chunk *c = &r->c;
	size_t used = 0, run = 0; /* run: data events' bytes before `used` not yet spilled */
	while (used < got) {
		uint64_t at = r->end + used;
		struct jfr_cursor k = jfr_cursor(c, data + used, 0, got - used < EVENT_HEADER_MAX ? got - used : EVENT_HEADER_MAX, at);
		uint64_t size = jfr_get_int(&k), type = jfr_get_long(&k);
		if (k.bad || size > got - used || size < k.at)
			break; /* take_event reads it, or says what is wrong */
		if (type >= 2) {
			note_spilled(r, spill_size(&r->events) + run, at, size);
			run += (size_t)size;
		} else {
			spill_put(&r->events, data + used - run, run);
			run = 0;
			add_piece(r, c->kept_len, at, size, type);
			keep_bytes(c, data + used, (size_t)size);
		}
		used += (size_t)size;
	}
	spill_put(&r->events, data + used - run, run);
	r->events_whole = spill_size(&r->events);
	*failed = c->failed;
	return used;
}

/*
 * The events after a chunk's header, `chunk_size` bytes in all: metadata
 * and checkpoint events are kept (their pools may come after the events
 * that use them), the others spilled as they came. 1 when the chunk is
 * whole, 0 when the input ends inside it (r->end: where its whole events
 * end), -1 after reporting.
 */
static int take_chunk(struct reader *r, uint64_t chunk_size)
{
	r->metadata = UINT32_MAX;
	r->n_checkpoints = r->n_gaps = 0;
	r->spilled_to = UINT64_MAX;
	r->events_whole = 0;
	spill_clear(&r->events);
	for (r->end = HEADER_BYTES; r->end < chunk_size;) {
		const unsigned char *data;
		long got = input_peek(r->in, chunk_size - r->end < READ_STEP ? (size_t)(chunk_size - r->end) : READ_STEP, &data);
		if (got < 0)
			return -1;
		r->present = r->end + (uint64_t)got;
		int failed;
		size_t used = take_whole_events(r, data, (size_t)got, &failed);
		if (failed)
			return -1;
		input_skip(r->in, used);
		r->end += used;
		if (used == 0 && (got = take_event(r, chunk_size)) <= 0)
			return (int)got;
	}
	return 1;
}

/* A sample in its place in time, to the model. */
static void take_sample(void *ctx, const struct jfr_sample *s)
{
	struct reader *r = ctx;
	const struct event_type *t = &r->types[s->type >> 1];
	r->values[t->count_type] = 1;
	if (t->weight_type != SIZE_MAX)
		r->values[t->weight_type] = s->weight;
	int64_t time = s->type & 1 ? sample_time(r, s->ns) : r->clock.time;
	model_add_samples(r->m, s->stack, r->values, NULL, s->labels, 1, time);
	r->values[t->count_type] = 0;
	if (t->weight_type != SIZE_MAX)
		r->values[t->weight_type] = 0;
}

/* The class of a sample event: 1 with *type set, 0 for an event that is no sample, -1 after reporting. */
static int sample_class(struct reader *r, const struct jfr_cursor *k, uint64_t type_id, uint32_t *type)
{
	struct jfr_chunk *c = &r->c;
	/* Events of one type come in runs (a sampler's buffer): look its class up once a run. */
	if (type_id != r->last_type_id) {
		r->last_type = jfr_class_of_id(c, type_id);
		r->last_type_id = type_id;
	}
	*type = r->last_type;
	if (*type == HASHIDX_NONE) { /* as the JDK's tools do: a JDK 16 emergency dump writes type 732 so */
		if (!r->warned_undefined)
			diag_warn(c->file, 0, "offset %llu: an event of type id %llu, which the chunk's metadata does not define: "
				  "skipped, as are any others so in the chunk", (unsigned long long)(c->file_at + k->chunk_at),
				  (unsigned long long)type_id);
		r->warned_undefined = 1;
		return 0;
	}
	if (!c->classes[*type].plan.planned)
		plan_events(r, *type);
	return c->classes[*type].plan.sample;
}

static int event_failed(struct jfr_chunk *c, const struct jfr_cursor *k, uint32_t type)
{
	return jfr_error(c, k->bad_at, "event %s: %s", c->names + c->classes[type].name.at, k->why ? k->why : "cut short");
}

/* The start of a sample event in ticks, into *ticks unless it has none. */
static int event_ticks(struct reader *r, struct jfr_cursor *k, uint32_t type, int64_t *ticks)
{
	const struct jfr_event_plan *p = &r->c.classes[type].plan;
	if (p->time < 0)
		return 0;
	int64_t time;
	if (p->longs) { /* the fields before it are one number each */
		for (int32_t i = 0; i < p->time; i++)
			jfr_get_long(k);
		time = (int64_t)jfr_get_long(k);
	} else {
		jfr_seek_field(k, type, p->time);
		time = (int64_t)jfr_get_number(k, jfr_field_at(&r->c, type, p->time));
	}
	if (k->bad)
		return event_failed(&r->c, k, type);
	*ticks = time;
	return 0;
}

/*
 * The time (ns since 1970) and weight of a sample event, from its ticks
 * and its weight field's number: 0, or -1 after reporting what cannot be
 * held. *ns stays when the event has no time.
 */
static int sample_numbers(struct reader *r, const struct jfr_cursor *k, uint32_t type, uint64_t time, uint64_t weight,
			  int64_t *ns, int64_t *weight_ns)
{
	struct jfr_chunk *c = &r->c;
	const struct jfr_event_plan *p = &c->classes[type].plan;
	const char *name = c->names + c->classes[type].name.at;
	if (p->time >= 0 && start_ns(c, (int64_t)time, ns))
		return jfr_error(c, k->chunk_at, "event %s: a start time (%lld ticks) that nanoseconds since 1970 cannot hold",
				 name, (long long)time);
	if (p->time >= 0 && too_far_from_first(r, *ns))
		return jfr_error(c, k->chunk_at, "event %s: a start time more than 292 years after the first sample's", name);
	*weight_ns = (int64_t)weight;
	uint8_t unit = p->weight >= 0 ? jfr_field_at(c, type, p->weight)->timespan : JFR_NO_SPAN;
	if (unit != JFR_NO_SPAN && span_ns(c, (int64_t)weight, unit, weight_ns))
		return jfr_error(c, k->chunk_at, "event %s: a %s of %lld %s, which nanoseconds cannot hold", name,
				 c->names + jfr_field_at(c, type, p->weight)->name.at, (long long)weight, span_units[unit]);
	return 0;
}

/*
 * A sample event, decoded once: to the model when the chunk is in time
 * order or while its samples are taken as they come (r->taking: one that
 * goes back in time sets r->restart instead), else to r->order. An event
 * without a time sorts with the event before it, whose start is *ns.
 */
static int decode_sample(struct reader *r, struct jfr_cursor *k, uint32_t type, int64_t *ns)
{
	struct jfr_chunk *c = &r->c;
	const struct jfr_event_plan *p = &c->classes[type].plan;
	uint64_t trace = 0, thread = 0, state = 0, weight = 0, time = 0, object_class = 0;
	for (int32_t i = 0; i <= (int32_t)p->last_needed && !k->bad; i++) {
		uint64_t v = p->longs ? jfr_get_long(k) : jfr_get_number(k, jfr_field_at(c, type, i));
		if (i == p->stack)
			trace = v;
		else if (i == p->time)
			time = v;
		else if (i == p->thread)
			thread = v;
		else if (i == p->state)
			state = v;
		else if (i == p->weight)
			weight = v;
		else if (i == p->object_class)
			object_class = v;
	}
	if (k->bad)
		return event_failed(c, k, type);
	uint64_t stack = 0;
	if (jfr_stack_of(&r->stacks, jfr_field_at(c, type, p->stack)->type, trace, &stack) < 0)
		return -1;
	if (p->object_class >= 0)
		jfr_with_class_leaf(&r->stacks, jfr_field_at(c, type, p->object_class)->type, object_class, &stack);
	uint32_t thread_label = p->thread >= 0 ? jfr_thread_name(&r->stacks, jfr_field_at(c, type, p->thread)->type, thread) : 0;
	uint32_t state_label = p->state >= 0 ? jfr_state_name(&r->stacks, jfr_field_at(c, type, p->state)->type, state) : 0;
	int64_t weight_value = 0;
	if (sample_numbers(r, k, type, time, weight, ns, &weight_value) < 0)
		return -1;
	if (r->taking && *ns < r->taken_ns) {
		r->restart = 1;
		return 0;
	}
	struct jfr_sample s = { *ns, weight_value, (uint32_t)(stack >> 1), sample_labels(r, thread_label, state_label, stack & 1),
				p->event_type << 1 | (p->time >= 0), 0 };
	if (r->taking) {
		r->taken++;
		r->taken_ns = *ns;
	}
	if (r->in_order)
		take_sample(r, &s);
	else
		jfr_order_add(&r->order, &s);
	return 0;
}

/*
 * The chunk's spilled events in the order they came. With `scan`, only
 * the samples' times are read, to learn whether they are in order
 * (r->in_order); else each sample event is decoded. It stops early when
 * samples taken as they come cannot be (r->restart).
 */
static int read_events(struct reader *r, int scan)
{
	struct spill_reader rd;
	spill_reader_init(&rd, &r->events, 0, r->events_whole, READ_STEP);
	uint64_t spill_at = 0, chunk_at = 0;
	size_t gap = 0;
	int64_t last = INT64_MIN; /* the last sample's start: in ticks when scanning, else in ns since 1970 */
	int failed = 0;
	r->last_type_id = 0;
	r->earliest_ns = INT64_MAX;
	r->latest_ns = INT64_MIN;
	while (!failed && !r->restart && (rd.have >= EVENT_HEADER_MAX || spill_reader_want(&rd, EVENT_HEADER_MAX) > 0)) {
		if (gap < r->n_gaps && r->gaps[gap].spill_at == spill_at)
			chunk_at = r->gaps[gap++].chunk_at;
		struct jfr_cursor k = jfr_cursor(&r->c, rd.p, 0, rd.have, chunk_at);
		/* take_chunk checked both, and that the event is whole. */
		uint64_t size = jfr_get_int(&k), type_id = jfr_get_long(&k);
		if (rd.have < size)
			k.bytes = (spill_reader_want(&rd, size), rd.p);
		k.end = size;
		uint32_t type;
		int sample = sample_class(r, &k, type_id, &type);
		if (sample < 0)
			failed = 1;
		else if (sample && !scan)
			failed = decode_sample(r, &k, type, &last) < 0;
		else if (sample) {
			int64_t before = last;
			failed = event_ticks(r, &k, type, &last) < 0;
			if (last < before) {
				r->in_order = 0;
				break;
			}
		}
		spill_reader_skip(&rd, size);
		spill_at += size;
		chunk_at += size;
	}
	spill_reader_free(&rd);
	return failed ? -1 : 0;
}

static uint64_t big_endian(const unsigned char *p, int n)
{
	uint64_t v = 0;
	for (int i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

/* The chunk header's checks; its size, or 0 after reporting. */
static uint64_t read_header(struct reader *r, const unsigned char *h)
{
	struct jfr_chunk *c = &r->c;
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

/*
 * Most chunks' samples are in order already: they go to the model as they
 * are decoded, once. When one goes back in time, or needs a new sample
 * type after some went, those are taken back and r->restart is set.
 */
static int take_as_they_come(struct reader *r)
{
	rows_mark(r->m, &r->mark);
	r->clock_at_mark = r->clock;
	r->taking = r->in_order = 1;
	r->taken = 0;
	r->taken_ns = INT64_MIN;
	r->restart = 0;
	int got = read_events(r, 0);
	r->taking = 0;
	if (got == 0 && r->restart) {
		rows_take_back(r->m, &r->mark);
		r->clock = r->clock_at_mark;
	}
	rows_mark_free(&r->mark);
	return got;
}

/* The metadata, pools and events of the chunk just taken. */
static int read_chunk_events(struct reader *r, int whole)
{
	struct jfr_chunk *c = &r->c;
	if (r->metadata == UINT32_MAX) {
		if (whole)
			return jfr_error(c, HEADER_BYTES, "a chunk without a metadata event");
		if (r->chunks == 0) /* nothing to read: no empty profile stands for it */
			return jfr_error(c, r->present, "the file ends before its first chunk's metadata event");
		diag_warn(c->file, 0, "offset %llu: the recording is cut short before the chunk's metadata: read up to the chunk before",
			  (unsigned long long)(c->file_at + r->end));
		return 0;
	}
	if (jfr_read_metadata(c, r->metadata) < 0)
		return -1;
	for (size_t i = 0; i < r->n_checkpoints; i++)
		if (jfr_read_checkpoint(c, r->checkpoints[i]) < 0)
			return -1;
	if (!whole)
		diag_warn(c->file, 0, "offset %llu: the recording is cut short: read up to the last whole event",
			  (unsigned long long)(c->file_at + r->end));
	if (take_as_they_come(r) < 0)
		return -1;
	if (r->restart) { /* then learn their order first: the pass that learns it plans every class */
		r->restart = 0;
		r->in_order = 1;
		if (read_events(r, 1) < 0 || read_events(r, 0) < 0)
			return -1;
	}
	jfr_order_flush(&r->order, take_sample, r);
	return 0;
}

/* Up to `want` bytes of input; how many, or -1 on a read error. */
static long read_fully(struct input *in, unsigned char *to, size_t want)
{
	size_t got = 0;
	while (got < want) {
		long n = input_read(in, to + got, want - got);
		if (n <= 0)
			return n < 0 ? -1 : (long)got;
		got += (size_t)n;
	}
	return (long)got;
}

/* The next chunk: 1 read, 0 none left (or the rest cut short, with a warning), -1 after reporting. */
static int read_chunk(struct reader *r)
{
	struct jfr_chunk *c = &r->c;
	c->file_at += r->chunk_size;
	jfr_chunk_reset(c);
	unsigned char header[HEADER_BYTES];
	long got = read_fully(r->in, header, HEADER_BYTES);
	if (got < 0)
		return -1;
	if (got == 0 && r->chunks > 0)
		return 0;
	if (got < HEADER_BYTES) {
		if (r->chunks == 0)
			return jfr_error(c, (uint64_t)got, "a chunk header cut short");
		diag_warn(c->file, 0, "offset %llu: the recording is cut short inside a chunk header: read up to the chunk before",
			  (unsigned long long)(c->file_at + (uint64_t)got));
		return 0;
	}
	r->chunk_size = read_header(r, header);
	if (r->chunk_size == 0)
		return -1;
	r->present = HEADER_BYTES;
	r->warned_undefined = 0;
	int whole = take_chunk(r, r->chunk_size);
	if (whole < 0)
		return -1;
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
	free(r->gaps);
	spill_free(&r->events);
	jfr_order_free(&r->order);
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
	spill_init(&r.events, "JFR events", EVENTS_IN_MEMORY);
	jfr_order_init(&r.order);
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
