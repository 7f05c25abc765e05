/*
 * V8 sampling heap profile (.heapprofile, from Chrome DevTools' "Allocation
 * sampling" and node --heap-prof): registration and the probe;
 * heapprofile_read.c reads it. Read-only: no viewer asks prof for one.
 */
#include "../io/json.h"
#include "format.h"

int heapprofile_read(struct input *in, struct model *m);

/*
 * `selfSize` is the heap profile's own word, beside V8's `callFrame`; a
 * .cpuprofile's old `head` tree has neither, so this outbids its claim.
 */
static enum probe_score heapprofile_probe(const unsigned char *prefix, size_t len)
{
	if (!json_prefix_is_object(prefix, len) || !json_prefix_has(prefix, len, "\"selfSize\""))
		return PROBE_NO;
	if (json_prefix_has(prefix, len, "\"head\"") && json_prefix_has(prefix, len, "\"callFrame\""))
		return PROBE_NEAR_CERTAIN;
	return PROBE_PLAUSIBLE;
}

static const char *const heapprofile_extensions[] = { ".heapprofile", NULL };

const struct format format_heapprofile = {
	.name = "heapprofile",
	.description = "V8 sampling heap profile: node --heap-prof, Chrome DevTools",
	.extensions = heapprofile_extensions,
	.binary = 0,
	.probe = heapprofile_probe,
	.read = heapprofile_read,
};
