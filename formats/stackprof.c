/*
 * Ruby stackprof dumps (docs/formats/stackprof.md): registration and the
 * probe; stackprof_read.c reads them. Read-only: written because stackprof
 * is Ruby's sampling profiler, and its dumps, Marshal most of all, are
 * what Ruby users keep and share.
 */
#include <string.h>

#include "../io/json.h"
#include "format.h"

int stackprof_read(struct input *in, struct model *m);

/* Does the prefix hold these bytes anywhere (Marshal's Symbols, which may hold NULs)? */
static int holds(const unsigned char *prefix, size_t len, const char *needle, size_t n)
{
	for (size_t i = 0; i + n <= len; i++)
		if (memcmp(prefix + i, needle, n) == 0)
			return 1;
	return 0;
}

/*
 * Marshal: 04 08, a Hash, and stackprof's keys as Symbols (":", the
 * length + 5, the name), which it writes first: `version`, `mode`. No
 * other format prof reads is Marshal. JSON: the same keys as strings.
 */
static enum probe_score stackprof_probe(const unsigned char *prefix, size_t len)
{
	if (len >= 3 && prefix[0] == 4 && prefix[1] == 8) {
		if (prefix[2] == '{' && holds(prefix, len, ":\x09mode", 6) && holds(prefix, len, ":\x0dinterval", 10))
			return PROBE_NEAR_CERTAIN;
		return PROBE_DOUBTFUL;
	}
	if (!json_prefix_is_object(prefix, len) || !json_prefix_has(prefix, len, "\"mode\"") ||
	    !json_prefix_has(prefix, len, "\"interval\""))
		return PROBE_NO;
	if (json_prefix_has(prefix, len, "\"frames\""))
		return PROBE_NEAR_CERTAIN;
	return json_prefix_has(prefix, len, "\"gc_samples\"") ? PROBE_PROBABLE : PROBE_NO;
}

static const char *const stackprof_extensions[] = { NULL };

const struct format format_stackprof = {
	.name = "stackprof",
	.description = "Ruby stackprof dump: Marshal (StackProf.run out:) or --json",
	.extensions = stackprof_extensions,
	.binary = 0,
	.probe = stackprof_probe,
	.read = stackprof_read,
	.has_times = 1,
};
