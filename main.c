/*
 * prof: converts profiler data between formats, as a Unix filter.
 * This file only parses options and wires a reader to a writer through
 * the model; the filter options are parsed in model/filter_options.c, formats
 * live in formats/, the model in model/, bytes in io/.
 */
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/resource.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/alloc.h"
#include "base/diag.h"
#include "model/filter_options.h"
#include "formats/format.h"
#include "io/pathlist.h"
#include "io/progress.h"
#include "model/diff.h"
#include "model/merge.h"
#include "model/view.h"
#include "render/units.h"

enum { EXIT_DATA = 1, EXIT_USAGE = 2, FAST_GZIP_LEVEL = 1 };
/* getopt's value for the writers' options: this plus the option's index in writer_options. */
enum { WRITER_OPTION = 1000 };
/* And for the readers' options: this plus the index in reader_options. */
enum { READER_OPTION = 2000 };

/* Whatever the input, prof stops with a message rather than eat the machine. */
#define DEFAULT_MAX_MEMORY "4G"

struct options {
	const char *from, *to, *output, *max_memory;
	char **inputs; /* none, and no list: stdin */
	int n_inputs;
	const char *files_from; /* --files-from LIST: more inputs, listed */
	int null;               /* --null: the list's paths end in NUL, not newline */
	int check;
	int list_formats; /* --list-formats, which takes no FILE */
	int list_types;   /* --list-types: each FILE's sample types */
	int quiet, progress; /* --quiet; --progress, else only when stderr is a terminal */
	struct write_options write;
	struct given_option *given; /* the writers' options, as given */
	size_t n_given, cap_given;
	struct read_options read;
	struct given_option *read_given; /* the readers' options, as given */
	size_t cap_read_given;
	struct filter_options filters;
};

/* Every writer's options, each name once, in the order of the format table. */
static const struct format_option **writer_options;
static size_t n_writer_options, cap_writer_options;
/* And every reader's. */
static const struct format_option **reader_options;
static size_t n_reader_options, cap_reader_options;

static void collect_options(const struct format_option *(*of)(const struct format *f),
			    const struct format_option ***list, size_t *n, size_t *cap)
{
	for (size_t i = 0; formats[i]; i++)
		for (const struct format_option *o = of(formats[i]); o && o->name; o++) {
			size_t k = 0;
			while (k < *n && strcmp((*list)[k]->name, o->name) != 0)
				k++;
			if (k < *n)
				continue;
			grow((void **)list, cap, *n + 1, sizeof **list);
			(*list)[(*n)++] = o;
		}
}

static const struct format_option *writer_options_of(const struct format *f)
{
	return f->options;
}

static const struct format_option *reader_options_of(const struct format *f)
{
	return f->read_options;
}

static void collect_format_options(void)
{
	collect_options(writer_options_of, &writer_options, &n_writer_options, &cap_writer_options);
	collect_options(reader_options_of, &reader_options, &n_reader_options, &cap_reader_options);
}

