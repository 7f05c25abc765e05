#include "strtab.h"

#include <stdlib.h>
#include <string.h>

#include "../base/diag.h"
#include "../base/alloc.h"

enum { CHUNK = 64 * 1024, MAX_STRING = UINT32_MAX - 1 };

struct key {
	const char *bytes;
	size_t len;
};

static int entry_equals(const void *ctx, uint32_t id, const void *key)
{
	const struct strtab *t = ctx;
	const struct key *k = key;
	const struct strtab_entry *e = &t->entries[id];
	/* An empty string may come as a NULL pointer, which memcmp must not see. */
	return e->len == k->len && (k->len == 0 || memcmp(e->bytes, k->bytes, k->len) == 0);
}

void strtab_init(struct strtab *t)
{
	memset(t, 0, sizeof *t);
	strtab_intern(t, "", 0);
}

void strtab_free(struct strtab *t)
{
	for (size_t i = 0; i < t->n_chunks; i++)
		free(t->chunks[i]);
	free(t->chunks);
	free(t->entries);
	hashidx_free(&t->index);
	memset(t, 0, sizeof *t);
}

/* A string larger than a chunk gets a chunk of its own. */
static char *store(struct strtab *t, const char *bytes, size_t len)
{
	size_t need = len + 1;
	if (t->n_chunks == 0 || t->chunk_size - t->chunk_used < need) {
		size_t size = need > CHUNK ? need : CHUNK;
		grow((void **)&t->chunks, &t->cap_chunks, t->n_chunks + 1, sizeof *t->chunks);
		t->chunks[t->n_chunks++] = xmalloc(size);
		t->chunk_size = size;
		t->chunk_used = 0;
	}
	char *p = t->chunks[t->n_chunks - 1] + t->chunk_used;
	if (len)
		memcpy(p, bytes, len);
	p[len] = '\0';
	t->chunk_used += need;
	return p;
}

uint32_t strtab_lookup(const struct strtab *t, const char *bytes, size_t len)
{
	struct key k = { bytes, len };
	return hashidx_find(&t->index, hash_bytes(bytes, len), entry_equals, t, &k);
}

uint32_t strtab_intern(struct strtab *t, const char *bytes, size_t len)
{
	uint64_t h = hash_bytes(bytes, len);
	struct key k = { bytes, len };
	uint32_t id = hashidx_find(&t->index, h, entry_equals, t, &k);
	if (id != HASHIDX_NONE)
		return id;
	if (len > MAX_STRING)
		diag_fatal("string of %zu bytes is too long", len);
	grow((void **)&t->entries, &t->cap, t->count + 1, sizeof *t->entries);
	id = (uint32_t)t->count++;
	t->entries[id].bytes = store(t, bytes, len);
	t->entries[id].len = (uint32_t)len;
	hashidx_insert(&t->index, h, id);
	return id;
}

uint32_t strtab_intern_cstr(struct strtab *t, const char *s)
{
	return strtab_intern(t, s, strlen(s));
}
