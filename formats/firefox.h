/* What the Firefox Profiler reader and its registration share. */
#ifndef PROF_FIREFOX_H
#define PROF_FIREFOX_H

#include "format.h"

int firefox_read(struct input *in, struct model *m);

#endif
