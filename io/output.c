#include "output.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#ifdef __linux__
#include <linux/magic.h>
#include <sys/vfs.h>
#endif
#include <unistd.h>

#include <zlib.h>

#include "../base/alloc.h"
#include "../base/diag.h"
#include "../base/fdio.h"
#include "../base/numtext.h"
#include "progress.h"

enum { BUFFER = 1 << 16, GZIP_BUFFER = 1 << 20 };

/* The one temporary file that exists at any time, for cleanup on signals. */
static volatile const char *pending_temp;

void output_remove_pending(void)
{
	if (pending_temp)
		unlink((const char *)pending_temp);
	pending_temp = NULL;
}

/* Linux's limit on the symlinks met in resolving one path. */
enum { MAX_LINKS = 40 };

/*
 * What -o FILE writes. A regular file, new or existing, named or reached
 * through symlinks, is replaced whole by rename, so the links stay links;
 * anything else (a device, a FIFO, a socket, an open file that /dev/fd/N
 * names) is written in place, as `cat > FILE` writes it, and never removed.
 */
struct target {
	char *file;   /* the regular file to replace (allocated), or NULL: write in place */
	int mode;     /* the replaced file's permission bits, or -1 for a new file */
	int truncate; /* in place: a regular file, emptied first, as `>` does */
};

static char *copy_of(const char *text)
{
	size_t n = strlen(text) + 1;
	return memcpy(xmalloc(n), text, n);
}

/* `name` in the directory that holds `path` (allocated). */
static char *beside(const char *path, const char *name)
{
	const char *slash = strrchr(path, '/');
	size_t dir = slash ? (size_t)(slash - path) + 1 : 0, n = strlen(name) + 1;
	char *joined = xmalloc(dir + n);
	memcpy(joined, path, dir);
	memcpy(joined + dir, name, n);
	return joined;
}

/* Where the symlink `link` points, as a path from here (allocated); NULL with errno. */
static char *link_target(const char *link)
{
	for (size_t cap = 256;; cap *= 2) {
		char *text = xmalloc(cap);
		ssize_t n = readlink(link, text, cap);
		if (n >= 0 && (size_t)n < cap) {
			text[n] = '\0';
			char *path = text[0] == '/' ? copy_of(text) : beside(link, text);
			free(text);
			return path;
		}
		int err = errno;
		free(text);
		if (n < 0) {
			errno = err;
			return NULL;
		}
	}
}

#ifdef __linux__
/*
 * /proc/PID/fd/N, where /dev/stdout and /dev/fd/N lead, names an open
 * file, not a path: its text says where that file once was, or
 * "pipe:[N]". Only opening the link itself reaches the file.
 */
static int names_open_file(const char *link)
{
	char *dir = beside(link, ".");
	struct statfs fs;
	int in_proc = statfs(dir, &fs) == 0 && fs.f_type == PROC_SUPER_MAGIC;
	free(dir);
	return in_proc;
}
#else
/* Elsewhere /dev/fd/N is no symlink: stat finds what it names. */
static int names_open_file(const char *link)
{
	(void)link;
	return 0;
}
#endif

/* Follows `path`'s symlinks to what -o writes: 0, or an errno. */
static int find_target(const char *path, struct target *t)
{
	struct stat st;
	*t = (struct target){ NULL, -1, 0 };
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return 0;
	char *file = copy_of(path);
	int err = ELOOP;
	for (int links = 0; links <= MAX_LINKS; links++) {
		if (lstat(file, &st) < 0) {
			err = errno;
			if (err != ENOENT)
				break;
			t->file = file; /* new, or where a dangling link points */
			return 0;
		}
		if (S_ISREG(st.st_mode)) {
			t->file = file;
			t->mode = (int)(st.st_mode & 0777);
			return 0;
		}
		if (!S_ISLNK(st.st_mode) || names_open_file(file)) {
			t->truncate = S_ISLNK(st.st_mode);
			free(file);
			return 0;
		}
		char *next = link_target(file);
		if (!next) {
			err = errno;
			break;
		}
		free(file);
		file = next;
	}
	free(file);
	return err;
}

/* The temporary beside `file` (taken), renamed over it by output_commit. */
static int open_temp_beside(struct output *out, char *file, int mode)
{
	size_t n = strlen(file);
	out->final_path = file;
	out->temp_path = xmalloc(n + 16);
	snprintf(out->temp_path, n + 16, "%s.prof-XXXXXX", file);
	out->fd = mkstemp(out->temp_path);
	if (out->fd < 0) {
		diag_error(out->name, 0, "cannot create: %s", strerror(errno));
		free(out->temp_path);
		free(out->final_path);
		out->temp_path = out->final_path = NULL;
		return -1;
	}
	/* mkstemp makes 0600; a converted profile is an ordinary file, or keeps the mode it had. */
	mode_t mask = umask(0);
	umask(mask);
	fchmod(out->fd, mode >= 0 ? (mode_t)mode : 0666 & ~mask);
	out->owns_fd = 1;
	pending_temp = out->temp_path;
	return 0;
}

