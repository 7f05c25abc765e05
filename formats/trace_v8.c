/*
 * The V8 CPU profiles inside a trace (trace.h): DevTools' Performance
 * panel saves them as a Profile event (its startTime) and ProfileChunk
 * events (nodes, samples, timeDeltas, each chunk adding to them), paired
 * by id, since the chunks come from V8's sampler thread, not the profiled
 * one; Chrome before 66 wrote a CpuProfile event holding a whole
 * .cpuprofile. Each profile's parts are held as the text of one
 * .cpuprofile, which the .cpuprofile reader reads once the trace is read,
 * so that a profile in a trace reads exactly as the same profile saved
 * alone (docs/formats/cpuprofile.md); its samples become stretches of the
 * Profile event's thread, in that reader's wall time.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/diag.h"
#include "../model/strtab.h"
#include "cpuprofile.h"
#include "trace.h"

struct profile {
	char *key;          /* its process and id, or its thread for an event without an id */
	uint32_t thread;    /* the Profile event's label set */
	struct trace_text whole;  /* a CpuProfile event's profile, else empty */
	struct trace_text nodes, samples, deltas;
	struct trace_text start, end; /* as written; empty: none */
};

struct trace_v8 {
	struct profile *profiles;
	size_t n, cap;
	uint64_t orphan_chunks, other_thread_chunks;
	int any_samples;
};

struct trace_v8 *trace_v8_new(void)
{
	return xcalloc(1, sizeof(struct trace_v8));
}

static void free_profile(struct profile *p)
{
	free(p->key);
	free(p->whole.bytes);
	free(p->nodes.bytes);
	free(p->samples.bytes);
	free(p->deltas.bytes);
	free(p->start.bytes);
	free(p->end.bytes);
}

void trace_v8_free(struct trace_v8 *v)
{
	if (!v)
		return;
	for (size_t i = 0; i < v->n; i++)
		free_profile(&v->profiles[i]);
	free(v->profiles);
	free(v);
}

int trace_v8_has_samples(const struct trace_v8 *v)
{
	return v->any_samples;
}

static struct profile *find(struct trace_v8 *v, const char *key)
{
	for (size_t i = v->n; i-- > 0;)
		if (strcmp(v->profiles[i].key, key) == 0)
			return &v->profiles[i];
	return NULL;
}

/* A new profile of that key; one already there of it is replaced, as DevTools and speedscope do. */
static struct profile *start_profile(struct trace_v8 *v, const char *key, uint32_t thread)
{
	struct profile *p = find(v, key);
	if (p)
		free_profile(p);
	else {
		grow((void **)&v->profiles, &v->cap, v->n + 1, sizeof *v->profiles);
		p = &v->profiles[v->n++];
	}
	memset(p, 0, sizeof *p);
	p->key = xmalloc(strlen(key) + 1);
	strcpy(p->key, key);
	p->thread = thread;
	return p;
}

/* A number's text kept as written (the .cpuprofile reader judges it). */
static int number_into(struct json *j, struct trace_text *t, const char *what)
{
	enum json_token tok = json_next(j);
	if (tok == JSON_NULL)
		return 0;
	if (tok != JSON_NUMBER)
		return tok == JSON_FAILED ? -1 : json_error(j, "%s must be a number", what);
	t->len = 0;
	trace_text_add(t, j->text, j->len);
	return 0;
}

/* The elements of an array appended to `t`, comma-separated, as JavaScript writes them. */
static int array_into(struct json *j, struct trace_text *t, const char *what)
{
	enum json_token tok = json_next(j);
	if (tok == JSON_NULL)
		return 0;
	if (tok != JSON_ARRAY)
		return tok == JSON_FAILED ? -1 : json_error(j, "%s must be an array", what);
	while ((tok = json_next(j)) != JSON_ARRAY_END) {
		if (tok == JSON_FAILED)
			return -1;
		if (t->len)
			trace_text_add(t, ",", 1);
		if (trace_stringify(j, tok, t, NULL) < 0)
			return -1;
	}
	return 0;
}

