#include "alloc.h"

#include <stdint.h>
#include <stdlib.h>

#include "diag.h"

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);
	if (!p)
		diag_fatal("out of memory (asked for %zu bytes; see --max-memory)", size);
	return p;
}

void *xcalloc(size_t count, size_t size)
{
	void *p = calloc(count ? count : 1, size ? size : 1);
	if (!p)
		diag_fatal("out of memory (asked for %zu x %zu bytes; see --max-memory)", count, size);
	return p;
}

void *xrealloc(void *p, size_t size)
{
	void *q = realloc(p, size ? size : 1);
	if (!q)
		diag_fatal("out of memory (asked for %zu bytes; see --max-memory)", size);
	return q;
}

/* grow's slow path: the table is full. */
void grow_to(void **items, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap;
	if (need <= n)
		return;
	if (n < 16)
		n = 16;
	while (n < need) {
		if (n > SIZE_MAX / 2)
			diag_fatal("out of memory (table too large)");
		n *= 2;
	}
	if (n > SIZE_MAX / size)
		diag_fatal("out of memory (table too large)");
	*items = xrealloc(*items, n * size);
	*cap = n;
}
