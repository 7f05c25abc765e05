/*
 * hashidx: an open-addressing index from a hash to dense ids. The index
 * holds only ids; the caller keeps the items and answers "is item id equal
 * to this key". Every interned table of the model (strings, functions,
 * locations, stack nodes) uses it, which is what makes each row stored once.
 */
#ifndef PROF_HASHIDX_H
#define PROF_HASHIDX_H

#include <stddef.h>
#include <stdint.h>

#define HASHIDX_NONE UINT32_MAX

struct hashidx_slot {
	uint32_t id_plus_1; /* 0: empty */
	uint32_t hash;
};

struct hashidx {
	struct hashidx_slot *slots;
	uint32_t mask;
	uint32_t count;
};

typedef int (*hashidx_eq)(const void *ctx, uint32_t id, const void *key);

void hashidx_free(struct hashidx *idx);
uint32_t hashidx_find(const struct hashidx *idx, uint64_t hash,
		      hashidx_eq eq, const void *ctx, const void *key);
/* The id must not be in the index yet. */
void hashidx_insert(struct hashidx *idx, uint64_t hash, uint32_t id);
/*
 * Room for `count` ids in all without growing on the way, for a caller
 * that knows how many it will add: each growth moves every id again into
 * a table twice the size, page by fresh page.
 */
void hashidx_reserve(struct hashidx *idx, size_t count);
/*
 * The find-or-append of an interned table: the id of the item equal to
 * `key` among the *n_items at *items, or, when there is none, `key`
 * (item_size bytes) appended as a new item, indexed, and its id.
 */
uint32_t hashidx_intern(struct hashidx *idx, uint64_t hash, hashidx_eq eq, const void *ctx,
			const void *key, void **items, size_t *n_items, size_t *cap_items,
			size_t item_size);

/*
 * Asks the cache for the slot a lookup of `hash` starts at, for a caller
 * that knows its next keys: a table larger than the cache costs a miss per
 * lookup, and misses asked for together overlap.
 */
static inline void hashidx_prefetch(const struct hashidx *idx, uint64_t hash)
{
	if (idx->slots)
		__builtin_prefetch(&idx->slots[(uint32_t)hash & idx->mask]);
}

/*
 * The first id whose slot holds `hash`: the item a lookup of a key with
 * that hash compares first (HASHIDX_NONE if none), for a caller that
 * fetches its bytes ahead.
 */
uint32_t hashidx_candidate(const struct hashidx *idx, uint64_t hash);

uint64_t hash_bytes(const void *data, size_t len);
/* Two words into one hash, its low bits spread (splitmix64's finaliser); inline: every interned table's key goes through it. */
static inline uint64_t hash_mix(uint64_t a, uint64_t b)
{
	uint64_t z = a + 0x9e3779b97f4a7c15ull * (b + 1);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

#endif
