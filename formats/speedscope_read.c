/*
 * speedscope reader (docs/formats/speedscope.md): speedscope's JSON file
 * format, both profile types. A "sampled" profile's samples (frame index
 * lists) and weights, and an "evented" profile's open/close events, become
 * rows in the file's order; each profile is a sample type named by it,
 * in its unit. Profiles with the same samples in the same order (as prof
 * and speedscope write one profile per weight type) share their rows, a
 * type each. Profiles of threads (py-spy's, dotnet-trace's, the app's own
 * exports of perf and trace events: timelines in one unit of time, or
 * prof's own "TYPE: THREAD") are one type, each profile's samples
 * labelled with its thread (its name) and, in time, at their times from
 * the earliest profile's start, so that views draw a lane per thread.
 *
 * JSON gives keys in any order, and speedscope's own files put "profiles"
 * before "shared" and a profile's "type" and "unit" after its samples, so
 * nothing can become a row before the file ends. What is held until then
 * is compact: stacks interned as a trie of frame indexes (memory grows with
 * distinct stacks), and per sample a stack id and a weight as varints.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/checked.h"
#include "../base/diag.h"
#include "../base/numtext.h"
#include "../base/spool.h"
#include "../base/varint.h"
#include "../io/json.h"
#include "../model/view.h"
#include "speedscope.h"

/* A stack as the file gives it: a frame index on its caller's stack. */
struct trie_node {
	uint32_t frame, caller;
	uint32_t stack; /* the model's, MODEL_NONE until built */
};

/* Where a value is in the file, for a message about it once the file has been read. */
struct place {
	uint64_t line, offset;
};

struct profile {
	uint32_t name, unit;
	int evented;
	int has_type;
	unsigned most;     /* decimals the values have, the most any has */
	unsigned fit;      /* the most decimals at which every value fits an int64 */
	unsigned decimals; /* of its weights, or of its events' times: the fewer of those two */
	int has_start, has_first;
	int64_t start, first;         /* startValue; an evented profile's first time: as written, */
	unsigned start_own, first_own; /* in units of 10^-own */
	/* sampled: trie ids; weights: value then decimals. evented: kind, frame, time, decimals. */
	struct spool samples, weights, events;
	struct spool where; /* each weight's or time's place, line and byte after the one before */
	struct place place; /* the last value's, while reading and again while making rows */
	size_t group; /* the first profile with the same samples */
	size_t lanes; /* the first profile of its threads, one type; SIZE_MAX: a type of its own */
	uint32_t thread; /* the label set of its samples: its thread's, or 0 */
	int64_t offset;  /* with times: its start after the earliest start, in units of 10^-decimals */
	size_t type;
	/* Making its rows: the next sample or event, and how far in time from the earliest start. */
	uint64_t next;
	int64_t elapsed;
	/* An evented profile's: its first and last times, and the frames open, as (frame, stack) pairs. */
	int64_t first_at, last;
	uint32_t *open;
	size_t depth, cap_open;
};

struct reader {
	struct json j;
	struct model *m;
	struct trie_node *trie; /* [0] is the empty stack */
	size_t n_trie, cap_trie;
	struct hashidx trie_index;
	uint32_t *frame_location;
	size_t n_frames, cap_frames;
	int have_frames;
	int warned_index_form; /* a frame index written as a list or a string was reported */
	int warned_rounding;   /* values rounded to fewer decimals were reported */
	int has_frame_index;
	uint32_t max_frame;    /* the largest frame index, checked once the frames are known */
	struct place max_frame_place;
	struct profile *profiles;
	size_t n_profiles, cap_profiles;
	uint32_t file_name; /* the document's "name", 0 when none */
	int64_t active;     /* activeProfileIndex, -1 when none */
	int from_prof;      /* prof wrote it ("exporter"): its profiles of threads are named "TYPE: THREAD" */
	int64_t *values;
	/* With timed rows: the sample type whose values are the time, and ns a value. */
	size_t clock_type;
	double ns_per_value;
};

static int trie_equals(const void *ctx, uint32_t id, const void *key)
{
	const struct trie_node *a = &((const struct reader *)ctx)->trie[id], *b = key;
	return a->frame == b->frame && a->caller == b->caller;
}

static uint32_t trie_child(struct reader *r, uint32_t caller, uint32_t frame)
{
	struct trie_node key = { frame, caller, MODEL_NONE };
	return hashidx_intern(&r->trie_index, hash_mix(frame, caller), trie_equals, r, &key,
			      (void **)&r->trie, &r->n_trie, &r->cap_trie, sizeof *r->trie);
}

static int number_token(struct reader *r, enum json_token t, const char *what)
{
	return t == JSON_NUMBER ? 0 : t == JSON_FAILED ? -1 : json_error(&r->j, "%s must be a number", what);
}

