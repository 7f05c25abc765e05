/*
 * Three busy threads of unequal work beside main, for the flame chart's
 * lanes (test/make-chart-recordings.sh records it with perf): thread N
 * spins for N x 200 ms, first in hash, then in mix.
 */
#include <pthread.h>
#include <stdint.h>
#include <time.h>

static volatile uint64_t sink;

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

static __attribute__((noinline)) uint64_t hash(double until)
{
	uint64_t h = 1;
	while (now() < until)
		for (int i = 0; i < 10000; i++)
			h = h * 31 + (uint64_t)i;
	return h;
}

static __attribute__((noinline)) uint64_t mix(double until)
{
	uint64_t h = 7;
	while (now() < until)
		for (int i = 0; i < 10000; i++)
			h ^= h << 13, h ^= h >> 7, h ^= h << 17;
	return h;
}

static void *work(void *arg)
{
	double start = now(), half = 0.1 * (double)(intptr_t)arg;
	sink += hash(start + half);
	sink += mix(start + 2 * half);
	return NULL;
}

int main(void)
{
	pthread_t threads[3];
	for (intptr_t i = 0; i < 3; i++)
		pthread_create(&threads[i], NULL, work, (void *)(i + 1));
	work((void *)(intptr_t)1);
	for (int i = 0; i < 3; i++)
		pthread_join(threads[i], NULL);
	return 0;
}
