/*
 * stackprof's JSON dump (`stackprof DUMP --json`, or JSON.generate of
 * StackProf.results): the Marshal dump's hash with string keys, the mode
 * a string, frame ids as decimal keys of `frames`. Read through io/json.c
 * into the builder (stackprof.h); keys it does not use are skipped.
 */
#include <inttypes.h>
#include <string.h>

#include "../base/checked.h"
#include "../io/json.h"
#include "stackprof.h"

struct json_reader {
	struct json j;
	struct stackprof_dump *d;
	char why[160];
};

static int refused(struct json_reader *r, const char *why)
{
	return why ? json_error(&r->j, "%s", why) : 0;
}

/* A frame id: the decimal key of `frames`, or any other key (a merged dump's). */
static int frame_id(struct json_reader *r, int64_t *id)
{
	const char *s = r->j.text;
	*id = 0;
	for (size_t i = 0; i < r->j.len; i++)
		if (s[i] < '0' || s[i] > '9') {
			*id = stackprof_keyed_frame_id(r->d);
			return 0;
		}
	for (size_t i = 0; i < r->j.len; i++)
		if (checked_mul_i64(*id, 10, id) || checked_add_i64(*id, s[i] - '0', id))
			return json_error(&r->j, "frame id %.40s: past 2^63", s);
	return r->j.len ? 0 : json_error(&r->j, "a frame id that is empty");
}

/* A string or null: its string id, or MODEL_NONE. */
static int text_or_null(struct json_reader *r, const char *what, uint32_t *id)
{
	enum json_token t = json_next(&r->j);
	if (t == JSON_NULL)
		return 0;
	if (t != JSON_STRING)
		return t == JSON_FAILED ? -1 : json_error(&r->j, "a frame's %s must be a string", what);
	*id = model_str(r->d->m, r->j.text, r->j.len);
	return 0;
}

/* A whole number or null (0). */
static int int_or_null(struct json_reader *r, const char *what, int64_t *v)
{
	enum json_token t = json_next(&r->j);
	if (t == JSON_NULL)
		return 0;
	if (t != JSON_NUMBER)
		return t == JSON_FAILED ? -1 : json_error(&r->j, "%s must be a number", what);
	return json_int(&r->j, what, v);
}

static int frame(struct json_reader *r)
{
	struct json *j = &r->j;
	int64_t id, line = 0, self = 0;
	uint32_t name = MODEL_NONE, file = MODEL_NONE;
	if (frame_id(r, &id) < 0 || json_expect(j, JSON_OBJECT, "a frame to be an object") < 0)
		return -1;
	for (enum json_token t; (t = json_next(j)) != JSON_OBJECT_END;) {
		if (t != JSON_KEY)
			return -1;
		int rc = strcmp(j->text, "name") == 0 ? text_or_null(r, "name", &name) :
			 strcmp(j->text, "file") == 0 ? text_or_null(r, "file", &file) :
			 strcmp(j->text, "line") == 0 ? int_or_null(r, "a frame's line", &line) :
			 strcmp(j->text, "samples") == 0 ? int_or_null(r, "a frame's samples", &self) :
			 json_skip(j, json_next(j));
		if (rc < 0)
			return -1;
	}
	return refused(r, stackprof_add_frame(r->d, id, name, file, line, self));
}

static int frames(struct json_reader *r)
{
	struct json *j = &r->j;
	if (json_expect(j, JSON_OBJECT, "frames to be an object") < 0)
		return -1;
	for (enum json_token t; (t = json_next(j)) != JSON_OBJECT_END;)
		if (t != JSON_KEY || frame(r) < 0)
			return -1;
	return 0;
}

/* raw or raw_timestamp_deltas: an array of whole numbers, each handed on as read. */
static int numbers(struct json_reader *r, const char *what, int deltas)
{
	struct json *j = &r->j;
	if (json_expect(j, JSON_ARRAY, deltas ? "raw_timestamp_deltas to be an array" : "raw to be an array") < 0)
		return -1;
	for (;;) {
		int64_t v;
		int rc = json_next_int(j, &v);
		if (rc == 0)
			break;
		if (rc == 2) {
			enum json_token t = json_next(j);
			if (t != JSON_NUMBER)
				return t == JSON_FAILED ? -1 : json_error(j, "%s must hold numbers", what);
			rc = json_int(j, what, &v) < 0 ? -1 : 1;
		}
		if (rc < 0 || refused(r, stackprof_number(r->d, deltas, v, r->why, sizeof r->why)) < 0)
			return -1;
	}
	return refused(r, stackprof_numbers_end(r->d, deltas));
}

static int mode(struct json_reader *r)
{
	enum json_token t = json_next(&r->j);
	if (t != JSON_STRING)
		return t == JSON_FAILED ? -1 : json_error(&r->j, "mode must be a string");
	if (stackprof_set_mode(r->d, (const unsigned char *)r->j.text, r->j.len) < 0)
		return json_error(&r->j, "mode \"%.40s\": stackprof's are cpu, wall, object and custom", r->j.text);
	return 0;
}

static int top_field(struct json_reader *r)
{
	struct json *j = &r->j;
	if (strcmp(j->text, "mode") == 0)
		return mode(r);
	if (strcmp(j->text, "interval") == 0)
		return int_or_null(r, "interval", &r->d->interval);
	if (strcmp(j->text, "frames") == 0)
		return frames(r);
	if (strcmp(j->text, "raw") == 0)
		return numbers(r, "raw", 0);
	if (strcmp(j->text, "raw_timestamp_deltas") == 0)
		return numbers(r, "raw_timestamp_deltas", 1);
	return json_skip(j, json_next(j));
}

static int read_dump(struct json_reader *r)
{
	struct json *j = &r->j;
	if (json_expect(j, JSON_OBJECT, "a JSON object (a stackprof dump)") < 0)
		return -1;
	for (enum json_token t; (t = json_next(j)) != JSON_OBJECT_END;)
		if (t != JSON_KEY || top_field(r) < 0)
			return -1;
	if (refused(r, stackprof_build(r->d, j->in->name, r->why, sizeof r->why)) < 0)
		return -1;
	return json_next(j) == JSON_END ? 0 : -1;
}

int stackprof_read_json(struct input *in, struct stackprof_dump *d)
{
	struct json_reader r = { .d = d };
	json_begin(&r.j, in);
	int rc = read_dump(&r);
	json_end(&r.j);
	return rc;
}
