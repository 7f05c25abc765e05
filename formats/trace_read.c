/*
 * Chrome's trace event reader (docs/formats/trace.md): a JSON object with
 * `traceEvents`, or a bare array of events, perhaps without its closing
 * `]` (Chrome writes so while tracing). Every pid/tid is a thread, its
 * samples labelled pid, tid and, from `M` events, thread and process.
 * What the trace holds becomes samples with times (rows in time order,
 * from its earliest time), of one of three kinds, as the speedscope app
 * picks them:
 *  - V8 CPU profiles (Profile and ProfileChunk events, trace_v8.c), read
 *    by the .cpuprofile reader: `samples` and `wall`;
 *  - else OS samples (`stackFrames` and `samples`, React Native's), each
 *    lasting until the thread's next: `samples` and `wall`;
 *  - else B/E pairs and X events, per thread a timeline of slices: each
 *    stretch of time with a slice open is a sample of the open stack,
 *    `wall` its length, ordered, paired and repaired as speedscope's
 *    importer does (thread_slices), with a warning for what was repaired.
 * A slice's frame is its name and its args as JavaScript writes them
 * (trace_args.c), speedscope's name for it; Hermes' traces name a frame by
 * its args' url, line and column instead.
 *
 * Memory: every B, E and X event (32 bytes), every sample, and the V8
 * profiles' text: slices are ordered only once the file is read. Their
 * timelines are then held packed (some 6 bytes a stretch of time, about
 * two an event), each thread's in time order, merged into rows as read.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/checked.h"
#include "../base/diag.h"
#include "../base/varint.h"
#include "trace.h"

/* A pid or tid: a number, or a string that is none. */
struct id_value {
	uint8_t kind; /* ID_ABSENT, ID_NUMBER, ID_STRING */
	int64_t num;
	uint32_t str;
};
enum { ID_ABSENT, ID_NUMBER, ID_STRING };

/* A B, E or X event of a thread: its location is location_of_key[frame]. */
struct event {
	int64_t ts, dur; /* nanoseconds */
	uint32_t key;      /* speedscope's: name (or "(unnamed)") and args */
	uint32_t frame;    /* the frame's key: `key`, or Hermes' name:url:line:column */
	uint32_t name;     /* as written; NO_NAME when absent */
	char ph;
};

/* A pid/tid, and its B, E and X events in the file's order (a timeline is made of one thread's alone). */
struct thread {
	struct id_value pid, tid;
	uint32_t labels;
	struct event *events;
	size_t n_events, cap_events;
};
#define NO_NAME UINT32_MAX

/* An OS sample's frame (`stackFrames`), by its id. */
struct os_frame {
	uint32_t id, parent; /* string ids; parent NO_NAME when none */
	uint32_t location;
	uint32_t stack;     /* its stack once built; MODEL_NONE before */
	uint8_t on_path;
};

struct os_sample {
	int64_t ts;
	uint32_t thread, frame; /* frame: the sf's string id; NO_NAME: none */
};

/* A name from an M event: a process's (tid absent) or a thread's. */
struct thread_name {
	struct id_value pid, tid;
	uint32_t name;
};

struct reader {
	struct json j;
	struct input *in;
	struct model *m;
	struct thread *threads;
	size_t n_threads, cap_threads;
	struct hashidx thread_index;
	uint32_t last_thread;
	uint32_t name_profile, name_chunk, name_cpu_profile; /* the V8 events' names, interned */
	struct thread_name *names;
	size_t n_names, cap_names;
	struct os_frame *frames;
	size_t n_frames, cap_frames;
	struct hashidx frame_index;
	struct os_sample *samples;
	size_t n_samples, cap_samples;
	int has_stack_frames, has_samples;
	struct trace_v8 *v8;
	uint32_t *location_of_key; /* by string id: a slice frame's location */
	size_t cap_location_of_key;
	uint32_t *root_stack; /* by location: its stack alone, once made; MODEL_NONE before */
	size_t cap_root_stack;
	struct trace_text args_text, key_text;
	struct trace_args args;
	int hermes, first_seen, in_events;
	uint64_t no_phase;
	struct trace_stretches stretches;
};

/* One event's fields, as read. */
struct fields {
	char ph;
	int has_ph, has_ts, has_dur, has_tdur, has_args, args_truthy;
	uint32_t name;
	int64_t ts, dur, tdur;
	struct id_value pid, tid;
	char id[64];
	int has_id;
};

void trace_stretch_add(struct trace_stretches *s, const struct trace_stretch *item)
{
	if (s->n == s->cap)
		grow((void **)&s->items, &s->cap, s->n + 1, sizeof *s->items);
	s->items[s->n] = *item;
	s->items[s->n].order = (uint32_t)s->n;
	s->n++;
}

/*
 * A time in microseconds as written ("12", "3.5", "1e3", or such text in
 * a string) in nanoseconds, rounded to the nearest: 0; 1 not a number;
 * 2 past 2^61 nanoseconds.
 */
static int parse_us(const char *s, int64_t *ns)
{
	int negative = *s == '-';
	s += negative;
	/* Whole microseconds, as most traces write them. */
	uint64_t whole = 0;
	const char *d = s;
	for (; *d >= '0' && *d <= '9' && d - s < 15; d++)
		whole = whole * 10 + (uint64_t)(*d - '0');
	if (*d == '\0' && d > s) {
		*ns = (negative ? -1 : 1) * (int64_t)whole * 1000;
		return 0;
	}
	uint64_t digits = 0;
	int64_t exponent = 3; /* microseconds to nanoseconds */
	int any = 0, round_up = 0;
	for (int point = 0;; s++) {
		if (*s == '.' && !point) {
			point = 1;
			continue;
		}
		if (*s < '0' || *s > '9')
			break;
		any = 1;
		if (digits < UINT64_MAX / 100) {
			digits = digits * 10 + (uint64_t)(*s - '0');
			exponent -= point;
		} else {
			exponent += !point;
		}
	}
	if (!any)
		return 1;
	if (*s == 'e' || *s == 'E') {
		char *end;
		long e = strtol(s + 1, &end, 10);
		if (end == s + 1 || *end)
			return 1;
		if (e > 40 || e < -40)
			return digits == 0 || e < -40 ? (*ns = 0, 0) : 2;
		exponent += e;
		s = end;
	}
	if (*s)
		return 1;
	for (; exponent < 0; exponent++) {
		round_up = digits % 10 >= 5;
		digits /= 10;
	}
	digits += (uint64_t)round_up;
	for (; exponent > 0; exponent--)
		if (checked_mul_u64(digits, 10, &digits))
			return 2;
	if (digits > (uint64_t)INT64_MAX / 4)
		return 2;
	*ns = negative ? -(int64_t)digits : (int64_t)digits;
	return 0;
}

