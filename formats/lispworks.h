/* What the LispWorks tree reader, writer and probe share. */
#ifndef PROF_LISPWORKS_H
#define PROF_LISPWORKS_H

#include "format.h"

#define LISPWORKS_MARKER "LispWorks Profiler Tree"

int lispworks_read(struct input *in, struct model *m);
int lispworks_write(const struct model *m, struct output *out, const struct write_options *opts);

#endif
