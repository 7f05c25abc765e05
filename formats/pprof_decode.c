/*
 * pprof decoding, first half of the reader: the wire format into a raw
 * profile that still holds the file's ids and string indexes (they may
 * refer forward: fields come in any order). nanopb reads tags, varints,
 * leaf messages and skips unknown fields; Profile, Sample and Location are
 * walked here, field by field, because a known field with the wrong wire
 * type must be refused and nanopb's callbacks cannot see the wire type.
 * Memory grows with what the input really holds: a length prefix is never
 * trusted for an allocation.
 */
#include <inttypes.h>
#include <stddef.h>
#include <string.h>

#include <pb_decode.h>

#include "../base/diag.h"
#include "../base/alloc.h"
#include "../base/varint.h"
#include "pprof.h"

struct decoder {
	struct input *in;
	struct pprof_raw *raw;
	struct model *m;
	uint64_t offset;     /* bytes consumed so far */
	uint64_t field_at;   /* where the top-level field being read began */
	const char *field;   /* its name, for messages */
	int input_failed;    /* the input layer already said what went wrong */
	int buffered;        /* the field is decoded from a whole buffer (decode_buffered) */
};

static bool read_input(pb_istream_t *stream, pb_byte_t *buf, size_t count)
{
	struct decoder *d = stream->state;
	size_t done = 0;
	while (done < count) {
		long n = input_read(d->in, buf + done, count - done);
		if (n <= 0) {
			/* Tells nanopb that a tag boundary here is the end of the message. */
			if (n == 0) {
				stream->bytes_left = 0;
				stream->errmsg = "unexpected end of input";
			}
			d->input_failed = n < 0;
			return false;
		}
		done += (size_t)n;
		d->offset += (uint64_t)n;
	}
	return true;
}

/* Where a message of a table began: its offsets grow beside the table. */
static void note_offset(struct decoder *d, uint64_t **at, size_t *cap, size_t index)
{
	grow((void **)at, cap, index + 1, sizeof **at);
	(*at)[index] = d->field_at;
}

static int fail(struct decoder *d, const char *what, const pb_istream_t *stream)
{
	if (d->input_failed)
		return -1;
	const char *why = stream && stream->errmsg ? stream->errmsg : NULL;
	diag_error(d->in->name, 0, "bad pprof: %s in %s at byte %" PRIu64 "%s%s", what, d->field,
		   d->field_at, why ? ": " : "", why ? why : "");
	return -1;
}

static int expect_wire(struct decoder *d, pb_wire_type_t got, pb_wire_type_t want)
{
	if (got == want)
		return 0;
	diag_error(d->in->name, 0, "bad pprof: wrong wire type %d for %s at byte %" PRIu64,
		   (int)got, d->field, d->field_at);
	return -1;
}

/* A length-delimited field's contents, as a substream of its own. */
static int open_sub(struct decoder *d, pb_istream_t *stream, pb_wire_type_t wt, pb_istream_t *sub)
{
	if (expect_wire(d, wt, PB_WT_STRING) < 0)
		return -1;
	if (!pb_make_string_substream(stream, sub))
		return fail(d, "length past the end", stream);
	return 0;
}

/*
 * nanopb takes a zero tag for the end of a message; Go refuses it. After
 * a submessage, bytes left over mean a zero tag stopped the decoding.
 */
static int close_sub(struct decoder *d, pb_istream_t *stream, pb_istream_t *sub)
{
	if (sub->bytes_left) {
		diag_error(d->in->name, 0, "bad pprof: field number 0 in %s at byte %" PRIu64,
			   d->field, d->field_at);
		return -1;
	}
	if (!pb_close_string_substream(stream, sub))
		return fail(d, "truncated submessage", stream);
	return 0;
}

/*
 * A leaf message whose fields are all 64-bit integers: nanopb's fields,
 * and where each of fields 1..n lies in the struct (ints[k-1] for field k).
 */
struct leaf {
	const pb_msgdesc_t *fields;
	size_t n;
	size_t ints[5];
};