/* A ts, dur or tdur: a number, or a string of one (React Native's). */
static int time_value(struct reader *r, const char *what, int64_t *ns, int *has)
{
	struct json *j = &r->j;
	int64_t us;
	/* Whole microseconds, as most traces write them: read where they lie. */
	if (json_next_whole(j, &us) == 1) {
		if (us > INT64_MAX / 4 / 1000 || us < -(INT64_MAX / 4 / 1000))
			return json_error(j, "%s '%" PRId64 "' is past 2^61 nanoseconds", what, us);
		*ns = us * 1000;
		*has = 1;
		return 0;
	}
	enum json_token t = json_next(j);
	if (t == JSON_NULL)
		return 0;
	if (t != JSON_NUMBER && t != JSON_STRING)
		return t == JSON_FAILED ? -1 : json_error(j, "%s must be a number of microseconds", what);
	int rc = parse_us(j->text, ns);
	if (rc)
		return json_error(j, rc == 1 ? "%s '%.40s' is not a number" : "%s '%.40s' is past 2^61 nanoseconds",
				  what, j->text);
	*has = 1;
	return 0;
}

/* A pid or tid: a whole number, else kept as its text. */
static int id_value(struct reader *r, struct id_value *v)
{
	struct json *j = &r->j;
	int64_t whole;
	/* A whole number of 18 characters at most: as below, without its text. */
	if (json_next_whole(j, &whole) == 1) {
		if (whole <= -100000000000000000)
			return json_error(j, "a pid or tid must be a whole number, or a string");
		v->kind = ID_NUMBER;
		v->num = whole;
		return 0;
	}
	enum json_token t = json_next(j);
	if (t == JSON_NULL)
		return 0;
	if (t != JSON_NUMBER && t != JSON_STRING)
		return t == JSON_FAILED ? -1 : json_skip(j, t);
	const char *s = j->text, *digits = s + (*s == '-');
	int64_t num = 0;
	int plain = *digits != '\0' && j->len < 19 && !(digits[0] == '0' && digits[1]);
	for (const char *c = digits; plain && *c; c++)
		if ((plain = *c >= '0' && *c <= '9'))
			num = num * 10 + (*c - '0');
	if (plain) {
		v->kind = ID_NUMBER;
		v->num = *s == '-' ? -num : num;
	} else if (t == JSON_NUMBER) {
		return json_error(j, "a pid or tid must be a whole number, or a string");
	} else {
		v->kind = ID_STRING;
		v->str = model_str(r->m, s, j->len);
	}
	return 0;
}

/* The args object (any value): as JavaScript writes it, and the keys asked about. */
static int args_value(struct reader *r, struct fields *f)
{
	struct json *j = &r->j;
	enum json_token t = json_next(j);
	r->args_text.len = 0;
	trace_text_add(&r->args_text, "", 0);
	r->args.present = 0;
	if (trace_stringify(j, t, &r->args_text, &r->args) < 0)
		return -1;
	f->has_args = t != JSON_NULL;
	/* speedscope adds args to a name when they are truthy in JavaScript. */
	f->args_truthy = t == JSON_OBJECT || t == JSON_ARRAY || t == JSON_TRUE ||
			 (t == JSON_STRING && r->args_text.len > 2) ||
			 (t == JSON_NUMBER && strcmp(r->args_text.bytes, "0") != 0);
	return 0;
}

/* Which of an event's keys the text is: told apart by length, then by their bytes. */
enum event_key { KEY_OTHER, KEY_PH, KEY_NAME, KEY_TS, KEY_DUR, KEY_TDUR, KEY_PID, KEY_TID, KEY_ARGS, KEY_ID };

static enum event_key event_key(const char *k, size_t len)
{
	switch (len) {
	case 2:
		return memcmp(k, "ph", 2) == 0 ? KEY_PH : memcmp(k, "ts", 2) == 0 ? KEY_TS
		       : memcmp(k, "id", 2) == 0 ? KEY_ID : KEY_OTHER;
	case 3:
		return memcmp(k, "pid", 3) == 0 ? KEY_PID : memcmp(k, "tid", 3) == 0 ? KEY_TID
		       : memcmp(k, "dur", 3) == 0 ? KEY_DUR : KEY_OTHER;
	case 4:
		return memcmp(k, "name", 4) == 0 ? KEY_NAME : memcmp(k, "args", 4) == 0 ? KEY_ARGS
		       : memcmp(k, "tdur", 4) == 0 ? KEY_TDUR : KEY_OTHER;
	}
	return KEY_OTHER;
}

static int event_field(struct reader *r, struct fields *f)
{
	struct json *j = &r->j;
	enum event_key key = event_key(j->text, j->len);
	enum json_token t;
	switch (key) {
	case KEY_PH:
	case KEY_NAME:
		t = json_next(j);
		if (t != JSON_STRING)
			return t == JSON_FAILED ? -1 : json_skip(j, t);
		if (key == KEY_PH) {
			f->has_ph = 1;
			f->ph = j->len == 1 ? j->text[0] : '?';
		} else {
			f->name = model_str(r->m, j->text, j->len);
		}
		return 0;
	case KEY_TS:
		return time_value(r, "ts", &f->ts, &f->has_ts);
	case KEY_DUR:
		return time_value(r, "dur", &f->dur, &f->has_dur);
	case KEY_TDUR:
		return time_value(r, "tdur", &f->tdur, &f->has_tdur);
	case KEY_PID:
	case KEY_TID:
		return id_value(r, key == KEY_PID ? &f->pid : &f->tid);
	case KEY_ARGS:
		return args_value(r, f);
	case KEY_ID:
		t = json_next(j);
		if (t != JSON_STRING && t != JSON_NUMBER)
			return t == JSON_FAILED ? -1 : json_skip(j, t);
		snprintf(f->id, sizeof f->id, "%s", j->text);
		f->has_id = 1;
		return 0;
	case KEY_OTHER:
		break;
	}
	return json_skip(j, json_next(j));
}

static int same_id(const struct id_value *a, const struct id_value *b)
{
	return a->kind == b->kind && (a->kind != ID_NUMBER || a->num == b->num) &&
	       (a->kind != ID_STRING || a->str == b->str);
}

static uint64_t id_hash(const struct id_value *v)
{
	return hash_mix(v->kind, v->kind == ID_STRING ? v->str : (uint64_t)v->num);
}

static int thread_equals(const void *ctx, uint32_t i, const void *key)
{
	const struct thread *a = &((const struct reader *)ctx)->threads[i], *b = key;
	return same_id(&a->pid, &b->pid) && same_id(&a->tid, &b->tid);
}