/* printf's text, however long (allocated). */
static char *text_of(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *text_of(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		diag_fatal("cannot format a message");
	char *text = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(text, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return text;
}

/* "flamegraph, flamechart" (allocated): the formats, in the registry's order, for which `wanted` holds. */
static char *format_names(int (*wanted)(const struct format *f, const char *arg), const char *arg)
{
	char *text = NULL;
	size_t len = 0, cap = 0;
	grow((void **)&text, &cap, 1, 1);
	text[0] = '\0';
	for (size_t i = 0; formats[i]; i++) {
		if (!wanted(formats[i], arg))
			continue;
		size_t name = strlen(formats[i]->name);
		grow((void **)&text, &cap, len + name + 3, 1);
		len += (size_t)sprintf(text + len, "%s%s", len ? ", " : "", formats[i]->name);
	}
	return text;
}

static int takes_option(const struct format *f, const char *name)
{
	return format_option(f, name) != NULL;
}

static int reads_option(const struct format *f, const char *name)
{
	return format_read_option(f, name) != NULL;
}

static int reads_times(const struct format *f, const char *unused)
{
	(void)unused;
	return f->read && f->has_times;
}

/* Words from column 22 on, wrapped before column 80, as the help above. */
static void print_wrapped(FILE *f, int column, const char *text)
{
	enum { INDENT = 22, RIGHT = 79 };
	while (*text) {
		size_t word = strcspn(text, " ");
		if (column > INDENT && column + 1 + (int)word > RIGHT) {
			fprintf(f, "\n%*s", INDENT, "");
			column = INDENT;
		} else if (column > INDENT) {
			fputc(' ', f);
			column++;
		}
		fwrite(text, 1, word, f);
		column += (int)word;
		text += word + (text[word] == ' ');
	}
	fputc('\n', f);
}

static void options_usage(FILE *f, const struct format_option *const *list, size_t n_list,
			  int (*takes)(const struct format *f, const char *name))
{
	for (size_t k = 0; k < n_list; k++) {
		const struct format_option *o = list[k];
		int n = fprintf(f, "      --%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
		n += n < 21 ? fprintf(f, "%*s", 22 - n, "") : 0;
		char *names = format_names(takes, o->name);
		char *text = text_of("%s (%s)", o->help, names);
		print_wrapped(f, n > 22 ? 80 : n, text);
		free(text);
		free(names);
	}
}

/* --time's help names the readers whose samples can have times, as the registry says. */
static void time_usage(FILE *f)
{
	char *names = format_names(reads_times, NULL);
	char *text = text_of("keep the samples that started FROM to before TO seconds after the first "
			     "(inputs with times: %s)",
			     names);
	print_wrapped(f, 22, text);
	free(text);
	free(names);
}

static void usage(FILE *f)
{
	fputs("usage: prof [-f FROM] [-t TO] [-o FILE] [--files-from LIST] [FILE...]\n"
	      "       prof --check [-f FROM] [--files-from LIST] [FILE...]\n"
	      "       prof --list-types [FILE...]\n"
	      "Converts a profile between formats: reads FILE (or stdin), writes stdout\n"
	      "(or FILE given with -o, which appears only if the conversion succeeds);\n"
	      "with neither -t nor -o, its summary (the top 20 functions to a terminal).\n"
	      "Several FILEs are merged into one profile, as pprof merges them.\n"
	      "\n"
	      "  -f, --from FORMAT   input format (default: auto, detected from the data)\n"
	      "  -t, --to FORMAT     output format (default: from -o FILE's extension)\n"
	      "  -o, --output FILE   write FILE instead of stdout\n"
	      "  -s, --sample-type TYPE\n"
	      "                      the sample type (name, alias such as cpu or alloc, or\n"
	      "                      0-based index) to write; --list-types lists them\n"
	      "  -l, --level N       gzip level for compressed output, 1-9 (default 1, fastest)\n"
	      "  -c, --check         read and validate only; list every problem\n"
	      "      --files-from LIST\n"
	      "                      read the paths of more inputs from LIST, one per line\n"
	      "                      ('-': stdin), after any FILE; for merging many files\n"
	      "      --null          LIST's paths end in NUL bytes, not newlines (find -print0)\n"
	      "  -m, --max-memory SIZE\n"
	      "                      stop with a message past SIZE bytes of memory\n"
	      "                      (K, M, G suffixes; 0: no limit; default " DEFAULT_MAX_MEMORY ")\n"
	      "  -q, --quiet         print errors only: no warnings, no progress\n"
	      "      --progress      report bytes read and the rate on stderr during\n"
	      "                      long conversions (default: when stderr is a terminal)\n"
	      "      --list-formats  list the formats with what they can do\n"
	      "      --list-types    list each FILE's sample types: unit, total, samples,\n"
	      "                      times, and the names --sample-type takes for each\n"
	      "Filters, as go tool pprof's (RE: a POSIX extended regular expression\n"
	      "matched anywhere in a frame's function name, file or mapping):\n"
	      "      --focus RE      keep the samples with a frame that matches\n"
	      "      --ignore RE     drop the samples with a frame that matches\n"
	      "      --hide RE       leave out the frames that match\n"
	      "      --show RE       keep only the frames that match\n"
	      "      --show-from RE  drop the callers of the outermost frame that matches\n"
	      "      --prune-from RE drop the callees of the innermost frame that matches\n"
	      "      --max-depth N   keep each stack's N outermost frames\n"
	      "      --samples FROM:TO\n"
	      "                      keep the samples with 0-based index FROM to before TO,\n"
	      "                      in time order (either end may be left out)\n"
	      "      --time FROM:TO  ",
	      f);
	time_usage(f);
	fputs("      --diff-base FILE\n"
	      "                      subtract FILE's profile, as go tool pprof -diff_base\n"
	      "      --normalize     first scale the profile to the base's totals\n"
	      "  -h, --help          show this help\n"
	      "      --version       show the version\n"
	      "Options of input formats (for -f naming the formats named):\n",
	      f);
	options_usage(f, reader_options, n_reader_options, reads_option);
	fputs("Options of output formats (for the formats named):\n", f);
	options_usage(f, writer_options, n_writer_options, takes_option);
	fputs("\nExit status: 0 done; 1 bad input, a failed read or write, or a limit;\n"
	      "2 a wrong command line; 128+N killed by signal N (a closed stdout: SIGPIPE).\n"
	      "\nExample: prof -t rprof -o copy.out Rprof.out\n"
	      "See prof(1) for details.\n",
	      f);
}

static _Noreturn void usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static _Noreturn void usage_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("prof: ", stderr);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry 'prof --help' for more information.\n", stderr);
	exit(EXIT_USAGE);
}

/*
 * One line per format: its name; r, w and t for read, written and samples
 * with times (every reader also has its fuzz target); its extensions; what
 * it is. Scripts read the first two columns (the Makefile, test/conformance.sh).
 */
static void list_formats(void)
{
	for (size_t i = 0; formats[i]; i++) {
		const struct format *f = formats[i];
		printf("%-10s %c%c%c  ", f->name, f->read ? 'r' : '-', f->write ? 'w' : '-',
		       f->read && f->has_times ? 't' : '-');
		for (const char *const *ext = f->extensions; *ext; ext++)
			printf("%s%s", ext == f->extensions ? "" : ",", *ext);
		printf("  %s\n", f->description);
	}
}

/* A format's option: its value checked now, so a bad one is a usage error. */
static void take_format_option(struct given_option **given, size_t *n, size_t *cap,
			       const struct format_option *opt, const char *value)
{
	const char *wanted = opt->check && value ? opt->check(value) : NULL;
	if (wanted)
		usage_error("--%s takes %s, not '%s'", opt->name, wanted, value);
	grow((void **)given, cap, *n + 1, sizeof **given);
	(*given)[(*n)++] = (struct given_option){ opt->name, value ? value : "" };
}

/* The fixed options, then one for each writer option and each reader option. */
static struct option *long_options(void)
{
	static const struct option fixed[] = {
		{ "from", required_argument, NULL, 'f' },
		{ "to", required_argument, NULL, 't' },
		{ "output", required_argument, NULL, 'o' },
		{ "sample-type", required_argument, NULL, 's' },
		{ "level", required_argument, NULL, 'l' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "check", no_argument, NULL, 'c' },
		{ "max-memory", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ "list-formats", no_argument, NULL, 'L' },
		{ "list-types", no_argument, NULL, 'Y' },
		{ "progress", no_argument, NULL, 'P' },
		{ "files-from", required_argument, NULL, 'T' },
		{ "null", no_argument, NULL, '0' },
	};
	size_t n_fixed = sizeof fixed / sizeof *fixed, n_filters = n_filter_long_options;
	struct option *all = xcalloc(n_fixed + n_filters + n_writer_options + n_reader_options + 1, sizeof *all);
	memcpy(all, fixed, sizeof fixed);
	memcpy(all + n_fixed, filter_long_options, n_filters * sizeof *all);
	struct option *next = all + n_fixed + n_filters;
	for (size_t k = 0; k < n_writer_options; k++)
		*next++ = (struct option){ writer_options[k]->name,
					   writer_options[k]->arg ? required_argument : no_argument,
					   NULL, WRITER_OPTION + (int)k };
	for (size_t k = 0; k < n_reader_options; k++)
		*next++ = (struct option){ reader_options[k]->name,
					   reader_options[k]->arg ? required_argument : no_argument,
					   NULL, READER_OPTION + (int)k };
	return all;
}

/* An input, in messages about it. */
static const char *input_name(const char *path)
{
	return path && strcmp(path, "-") ? path : "<stdin>";
}

static void parse_options(int argc, char **argv, struct options *o)
{
	/* Static: --help and usage errors exit from inside the loop. */
	static struct option *options;
	options = long_options();
	int c;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":f:t:o:s:l:qcm:h", options, NULL)) != -1) {
		if (c >= READER_OPTION) {
			take_format_option(&o->read_given, &o->read.n_given, &o->cap_read_given,
					   reader_options[c - READER_OPTION], optarg);
			continue;
		}
		if (c >= WRITER_OPTION) {
			take_format_option(&o->given, &o->n_given, &o->cap_given,
					   writer_options[c - WRITER_OPTION], optarg);
			continue;
		}
		if (filter_option_code(c)) {
			const char *wrong = filter_options_take(&o->filters, c, optarg);
			if (wrong)
				usage_error("%s", wrong);
			continue;
		}
		switch (c) {
		case 'f': o->from = optarg; break;
		case 't': o->to = optarg; break;
		case 'o': o->output = optarg; break;
		case 's': o->write.sample_type = optarg; break;
		case 'l':
			if (optarg[0] < '1' || optarg[0] > '9' || optarg[1])
				usage_error("--level takes 1 to 9, not '%s'", optarg);
			o->write.level = optarg[0] - '0';
			break;
		case 'q': diag_set_quiet(1); o->quiet = 1; break;
		case 'P': o->progress = 1; break;
		case 'T': o->files_from = optarg; break;
		case '0': o->null = 1; break;
		case 'c': o->check = 1; break;
		case 'm': o->max_memory = optarg; break;
		case 'h': usage(stdout); exit(0);
		case 'V': puts("prof " PROF_VERSION); exit(0);
		case 'L': o->list_formats = 1; break;
		case 'Y': o->list_types = 1; break;
		case ':': usage_error("option '%s' needs an argument", argv[optind - 1]);
		default: usage_error("unknown option '%s'", argv[optind - 1]);
		}
	}
	free(options);
	options = NULL;
	o->write.given = o->given;
	o->write.n_given = o->n_given;
	o->read.given = o->read_given;
	o->inputs = argv + optind;
	o->n_inputs = argc - optind;
	if (o->list_formats && o->n_inputs)
		usage_error("--list-formats takes no FILE, not '%s'", o->inputs[0]);
	if (o->list_formats) {
		list_formats();
		exit(0);
	}
	if (o->null && !o->files_from)
		usage_error("%s", "--null is for the list of --files-from");
	int stdin_inputs = o->n_inputs == 0 && !o->files_from;
	for (int i = 0; i < o->n_inputs; i++)
		stdin_inputs += strcmp(o->inputs[i], "-") == 0;
	stdin_inputs += o->filters.diff_base && strcmp(o->filters.diff_base, "-") == 0;
	stdin_inputs += o->files_from && strcmp(o->files_from, "-") == 0;
	if (stdin_inputs > 1)
		usage_error("%s", "stdin ('-') can be read only once");
	const char *wrong = filter_options_check(&o->filters);
	if (wrong)
		usage_error("%s", wrong);
}

