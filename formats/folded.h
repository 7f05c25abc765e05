/* What the folded-stacks reader, writer and probe share: the line grammar. */
#ifndef PROF_FOLDED_H
#define PROF_FOLDED_H

#include "format.h"

/*
 * A differential file (difffolded.pl, inferno's diff-folded) has two
 * counts a line, the profiles before and after: two sample types of these
 * names, in this order, unit "count".
 */
extern const char *const folded_differential_types[2];

/* A count as folded lines write it: DIGITS, or DIGITS.DIGITS (flamegraph.pl's \d+(\.\d*)?). */
struct folded_count {
	const char *whole;
	size_t whole_len;
	const char *fraction;
	size_t fraction_len; /* its trailing zeros left out: "2.50" has 1 */
};

/*
 * Where the count of s[0..len) starts: after the last space, with a
 * stack of at least one byte before that space; 0 when there is no such
 * count. Fills *c when there is.
 */
size_t folded_count_at(const char *s, size_t len, struct folded_count *c);

enum folded_line_kind {
	FOLDED_BLANK,     /* nothing but spaces and tabs */
	FOLDED_COMMENT,   /* '#' (austin) or '//' at its start */
	FOLDED_COUNTED,   /* a count at its end: a stack, if its frames are right */
	FOLDED_MALFORMED,
};
enum folded_line_kind folded_line_kind(const char *s, size_t len);

/* Is the profile a differential one: exactly the two types, before and after? */
int folded_is_differential(const struct model *m);

int folded_read(struct input *in, struct model *m);
int folded_write(const struct model *m, struct output *out, const struct write_options *opts);

#endif