static uint32_t thread_of(struct reader *r, const struct id_value *pid, const struct id_value *tid)
{
	struct thread key = { .pid = *pid, .tid = *tid };
	/* Events come in runs of one thread: the last one found is asked first. */
	if (r->last_thread < r->n_threads && thread_equals(r, r->last_thread, &key))
		return r->last_thread;
	return r->last_thread = hashidx_intern(&r->thread_index, hash_mix(id_hash(pid), id_hash(tid)), thread_equals, r,
					       &key, (void **)&r->threads, &r->n_threads, &r->cap_threads, sizeof *r->threads);
}

/* An arg's value as JavaScript's String() gives it ("undefined" when absent). */
static void arg_text(struct reader *r, enum trace_arg a, struct trace_text *t)
{
	if (r->args.present & 1u << a)
		trace_text_add(t, r->args.value[a].bytes, r->args.value[a].len);
	else
		trace_text_add(t, "undefined", 9);
}

static uint32_t location_of_key(struct reader *r, uint32_t key)
{
	size_t n = r->cap_location_of_key;
	if (key >= n) {
		grow((void **)&r->location_of_key, &r->cap_location_of_key, (size_t)key + 1, sizeof *r->location_of_key);
		for (size_t i = n; i < r->cap_location_of_key; i++)
			r->location_of_key[i] = MODEL_NONE;
	}
	return r->location_of_key[key];
}

/* A Hermes frame: its name, with the args' url as file, line and column. */
static uint32_t hermes_location(struct reader *r, uint32_t shown)
{
	struct model_function f = { .name = shown };
	int64_t line = 0, column = 0;
	if (r->args.present & 1u << ARG_URL && r->args.is_string[ARG_URL])
		f.file_name = model_str(r->m, r->args.value[ARG_URL].bytes, r->args.value[ARG_URL].len);
	if (r->args.present & 1u << ARG_LINE && !r->args.is_string[ARG_LINE])
		line = strtoll(r->args.value[ARG_LINE].bytes, NULL, 10);
	if (r->args.present & 1u << ARG_COLUMN && !r->args.is_string[ARG_COLUMN])
		column = strtoll(r->args.value[ARG_COLUMN].bytes, NULL, 10);
	f.start_line = line > 0 ? line : 0;
	struct model_location l = { .function = model_function(r->m, &f), .line = f.start_line,
				    .column = column > 0 ? column : 0, .native = { .mapping = MODEL_NONE } };
	return model_add_location(r->m, &l, NULL, 0);
}

/* A B, E or X event, held until the trace is read. */
static int slice_event(struct reader *r, const struct fields *f)
{
	if (!f->has_ts)
		return json_error(&r->j, "a %c event without ts", f->ph);
	struct trace_text *k = &r->key_text;
	k->len = 0;
	/* The empty string is string 0. */
	int named = f->name != NO_NAME && f->name != 0;
	size_t shown_len = named ? strtab_get(&r->m->strings, f->name)->len : 9;
	uint32_t key = f->name; /* most events have no args: their key is their name, interned already */
	if (!named || f->args_truthy || r->hermes) {
		if (named)
			trace_text_add(k, model_cstr(r->m, f->name), shown_len);
		else
			trace_text_add(k, "(unnamed)", 9);
		if (f->args_truthy) {
			trace_text_add(k, " ", 1);
			trace_text_add(k, r->args_text.bytes, r->args_text.len);
		}
		key = model_str(r->m, k->bytes, k->len);
	}
	struct event e = { f->ts, 0, key, key, f->name, f->ph };
	uint32_t location;
	if (f->ph == 'X')
		e.dur = f->has_dur ? f->dur : f->has_tdur ? f->tdur : 0;
	if (r->hermes) {
		uint32_t shown = model_str(r->m, k->bytes, shown_len);
		k->len = 0;
		if (f->name != NO_NAME)
			trace_text_add(k, model_cstr(r->m, f->name), strtab_get(&r->m->strings, f->name)->len);
		else
			trace_text_add(k, "undefined", 9);
		static const enum trace_arg parts[] = { ARG_URL, ARG_LINE, ARG_COLUMN };
		for (size_t i = 0; i < 3; i++) {
			trace_text_add(k, ":", 1);
			arg_text(r, parts[i], k);
		}
		e.frame = model_str(r->m, k->bytes, k->len);
		location = location_of_key(r, e.frame);
		if (location == MODEL_NONE)
			r->location_of_key[e.frame] = hermes_location(r, shown);
	} else {
		location = location_of_key(r, e.key);
		if (location == MODEL_NONE) {
			struct model_function fn = { .name = e.key };
			r->location_of_key[e.key] = model_location(r->m, model_function(r->m, &fn), 0);
		}
	}
	uint32_t thread = thread_of(r, &f->pid, &f->tid); /* before r->threads is read: it may move */
	struct thread *t = &r->threads[thread];
	if (t->n_events == t->cap_events)
		grow((void **)&t->events, &t->cap_events, t->n_events + 1, sizeof *t->events);
	t->events[t->n_events++] = e;
	return 0;
}

/* An M event naming a process or a thread. */
static void name_event(struct reader *r, const struct fields *f)
{
	int process = model_str_is(r->m, f->name, "process_name");
	if (!process && !model_str_is(r->m, f->name, "thread_name"))
		return;
	if (!(r->args.present & 1u << ARG_NAME) || !r->args.is_string[ARG_NAME] || r->args.value[ARG_NAME].len == 0)
		return;
	struct thread_name n = { f->pid, f->tid, model_str(r->m, r->args.value[ARG_NAME].bytes, r->args.value[ARG_NAME].len) };
	if (process)
		n.tid.kind = ID_ABSENT, n.tid.num = -1;
	grow((void **)&r->names, &r->cap_names, r->n_names + 1, sizeof *r->names);
	r->names[r->n_names++] = n;
}

/*
 * Hermes' traces (speedscope's test): a bare array whose first event's
 * args have every field of Hermes' frames.
 */
static void detect_hermes(struct reader *r, const struct fields *f)
{
	if (r->first_seen++)
		return;
	r->hermes = !r->in_events && f->has_args && r->args.present == (1u << ARG_COUNT) - 1;
}

static int event(struct reader *r)
{
	struct json *j = &r->j;
	struct fields f = { .name = NO_NAME };
	r->args.present = 0;
	for (enum json_token t; (t = json_next(j)) != JSON_OBJECT_END;)
		if (t != JSON_KEY || event_field(r, &f) < 0)
			return -1;
	detect_hermes(r, &f);
	if (!f.has_ph) {
		r->no_phase++;
		return 0;
	}
	if (f.name != NO_NAME && (f.name == r->name_profile || f.name == r->name_chunk || f.name == r->name_cpu_profile)) {
		const char *name = model_cstr(r->m, f.name);
		if (!f.has_args)
			return 0;
		if (!r->v8)
			r->v8 = trace_v8_new();
		uint32_t thread = thread_of(r, &f.pid, &f.tid);
		char key[120];
		if (f.has_id && f.pid.kind == ID_NUMBER)
			snprintf(key, sizeof key, "%s of pid %" PRId64, f.id, f.pid.num);
		else if (f.has_id)
			snprintf(key, sizeof key, "%s", f.id);
		else
			snprintf(key, sizeof key, "of thread %" PRIu32, thread);
		return trace_v8_event(r->v8, r->in, name, key, thread, &r->args_text);
	}
	if (f.ph == 'M' && f.name != NO_NAME)
		name_event(r, &f);
	if (f.ph == 'B' || f.ph == 'E' || f.ph == 'X')
		return slice_event(r, &f);
	return 0;
}

