/*
 * stackprof's Marshal dump (what StackProf.run(out: PATH) writes, and
 * `stackprof --dump`): Marshal.dump of the results hash, Symbol keys,
 * frame ids as Integers (Bignums for most: they are Ruby VALUE addresses).
 * The input is read whole (Marshal is read by offsets and links), then
 * through io/ruby_marshal.c into the builder (stackprof.h). Keys read as
 * Symbols or Strings alike: a dump re-marshalled from JSON has Strings.
 */
#include <string.h>

#include "../base/alloc.h"
#include "../io/ruby_marshal.h"
#include "stackprof.h"

struct marshal_reader {
	struct ruby_marshal mr;
	struct stackprof_dump *d;
	char why[160];
};

static int refused(struct marshal_reader *r, const char *why)
{
	return why ? ruby_marshal_error(&r->mr, "%s", why) : 0;
}

/* The next value, which must be of `kind`. */
static int expect(struct marshal_reader *r, struct ruby_value *v, enum ruby_marshal_kind kind, const char *what)
{
	if (ruby_marshal_next(&r->mr, v) < 0)
		return -1;
	return v->kind == kind ? 0 : ruby_marshal_error(&r->mr, "%s", what);
}

static int integer(struct marshal_reader *r, const char *what, int64_t *out)
{
	struct ruby_value v;
	if (ruby_marshal_next(&r->mr, &v) < 0)
		return -1;
	if (v.kind == RUBY_NIL)
		return 0;
	if (v.kind != RUBY_INTEGER)
		return ruby_marshal_error(&r->mr, "%s must be an Integer below 2^63", what);
	*out = v.integer;
	return 0;
}

static int text(struct marshal_reader *r, const char *what, uint32_t *id)
{
	struct ruby_value v;
	if (ruby_marshal_next(&r->mr, &v) < 0)
		return -1;
	if (v.kind == RUBY_NIL)
		return 0;
	if (v.kind != RUBY_STRING && v.kind != RUBY_SYMBOL)
		return ruby_marshal_error(&r->mr, "a frame's %s must be a String", what);
	*id = model_str(r->d->m, (const char *)v.bytes, v.len);
	return 0;
}

static int skip_next(struct marshal_reader *r)
{
	struct ruby_value v;
	return ruby_marshal_next(&r->mr, &v) < 0 ? -1 : ruby_marshal_skip(&r->mr, &v);
}

/* A Hash's key: a Symbol or String names a field; any other key is skipped, and so its value. */
static int key(struct marshal_reader *r, struct ruby_value *k)
{
	if (ruby_marshal_next(&r->mr, k) < 0)
		return -1;
	return ruby_marshal_skip(&r->mr, k);
}

static int frame(struct marshal_reader *r, uint64_t id_offset, int64_t id)
{
	struct ruby_value h, k;
	int64_t line = 0, self = 0;
	uint32_t name = MODEL_NONE, file = MODEL_NONE;
	if (expect(r, &h, RUBY_HASH, "a frame must be a Hash") < 0)
		return -1;
	for (uint64_t i = 0; i + 1 < h.count; i += 2) {
		if (key(r, &k) < 0)
			return -1;
		int rc = ruby_value_is(&k, "name") ? text(r, "name", &name) :
			 ruby_value_is(&k, "file") ? text(r, "file", &file) :
			 ruby_value_is(&k, "line") ? integer(r, "a frame's line", &line) :
			 ruby_value_is(&k, "samples") ? integer(r, "a frame's samples", &self) :
			 skip_next(r);
		if (rc < 0)
			return -1;
	}
	if (h.count % 2 && skip_next(r) < 0)
		return -1;
	r->mr.value_offset = id_offset;
	return refused(r, stackprof_add_frame(r->d, id, name, file, line, self));
}

