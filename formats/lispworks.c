/* LispWorks profiler tree: registration and the probe. */
#include <string.h>

#include "lispworks.h"

/* The marker anywhere on the first line is certain evidence. */
static enum probe_score lispworks_probe(const unsigned char *prefix, size_t len)
{
	const char *s = (const char *)prefix;
	const char *nl = memchr(s, '\n', len);
	size_t line = nl ? (size_t)(nl - s) : len, marker = strlen(LISPWORKS_MARKER);
	for (size_t i = 0; i + marker <= line; i++)
		if (memcmp(s + i, LISPWORKS_MARKER, marker) == 0)
			return PROBE_CERTAIN;
	return PROBE_NO;
}

static const char *const lispworks_extensions[] = { ".tree", NULL };

const struct format format_lispworks = {
	.name = "lispworks",
	.alias = "tree",
	.description = "LispWorks profiler tree (hcl:save-current-profiler-tree)",
	.extensions = lispworks_extensions,
	.binary = 0,
	.probe = lispworks_probe,
	.read = lispworks_read,
	.write = lispworks_write,
};
