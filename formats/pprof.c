/* pprof: registration, the probe, and the scale of a unit with decimals. */
#include <pb_decode.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/numtext.h"

#include "pprof.h"

/* The wire type each Profile field must have; comment may also be packed. */
static int expected_wire(uint32_t field, pb_wire_type_t wt)
{
	if (field == 13)
		return wt == PB_WT_VARINT || wt == PB_WT_STRING;
	if ((field >= 1 && field <= 6) || field == 11)
		return wt == PB_WT_STRING;
	if (field >= 7 && field <= 15)
		return wt == PB_WT_VARINT;
	return wt == PB_WT_VARINT || wt == PB_WT_64BIT || wt == PB_WT_STRING || wt == PB_WT_32BIT;
}

/*
 * A trial decode of the prefix as a Profile: every field must have a known
 * number with its wire type (unknown numbers count for less). Running out
 * of prefix mid-field is fine; anything malformed before that is not.
 */
static enum probe_score pprof_probe(const unsigned char *prefix, size_t len)
{
	pb_istream_t s = pb_istream_from_buffer(prefix, len);
	int known = 0, unknown = 0;
	while (s.bytes_left) {
		pb_wire_type_t wt;
		uint32_t field;
		bool eof;
		if (!pb_decode_tag(&s, &wt, &field, &eof))
			return eof && s.bytes_left == 0 && known ? PROBE_PROBABLE : PROBE_NO;
		if (!expected_wire(field, wt))
			return PROBE_NO;
		if (field >= 1 && field <= 15)
			known++;
		else
			unknown++;
		if (!pb_skip_field(&s, wt))
			break;
	}
	if (known == 0 || unknown > known)
		return PROBE_NO;
	return s.bytes_left == 0 ? PROBE_LIKELY : PROBE_PLAUSIBLE;
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
