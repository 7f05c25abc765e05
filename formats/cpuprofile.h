/* What the V8 .cpuprofile reader and its registration share. */
#ifndef PROF_CPUPROFILE_H
#define PROF_CPUPROFILE_H

#include "format.h"

int cpuprofile_read(struct input *in, struct model *m);

#endif
