/*
 * alloc: allocation that never returns NULL. Running out of memory is a
 * fatal error with a message, never a crash; sizes are checked for
 * overflow before they reach malloc.
 */
#ifndef PROF_ALLOC_H
#define PROF_ALLOC_H

#include <stddef.h>
#include <stdlib.h>

void *xmalloc(size_t size);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t size);
/*
 * xcalloc for a table probed at random (a hash index): past a huge page
 * it asks the kernel for huge pages, since a table of tens of megabytes in
 * 4 KB pages costs a page walk on nearly every probe. Freed with free().
 */
void *xcalloc_probed(size_t count, size_t size);

void grow_to(void **items, size_t *cap, size_t need, size_t size);

/*
 * Makes room for at least `need` elements of `size` bytes in *items,
 * growing capacity geometrically so that appends are amortised O(1).
 * Inline: every append of every table asks, and it mostly has room.
 */
static inline void grow(void **items, size_t *cap, size_t need, size_t size)
{
	if (need > *cap)
		grow_to(items, cap, need, size);
}

#endif
