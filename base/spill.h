/*
 * spill: bytes kept until they can be used: the first `in_memory` of
 * them in memory, the rest in an unlinked temporary file in $TMPDIR (else
 * /tmp), so that holding a large input costs disk, not memory, and a
 * small one never touches disk. Bytes are appended, then read back
 * through a spill_reader from any offset, as often as needed. A temporary
 * file that cannot be made or written is fatal, as for the model's rows.
 */
#ifndef PROF_SPILL_H
#define PROF_SPILL_H

#include <stddef.h>
#include <stdint.h>

struct spill {
	const char *what;     /* for messages: what the bytes are */
	unsigned char *bytes; /* the first bytes */
	size_t used, cap, in_memory;
	int fd;               /* -1 until the bytes outgrow memory */
	uint64_t in_file;     /* the bytes after the first `used`, in the file from its start */
};

/*
 * An unlinked temporary file in $TMPDIR (else /tmp), named from `stem`
 * while it is made; one that cannot be made is fatal, naming `what`.
 */
int spill_temporary_file(const char *stem, const char *what);

void spill_init(struct spill *s, const char *what, size_t in_memory);
void spill_put(struct spill *s, const void *data, size_t len);
static inline uint64_t spill_size(const struct spill *s)
{
	return s->used + s->in_file;
}
/* Forgets every byte; the file, if any, is kept for the next ones. */
void spill_clear(struct spill *s);
void spill_free(struct spill *s);

/* Reads a spill's bytes from `at` up to `end`, with a buffer of its own where they are in the file. */
struct spill_reader {
	const struct spill *s;
	uint64_t next, end;   /* the next byte to make available, and where to stop */
	unsigned char *buf;   /* allocated when a read reaches the file */
	size_t cap, step;     /* step: how much a read from the file asks for */
	const unsigned char *p; /* the bytes available: [p, p + have) */
	size_t have;
};

void spill_reader_init(struct spill_reader *rd, const struct spill *s, uint64_t at, uint64_t end, size_t step);
/*
 * Makes `want` bytes available at rd->p (fewer only at the end); returns
 * how many are, perhaps more. The spill must not grow while it is read.
 */
size_t spill_reader_want(struct spill_reader *rd, size_t want);
static inline void spill_reader_skip(struct spill_reader *rd, size_t n)
{
	rd->p += n;
	rd->have -= n;
}
void spill_reader_free(struct spill_reader *rd);

#endif
