/* What the V8 .cpuprofile reader, writer and their registration share. */
#ifndef PROF_CPUPROFILE_H
#define PROF_CPUPROFILE_H

#include "format.h"

int cpuprofile_read(struct input *in, struct model *m);
int cpuprofile_write(const struct model *m, struct output *out, const struct write_options *opts);

#endif
