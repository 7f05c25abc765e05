#include "input.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../model/alloc.h"
#include "diag.h"

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

void input_close(struct input *in)
{
	if (in->fd > 0)
		close(in->fd);
	free(in->buf);
	in->buf = NULL;
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
	ssize_t n;
	do
		n = read(in->fd, in->buf + in->end, in->cap - in->end);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		diag_error(in->name, 0, "read error: %s", strerror(errno));
		return -1;
	}
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

void input_unget_line(struct input *in)
{
	in->start = in->last_start;
	in->line--;
}