/* The number just read as a frame index. */
static int index_number(struct reader *r, uint32_t *frame)
{
	int64_t v;
	if (json_int(&r->j, "a frame index", &v) < 0)
		return -1;
	if (v < 0 || v >= (int64_t)UINT32_MAX / 2)
		return json_error(&r->j, "frame index %" PRId64 " is out of range", v);
	*frame = (uint32_t)v;
	if (!r->has_frame_index || *frame > r->max_frame) {
		r->has_frame_index = 1;
		r->max_frame = *frame;
		r->max_frame_place = (struct place){ r->j.token_line, r->j.token_offset };
	}
	return 0;
}

/*
 * A frame index as the app reads it: it indexes the frames with the value
 * as JavaScript does, so a list of one element ([32], [[32]]) is that
 * element, and so is a string that is an index ("32"); said once a file.
 */
static int frame_index(struct reader *r, enum json_token t, uint32_t *frame)
{
	struct json *j = &r->j;
	size_t lists = 0;
	for (; t == JSON_ARRAY; t = json_next(j))
		lists++;
	int rc;
	if (t == JSON_NUMBER) {
		rc = index_number(r, frame);
	} else if (t == JSON_STRING && j->len > 0 && j->len <= 9 && strspn(j->text, "0123456789") == j->len &&
		   (j->len == 1 || j->text[0] != '0')) {
		rc = index_number(r, frame);
	} else {
		return t == JSON_FAILED ? -1 : json_error(j, lists ? "a frame index given as a list of other than one number"
								     : "a frame index must be a number");
	}
	uint64_t line = j->token_line;
	for (size_t k = 0; rc == 0 && k < lists; k++)
		if ((t = json_next(j)) != JSON_ARRAY_END)
			rc = t == JSON_FAILED ? -1 : json_error(j, "a frame index given as a list of other than one number");
	if (rc == 0 && (lists || t == JSON_STRING) && !r->warned_index_form) {
		r->warned_index_form = 1;
		diag_warn(j->in->name, line, "frame index %" PRIu32 " written as %s: read as the index, as speedscope reads it",
			  *frame, lists ? "a list" : "a string");
	}
	return rc;
}

/* One frame of shared.frames: a function (name, file, line) at a line and column. */
static int frame(struct reader *r)
{
	struct json *j = &r->j;
	struct model_function f = { 0 };
	int64_t column = 0;
	int has_name = 0;
	for (enum json_token t; (t = json_next(j)) != JSON_OBJECT_END;) {
		if (t != JSON_KEY)
			return -1;
		int name = strcmp(j->text, "name") == 0, file = strcmp(j->text, "file") == 0;
		int line = strcmp(j->text, "line") == 0, col = strcmp(j->text, "col") == 0;
		t = json_next(j);
		/* null is an absent field, as the app reads it (py-spy's col, pyinstrument's file and line). */
		if (t == JSON_NULL && (file || line || col))
			continue;
		if (name || file) {
			if (t != JSON_STRING)
				return t == JSON_FAILED ? -1 : json_error(j, "a frame's %s must be a string", name ? "name" : "file");
			*(name ? &f.name : &f.file_name) = model_str(r->m, j->text, j->len);
			has_name |= name;
		} else if (line || col) {
			if (number_token(r, t, line ? "a frame's line" : "a frame's col") < 0 ||
			    json_int(j, line ? "a frame's line" : "a frame's col", line ? &f.start_line : &column) < 0)
				return -1;
			if ((line ? f.start_line : column) < 0)
				return json_error(j, "a frame's %s is negative", line ? "line" : "col");
		} else if (json_skip(j, t) < 0) {
			return -1;
		}
	}
	if (!has_name)
		return json_error(j, "a frame without a name");
	struct model_location l = { .function = model_function(r->m, &f), .line = f.start_line,
				    .column = column, .native = { .mapping = MODEL_NONE } };
	grow((void **)&r->frame_location, &r->cap_frames, r->n_frames + 1, sizeof *r->frame_location);
	r->frame_location[r->n_frames++] = model_add_location(r->m, &l, NULL, 0);
	return 0;
}

static int shared(struct reader *r)
{
	struct json *j = &r->j;
	if (json_expect(j, JSON_OBJECT, "shared to be an object") < 0)
		return -1;
	for (enum json_token t; (t = json_next(j)) != JSON_OBJECT_END;) {
		if (t != JSON_KEY)
			return -1;
		if (strcmp(j->text, "frames") != 0) {
			if (json_skip(j, json_next(j)) < 0)
				return -1;
			continue;
		}
		if (r->have_frames)
			return json_error(j, "a second frames array");
		r->have_frames = 1;
		if (json_expect(j, JSON_ARRAY, "frames to be an array") < 0)
			return -1;
		while ((t = json_next(j)) != JSON_ARRAY_END)
			if (t != JSON_OBJECT || frame(r) < 0)
				return t == JSON_FAILED || t == JSON_OBJECT ? -1 : json_error(j, "frames must be objects");
	}
	return 0;
}

