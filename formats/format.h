/*
 * format: what every format registers, like libarchive's bidders. A probe
 * scores a buffered prefix of the input on the scale below, from PROBE_NO
 * (not this format) to PROBE_CERTAIN; the highest score wins and a tie
 * picks none. Readers fill a model and report their own errors; writers
 * take a valid model.
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

/*
 * How much a prefix says for a format, as FFmpeg's probe scores: every
 * probe returns one of these, so that the evidence of one format compares
 * with another's. Steps are kept apart so that a new kind of evidence can
 * fall between two.
 */
enum probe_score {
	PROBE_NO = 0,            /* not this format, or nothing to tell by */
	PROBE_CUT_SHORT = 10,    /* could begin it, but the input ends before its sign */
	PROBE_FAINT = 20,        /* a trace of its grammar, with no whole line to judge */
	PROBE_WEAK = 30,         /* its grammar on most lines, against some that break it */
	PROBE_DOUBTFUL = 40,     /* its grammar, but a grammar other text fits too */
	/* The least a winner needs to be named without "misdetection is possible". */
	PROBE_PLAUSIBLE = 60,    /* its words or structure, short of its signature */
	PROBE_PROBABLE = 70,     /* words or structure that other formats rarely have */
	PROBE_LIKELY = 80,       /* its grammar on every line or field seen */
	PROBE_STRONG = 90,       /* a line only this format writes */
	PROBE_NEAR_CERTAIN = 95, /* its header or schema, as its writers put it */
	PROBE_CERTAIN = 100,     /* its magic or marker */
};

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

/* What the command line gives the reader: its own options, checked. */
struct read_options {
	const struct given_option *given;
	size_t n_given;
};

/* The value given for the reader's option --NAME ("" for a flag), or NULL. */
const char *read_option(const struct read_options *opts, const char *name);

/*
 * An option a writer (or a reader) takes, declared in its format: main.c
 * offers every format's options and refuses one the chosen writer (or the
 * reader -f names) does not take, so a new format's options need nothing
 * outside its own file. Formats that share an option point at the same
 * declaration.
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
	/* A score on enum probe_score's scale. NULL when not readable. */
	enum probe_score (*probe)(const unsigned char *prefix, size_t len);
	/* 0, or -1 after reporting the error. NULL when not readable. */
	int (*read)(struct input *in, struct model *m);
	/* 0, or -1 after reporting the error. NULL when not writable. */
	int (*write)(const struct model *m, struct output *out, const struct write_options *opts);
	/* The writer's own options, ended by one with no name; NULL when none. */
	const struct format_option *options;
	/*
	 * The reader's own options, as the writer's (main.c offers them and
	 * takes them only with -f naming this format), and the reader that
	 * takes them, in place of .read; NULL when none.
	 */
	const struct format_option *read_options;
	int (*read_with)(struct input *in, struct model *m, const struct read_options *opts);
	/*
	 * A reader whose samples can carry times, so that --time applies
	 * (when the input has them: model_has_times). Every reader also has
	 * a fuzz target of its name (`make fuzz`).
	 */
	int has_times;
};

/* The option `name` of format f, or NULL. */
const struct format_option *format_option(const struct format *f, const char *name);
/* The reader's option `name` of format f, or NULL. */
const struct format_option *format_read_option(const struct format *f, const char *name);

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
/* format_read, giving the reader its options (forced's own: main.c checked them). */
const struct format *format_read_with(struct input *in, const struct format *forced,
				      const struct read_options *opts, struct model *m);
/* format_read of the file at `path` (NULL or "-": stdin). */
const struct format *format_read_file(const char *path, const struct format *forced, struct model *m);
const struct format *format_read_file_with(const char *path, const struct format *forced,
					   const struct read_options *opts, struct model *m);
/* The format whose extension ends `path`, or NULL. */
const struct format *format_by_extension(const char *path);

#endif
