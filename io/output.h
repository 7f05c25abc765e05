/*
 * output: buffered writing to stdout or to a file that appears only when
 * the conversion succeeded. A regular file is written beside its final
 * name and renamed at the end; on any failure, or a fatal signal, the
 * temporary is removed, so a user never finds a half-written profile that
 * looks fine. Through a symlink, the file it points to is replaced, and
 * the link stays. Anything else (a device, a FIFO, /dev/fd/N) is opened
 * and written in place, as `cat > FILE` would, and never removed.
 */
#ifndef PROF_OUTPUT_H
#define PROF_OUTPUT_H

#include <stddef.h>
#include <stdint.h>

struct gzip_state;

struct output {
	const char *name; /* for messages: the path, or "<stdout>" */
	int fd;
	int failed;
	struct gzip_state *gz; /* non-NULL when writing gzip */
	unsigned char *buf;
	size_t len, cap;
	int owns_fd; /* opened here, so closed here */
	char *final_path, *temp_path; /* a regular file's, replaced by rename */
};

/* path NULL or "-" writes stdout. Reports and returns -1 on failure. */
int output_open(struct output *out, const char *path);
/* Writes an open descriptor, named `name` (fuzzers, tests). */
void output_open_fd(struct output *out, int fd, const char *name);
/* Flushes, closes what was opened, renames a temporary into place. 0, or -1 after reporting. */
int output_commit(struct output *out);
/* Drops what was written; removes the temporary file. */
void output_abort(struct output *out);
int output_is_terminal(const struct output *out);
/* From here on, what is written is gzip-compressed at `level` (1-9). */
void output_gzip(struct output *out, int level);

void output_write(struct output *out, const void *data, size_t len);
void output_flush(struct output *out);
static inline void output_byte(struct output *out, char c)
{
	if (out->len == out->cap)
		output_flush(out);
	out->buf[out->len++] = (unsigned char)c;
}
void output_str(struct output *out, const char *s);
void output_u64(struct output *out, uint64_t v);

/* Removes a temporary file still open; safe to call from a signal handler. */
void output_remove_pending(void);

#endif
