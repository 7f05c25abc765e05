/*
 * Chrome's trace event format (the Trace Event Format document; Perfetto,
 * chrome://tracing, DevTools' Performance panel, clang's -ftime-trace):
 * registration and the probe; trace_read.c and trace_write.c are the two
 * directions. Written because no other format prof writes shows threads
 * along time in those viewers.
 */
#include <string.h>

#include "trace.h"

/* Does `key`, in quotes, stand in the prefix as a key (a ':' after it)? */
static int has_key(const unsigned char *prefix, size_t len, const char *key)
{
	size_t n = strlen(key);
	for (size_t i = 0; i + n + 2 < len; i++) {
		if (prefix[i] != '"' || memcmp(prefix + i + 1, key, n) != 0 || prefix[i + n + 1] != '"')
			continue;
		size_t k = i + n + 2;
		while (k < len && (prefix[k] == ' ' || prefix[k] == '\t' || prefix[k] == '\n' || prefix[k] == '\r'))
			k++;
		if (k < len && prefix[k] == ':')
			return 1;
	}
	return 0;
}

/*
 * An object with the key traceEvents is the format's own mark: a
 * DevTools trace holds V8's CPU profile words too ("nodes",
 * "callFrame"), which must not make it a .cpuprofile. A bare array of
 * objects with "ph" keys is its other form; no other JSON prof reads is
 * an array.
 */
static enum probe_score trace_probe(const unsigned char *prefix, size_t len)
{
	size_t i = 0;
	if (len >= 3 && memcmp(prefix, "\xef\xbb\xbf", 3) == 0)
		i = 3;
	while (i < len && (prefix[i] == ' ' || prefix[i] == '\t' || prefix[i] == '\n' || prefix[i] == '\r'))
		i++;
	if (i == len)
		return PROBE_NO;
	if (prefix[i] == '{')
		return has_key(prefix, len, "traceEvents") ? PROBE_CERTAIN : PROBE_NO;
	if (prefix[i] != '[')
		return PROBE_NO;
	for (i++; i < len && (prefix[i] == ' ' || prefix[i] == '\t' || prefix[i] == '\n' || prefix[i] == '\r'); i++)
		;
	if (i == len || prefix[i] != '{')
		return PROBE_NO;
	return has_key(prefix, len, "ph") ? PROBE_NEAR_CERTAIN : PROBE_DOUBTFUL;
}

static const char *const trace_extensions[] = { ".trace.json", NULL };

const struct format format_trace = {
	.name = "trace",
	.description = "Chrome's trace events: Perfetto, chrome://tracing, DevTools, clang -ftime-trace",
	.extensions = trace_extensions,
	.binary = 0,
	.probe = trace_probe,
	.read = trace_read,
	.has_times = 1,
	.write = trace_write,
};
