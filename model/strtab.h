/*
 * strtab: interned byte strings. Each distinct string is stored once and
 * named by a dense id; id 0 is always the empty string. Strings are
 * counted, not NUL-terminated data (a pprof string may hold NUL), though a
 * NUL is kept after each for convenience.
 */
#ifndef PROF_STRTAB_H
#define PROF_STRTAB_H

#include <stddef.h>
#include <stdint.h>

#include "../base/hashidx.h"

struct strtab_entry {
	const char *bytes;
	uint32_t len;
};

struct strtab {
	struct strtab_entry *entries;
	size_t count, cap;
	struct hashidx index;
	/* Strings live in chunks that never move, so pointers stay valid. */
	char **chunks;
	size_t n_chunks, cap_chunks;
	size_t chunk_used, chunk_size;
};

void strtab_init(struct strtab *t);
void strtab_free(struct strtab *t);
uint32_t strtab_intern(struct strtab *t, const char *bytes, size_t len);
uint32_t strtab_intern_cstr(struct strtab *t, const char *s);
/* HASHIDX_NONE when the string was never interned. */
uint32_t strtab_lookup(const struct strtab *t, const char *bytes, size_t len);

static inline const struct strtab_entry *strtab_get(const struct strtab *t, uint32_t id)
{
	return &t->entries[id];
}

#endif
