/*
 * Ruby stackprof dumps (docs/formats/stackprof.md): the reader's entry,
 * which picks the front end by the first bytes (Marshal's 04 08, else
 * JSON), and the builder both front ends feed (stackprof.h).
 *
 * raw is a flat list of records: a length, that many frame ids (the root
 * first), then how many samples in a row had that stack. Weights are the
 * speedscope app's (its import/stackprof.ts): object mode counts samples
 * (times the interval, 1 by default, as allocations); cpu mode gives each
 * sample the interval in microseconds; wall mode gives each sample its
 * raw_timestamp_deltas entry, the microseconds since the sample before,
 * or the interval where the dump has none. Where the deltas are there,
 * the samples get their times from them. A "(garbage collection)" frame
 * alone goes on top of the stack before it, as the app puts it. A dump
 * without raw (stackprof's default, raw: false) holds no stacks: each
 * frame's own samples become a one-frame stack, with a warning.
 */
#include "stackprof.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/checked.h"
#include "../base/diag.h"
#include "format.h"

int stackprof_read(struct input *in, struct model *m);

void stackprof_dump_init(struct stackprof_dump *d, struct model *m)
{
	memset(d, 0, sizeof *d);
	d->m = m;
	d->frames_left = -1;
}

void stackprof_dump_free(struct stackprof_dump *d)
{
	free(d->frames);
	hashidx_free(&d->frame_index);
	free(d->records);
	free(d->before);
	spool_free(&d->deltas);
}

int stackprof_set_mode(struct stackprof_dump *d, const unsigned char *name, size_t len)
{
	static const char *const names[] = { "cpu", "wall", "object", "custom" };
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (len == strlen(names[i]) && memcmp(name, names[i], len) == 0) {
			d->mode = (enum stackprof_mode)(STACKPROF_CPU + i);
			return 0;
		}
	return -1;
}

static int frame_equals(const void *ctx, uint32_t i, const void *key)
{
	return ((const struct stackprof_dump *)ctx)->frames[i].id == *(const int64_t *)key;
}

static uint32_t find_frame(const struct stackprof_dump *d, int64_t id)
{
	return hashidx_find(&d->frame_index, hash_mix((uint64_t)id, 0), frame_equals, d, &id);
}

const char *stackprof_add_frame(struct stackprof_dump *d, int64_t id, uint32_t name, uint32_t file,
				int64_t line, int64_t self)
{
	if (d->has_raw)
		return "frames after raw: stackprof writes frames first";
	if (find_frame(d, id) != HASHIDX_NONE)
		return "a second frame of this id";
	if (line < 0 || self < 0)
		return line < 0 ? "a frame's line is negative" : "a frame's samples are negative";
	struct model_function fn = {
		.name = name != MODEL_NONE ? name : model_str(d->m, "(unknown)", 9),
		.file_name = file != MODEL_NONE ? file : 0,
		.start_line = line,
	};
	grow((void **)&d->frames, &d->cap_frames, d->n_frames + 1, sizeof *d->frames);
	d->frames[d->n_frames] = (struct stackprof_frame){ .id = id, .self = self,
		.location = model_location(d->m, model_function(d->m, &fn), line),
		.is_gc = name != MODEL_NONE && model_str_is(d->m, name, "(garbage collection)") };
	hashidx_insert(&d->frame_index, hash_mix((uint64_t)id, 0), (uint32_t)d->n_frames++);
	return NULL;
}

int64_t stackprof_keyed_frame_id(const struct stackprof_dump *d)
{
	return INT64_MIN + (int64_t)d->n_frames;
}

/* A record's count: the record is kept, its stack the one a lone GC frame goes on next. */
static const char *record_end(struct stackprof_dump *d, int64_t count)
{
	if (count < 0)
		return "a record's count of samples is negative";
	if (d->record_frames == 1 && d->record_is_gc)
		d->stack = model_stack(d->m, d->record_location, d->previous_stack);
	grow((void **)&d->records, &d->cap_records, d->n_records + 1, sizeof *d->records);
	d->records[d->n_records++] = (struct stackprof_record){ .stack = d->stack, .count = count };
	d->previous_stack = d->stack;
	d->frames_left = -1;
	return NULL;
}

