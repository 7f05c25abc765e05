/*
 * fdio: reading and writing a descriptor whatever interrupts it. A signal
 * (SIGINT handled, a profiler's own SIGPROF) can cut any read or write
 * short with EINTR; every caller in prof wants it simply done again.
 */
#ifndef PROF_FDIO_H
#define PROF_FDIO_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* One read(2), retried on EINTR: bytes read, 0 at the end, -1 with errno. */
ssize_t fd_read(int fd, void *dst, size_t len);

/*
 * Writes all `len` bytes, adding each chunk to *written (may be NULL).
 * 0, or the errno of the write that failed (-1 when a write wrote nothing).
 */
int fd_write_all(int fd, const void *data, size_t len, uint64_t *written);

/* Reads exactly `len` bytes at `offset`: 0, or errno (-1 at the end of the file). */
int fd_pread_all(int fd, void *dst, size_t len, uint64_t offset);

#endif