/* A sampled profile's samples: each a list of frame indexes, outermost first. */
static int samples(struct reader *r, struct profile *p)
{
	struct json *j = &r->j;
	if (json_expect(j, JSON_ARRAY, "samples to be an array") < 0)
		return -1;
	for (enum json_token t; (t = json_next(j)) != JSON_ARRAY_END;) {
		if (t != JSON_ARRAY)
			return t == JSON_FAILED ? -1 : json_error(j, "a sample must be an array of frame indexes");
		uint32_t stack = 0, frame = 0;
		while ((t = json_next(j)) != JSON_ARRAY_END) {
			if (frame_index(r, t, &frame) < 0)
				return -1;
			stack = trie_child(r, stack, frame);
		}
		spool_put(&p->samples, stack);
	}
	return 0;
}

/*
 * v, in units of 10^-own, in units of 10^-decimals: 1 when that does not
 * fit an int64. Fewer decimals than its own are rounded to the nearest,
 * ties to even, as a double rounds what it cannot hold.
 */
static int at_decimals(int64_t v, unsigned own, unsigned decimals, int64_t *out)
{
	if (own <= decimals)
		return checked_mul_i64(v, pow10_i64(decimals - own), out);
	int64_t unit = pow10_i64(own - decimals), kept = v / unit, rest = v % unit;
	/* |rest| < unit <= 10^18, so twice it fits. */
	int64_t past_half = 2 * (rest < 0 ? -rest : rest) - unit;
	if (past_half > 0 || (past_half == 0 && kept % 2 != 0))
		kept += v < 0 ? -1 : 1;
	*out = kept;
	return 0;
}

/*
 * A weight or a time, as a value and its own decimals, and its place. The
 * profile's decimals are the most of them, but no more than fit every
 * value: dotnet-trace writes milliseconds with 16 decimals as large as
 * 25561.436023437498, which the app reads as doubles.
 */
static void count_decimals(struct profile *p, int64_t v, unsigned own)
{
	int64_t held;
	if (own > p->most)
		p->most = own;
	while (p->fit > own && at_decimals(v, own, p->fit, &held))
		p->fit--;
}

static int decimal(struct reader *r, struct profile *p, struct spool *s, const char *what)
{
	int64_t v;
	unsigned own = 0;
	if (json_decimal(&r->j, what, &v, &own) < 0)
		return -1;
	spool_put(s, varint_zigzag(v));
	spool_put(s, own);
	count_decimals(p, v, own);
	spool_put(&p->where, r->j.token_line - p->place.line);
	spool_put(&p->where, r->j.token_offset - p->place.offset);
	p->place = (struct place){ r->j.token_line, r->j.token_offset };
	return 0;
}

static int weights(struct reader *r, struct profile *p)
{
	struct json *j = &r->j;
	if (json_expect(j, JSON_ARRAY, "weights to be an array") < 0)
		return -1;
	for (enum json_token t; (t = json_next(j)) != JSON_ARRAY_END;)
		if (number_token(r, t, "a weight") < 0 || decimal(r, p, &p->weights, "a weight") < 0)
			return -1;
	return 0;
}

/* One event: {"type": "O" or "C", "frame": N, "at": TIME}, kept as kind, frame, time. */
static int event(struct reader *r, struct profile *p)
{
	struct json *j = &r->j;
	int kind = 0;
	uint32_t frame = 0;
	int has_frame = 0, has_at = 0;
	struct spool at = { 0 };
	for (enum json_token t; (t = json_next(j)) != JSON_OBJECT_END;) {
		if (t != JSON_KEY)
			goto failed;
		int is_type = strcmp(j->text, "type") == 0, is_frame = strcmp(j->text, "frame") == 0;
		int is_at = strcmp(j->text, "at") == 0;
		t = json_next(j);
		if (is_type) {
			if (t != JSON_STRING || (strcmp(j->text, "O") != 0 && strcmp(j->text, "C") != 0)) {
				if (t != JSON_FAILED)
					json_error(j, "an event's type must be \"O\" or \"C\"");
				goto failed;
			}
			kind = j->text[0];
		} else if (is_frame || (is_at && !has_at)) {
			if (is_frame ? frame_index(r, t, &frame) < 0
				     : number_token(r, t, "an event's at") < 0 || decimal(r, p, &at, "an event's at") < 0)
				goto failed;
			has_frame |= is_frame;
			has_at |= is_at;
		} else if (json_skip(j, t) < 0) {
			goto failed;
		}
	}
	if (!kind || !has_frame || !has_at) {
		json_error(j, "an event without %s", !kind ? "type" : !has_frame ? "frame" : "at");
		goto failed;
	}
	spool_put(&p->events, kind == 'O');
	spool_put(&p->events, frame);
	spool_rewind(&at);
	uint64_t zigzag = spool_get(&at), own = spool_get(&at);
	spool_put(&p->events, zigzag);
	spool_put(&p->events, own);
	if (!p->has_first) {
		p->has_first = 1;
		p->first = varint_unzigzag(zigzag);
		p->first_own = (unsigned)own;
	}
	spool_free(&at);
	return 0;
failed:
	spool_free(&at);
	return -1;
}

