/*
 * filter_options: the command line's filter options (--focus, --ignore,
 * --hide, --show, --show-from, --prune-from, --max-depth, --samples,
 * --time, --diff-base, --normalize): their getopt table, their values
 * parsed and checked, and the struct filter_spec they fill
 * (model/filter.h). A bad value comes back as the message to print, so
 * that main.c alone decides how the command line fails.
 */
#ifndef PROF_FILTER_OPTIONS_H
#define PROF_FILTER_OPTIONS_H

#include <getopt.h>
#include <regex.h>
#include <stddef.h>
#include <stdint.h>

#include "filter.h"

enum { N_FILTER_PATTERNS = 6 };

struct filter_options {
	regex_t patterns[N_FILTER_PATTERNS]; /* in the order of filter_long_options */
	int given[N_FILTER_PATTERNS];
	uint64_t max_depth, first_sample, end_sample;
	int has_time;
	uint64_t from_us, to_us;
	const char *diff_base; /* --diff-base FILE; NULL: none */
	int normalize;
};

/* getopt_long's values for these options are FILTER_OPTION and up, below 1000. */
enum { FILTER_OPTION = 900 };
extern const struct option filter_long_options[];
extern const size_t n_filter_long_options;

/* No filter: every sample, the whole stack. */
void filter_options_init(struct filter_options *f);

/* Is `code`, getopt_long's value, one of these options? */
int filter_option_code(int code);

/* Takes option `code` with its argument: NULL, or what is wrong with it. */
const char *filter_options_take(struct filter_options *f, int code, const char *arg);

/* After the last option: NULL, or what is wrong with the options together. */
const char *filter_options_check(const struct filter_options *f);

/* The spec for model_filter; it points into `f`, which must outlive it. */
struct filter_spec filter_options_spec(const struct filter_options *f);

void filter_options_free(struct filter_options *f);

#endif
