/* Rprof: registration, probe and the header grammar reader and writer share. */
#include "rprof.h"

#include <string.h>

#include "../base/ascii.h"

size_t rprof_header_flags(const char *s, size_t len, int *memory, int *gc, int *line)
{
	size_t pos = 0;
	*memory = starts_with(s, len, RPROF_MEMORY);
	if (*memory)
		pos += strlen(RPROF_MEMORY);
	*gc = starts_with(s + pos, len - pos, RPROF_GC);
	if (*gc)
		pos += strlen(RPROF_GC);
	*line = starts_with(s + pos, len - pos, RPROF_LINE);
	if (*line)
		pos += strlen(RPROF_LINE);
	return pos;
}

int rprof_is_header(const char *s, size_t len)
{
	int memory, gc, line;
	size_t pos = rprof_header_flags(s, len, &memory, &gc, &line);
	return starts_with(s + pos, len - pos, RPROF_INTERVAL);
}

/* R's header is certain evidence; a prefix cut short before it is decided is weak. */
static int rprof_probe(const unsigned char *prefix, size_t len)
{
	const char *s = (const char *)prefix;
	int memory, gc, line;
	size_t pos = rprof_header_flags(s, len, &memory, &gc, &line);
	size_t key = strlen(RPROF_INTERVAL);
	if (len - pos > key && memcmp(s + pos, RPROF_INTERVAL, key) == 0)
		return s[pos + key] >= '0' && s[pos + key] <= '9' ? 100 : 0;
	if (len - pos <= key && len > 0 && memcmp(s + pos, RPROF_INTERVAL, len - pos) == 0)
		return 10;
	return 0;
}

static const char *const rprof_extensions[] = { ".out", ".Rprof", NULL };

const struct format format_rprof = {
	.name = "rprof",
	.description = "R's Rprof() output: memory, GC and line profiling, appended runs",
	.extensions = rprof_extensions,
	.binary = 0,
	.probe = rprof_probe,
	.read = rprof_read,
	.write = rprof_write,
	.options = rprof_options,
};
