#include "gunzip.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zlib.h>

#include "../base/alloc.h"
#include "../base/diag.h"
#include "../base/fdio.h"

enum { CHUNK = 1 << 20 };

struct gunzip {
	/* The producer's own (the thread's, or the reader's without one). */
	z_stream z;
	int fd, fd_eof;
	int inflating;           /* else the bytes are passed on as read */
	unsigned char *compressed, *work;
	size_t compressed_cap, compressed_read;
	char message[160];
	/* Shared, under lock. */
	pthread_mutex_t lock;
	pthread_cond_t changed;
	pthread_t thread;
	int threaded;
	unsigned char *ready; /* decompressed bytes for the reader */
	size_t ready_len, ready_pos;
	size_t ready_compressed; /* compressed bytes read, not yet told */
	int finished;            /* the last buffer is published */
	const char *error;       /* then: why it stopped; NULL at a clean end */
	int quit, orphaned, thread_done;
};

static void destroy(struct gunzip *gz)
{
	inflateEnd(&gz->z);
	if (gz->fd > 0)
		close(gz->fd);
	if (gz->threaded) {
		pthread_mutex_destroy(&gz->lock);
		pthread_cond_destroy(&gz->changed);
	}
	free(gz->compressed);
	free(gz->work);
	free(gz->ready);
	free(gz);
}

/* More compressed bytes when inflate has used all it had; 0, or -1 with the message made. */
static int refill(struct gunzip *gz)
{
	if (gz->z.avail_in > 0 || gz->fd_eof)
		return 0;
	ssize_t n = fd_read(gz->fd, gz->compressed, gz->compressed_cap);
	if (n < 0) {
		snprintf(gz->message, sizeof gz->message, "read error: %s", strerror(errno));
		return -1;
	}
	gz->compressed_read += (size_t)n;
	gz->fd_eof = n == 0;
	gz->z.next_in = gz->compressed;
	gz->z.avail_in = (uInt)n;
	return 0;
}

/*
 * Inflates into gz->work until it is full or the data ends; 1 at the end
 * (*error set when it failed), else 0. *len: bytes made.
 */
static int produce(struct gunzip *gz, size_t *len, const char **error)
{
	z_stream *z = &gz->z;
	z->next_out = gz->work;
	z->avail_out = CHUNK;
	int end = 0;
	*error = NULL;
	while (!end && z->avail_out > 0) {
		if (refill(gz) < 0) {
			*error = gz->message;
			break;
		}
		int rc = inflate(z, Z_NO_FLUSH);
		if (rc == Z_STREAM_END) {
			/* After a member ends, more bytes can only be another member. */
			if (refill(gz) < 0)
				*error = gz->message;
			end = *error || z->avail_in == 0;
			if (!end)
				inflateReset(z);
		} else if (rc == Z_BUF_ERROR && gz->fd_eof && z->avail_in == 0) {
			*error = "decompressing: gzip data cut short";
		} else if (rc != Z_OK && rc != Z_BUF_ERROR) {
			snprintf(gz->message, sizeof gz->message, "decompressing: %s",
				 z->msg ? z->msg : "bad gzip data");
			*error = gz->message;
		}
		end |= *error != NULL;
	}
	*len = CHUNK - z->avail_out;
	return end;
}

/*
 * Reads into gz->work as it is, after what is left of the head, until it
 * is full or the input ends; as produce().
 */
static int produce_plain(struct gunzip *gz, size_t *len, const char **error)
{
	z_stream *z = &gz->z;
	size_t made = z->avail_in < CHUNK ? z->avail_in : CHUNK;
	memcpy(gz->work, z->next_in, made);
	z->next_in += made;
	z->avail_in -= (uInt)made;
	*error = NULL;
	while (made < CHUNK && !gz->fd_eof) {
		ssize_t n = fd_read(gz->fd, gz->work + made, CHUNK - made);
		if (n < 0) {
			snprintf(gz->message, sizeof gz->message, "read error: %s", strerror(errno));
			*error = gz->message;
			break;
		}
		gz->compressed_read += (size_t)n;
		gz->fd_eof = n == 0;
		made += (size_t)n;
	}
	*len = made;
	return *error || (gz->fd_eof && z->avail_in == 0);
}

static int produce_next(struct gunzip *gz, size_t *len, const char **error)
{
	return gz->inflating ? produce(gz, len, error) : produce_plain(gz, len, error);
}

/* Hands the work buffer to the reader; the lock is held. */
static void publish(struct gunzip *gz, size_t len, int end, const char *error)
{
	unsigned char *made = gz->work;
	gz->work = gz->ready;
	gz->ready = made;
	gz->ready_len = len;
	gz->ready_pos = 0;
	gz->ready_compressed += gz->compressed_read;
	gz->compressed_read = 0;
	gz->finished = end;
	gz->error = error;
}

