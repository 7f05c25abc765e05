/*
 * input: one buffered byte stream over a file or stdin. Sniffing peeks at
 * a prefix without consuming it, so the chosen reader sees the whole
 * stream and pipes work. Text readers take lines that point into the
 * buffer (no allocation per line); the buffer grows only for a line
 * longer than it, up to a limit.
 */
#ifndef PROF_INPUT_H
#define PROF_INPUT_H

#include <stddef.h>
#include <stdint.h>

struct gunzip;

struct input {
	const char *name; /* for messages: the path, or "<stdin>" */
	int fd;
	struct gunzip *gz; /* non-NULL once a second thread reads the stream (and decompresses it) */
	unsigned char *buf;
	size_t cap, start, end;
	int eof;
	int failed; /* a read failed, and said so: the next read fails silently */
	uint64_t line;       /* number of the last line returned */
	size_t last_start;   /* where that line began, for input_unget_line */
	int last_newline;    /* that line ended in '\n' (the input's last may not) */
	size_t max_line;
};

/* path NULL or "-" reads stdin. Reports and returns -1 on failure. */
int input_open(struct input *in, const char *path);
/* Reads a copy of `len` bytes at `data` (fuzzers, tests), named `name`. */
void input_open_memory(struct input *in, const void *data, size_t len, const char *name);
void input_close(struct input *in);

/*
 * Makes up to `want` bytes available without consuming them; returns how
 * many there are (fewer only at end of input), or -1 on a read error.
 */
long input_peek(struct input *in, size_t want, const unsigned char **data);

/*
 * The next `n` bytes, consumed, when the buffer already holds them (a
 * reader's fast path, with no call); NULL when it does not, for the reader
 * to ask input_peek.
 */
static inline const unsigned char *input_take_buffered(struct input *in, size_t n)
{
	if (in->end - in->start < n)
		return NULL;
	const unsigned char *p = in->buf + in->start;
	in->start += n;
	return p;
}

/*
 * Next line without its '\n': 1 with *line and *len set, 0 at end of
 * input, -1 after reporting an error (read failure, line too long).
 */
int input_get_line(struct input *in, const char **line, size_t *len);
/* Consumes `len` bytes that input_peek has made available. */
void input_skip(struct input *in, size_t len);

/* Gives back the line just returned; valid once, before the next get. */
void input_unget_line(struct input *in);

/*
 * Consumes up to `len` bytes into dst; returns how many (0 at end of
 * input), or -1 after reporting an error.
 */
long input_read(struct input *in, void *dst, size_t len);

/* Does the unconsumed input start with gzip's magic bytes? */
int input_is_gzip(struct input *in);
/*
 * From here on, reads decompress: every gzip member in turn, as Go does.
 * Bytes already buffered are the start of the compressed stream.
 */
void input_gunzip(struct input *in);
/*
 * From here on, a second thread reads ahead of the reader (unless the
 * stream is decompressed already, or wholly read).
 */
void input_read_ahead(struct input *in);

#endif
