#include "alloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

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

#define HUGE_PAGE ((size_t)2 << 20)

void *xcalloc_probed(size_t count, size_t size)
{
	if (size && count > SIZE_MAX / size - HUGE_PAGE / size)
		diag_fatal("out of memory (table too large)");
	size_t bytes = count * size;
	if (bytes < HUGE_PAGE)
		return xcalloc(count, size);
	size_t whole = (bytes + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
	void *p;
	if (posix_memalign(&p, HUGE_PAGE, whole) != 0)
		diag_fatal("out of memory (asked for %zu bytes; see --max-memory)", whole);
	/* A hint: a kernel that gives no huge pages gives small ones. */
	(void)madvise(p, whole, MADV_HUGEPAGE);
	memset(p, 0, bytes);
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