/*
 * The events, after the array's '[': objects, up to its end, or the
 * input's (as Chrome writes while tracing; in an object, with a warning).
 * 1 when the input ended there, 0 at the array's end, -1 after reporting.
 */
static int event_list(struct reader *r, int bare)
{
	struct json *j = &r->j;
	r->in_events = !bare;
	for (;;) {
		int ends = json_input_ends(j);
		if (ends < 0)
			return -1;
		if (ends) {
			if (!bare)
				diag_warn(r->in->name, j->line, "the trace ends inside traceEvents: read the events before");
			return 1;
		}
		enum json_token t = json_next(j);
		if (t == JSON_ARRAY_END)
			return 0;
		if (t != JSON_OBJECT)
			return t == JSON_FAILED ? -1 : json_error(j, "events must be objects");
		if (event(r) < 0)
			return -1;
	}
}

static int os_frame_equals(const void *ctx, uint32_t i, const void *key)
{
	return ((const struct reader *)ctx)->frames[i].id == *(const uint32_t *)key;
}

static uint32_t find_os_frame(struct reader *r, uint32_t id)
{
	return hashidx_find(&r->frame_index, hash_mix(id, 0), os_frame_equals, r, &id);
}

/* A frame id or parent: as JavaScript makes a property key of it. */
static int id_text(struct reader *r, uint32_t *id)
{
	struct json *j = &r->j;
	enum json_token t = json_next(j);
	*id = NO_NAME;
	if (t == JSON_NULL || t == JSON_FALSE)
		return 0;
	if (t != JSON_STRING && t != JSON_NUMBER)
		return t == JSON_FAILED ? -1 : json_error(j, "a stack frame id must be a number or a string");
	struct trace_text text = { 0, 0, 0 };
	if (t == JSON_NUMBER)
		trace_js_number(&text, j->text);
	else
		trace_text_add(&text, j->text, j->len);
	/* JavaScript's loop over parents stops at a falsy one: 0 or "". */
	if (strcmp(text.bytes, "0") != 0 && text.len)
		*id = model_str(r->m, text.bytes, text.len);
	free(text.bytes);
	return 0;
}

/* `stackFrames`: {id: {name, category, parent}}. */
static int stack_frames(struct reader *r)
{
	struct json *j = &r->j;
	r->has_stack_frames = 1;
	if (json_expect(j, JSON_OBJECT, "stackFrames to be an object") < 0)
		return -1;
	for (enum json_token t; (t = json_next(j)) != JSON_OBJECT_END;) {
		if (t != JSON_KEY)
			return -1;
		struct os_frame fr = { model_str(r->m, j->text, j->len), NO_NAME, MODEL_NONE, MODEL_NONE, 0 };
		uint32_t name = 0;
		if (json_expect(j, JSON_OBJECT, "a stack frame to be an object") < 0)
			return -1;
		for (t = json_next(j); t == JSON_KEY; t = json_next(j)) {
			int rc;
			if (strcmp(j->text, "parent") == 0) {
				rc = id_text(r, &fr.parent);
			} else if (strcmp(j->text, "name") == 0) {
				t = json_next(j);
				if (t == JSON_STRING)
					name = model_str(r->m, j->text, j->len);
				rc = json_skip(j, t);
			} else {
				rc = json_skip(j, json_next(j));
			}
			if (rc < 0)
				return -1;
		}
		if (t != JSON_OBJECT_END)
			return -1;
		struct model_function f = { .name = name ? name : model_str(r->m, "(unknown)", 9) };
		fr.location = model_location(r->m, model_function(r->m, &f), 0);
		uint32_t at = find_os_frame(r, fr.id);
		if (at != HASHIDX_NONE) {
			r->frames[at] = fr;
			continue;
		}
		grow((void **)&r->frames, &r->cap_frames, r->n_frames + 1, sizeof *r->frames);
		r->frames[r->n_frames] = fr;
		hashidx_insert(&r->frame_index, hash_mix(fr.id, 0), (uint32_t)r->n_frames++);
	}
	return 0;
}

/* `samples`: [{ts, sf, pid, tid, ...}]. */
static int os_samples(struct reader *r)
{
	struct json *j = &r->j;
	r->has_samples = 1;
	if (json_expect(j, JSON_ARRAY, "samples to be an array") < 0)
		return -1;
	for (enum json_token t; (t = json_next(j)) != JSON_ARRAY_END;) {
		if (t != JSON_OBJECT)
			return t == JSON_FAILED ? -1 : json_error(j, "samples must be objects");
		struct os_sample s = { 0, 0, NO_NAME };
		struct id_value pid = { 0, 0, 0 }, tid = { 0, 0, 0 };
		int has_ts = 0;
		for (t = json_next(j); t == JSON_KEY; t = json_next(j)) {
			int rc;
			if (strcmp(j->text, "ts") == 0)
				rc = time_value(r, "a sample's ts", &s.ts, &has_ts);
			else if (strcmp(j->text, "sf") == 0)
				rc = id_text(r, &s.frame);
			else if (strcmp(j->text, "pid") == 0 || strcmp(j->text, "tid") == 0)
				rc = id_value(r, j->text[0] == 'p' ? &pid : &tid);
			else
				rc = json_skip(j, json_next(j));
			if (rc < 0)
				return -1;
		}
		if (t != JSON_OBJECT_END)
			return -1;
		if (!has_ts)
			return json_error(j, "a sample without ts");
		s.thread = thread_of(r, &pid, &tid);
		grow((void **)&r->samples, &r->cap_samples, r->n_samples + 1, sizeof *r->samples);
		r->samples[r->n_samples++] = s;
	}
	return 0;
}

static int top_object(struct reader *r)
{
	struct json *j = &r->j;
	for (enum json_token t; (t = json_next(j)) != JSON_OBJECT_END;) {
		if (t != JSON_KEY)
			return -1;
		int rc;
		if (strcmp(j->text, "traceEvents") == 0) {
			rc = json_expect(j, JSON_ARRAY, "traceEvents to be an array") < 0 ? -1 : event_list(r, 0);
			if (rc > 0)
				return 1;
		} else if (strcmp(j->text, "stackFrames") == 0) {
			rc = stack_frames(r);
		} else if (strcmp(j->text, "samples") == 0) {
			rc = os_samples(r);
		} else {
			rc = json_skip(j, json_next(j));
		}
		if (rc < 0)
			return -1;
	}
	return 0;
}