static const struct leaf value_type_leaf = {
	perftools_profiles_ValueType_fields, 2,
	{ offsetof(perftools_profiles_ValueType, type), offsetof(perftools_profiles_ValueType, unit) }
};
static const struct leaf label_leaf = {
	perftools_profiles_Label_fields, 4,
	{ offsetof(perftools_profiles_Label, key), offsetof(perftools_profiles_Label, str),
	  offsetof(perftools_profiles_Label, num), offsetof(perftools_profiles_Label, num_unit) }
};
static const struct leaf line_leaf = {
	perftools_profiles_Line_fields, 3,
	{ offsetof(perftools_profiles_Line, function_id), offsetof(perftools_profiles_Line, line),
	  offsetof(perftools_profiles_Line, column) }
};
static const struct leaf function_leaf = {
	perftools_profiles_Function_fields, 5,
	{ offsetof(perftools_profiles_Function, id), offsetof(perftools_profiles_Function, name),
	  offsetof(perftools_profiles_Function, system_name), offsetof(perftools_profiles_Function, filename),
	  offsetof(perftools_profiles_Function, start_line) }
};
/* Mapping has bools: nanopb alone decodes it. */
static const struct leaf mapping_leaf = { perftools_profiles_Mapping_fields, 0, { 0 } };

/* A varint of at most 64 bits from [p, end); NULL when cut short or longer. */
static const unsigned char *plain_varint(const unsigned char *p, const unsigned char *end, uint64_t *v)
{
	uint64_t r = 0;
	for (unsigned shift = 0; shift < 64 && p < end; shift += 7) {
		unsigned char b = *p++;
		if (shift == 63 && b > 1)
			return NULL;
		r |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			*v = r;
			return p;
		}
	}
	return NULL;
}

/* A field's tag: its number (never 0) and wire type; NULL when unusual. */
static const unsigned char *plain_tag(const unsigned char *p, const unsigned char *end,
				      uint32_t *number, unsigned *wire)
{
	uint64_t tag;
	if (!(p = plain_varint(p, end, &tag)) || tag >> 3 == 0 || tag > UINT32_MAX)
		return NULL;
	*number = (uint32_t)(tag >> 3);
	*wire = tag & 7;
	return p;
}

/* The bytes of a length-delimited field, at *bytes; NULL when they pass the end. */
static const unsigned char *plain_bytes(const unsigned char *p, const unsigned char *end,
					const unsigned char **bytes, size_t *len)
{
	uint64_t n;
	if (!(p = plain_varint(p, end, &n)) || n > (uint64_t)(end - p))
		return NULL;
	*bytes = p;
	*len = (size_t)n;
	return p + n;
}

/* Past an unknown field; NULL for a group or a field cut short, which nanopb judges. */
static const unsigned char *plain_skip(const unsigned char *p, const unsigned char *end, unsigned wire)
{
	uint64_t v;
	const unsigned char *bytes;
	size_t len, fixed = wire == PB_WT_64BIT ? 8 : 4;
	if (wire == PB_WT_VARINT)
		return plain_varint(p, end, &v);
	if (wire == PB_WT_STRING)
		return plain_bytes(p, end, &bytes, &len);
	if ((wire == PB_WT_64BIT || wire == PB_WT_32BIT) && (size_t)(end - p) >= fixed)
		return p + fixed;
	return NULL;
}

/*
 * A leaf of integers from whole bytes, without nanopb's work per field
 * (most of reading many small profiles): 1, or 0 at anything unusual (a
 * wrong wire type, a field number 0, a group, a varint cut short), for
 * nanopb to decode from the start and to name what is wrong as before.
 */
static int plain_leaf(const unsigned char *p, size_t len, const struct leaf *leaf, void *dest)
{
	const unsigned char *end = p + len;
	while (p < end) {
		uint32_t number;
		unsigned wire;
		uint64_t v;
		if (!(p = plain_tag(p, end, &number, &wire)))
			return 0;
		if (number > leaf->n)
			p = plain_skip(p, end, wire);
		else if (wire == PB_WT_VARINT && (p = plain_varint(p, end, &v)))
			memcpy((char *)dest + leaf->ints[number - 1], &v, sizeof v);
		else
			return 0;
		if (!p)
			return 0;
	}
	return 1;
}

