/*
 * The one table of formats; --list-formats prints it in this order. A new
 * format is its file in formats/ and one X() row below. A format whose
 * extension ends another's (.chart.svg, .svg) comes first: the first
 * format whose extension ends a name wins.
 */
#include "format.h"

#include <string.h>

#include "../base/diag.h"
#include "../io/lines.h"

#define FORMATS(X) \
	X(rprof)      \
	X(pprof)      \
	X(lispworks)  \
	X(folded)     \
	X(perf)       \
	X(legacy)     \
	X(callgrind)  \
	X(pstats)     \
	X(speedscope) \
	X(cpuprofile) \
	X(heapprofile) \
	X(stackprof)  \
	X(firefox)    \
	X(trace)      \
	X(jfr)        \
	X(dtrace)     \
	X(jstack)     \
	X(ghc)        \
	X(instruments) \
	X(sample)     \
	X(flamechart) \
	X(sprofplot)  \
	X(flamegraph) \
	X(summary)    \
	X(html)       \
	X(sprof)      \
	X(tables)

#define DECLARE(name) extern const struct format format_##name;
#define ENTRY(name) &format_##name,
FORMATS(DECLARE)

const struct format *const formats[] = { FORMATS(ENTRY) NULL };

const struct format *format_by_name(const char *name)
{
	for (size_t i = 0; formats[i]; i++)
		if (strcmp(formats[i]->name, name) == 0 ||
		    (formats[i]->alias && strcmp(formats[i]->alias, name) == 0))
			return formats[i];
	return NULL;
}

const struct format_option *format_option(const struct format *f, const char *name)
{
	for (const struct format_option *o = f->options; o && o->name; o++)
		if (strcmp(o->name, name) == 0)
			return o;
	return NULL;
}

const struct format_option *format_read_option(const struct format *f, const char *name)
{
	for (const struct format_option *o = f->read_options; o && o->name; o++)
		if (strcmp(o->name, name) == 0)
			return o;
	return NULL;
}

/* The last value given for --NAME: a later one overrides, as in getopt's users. */
static const char *given_value(const struct given_option *given, size_t n, const char *name)
{
	const char *value = NULL;
	for (size_t i = 0; i < n; i++)
		if (strcmp(given[i].name, name) == 0)
			value = given[i].value;
	return value;
}

const char *write_option(const struct write_options *opts, const char *name)
{
	return given_value(opts->given, opts->n_given, name);
}

const char *read_option(const struct read_options *opts, const char *name)
{
	return given_value(opts->given, opts->n_given, name);
}

const struct format *format_by_extension(const char *path)
{
	size_t n = strlen(path);
	for (size_t i = 0; formats[i]; i++)
		for (const char *const *ext = formats[i]->extensions; *ext; ext++) {
			size_t e = strlen(*ext);
			if (n > e && strcmp(path + n - e, *ext) == 0)
				return formats[i];
		}
	return NULL;
}

const struct format *format_sniff(struct input *in)
{
	const unsigned char *prefix;
	long n = input_peek(in, FORMAT_PROBE_BYTES, &prefix);
	if (n < 0)
		return NULL;
	if (n == 0) {
		diag_error(in->name, 0, "empty input");
		return NULL;
	}
	/* No format prof reads is UTF-16 text: say what it is rather than "unknown". */
	if (lines_refuse_utf16(in) < 0)
		return NULL;
	const struct format *best = NULL, *tied = NULL;
	enum probe_score best_score = PROBE_NO;
	for (size_t i = 0; formats[i]; i++) {
		if (!formats[i]->read || !formats[i]->probe)
			continue;
		enum probe_score score = formats[i]->probe(prefix, (size_t)n);
		if (score > best_score) {
			best = formats[i];
			best_score = score;
			tied = NULL;
		} else if (score > PROBE_NO && score == best_score) {
			tied = formats[i];
		}
	}
	if (!best) {
		diag_error(in->name, 0, "unknown format; use -f FORMAT (see --list-formats)");
		return NULL;
	}
	if (tied) {
		diag_error(in->name, 0, "could be %s or %s; use -f FORMAT", best->name, tied->name);
		return NULL;
	}
	if (best_score < PROBE_PLAUSIBLE)
		diag_warn(in->name, 0, "read as %s, but misdetection is possible", best->name);
	return best;
}

const struct format *format_read(struct input *in, const struct format *forced, struct model *m)
{
	static const struct read_options none = { NULL, 0 };
	return format_read_with(in, forced, &none, m);
}

static int read_as(const struct format *reader, struct input *in, const struct read_options *opts, struct model *m)
{
	return reader->read_with ? reader->read_with(in, m, opts) : reader->read(in, m);
}

const struct format *format_read_with(struct input *in, const struct format *forced,
				      const struct read_options *opts, struct model *m)
{
	model_init(m);
	/* gzip may wrap any format: what is inside decides. */
	if (input_is_gzip(in))
		input_gunzip(in);
	else
		input_read_ahead(in);
	const struct format *reader = forced ? forced : format_sniff(in);
	/* Where the profile came from, for formats that name it (a tree's name). */
	const char *slash = strrchr(in->name, '/');
	model_set_meta(m, "source", slash ? slash + 1 : in->name);
	if (reader)
		model_set_meta(m, "format", reader->name);
	if (reader && (read_as(reader, in, opts, m) < 0 || model_validate(m, in->name) > 0))
		reader = NULL;
	return reader;
}

const struct format *format_read_file(const char *path, const struct format *forced, struct model *m)
{
	static const struct read_options none = { NULL, 0 };
	return format_read_file_with(path, forced, &none, m);
}

const struct format *format_read_file_with(const char *path, const struct format *forced,
					   const struct read_options *opts, struct model *m)
{
	struct input in;
	if (input_open(&in, path) < 0) {
		model_init(m);
		return NULL;
	}
	const struct format *reader = format_read_with(&in, forced, opts, m);
	input_close(&in);
	return reader;
}