static int events(struct reader *r, struct profile *p)
{
	struct json *j = &r->j;
	if (json_expect(j, JSON_ARRAY, "events to be an array") < 0)
		return -1;
	for (enum json_token t; (t = json_next(j)) != JSON_ARRAY_END;)
		if (t != JSON_OBJECT || event(r, p) < 0)
			return t == JSON_FAILED || t == JSON_OBJECT ? -1 : json_error(j, "events must be objects");
	return 0;
}

static int profile_string(struct reader *r, struct profile *p, const char *key)
{
	struct json *j = &r->j;
	enum json_token t = json_next(j);
	if (t != JSON_STRING)
		return t == JSON_FAILED ? -1 : json_error(j, "a profile's %s must be a string", key);
	if (strcmp(key, "name") == 0) {
		p->name = model_str(r->m, j->text, j->len);
	} else if (strcmp(key, "unit") == 0) {
		p->unit = model_str(r->m, j->text, j->len);
	} else if (strcmp(j->text, "sampled") == 0 || strcmp(j->text, "evented") == 0) {
		p->evented = j->text[0] == 'e';
		p->has_type = 1;
	} else {
		return json_error(j, "a profile's type must be \"sampled\" or \"evented\"");
	}
	return 0;
}

/* Where a sampled profile's first sample starts: its own decimals count, as its weights' do. */
static int start_value(struct reader *r, struct profile *p)
{
	enum json_token t = json_next(&r->j);
	if (t != JSON_NUMBER) /* the app reads none but a number: anything else is no start */
		return json_skip(&r->j, t);
	if (json_decimal(&r->j, "startValue", &p->start, &p->start_own) < 0)
		return -1;
	p->has_start = 1;
	count_decimals(p, p->start, p->start_own);
	return 0;
}

static int profile(struct reader *r)
{
	struct json *j = &r->j;
	grow((void **)&r->profiles, &r->cap_profiles, r->n_profiles + 1, sizeof *r->profiles);
	struct profile *p = &r->profiles[r->n_profiles++];
	memset(p, 0, sizeof *p);
	p->fit = DECIMALS_MAX;
	for (enum json_token t; (t = json_next(j)) != JSON_OBJECT_END;) {
		if (t != JSON_KEY)
			return -1;
		const char *key = j->text;
		int rc;
		if (strcmp(key, "name") == 0 || strcmp(key, "unit") == 0 || strcmp(key, "type") == 0)
			rc = profile_string(r, p, strcmp(key, "name") == 0 ? "name" : strcmp(key, "unit") == 0 ? "unit" : "type");
		else if (strcmp(key, "samples") == 0)
			rc = samples(r, p);
		else if (strcmp(key, "weights") == 0)
			rc = weights(r, p);
		else if (strcmp(key, "events") == 0)
			rc = events(r, p);
		else if (strcmp(key, "startValue") == 0)
			rc = start_value(r, p);
		else
			rc = json_skip(j, json_next(j));
		if (rc < 0)
			return -1;
	}
	if (!p->has_type)
		return json_error(j, "a profile without a type");
	if (!p->evented && p->samples.n != p->weights.n / 2)
		return json_error(j, "a profile with %" PRIu64 " samples and %" PRIu64 " weights",
				  p->samples.n, p->weights.n / 2);
	p->decimals = p->most < p->fit ? p->most : p->fit;
	if (p->decimals < p->most && !r->warned_rounding) {
		r->warned_rounding = 1;
		diag_warn(j->in->name, 0, "profile '%s' has values of %u decimals, too many for 64 bits with its "
			  "largest value: rounded to %u decimals (said once a file)",
			  p->name ? model_cstr(r->m, p->name) : "", p->most, p->decimals);
	}
	return 0;
}

static int top_field(struct reader *r)
{
	struct json *j = &r->j;
	const char *key = j->text;
	if (strcmp(key, "shared") == 0)
		return shared(r);
	if (strcmp(key, "profiles") == 0) {
		if (json_expect(j, JSON_ARRAY, "profiles to be an array") < 0)
			return -1;
		for (enum json_token t; (t = json_next(j)) != JSON_ARRAY_END;)
			if (t != JSON_OBJECT || profile(r) < 0)
				return t == JSON_FAILED || t == JSON_OBJECT ? -1 : json_error(j, "profiles must be objects");
		return 0;
	}
	int is_name = strcmp(key, "name") == 0, is_active = strcmp(key, "activeProfileIndex") == 0;
	int is_exporter = strcmp(key, "exporter") == 0;
	enum json_token t = json_next(j);
	if (is_name && t == JSON_STRING)
		r->file_name = model_str(r->m, j->text, j->len);
	else if (is_exporter && t == JSON_STRING)
		r->from_prof = strncmp(j->text, "prof ", 5) == 0;
	else if (is_active && t == JSON_NUMBER)
		return json_int(j, "activeProfileIndex", &r->active);
	return json_skip(j, t);
}

/* The tokenizer, its last token set to a place, so that a message names the value there, not the file's end. */
static struct json *at_place(struct reader *r, struct place place)
{
	r->j.token_line = place.line;
	r->j.token_offset = place.offset;
	return &r->j;
}