static int decode_leaf(struct decoder *d, pb_istream_t *stream, pb_wire_type_t wt,
		       const struct leaf *leaf, void *dest)
{
	pb_istream_t sub;
	if (open_sub(d, stream, wt, &sub) < 0)
		return -1;
	/* A buffer stream's state is where its bytes are. */
	if (d->buffered && leaf->n && plain_leaf(sub.state, sub.bytes_left, leaf, dest)) {
		if (!pb_read(&sub, NULL, sub.bytes_left))
			return fail(d, "bad submessage", &sub);
	} else if (!pb_decode(&sub, leaf->fields, dest)) {
		return fail(d, "bad submessage", &sub);
	}
	return close_sub(d, stream, &sub);
}

/*
 * Appends a leaf message of a repeated field to its table and, when `at`
 * is given, notes where the message began.
 */
static int decode_into(struct decoder *d, pb_istream_t *stream, pb_wire_type_t wt,
		       const struct leaf *leaf, void **items, size_t *n, size_t *cap, size_t size,
		       uint64_t **at, size_t *cap_at)
{
	grow(items, cap, *n + 1, size);
	void *item = (char *)*items + *n * size;
	memset(item, 0, size);
	if (decode_leaf(d, stream, wt, leaf, item) < 0)
		return -1;
	if (at)
		note_offset(d, at, cap_at, *n);
	(*n)++;
	return 0;
}

/* A repeated integer: one varint, or a packed run of them (Go accepts both, mixed). */
static int decode_repeated(struct decoder *d, pb_istream_t *stream, pb_wire_type_t wt,
			   uint64_t **items, size_t *n, size_t *cap)
{
	uint64_t v;
	if (wt == PB_WT_VARINT) {
		if (!pb_decode_varint(stream, &v))
			return fail(d, "bad varint", stream);
		grow((void **)items, cap, *n + 1, sizeof **items);
		(*items)[(*n)++] = v;
		return 0;
	}
	pb_istream_t sub;
	if (open_sub(d, stream, wt, &sub) < 0)
		return -1;
	while (sub.bytes_left) {
		if (!pb_decode_varint(&sub, &v))
			return fail(d, "bad packed varint", &sub);
		grow((void **)items, cap, *n + 1, sizeof **items);
		(*items)[(*n)++] = v;
	}
	if (!pb_close_string_substream(stream, &sub))
		return fail(d, "truncated packed field", stream);
	return 0;
}

static void append_location_id(struct pprof_raw *raw, struct pprof_raw_sample *sample, uint64_t id)
{
	grow((void **)&raw->location_ids, &raw->cap_location_ids,
	     raw->n_location_bytes + VARINT_MAX_BYTES, 1);
	unsigned char *end = varint_put(raw->location_ids + raw->n_location_bytes, id);
	raw->n_location_bytes = (size_t)(end - raw->location_ids);
	sample->n_locations++;
}

/*
 * A packed run of location ids is copied as the file has it (in chunks:
 * its length prefix may claim more than exists) and its varints counted;
 * nanopb decodes it again only to say what is wrong with it.
 */
static int copy_packed_ids(struct decoder *d, pb_istream_t *sub, struct pprof_raw_sample *sample)
{
	struct pprof_raw *raw = d->raw;
	size_t start = raw->n_location_bytes;
	while (sub->bytes_left) {
		size_t chunk = sub->bytes_left < 65536 ? sub->bytes_left : 65536;
		grow((void **)&raw->location_ids, &raw->cap_location_ids, raw->n_location_bytes + chunk, 1);
		if (!pb_read(sub, raw->location_ids + raw->n_location_bytes, chunk))
			return fail(d, "bad packed varint", sub);
		raw->n_location_bytes += chunk;
	}
	if (raw->n_location_bytes == start)
		return 0;
	const unsigned char *packed = raw->location_ids + start;
	long n = varint_count(packed, raw->location_ids + raw->n_location_bytes);
	if (n >= 0) {
		sample->n_locations += (size_t)n;
		return 0;
	}
	pb_istream_t again = pb_istream_from_buffer(packed, raw->n_location_bytes - start);
	uint64_t id;
	while (pb_decode_varint(&again, &id))
		;
	return fail(d, "bad packed varint", &again);
}

