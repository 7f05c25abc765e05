#include "progress.h"

#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "../base/diag.h"

enum { FIRST_AFTER_MS = 1000, EVERY_MS = 250 };

static int enabled, shown;
static uint64_t read_bytes, written_bytes, started_ms, last_ms;

static uint64_t now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000 + (uint64_t)t.tv_nsec / 1000000;
}

void progress_enable(int on)
{
	enabled = on;
	diag_before_message(on ? progress_clear : NULL);
	started_ms = last_ms = now_ms();
}

static double megabytes(uint64_t bytes)
{
	return (double)bytes / 1e6;
}

static void draw(void)
{
	uint64_t t = now_ms();
	if (t - started_ms < FIRST_AFTER_MS || t - last_ms < EVERY_MS)
		return;
	last_ms = t;
	double seconds = (double)(t - started_ms) / 1000;
	fprintf(stderr, "\rprof: %.1f MB read (%.0f MB/s), %.1f MB written\033[K",
		megabytes(read_bytes), megabytes(read_bytes) / seconds, megabytes(written_bytes));
	fflush(stderr);
	shown = 1;
}

void progress_read(size_t bytes)
{
	read_bytes += bytes;
	if (enabled)
		draw();
}

void progress_written(size_t bytes)
{
	written_bytes += bytes;
	if (enabled)
		draw();
}

void progress_clear(void)
{
	if (!shown)
		return;
	fputs("\r\033[K", stderr);
	fflush(stderr);
	shown = 0;
}