/* The next frame id of a record: its stack, from the record before while they agree. */
static const char *next_frame(struct stackprof_dump *d, int64_t id, char *why, size_t why_size)
{
	size_t at = (size_t)(d->record_frames - d->frames_left);
	d->same_as_before = d->same_as_before && at < d->n_before && d->before[at].id == id;
	if (!d->same_as_before) {
		uint32_t i = find_frame(d, id);
		if (i == HASHIDX_NONE && d->n_frames == 0)
			return "raw names frames, and no frames come before it (stackprof writes them first)";
		if (i == HASHIDX_NONE) {
			snprintf(why, why_size, "frame %" PRId64 ", which frames does not hold", id);
			return why;
		}
		grow((void **)&d->before, &d->cap_before, at + 1, sizeof *d->before);
		d->before[at] = (struct stackprof_step){ .id = id, .location = d->frames[i].location,
			.is_gc = d->frames[i].is_gc, .stack = model_stack(d->m, d->frames[i].location, d->stack) };
		d->n_before = at + 1; /* the steps past it are another record's */
	}
	d->record_location = d->before[at].location;
	d->record_is_gc = d->before[at].is_gc;
	d->stack = d->before[at].stack;
	return NULL;
}

/* The next integer of raw: NULL, or why it is refused (written into why[]). */
static const char *raw_number(struct stackprof_dump *d, int64_t v, char *why, size_t why_size)
{
	d->has_raw = 1;
	if (d->frames_left == -2)
		return record_end(d, v);
	if (d->frames_left == -1) {
		if (v < 0)
			return "a record's length is negative";
		d->record_frames = d->frames_left = v;
		d->stack = MODEL_EMPTY_STACK;
		d->same_as_before = 1;
		if (v == 0)
			d->frames_left = -2;
		return NULL;
	}
	const char *refused = next_frame(d, v, why, why_size);
	if (refused)
		return refused;
	if (--d->frames_left == 0)
		d->frames_left = -2;
	return NULL;
}

/* raw has ended: NULL, or why it is refused. */
static const char *raw_end(struct stackprof_dump *d)
{
	return d->frames_left == -1 ? NULL : "raw ends inside a record";
}

const char *stackprof_number(struct stackprof_dump *d, int deltas, int64_t v, char *why, size_t why_size)
{
	if (!deltas)
		return raw_number(d, v, why, why_size);
	if (v < 0)
		return "a negative delta in raw_timestamp_deltas";
	spool_put(&d->deltas, (uint64_t)v);
	return NULL;
}

const char *stackprof_numbers_end(struct stackprof_dump *d, int deltas)
{
	if (deltas) {
		d->has_deltas = 1;
		return NULL;
	}
	d->has_raw = 1;
	return raw_end(d);
}

/* samples/count, then the mode's weight: its time, or its allocations. */
static void sample_types(struct stackprof_dump *d)
{
	static const char *const weights[][2] = {
		[STACKPROF_CPU] = { "cpu", "microseconds" },
		[STACKPROF_WALL] = { "wall", "microseconds" },
		[STACKPROF_OBJECT] = { "allocations", "count" },
	};
	model_add_sample_type(d->m, "samples", "count");
	if (d->mode == STACKPROF_CUSTOM)
		return;
	model_add_sample_type(d->m, weights[d->mode][0], weights[d->mode][1]);
	model_set_meta(d->m, "default_sample_type", weights[d->mode][0]);
}

/* n samples of a stack, each weighing the interval. */
static void add_counted(struct stackprof_dump *d, uint32_t stack, int64_t n)
{
	int64_t values[2] = { 1, d->interval };
	if (n > 0)
		model_add_samples(d->m, stack, values, NULL, 0, (uint64_t)n, 0);
}