static const struct format *pick_writer(const struct options *o)
{
	const struct format *f;
	if (o->to) {
		f = format_by_name(o->to);
		if (!f)
			usage_error("unknown output format '%s' (see --list-formats)", o->to);
	} else if (o->output && strcmp(o->output, "-") != 0) {
		f = format_by_extension(o->output);
		if (!f)
			usage_error("cannot tell the output format from '%s'; use -t", o->output);
	} else {
		f = format_by_name("summary"); /* prof FILE: what go tool pprof -top shows */
	}
	if (!f->write)
		usage_error("format '%s' cannot be written", f->name);
	for (size_t i = 0; i < o->n_given; i++)
		if (!format_option(f, o->given[i].name)) {
			/* Static: usage_error exits, and leaves it reachable. */
			static char *names;
			names = format_names(takes_option, o->given[i].name);
			usage_error("--%s is for %s, not for -t %s", o->given[i].name, names, f->name);
		}
	return f;
}

static const struct format *pick_named_reader(const char *name)
{
	const struct format *f = format_by_name(name);
	if (!f)
		usage_error("unknown input format '%s' (see --list-formats)", name);
	if (!f->read)
		usage_error("format '%s' cannot be read", name);
	return f;
}

/* A reader's options need -f naming it: what they mean is its own. */
static void check_reader_options(const struct options *o)
{
	const struct format *f = o->from && strcmp(o->from, "auto") != 0 ? pick_named_reader(o->from) : NULL;
	for (size_t i = 0; i < o->read.n_given; i++)
		if (!f || !format_read_option(f, o->read.given[i].name)) {
			/* Static: usage_error exits, and leaves it reachable. */
			static char *names;
			names = format_names(reads_option, o->read.given[i].name);
			usage_error("--%s is for -f %s%s%s", o->read.given[i].name, names,
				    f ? ", not for -f " : "", f ? f->name : "");
		}
}

