/* The one table of formats; --list-formats prints it in this order. */
#include "format.h"

#include <string.h>

#include "../io/diag.h"

enum { PROBE_BYTES = 65536, PROBE_DOUBTFUL = 50 };

extern const struct format format_rprof;
extern const struct format format_pprof;
extern const struct format format_lispworks;
extern const struct format format_folded;
extern const struct format format_speedscope;
extern const struct format format_summary;
extern const struct format format_tables;

const struct format *const formats[] = {
	&format_rprof,
	&format_pprof,
	&format_lispworks,
	&format_folded,
	&format_speedscope,
	&format_summary,
	&format_tables,
	NULL,
};

const struct format *format_by_name(const char *name)
{
	for (size_t i = 0; formats[i]; i++)
		if (strcmp(formats[i]->name, name) == 0 ||
		    (formats[i]->alias && strcmp(formats[i]->alias, name) == 0))
			return formats[i];
	return NULL;
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
	long n = input_peek(in, PROBE_BYTES, &prefix);
	if (n < 0)
		return NULL;
	if (n == 0) {
		diag_error(in->name, 0, "empty input");
		return NULL;
	}
	const struct format *best = NULL, *tied = NULL;
	int best_score = 0;
	for (size_t i = 0; formats[i]; i++) {
		if (!formats[i]->read || !formats[i]->probe)
			continue;
		int score = formats[i]->probe(prefix, (size_t)n);
		if (score > best_score) {
			best = formats[i];
			best_score = score;
			tied = NULL;
		} else if (score > 0 && score == best_score) {
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
	if (best_score < PROBE_DOUBTFUL)
		diag_warn(in->name, 0, "read as %s, but misdetection is possible", best->name);
	return best;
}

const struct format *format_read_file(const char *path, const struct format *forced, struct model *m)
{
	struct input in;
	model_init(m);
	if (input_open(&in, path) < 0)
		return NULL;
	/* gzip may wrap any format: what is inside decides. */
	if (input_is_gzip(&in))
		input_gunzip(&in);
	const struct format *reader = forced ? forced : format_sniff(&in);
	/* Where the profile came from, for formats that name it (a tree's name). */
	const char *slash = strrchr(in.name, '/');
	model_set_meta(m, "source", slash ? slash + 1 : in.name);
	if (reader)
		model_set_meta(m, "format", reader->name);
	if (reader && (reader->read(&in, m) < 0 || model_validate(m, in.name) > 0))
		reader = NULL;
	input_close(&in);
	return reader;
}
