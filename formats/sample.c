/*
 * macOS `sample`'s report (docs/formats/sample.md): registration and
 * probe; sample_read.c reads its "Call graph:". The report begins
 * "Analysis of sampling NAME (pid N) every N millisecond(s)"; a report
 * cut out of a longer text is known by its call graph: "Call graph:" then
 * a thread's line, "    COUNT Thread_ID".
 */
#include <string.h>

#include "../base/ascii.h"
#include "format.h"

int sample_read(struct input *in, struct model *m);

/* "    COUNT Thread_" at s. */
static int is_thread_line(const char *s, size_t len)
{
	if (len < 5 || memcmp(s, "    ", 4) != 0 || !is_digit(s[4]))
		return 0;
	size_t i = 4;
	while (i < len && is_digit(s[i]))
		i++;
	return len - i >= 8 && memcmp(s + i, " Thread_", 8) == 0;
}

static enum probe_score sample_probe(const unsigned char *prefix, size_t len)
{
	const char *s = (const char *)prefix, *end = s + len;
	if (starts_with(s, len, "Analysis of sampling "))
		return PROBE_NEAR_CERTAIN;
	for (int lines = 0; s < end && lines < 2000; lines++) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		if (!nl)
			break;
		if (starts_with(s, (size_t)(nl - s), "Call graph:")) {
			const char *next = nl + 1, *next_end = memchr(next, '\n', (size_t)(end - next));
			size_t n = next_end ? (size_t)(next_end - next) : (size_t)(end - next);
			return is_thread_line(next, n) ? PROBE_STRONG : PROBE_PLAUSIBLE;
		}
		s = nl + 1;
	}
	return PROBE_NO;
}

static const char *const sample_extensions[] = { NULL };

const struct format format_sample = {
	.name = "sample",
	.description = "macOS sample's call graph (a thread label each, its interval's time): read only",
	.extensions = sample_extensions,
	.binary = 0,
	.probe = sample_probe,
	.read = sample_read,
	.write = NULL,
};