/* SIZE with an optional K, M or G suffix (powers of 1024). */
static unsigned long long parse_size(const char *text)
{
	char *end;
	unsigned long long n = strtoull(text, &end, 10);
	int shift = *end == 'K' ? 10 : *end == 'M' ? 20 : *end == 'G' ? 30 : 0;
	if (end == text || text[0] == '-' || (shift && end[1]) || (!shift && *end) ||
	    n > (~0ULL >> shift))
		usage_error("--max-memory takes a size such as 512M or 4G, not '%s'", text);
	return n << shift;
}

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) /* clang before 15 says only this */
#define UNDER_ASAN 1
#endif
#endif

/*
 * The limit is on address space: allocation past it fails, and prof says
 * "out of memory" and stops. AddressSanitizer reserves far more address
 * space than it uses, so its builds go without.
 */
static void limit_memory(const char *size)
{
	unsigned long long bytes = parse_size(size);
#if defined(UNDER_ASAN)
	(void)bytes;
#else
	struct rlimit limit = { bytes, bytes };
	if (bytes && setrlimit(RLIMIT_AS, &limit) < 0)
		diag_warn(NULL, 0, "cannot limit memory to %s", size);
#endif
}

/* Reads one input into a new model; 0, or -1 after reporting. */
static int read_input(const struct options *o, const char *path, struct model *m)
{
	const struct format *forced =
		o->from && strcmp(o->from, "auto") != 0 ? pick_named_reader(o->from) : NULL;
	const struct format *reader = format_read_file_with(path, forced, &o->read, m);
	progress_clear();
	if (reader && o->check)
		printf("%s: valid %s profile\n", input_name(path), reader->name);
	return reader ? 0 : -1;
}