/* A sample's location ids: one varint, or a packed run (Go accepts both, mixed). */
static int decode_location_ids(struct decoder *d, pb_istream_t *stream, pb_wire_type_t wt,
			       struct pprof_raw_sample *sample)
{
	uint64_t id;
	if (wt == PB_WT_VARINT) {
		if (!pb_decode_varint(stream, &id))
			return fail(d, "bad varint", stream);
		append_location_id(d->raw, sample, id);
		return 0;
	}
	pb_istream_t sub;
	if (open_sub(d, stream, wt, &sub) < 0)
		return -1;
	if (copy_packed_ids(d, &sub, sample) < 0)
		return -1;
	if (!pb_close_string_substream(stream, &sub))
		return fail(d, "truncated packed field", stream);
	return 0;
}

static int skip(struct decoder *d, pb_istream_t *stream, pb_wire_type_t wt)
{
	if (wt != PB_WT_VARINT && wt != PB_WT_64BIT && wt != PB_WT_STRING && wt != PB_WT_32BIT) {
		diag_error(d->in->name, 0, "bad pprof: wire type %d (groups are not allowed) in %s at byte %" PRIu64,
			   (int)wt, d->field, d->field_at);
		return -1;
	}
	if (!pb_skip_field(stream, wt))
		return fail(d, "unknown field cut short", stream);
	return 0;
}

/* Walks the fields of a submessage, calling `field` for each. */
static int each_field(struct decoder *d, pb_istream_t *stream, pb_wire_type_t wt, void *item,
		      int (*field)(struct decoder *, pb_istream_t *, uint32_t, pb_wire_type_t, void *))
{
	pb_istream_t sub;
	if (open_sub(d, stream, wt, &sub) < 0)
		return -1;
	for (;;) {
		pb_wire_type_t fwt;
		uint32_t tag;
		bool eof;
		if (!pb_decode_tag(&sub, &fwt, &tag, &eof)) {
			if (eof)
				break;
			return fail(d, "bad tag", &sub);
		}
		if (tag == 0)
			return fail(d, "field number 0", NULL);
		if (field(d, &sub, tag, fwt, item) < 0)
			return -1;
	}
	return close_sub(d, stream, &sub);
}

static int sample_field(struct decoder *d, pb_istream_t *s, uint32_t tag, pb_wire_type_t wt,
			void *item)
{
	struct pprof_raw *raw = d->raw;
	struct pprof_raw_sample *sample = item;
	switch (tag) {
	case 1:
		return decode_location_ids(d, s, wt, sample);
	case 2:
		return decode_repeated(d, s, wt, &raw->values, &raw->n_values, &raw->cap_values);
	case 3:
		sample->n_labels++;
		return decode_into(d, s, wt, &label_leaf, (void **)&raw->labels,
				   &raw->n_labels, &raw->cap_labels, sizeof *raw->labels, NULL, NULL);
	default:
		return skip(d, s, wt);
	}
}

/*
 * The payload of a top-level field whole in a buffer stream (a buffer
 * stream's state is where its bytes are); NULL when it is not all there.
 */
static const unsigned char *plain_payload(const struct decoder *d, const pb_istream_t *stream,
					  pb_wire_type_t wt, const unsigned char **end)
{
	const unsigned char *start = stream->state, *bytes;
	size_t len;
	if (!d->buffered || wt != PB_WT_STRING)
		return NULL;
	const unsigned char *after = plain_bytes(start, start + stream->bytes_left, &bytes, &len);
	if (!after || after != start + stream->bytes_left)
		return NULL;
	*end = after;
	return bytes;
}

static int plain_value(struct pprof_raw *raw, uint64_t v)
{
	grow((void **)&raw->values, &raw->cap_values, raw->n_values + 1, sizeof *raw->values);
	raw->values[raw->n_values++] = v;
	return 1;
}

