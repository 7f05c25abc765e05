/*
 * textcache: values (stack ids) remembered by the exact bytes of the text
 * they were read from. Text readers look a line up before parsing it: a
 * long profile repeats a few hundred distinct lines or call paths millions
 * of times. The text kept is bounded; past it, the cache starts afresh.
 */
#ifndef PROF_TEXTCACHE_H
#define PROF_TEXTCACHE_H

#include <stddef.h>
#include <stdint.h>

#include "../base/hashidx.h"

struct text_cache {
	struct hashidx index;
	struct cached_text {
		size_t offset, len;
		uint32_t value;
	} *entries;
	size_t n_entries, cap_entries;
	char *text;
	size_t text_used, cap_text;
};

/* The value remembered for text, or HASHIDX_NONE; *hash is for text_cache_add. */
uint32_t text_cache_find(const struct text_cache *c, const char *text, size_t len, uint64_t *hash);
void text_cache_add(struct text_cache *c, uint64_t hash, const char *text, size_t len, uint32_t value);
/* Forgets everything (the meaning of the text changed). */
void text_cache_clear(struct text_cache *c);
void text_cache_free(struct text_cache *c);

#endif