/* The stack of OS frame i: its parents', walked without recursion, a cycle refused. */
static int os_stack(struct reader *r, uint32_t sf, uint32_t *stack)
{
	uint32_t *path = NULL;
	size_t n = 0, cap = 0;
	uint32_t caller = MODEL_EMPTY_STACK;
	int rc = 0;
	for (uint32_t id = sf; id != NO_NAME;) {
		uint32_t i = find_os_frame(r, id);
		if (i == HASHIDX_NONE) {
			rc = json_error(&r->j, "a sample's stack names frame '%s', which stackFrames lacks", model_cstr(r->m, id));
			break;
		}
		struct os_frame *f = &r->frames[i];
		if (f->stack != MODEL_NONE) {
			caller = f->stack;
			break;
		}
		if (f->on_path) {
			rc = json_error(&r->j, "stackFrames' parents form a cycle through frame '%s'", model_cstr(r->m, id));
			break;
		}
		f->on_path = 1;
		grow((void **)&path, &cap, n + 1, sizeof *path);
		path[n++] = i;
		id = f->parent;
	}
	while (n > 0) {
		struct os_frame *f = &r->frames[path[--n]];
		f->on_path = 0;
		if (rc == 0)
			f->stack = caller = model_stack(r->m, f->location, caller);
	}
	free(path);
	*stack = caller;
	return rc;
}

/* OS samples as stretches: each until the next of its thread, in the file's order; the last of none. */
static int os_stretches(struct reader *r)
{
	size_t *last = xmalloc((r->n_threads + 1) * sizeof *last);
	for (size_t t = 0; t < r->n_threads; t++)
		last[t] = SIZE_MAX;
	int rc = 0;
	for (size_t i = 0; i <= r->n_samples && rc == 0; i++) {
		const struct os_sample *s = i < r->n_samples ? &r->samples[i] : NULL;
		for (size_t t = s ? s->thread : 0; t < (s ? s->thread + 1 : r->n_threads); t++) {
			if (last[t] == SIZE_MAX)
				continue;
			const struct os_sample *prev = &r->samples[last[t]];
			uint32_t stack;
			if ((rc = os_stack(r, prev->frame, &stack)) < 0)
				break;
			int64_t wall = s ? s->ts - prev->ts : 0;
			struct trace_stretch st = { prev->ts, wall > 0 ? wall : 0, stack, prev->thread, 1, 0 };
			trace_stretch_add(&r->stretches, &st);
		}
		if (s)
			last[s->thread] = i;
	}
	free(last);
	return rc;
}

/* A B or E of a thread's timeline: an event, at a time, in its queue's order. */
struct item {
	int64_t ts;
	uint32_t event, pos;
};

