/*
 * svg: what every SVG writer needs, whatever it draws (the flame pictures,
 * sprof's plots): text as XML holds it, formatted output, cutting a label
 * at a character, and colours from hue, saturation and lightness.
 */
#ifndef PROF_SVG_H
#define PROF_SVG_H

#include <stddef.h>

#include "../io/output.h"

/*
 * Writes s[0..len) as XML text: entities for markup (and '"', so that it
 * may stand in attributes and titles), tab and line breaks as references,
 * other control bytes and bytes that are not UTF-8 as U+FFFD; *replaced is
 * set when a byte was not UTF-8.
 */
void svg_text(struct output *out, const char *s, size_t len, int *replaced);

/* printf to out, cut at 511 bytes: for tags and numbers, never for names. */
void svg_printf(struct output *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * The bytes of the first `chars` characters of s, all of it when it has
 * fewer; *count gets how many it has (a byte that is not UTF-8 is one).
 */
size_t svg_first_characters(const char *s, size_t len, size_t chars, size_t *count);

/* "rgb(R,G,B)" of hue in [0, 360), saturation and lightness in [0, 1]. */
void svg_hsl(double hue, double sat, double light, char *out, size_t size);

#endif