static void *run(void *arg)
{
	struct gunzip *gz = arg;
	int end = 0;
	pthread_mutex_lock(&gz->lock);
	while (!end && !gz->quit) {
		pthread_mutex_unlock(&gz->lock);
		size_t len;
		const char *error;
		end = produce_next(gz, &len, &error);
		pthread_mutex_lock(&gz->lock);
		while (gz->ready_pos < gz->ready_len && !gz->quit)
			pthread_cond_wait(&gz->changed, &gz->lock);
		if (!gz->quit)
			publish(gz, len, end, error);
		pthread_cond_broadcast(&gz->changed);
	}
	gz->thread_done = 1;
	int orphaned = gz->orphaned;
	pthread_mutex_unlock(&gz->lock);
	if (orphaned)
		destroy(gz);
	return NULL;
}

struct gunzip *gunzip_start(int fd, const unsigned char *head, size_t n, int fd_eof, int inflating)
{
	struct gunzip *gz = xcalloc(1, sizeof *gz);
	gz->fd = fd;
	gz->fd_eof = fd_eof;
	gz->inflating = inflating;
	gz->compressed_cap = n > CHUNK ? n : CHUNK;
	gz->compressed = xmalloc(gz->compressed_cap);
	memcpy(gz->compressed, head, n);
	gz->work = xmalloc(CHUNK);
	gz->ready = xmalloc(CHUNK);
	gz->z.next_in = gz->compressed;
	gz->z.avail_in = (uInt)n;
	/* 16 + MAX_WBITS: gzip framing only, with its CRC checked. */
	if (inflating && inflateInit2(&gz->z, 16 + MAX_WBITS) != Z_OK)
		diag_fatal("out of memory (zlib)");
	/* All of it read already (a small file, as a fleet's are): a thread would cost more than it saves. */
	if (fd_eof)
		return gz;
	pthread_mutex_init(&gz->lock, NULL);
	pthread_cond_init(&gz->changed, NULL);
	gz->threaded = 1;
	if (pthread_create(&gz->thread, NULL, run, gz) != 0) {
		/* Without a thread, the reader inflates for itself. */
		pthread_mutex_destroy(&gz->lock);
		pthread_cond_destroy(&gz->changed);
		gz->threaded = 0;
	}
	return gz;
}

static ssize_t take(struct gunzip *gz, unsigned char *dst, size_t len, const char **error,
		    size_t *compressed_read)
{
	*compressed_read = gz->ready_compressed;
	gz->ready_compressed = 0;
	if (gz->ready_pos == gz->ready_len) {
		*error = gz->error;
		return gz->error ? -1 : 0;
	}
	size_t n = gz->ready_len - gz->ready_pos < len ? gz->ready_len - gz->ready_pos : len;
	memcpy(dst, gz->ready + gz->ready_pos, n);
	gz->ready_pos += n;
	return (ssize_t)n;
}

ssize_t gunzip_read(struct gunzip *gz, unsigned char *dst, size_t len, const char **error,
		    size_t *compressed_read)
{
	if (!gz->threaded) {
		if (gz->ready_pos == gz->ready_len && !gz->finished) {
			size_t made;
			const char *why;
			int end = produce_next(gz, &made, &why);
			publish(gz, made, end, why);
		}
		return take(gz, dst, len, error, compressed_read);
	}
	pthread_mutex_lock(&gz->lock);
	while (gz->ready_pos == gz->ready_len && !gz->finished)
		pthread_cond_wait(&gz->changed, &gz->lock);
	ssize_t n = take(gz, dst, len, error, compressed_read);
	if (gz->ready_pos == gz->ready_len)
		pthread_cond_broadcast(&gz->changed);
	pthread_mutex_unlock(&gz->lock);
	return n;
}

void gunzip_end(struct gunzip *gz)
{
	if (!gz->threaded) {
		destroy(gz);
		return;
	}
	pthread_t thread = gz->thread;
	pthread_mutex_lock(&gz->lock);
	gz->quit = 1;
	pthread_cond_broadcast(&gz->changed);
	int done = gz->thread_done;
	gz->orphaned = !done;
	pthread_mutex_unlock(&gz->lock);
	if (done) {
		pthread_join(thread, NULL);
		destroy(gz);
	} else {
		/*
		 * It may be blocked reading a pipe: it frees itself when it
		 * stops, which may be now, so gz is not touched again.
		 */
		pthread_detach(thread);
	}
}
