/*
 * speedscope's JSON file format (https://www.speedscope.app/file-format-schema.json):
 * registration and the probe; speedscope_read.c and speedscope_write.c are
 * the two directions.
 */
#include "speedscope.h"
#include "../io/json.h"

/* The schema's URL is what every writer of the format puts in; frames and profiles are evidence too. */
static int speedscope_probe(const unsigned char *prefix, size_t len)
{
	if (!json_prefix_is_object(prefix, len))
		return 0;
	if (json_prefix_has(prefix, len, "speedscope.app/file-format-schema.json"))
		return 95;
	if (json_prefix_has(prefix, len, "\"profiles\"") && json_prefix_has(prefix, len, "\"frames\""))
		return 60;
	return 0;
}

static const char *const speedscope_extensions[] = { ".speedscope.json", NULL };

const struct format format_speedscope = {
	.name = "speedscope",
	.description = "speedscope's JSON file format: samples in time order",
	.extensions = speedscope_extensions,
	.binary = 0,
	.probe = speedscope_probe,
	.read = speedscope_read,
	.write = speedscope_write,
};
