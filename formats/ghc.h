/*
 * GHC cost-centre profiles (docs/formats/ghc.md): what the text reader
 * (ghc_read.c, `+RTS -p`/`-P`) and the JSON reader (ghc_json.c, `+RTS
 * -pj`) share. Both make one row per cost-centre stack, its stack the
 * cost centres from MAIN down, with the types below.
 */
#ifndef PROF_GHC_H
#define PROF_GHC_H

#include <stddef.h>
#include <stdint.h>

#include "../io/input.h"
#include "../model/model.h"

/* The sample types, in this order: time (ns), alloc (bytes), entries (count). */
enum { GHC_TIME, GHC_ALLOC, GHC_ENTRIES, GHC_TYPES };

/* Sets the rules, the three types and the default (time) of a GHC profile. */
void ghc_begin(struct model *m);

/*
 * A cost centre's location: its function named "MODULE.LABEL" as GHC's
 * own stack traces and speedscope name it, its SRC (GHC's span, kept
 * whole) its file, unless SRC is one of GHC's `<...>` words for none.
 */
uint32_t ghc_location(struct model *m, const char *module, size_t module_len, const char *label,
		      size_t label_len, const char *src, size_t src_len);

/*
 * A row of the stack with `values` (GHC_TYPES of them); one whose values
 * are all 0 says nothing and is left out.
 */
void ghc_add_row(struct model *m, uint32_t stack, const int64_t *values);

int ghc_read_text(struct input *in, struct model *m);
int ghc_read_json(struct input *in, struct model *m);

#endif
