/*
 * spool: numbers kept compactly until they can be used, as varints in
 * one growing buffer: appended, then read back in order (the JSON
 * readers hold a file's arrays so until the arrays they pair with have
 * come). Signed numbers go in through varint_zigzag (varint.h).
 */
#ifndef PROF_SPOOL_H
#define PROF_SPOOL_H

#include <stddef.h>
#include <stdint.h>

struct spool {
	unsigned char *bytes;
	size_t used, cap;
	size_t read_at; /* where spool_get reads next */
	uint64_t n;     /* how many were put */
};

void spool_put(struct spool *s, uint64_t v);
/* The next number put; only as many times as spool_put was called since the start or a rewind. */
uint64_t spool_get(struct spool *s);
/* Reading starts again at the first number. */
void spool_rewind(struct spool *s);
void spool_free(struct spool *s);

#endif
