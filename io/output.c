#include "output.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zlib.h>

#include "../model/alloc.h"
#include "diag.h"
#include "progress.h"

enum { BUFFER = 1 << 16 };

/* The one temporary file that exists at any time, for cleanup on signals. */
static volatile const char *pending_temp;

void output_remove_pending(void)
{
	if (pending_temp)
		unlink((const char *)pending_temp);
	pending_temp = NULL;
}

static int open_temp_beside(struct output *out, const char *path)
{
	size_t n = strlen(path);
	out->final_path = xmalloc(n + 1);
	memcpy(out->final_path, path, n + 1);
	out->temp_path = xmalloc(n + 16);
	snprintf(out->temp_path, n + 16, "%s.prof-XXXXXX", path);
	out->fd = mkstemp(out->temp_path);
	if (out->fd < 0) {
		diag_error(path, 0, "cannot create: %s", strerror(errno));
		free(out->temp_path);
		free(out->final_path);
		out->temp_path = out->final_path = NULL;
		return -1;
	}
	/* mkstemp makes 0600; a converted profile is an ordinary file. */
	mode_t mask = umask(0);
	umask(mask);
	fchmod(out->fd, 0666 & ~mask);
	pending_temp = out->temp_path;
	return 0;
}

void output_open_fd(struct output *out, int fd, const char *name)
{
	memset(out, 0, sizeof *out);
	out->name = name;
	out->fd = fd;
	out->cap = BUFFER;
	out->buf = xmalloc(out->cap);
}

int output_open(struct output *out, const char *path)
{
	if (!path || strcmp(path, "-") == 0) {
		output_open_fd(out, 1, "<stdout>");
		return 0;
	}
	memset(out, 0, sizeof *out);
	out->name = path;
	if (open_temp_beside(out, path) < 0)
		return -1;
	out->cap = BUFFER;
	out->buf = xmalloc(out->cap);
	return 0;
}

int output_is_terminal(const struct output *out)
{
	return isatty(out->fd);
}

struct gzip_state {
	z_stream z;
	unsigned char chunk[BUFFER];
};

static void write_fd(struct output *out, const unsigned char *data, size_t len)
{
	size_t done = 0;
	while (!out->failed && done < len) {
		ssize_t n = write(out->fd, data + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			diag_error(out->name, 0, "write error: %s",
				   n < 0 ? strerror(errno) : "nothing written");
			out->failed = 1;
			break;
		}
		done += (size_t)n;
		progress_written((size_t)n);
	}
}

void output_gzip(struct output *out, int level)
{
	out->gz = xcalloc(1, sizeof *out->gz);
	/* 16 + MAX_WBITS: gzip framing; mtime 0, so equal input gives equal bytes. */
	if (deflateInit2(&out->gz->z, level, Z_DEFLATED, 16 + MAX_WBITS, 8,
			 Z_DEFAULT_STRATEGY) != Z_OK)
		diag_fatal("out of memory (zlib)");
}

static void deflate_out(struct output *out, const unsigned char *data, size_t len, int flush)
{
	z_stream *z = &out->gz->z;
	z->next_in = (unsigned char *)data;
	z->avail_in = (uInt)len;
	do {
		z->next_out = out->gz->chunk;
		z->avail_out = sizeof out->gz->chunk;
		deflate(z, flush);
		write_fd(out, out->gz->chunk, sizeof out->gz->chunk - z->avail_out);
	} while (z->avail_out == 0 || z->avail_in > 0);
}

void output_flush(struct output *out)
{
	if (out->gz)
		deflate_out(out, out->buf, out->len, Z_NO_FLUSH);
	else
		write_fd(out, out->buf, out->len);
	out->len = 0;
}

static void finish_gzip(struct output *out)
{
	if (!out->gz)
		return;
	if (!out->failed)
		deflate_out(out, NULL, 0, Z_FINISH);
	deflateEnd(&out->gz->z);
	free(out->gz);
	out->gz = NULL;
}

void output_write(struct output *out, const void *data, size_t len)
{
	if (len >= out->cap) {
		output_flush(out);
		size_t saved_cap = out->cap;
		unsigned char *saved = out->buf;
		out->buf = (unsigned char *)data;
		out->len = len;
		output_flush(out);
		out->buf = saved;
		out->cap = saved_cap;
		return;
	}
	if (out->cap - out->len < len)
		output_flush(out);
	memcpy(out->buf + out->len, data, len);
	out->len += len;
}

void output_str(struct output *out, const char *s)
{
	output_write(out, s, strlen(s));
}

void output_u64(struct output *out, uint64_t v)
{
	char digits[20];
	int n = 0;
	do
		digits[sizeof digits - 1 - n++] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	output_write(out, digits + sizeof digits - n, (size_t)n);
}

static void release(struct output *out)
{
	finish_gzip(out);
	free(out->buf);
	free(out->final_path);
	free(out->temp_path);
	out->buf = NULL;
	out->final_path = out->temp_path = NULL;
}

int output_commit(struct output *out)
{
	output_flush(out);
	finish_gzip(out);
	if (!out->temp_path) {
		release(out);
		return out->failed ? -1 : 0;
	}
	if (!out->failed && (fsync(out->fd) < 0 && errno != EINVAL)) {
		diag_error(out->name, 0, "write error: %s", strerror(errno));
		out->failed = 1;
	}
	if (close(out->fd) < 0 && !out->failed) {
		diag_error(out->name, 0, "write error: %s", strerror(errno));
		out->failed = 1;
	}
	if (!out->failed && rename(out->temp_path, out->final_path) < 0) {
		diag_error(out->name, 0, "cannot rename into place: %s", strerror(errno));
		out->failed = 1;
	}
	if (out->failed)
		unlink(out->temp_path);
	pending_temp = NULL;
	int failed = out->failed;
	release(out);
	return failed ? -1 : 0;
}

void output_abort(struct output *out)
{
	if (out->temp_path) {
		close(out->fd);
		unlink(out->temp_path);
		pending_temp = NULL;
	}
	release(out);
}
