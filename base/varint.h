/*
 * LEB128 varints, as protobuf's, for prof's own compact in-memory arrays
 * (sample rows, a pprof file's location ids until they can be resolved,
 * which are kept as the file packed them).
 * These are read back tens of millions of times: a loop inline beats a
 * nanopb stream, which calls back for every byte. nanopb still reads and
 * writes every pprof file.
 */
#ifndef PROF_VARINT_H
#define PROF_VARINT_H

#include <stddef.h>
#include <stdint.h>

enum { VARINT_MAX_BYTES = 10 };

static inline unsigned char *varint_put(unsigned char *p, uint64_t v)
{
	for (; v >= 0x80; v >>= 7)
		*p++ = (unsigned char)(v | 0x80);
	*p++ = (unsigned char)v;
	return p;
}

/* How many bytes varint_put takes for v. */
static inline size_t varint_size(uint64_t v)
{
	size_t n = 1;
	for (; v >= 0x80; v >>= 7)
		n++;
	return n;
}

/* Only for bytes varint_put wrote: there is no bound check. */
static inline const unsigned char *varint_get(const unsigned char *p, uint64_t *v)
{
	uint64_t x = 0;
	unsigned shift = 0;
	for (; *p & 0x80; shift += 7)
		x |= (uint64_t)(*p++ & 0x7f) << shift;
	*v = x | (uint64_t)*p++ << shift;
	return p;
}

/*
 * Signed numbers as varints: zigzag puts small magnitudes, negative or
 * not, in few bytes (-1 is 1, 1 is 2), as protobuf's sint64 does.
 */
static inline uint64_t varint_zigzag(int64_t v)
{
	return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static inline int64_t varint_unzigzag(uint64_t u)
{
	return (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
}

/*
 * Counts the varints filling [p, end) as protobuf readers take them (at
 * most ten bytes each); -1 when one is cut short or too long.
 */
static inline long varint_count(const unsigned char *p, const unsigned char *end)
{
	long n = 0;
	while (p < end) {
		const unsigned char *start = p;
		while (p < end && (*p & 0x80) && p - start < VARINT_MAX_BYTES)
			p++;
		if (p == end || p - start >= VARINT_MAX_BYTES)
			return -1;
		p++;
		n++;
	}
	return n;
}

#endif
