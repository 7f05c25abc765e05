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

/* A probe sees this many bytes; a shorter prefix is the whole input. */
enum { FORMAT_PROBE_BYTES = 65536 };

/* A writer's option given on the command line: --NAME VALUE ("" for a flag). */
struct given_option {
	const char *name, *value;
};

/* What the command line says about writing. */
struct write_options {
	const char *sample_type; /* --sample-type: a name or an index; NULL for the default */
	/* The input, for messages about the profile itself; NULL: name the output. */
	const char *input;
	int level;               /* --level: gzip level 1-9 */
	const struct given_option *given; /* the writer's own options, checked */
	size_t n_given;
};

/* The value given for the writer's option --NAME ("" for a flag), or NULL. */
const char *write_option(const struct write_options *opts, const char *name);

/*
 * An option a writer takes, declared in its format: main.c offers every
 * format's options and refuses one the chosen writer does not take, so a
 * new format's options need nothing outside its own file. Formats that
 * share an option point at the same declaration.
 */
struct format_option {
	const char *name; /* without the dashes */
	const char *arg;  /* what the value is, for --help ("N", "TEXT"); NULL: a flag */
	const char *help;
	/* NULL when the value is fine, else what it must be ("a whole number"). */
	const char *(*check)(const char *value);
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
	/* The writer's own options, ended by one with no name; NULL when none. */
	const struct format_option *options;
};

/* The option `name` of format f, or NULL. */
const struct format_option *format_option(const struct format *f, const char *name);

extern const struct format *const formats[];

const struct format *format_by_name(const char *name);
/*
 * Asks every readable format to score a prefix of the input (which stays
 * unread); the best wins, a tie or no score is reported and gives NULL.
 */
const struct format *format_sniff(struct input *in);

/*
 * The one way to read a profile: from `in` into a new model, in format
 * `forced` or, when NULL, the one sniffed; gzip is undone first. Records
 * where it came from in meta ("source", "format") and validates. Returns
 * the format read, or NULL after reporting (m is then still to be freed).
 */
const struct format *format_read(struct input *in, const struct format *forced, struct model *m);
/* format_read of the file at `path` (NULL or "-": stdin). */
const struct format *format_read_file(const char *path, const struct format *forced, struct model *m);
/* The format whose extension ends `path`, or NULL. */
const struct format *format_by_extension(const char *path);

#endif