/* A chunk's cpuProfile: its nodes and samples. */
static int chunk_profile(struct json *j, struct profile *p)
{
	enum json_token t = json_next(j);
	if (t == JSON_NULL)
		return 0;
	if (t != JSON_OBJECT)
		return t == JSON_FAILED ? -1 : json_error(j, "a ProfileChunk's cpuProfile must be an object");
	while ((t = json_next(j)) == JSON_KEY) {
		int rc;
		if (strcmp(j->text, "nodes") == 0)
			rc = array_into(j, &p->nodes, "cpuProfile's nodes");
		else if (strcmp(j->text, "samples") == 0)
			rc = array_into(j, &p->samples, "cpuProfile's samples");
		else
			rc = json_skip(j, json_next(j));
		if (rc < 0)
			return -1;
	}
	return t == JSON_OBJECT_END ? 0 : -1;
}

/* args.data of a Profile or ProfileChunk event, into p. */
static int data_fields(struct json *j, struct profile *p, int chunk)
{
	enum json_token t;
	while ((t = json_next(j)) == JSON_KEY) {
		int rc;
		if (strcmp(j->text, "startTime") == 0)
			rc = number_into(j, &p->start, "startTime");
		else if (strcmp(j->text, "endTime") == 0)
			rc = number_into(j, &p->end, "endTime");
		else if (chunk && strcmp(j->text, "cpuProfile") == 0)
			rc = chunk_profile(j, p);
		else if (strcmp(j->text, "timeDeltas") == 0)
			rc = array_into(j, &p->deltas, "timeDeltas");
		else
			rc = json_skip(j, json_next(j));
		if (rc < 0)
			return -1;
	}
	return t == JSON_OBJECT_END ? 0 : -1;
}

/*
 * Into the args' data object: 1 there, 0 when the args have none (or
 * null), -1 after reporting. `cpu_profile` goes one further, into a
 * CpuProfile event's data.cpuProfile.
 */
static int enter_data(struct json *j, int cpu_profile)
{
	if (json_expect(j, JSON_OBJECT, "args to be an object") < 0)
		return -1;
	const char *want = "data";
	for (enum json_token t; (t = json_next(j)) == JSON_KEY;) {
		if (strcmp(j->text, want) != 0) {
			if (json_skip(j, json_next(j)) < 0)
				return -1;
			continue;
		}
		t = json_next(j);
		if (t == JSON_NULL)
			return 0;
		if (t != JSON_OBJECT)
			return t == JSON_FAILED ? -1 : json_error(j, "args.%s must be an object", want);
		if (!cpu_profile || strcmp(want, "cpuProfile") == 0)
			return 1;
		want = "cpuProfile";
	}
	return j->failed ? -1 : 0;
}

int trace_v8_event(struct trace_v8 *v, struct input *in, const char *name, const char *key,
		   uint32_t thread, const struct trace_text *args)
{
	struct input mem;
	input_open_memory(&mem, args->bytes, args->len, in->name);
	struct json j;
	json_begin(&j, &mem);
	int whole = strcmp(name, "CpuProfile") == 0, chunk = strcmp(name, "ProfileChunk") == 0;
	int rc = enter_data(&j, whole);
	if (rc > 0 && whole) {
		struct profile *p = start_profile(v, key, thread);
		rc = trace_stringify(&j, JSON_OBJECT, &p->whole, NULL);
		v->any_samples = 1;
	} else if (rc > 0 && !chunk) {
		rc = data_fields(&j, start_profile(v, key, thread), 0);
	} else if (rc > 0) {
		struct profile *p = find(v, key);
		if (!p)
			v->orphan_chunks++;
		else {
			v->other_thread_chunks += p->thread != thread;
			size_t before = p->samples.len;
			rc = data_fields(&j, p, 1);
			v->any_samples |= p->samples.len > before;
		}
	}
	json_end(&j);
	input_close(&mem);
	return rc < 0 ? -1 : 0;
}

/* The profile as one .cpuprofile's text. */
static void profile_text(const struct profile *p, struct trace_text *t)
{
	if (p->whole.len) {
		trace_text_add(t, p->whole.bytes, p->whole.len);
		return;
	}
	trace_text_add(t, "{\"startTime\":", 13);
	if (p->start.len)
		trace_text_add(t, p->start.bytes, p->start.len);
	else
		trace_text_add(t, "0", 1);
	if (p->end.len) {
		trace_text_add(t, ",\"endTime\":", 11);
		trace_text_add(t, p->end.bytes, p->end.len);
	}
	trace_text_add(t, ",\"nodes\":[", 10);
	trace_text_add(t, p->nodes.bytes, p->nodes.len);
	trace_text_add(t, "],\"samples\":[", 13);
	trace_text_add(t, p->samples.bytes, p->samples.len);
	trace_text_add(t, "],\"timeDeltas\":[", 16);
	trace_text_add(t, p->deltas.bytes, p->deltas.len);
	trace_text_add(t, "]}", 2);
}

