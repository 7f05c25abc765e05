/*
 * A small program for bpftrace to profile (test/make-dtrace-samples.sh):
 * known call paths in user space (main -> spin -> arith) and in the kernel
 * (main -> copy -> read of /dev/zero), for about four seconds, then a sleep,
 * so that it is still running when bpftrace prints its maps and names its
 * user frames.
 */
#include <fcntl.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static volatile double sink;

__attribute__((noinline)) static double arith(int n)
{
	volatile double s = 0;
	for (int i = 0; i < n; i++)
		s += i * 0.5;
	return s;
}

__attribute__((noinline)) static void spin(void)
{
	sink += arith(100000);
}

__attribute__((noinline)) static void copy(int fd)
{
	static char buffer[1 << 16];
	if (read(fd, buffer, sizeof buffer) < 0)
		perror("read");
}

int main(void)
{
	int fd = open("/dev/zero", O_RDONLY);
	time_t start = time(NULL);
	while (time(NULL) - start < 4) {
		spin();
		copy(fd);
	}
	sleep(10);
	return 0;
}
