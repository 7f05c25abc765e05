#include "textcache.h"

#include <stdlib.h>
#include <string.h>

#include "../base/alloc.h"

enum { TEXT_CACHE_BYTES = 8 << 20 };

struct key {
	const char *text;
	size_t len;
};

static int entry_is(const void *ctx, uint32_t id, const void *key)
{
	const struct text_cache *c = ctx;
	const struct key *k = key;
	const struct cached_text *e = &c->entries[id];
	return e->len == k->len && memcmp(c->text + e->offset, k->text, k->len) == 0;
}

uint32_t text_cache_find(const struct text_cache *c, const char *text, size_t len, uint64_t *hash)
{
	struct key key = { text, len };
	*hash = hash_bytes(text, len);
	uint32_t id = hashidx_find(&c->index, *hash, entry_is, c, &key);
	return id == HASHIDX_NONE ? HASHIDX_NONE : c->entries[id].value;
}

void text_cache_add(struct text_cache *c, uint64_t hash, const char *text, size_t len, uint32_t value)
{
	if (len > TEXT_CACHE_BYTES)
		return;
	if (c->text_used + len > TEXT_CACHE_BYTES)
		text_cache_clear(c);
	grow((void **)&c->text, &c->cap_text, c->text_used + len + 1, 1);
	if (len) /* an empty text may come as NULL, which memcpy may not take */
		memcpy(c->text + c->text_used, text, len);
	grow((void **)&c->entries, &c->cap_entries, c->n_entries + 1, sizeof *c->entries);
	c->entries[c->n_entries] = (struct cached_text){ c->text_used, len, value };
	c->text_used += len;
	hashidx_insert(&c->index, hash, (uint32_t)c->n_entries++);
}

void text_cache_clear(struct text_cache *c)
{
	hashidx_free(&c->index);
	c->n_entries = 0;
	c->text_used = 0;
}

void text_cache_free(struct text_cache *c)
{
	hashidx_free(&c->index);
	free(c->entries);
	free(c->text);
	memset(c, 0, sizeof *c);
}