/* A string of one model as a string of the other. */
static uint32_t copy_str(struct model *to, const struct model *from, uint32_t id)
{
	const struct strtab_entry *e = strtab_get(&from->strings, id);
	return model_str(to, e->bytes, e->len);
}

/* The profile's stacks in m, by its own stack id (callers come before their nodes). */
static uint32_t *copy_stacks(struct model *m, const struct model *sub)
{
	uint32_t *locations = xmalloc((sub->n_locations + 1) * sizeof *locations);
	for (size_t i = 0; i < sub->n_locations; i++) {
		struct model_location l = sub->locations[i];
		const struct model_function *f = &sub->functions[l.function];
		struct model_function copy = { .name = copy_str(m, sub, f->name),
					       .system_name = copy_str(m, sub, f->system_name),
					       .file_name = copy_str(m, sub, f->file_name), .start_line = f->start_line };
		l.function = model_function(m, &copy);
		locations[i] = model_add_location(m, &l, NULL, 0);
	}
	uint32_t *stacks = xmalloc((sub->n_stacks + 1) * sizeof *stacks);
	stacks[0] = MODEL_EMPTY_STACK;
	for (size_t s = 1; s < sub->n_stacks; s++)
		stacks[s] = model_stack(m, locations[sub->stacks[s].location], stacks[sub->stacks[s].caller]);
	free(locations);
	return stacks;
}

/* One profile's samples, read as a .cpuprofile, as stretches of its thread. */
static int profile_stretches(const struct profile *p, const char *in_name, struct model *m,
			     struct trace_stretches *out)
{
	struct trace_text text = { 0, 0, 0 };
	profile_text(p, &text);
	char name[300];
	snprintf(name, sizeof name, "%s: profile %s", in_name, p->key);
	struct input mem;
	input_open_memory(&mem, text.bytes, text.len, name);
	free(text.bytes);
	struct model sub;
	model_init(&sub);
	int rc = cpuprofile_read(&mem, &sub);
	input_close(&mem);
	uint32_t first = model_get_meta(&sub, "first_sample_us");
	if (rc == 0 && sub.n_rows && sub.timeline_type != SIZE_MAX && first != HASHIDX_NONE) {
		uint32_t *stacks = copy_stacks(m, &sub);
		int64_t clock_ns = strtoll(model_cstr(&sub, first), NULL, 10) * 1000;
		struct row_cursor rows;
		rows_begin(&sub, &rows);
		for (const struct model_row *r; (r = rows_next(&rows));) {
			int64_t wall_ns = r->values[sub.timeline_type] * 1000;
			struct trace_stretch s = { clock_ns, wall_ns, stacks[r->stack], p->thread, r->repeat, 0 };
			trace_stretch_add(out, &s);
			clock_ns += wall_ns * (int64_t)r->repeat;
		}
		rows_end(&rows);
		free(stacks);
	}
	model_free(&sub);
	return rc;
}

int trace_v8_stretches(struct trace_v8 *v, const char *in_name, struct model *m, struct trace_stretches *out)
{
	if (v->orphan_chunks)
		diag_warn(in_name, 0, "%" PRIu64 " ProfileChunk events of no Profile event before them: left out",
			  v->orphan_chunks);
	if (v->other_thread_chunks)
		diag_warn(in_name, 0, "%" PRIu64 " ProfileChunk events come from another thread than their Profile "
			  "event (V8's sampler): their samples are the Profile event's thread's", v->other_thread_chunks);
	for (size_t i = 0; i < v->n; i++) {
		const struct profile *p = &v->profiles[i];
		if (!p->whole.len && !p->samples.len)
			continue;
		if (profile_stretches(p, in_name, m, out) < 0)
			return -1;
	}
	return 0;
}
