#include "input.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zlib.h>

#include "../model/alloc.h"
#include "diag.h"
#include "progress.h"

enum { INITIAL_BUFFER = 1 << 20, DEFAULT_MAX_LINE = 256u << 20 };

int input_open(struct input *in, const char *path)
{
	memset(in, 0, sizeof *in);
	in->max_line = DEFAULT_MAX_LINE;
	if (!path || strcmp(path, "-") == 0) {
		in->name = "<stdin>";
		in->fd = 0;
	} else {
		in->name = path;
		in->fd = open(path, O_RDONLY);
		if (in->fd < 0) {
			diag_error(path, 0, "cannot open: %s", strerror(errno));
			return -1;
		}
	}
	in->cap = INITIAL_BUFFER;
	in->buf = xmalloc(in->cap);
	return 0;
}

struct gunzip {
	z_stream z;
	unsigned char *compressed;
	size_t cap;
	int fd_eof, done;
};

void input_open_memory(struct input *in, const void *data, size_t len, const char *name)
{
	memset(in, 0, sizeof *in);
	in->max_line = DEFAULT_MAX_LINE;
	in->name = name;
	in->fd = -1;
	in->cap = len ? len : 1;
	in->buf = xmalloc(in->cap);
	if (len)
		memcpy(in->buf, data, len);
	in->end = len;
	in->eof = 1;
}

void input_close(struct input *in)
{
	if (in->fd > 0)
		close(in->fd);
	if (in->gz) {
		inflateEnd(&in->gz->z);
		free(in->gz->compressed);
		free(in->gz);
	}
	free(in->buf);
	in->buf = NULL;
}

static ssize_t read_fd(struct input *in, void *dst, size_t len)
{
	ssize_t n;
	do
		n = read(in->fd, dst, len);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		diag_error(in->name, 0, "read error: %s", strerror(errno));
	else
		progress_read((size_t)n);
	return n;
}

int input_is_gzip(struct input *in)
{
	const unsigned char *p;
	return input_peek(in, 2, &p) == 2 && p[0] == 0x1f && p[1] == 0x8b;
}

void input_gunzip(struct input *in)
{
	struct gunzip *gz = xcalloc(1, sizeof *gz);
	size_t have = in->end - in->start;
	gz->cap = have > INITIAL_BUFFER ? have : INITIAL_BUFFER;
	gz->compressed = xmalloc(gz->cap);
	memcpy(gz->compressed, in->buf + in->start, have);
	gz->z.next_in = gz->compressed;
	gz->z.avail_in = (uInt)have;
	gz->fd_eof = in->eof;
	/* 16 + MAX_WBITS: gzip framing only, with its CRC checked. */
	if (inflateInit2(&gz->z, 16 + MAX_WBITS) != Z_OK)
		diag_fatal("out of memory (zlib)");
	in->gz = gz;
	in->start = in->end = 0;
	in->eof = 0;
}

/* More compressed bytes, when inflate has used all it had; -1 on a read error. */
static int refill_compressed(struct input *in, struct gunzip *gz)
{
	if (gz->z.avail_in > 0 || gz->fd_eof)
		return 0;
	ssize_t n = read_fd(in, gz->compressed, gz->cap);
	if (n < 0)
		return -1;
	gz->fd_eof = n == 0;
	gz->z.next_in = gz->compressed;
	gz->z.avail_in = (uInt)n;
	return 0;
}

/* After a member ends, more bytes can only be another member (Go reads them all). */
static int next_member(struct input *in, struct gunzip *gz)
{
	if (refill_compressed(in, gz) < 0)
		return -1;
	if (gz->z.avail_in == 0) {
		gz->done = 1;
		return 0;
	}
	inflateReset(&gz->z);
	return 0;
}

static ssize_t read_gunzip(struct input *in, unsigned char *dst, size_t len)
{
	struct gunzip *gz = in->gz;
	if (len > UINT32_MAX)
		len = UINT32_MAX;
	gz->z.next_out = dst;
	gz->z.avail_out = (uInt)len;
	while (!gz->done && gz->z.avail_out == len) {
		if (refill_compressed(in, gz) < 0)
			return -1;
		int rc = inflate(&gz->z, Z_NO_FLUSH);
		if (rc == Z_STREAM_END) {
			if (next_member(in, gz) < 0)
				return -1;
		} else if (rc == Z_BUF_ERROR && gz->fd_eof && gz->z.avail_in == 0) {
			diag_error(in->name, 0, "decompressing: gzip data cut short");
			return -1;
		} else if (rc != Z_OK && rc != Z_BUF_ERROR) {
			diag_error(in->name, 0, "decompressing: %s",
				   gz->z.msg ? gz->z.msg : "bad gzip data");
			return -1;
		}
	}
	return (ssize_t)(len - gz->z.avail_out);
}

/* Reads more after `end`, first moving the unconsumed bytes to the front. */
static int fill(struct input *in, size_t need_total)
{
	if (in->start > 0 && in->start == in->end) {
		in->start = in->end = 0;
	} else if (in->start > 0 && in->cap - in->end < need_total - (in->end - in->start)) {
		memmove(in->buf, in->buf + in->start, in->end - in->start);
		in->end -= in->start;
		in->start = 0;
	}
	if (in->cap - in->start < need_total)
		grow((void **)&in->buf, &in->cap, in->start + need_total, 1);
	ssize_t n = in->gz ? read_gunzip(in, in->buf + in->end, in->cap - in->end)
			   : read_fd(in, in->buf + in->end, in->cap - in->end);
	if (n < 0)
		return -1;
	if (n == 0)
		in->eof = 1;
	in->end += (size_t)n;
	return 0;
}

long input_peek(struct input *in, size_t want, const unsigned char **data)
{
	while (in->end - in->start < want && !in->eof)
		if (fill(in, want) < 0)
			return -1;
	*data = in->buf + in->start;
	size_t have = in->end - in->start;
	return (long)(have < want ? have : want);
}

int input_get_line(struct input *in, const char **line, size_t *len)
{
	size_t scanned = in->start;
	for (;;) {
		unsigned char *nl = memchr(in->buf + scanned, '\n', in->end - scanned);
		if (nl || (in->eof && in->end > in->start)) {
			size_t stop = nl ? (size_t)(nl - in->buf) : in->end;
			*line = (const char *)in->buf + in->start;
			*len = stop - in->start;
			in->last_start = in->start;
			in->start = nl ? stop + 1 : stop;
			in->line++;
			return 1;
		}
		if (in->eof)
			return 0;
		size_t have = in->end - in->start;
		if (have >= in->max_line) {
			diag_error(in->name, in->line + 1, "line longer than %zu bytes", in->max_line);
			return -1;
		}
		size_t offset = in->end - in->start;
		if (fill(in, have + (have < INITIAL_BUFFER ? INITIAL_BUFFER : have)) < 0)
			return -1;
		scanned = in->start + offset;
	}
}

long input_read(struct input *in, void *dst, size_t len)
{
	if (in->start == in->end && !in->eof && fill(in, len < INITIAL_BUFFER ? len : INITIAL_BUFFER) < 0)
		return -1;
	size_t have = in->end - in->start;
	size_t n = have < len ? have : len;
	memcpy(dst, in->buf + in->start, n);
	in->start += n;
	return (long)n;
}

void input_skip(struct input *in, size_t len)
{
	in->start += len < in->end - in->start ? len : in->end - in->start;
}

void input_unget_line(struct input *in)
{
	in->start = in->last_start;
	in->line--;
}
