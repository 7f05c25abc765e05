/*
 * checked: integer arithmetic on numbers that came from input. Every
 * reader's sum, difference, product or negation of such numbers goes
 * through these, so that a value that cannot be held is refused (or read
 * with a warning where the format allows), never wrapped: a signed
 * overflow is undefined behaviour, and a wrapped time or count is
 * invented data.
 *
 * Each returns 1 when the exact result does not fit, 0 when it does and
 * was stored in *out, as C23's ckd_add does (gcc 12 has no stdckdint.h).
 * On overflow *out holds the wrapped value: callers never use it.
 */
#ifndef PROF_CHECKED_H
#define PROF_CHECKED_H

#include <stdint.h>

static inline int checked_add_i64(int64_t a, int64_t b, int64_t *out)
{
	return __builtin_add_overflow(a, b, out);
}

static inline int checked_sub_i64(int64_t a, int64_t b, int64_t *out)
{
	return __builtin_sub_overflow(a, b, out);
}

static inline int checked_mul_i64(int64_t a, int64_t b, int64_t *out)
{
	return __builtin_mul_overflow(a, b, out);
}

static inline int checked_neg_i64(int64_t a, int64_t *out)
{
	return __builtin_sub_overflow((int64_t)0, a, out);
}

static inline int checked_add_u64(uint64_t a, uint64_t b, uint64_t *out)
{
	return __builtin_add_overflow(a, b, out);
}

static inline int checked_mul_u64(uint64_t a, uint64_t b, uint64_t *out)
{
	return __builtin_mul_overflow(a, b, out);
}

/* An unsigned count as int64_t: 1 when it is past INT64_MAX. */
static inline int checked_i64_of_u64(uint64_t a, int64_t *out)
{
	if (a > (uint64_t)INT64_MAX)
		return 1;
	*out = (int64_t)a;
	return 0;
}

#endif