/* A sample's field: location ids or values (one, or packed), or a label. 0 when unusual. */
static int plain_sample_field(struct pprof_raw *raw, struct pprof_raw_sample *sample, uint32_t number,
			      unsigned wire, const unsigned char **at, const unsigned char *end)
{
	const unsigned char *p = *at, *bytes;
	size_t len;
	uint64_t v;
	if (number > 3)
		return (*at = plain_skip(p, end, wire)) != NULL;
	if (wire == PB_WT_VARINT && number < 3) {
		if (!(*at = plain_varint(p, end, &v)))
			return 0;
		if (number == 2)
			return plain_value(raw, v);
		append_location_id(raw, sample, v);
		return 1;
	}
	if (wire != PB_WT_STRING || !(*at = plain_bytes(p, end, &bytes, &len)))
		return 0;
	if (number == 1) {
		long n = varint_count(bytes, bytes + len);
		grow((void **)&raw->location_ids, &raw->cap_location_ids, raw->n_location_bytes + len + 1, 1);
		if (len)
			memcpy(raw->location_ids + raw->n_location_bytes, bytes, len);
		raw->n_location_bytes += len;
		sample->n_locations += n > 0 ? (size_t)n : 0;
		return n >= 0;
	}
	if (number == 2) {
		for (const unsigned char *q = bytes; q < bytes + len;)
			if (!(q = plain_varint(q, bytes + len, &v)) || !plain_value(raw, v))
				return 0;
		return 1;
	}
	grow((void **)&raw->labels, &raw->cap_labels, raw->n_labels + 1, sizeof *raw->labels);
	memset(&raw->labels[raw->n_labels], 0, sizeof *raw->labels);
	sample->n_labels++;
	return plain_leaf(bytes, len, &label_leaf, &raw->labels[raw->n_labels++]);
}

/* A sample from whole bytes [p, end); 0 at anything unusual, with nothing of it kept. */
static int plain_sample(struct pprof_raw *raw, const unsigned char *p, const unsigned char *end,
			struct pprof_raw_sample *sample)
{
	int ok = 1;
	while (ok && p < end) {
		uint32_t number;
		unsigned wire;
		ok = (p = plain_tag(p, end, &number, &wire)) && plain_sample_field(raw, sample, number, wire, &p, end);
	}
	if (ok)
		return 1;
	raw->n_location_bytes = sample->first_location;
	raw->n_values = sample->first_value;
	raw->n_labels = sample->first_label;
	sample->n_locations = sample->n_labels = 0;
	return 0;
}

static struct pprof_raw_sample new_sample(const struct decoder *d)
{
	const struct pprof_raw *raw = d->raw;
	return (struct pprof_raw_sample){ raw->n_location_bytes, 0, 0, raw->n_values, 0,
					  raw->n_labels, 0, d->field_at };
}

static void add_sample(struct pprof_raw *raw, struct pprof_raw_sample *sample)
{
	sample->location_bytes = raw->n_location_bytes - sample->first_location;
	sample->n_values = raw->n_values - sample->first_value;
	grow((void **)&raw->samples, &raw->cap_samples, raw->n_samples + 1, sizeof *raw->samples);
	raw->samples[raw->n_samples++] = *sample;
}

static int decode_sample(struct decoder *d, pb_istream_t *stream, pb_wire_type_t wt)
{
	struct pprof_raw_sample sample = new_sample(d);
	const unsigned char *end = NULL, *p = plain_payload(d, stream, wt, &end);
	if (p && plain_sample(d->raw, p, end, &sample)) {
		if (!pb_read(stream, NULL, stream->bytes_left))
			return fail(d, "bad submessage", stream);
	} else if (each_field(d, stream, wt, &sample, sample_field) < 0) {
		return -1;
	}
	add_sample(d->raw, &sample);
	return 0;
}

static int varint_into(struct decoder *d, pb_istream_t *s, pb_wire_type_t wt, uint64_t *v)
{
	if (expect_wire(d, wt, PB_WT_VARINT) < 0)
		return -1;
	if (!pb_decode_varint(s, v))
		return fail(d, "bad varint", s);
	return 0;
}

static int location_field(struct decoder *d, pb_istream_t *s, uint32_t tag, pb_wire_type_t wt,
			  void *item)
{
	struct pprof_raw *raw = d->raw;
	struct pprof_raw_location *l = item;
	uint64_t folded;
	switch (tag) {
	case 1:
		return varint_into(d, s, wt, &l->id);
	case 2:
		return varint_into(d, s, wt, &l->mapping_id);
	case 3:
		return varint_into(d, s, wt, &l->address);
	case 4:
		l->n_lines++;
		return decode_into(d, s, wt, &line_leaf, (void **)&raw->lines,
				   &raw->n_lines, &raw->cap_lines, sizeof *raw->lines, NULL, NULL);
	case 5:
		if (varint_into(d, s, wt, &folded) < 0)
			return -1;
		l->is_folded = folded != 0;
		return 0;
	default:
		return skip(d, s, wt);
	}
}

