/*
 * filter_options: the filter options of the command line, parsed into
 * struct filter_options and handed to model_filter as a filter_spec
 * (filter_options.h). Nothing here prints or exits: a bad value is a
 * message for main.c's usage error.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filter_options.h"

/* The patterns' slots in struct filter_options; a pattern's code is FILTER_OPTION + slot. */
enum { FOCUS, IGNORE, HIDE, SHOW, SHOW_FROM, PRUNE_FROM };
enum { MAX_DEPTH_OPTION = FILTER_OPTION + N_FILTER_PATTERNS, SAMPLES_OPTION, TIME_OPTION,
       DIFF_BASE_OPTION, NORMALIZE_OPTION };

/* The patterns first, in slot order, so that a slot is also its row here. */
const struct option filter_long_options[] = {
	{ "focus", required_argument, NULL, FILTER_OPTION + FOCUS },
	{ "ignore", required_argument, NULL, FILTER_OPTION + IGNORE },
	{ "hide", required_argument, NULL, FILTER_OPTION + HIDE },
	{ "show", required_argument, NULL, FILTER_OPTION + SHOW },
	{ "show-from", required_argument, NULL, FILTER_OPTION + SHOW_FROM },
	{ "prune-from", required_argument, NULL, FILTER_OPTION + PRUNE_FROM },
	{ "max-depth", required_argument, NULL, MAX_DEPTH_OPTION },
	{ "samples", required_argument, NULL, SAMPLES_OPTION },
	{ "time", required_argument, NULL, TIME_OPTION },
	{ "diff-base", required_argument, NULL, DIFF_BASE_OPTION },
	{ "normalize", no_argument, NULL, NORMALIZE_OPTION },
};
const size_t n_filter_long_options = sizeof filter_long_options / sizeof *filter_long_options;

/* The message for a usage error; one at a time, as the first one ends prof. */
static const char *wrong(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static const char *wrong(const char *fmt, ...)
{
	static char message[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(message, sizeof message, fmt, ap);
	va_end(ap);
	return message;
}

void filter_options_init(struct filter_options *f)
{
	*f = (struct filter_options){ .end_sample = UINT64_MAX };
}

int filter_option_code(int code)
{
	return code >= FILTER_OPTION && code <= NORMALIZE_OPTION;
}

static const char *take_pattern(struct filter_options *f, size_t which, const char *pattern)
{
	if (f->given[which])
		regfree(&f->patterns[which]);
	f->given[which] = 0;
	int rc = regcomp(&f->patterns[which], pattern, REG_EXTENDED | REG_NOSUB);
	if (rc != 0) {
		char why[256];
		regerror(rc, &f->patterns[which], why, sizeof why);
		return wrong("--%s '%s': %s", filter_long_options[which].name, pattern, why);
	}
	f->given[which] = 1;
	return NULL;
}

/* A whole number of at least `least` into *n, as option `name` takes it. */
static const char *parse_count(const char *name, const char *text, uint64_t least, uint64_t *n)
{
	char *end;
	errno = 0;
	unsigned long long value = strtoull(text, &end, 10);
	if (end == text || *end || text[0] == '-' || errno || value < least)
		return wrong("%s takes a whole number%s, not '%s'", name, least ? " above 0" : "", text);
	*n = value;
	return NULL;
}

/* --samples FROM:TO, either end left out for the first or last sample. */
static const char *parse_window(struct filter_options *f, const char *text)
{
	const char *colon = strchr(text, ':');
	char from[32] = "", to[32] = "";
	size_t from_len = colon ? (size_t)(colon - text) : 0, to_len = colon ? strlen(colon + 1) : 0;
	if (!colon || from_len >= sizeof from || to_len >= sizeof to)
		return wrong("--samples takes FROM:TO, not '%s'", text);
	memcpy(from, text, from_len);
	memcpy(to, colon + 1, to_len + 1);
	const char *bad = NULL;
	f->first_sample = 0;
	f->end_sample = UINT64_MAX;
	if (from_len)
		bad = parse_count("--samples", from, 0, &f->first_sample);
	if (!bad && to_len)
		bad = parse_count("--samples", to, 0, &f->end_sample);
	if (!bad && f->end_sample < f->first_sample)
		bad = wrong("--samples ends before it starts: '%s'", text);
	return bad;
}

/* Seconds ("1.5") as microseconds into *us; `whole` is the option's value, for the message. */
static const char *parse_seconds(const char *text, const char *whole, uint64_t *us)
{
	char *end;
	errno = 0;
	double seconds = strtod(text, &end);
	if (end == text || *end || errno || !(seconds >= 0) || seconds > 1e12)
		return wrong("--time takes FROM:TO in seconds, not '%s'", whole);
	*us = (uint64_t)(seconds * 1e6 + 0.5);
	return NULL;
}

/* --time FROM:TO in seconds from the first sample's start, either end left out. */
static const char *parse_time_window(struct filter_options *f, const char *text)
{
	const char *colon = strchr(text, ':');
	char from[64] = "";
	if (!colon || (size_t)(colon - text) >= sizeof from)
		return wrong("--time takes FROM:TO in seconds, not '%s'", text);
	memcpy(from, text, (size_t)(colon - text));
	const char *bad = NULL;
	f->has_time = 1;
	f->from_us = 0;
	f->to_us = UINT64_MAX;
	if (from[0])
		bad = parse_seconds(from, text, &f->from_us);
	if (!bad && colon[1])
		bad = parse_seconds(colon + 1, text, &f->to_us);
	if (!bad && f->to_us < f->from_us)
		bad = wrong("--time ends before it starts: '%s'", text);
	return bad;
}

const char *filter_options_take(struct filter_options *f, int code, const char *arg)
{
	if (code < FILTER_OPTION + N_FILTER_PATTERNS)
		return take_pattern(f, (size_t)(code - FILTER_OPTION), arg);
	switch (code) {
	case MAX_DEPTH_OPTION: return parse_count("--max-depth", arg, 1, &f->max_depth);
	case SAMPLES_OPTION: return parse_window(f, arg);
	case TIME_OPTION: return parse_time_window(f, arg);
	case DIFF_BASE_OPTION: f->diff_base = arg; return NULL;
	default: f->normalize = 1; return NULL;
	}
}

const char *filter_options_check(const struct filter_options *f)
{
	if (f->normalize && !f->diff_base)
		return "--normalize scales a profile to its --diff-base; give one";
	return NULL;
}

static const regex_t *pattern(const struct filter_options *f, size_t slot)
{
	return f->given[slot] ? &f->patterns[slot] : NULL;
}

struct filter_spec filter_options_spec(const struct filter_options *f)
{
	return (struct filter_spec){
		.focus = pattern(f, FOCUS), .ignore = pattern(f, IGNORE), .hide = pattern(f, HIDE),
		.show = pattern(f, SHOW), .show_from = pattern(f, SHOW_FROM), .prune_from = pattern(f, PRUNE_FROM),
		.max_depth = f->max_depth, .first_sample = f->first_sample, .end_sample = f->end_sample,
		.has_time = f->has_time, .from_us = f->from_us, .to_us = f->to_us,
	};
}

void filter_options_free(struct filter_options *f)
{
	for (size_t i = 0; i < N_FILTER_PATTERNS; i++)
		if (f->given[i])
			regfree(&f->patterns[i]);
}