static int open_inputs(const struct options *o, struct pathlist *list)
{
	return pathlist_open(list, o->inputs, o->n_inputs, o->files_from, o->null);
}

/* A path from the list, kept while the next is read. */
static char *copied(const char *path)
{
	return path ? strcpy(xmalloc(strlen(path) + 1), path) : NULL;
}

/*
 * Reads every input into *m; several are merged, each folded into the
 * result and freed before the next is read, so memory holds one input
 * and the result however many there are. *name is the profile's name in
 * messages (allocated): its one input's, or "merged profile".
 */
static int read_inputs(const struct options *o, struct model *m, char **name, int *merged)
{
	struct pathlist list;
	*name = NULL;
	*merged = 0;
	if (open_inputs(o, &list) < 0) {
		model_init(m); /* empty, for the caller to free */
		return -1;
	}
	char *first = copied(pathlist_next(&list));
	int rc = list.failed ? -1 : 0;
	if (!first && o->files_from && rc == 0) {
		diag_error(list.list_name, 0, "lists no profile");
		rc = -1;
	}
	if (rc == 0)
		rc = read_input(o, first, m);
	else
		model_init(m);
	const char *path = rc == 0 ? pathlist_next(&list) : NULL;
	if (path) {
		struct model one = *m;
		struct merge mg;
		*name = copied("merged profile");
		*merged = 1;
		model_init(m);
		merge_begin(&mg, m);
		rc = merge_add(&mg, &one, input_name(first));
		for (; rc == 0 && path; path = pathlist_next(&list)) {
			model_free(&one);
			rc = read_input(o, path, &one);
			if (rc == 0)
				rc = merge_add(&mg, &one, path);
		}
		model_free(&one);
		merge_end(&mg);
	}
	rc |= list.failed ? -1 : 0;
	*name = *name ? *name : copied(input_name(first));
	free(first);
	pathlist_close(&list);
	return rc;
}

/* --diff-base: the base read (its format sniffed) and subtracted. */
static int subtract_base(const struct options *o, struct model *m)
{
	struct model base;
	const char *path = o->filters.diff_base, *name = strcmp(path, "-") ? path : "<stdin>";
	int rc = format_read_file(path, NULL, &base) ? model_diff(m, &base, o->filters.normalize, name) : -1;
	model_free(&base);
	/* Both sides' values in one profile: its sums must still fit, as every writer's do. */
	return rc == 0 && model_validate(m, "difference") == 0 ? 0 : -1;
}

