#include "fdio.h"

#include <errno.h>
#include <unistd.h>

ssize_t fd_read(int fd, void *dst, size_t len)
{
	ssize_t n;
	do
		n = read(fd, dst, len);
	while (n < 0 && errno == EINTR);
	return n;
}

int fd_write_all(int fd, const void *data, size_t len, uint64_t *written)
{
	const unsigned char *bytes = data;
	for (size_t done = 0; done < len;) {
		ssize_t n = write(fd, bytes + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? errno : -1;
		done += (size_t)n;
		if (written)
			*written += (uint64_t)n;
	}
	return 0;
}

int fd_pread_all(int fd, void *dst, size_t len, uint64_t offset)
{
	unsigned char *bytes = dst;
	for (size_t got = 0; got < len;) {
		ssize_t n = pread(fd, bytes + got, len - got, (off_t)(offset + got));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? errno : -1;
		got += (size_t)n;
	}
	return 0;
}
