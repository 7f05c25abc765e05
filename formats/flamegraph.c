/*
 * The flame graph's and flame chart's options (flamegraph.h): declared for
 * --help and checked as main.c reads them, then read into the drawing's
 * struct flame_options. Why each is as it is: docs/formats/flamegraph.md.
 */
#include <stdlib.h>
#include <string.h>

#include "flamegraph.h"

enum { DEFAULT_WIDTH = 1200, MIN_WIDTH = 100, MAX_WIDTH = 100000 };

static const char *check_width(const char *value)
{
	char *end;
	unsigned long n = strtoul(value, &end, 10);
	return end == value || *end || value[0] == '-' || n < MIN_WIDTH || n > MAX_WIDTH
		       ? "pixels from 100 to 100000" : NULL;
}

/* Pixels, or with '%' a share of the total, as flamegraph.pl's --minwidth. */
static const char *check_min_width(const char *value)
{
	char *end;
	double n = strtod(value, &end);
	int percent = *end == '%';
	return end == value || (*end && strcmp(end, "%") != 0) || !(n >= 0) ||
			       n > (percent ? 100 : MAX_WIDTH)
		       ? "pixels, or a percent such as 0.5%" : NULL;
}

static const char *check_frames(const char *value)
{
	return strcmp(value, "function") && strcmp(value, "line") ? "function or line" : NULL;
}

const struct format_option flame_options[] = {
	{ "title", "TEXT", "the title (default: Flame Graph, Icicle Graph, Flame Chart)", NULL },
	{ "width", "PX", "image width in pixels (default 1200)", check_width },
	{ "minwidth", "PX", "leave out boxes narrower than PX pixels (default 0.1), "
			    "or, given as N%, than N% of the total", check_min_width },
	{ "inverted", NULL, "icicle: the root at the top", NULL },
	{ "reverse", NULL, "stacks read leaf first: the leaves at the root", NULL },
	{ "frames", "function|line", "a box per function (default) or per source line",
	  check_frames },
	{ NULL, NULL, NULL, NULL },
};

void flame_options_read(const struct write_options *given, struct flame_options *opts)
{
	const char *width = write_option(given, "width"), *min_width = write_option(given, "minwidth");
	const char *frames = write_option(given, "frames");
	char *end;
	*opts = (struct flame_options){ given->sample_type, write_option(given, "title"),
					width ? (unsigned)strtoul(width, NULL, 10) : DEFAULT_WIDTH,
					0.1, 0, write_option(given, "inverted") != NULL,
					write_option(given, "reverse") != NULL,
					frames && strcmp(frames, "line") == 0,
					"prof " PROF_VERSION, given->input };
	if (min_width) {
		opts->min_width = strtod(min_width, &end);
		opts->min_width_percent = *end == '%';
	}
}
