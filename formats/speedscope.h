/* What speedscope's reader, writer and registration share. */
#ifndef PROF_SPEEDSCOPE_H
#define PROF_SPEEDSCOPE_H

#include "format.h"

int speedscope_read(struct input *in, struct model *m);
int speedscope_write(const struct model *m, struct output *out, const struct write_options *opts);

#endif
