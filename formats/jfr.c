/*
 * Java Flight Recorder files (.jfr): registration and the probe. Read
 * only: the JDK's tools, JMC and async-profiler read what prof would
 * write from any other format better as pprof or speedscope.
 */
#include <string.h>

#include "jfr.h"

/* Every chunk starts "FLR\0"; the format's major version follows. */
static enum probe_score jfr_probe(const unsigned char *prefix, size_t len)
{
	if (len < 4)
		return len > 0 && memcmp(prefix, "FLR\0", len) == 0 ? PROBE_CUT_SHORT : PROBE_NO;
	return memcmp(prefix, "FLR\0", 4) == 0 ? PROBE_CERTAIN : PROBE_NO;
}

static const char *const jfr_extensions[] = { ".jfr", NULL };

const struct format format_jfr = {
	.name = "jfr",
	.description = "Java Flight Recorder (read only): java -XX:StartFlightRecording, async-profiler -o jfr",
	.extensions = jfr_extensions,
	.binary = 1,
	.probe = jfr_probe,
	.read = jfr_read,
	.has_times = 1,
	.write = NULL,
};
