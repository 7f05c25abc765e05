/*
 * libFuzzer target, built once per reader (FUZZ_FORMAT "rprof", "pprof",
 * ...) and once as "any", which sniffs first as prof does. Every input is
 * read as prof reads it (format_read: gunzip, sniff, read, validate); a valid
 * profile is then written in every writable format, to /dev/null, so that
 * the writers meet whatever the readers let through; and so is the same
 * profile narrowed by every filter (--hide, --show-from ... --max-depth),
 * by a window of time when its samples have times (--time), merged with
 * itself (`prof f f`: times after times) and made a difference against
 * itself (--diff-base), so that the filters and merges meet it too. `make fuzz` builds them; test/fuzz/README.md says how to run them.
 */
#include <fcntl.h>
#include <stdint.h>
#include <string.h>

#include "../../formats/format.h"
#include "../../model/diff.h"
#include "../../model/filter.h"
#include "../../model/merge.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void write_everything(const struct model *m, int devnull)
{
	const struct write_options opts = { .level = 1 };
	for (size_t i = 0; formats[i]; i++) {
		struct output out;
		if (!formats[i]->write)
			continue;
		output_open_fd(&out, devnull, "/dev/null");
		if (formats[i]->write(m, &out, &opts) < 0)
			output_abort(&out);
		else
			output_commit(&out);
	}
}

/* Patterns that match some frames of most profiles: a letter, and an end. */
static void filtered_everything(struct model *m, int devnull)
{
	static regex_t some, end;
	static int compiled;
	if (!compiled)
		compiled = regcomp(&some, "[aeiou]", REG_EXTENDED | REG_NOSUB) == 0 &&
			   regcomp(&end, "n$", REG_EXTENDED | REG_NOSUB) == 0;
	if (!compiled)
		return;
	struct filter_spec spec = { &end, NULL, &some, NULL, &some, &end, 3, 1, 50, 0, 0, 0 };
	struct model narrowed;
	if (model_filter(m, &spec, &narrowed) == 0) {
		write_everything(&narrowed, devnull);
		model_free(&narrowed);
	}
	if (!model_has_times(m))
		return;
	struct filter_spec window = { .end_sample = UINT64_MAX, .has_time = 1, .from_us = 1000, .to_us = 50000 };
	if (model_filter(m, &window, &narrowed) == 0) {
		write_everything(&narrowed, devnull);
		model_free(&narrowed);
	}
}

static void merged_everything(const struct model *m, int devnull)
{
	struct model twice;
	model_copy(&twice, m, NULL);
	if (model_merge(&twice, m, "fuzz") == 0 && model_validate(&twice, "fuzz merge") == 0)
		write_everything(&twice, devnull);
	model_free(&twice);
}

static void difference_everything(struct model *m, const uint8_t *data, size_t size, int devnull)
{
	struct input in;
	struct model base;
	input_open_memory(&in, data, size, "fuzz base");
	if (format_read(&in, NULL, &base) && model_diff(m, &base, 1, "fuzz base") == 0 &&
	    model_validate(m, "fuzz difference") == 0)
		write_everything(m, devnull);
	model_free(&base);
	input_close(&in);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int devnull = -1;
	if (devnull < 0)
		devnull = open("/dev/null", O_WRONLY);
	struct input in;
	struct model m;
	input_open_memory(&in, data, size, "fuzz");
	const struct format *forced = strcmp(FUZZ_FORMAT, "any") == 0 ? NULL
								    : format_by_name(FUZZ_FORMAT);
	if (format_read(&in, forced, &m)) {
		write_everything(&m, devnull);
		filtered_everything(&m, devnull);
		merged_everything(&m, devnull);
		difference_everything(&m, data, size, devnull);
	}
	model_free(&m);
	input_close(&in);
	return 0;
}
