/*
 * filter: narrows a profile to what a question asks of it, for every
 * format, between reading and writing (docs/filters.md).
 *
 * The regular-expression filters have go tool pprof's meaning, applied in
 * its order: --focus, --ignore, --hide and --show together (pprof's
 * FilterSamplesByName), then --show-from, then --prune-from. A pattern
 * matches a frame when it matches, anywhere, the function's name or its
 * file name, or the file of the location's mapping (--prune-from: the
 * function's name without its argument list, as pprof simplifies it).
 * Then --max-depth keeps the outermost frames of each stack, and
 * --samples keeps a window of samples by their index in time order,
 * --time by their time (for profiles whose samples have times:
 * model_has_times).
 *
 * What is not removed stays as it was: the order of samples, R's runs and
 * memory columns, labels, every sample type, meta. After --focus,
 * --ignore, --hide or --show the narrowed model keeps the whole one's
 * percent_totals (model.whole_totals), so that views' percentages are of
 * the whole profile, as go tool pprof's are.
 */
#ifndef PROF_FILTER_H
#define PROF_FILTER_H

#include <regex.h>
#include <stdint.h>

#include "model.h"

struct filter_spec {
	/* NULL: not given. */
	const regex_t *focus, *ignore, *hide, *show, *show_from, *prune_from;
	uint64_t max_depth;   /* 0: no limit */
	uint64_t first_sample; /* samples [first_sample, end_sample) are kept */
	uint64_t end_sample;   /* UINT64_MAX: to the end */
	/* And of those, the ones that started in [from_us, to_us) from the first sample's start. */
	int has_time;
	uint64_t from_us, to_us;
};

/* Does the spec ask for anything? */
int filter_wanted(const struct filter_spec *spec);

/*
 * Fills `out` with `m` narrowed by `spec`; m gains stack nodes and
 * locations on the way and is to be freed by the caller. Warns for a
 * pattern that matched nothing and when no sample is left. -1, after
 * reporting and with `out` untouched, when the spec asks for times that
 * the profile does not have.
 */
int model_filter(struct model *m, const struct filter_spec *spec, struct model *out);

#endif