static int frames(struct marshal_reader *r)
{
	struct ruby_value h, id;
	if (expect(r, &h, RUBY_HASH, "frames must be a Hash") < 0)
		return -1;
	for (uint64_t i = 0; i + 1 < h.count; i += 2) {
		if (ruby_marshal_next(&r->mr, &id) < 0)
			return -1;
		int keyed = id.kind == RUBY_STRING || id.kind == RUBY_SYMBOL; /* a merged dump's */
		if (id.kind != RUBY_INTEGER && !keyed)
			return ruby_marshal_error(&r->mr, "a frame id must be an Integer below 2^63, or a String");
		if (frame(r, id.offset, keyed ? stackprof_keyed_frame_id(r->d) : id.integer) < 0)
			return -1;
	}
	return h.count % 2 ? skip_next(r) : 0;
}

/* raw or raw_timestamp_deltas: an Array of Integers, each handed on as read. */
static int numbers(struct marshal_reader *r, const char *what, int deltas)
{
	struct ruby_value a, v;
	if (expect(r, &a, RUBY_ARRAY, deltas ? "raw_timestamp_deltas must be an Array" : "raw must be an Array") < 0)
		return -1;
	for (uint64_t i = 0; i < a.count; i++) {
		if (ruby_marshal_next(&r->mr, &v) < 0)
			return -1;
		if (v.kind != RUBY_INTEGER)
			return ruby_marshal_error(&r->mr, "%s must hold Integers below 2^63", what);
		if (refused(r, stackprof_number(r->d, deltas, v.integer, r->why, sizeof r->why)) < 0)
			return -1;
	}
	return refused(r, stackprof_numbers_end(r->d, deltas));
}

static int mode(struct marshal_reader *r)
{
	struct ruby_value v;
	if (ruby_marshal_next(&r->mr, &v) < 0)
		return -1;
	if (v.kind != RUBY_SYMBOL && v.kind != RUBY_STRING)
		return ruby_marshal_error(&r->mr, "mode must be a Symbol");
	if (stackprof_set_mode(r->d, v.bytes, v.len) < 0)
		return ruby_marshal_error(&r->mr, "mode :%.*s: stackprof's are cpu, wall, object and custom",
					  v.len > 40 ? 40 : (int)v.len, (const char *)v.bytes);
	return 0;
}

static int top_field(struct marshal_reader *r, const struct ruby_value *k)
{
	if (ruby_value_is(k, "mode"))
		return mode(r);
	if (ruby_value_is(k, "interval"))
		return integer(r, "interval", &r->d->interval);
	if (ruby_value_is(k, "frames"))
		return frames(r);
	if (ruby_value_is(k, "raw"))
		return numbers(r, "raw", 0);
	if (ruby_value_is(k, "raw_timestamp_deltas"))
		return numbers(r, "raw_timestamp_deltas", 1);
	return skip_next(r);
}

/* Trailing bytes are left, as Marshal.load leaves them (`stackprof --dump` ends in a newline). */
static int read_dump(struct marshal_reader *r, const char *name)
{
	struct ruby_value h, k;
	if (expect(r, &h, RUBY_HASH, "not a stackprof dump: its value is not a Hash") < 0)
		return -1;
	for (uint64_t i = 0; i + 1 < h.count; i += 2)
		if (key(r, &k) < 0 || top_field(r, &k) < 0)
			return -1;
	if (h.count % 2 && skip_next(r) < 0)
		return -1;
	r->mr.value_offset = r->mr.at; /* what the whole dump lacks is said at its end */
	return refused(r, stackprof_build(r->d, name, r->why, sizeof r->why));
}

/* The whole input: 0 and *data (free it), or -1 after a read error (reported). */
static int read_all(struct input *in, unsigned char **data, size_t *len)
{
	size_t cap = 0;
	*data = NULL;
	*len = 0;
	for (;;) {
		grow((void **)data, &cap, *len + 65536, 1);
		long n = input_read(in, *data + *len, cap - *len);
		if (n <= 0)
			return n < 0 ? -1 : 0;
		*len += (size_t)n;
	}
}

int stackprof_read_marshal(struct input *in, struct stackprof_dump *d)
{
	struct marshal_reader r = { .d = d };
	unsigned char *data;
	size_t len;
	int rc = read_all(in, &data, &len);
	if (rc == 0 && (rc = ruby_marshal_begin(&r.mr, in->name, data, len)) == 0)
		rc = read_dump(&r, in->name);
	ruby_marshal_end(&r.mr);
	free(data);
	return rc;
}
