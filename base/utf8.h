/*
 * utf8: the one UTF-8 validator. Well-formed UTF-8 only, as RFC 3629 and
 * JSON readers want it: no overlong forms, no UTF-16 surrogates (ED A0 80
 * ... ED BF BF), nothing past U+10FFFF. A reader that refuses what a
 * writer let through would make prof write files it cannot read back, so
 * both sides use this.
 */
#ifndef PROF_UTF8_H
#define PROF_UTF8_H

#include <stddef.h>
#include <stdint.h>

/* The length of the well-formed character at s[0..len), or 0 if there is none. */
size_t utf8_char(const unsigned char *s, size_t len);

/* Is all of s[0..len) well-formed UTF-8? */
int utf8_valid(const unsigned char *s, size_t len);

/* Writes code point `code` (at most U+10FFFF) as UTF-8 to out[0..4); returns how many bytes. */
size_t utf8_encode(uint32_t code, unsigned char *out);

/* U+FFFD, what a writer puts for each byte that is not part of a character. */
#define UTF8_REPLACEMENT "\xef\xbf\xbd"

#endif
