#include "hashidx.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "diag.h"

void hashidx_free(struct hashidx *idx)
{
	free(idx->slots);
	memset(idx, 0, sizeof *idx);
}

uint32_t hashidx_find(const struct hashidx *idx, uint64_t hash,
		      hashidx_eq eq, const void *ctx, const void *key)
{
	if (!idx->slots)
		return HASHIDX_NONE;
	uint32_t h = (uint32_t)hash;
	for (uint32_t i = h & idx->mask;; i = (i + 1) & idx->mask) {
		const struct hashidx_slot *s = &idx->slots[i];
		if (!s->id_plus_1)
			return HASHIDX_NONE;
		if (s->hash == h && eq(ctx, s->id_plus_1 - 1, key))
			return s->id_plus_1 - 1;
	}
}

uint32_t hashidx_candidate(const struct hashidx *idx, uint64_t hash)
{
	if (!idx->slots)
		return HASHIDX_NONE;
	uint32_t h = (uint32_t)hash;
	for (uint32_t i = h & idx->mask; idx->slots[i].id_plus_1; i = (i + 1) & idx->mask)
		if (idx->slots[i].hash == h)
			return idx->slots[i].id_plus_1 - 1;
	return HASHIDX_NONE;
}

static void place(struct hashidx_slot *slots, uint32_t mask, struct hashidx_slot s)
{
	uint32_t i = s.hash & mask;
	while (slots[i].id_plus_1)
		i = (i + 1) & mask;
	slots[i] = s;
}

/* A table of `size` slots (a power of two, above the old one) with the ids moved in. */
static void resize_to(struct hashidx *idx, uint64_t size)
{
	uint32_t old_size = idx->slots ? idx->mask + 1 : 0;
	if (size > (1u << 31))
		diag_fatal("out of memory (more than 2^30 distinct entries in one table)");
	struct hashidx_slot *slots = xcalloc_probed(size, sizeof *slots);
	for (uint32_t i = 0; i < old_size; i++)
		if (idx->slots[i].id_plus_1)
			place(slots, size - 1, idx->slots[i]);
	free(idx->slots);
	idx->slots = slots;
	idx->mask = (uint32_t)(size - 1);
}

/* Keeps the load factor under 1/2 so that probe runs stay short. */
static void resize(struct hashidx *idx)
{
	resize_to(idx, idx->slots ? ((uint64_t)idx->mask + 1) * 2 : 64);
}

void hashidx_reserve(struct hashidx *idx, size_t count)
{
	uint64_t size = idx->slots ? (uint64_t)idx->mask + 1 : 64;
	while (size < 2 * (uint64_t)count && size <= (1u << 31))
		size *= 2;
	if (!idx->slots || size > (uint64_t)idx->mask + 1)
		resize_to(idx, size);
}

void hashidx_insert(struct hashidx *idx, uint64_t hash, uint32_t id)
{
	if (!idx->slots || (uint64_t)(idx->count + 1) * 2 > (uint64_t)idx->mask + 1)
		resize(idx);
	struct hashidx_slot s = { id + 1, (uint32_t)hash };
	place(idx->slots, idx->mask, s);
	idx->count++;
}

uint32_t hashidx_intern(struct hashidx *idx, uint64_t hash, hashidx_eq eq, const void *ctx,
			const void *key, void **items, size_t *n_items, size_t *cap_items,
			size_t item_size)
{
	/* One probe run: a miss takes the empty slot it ended at, unless the table must grow first. */
	if (!idx->slots || (uint64_t)(idx->count + 1) * 2 > (uint64_t)idx->mask + 1)
		resize(idx);
	uint32_t h = (uint32_t)hash, i = h & idx->mask;
	for (; idx->slots[i].id_plus_1; i = (i + 1) & idx->mask)
		if (idx->slots[i].hash == h && eq(ctx, idx->slots[i].id_plus_1 - 1, key))
			return idx->slots[i].id_plus_1 - 1;
	grow(items, cap_items, *n_items + 1, item_size);
	uint32_t id = (uint32_t)*n_items;
	memcpy((char *)*items + (size_t)id * item_size, key, item_size);
	++*n_items;
	idx->slots[i] = (struct hashidx_slot){ id + 1, h };
	idx->count++;
	return id;
}

uint64_t hash_bytes(const void *data, size_t len)
{
	/*
	 * A word at a time: Rprof lines and stack names are hashed once per
	 * sample, and FNV's byte loop was a tenth of a conversion. hash_mix
	 * then spreads the bits into the low ones that pick a slot.
	 */
	const unsigned char *p = data;
	uint64_t h = 0xcbf29ce484222325ull;
	size_t left = len;
	for (; left >= 8; p += 8, left -= 8) {
		uint64_t word;
		memcpy(&word, p, 8);
		h = (h ^ word) * 0xff51afd7ed558ccdull;
		h ^= h >> 29;
	}
	uint64_t tail = 0;
	if (left)
		memcpy(&tail, p, left);
	return hash_mix(h ^ tail, len);
}