/*
 * Each sample of a record alone, at its time; in wall mode it weighs its
 * delta. A delta is the time since the sample before: the span the sample
 * stands for ends at it, so the sample's time is where that span starts.
 */
static const char *add_timed(struct stackprof_dump *d, const struct stackprof_record *r, int64_t *now_us)
{
	for (int64_t k = 0; k < r->count; k++) {
		int64_t delta = (int64_t)spool_get(&d->deltas), time_ns;
		if (checked_mul_i64(*now_us, 1000, &time_ns) || checked_add_i64(*now_us, delta, now_us))
			return "raw_timestamp_deltas add up past 2^63 nanoseconds";
		int64_t values[2] = { 1, d->mode == STACKPROF_WALL ? delta : d->interval };
		model_add_samples(d->m, r->stack, values, NULL, 0, 1, time_ns);
	}
	return NULL;
}

static const char *add_records(struct stackprof_dump *d, char *why, size_t why_size)
{
	uint64_t total = 0; /* held: check_total */
	for (size_t i = 0; i < d->n_records; i++)
		total += (uint64_t)d->records[i].count;
	if (d->has_deltas && d->deltas.n != total) {
		snprintf(why, why_size, "raw_timestamp_deltas holds %" PRIu64 " deltas, for %" PRIu64 " samples in raw",
			 d->deltas.n, total);
		return why;
	}
	d->m->timed_rows = (uint8_t)d->has_deltas;
	int64_t now_us = 0;
	for (size_t i = 0; i < d->n_records; i++) {
		if (!d->has_deltas) {
			add_counted(d, d->records[i].stack, d->records[i].count);
			continue;
		}
		const char *bad = add_timed(d, &d->records[i], &now_us);
		if (bad)
			return bad;
	}
	return NULL;
}

/* No raw: each frame's own samples, on a stack of that frame alone. */
static void add_self_counts(struct stackprof_dump *d, const char *input_name)
{
	diag_warn(input_name, 0, "no raw samples (taken without raw: true, or merged by stackprof): "
		  "read as one-frame stacks of each frame's own samples");
	for (size_t i = 0; i < d->n_frames; i++)
		add_counted(d, model_stack(d->m, d->frames[i].location, MODEL_EMPTY_STACK), d->frames[i].self);
}

/*
 * Every weight, and their sum, must be held: the samples (raw's counts, or
 * the frames' own) times the interval stay below 2^63.
 */
static const char *check_total(const struct stackprof_dump *d)
{
	int64_t total = 0, weight;
	for (size_t i = 0; i < d->n_records; i++)
		if (checked_add_i64(total, d->records[i].count, &total))
			return "raw's counts of samples add up past 2^63";
	for (size_t i = 0; !d->has_raw && i < d->n_frames; i++)
		if (checked_add_i64(total, d->frames[i].self, &total))
			return "the frames' samples add up past 2^63";
	return checked_mul_i64(total, d->interval, &weight) ? "the samples times the interval pass 2^63" : NULL;
}

const char *stackprof_build(struct stackprof_dump *d, const char *input_name, char *why, size_t why_size)
{
	if (d->mode == STACKPROF_NO_MODE)
		return "no mode: not a stackprof dump";
	if (d->interval <= 0)
		return "no interval, or one below 1";
	const char *bad = check_total(d);
	if (bad)
		return bad;
	sample_types(d);
	if (!d->has_raw) {
		add_self_counts(d, input_name);
		return NULL;
	}
	return add_records(d, why, why_size);
}

int stackprof_read(struct input *in, struct model *m)
{
	const unsigned char *prefix;
	long n = input_peek(in, 2, &prefix);
	if (n < 0)
		return -1;
	struct stackprof_dump d;
	stackprof_dump_init(&d, m);
	m->rules.strict_r = 0;
	int marshal = n == 2 && prefix[0] == 4 && prefix[1] == 8;
	int rc = marshal ? stackprof_read_marshal(in, &d) : stackprof_read_json(in, &d);
	stackprof_dump_free(&d);
	return rc;
}