/* "cpu, wall" (allocated): the aliases --sample-type takes for type i; "" when none. */
static char *aliases_of(const struct view *v, size_t i)
{
	char *text = copied("");
	for (size_t k = 0; view_alias(k); k++)
		if (view_find(v, view_alias(k)) == i) {
			char *longer = text_of("%s%s%s", text, *text ? ", " : "", view_alias(k));
			free(text);
			text = longer;
		}
	return text;
}

/* "jdk.ExecutionSample/count (cpu), ..." (allocated): every type, for a message. */
static char *every_type(const struct view *v)
{
	char *text = copied("");
	for (size_t i = 0; i < v->n_types; i++) {
		char *aliases = aliases_of(v, i);
		char *longer = text_of("%s%s%s/%s%s%s%s", text, i ? ", " : "", view_type(v, i), view_unit(v, i),
				       *aliases ? " (" : "", aliases, *aliases ? ")" : "");
		free(aliases);
		free(text);
		text = longer;
	}
	return text;
}

/* A --sample-type that names no type of the profile is a usage error, naming the input. */
static int knows_sample_type(const char *wanted, const struct model *m, const char *name)
{
	struct view v;
	view_init(&v, m);
	if (!wanted || !v.n_types || view_find(&v, wanted) != SIZE_MAX)
		return 1;
	char *types = every_type(&v);
	fprintf(stderr, "prof: %s: no sample type '%s'; its types, for --sample-type: %s\n", name, wanted,
		types);
	free(types);
	return 0;
}

/* One line per sample type of m: unit, total in a person's units, samples, times, names. */
static void print_types(const struct model *m)
{
	struct view v;
	view_init(&v, m);
	double *totals = xcalloc(v.n_types + 1, sizeof *totals);
	uint64_t *samples = xcalloc(v.n_types + 1, sizeof *samples);
	int64_t *values = xmalloc((v.n_types + 1) * sizeof *values);
	struct row_cursor rows;
	rows_begin(m, &rows);
	for (const struct model_row *r; (r = rows_next(&rows));) {
		view_values(&v, r, values);
		for (size_t k = 0; k < v.n_types; k++) {
			totals[k] += (double)values[k];
			samples[k] += values[k] != 0 ? r->repeat : 0;
		}
	}
	rows_end(&rows);
	size_t picked = view_default(&v), width = 4;
	for (size_t k = 0; k < v.n_types; k++)
		width = strlen(view_type(&v, k)) > width ? strlen(view_type(&v, k)) : width;
	printf("%-*s  %-12s %12s %10s  %-5s  %s\n", (int)width, "type", "unit", "total", "samples",
	       "times", "-s also takes");
	for (size_t k = 0; k < v.n_types; k++) {
		char total[64], *aliases = aliases_of(&v, k);
		units_label(total, sizeof total, totals[k] / pow(10, view_decimals(&v, k)), view_unit(&v, k));
		char *names = text_of("%s%s%s", k == picked ? "(default)" : "", k == picked && *aliases ? " " : "",
				      aliases);
		printf("%-*s  %-12s %12s %10llu  %-*s%s\n", (int)width, view_type(&v, k), view_unit(&v, k),
		       total, (unsigned long long)samples[k], *names ? 7 : 0, model_has_times(m) ? "yes" : "no",
		       names);
		free(names);
		free(aliases);
	}
	free(totals);
	free(samples);
	free(values);
}

typedef void input_fn(const struct options *o, const char *path, int n, struct model *m);

/* Each input read alone, in turn, and handed to `each` (NULL: none); EXIT_DATA when any failed, every one tried. */
static int each_input(const struct options *o, input_fn *each)
{
	struct pathlist list;
	if (open_inputs(o, &list) < 0)
		return EXIT_DATA;
	int rc = 0, n = 0;
	for (const char *path = pathlist_next(&list); path || (n == 0 && !o->files_from);
	     path = pathlist_next(&list), n++) {
		struct model m;
		if (read_input(o, path, &m) < 0)
			rc = 1;
		else if (each)
			each(o, path, n, &m);
		model_free(&m);
		if (!path)
			break;
	}
	rc |= list.failed;
	pathlist_close(&list);
	return rc ? EXIT_DATA : 0;
}

static void list_input_types(const struct options *o, const char *path, int n, struct model *m)
{
	if (o->n_inputs > 1 || o->files_from)
		printf("%s%s:\n", n ? "\n" : "", input_name(path));
	print_types(m);
}