static int by_time(const void *a, const void *b)
{
	const struct item *x = a, *y = b;
	return x->ts != y->ts ? (x->ts < y->ts ? -1 : 1) : x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* Items in time order; X events' begins come in it already. */
static void sort_items(struct item *items, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (by_time(&items[i - 1], &items[i]) > 0) {
			qsort(items, n, sizeof *items, by_time);
			return;
		}
}

/*
 * A thread of X events alone, their begins in time order: their ends put
 * in the order they come when the slices nest, as they mostly do (each
 * ends before the one that holds it): a stack of the open ones pops them
 * so, ends at one time in the file's order. sort_items then finds them in
 * order, or sorts what does not nest.
 */
static void nested_ends(const struct item *begins, struct item *ends, size_t n, struct item *ordered, uint32_t *open)
{
	size_t k = 0, depth = 0;
	for (size_t i = 0; i < n; i++) {
		while (depth && ends[open[depth - 1]].ts <= begins[i].ts)
			ordered[k++] = ends[open[--depth]];
		open[depth++] = (uint32_t)i;
	}
	while (depth)
		ordered[k++] = ends[open[--depth]];
	/* Ends at one time pop the innermost first: the file's order is the other way. */
	for (size_t from = 0, to; from < n; from = to) {
		for (to = from + 1; to < n && ordered[to].ts == ordered[from].ts; to++)
			;
		for (size_t a = from, b = to - 1; a < b; a++, b--) {
			struct item swap = ordered[a];
			ordered[a] = ordered[b];
			ordered[b] = swap;
		}
	}
	memcpy(ends, ordered, n * sizeof *ends);
}

static const struct event *sort_events;

/* X events as speedscope orders them: by start, the longer first, else in the file's order. */
static int x_order(const void *a, const void *b)
{
	uint32_t i = *(const uint32_t *)a, k = *(const uint32_t *)b;
	const struct event *x = &sort_events[i], *y = &sort_events[k];
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	if (x->dur != y->dur)
		return x->dur > y->dur ? -1 : 1;
	return i < k ? -1 : i > k;
}

/* What was repaired, for one warning each. */
struct repairs {
	uint64_t reordered, no_open, other_name, other_args, left_open;
};

/*
 * A thread's stretches of slices, in time order (each starts after the
 * last one's end), packed as varints: the time from the last one's end
 * (zigzag: the first may start before 0), its length, its stack. Some 6
 * bytes a stretch where a struct trace_stretch is 40: a trace's timelines
 * are about two stretches an event.
 */
struct packed {
	unsigned char *bytes;
	size_t len, cap;
	int64_t end; /* the last stretch's */
};

/* What every thread's packed stretches hold: the earliest start, and whether every length is whole microseconds. */
struct packed_all {
	struct packed *threads;
	int64_t origin;
	int whole_us;
};

/* At a depth of a timeline, the last stack made there: a slice entered again under the same caller is the same stack. */
struct made {
	uint32_t location, caller, stack;
};

/* A thread's timeline being built, as speedscope's call tree builder builds it. */
struct timeline {
	struct reader *r;
	const struct event *events; /* the thread's */
	struct packed *out;
	struct packed_all *all;
	uint32_t *open;   /* events */
	uint32_t *stacks; /* the model's stack with each open */
	struct made *made;
	size_t depth, cap_open, cap_stacks, cap_made;
	int64_t last;
};

/* Time since the last enter or leave is a sample of the open stack. */
static void stretch_to(struct timeline *tl, int64_t ts)
{
	if (tl->depth && ts > tl->last) {
		struct packed *p = tl->out;
		if (p->cap - p->len < 3 * VARINT_MAX_BYTES)
			grow((void **)&p->bytes, &p->cap, p->len + 3 * VARINT_MAX_BYTES, 1);
		unsigned char *at = p->bytes + p->len;
		at = varint_put(at, varint_zigzag(tl->last - p->end));
		at = varint_put(at, (uint64_t)(ts - tl->last));
		at = varint_put(at, tl->stacks[tl->depth - 1]);
		p->len = (size_t)(at - p->bytes);
		p->end = ts;
		tl->all->origin = tl->last < tl->all->origin ? tl->last : tl->all->origin;
		tl->all->whole_us &= (ts - tl->last) % 1000 == 0;
	}
	tl->last = ts;
}

/*
 * model_stack of a location alone, kept by location: every thread's
 * outermost slices are few frames, entered again and again.
 */
static uint32_t root_stack(struct reader *r, uint32_t location)
{
	size_t n = r->cap_root_stack;
	if (location >= n) {
		grow((void **)&r->root_stack, &r->cap_root_stack, (size_t)location + 1, sizeof *r->root_stack);
		for (size_t i = n; i < r->cap_root_stack; i++)
			r->root_stack[i] = MODEL_NONE;
	}
	if (r->root_stack[location] == MODEL_NONE)
		r->root_stack[location] = model_stack(r->m, location, MODEL_EMPTY_STACK);
	return r->root_stack[location];
}

/*
 * A slice entered: its stack, the stack open with its location on top,
 * found without model_stack's table when it is the one last made at its
 * depth (a loop's calls) or a root. The model's stacks are made in the
 * same order either way: one found here was made before.
 */
static void enter(struct timeline *tl, uint32_t e, int64_t ts)
{
	stretch_to(tl, ts);
	if (tl->depth == tl->cap_open) {
		grow((void **)&tl->open, &tl->cap_open, tl->depth + 1, sizeof *tl->open);
		grow((void **)&tl->stacks, &tl->cap_stacks, tl->depth + 1, sizeof *tl->stacks);
		grow((void **)&tl->made, &tl->cap_made, tl->depth + 1, sizeof *tl->made);
		for (size_t d = tl->depth; d < tl->cap_made; d++)
			tl->made[d].location = MODEL_NONE;
	}
	uint32_t location = tl->r->location_of_key[tl->events[e].frame];
	struct made *made = &tl->made[tl->depth];
	if (tl->depth == 0) {
		tl->stacks[0] = root_stack(tl->r, location);
	} else if (made->location == location && made->caller == tl->stacks[tl->depth - 1]) {
		tl->stacks[tl->depth] = made->stack;
	} else {
		*made = (struct made){ location, tl->stacks[tl->depth - 1], 0 };
		made->stack = tl->stacks[tl->depth] = model_stack(tl->r->m, location, made->caller);
	}
	tl->open[tl->depth++] = e;
}

/* An E: it ends the innermost open slice of its name, else nothing. */
static void leave(struct timeline *tl, uint32_t e, int64_t ts, struct repairs *rep)
{
	const struct event *ev = &tl->events[e];
	if (tl->depth == 0) {
		rep->no_open++;
		return;
	}
	const struct event *top = &tl->events[tl->open[tl->depth - 1]];
	if (ev->name != top->name) {
		rep->other_name++;
		return;
	}
	rep->other_args += ev->frame != top->frame;
	stretch_to(tl, ts);
	tl->depth--;
}

/*
 * Before an E is taken: among the Es at its time, the first that ends the
 * innermost open slice (by frame, else by name) is taken first.
 */
static void pick_end(struct timeline *tl, struct item *ends, size_t at, size_t n)
{
	if (tl->depth == 0)
		return;
	const struct event *ev = tl->events, *top = &ev[tl->open[tl->depth - 1]];
	for (int by_name = 0; by_name < 2; by_name++)
		for (size_t u = at + 1; u < n && ends[u].ts <= ends[at].ts; u++)
			if (by_name ? ev[ends[u].event].name == top->name : ev[ends[u].event].frame == top->frame) {
				struct item swap = ends[at];
				ends[at] = ends[u];
				ends[u] = swap;
				return;
			}
}

/* Room for the busiest thread's events, used by one thread after another. */
struct slice_work {
	uint32_t *xs, *open;
	struct item *begins, *ends, *ordered;
};

/* One thread's B, E and X events as stretches. */
static int thread_slices(struct reader *r, uint32_t thread, struct repairs *rep, struct packed_all *all,
			 const struct slice_work *w)
{
	const struct event *events = r->threads[thread].events;
	size_t n = r->threads[thread].n_events, nx = 0, nb = 0, ne = 0;
	uint32_t *xs = w->xs;
	struct item *begins = w->begins, *ends = w->ends;
	for (uint32_t i = 0; i < n; i++) {
		const struct event *e = &events[i];
		if (e->ph == 'X')
			xs[nx++] = i;
		else if (e->ph == 'B')
			begins[nb] = (struct item){ e->ts, i, (uint32_t)nb }, nb++;
		else
			ends[ne] = (struct item){ e->ts, i, (uint32_t)ne }, ne++;
	}
	sort_events = events;
	for (size_t i = 1; i < nx; i++)
		if (x_order(&xs[i - 1], &xs[i]) > 0) {
			qsort(xs, nx, sizeof *xs, x_order);
			break;
		}
	int rc = 0;
	for (size_t i = 0; i < nx; i++) {
		const struct event *e = &events[xs[i]];
		rep->reordered += i > 0 && events[xs[i - 1]].ts == e->ts && xs[i - 1] > xs[i];
		int64_t end;
		if (checked_add_i64(e->ts, e->dur, &end) || end > INT64_MAX / 4 || end < INT64_MIN / 4)
			rc = -1;
		begins[nb] = (struct item){ e->ts, xs[i], (uint32_t)nb }, nb++;
		ends[ne] = (struct item){ end, xs[i], (uint32_t)ne }, ne++;
	}
	if (rc < 0)
		diag_error(r->in->name, 0, "an X event ends past 2^61 nanoseconds");
	if (nb == nx && ne == nx)
		nested_ends(begins, ends, nx, w->ordered, w->open);
	sort_items(begins, nb);
	sort_items(ends, ne);
	struct timeline tl = { .r = r, .events = events, .out = &all->threads[thread], .all = all };
	for (size_t b = 0, e = 0; rc == 0 && (b < nb || e < ne);) {
		int take_begin = e == ne || (b < nb && (begins[b].ts < ends[e].ts ||
			(begins[b].ts == ends[e].ts && events[begins[b].event].key == events[ends[e].event].key)));
		if (take_begin) {
			enter(&tl, begins[b].event, begins[b].ts);
			b++;
		} else {
			pick_end(&tl, ends, e, ne);
			leave(&tl, ends[e].event, ends[e].ts, rep);
			e++;
		}
	}
	rep->left_open += tl.depth;
	free(tl.open);
	free(tl.stacks);
	free(tl.made);
	return rc;
}

static void warn_repairs(struct reader *r, const struct repairs *rep)
{
	const char *name = r->in->name;
	if (rep->reordered)
		diag_warn(name, 0, "%" PRIu64 " X events come before slices that hold them at the same start: "
			  "put after them", rep->reordered);
	if (rep->no_open)
		diag_warn(name, 0, "%" PRIu64 " E events end no open slice: left out", rep->no_open);
	if (rep->other_name)
		diag_warn(name, 0, "%" PRIu64 " E events name another slice than the innermost open one: left out",
			  rep->other_name);
	if (rep->other_args)
		diag_warn(name, 0, "%" PRIu64 " E events have other args than their B events: ended them all the same",
			  rep->other_args);
	if (rep->left_open)
		diag_warn(name, 0, "%" PRIu64 " slices are still open at the end: closed at the last event",
			  rep->left_open);
}

/* Every thread's slices as stretches, packed in `all`. */
static int slices(struct reader *r, struct packed_all *all)
{
	size_t most = 0;
	for (size_t t = 0; t < r->n_threads; t++)
		most = r->threads[t].n_events > most ? r->threads[t].n_events : most;
	struct slice_work w = { xmalloc((most + 1) * sizeof *w.xs), xmalloc((most + 1) * sizeof *w.open),
				xmalloc((most + 1) * sizeof *w.begins), xmalloc((most + 1) * sizeof *w.ends),
				xmalloc((most + 1) * sizeof *w.ordered) };
	struct repairs rep = { 0, 0, 0, 0, 0 };
	int rc = 0;
	for (size_t t = 0; t < r->n_threads && rc == 0; t++) {
		rc = thread_slices(r, (uint32_t)t, &rep, all, &w);
		/* Its events are its packed stretches now: their memory is the next thread's to use. */
		free(r->threads[t].events);
		r->threads[t].events = NULL;
	}
	if (rc == 0)
		warn_repairs(r, &rep);
	free(w.xs);
	free(w.open);
	free(w.begins);
	free(w.ends);
	free(w.ordered);
	return rc;
}

/* The name an M event gave the thread (or with tid absent, its process), the last one; 0: none. */
static uint32_t name_of(const struct reader *r, const struct thread *t, int process)
{
	uint32_t name = 0;
	for (size_t i = 0; i < r->n_names; i++) {
		const struct thread_name *n = &r->names[i];
		if (same_id(&n->pid, &t->pid) && (process ? n->tid.kind == ID_ABSENT && n->tid.num == -1
							  : same_id(&n->tid, &t->tid)))
			name = n->name;
	}
	return name;
}

static void add_id_label(struct reader *r, struct model_label *l, size_t *n, const char *key, const struct id_value *v)
{
	if (v->kind == ID_ABSENT)
		return;
	l[(*n)++] = (struct model_label){ model_str(r->m, key, strlen(key)), v->kind == ID_STRING ? v->str : 0,
					  v->kind == ID_NUMBER ? v->num : 0, 0 };
}

/* Each thread's labels: pid, tid, and the names M events gave it. */
static void thread_labels(struct reader *r)
{
	for (size_t i = 0; i < r->n_threads; i++) {
		struct thread *t = &r->threads[i];
		struct model_label l[4];
		size_t n = 0;
		add_id_label(r, l, &n, "pid", &t->pid);
		add_id_label(r, l, &n, "tid", &t->tid);
		uint32_t thread = name_of(r, t, 0), process = name_of(r, t, 1);
		if (thread)
			l[n++] = (struct model_label){ model_str(r->m, "thread", 6), thread, 0, 0 };
		if (process)
			l[n++] = (struct model_label){ model_str(r->m, "process", 7), process, 0, 0 };
		t->labels = model_label_set(r->m, l, n);
	}
}

static int stretch_order(const void *a, const void *b)
{
	const struct trace_stretch *x = a, *y = b;
	if (x->start_ns != y->start_ns)
		return x->start_ns < y->start_ns ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* What the rows are made with: their types' choices, and the clock's zero. */
struct row_maker {
	struct reader *r;
	int counted, whole_us;
	int64_t origin;
};

static void add_row(const struct row_maker *k, const struct trace_stretch *st)
{
	int64_t values[2] = { 1, k->whole_us ? st->wall_ns / 1000 : st->wall_ns };
	model_add_samples(k->r->m, st->stack, k->counted ? values : values + 1, NULL,
			  k->r->threads[st->thread].labels, st->repeat, st->start_ns - k->origin);
}

/*
 * The stretches as rows, in time order. Each thread's come in order, one
 * thread after another (but OS samples, in the file's order): runs merged
 * as the rows are added (no copy of them all), a few threads at a time,
 * else sorted.
 */
static void add_rows_in_order(struct trace_stretches *s, const struct row_maker *k)
{
	enum { RUNS_MAX = 64 };
	size_t starts[RUNS_MAX + 1], n_runs = 0;
	for (size_t i = 0; i < s->n && n_runs <= RUNS_MAX; i++)
		if (i == 0 || stretch_order(&s->items[i - 1], &s->items[i]) > 0)
			starts[n_runs++] = i;
	if (n_runs <= 1 || n_runs > RUNS_MAX) {
		if (n_runs > RUNS_MAX)
			qsort(s->items, s->n, sizeof *s->items, stretch_order);
		for (size_t i = 0; i < s->n; i++)
			add_row(k, &s->items[i]);
		return;
	}
	starts[n_runs] = s->n;
	/* Each run's next start, kept beside the others: a run spent starts at INT64_MAX. */
	size_t at[RUNS_MAX];
	int64_t next[RUNS_MAX];
	for (size_t run = 0; run < n_runs; run++) {
		at[run] = starts[run];
		next[run] = s->items[at[run]].start_ns;
	}
	for (size_t n = 0; n < s->n; n++) {
		size_t best = 0;
		/* Runs come in the file's order: the first of equal starts is the earlier. */
		for (size_t run = 1; run < n_runs; run++)
			if (next[run] < next[best])
				best = run;
		add_row(k, &s->items[at[best]++]);
		next[best] = at[best] < starts[best + 1] ? s->items[at[best]].start_ns : INT64_MAX;
	}
}

/* Before the first row: its types, `samples` (when counted) and `wall`, and the threads' labels. */
static void begin_rows(const struct row_maker *k)
{
	struct model *m = k->r->m;
	if (k->counted)
		model_add_sample_type(m, "samples", "count");
	size_t wall = model_add_sample_type(m, "wall", "microseconds");
	if (!k->whole_us)
		m->sample_types[wall].decimals = 3;
	model_set_meta(m, "default_sample_type", "wall");
	m->timed_rows = 1;
	thread_labels(k->r);
}

/* The stretches as rows, in time order from the earliest. */
static void rows(struct reader *r, int counted)
{
	struct trace_stretches *s = &r->stretches;
	struct row_maker k = { r, counted, 1, INT64_MAX };
	for (size_t i = 0; i < s->n; i++) {
		k.origin = s->items[i].start_ns < k.origin ? s->items[i].start_ns : k.origin;
		k.whole_us &= s->items[i].wall_ns % 1000 == 0;
	}
	begin_rows(&k);
	add_rows_in_order(s, &k);
}

/* A thread's packed stretches being read: the next one in `next`. */
struct cursor {
	const unsigned char *at, *end;
	struct trace_stretch next;
};

static void cursor_read(struct cursor *c)
{
	uint64_t gap, wall, stack;
	c->at = varint_get(c->at, &gap);
	c->at = varint_get(c->at, &wall);
	c->at = varint_get(c->at, &stack);
	c->next.start_ns += c->next.wall_ns + varint_unzigzag(gap);
	c->next.wall_ns = (int64_t)wall;
	c->next.stack = (uint32_t)stack;
}

/* Rows in time order; at one time, the earlier thread's first (as add_rows_in_order takes them). */
static int cursor_before(const struct cursor *a, const struct cursor *b)
{
	const struct trace_stretch *x = &a->next, *y = &b->next;
	return x->start_ns != y->start_ns ? x->start_ns < y->start_ns : x->thread < y->thread;
}

/* A heap of cursors, the next row's at its top: the one at `at` moved down to its place. */
static void sift_down(struct cursor **heap, size_t n, size_t at)
{
	struct cursor *moved = heap[at];
	for (size_t kid; (kid = 2 * at + 1) < n; at = kid) {
		if (kid + 1 < n && cursor_before(heap[kid + 1], heap[kid]))
			kid++;
		if (!cursor_before(heap[kid], moved))
			break;
		heap[at] = heap[kid];
	}
	heap[at] = moved;
}

enum { FEW_THREADS = 16 };

/*
 * Threads' cursors (in thread order, FEW_THREADS at most) merged by
 * looking at each one's next start: no branch to mispredict, where a
 * heap's are a coin's toss. The first of equal starts is the earlier thread's.
 */
static void merge_few(const struct row_maker *k, struct cursor *cursors, size_t n)
{
	int64_t next[FEW_THREADS];
	for (size_t i = 0; i < n; i++)
		next[i] = cursors[i].next.start_ns;
	for (size_t left = n; left;) {
		size_t best = 0;
		for (size_t i = 1; i < n; i++)
			best = next[i] < next[best] ? i : best;
		struct cursor *c = &cursors[best];
		add_row(k, &c->next);
		if (c->at == c->end) {
			next[best] = INT64_MAX;
			left--;
		} else {
			cursor_read(c);
			next[best] = c->next.start_ns;
		}
	}
}

static void merge_many(const struct row_maker *k, struct cursor *cursors, size_t n);

/* The slices' stretches as rows: every thread's merged into time order as they are read, never unpacked all at once. */
static void packed_rows(struct reader *r, const struct packed_all *all)
{
	struct row_maker k = { r, 0, all->whole_us, all->origin };
	begin_rows(&k);
	struct cursor *cursors = xmalloc((r->n_threads + 1) * sizeof *cursors);
	size_t n = 0;
	for (size_t t = 0; t < r->n_threads; t++) {
		const struct packed *p = &all->threads[t];
		if (p->len == 0)
			continue;
		cursors[n] = (struct cursor){ p->bytes, p->bytes + p->len, { 0, 0, 0, (uint32_t)t, 1, 0 } };
		cursor_read(&cursors[n++]);
	}
	if (n <= FEW_THREADS)
		merge_few(&k, cursors, n);
	else
		merge_many(&k, cursors, n);
	free(cursors);
}

/*
 * Threads' cursors (in thread order) merged with a heap: each row costs a
 * log of the threads, where merge_few's costs the threads.
 */
static void merge_many(const struct row_maker *k, struct cursor *cursors, size_t n)
{
	struct cursor **heap = xmalloc((n + 1) * sizeof *heap);
	for (size_t i = 0; i < n; i++)
		heap[i] = &cursors[i];
	for (size_t i = n / 2; i-- > 0;)
		sift_down(heap, n, i);
	while (n) {
		struct cursor *top = heap[0];
		add_row(k, &top->next);
		if (top->at == top->end)
			heap[0] = heap[--n];
		else
			cursor_read(top);
		if (n)
			sift_down(heap, n, 0);
	}
	free(heap);
}

static void free_events(struct reader *r)
{
	for (size_t t = 0; t < r->n_threads; t++) {
		free(r->threads[t].events);
		r->threads[t].events = NULL;
	}
}

static int read_trace(struct reader *r)
{
	struct json *j = &r->j;
	enum json_token t = json_next(j);
	int rc;
	if (t == JSON_ARRAY) {
		rc = event_list(r, 1);
	} else if (t == JSON_OBJECT) {
		rc = top_object(r);
	} else {
		return t == JSON_FAILED ? -1 : json_error(j, "expected a trace: an object with traceEvents, or an array of events");
	}
	if (rc < 0 || (rc == 0 && json_next(j) != JSON_END))
		return -1;
	if (r->no_phase)
		diag_warn(r->in->name, 0, "%" PRIu64 " events without ph: left out", r->no_phase);
	struct packed_all all = { NULL, INT64_MAX, 1 };
	if (r->v8 && trace_v8_has_samples(r->v8)) {
		rc = trace_v8_stretches(r->v8, r->in->name, r->m, &r->stretches);
	} else if (r->has_stack_frames && r->has_samples && r->n_samples) {
		rc = os_stretches(r);
	} else {
		all.threads = xcalloc(r->n_threads + 1, sizeof *all.threads);
		rc = slices(r, &all);
	}
	if (rc == 0) {
		/* The events are stretches now: their memory goes before the rows are made. */
		free_events(r);
		if (all.threads)
			packed_rows(r, &all);
		else
			rows(r, 1);
	}
	for (size_t t = 0; all.threads && t < r->n_threads; t++)
		free(all.threads[t].bytes);
	free(all.threads);
	return rc;
}

int trace_read(struct input *in, struct model *m)
{
	struct reader r;
	memset(&r, 0, sizeof r);
	r.in = in;
	r.m = m;
	m->rules.strict_r = 0;
	r.name_profile = model_str(m, "Profile", 7);
	r.name_chunk = model_str(m, "ProfileChunk", 12);
	r.name_cpu_profile = model_str(m, "CpuProfile", 10);
	json_begin(&r.j, in);
	int rc = read_trace(&r);
	json_end(&r.j);
	free_events(&r);
	free(r.threads);
	hashidx_free(&r.thread_index);
	free(r.names);
	free(r.frames);
	hashidx_free(&r.frame_index);
	free(r.samples);
	trace_v8_free(r.v8);
	free(r.location_of_key);
	free(r.root_stack);
	free(r.args_text.bytes);
	free(r.key_text.bytes);
	trace_args_free(&r.args);
	free(r.stretches.items);
	return rc;
}
