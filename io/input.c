#include "input.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../base/alloc.h"
#include "../base/diag.h"
#include "../base/fdio.h"
#include "gunzip.h"
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
	if (in->gz)
		gunzip_end(in->gz);
	in->gz = NULL;
	free(in->buf);
	in->buf = NULL;
}

static ssize_t read_fd(struct input *in, void *dst, size_t len)
{
	ssize_t n = fd_read(in->fd, dst, len);
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

static void hand_over(struct input *in, int inflating)
{
	in->gz = gunzip_start(in->fd, in->buf + in->start, in->end - in->start, in->eof, inflating);
	in->fd = -1; /* the gunzip's now */
	in->start = in->end = 0;
	in->eof = 0;
}

void input_gunzip(struct input *in)
{
	hand_over(in, 1);
}

void input_read_ahead(struct input *in)
{
	if (!in->gz && in->fd >= 0 && !in->eof && !in->failed)
		hand_over(in, 0);
}

static ssize_t read_gunzip(struct input *in, unsigned char *dst, size_t len)
{
	const char *error;
	size_t compressed;
	ssize_t n = gunzip_read(in->gz, dst, len, &error, &compressed);
	progress_read(compressed);
	if (n < 0)
		diag_error(in->name, 0, "%s", error);
	return n;
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
	if (in->failed)
		return -1;
	if (in->cap - in->start < need_total)
		grow((void **)&in->buf, &in->cap, in->start + need_total, 1);
	ssize_t n = in->gz ? read_gunzip(in, in->buf + in->end, in->cap - in->end)
			   : read_fd(in, in->buf + in->end, in->cap - in->end);
	in->failed = n < 0;
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
			in->last_newline = nl != NULL;
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