/* --list-types: each input read alone, its types listed; several under their names. */
static int list_types(const struct options *o)
{
	progress_enable(!o->quiet && o->progress);
	return each_input(o, list_input_types);
}

/* --check: every input read and validated, every problem listed. */
static int check(const struct options *o)
{
	diag_set_keep_going(1);
	progress_enable(!o->quiet && (o->progress || isatty(2)));
	return each_input(o, NULL);
}

/*
 * A writer with --top (the summary) lists a screenful on a terminal unless
 * told: write's options then end with --top 20 (allocated; NULL: as given).
 */
static struct given_option *with_terminal_top(const struct options *o, const struct format *writer,
					      const struct output *out, struct write_options *write)
{
	if (!format_option(writer, "top") || write_option(write, "top") || !output_is_terminal(out))
		return NULL;
	struct given_option *given = xmalloc((o->n_given + 1) * sizeof *given);
	if (o->n_given)
		memcpy(given, o->given, o->n_given * sizeof *given);
	given[o->n_given] = (struct given_option){ "top", "20" };
	write->given = given;
	write->n_given = o->n_given + 1;
	return given;
}

/*
 * The output opens first: a binary format bound for a terminal is refused
 * before any reading, and -o's temporary exists from the start, so a
 * signal at any point finds it and removes it.
 */
static int convert(const struct options *o, const struct format *writer)
{
	struct output out;
	struct model m;
	if (output_open(&out, o->output) < 0)
		return EXIT_DATA;
	if (writer->binary && output_is_terminal(&out)) {
		diag_error(out.name, 0, "refusing to write binary %s to a terminal; "
			   "use -o FILE or redirect", writer->name);
		output_abort(&out);
		return EXIT_DATA;
	}
	/* A progress line on the terminal the output goes to would break it up. */
	progress_enable(!o->quiet && (o->progress || (isatty(2) && !output_is_terminal(&out))));
	/* Each input was validated as it was read; a merge is checked once more. */
	char *name;
	int merged;
	struct write_options write = o->write;
	struct given_option *given = with_terminal_top(o, writer, &out, &write);
	int ok = read_inputs(o, &m, &name, &merged) == 0;
	if (ok && !knows_sample_type(write.sample_type, &m, name)) {
		output_abort(&out);
		fputs("Try 'prof --list-types FILE' for its types.\n", stderr);
		exit(EXIT_USAGE);
	}
	ok = ok && (!merged || model_validate(&m, name) == 0) &&
		 (!o->filters.diff_base || subtract_base(o, &m) == 0);
	struct filter_spec spec = filter_options_spec(&o->filters);
	struct model narrowed;
	if (ok && filter_wanted(&spec)) {
		ok = model_filter(&m, &spec, &narrowed) == 0;
		if (ok) {
			model_free(&m);
			m = narrowed;
		}
	}
	write.input = name;
	if (ok)
		model_name_functions(&m);
	ok = ok && writer->write(&m, &out, &write) == 0;
	if (ok)
		ok = output_commit(&out) == 0;
	else
		output_abort(&out);
	progress_clear();
	model_free(&m);
	free(name);
	free(given);
	return ok ? 0 : EXIT_DATA;
}

/* A signal during -o must not leave the temporary file behind. */
static void on_signal(int sig)
{
	output_remove_pending();
	signal(sig, SIG_DFL);
	raise(sig);
}

int main(int argc, char **argv)
{
	struct options o = { .max_memory = DEFAULT_MAX_MEMORY, .write = { .level = FAST_GZIP_LEVEL } };
	filter_options_init(&o.filters);
	collect_format_options();
	parse_options(argc, argv, &o);
	limit_memory(o.max_memory);
	const struct format *writer = o.check || o.list_types ? NULL : pick_writer(&o);
	check_reader_options(&o);
	/*
	 * A reader that closes the pipe (prof ... | head) ends prof as it ends
	 * cat and grep: killed by SIGPIPE, without a word, even where the
	 * shell that started prof ignored the signal.
	 */
	signal(SIGPIPE, SIG_DFL);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);
	diag_on_fatal(output_remove_pending);
	int rc = o.check ? check(&o) : o.list_types ? list_types(&o) : convert(&o, writer);
	free(o.given);
	free(o.read_given);
	free(writer_options);
	free(reader_options);
	filter_options_free(&o.filters);
	return rc;
}
