/*
 * abbreviate: R's abbreviate(names, minlength) with its defaults
 * (use.classes = TRUE, method "left.kept", strict = FALSE), the short names
 * sprof's summaries show. R is the judge: testdata/sprof/ holds R's own
 * abbreviations of every name the tests give it.
 *
 * Each name is shortened on its own (spaces, then lower-case vowels at the
 * end of a word, then the others, then lower-case letters the same way,
 * then anything but a word's first character, always from the end, until
 * minlength characters are left); names whose short forms collide are
 * shortened again with one character more, until none collide. A name of
 * ASCII counts bytes; any other counts characters, with R's list of
 * accented vowels (which, as in R, holds '.').
 */
#ifndef PROF_ABBREVIATE_H
#define PROF_ABBREVIATE_H

#include <stddef.h>

struct abbreviations {
	char *bytes;   /* the short names, one after another */
	size_t *start; /* short name i is bytes[start[i] .. start[i] + len[i]) */
	size_t *len;
};

/*
 * The short names of names[0..n) (name i has lens[i] bytes). Equal names,
 * once leading and trailing spaces are gone, share one short name. Time
 * and memory grow linearly with the names' total length, however many
 * rounds (one character longer each) their collisions take.
 */
void abbreviate(const char *const *names, const size_t *lens, size_t n, size_t minlength,
		struct abbreviations *out);
void abbreviations_free(struct abbreviations *a);

#endif