/* A location's field: an id, the mapping's, the address, a line, the folded mark. 0 when unusual. */
static int plain_location_field(struct pprof_raw *raw, struct pprof_raw_location *l, uint32_t number,
				unsigned wire, const unsigned char **at, const unsigned char *end)
{
	const unsigned char *bytes;
	size_t len;
	uint64_t v;
	if (number > 5)
		return (*at = plain_skip(*at, end, wire)) != NULL;
	if (number == 4) {
		if (wire != PB_WT_STRING || !(*at = plain_bytes(*at, end, &bytes, &len)))
			return 0;
		grow((void **)&raw->lines, &raw->cap_lines, raw->n_lines + 1, sizeof *raw->lines);
		memset(&raw->lines[raw->n_lines], 0, sizeof *raw->lines);
		l->n_lines++;
		return plain_leaf(bytes, len, &line_leaf, &raw->lines[raw->n_lines++]);
	}
	if (wire != PB_WT_VARINT || !(*at = plain_varint(*at, end, &v)))
		return 0;
	if (number == 1)
		l->id = v;
	else if (number == 2)
		l->mapping_id = v;
	else if (number == 3)
		l->address = v;
	else
		l->is_folded = v != 0;
	return 1;
}

/* A location from whole bytes [p, end); 0 at anything unusual, with nothing of it kept. */
static int plain_location(struct pprof_raw *raw, const unsigned char *p, const unsigned char *end,
			  struct pprof_raw_location *l)
{
	int ok = 1;
	while (ok && p < end) {
		uint32_t number;
		unsigned wire;
		ok = (p = plain_tag(p, end, &number, &wire)) && plain_location_field(raw, l, number, wire, &p, end);
	}
	if (ok)
		return 1;
	raw->n_lines = l->first_line;
	memset(l, 0, sizeof *l);
	l->first_line = raw->n_lines;
	return 0;
}

static void add_location(struct decoder *d, const struct pprof_raw_location *l)
{
	struct pprof_raw *raw = d->raw;
	grow((void **)&raw->locations, &raw->cap_locations, raw->n_locations + 1,
	     sizeof *raw->locations);
	raw->locations[raw->n_locations] = *l;
	note_offset(d, &raw->location_at, &raw->cap_location_at, raw->n_locations++);
}

static int decode_location(struct decoder *d, pb_istream_t *stream, pb_wire_type_t wt)
{
	struct pprof_raw_location l;
	memset(&l, 0, sizeof l);
	l.first_line = d->raw->n_lines;
	const unsigned char *end = NULL, *p = plain_payload(d, stream, wt, &end);
	if (p && plain_location(d->raw, p, end, &l)) {
		if (!pb_read(stream, NULL, stream->bytes_left))
			return fail(d, "bad submessage", stream);
	} else if (each_field(d, stream, wt, &l, location_field) < 0) {
		return -1;
	}
	add_location(d, &l);
	return 0;
}

/* Reads a string in chunks: its length prefix may claim more than exists. */
static int decode_string(struct decoder *d, pb_istream_t *stream, pb_wire_type_t wt)
{
	pb_istream_t sub;
	if (open_sub(d, stream, wt, &sub) < 0)
		return -1;
	struct pprof_raw *raw = d->raw;
	size_t len = 0;
	while (sub.bytes_left) {
		size_t chunk = sub.bytes_left < 65536 ? sub.bytes_left : 65536;
		grow((void **)&raw->scratch, &raw->cap_scratch, len + chunk, 1);
		if (!pb_read(&sub, (pb_byte_t *)raw->scratch + len, chunk))
			return fail(d, "string cut short", &sub);
		len += chunk;
	}
	if (!pb_close_string_substream(stream, &sub))
		return fail(d, "string cut short", stream);
	grow((void **)&raw->strings, &raw->cap_strings, raw->n_strings + 1, sizeof *raw->strings);
	raw->strings[raw->n_strings++] = model_str(d->m, raw->scratch, len);
	return 0;
}

