/*
 * format: what every format registers, like libarchive's bidders. A probe
 * scores a buffered prefix of the input from 0 (not this format) to 100
 * (certain); the highest score wins and a tie picks none. Readers fill a
 * model and report their own errors; writers take a valid model.
 */
#ifndef PROF_FORMAT_H
#define PROF_FORMAT_H

#include <stddef.h>

#include "../io/input.h"
#include "../io/output.h"
#include "../model/model.h"

#define PROF_VERSION "0.1.0"

/* What the command line says about writing. */
struct write_options {
	const char *sample_type; /* --sample-type: a name or an index; NULL for the default */
	int level;               /* --level: gzip level 1-9 */
};

struct format {
	const char *name;
	const char *alias; /* another name -f and -t take, or NULL */
	const char *description;
	/* File name endings that name this format, longest first; NULL-ended. */
	const char *const *extensions;
	int binary; /* refused on a terminal */
	int (*probe)(const unsigned char *prefix, size_t len);
	/* 0, or -1 after reporting the error. NULL when not readable. */
	int (*read)(struct input *in, struct model *m);
	/* 0, or -1 after reporting the error. NULL when not writable. */
	int (*write)(const struct model *m, struct output *out, const struct write_options *opts);
};

extern const struct format *const formats[];

const struct format *format_by_name(const char *name);
/*
 * Asks every readable format to score a prefix of the input (which stays
 * unread); the best wins, a tie or no score is reported and gives NULL.
 */
const struct format *format_sniff(struct input *in);

/*
 * Reads the profile at `path` (NULL or "-": stdin) into a new model, in
 * format `forced` or, when NULL, the one sniffed; gzip is undone first.
 * Records where it came from in meta ("source", "format") and validates.
 * Returns the format read, or NULL after reporting.
 */
const struct format *format_read_file(const char *path, const struct format *forced, struct model *m);
/* The format whose extension ends `path`, or NULL. */
const struct format *format_by_extension(const char *path);

#endif
