/*
 * speedscope's JSON file format (https://www.speedscope.app/file-format-schema.json):
 * registration and the probe; speedscope_read.c and speedscope_write.c are
 * the two directions.
 */
#include "speedscope.h"
#include "../io/json.h"

/* The schema's URL is what every writer of the format puts in; frames and profiles are evidence too. */
static enum probe_score speedscope_probe(const unsigned char *prefix, size_t len)
{
	if (!json_prefix_is_object(prefix, len))
		return PROBE_NO;
	if (json_prefix_has(prefix, len, "speedscope.app/file-format-schema.json"))
		return PROBE_NEAR_CERTAIN;
	if (json_prefix_has(prefix, len, "\"profiles\"") && json_prefix_has(prefix, len, "\"frames\""))
		return PROBE_PLAUSIBLE;
	return PROBE_NO;
}

static const char *const speedscope_extensions[] = { ".speedscope.json", NULL };

const struct format format_speedscope = {
	.name = "speedscope",
	.description = "speedscope's JSON file format: samples in time order",
	.extensions = speedscope_extensions,
	.binary = 0,
	.probe = speedscope_probe,
	.read = speedscope_read,
	.has_times = 1,
	.write = speedscope_write,
};