/* Every stack of the trie in the model: a caller's id is always below its callees'. */
static int build_stacks(struct reader *r)
{
	if (r->has_frame_index && r->max_frame >= r->n_frames)
		return json_error(at_place(r, r->max_frame_place), "frame index %" PRIu32 " names no frame: the file has %zu",
				  r->max_frame, r->n_frames);
	for (size_t t = 1; t < r->n_trie; t++) {
		struct trie_node *n = &r->trie[t];
		n->stack = model_stack(r->m, r->frame_location[n->frame], r->trie[n->caller].stack);
	}
	return 0;
}

/* Making rows reads each profile's values, and their places, from the first again. */
static void rewind_values(struct profile *p)
{
	spool_rewind(&p->weights);
	spool_rewind(&p->events);
	spool_rewind(&p->where);
	p->place = (struct place){ 0, 0 };
	p->next = 0;
	p->depth = 0;
	p->elapsed = 0;
}

/* A held value in units of 10^-decimals of the profile, its place p->place. */
static int scaled(struct reader *r, struct profile *p, struct spool *s, int64_t *v)
{
	int64_t held = varint_unzigzag(spool_get(s));
	unsigned own = (unsigned)spool_get(s);
	p->place.line += spool_get(&p->where);
	p->place.offset += spool_get(&p->where);
	/* The profile's decimals were chosen to fit every value: the check only keeps that promise visible. */
	if (at_decimals(held, own, p->decimals, v))
		return json_error(at_place(r, p->place), "a value too large to hold with %u decimals", p->decimals);
	return 0;
}

/* A clock value as ns from the first sample; -1 after reporting one past 2^63 at the place of `p`'s value. */
static int to_ns(struct reader *r, const struct profile *p, int64_t value, int64_t *ns)
{
	double v = (double)value * r->ns_per_value;
	if (v >= 9.2e18)
		return json_error(at_place(r, p->place), "a time past 2^63 nanoseconds");
	*ns = v > 0 ? (int64_t)v : 0;
	return 0;
}

/* A sampled profile's rows, with the weights of every profile sharing its samples. */
static int sampled_rows(struct reader *r, size_t leader)
{
	struct profile *p = &r->profiles[leader], *clock = p;
	int64_t elapsed = p->offset, time_ns = 0;
	for (size_t k = leader; k < r->n_profiles; k++)
		if (r->profiles[k].group == leader)
			rewind_values(&r->profiles[k]);
	spool_rewind(&p->samples);
	for (uint64_t i = 0; i < p->samples.n; i++) {
		memset(r->values, 0, r->m->n_sample_types * sizeof *r->values);
		for (size_t k = leader; k < r->n_profiles; k++) {
			struct profile *q = &r->profiles[k];
			if (q->group != leader)
				continue;
			if (scaled(r, q, &q->weights, &r->values[q->type]) < 0)
				return -1;
			if (q->type == r->clock_type)
				clock = q;
		}
		if (r->m->timed_rows && to_ns(r, clock, elapsed, &time_ns) < 0)
			return -1;
		model_add_samples(r->m, r->trie[spool_get(&p->samples)].stack, r->values, NULL, p->thread, 1, time_ns);
		int64_t took = r->values[r->clock_type];
		if (r->m->timed_rows && took > 0 && checked_add_i64(elapsed, took, &elapsed))
			return json_error(at_place(r, clock->place), "weights that sum past 2^63");
	}
	return 0;
}

/* A sample about to become a row: its stack, its value of its profile's type, and its time. */
struct sample {
	uint32_t stack;
	int64_t value, time_ns;
};

static void add_sample(struct reader *r, const struct profile *p, const struct sample *s)
{
	memset(r->values, 0, r->m->n_sample_types * sizeof *r->values);
	r->values[p->type] = s->value;
	model_add_samples(r->m, s->stack, r->values, NULL, p->thread, 1, s->time_ns);
}

/*
 * An evented profile's next stretch between events with a frame open, as
 * the stack open through it: 1, or 0 at the end, -1 after an error.
 */
