#include "spill.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "diag.h"
#include "fdio.h"

void spill_init(struct spill *s, const char *what, size_t in_memory)
{
	memset(s, 0, sizeof *s);
	s->what = what;
	s->in_memory = in_memory;
	s->fd = -1;
}

int spill_temporary_file(const char *stem, const char *what)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	snprintf(path, sizeof path, "%s/%s-XXXXXX", dir && *dir ? dir : "/tmp", stem);
	int fd = mkstemp(path);
	if (fd < 0)
		diag_fatal("cannot make a temporary file for %s (%s): %s", what, path, strerror(errno));
	unlink(path);
	return fd;
}

/* `len` bytes at the end of the file. */
static void append_to_file(struct spill *s, const void *data, size_t len)
{
	if (s->fd < 0)
		s->fd = spill_temporary_file("prof-spill", s->what);
	int err = lseek(s->fd, (off_t)s->in_file, SEEK_SET) < 0 ? errno : fd_write_all(s->fd, data, len, NULL);
	if (err)
		diag_fatal("cannot write %s to a temporary file: %s", s->what, err > 0 ? strerror(err) : "no space");
	s->in_file += len;
}

void spill_put(struct spill *s, const void *data, size_t len)
{
	if (len == 0)
		return;
	size_t fits = s->in_file ? 0 : s->in_memory - s->used < len ? s->in_memory - s->used : len;
	if (fits) {
		grow((void **)&s->bytes, &s->cap, s->used + fits, 1);
		memcpy(s->bytes + s->used, data, fits);
		s->used += fits;
	}
	if (fits < len)
		append_to_file(s, (const unsigned char *)data + fits, len - fits);
}

void spill_clear(struct spill *s)
{
	s->used = 0;
	s->in_file = 0;
}

void spill_free(struct spill *s)
{
	free(s->bytes);
	if (s->fd >= 0)
		close(s->fd);
	spill_init(s, s->what, s->in_memory);
}

void spill_reader_init(struct spill_reader *rd, const struct spill *s, uint64_t at, uint64_t end, size_t step)
{
	memset(rd, 0, sizeof *rd);
	rd->s = s;
	rd->next = at;
	rd->end = end;
	rd->step = step;
}

/* Bytes [next, next + n) into dst, from memory or the file. */
static void copy_out(const struct spill *s, uint64_t next, unsigned char *dst, size_t n)
{
	if (next < s->used) {
		size_t part = s->used - next < n ? (size_t)(s->used - next) : n;
		memcpy(dst, s->bytes + next, part);
		dst += part, next += part, n -= part;
	}
	if (n == 0)
		return;
	int err = fd_pread_all(s->fd, dst, n, next - s->used);
	if (err)
		diag_fatal("cannot read %s back from a temporary file: %s", s->what,
			   err > 0 ? strerror(err) : "it is shorter than written");
}

size_t spill_reader_want(struct spill_reader *rd, size_t want)
{
	const struct spill *s = rd->s;
	if (rd->have >= want || rd->next >= rd->end)
		return rd->have;
	if (rd->have == 0 && rd->next < s->used) { /* as far as memory goes: no copy */
		uint64_t stop = rd->end < s->used ? rd->end : s->used;
		rd->p = s->bytes + rd->next;
		rd->have = (size_t)(stop - rd->next);
		rd->next = stop;
		if (rd->have >= want || rd->next >= rd->end)
			return rd->have;
	}
	size_t size = want > rd->step ? want : rd->step;
	if (size - rd->have > rd->end - rd->next)
		size = rd->have + (size_t)(rd->end - rd->next);
	if (size > rd->cap) {
		unsigned char *bigger = xmalloc(size);
		if (rd->have)
			memcpy(bigger, rd->p, rd->have);
		free(rd->buf);
		rd->buf = bigger;
		rd->cap = size;
	} else if (rd->have) {
		memmove(rd->buf, rd->p, rd->have);
	}
	rd->p = rd->buf;
	copy_out(s, rd->next, rd->buf + rd->have, size - rd->have);
	rd->next += size - rd->have;
	rd->have = size;
	return rd->have;
}

void spill_reader_free(struct spill_reader *rd)
{
	free(rd->buf);
	rd->buf = NULL;
}
