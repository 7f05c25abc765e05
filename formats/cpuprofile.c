/*
 * V8 CPU profile (.cpuprofile, from node --cpu-prof and Chrome DevTools):
 * registration and the probe; cpuprofile_read.c and cpuprofile_write.c
 * are the two directions. Written because VS Code and Chrome DevTools
 * open it: any profile converted to it opens there.
 */
#include "cpuprofile.h"
#include "../io/json.h"

/*
 * An object whose prefix names V8's node fields: "callFrame" is V8's own
 * word, and "nodes" the Profile type's; "timeDeltas" is V8's alone too.
 * DevTools' older format, a "head" tree of nodes with their functionName,
 * is claimed less surely: those are common words. A "head" tree with
 * "selfSize" is a heap profile's (heapprofile.c).
 */
static enum probe_score cpuprofile_probe(const unsigned char *prefix, size_t len)
{
	if (!json_prefix_is_object(prefix, len))
		return PROBE_NO;
	/* A Chrome trace holds V8's profiles in its events: the trace reader's (trace.c). */
	if (json_prefix_has(prefix, len, "\"traceEvents\""))
		return PROBE_NO;
	if (json_prefix_has(prefix, len, "\"callFrame\"") && json_prefix_has(prefix, len, "\"nodes\""))
		return PROBE_NEAR_CERTAIN;
	/*
	 * The arrays of samples may fill the prefix before the nodes: V8's word
	 * for their times. The Firefox Profiler's processed profiles use it
	 * too, in threads beside its stack tables.
	 */
	if (json_prefix_has(prefix, len, "\"stackTable\"") ||
	    json_prefix_has(prefix, len, "\"preprocessedProfileVersion\""))
		return PROBE_NO;
	if (json_prefix_has(prefix, len, "\"timeDeltas\""))
		return PROBE_PROBABLE;
	if (json_prefix_has(prefix, len, "\"selfSize\""))
		return PROBE_NO;
	return json_prefix_has(prefix, len, "\"head\"") && json_prefix_has(prefix, len, "\"functionName\"") ? PROBE_PLAUSIBLE : PROBE_NO;
}

static const char *const cpuprofile_extensions[] = { ".cpuprofile", NULL };

const struct format format_cpuprofile = {
	.name = "cpuprofile",
	.description = "V8 CPU profile: node --cpu-prof, Chrome DevTools, VS Code",
	.extensions = cpuprofile_extensions,
	.binary = 0,
	.probe = cpuprofile_probe,
	.read = cpuprofile_read,
	.has_times = 1,
	.write = cpuprofile_write,
};
