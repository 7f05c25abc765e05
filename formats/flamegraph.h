/*
 * What the flame graph and flame chart writers share as formats: their
 * options, flamegraph.pl's names, declared once and read into the
 * drawing's struct flame_options (render/flame.h draws the page).
 */
#ifndef PROF_FLAMEGRAPH_H
#define PROF_FLAMEGRAPH_H

#include "../render/flame.h"
#include "format.h"

extern const struct format_option flame_options[];
/* The options given to a flame writer, defaulted; the page names prof's version. */
void flame_options_read(const struct write_options *given, struct flame_options *opts);

#endif
