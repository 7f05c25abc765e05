/*
 * numtext: numbers as decimal text, without printf. Writers format a
 * number per frame or per sample line, millions of times; this is the one
 * copy of those loops. A value with decimals is an integer in units of
 * 10^-decimals (model.h's sample types): 1500 with 3 decimals is "1.5".
 */
#ifndef PROF_NUMTEXT_H
#define PROF_NUMTEXT_H

#include <stddef.h>
#include <stdint.h>

/* Enough for 2^64-1. */
enum { U64_TEXT_MAX = 20 };

/* The most decimals a value may have: 10^18 still fits in an int64. */
enum { DECIMALS_MAX = 18 };

/* Enough for any int64 with up to DECIMALS_MAX decimals: sign, "0.", 19 digits. */
enum { DECIMAL_TEXT_MAX = 24 };

/*
 * Writes v's digits so that they end at buf[U64_TEXT_MAX]; returns where
 * they start (the text is not NUL-terminated: its length is the difference).
 */
static inline char *u64_text(char buf[U64_TEXT_MAX], uint64_t v)
{
	char *p = buf + U64_TEXT_MAX;
	do
		*--p = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	return p;
}

/*
 * v, in units of 10^-decimals (decimals <= DECIMALS_MAX), as text at the
 * start of buf, NUL-terminated; returns its length. With `trim`, as short
 * as it is exact: no trailing zeros after the point, no point without
 * digits ("1.5", "2"); else every decimal ("1.500", "2.000").
 */
size_t decimal_text(char buf[DECIMAL_TEXT_MAX], int64_t v, unsigned decimals, int trim);

/* 10^n, n <= DECIMALS_MAX. */
int64_t pow10_i64(unsigned n);

#endif