static int evented_next(struct reader *r, struct profile *p, struct sample *out)
{
	while (p->next * 4 < p->events.n) {
		uint64_t e = p->next++;
		int opens = spool_get(&p->events) != 0, found = 0;
		uint32_t frame = (uint32_t)spool_get(&p->events);
		int64_t at, step, from_first = 0;
		if (scaled(r, p, &p->events, &at) < 0)
			return -1;
		if (e == 0)
			p->first_at = p->last = at;
		if (at < p->last)
			return json_error(at_place(r, p->place), "event %" PRIu64 " goes back in time", e);
		/* Each stretch is a weight; with times, its start from the earliest start is one too. */
		if (checked_sub_i64(at, p->last, &step))
			return json_error(at_place(r, p->place), "event %" PRIu64 " is 2^63 or more units after the one before", e);
		if (r->m->timed_rows && (checked_sub_i64(at, p->first_at, &from_first) || checked_add_i64(from_first, p->offset, &from_first)))
			return json_error(at_place(r, p->place), "event %" PRIu64 " is 2^63 or more units after the first", e);
		if (p->depth > 0 && step > 0) {
			*out = (struct sample){ p->open[2 * p->depth - 1], step, 0 };
			if (r->m->timed_rows && to_ns(r, p, p->elapsed, &out->time_ns) < 0)
				return -1;
			found = 1;
		}
		p->last = at;
		p->elapsed = from_first;
		if (!opens) {
			if (p->depth == 0 || p->open[2 * p->depth - 2] != frame)
				return json_error(at_place(r, p->place), "event %" PRIu64 " closes frame %" PRIu32 ", which is not the innermost open",
						  e, frame);
			p->depth--;
		} else {
			grow((void **)&p->open, &p->cap_open, 2 * p->depth + 2, sizeof *p->open);
			p->open[2 * p->depth] = frame;
			p->open[2 * p->depth + 1] = model_stack(r->m, r->frame_location[frame],
								p->depth ? p->open[2 * p->depth - 1] : MODEL_EMPTY_STACK);
			p->depth++;
		}
		if (found)
			return 1;
	}
	return 0;
}

/* An evented profile's rows: each stretch between events, as the stack open through it. */
static int evented_rows(struct reader *r, struct profile *p)
{
	struct sample s;
	int rc;
	rewind_values(p);
	while ((rc = evented_next(r, p, &s)) > 0)
		add_sample(r, p, &s);
	return rc;
}

/* A thread's next sample (a sampled profile shares its samples with no other): 1, 0 at the end, -1. */
static int sampled_next(struct reader *r, struct profile *p, struct sample *out)
{
	if (p->next == p->samples.n)
		return 0;
	p->next++;
	if (scaled(r, p, &p->weights, &out->value) < 0 || to_ns(r, p, p->elapsed, &out->time_ns) < 0)
		return -1;
	out->stack = r->trie[spool_get(&p->samples)].stack;
	if (out->value > 0 && checked_add_i64(p->elapsed, out->value, &p->elapsed))
		return json_error(at_place(r, p->place), "weights that sum past 2^63");
	return 1;
}

/*
 * Threads of one type in time: every thread's samples, merged by their
 * times, so that rows are in time order as --time and --samples count
 * them. A pass over the threads a sample: threads are few.
 */
static int thread_rows(struct reader *r)
{
	size_t n = r->n_profiles, best;
	struct sample *next = xcalloc(n, sizeof *next);
	int *has = xcalloc(n, sizeof *has), rc = 0;
	for (size_t i = 0; i < n && rc >= 0; i++) {
		struct profile *p = &r->profiles[i];
		rewind_values(p);
		spool_rewind(&p->samples);
		p->elapsed = p->offset;
		rc = has[i] = p->evented ? evented_next(r, p, &next[i]) : sampled_next(r, p, &next[i]);
	}
	while (rc >= 0) {
		best = SIZE_MAX;
		for (size_t i = 0; i < n; i++)
			if (has[i] > 0 && (best == SIZE_MAX || next[i].time_ns < next[best].time_ns))
				best = i;
		if (best == SIZE_MAX)
			break;
		struct profile *p = &r->profiles[best];
		add_sample(r, p, &next[best]);
		rc = has[best] = p->evented ? evented_next(r, p, &next[best]) : sampled_next(r, p, &next[best]);
	}
	free(next);
	free(has);
	return rc < 0 ? -1 : 0;
}

/* speedscope's units as the model names them; "none" is a count. */
static const char *unit_of(const struct reader *r, const struct profile *p)
{
	if (!p->unit || model_str_is(r->m, p->unit, "none") || model_str_is(r->m, p->unit, ""))
		return "count";
	return model_cstr(r->m, p->unit);
}

/* A profile's name, less the document's name that prof and speedscope put before it; "" when none. */
static const char *own_name(const struct reader *r, const struct profile *p)
{
	const char *name = p->name ? model_cstr(r->m, p->name) : "";
	if (r->file_name) {
		const char *file = model_cstr(r->m, r->file_name);
		size_t n = strlen(file);
		if (strncmp(name, file, n) == 0 && strncmp(name + n, ": ", 2) == 0 && name[n + 2])
			name += n + 2;
	}
	return name;
}

/* The length of TYPE in the name "TYPE: THREAD" that prof gives a thread's profile; 0 for other names. */
static size_t prof_type_length(const struct reader *r, const struct profile *p)
{
	const char *name = own_name(r, p), *colon = strstr(name, ": ");
	return r->from_prof && colon && colon > name && colon[2] ? (size_t)(colon - name) : 0;
}

/* A profile's type: its name, or "profile N". */
static void add_type(struct reader *r, size_t i)
{
	struct profile *p = &r->profiles[i];
	char fallback[32];
	const char *name = own_name(r, p);
	if (!*name) {
		snprintf(fallback, sizeof fallback, "profile %zu", i);
		name = fallback;
	}
	p->type = model_add_sample_type(r->m, name, unit_of(r, p));
	r->m->sample_types[p->type].decimals = (uint8_t)p->decimals;
	if ((int64_t)i == r->active)
		model_set_meta(r->m, "default_sample_type", name);
}