static int decode_scalar(struct decoder *d, pb_istream_t *s, pb_wire_type_t wt, int64_t *dest)
{
	uint64_t v;
	if (varint_into(d, s, wt, &v) < 0)
		return -1;
	*dest = (int64_t)v;
	return 0;
}

static int decode_time(struct decoder *d, pb_istream_t *s, pb_wire_type_t wt)
{
	int64_t t;
	if (decode_scalar(d, s, wt, &t) < 0)
		return -1;
	/* Go: a second start time means two profiles written back to back. */
	if (d->raw->time_nanos != 0 && t != 0) {
		diag_error(d->in->name, 0, "bad pprof: concatenated profiles detected (second time_nanos at byte %" PRIu64 ")",
			   d->field_at);
		return -1;
	}
	d->raw->time_nanos = t;
	return 0;
}

static const char *const field_names[] = {
	"field 0", "sample_type", "sample", "mapping", "location", "function", "string_table",
	"drop_frames", "keep_frames", "time_nanos", "duration_nanos", "period_type", "period",
	"comment", "default_sample_type", "doc_url",
};

static int profile_field(struct decoder *d, pb_istream_t *s, uint32_t tag, pb_wire_type_t wt)
{
	struct pprof_raw *raw = d->raw;
	d->field = tag < sizeof field_names / sizeof *field_names ? field_names[tag] : "an unknown field";
	switch (tag) {
	case 1:
		return decode_into(d, s, wt, &value_type_leaf,
				   (void **)&raw->sample_types, &raw->n_sample_types, &raw->cap_sample_types,
				   sizeof *raw->sample_types, &raw->sample_type_at, &raw->cap_sample_type_at);
	case 2: return decode_sample(d, s, wt);
	case 3:
		return decode_into(d, s, wt, &mapping_leaf, (void **)&raw->mappings,
				   &raw->n_mappings, &raw->cap_mappings, sizeof *raw->mappings,
				   &raw->mapping_at, &raw->cap_mapping_at);
	case 4: return decode_location(d, s, wt);
	case 5:
		return decode_into(d, s, wt, &function_leaf, (void **)&raw->functions,
				   &raw->n_functions, &raw->cap_functions, sizeof *raw->functions,
				   &raw->function_at, &raw->cap_function_at);
	case 6: return decode_string(d, s, wt);
	case 7: return decode_scalar(d, s, wt, &raw->drop_frames);
	case 8: return decode_scalar(d, s, wt, &raw->keep_frames);
	case 9: return decode_time(d, s, wt);
	case 10: return decode_scalar(d, s, wt, &raw->duration_nanos);
	case 11:
		/* A repeated message field replaces the earlier one, as in Go. */
		memset(&raw->period_type, 0, sizeof raw->period_type);
		return decode_leaf(d, s, wt, &value_type_leaf, &raw->period_type);
	case 12: return decode_scalar(d, s, wt, &raw->period);
	case 13:
		return decode_repeated(d, s, wt, &raw->comments, &raw->n_comments, &raw->cap_comments);
	case 14: return decode_scalar(d, s, wt, &raw->default_sample_type);
	case 15: return decode_scalar(d, s, wt, &raw->doc_url);
	default: return skip(d, s, wt);
	}
}

/* Fields up to this size are decoded from the input's buffer when whole there. */
enum { BUFFERED_FIELD_MAX = 1 << 20 };

/*
 * A length-delimited top-level field that is whole in the input's buffer
 * is decoded from there with nanopb's buffer stream, not a callback per
 * byte (a fifth of reading a big profile). *done says whether it was; a
 * field cut short is left to the stream, which reports it.
 */
