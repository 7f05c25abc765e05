/*
 * progress: a one-line report on stderr for long conversions - bytes read
 * from the inputs and the rate, bytes written - redrawn in place at most a
 * few times a second, and only after the first second, so a quick run
 * prints nothing. Never on stdout. Other messages erase it first.
 */
#ifndef PROF_PROGRESS_H
#define PROF_PROGRESS_H

#include <stddef.h>

void progress_enable(int on);
void progress_read(size_t bytes);
void progress_written(size_t bytes);
/* Erases the line (before another message, and at the end). */
void progress_clear(void);

#endif