/* Are they prof's profiles of two threads of one type ("TYPE: THREAD")? */
static int prof_threads_of_one_type(const struct reader *r, const struct profile *p, const struct profile *q)
{
	size_t n = prof_type_length(r, p);
	return n && n == prof_type_length(r, q) && strncmp(own_name(r, p), own_name(r, q), n) == 0;
}

/* Profiles with the same samples in the same order share rows, but for threads of one type. */
static void group_profiles(struct reader *r)
{
	for (size_t i = 0; i < r->n_profiles; i++) {
		struct profile *p = &r->profiles[i];
		p->group = i;
		p->lanes = SIZE_MAX;
		for (size_t k = 0; k < i && !p->evented; k++) {
			struct profile *q = &r->profiles[k];
			if (!q->evented && q->group == k && !prof_threads_of_one_type(r, p, q) && q->samples.used == p->samples.used &&
			    (p->samples.used == 0 || memcmp(q->samples.bytes, p->samples.bytes, p->samples.used) == 0)) {
				p->group = k;
				break;
			}
		}
	}
}

/*
 * Can profile i be a thread's: no other profile shares its samples (those
 * are types: `shared`), and it is a timeline in a unit of time, or prof
 * named it "TYPE: THREAD"?
 */
static int is_thread(const struct reader *r, size_t i, const uint8_t *shared)
{
	const struct profile *p = &r->profiles[i];
	return !shared[i] && (prof_type_length(r, p) > 0 || view_ns_per_value(unit_of(r, p), p->decimals) > 0);
}

/* Are profiles i and k threads of one type: one unit, and with prof's names, one TYPE? */
static int same_lanes(const struct reader *r, size_t i, size_t k)
{
	const struct profile *p = &r->profiles[i], *q = &r->profiles[k];
	return strcmp(unit_of(r, p), unit_of(r, q)) == 0 &&
	       (prof_threads_of_one_type(r, p, q) || (!prof_type_length(r, p) && !prof_type_length(r, q)));
}

/* A thread's profile: its samples labelled with its name (after prof's "TYPE: "). */
static void label_thread(struct reader *r, size_t i, size_t type_length)
{
	struct profile *p = &r->profiles[i];
	char fallback[32];
	const char *name = own_name(r, p) + (type_length ? type_length + 2 : 0);
	if (!*name) {
		snprintf(fallback, sizeof fallback, "profile %zu", i);
		name = fallback;
	}
	struct model_label label = { model_str(r->m, "thread", 6), model_str(r->m, name, strlen(name)), 0, 0 };
	p->thread = model_label_set(r->m, &label, 1);
}

/*
 * The threads of one type, from profile `first`: one sample type, named
 * TYPE for prof's, else "wall" (as trace events' and Firefox's threads),
 * with the decimals that fit every one of them.
 */
static void add_lanes(struct reader *r, size_t first)
{
	struct profile *p = &r->profiles[first];
	unsigned most = 0, fit = DECIMALS_MAX;
	for (size_t k = first; k < r->n_profiles; k++)
		if (r->profiles[k].lanes == first) {
			most = r->profiles[k].most > most ? r->profiles[k].most : most;
			fit = r->profiles[k].fit < fit ? r->profiles[k].fit : fit;
		}
	unsigned decimals = most < fit ? most : fit;
	if (decimals < most && !r->warned_rounding) {
		r->warned_rounding = 1;
		diag_warn(r->j.in->name, 0, "threads of '%s' have values of %u decimals, too many for 64 bits with the "
			  "largest value: rounded to %u decimals (said once a file)", own_name(r, p), most, decimals);
	}
	size_t type_length = prof_type_length(r, p);
	char name[256];
	snprintf(name, sizeof name, "%.*s", type_length ? (int)(type_length < 255 ? type_length : 255) : 4,
		 type_length ? own_name(r, p) : "wall");
	size_t type = model_add_sample_type(r->m, name, unit_of(r, p));
	r->m->sample_types[type].decimals = (uint8_t)decimals;
	for (size_t k = first; k < r->n_profiles; k++) {
		struct profile *q = &r->profiles[k];
		if (q->lanes != first)
			continue;
		q->decimals = decimals;
		q->type = type;
		label_thread(r, k, type_length);
		if ((int64_t)k == r->active)
			model_set_meta(r->m, "default_sample_type", name);
	}
}

