/*
 * gunzip: decompression of a gzip input by a second thread, which reads
 * and inflates a buffer ahead of the reader (inflate was a fifth of
 * reading a big pprof file). Every gzip member is read in turn, as Go
 * does. An input that is not gzip may be read ahead by the thread all the
 * same, its bytes passed on as they are: the reads' copying out of the
 * kernel (a tenth of reading Rprof text) then runs beside the parsing.
 * The thread reports nothing itself: what went wrong comes back as a
 * message for the reader to report.
 */
#ifndef PROF_GUNZIP_H
#define PROF_GUNZIP_H

#include <stddef.h>
#include <sys/types.h>

struct gunzip;

/*
 * Starts on the descriptor `fd` (-1: none), whose first `n` bytes were
 * already read into `head`; fd_eof when there is nothing more to read.
 * The descriptor is the gunzip's from here on (closed at the end if > 0).
 * Without `inflating`, the bytes are passed on as read.
 */
struct gunzip *gunzip_start(int fd, const unsigned char *head, size_t n, int fd_eof, int inflating);

/*
 * Up to `len` decompressed bytes: how many, 0 at the end, or -1 with
 * *error set to what went wrong. *compressed_read: bytes read from the
 * descriptor since the last call (for progress).
 */
ssize_t gunzip_read(struct gunzip *gz, unsigned char *dst, size_t len, const char **error,
		    size_t *compressed_read);

/* Stops: a thread still blocked reading is left to finish on its own. */
void gunzip_end(struct gunzip *gz);

#endif
