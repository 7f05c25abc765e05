/*
 * Firefox Profiler formats (docs/formats/firefox.md): registration and the
 * probe; firefox_read.c reads them. Written because Firefox, samply and
 * `perf script report gecko` save profiles in them, and profiler.firefox.com
 * exports them.
 */
#include "firefox.h"
#include "../io/json.h"

/*
 * The processed format names its version in a key no other format has;
 * Gecko's meta has "stackwalk", and its threads the tables' own names.
 * Firefox's old DevTools panel saved an object opening with its label,
 * duration and markers, the Gecko profile far behind them: those are
 * common words, so it is only probable.
 */
static enum probe_score firefox_probe(const unsigned char *prefix, size_t len)
{
	if (!json_prefix_is_object(prefix, len))
		return PROBE_NO;
	if (json_prefix_has(prefix, len, "\"preprocessedProfileVersion\""))
		return PROBE_NEAR_CERTAIN;
	if (json_prefix_has(prefix, len, "\"meta\"") && json_prefix_has(prefix, len, "\"stackwalk\""))
		return PROBE_NEAR_CERTAIN;
	if (json_prefix_has(prefix, len, "\"stackTable\"") && json_prefix_has(prefix, len, "\"frameTable\""))
		return PROBE_NEAR_CERTAIN;
	if (json_prefix_has(prefix, len, "{\"label\":") && json_prefix_has(prefix, len, "\"duration\":") &&
	    json_prefix_has(prefix, len, "\"markers\":"))
		return PROBE_PROBABLE;
	return PROBE_NO;
}

static const char *const firefox_extensions[] = { NULL };

const struct format format_firefox = {
	.name = "firefox",
	.description = "Firefox Profiler: Gecko profile, processed profile (samply), old DevTools panel",
	.extensions = firefox_extensions,
	.binary = 0,
	.probe = firefox_probe,
	.read = firefox_read,
	.has_times = 1,
};