/* Profiles of threads of one type become one type, the others a type each. */
static void add_types(struct reader *r)
{
	uint8_t *shared = xcalloc(r->n_profiles, 1), *thread = xcalloc(r->n_profiles, 1);
	for (size_t i = 0; i < r->n_profiles; i++)
		if (r->profiles[i].group != i)
			shared[i] = shared[r->profiles[i].group] = 1;
	for (size_t i = 0; i < r->n_profiles; i++)
		thread[i] = (uint8_t)is_thread(r, i, shared);
	for (size_t i = 0; i < r->n_profiles; i++) {
		if (r->profiles[i].lanes != SIZE_MAX || !thread[i])
			continue;
		size_t n = 0;
		for (size_t k = i; k < r->n_profiles; k++)
			if (r->profiles[k].lanes == SIZE_MAX && thread[k] && same_lanes(r, i, k)) {
				r->profiles[k].lanes = i;
				n++;
			}
		if (n < 2) /* one thread is a profile as any other */
			r->profiles[i].lanes = SIZE_MAX;
	}
	free(shared);
	free(thread);
	for (size_t i = 0; i < r->n_profiles; i++)
		if (r->profiles[i].lanes == i)
			add_lanes(r, i);
		else if (r->profiles[i].lanes == SIZE_MAX)
			add_type(r, i);
}

/* Where profile p's first sample is, in units of 10^-decimals of it; 0 when the file does not say. */
static int64_t start_of(const struct profile *p)
{
	int64_t v = 0;
	if (p->evented ? p->has_first : p->has_start)
		at_decimals(p->evented ? p->first : p->start, p->evented ? p->first_own : p->start_own, p->decimals, &v);
	return v;
}

/*
 * Threads of one type are one timeline: each starts at its start (a
 * sampled profile's startValue, an evented one's first event) after the
 * earliest. -1 when two starts are 2^63 units apart or more.
 */
static int offset_threads(struct reader *r)
{
	int64_t earliest = INT64_MAX;
	for (size_t i = 0; i < r->n_profiles; i++)
		if (start_of(&r->profiles[i]) < earliest)
			earliest = start_of(&r->profiles[i]);
	for (size_t i = 0; i < r->n_profiles; i++)
		if (checked_sub_i64(start_of(&r->profiles[i]), earliest, &r->profiles[i].offset))
			return json_error(&r->j, "profile %zu starts 2^63 or more units after the earliest", i);
	return 0;
}

/*
 * Rows carry times when the file is one timeline: every profile shares
 * one list of samples (or there is one evented profile), or every profile
 * is a thread of one type, and one of them counts time. Profiles of their
 * own each start again at 0: no times.
 */
static int choose_clock(struct reader *r)
{
	int threads = r->profiles[0].lanes == 0;
	for (size_t i = 1; i < r->n_profiles; i++)
		if ((threads ? r->profiles[i].lanes : r->profiles[i].group) != 0)
			return 0;
	for (size_t i = 0; i < r->n_profiles; i++) {
		double ns = view_ns_per_value(unit_of(r, &r->profiles[i]), r->profiles[i].decimals);
		if (ns > 0) {
			r->clock_type = r->profiles[i].type;
			r->ns_per_value = ns;
			r->m->timed_rows = 1;
			return threads ? offset_threads(r) : 0;
		}
	}
	return 0;
}

static int build_rows(struct reader *r)
{
	if (r->n_profiles == 0)
		return json_error(&r->j, "no profiles");
	if (build_stacks(r) < 0)
		return -1;
	group_profiles(r);
	add_types(r);
	if (choose_clock(r) < 0)
		return -1;
	r->values = xcalloc(r->m->n_sample_types, sizeof *r->values);
	if (r->m->timed_rows && r->profiles[0].lanes == 0)
		return thread_rows(r);
	for (size_t i = 0; i < r->n_profiles; i++) {
		struct profile *p = &r->profiles[i];
		if (p->group == i && (p->evented ? evented_rows(r, p) : sampled_rows(r, i)) < 0)
			return -1;
	}
	return 0;
}

static int read_document(struct reader *r)
{
	struct json *j = &r->j;
	if (json_expect(j, JSON_OBJECT, "a JSON object (a speedscope file)") < 0)
		return -1;
	for (enum json_token t; (t = json_next(j)) != JSON_OBJECT_END;)
		if (t != JSON_KEY || top_field(r) < 0)
			return -1;
	if (json_next(j) != JSON_END)
		return -1;
	return build_rows(r);
}

int speedscope_read(struct input *in, struct model *m)
{
	struct reader r;
	memset(&r, 0, sizeof r);
	r.m = m;
	r.active = -1;
	m->rules.strict_r = 0;
	/* Each sample of the file is one: equal neighbours are not one sample of twice the weight. */
	m->rules.keep_rows_apart = 1;
	json_begin(&r.j, in);
	grow((void **)&r.trie, &r.cap_trie, 1, sizeof *r.trie);
	r.trie[0] = (struct trie_node){ MODEL_NONE, 0, MODEL_EMPTY_STACK };
	r.n_trie = 1;
	int rc = read_document(&r);
	json_end(&r.j);
	for (size_t i = 0; i < r.n_profiles; i++) {
		spool_free(&r.profiles[i].samples);
		spool_free(&r.profiles[i].weights);
		spool_free(&r.profiles[i].events);
		spool_free(&r.profiles[i].where);
		free(r.profiles[i].open);
	}
	free(r.profiles);
	free(r.trie);
	hashidx_free(&r.trie_index);
	free(r.frame_location);
	free(r.values);
	return rc;
}
