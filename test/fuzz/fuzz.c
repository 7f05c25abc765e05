/*
 * libFuzzer target, built once per reader (FUZZ_FORMAT "rprof", "pprof",
 * ...) and once as "any", which sniffs first as prof does. Every input is
 * read as prof reads it (format_read: gunzip, sniff, read, validate); a valid
 * profile is then written in every writable format, to /dev/null, so that
 * the writers meet whatever the readers let through. `make fuzz` builds
 * them; test/fuzz/README.md says how to run them.
 */
#include <fcntl.h>
#include <stdint.h>
#include <string.h>

#include "../../formats/format.h"

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
	if (format_read(&in, forced, &m))
		write_everything(&m, devnull);
	model_free(&m);
	input_close(&in);
	return 0;
}