static int decode_buffered(struct decoder *d, uint32_t tag, pb_wire_type_t wt, int *done)
{
	const unsigned char *bytes;
	uint64_t len;
	*done = 0;
	long have = input_peek(d->in, VARINT_MAX_BYTES, &bytes);
	if (have < 0)
		return -1;
	pb_istream_t prefix = pb_istream_from_buffer(bytes, (size_t)have);
	if (have == 0 || !pb_decode_varint(&prefix, &len) || len > BUFFERED_FIELD_MAX)
		return 0;
	size_t total = (size_t)have - prefix.bytes_left + (size_t)len;
	long whole = input_peek(d->in, total, &bytes);
	if (whole < 0)
		return -1;
	if ((size_t)whole < total)
		return 0;
	pb_istream_t field = pb_istream_from_buffer(bytes, total);
	*done = 1;
	d->buffered = 1;
	int rc = profile_field(d, &field, tag, wt);
	d->buffered = 0;
	input_skip(d->in, total);
	d->offset += total;
	return rc;
}

/* A sample, location or string whose every byte is at [p, end); 0 when unusual. */
static int plain_message(struct decoder *d, uint32_t number, const unsigned char *p, const unsigned char *end)
{
	struct pprof_raw *raw = d->raw;
	if (number == 2) {
		struct pprof_raw_sample sample = new_sample(d);
		if (!plain_sample(raw, p, end, &sample))
			return 0;
		add_sample(raw, &sample);
	} else if (number == 4) {
		struct pprof_raw_location l;
		memset(&l, 0, sizeof l);
		l.first_line = raw->n_lines;
		if (!plain_location(raw, p, end, &l))
			return 0;
		add_location(d, &l);
	} else {
		grow((void **)&raw->strings, &raw->cap_strings, raw->n_strings + 1, sizeof *raw->strings);
		raw->strings[raw->n_strings++] = model_str(d->m, (const char *)p, (size_t)(end - p));
	}
	return 1;
}

/*
 * The profile's next field when it is a sample, location or string whole
 * in the input's buffer, read from there without nanopb (most fields of
 * most profiles): *done says whether it was; anything unusual is left to
 * the stream, which reads it again and says what is wrong.
 */
static int plain_field(struct decoder *d, int *done)
{
	const unsigned char *bytes, *p;
	uint32_t number;
	unsigned wire;
	*done = 0;
	long have = input_peek(d->in, 2 * VARINT_MAX_BYTES, &bytes);
	if (have <= 0)
		return have < 0 ? -1 : 0;
	if (!(p = plain_tag(bytes, bytes + have, &number, &wire)) || wire != PB_WT_STRING ||
	    (number != 2 && number != 4 && number != 6))
		return 0;
	uint64_t n;
	if (!(p = plain_varint(p, bytes + have, &n)) || n > BUFFERED_FIELD_MAX)
		return 0;
	size_t head = (size_t)(p - bytes), total = head + (size_t)n;
	long whole = input_peek(d->in, total, &bytes);
	if (whole < 0)
		return -1;
	if ((size_t)whole < total)
		return 0;
	d->field_at = d->offset;
	if (!plain_message(d, number, bytes + head, bytes + total))
		return 0;
	*done = 1;
	input_skip(d->in, total);
	d->offset += total;
	return 0;
}

int pprof_decode(struct input *in, struct model *m, struct pprof_raw *raw)
{
	struct decoder d = { in, raw, m, 0, 0, "the profile", 0, 0 };
	pb_istream_t stream = { read_input, &d, SIZE_MAX, NULL };
	for (;;) {
		pb_wire_type_t wt;
		uint32_t tag;
		bool eof;
		int done = 0;
		if (plain_field(&d, &done) < 0)
			return -1;
		if (done)
			continue;
		d.field_at = d.offset;
		d.field = "the profile";
		/* nanopb keeps the first message a stream was given: this field's own, please. */
		stream.errmsg = NULL;
		if (!pb_decode_tag(&stream, &wt, &tag, &eof)) {
			if (eof && stream.bytes_left == 0)
				break;
			if (eof)
				return fail(&d, "field number 0", &stream);
			return fail(&d, "bad tag", &stream);
		}
		if (tag == 0)
			return fail(&d, "field number 0", NULL);
		if (wt == PB_WT_STRING && decode_buffered(&d, tag, wt, &done) < 0)
			return -1;
		if (!done && profile_field(&d, &stream, tag, wt) < 0)
			return -1;
	}
	if (d.offset == 0) {
		diag_error(in->name, 0, "empty input");
		return -1;
	}
	return 0;
}
