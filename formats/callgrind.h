/* What the callgrind reader, writer and probe share. */
#ifndef PROF_CALLGRIND_H
#define PROF_CALLGRIND_H

#include "format.h"

/* What callgrind writes for a file it does not know; prof's empty file name. */
#define CALLGRIND_UNKNOWN_FILE "???"

/*
 * Every position holds a cost per event, so events multiply memory;
 * valgrind writes at most a few dozen, and a line of thousands must not
 * ask for gigabytes. The writer refuses what the reader would.
 */
enum { CALLGRIND_EVENTS_MAX = 256, CALLGRIND_EVENT_NAME_MAX = 255 };

int callgrind_read(struct input *in, struct model *m);
int callgrind_write(const struct model *m, struct output *out, const struct write_options *opts);

#endif
