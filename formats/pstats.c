/*
 * pstats: the statistics Python's cProfile and profile modules dump
 * (`python -m cProfile -o out.prof`), read by pstats, snakeviz and
 * gprof2dot (docs/formats/pstats.md). Registration, probe, and the scale
 * of seconds the reader and writer share; the reader and writer are in
 * pstats_read.c and pstats_write.c.
 */
#include "pstats.h"

#include <string.h>

double pstats_scale(unsigned k)
{
	static const double scale[] = { 1e0,   1e-1,  1e-2,  1e-3,  1e-4,  1e-5,  1e-6,  1e-7,  1e-8,  1e-9,
					1e-10, 1e-11, 1e-12, 1e-13, 1e-14, 1e-15, 1e-16, 1e-17, 1e-18, 1e-19,
					1e-20, 1e-21, 1e-22, 1e-23, 1e-24, 1e-25, 1e-26, 1e-27 };
	return scale[k < sizeof scale / sizeof *scale ? k : sizeof scale / sizeof *scale - 1];
}

/* The type byte without marshal's reference flag. */
static int type_of(unsigned char byte)
{
	return byte & ~MARSHAL_FLAG_REF;
}

/*
 * A string object at p: its length after the type byte, or -1. Python 2
 * may refer to an interned string ('R' and an index).
 */
static long string_at(const unsigned char *p, size_t left)
{
	if (left < 2)
		return -1;
	switch (type_of(p[0])) {
	case MARSHAL_SHORT_ASCII:
	case MARSHAL_SHORT_ASCII_INTERNED:
		return (long)p[1] + 2;
	case MARSHAL_STRING:
	case MARSHAL_INTERNED:
	case MARSHAL_UNICODE:
	case MARSHAL_ASCII:
	case MARSHAL_ASCII_INTERNED:
		if (left < 5 || p[4] != 0)
			return -1;
		return (long)(p[1] | p[2] << 8 | (long)p[3] << 16) + 5;
	case MARSHAL_STRINGREF:
		return p[0] == MARSHAL_STRINGREF && left >= 5 ? 5 : -1;
	default:
		return -1;
	}
}

/*
 * A pstats file is a marshalled dict whose first key is a tuple of a
 * file name, a line and a function name (or, from `python -m profile`,
 * a code object): checked as far as the prefix goes. marshal's dict byte
 * is '{' with or without the reference flag; nothing else prof reads
 * starts with a dict byte followed by a tuple of three.
 */
static enum probe_score pstats_probe(const unsigned char *p, size_t len)
{
	if (len < 2 || type_of(p[0]) != MARSHAL_DICT)
		return PROBE_NO;
	if (len == 2 && p[1] == MARSHAL_NULL)
		return p[0] & MARSHAL_FLAG_REF ? PROBE_PROBABLE : PROBE_DOUBTFUL;
	size_t at = 1;
	if (type_of(p[at]) == MARSHAL_SMALL_TUPLE && len > at + 1 && p[at + 1] == 3)
		at += 2;
	else if (type_of(p[at]) == MARSHAL_TUPLE && len >= at + 5 && memcmp(p + at + 1, "\3\0\0\0", 4) == 0)
		at += 5;
	else
		return PROBE_NO;
	long n = string_at(p + at, len - at);
	if (n < 0)
		return at + 5 > len ? PROBE_CUT_SHORT : PROBE_NO;
	at += (size_t)n;
	if (at >= len)
		return PROBE_PLAUSIBLE;
	if (type_of(p[at]) != MARSHAL_INT)
		return PROBE_NO;
	at += 5;
	if (at >= len)
		return PROBE_PLAUSIBLE;
	return string_at(p + at, len - at) >= 0 || type_of(p[at]) == MARSHAL_CODE ? PROBE_STRONG : PROBE_NO;
}

/* cProfile's own suffix, and what snakeviz and others name them. */
static const char *const pstats_extensions[] = { ".pstats", ".prof", NULL };

const struct format format_pstats = {
	.name = "pstats",
	.description = "Python's cProfile and profile (dump_stats), pstats, snakeviz, gprof2dot: a call graph",
	.extensions = pstats_extensions,
	.binary = 1,
	.probe = pstats_probe,
	.read = pstats_read,
	.write = pstats_write,
};
