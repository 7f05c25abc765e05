/* What the Rprof reader, writer and probe share: the header's grammar. */
#ifndef PROF_RPROF_H
#define PROF_RPROF_H

#include <stddef.h>

#include "format.h"

/* Header flags, in the only order R writes them. */
#define RPROF_MEMORY "memory profiling: "
#define RPROF_GC "GC profiling: "
#define RPROF_LINE "line profiling: "
#define RPROF_INTERVAL "sample.interval="
#define RPROF_FILE "#File "
/* Rprof()'s default interval, 0.02 s. */
#define RPROF_DEFAULT_INTERVAL_US 20000

/*
 * Length of the header flags that start `s` (0 to 3 of them, in order),
 * with which were present; the interval keyword is not included.
 */
size_t rprof_header_flags(const char *s, size_t len, int *memory, int *gc, int *line);
/* Does the line start like a header ("...sample.interval=")? */
int rprof_is_header(const char *s, size_t len);

extern const struct format_option rprof_options[];

int rprof_read(struct input *in, struct model *m);
int rprof_write(const struct model *m, struct output *out, const struct write_options *opts);

#endif