static int open_in_place(struct output *out, int truncate)
{
	int flags = O_WRONLY | O_NOCTTY | (truncate ? O_TRUNC : 0);
	do
		out->fd = open(out->name, flags);
	while (out->fd < 0 && errno == EINTR);
	if (out->fd < 0) {
		diag_error(out->name, 0, "cannot open: %s", strerror(errno));
		return -1;
	}
	out->owns_fd = 1;
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
	struct target t;
	int err = find_target(path, &t);
	if (err) {
		diag_error(path, 0, "cannot create: %s", strerror(err));
		return -1;
	}
	if ((t.file ? open_temp_beside(out, t.file, t.mode) : open_in_place(out, t.truncate)) < 0)
		return -1;
	out->cap = BUFFER;
	out->buf = xmalloc(out->cap);
	return 0;
}

int output_is_terminal(const struct output *out)
{
	return isatty(out->fd);
}

/*
 * gzip output is compressed by a second thread while the writer goes on
 * encoding: deflate was a third to a half of writing a pprof file. The
 * writer fills one buffer while the thread compresses and writes the
 * other. The thread touches nothing else: what its writes did comes back
 * through this struct, under the lock, and is reported by the writer.
 */
struct gzip_state {
	z_stream z;
	unsigned char chunk[BUFFER];
	int fd;
	pthread_t thread;
	int threaded;
	pthread_mutex_t lock;
	pthread_cond_t changed;
	unsigned char *job;     /* a buffer to compress, or NULL */
	size_t job_len;
	unsigned char *spare;   /* the writer's next buffer */
	int quit;
	int write_errno;        /* -1: a write wrote nothing */
	uint64_t written, reported;
};

static void report_write_error(struct output *out, int err)
{
	diag_error(out->name, 0, "write error: %s", err > 0 ? strerror(err) : "nothing written");
	out->failed = 1;
}

static void write_fd(struct output *out, const unsigned char *data, size_t len)
{
	uint64_t written = 0;
	if (out->failed)
		return;
	int err = fd_write_all(out->fd, data, len, &written);
	progress_written((size_t)written);
	if (err)
		report_write_error(out, err);
}

/* Compresses data into the file; 0, or the errno of a failed write. */
static int deflate_into(struct gzip_state *gz, int fd, const unsigned char *data, size_t len,
			int flush)
{
	z_stream *z = &gz->z;
	z->next_in = (unsigned char *)data;
	z->avail_in = (uInt)len;
	do {
		z->next_out = gz->chunk;
		z->avail_out = sizeof gz->chunk;
		deflate(z, flush);
		int err = fd_write_all(fd, gz->chunk, sizeof gz->chunk - z->avail_out, &gz->written);
		if (err)
			return err;
	} while (z->avail_out == 0 || z->avail_in > 0);
	return 0;
}

static void *compress_jobs(void *arg)
{
	struct gzip_state *gz = arg;
	pthread_mutex_lock(&gz->lock);
	for (;;) {
		while (!gz->job && !gz->quit)
			pthread_cond_wait(&gz->changed, &gz->lock);
		if (!gz->job)
			break;
		unsigned char *job = gz->job;
		size_t len = gz->job_len;
		int failed = gz->write_errno != 0;
		pthread_mutex_unlock(&gz->lock);
		int err = failed ? 0 : deflate_into(gz, gz->fd, job, len, Z_NO_FLUSH);
		pthread_mutex_lock(&gz->lock);
		if (err)
			gz->write_errno = err;
		gz->spare = job;
		gz->job = NULL;
		pthread_cond_broadcast(&gz->changed);
	}
	pthread_mutex_unlock(&gz->lock);
	return NULL;
}

void output_gzip(struct output *out, int level)
{
	struct gzip_state *gz = xcalloc(1, sizeof *gz);
	out->gz = gz;
	/* 16 + MAX_WBITS: gzip framing; mtime 0, so equal input gives equal bytes. */
	if (deflateInit2(&gz->z, level, Z_DEFLATED, 16 + MAX_WBITS, 8,
			 Z_DEFAULT_STRATEGY) != Z_OK)
		diag_fatal("out of memory (zlib)");
	output_flush(out);
	free(out->buf);
	out->cap = GZIP_BUFFER;
	out->buf = xmalloc(out->cap);
	gz->spare = xmalloc(out->cap);
	pthread_mutex_init(&gz->lock, NULL);
	pthread_cond_init(&gz->changed, NULL);
	gz->fd = out->fd;
	/* Without a thread, the writer compresses its buffers itself. */
	gz->threaded = pthread_create(&gz->thread, NULL, compress_jobs, gz) == 0;
}

