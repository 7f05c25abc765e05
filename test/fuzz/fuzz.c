/*
 * libFuzzer target, built once per reader (FUZZ_FORMAT "rprof", "pprof",
 * ...) and once as "any", which sniffs first as prof does. Every input is
 * read as prof reads it (format_read: gunzip, sniff, read, validate); a valid
 * profile is then written once in every writable format, to /dev/null, so
 * that the writers meet whatever the readers let through. The same profile
 * narrowed by every filter (--hide, --show-from ... --max-depth), by a
 * window of time when its samples have times (--time), merged with itself
 * (`prof f f`: times after times) and made a difference against itself
 * (--diff-base) is written too, so that the filters and merges meet it,
 * but each in one writer, a different one for each, chosen by the input's
 * bytes: writing every variant in every format cost five times the
 * writing, and real seeds of a few MB took a minute a run (issue 27).
 * `make fuzz` builds them; test/fuzz/README.md says how to run them.
 */
#include <fcntl.h>
#include <stdint.h>
#include <string.h>

#include "../../formats/format.h"
#include "../../model/diff.h"
#include "../../model/filter.h"
#include "../../model/merge.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int devnull = -1;
/* Patterns that match some frames of most profiles: a letter, and an end. */
static regex_t some, end;
static int compiled;

/*
 * What every input shares is made before the first: libFuzzer runs again,
 * under its leak check, an input that leaves more mallocs than frees,
 * which the first input would, compiling the patterns.
 */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	devnull = open("/dev/null", O_WRONLY);
	compiled = regcomp(&some, "[aeiou]", REG_EXTENDED | REG_NOSUB) == 0 &&
		   regcomp(&end, "n$", REG_EXTENDED | REG_NOSUB) == 0;
	return 0;
}

static void write_as(const struct format *writer, const struct model *m)
{
	const struct write_options opts = { .level = 1 };
	struct output out;
	output_open_fd(&out, devnull, "/dev/null");
	if (writer->write(m, &out, &opts) < 0)
		output_abort(&out);
	else
		output_commit(&out);
}

static void write_everything(const struct model *m)
{
	for (size_t i = 0; formats[i]; i++)
		if (formats[i]->write)
			write_as(formats[i], m);
}

/*
 * The writer of an input's next variant: the first is one the input's
 * bytes pick (*pick, set from them), each next variant takes the next
 * writer, so that the mutations of an input take each variant through
 * every writer.
 */
static void write_variant(size_t *pick, const struct model *m)
{
	size_t writers = 0;
	for (size_t i = 0; formats[i]; i++)
		writers += formats[i]->write != NULL;
	size_t k = (*pick)++ % writers;
	for (size_t i = 0; formats[i]; i++)
		if (formats[i]->write && k-- == 0) {
			write_as(formats[i], m);
			return;
		}
}

static void filtered(struct model *m, size_t *pick)
{
	if (!compiled)
		return;
	struct filter_spec spec = { &end, NULL, &some, NULL, &some, &end, 3, 1, 50, 0, 0, 0 };
	struct model narrowed;
	if (model_filter(m, &spec, &narrowed) == 0) {
		write_variant(pick, &narrowed);
		model_free(&narrowed);
	}
	if (!model_has_times(m))
		return;
	struct filter_spec window = { .end_sample = UINT64_MAX, .has_time = 1, .from_us = 1000, .to_us = 50000 };
	if (model_filter(m, &window, &narrowed) == 0) {
		write_variant(pick, &narrowed);
		model_free(&narrowed);
	}
}

static void merged(const struct model *m, size_t *pick)
{
	struct model twice;
	model_copy(&twice, m, NULL);
	if (model_merge(&twice, m, "fuzz") == 0 && model_validate(&twice, "fuzz merge") == 0)
		write_variant(pick, &twice);
	model_free(&twice);
}

/* Against a copy of itself, as reading the input again would give, at a copy's cost. */
static void difference(struct model *m, size_t *pick)
{
	struct model base;
	model_copy(&base, m, NULL);
	if (model_diff(m, &base, 1, "fuzz base") == 0 && model_validate(m, "fuzz difference") == 0)
		write_variant(pick, m);
	model_free(&base);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in;
	struct model m;
	input_open_memory(&in, data, size, "fuzz");
	const struct format *forced = strcmp(FUZZ_FORMAT, "any") == 0 ? NULL
								    : format_by_name(FUZZ_FORMAT);
	if (format_read(&in, forced, &m)) {
		size_t pick = size ? (size_t)data[size / 2] + data[size - 1] : 0;
		write_everything(&m);
		filtered(&m, &pick);
		merged(&m, &pick);
		difference(&m, &pick);
	}
	model_free(&m);
	input_close(&in);
	return 0;
}
