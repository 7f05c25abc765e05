/* What the folded-stacks reader, writer and probe share. */
#ifndef PROF_FOLDED_H
#define PROF_FOLDED_H

#include "format.h"

/* Where the count starts in a line "a;b;c COUNT": after the last space; 0 when malformed. */
size_t folded_count_at(const char *s, size_t len);

int folded_read(struct input *in, struct model *m);
int folded_write(const struct model *m, struct output *out, const struct write_options *opts);

#endif
