/*
 * callgrind: the cost and call-graph format of valgrind's callgrind, read
 * by KCachegrind and callgrind_annotate (docs/formats/callgrind.md).
 * Registration and probe; the reader and writer are in callgrind_read.c
 * and callgrind_write.c.
 */
#include <string.h>

#include "../base/ascii.h"
#include "callgrind.h"

/* A header line "key: value", the key a word as callgrind writes them. */
static int is_header(const char *s, size_t len)
{
	size_t i = 0;
	while (i < len && ((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z')))
		i++;
	return i > 0 && i < len && s[i] == ':';
}

/*
 * valgrind since 3.13 starts with "# callgrind format": certain. Older
 * files and other writers' (pprof -callgrind, speedscope's tests) start
 * with header lines: an "events:" line with nothing but header lines,
 * comments and blank lines before it is callgrind's one required line,
 * and no other format prof reads has it.
 */
static int callgrind_probe(const unsigned char *prefix, size_t len)
{
	const char *s = (const char *)prefix, *end = s + len;
	if (memchr(prefix, '\0', len))
		return 0;
	for (int first = 1; s < end; first = 0) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		if (!nl && len == FORMAT_PROBE_BYTES)
			return 0;
		size_t n = (size_t)((nl ? nl : end) - s);
		n -= n > 0 && s[n - 1] == '\r';
		if (first && starts_with(s, n, "# callgrind format"))
			return 100;
		if (starts_with(s, n, "events:"))
			return 90;
		if (n > 0 && s[0] != '#' && !is_header(s, n))
			return 0;
		s = nl ? nl + 1 : end;
	}
	return 0;
}

/* callgrind names its files callgrind.out.PID; KCachegrind opens *.callgrind too. */
static const char *const callgrind_extensions[] = { ".callgrind", NULL };

const struct format format_callgrind = {
	.name = "callgrind",
	.description = "valgrind's callgrind, KCachegrind, callgrind_annotate: costs and calls",
	.extensions = callgrind_extensions,
	.binary = 0,
	.probe = callgrind_probe,
	.read = callgrind_read,
	.write = callgrind_write,
};