/* Waits for the thread to take back its buffer; reports what its writes did. */
static void wait_idle(struct output *out)
{
	struct gzip_state *gz = out->gz;
	pthread_mutex_lock(&gz->lock);
	while (gz->job)
		pthread_cond_wait(&gz->changed, &gz->lock);
	int err = gz->write_errno;
	uint64_t written = gz->written;
	pthread_mutex_unlock(&gz->lock);
	progress_written((size_t)(written - gz->reported));
	gz->reported = written;
	if (err && !out->failed)
		report_write_error(out, err);
}

static void flush_gzip(struct output *out)
{
	struct gzip_state *gz = out->gz;
	if (!gz->threaded) {
		int err = out->failed ? 0 : deflate_into(gz, out->fd, out->buf, out->len, Z_NO_FLUSH);
		if (err)
			report_write_error(out, err);
		return;
	}
	wait_idle(out);
	if (out->failed || out->len == 0)
		return;
	pthread_mutex_lock(&gz->lock);
	gz->job = out->buf;
	gz->job_len = out->len;
	out->buf = gz->spare;
	gz->spare = NULL;
	pthread_cond_broadcast(&gz->changed);
	pthread_mutex_unlock(&gz->lock);
}

void output_flush(struct output *out)
{
	if (out->gz)
		flush_gzip(out);
	else
		write_fd(out, out->buf, out->len);
	out->len = 0;
}

static void finish_gzip(struct output *out)
{
	struct gzip_state *gz = out->gz;
	if (!gz)
		return;
	if (gz->threaded) {
		wait_idle(out);
		pthread_mutex_lock(&gz->lock);
		gz->quit = 1;
		pthread_cond_broadcast(&gz->changed);
		pthread_mutex_unlock(&gz->lock);
		pthread_join(gz->thread, NULL);
		pthread_mutex_destroy(&gz->lock);
		pthread_cond_destroy(&gz->changed);
	}
	if (!out->failed) {
		int err = deflate_into(gz, out->fd, NULL, 0, Z_FINISH);
		if (err)
			report_write_error(out, err);
	}
	deflateEnd(&gz->z);
	free(gz->spare);
	free(gz);
	out->gz = NULL;
}

void output_write(struct output *out, const void *data, size_t len)
{
	const unsigned char *bytes = data;
	if (len >= out->cap && !out->gz) {
		/* Written straight from the caller's bytes. */
		output_flush(out);
		write_fd(out, bytes, len);
		return;
	}
	/* Through the buffer: the compressing thread owns what it was handed. */
	while (len > out->cap - out->len) {
		size_t part = out->cap - out->len;
		memcpy(out->buf + out->len, bytes, part);
		out->len += part;
		bytes += part;
		len -= part;
		output_flush(out);
	}
	memcpy(out->buf + out->len, bytes, len);
	out->len += len;
}

void output_str(struct output *out, const char *s)
{
	output_write(out, s, strlen(s));
}

void output_u64(struct output *out, uint64_t v)
{
	char digits[U64_TEXT_MAX];
	const char *start = u64_text(digits, v);
	output_write(out, start, (size_t)(digits + U64_TEXT_MAX - start));
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
	/* The temporary's bytes are on disk before its name replaces the file's. */
	if (out->temp_path && !out->failed && fsync(out->fd) < 0 && errno != EINVAL) {
		diag_error(out->name, 0, "write error: %s", strerror(errno));
		out->failed = 1;
	}
	if (out->owns_fd && close(out->fd) < 0 && !out->failed) {
		diag_error(out->name, 0, "write error: %s", strerror(errno));
		out->failed = 1;
	}
	if (out->temp_path) {
		if (!out->failed && rename(out->temp_path, out->final_path) < 0) {
			diag_error(out->name, 0, "cannot rename into place: %s", strerror(errno));
			out->failed = 1;
		}
		if (out->failed)
			unlink(out->temp_path);
		pending_temp = NULL;
	}
	int failed = out->failed;
	release(out);
	return failed ? -1 : 0;
}

void output_abort(struct output *out)
{
	if (out->owns_fd)
		close(out->fd);
	if (out->temp_path) {
		unlink(out->temp_path);
		pending_temp = NULL;
	}
	release(out);
}
