/* pprof: registration, the probe, and the scale of a unit with decimals. */
#include <pb_decode.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/numtext.h"

#include "pprof.h"

/*
 * profile.proto's messages as the probe knows them: what each field number
 * holds. A repeated number may come packed, as a string of varints.
 */
enum held { VARINT, VARINTS, BYTES, MESSAGE };

struct message_fields {
	size_t n;                    /* fields 1..n, no others */
	const struct field_held *of; /* of[i] is field i + 1 */
};

struct field_held {
	enum held held;
	const struct message_fields *message; /* for MESSAGE */
};

#define FIELDS(array) { sizeof array / sizeof array[0], array }

static const struct field_held value_type_of[] = { { VARINT, NULL }, { VARINT, NULL } };
static const struct message_fields value_type = FIELDS(value_type_of);
static const struct field_held label_of[] = { { VARINT, NULL }, { VARINT, NULL }, { VARINT, NULL }, { VARINT, NULL } };
static const struct message_fields label = FIELDS(label_of);
static const struct field_held sample_of[] = { { VARINTS, NULL }, { VARINTS, NULL }, { MESSAGE, &label } };
static const struct message_fields sample = FIELDS(sample_of);
static const struct field_held mapping_of[] = {
	{ VARINT, NULL }, { VARINT, NULL }, { VARINT, NULL }, { VARINT, NULL }, { VARINT, NULL },
	{ VARINT, NULL }, { VARINT, NULL }, { VARINT, NULL }, { VARINT, NULL }, { VARINT, NULL },
};
static const struct message_fields mapping = FIELDS(mapping_of);
static const struct field_held line_of[] = { { VARINT, NULL }, { VARINT, NULL }, { VARINT, NULL } };
static const struct message_fields line = FIELDS(line_of);
static const struct field_held location_of[] = {
	{ VARINT, NULL }, { VARINT, NULL }, { VARINT, NULL }, { MESSAGE, &line }, { VARINT, NULL },
};
static const struct message_fields location = FIELDS(location_of);
static const struct field_held function_of[] = {
	{ VARINT, NULL }, { VARINT, NULL }, { VARINT, NULL }, { VARINT, NULL }, { VARINT, NULL },
};
static const struct message_fields function = FIELDS(function_of);
static const struct field_held profile_of[] = {
	{ MESSAGE, &value_type }, { MESSAGE, &sample }, { MESSAGE, &mapping }, { MESSAGE, &location },
	{ MESSAGE, &function }, { BYTES, NULL }, { VARINT, NULL }, { VARINT, NULL }, { VARINT, NULL },
	{ VARINT, NULL }, { MESSAGE, &value_type }, { VARINT, NULL }, { VARINTS, NULL }, { VARINT, NULL },
	{ VARINT, NULL },
};
static const struct message_fields profile = FIELDS(profile_of);

static bool holds_message(pb_istream_t *s, const struct message_fields *m);

static bool holds_varints(pb_istream_t *s)
{
	uint64_t value;
	while (s->bytes_left)
		if (!pb_decode_varint(s, &value))
			return false;
	return true;
}

/* Does the next field of s, a field of m, have a number m has, its wire type, and whole contents? */
static bool holds_field(pb_istream_t *s, const struct message_fields *m)
{
	pb_wire_type_t wire;
	uint32_t number;
	bool eof;
	uint64_t value;
	if (!pb_decode_tag(s, &wire, &number, &eof) || number == 0 || number > m->n)
		return false;
	const struct field_held *field = &m->of[number - 1];
	if (wire == PB_WT_VARINT)
		return (field->held == VARINT || field->held == VARINTS) && pb_decode_varint(s, &value);
	pb_istream_t within;
	if (wire != PB_WT_STRING || field->held == VARINT || !pb_make_string_substream(s, &within))
		return false;
	bool whole = field->held == BYTES     ? true
		     : field->held == VARINTS ? holds_varints(&within)
					      : holds_message(&within, field->message);
	return pb_close_string_substream(s, &within) && whole;
}

/* Is all of s message m's fields, and theirs in turn? */
static bool holds_message(pb_istream_t *s, const struct message_fields *m)
{
	while (s->bytes_left)
		if (!holds_field(s, m))
			return false;
	return true;
}

/* How many of a Profile's first fields are judged: random bytes pass one in about 16^this. */
enum { PROBE_FIELDS = 4 };

/*
 * A raw Profile is taken only when its first PROBE_FIELDS fields decode
 * as a Profile's, their messages within and lengths inside the prefix,
 * or the whole input does in fewer. Those first fields are Go's sample
 * types and samples and their like from every writer; a profile is
 * judged by no later field, which the reader then names when bad.
 */
static enum probe_score pprof_probe(const unsigned char *prefix, size_t len)
{
	pb_istream_t s = pb_istream_from_buffer(prefix, len);
	for (int judged = 0; judged < PROBE_FIELDS; judged++) {
		if (!s.bytes_left)
			return judged ? PROBE_LIKELY : PROBE_NO;
		if (!holds_field(&s, &profile))
			return PROBE_NO;
	}
	return PROBE_LIKELY;
}

char *pprof_scaled_unit(const char *unit, unsigned decimals)
{
	size_t len = strlen(unit);
	char *text = xmalloc(len + decimals + 3);
	memcpy(text, unit, len);
	text[len++] = '/';
	text[len++] = '1';
	memset(text + len, '0', decimals);
	text[len + decimals] = '\0';
	return text;
}

unsigned pprof_unit_decimals(const char *unit, size_t len, size_t *base_len)
{
	size_t zeros = 0;
	while (zeros < len && unit[len - 1 - zeros] == '0')
		zeros++;
	if (zeros == 0 || zeros > DECIMALS_MAX || len < zeros + 3 || unit[len - zeros - 1] != '1' ||
	    unit[len - zeros - 2] != '/')
		return 0;
	*base_len = len - zeros - 2;
	return (unsigned)zeros;
}

static const char *const pprof_extensions[] = { ".pb.gz", ".pb", ".pprof", NULL };

const struct format format_pprof = {
	.name = "pprof",
	.description = "Google's pprof profile.proto, gzip-compressed or raw (go tool pprof)",
	.extensions = pprof_extensions,
	.binary = 1,
	.probe = pprof_probe,
	.read = pprof_read,
	.write = pprof_write,
};
