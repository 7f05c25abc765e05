/* spool: varints appended to one buffer and read back in order (spool.h). */
#include "spool.h"

#include "alloc.h"
#include "varint.h"

void spool_put(struct spool *s, uint64_t v)
{
	grow((void **)&s->bytes, &s->cap, s->used + VARINT_MAX_BYTES, 1);
	s->used = (size_t)(varint_put(s->bytes + s->used, v) - s->bytes);
	s->n++;
}

uint64_t spool_get(struct spool *s)
{
	uint64_t v;
	s->read_at = (size_t)(varint_get(s->bytes + s->read_at, &v) - s->bytes);
	return v;
}

void spool_rewind(struct spool *s)
{
	s->read_at = 0;
}

void spool_free(struct spool *s)
{
	free(s->bytes);
	*s = (struct spool){ 0 };
}
