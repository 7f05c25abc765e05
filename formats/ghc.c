/*
 * GHC cost-centre profiles (docs/formats/ghc.md): registration, the probe,
 * and what the text and JSON readers share (ghc.h). One format for both,
 * since GHC writes both to PROG.prof: the first byte that is not blank
 * says which (`{`: `+RTS -pj`'s JSON).
 */
#include "ghc.h"

#include <stdlib.h>
#include <string.h>

#include "../base/alloc.h"
#include "../io/json.h"
#include "format.h"

void ghc_begin(struct model *m)
{
	/* Types other than samples/count first, and GHC's `<...>` names. */
	m->rules.strict_r = 0;
	model_add_sample_type(m, "time", "nanoseconds");
	model_add_sample_type(m, "alloc", "bytes");
	model_add_sample_type(m, "entries", "count");
	model_set_meta(m, "default_sample_type", "time");
}

/* "MODULE.LABEL" as a string of the model. */
static uint32_t dotted_name(struct model *m, const char *module, size_t module_len, const char *label,
			    size_t label_len)
{
	char small[256];
	size_t n = module_len + 1 + label_len;
	char *buf = n <= sizeof small ? small : xmalloc(n);
	memcpy(buf, module, module_len);
	buf[module_len] = '.';
	memcpy(buf + module_len + 1, label, label_len);
	uint32_t name = model_str(m, buf, n);
	if (buf != small)
		free(buf);
	return name;
}

uint32_t ghc_location(struct model *m, const char *module, size_t module_len, const char *label,
		      size_t label_len, const char *src, size_t src_len)
{
	struct model_function f = { 0 };
	f.name = f.system_name = dotted_name(m, module, module_len, label, label_len);
	if (src_len > 0 && src[0] != '<')
		f.file_name = model_str(m, src, src_len);
	return model_location(m, model_function(m, &f), 0);
}

void ghc_add_row(struct model *m, uint32_t stack, const int64_t *values)
{
	for (size_t k = 0; k < GHC_TYPES; k++)
		if (values[k] != 0) {
			model_add_sample(m, stack, values, NULL, 0);
			return;
		}
}

/* The first byte that is not blank decides: `{` is -pj's JSON. */
static int ghc_read(struct input *in, struct model *m)
{
	const unsigned char *prefix;
	long n = input_peek(in, FORMAT_PROBE_BYTES, &prefix);
	if (n < 0)
		return -1;
	long i = 0;
	while (i < n && (prefix[i] == ' ' || prefix[i] == '\t' || prefix[i] == '\r' || prefix[i] == '\n'))
		i++;
	return i < n && prefix[i] == '{' ? ghc_read_json(in, m) : ghc_read_text(in, m);
}

/* Does the line at `s` (up to `end`) hold `needle`? */
static int line_has(const char *s, const char *end, const char *needle)
{
	size_t n = strlen(needle);
	for (; (size_t)(end - s) >= n; s++)
		if (*s == *needle && memcmp(s, needle, n) == 0)
			return 1;
	return 0;
}

/*
 * Text: the report's title line, else (a copy without it) its `total
 * time = ... (N ticks @ ...` line among the first lines. JSON: the keys
 * speedscope detects it by, and its tree's.
 */
static enum probe_score ghc_probe(const unsigned char *prefix, size_t len)
{
	if (json_prefix_is_object(prefix, len)) {
		int rts = json_prefix_has(prefix, len, "\"rts_arguments\"") &&
			  json_prefix_has(prefix, len, "\"initial_capabilities\"");
		int tree = json_prefix_has(prefix, len, "\"cost_centres\"") &&
			   json_prefix_has(prefix, len, "\"tick_interval\"");
		return rts && tree ? PROBE_NEAR_CERTAIN : rts || tree ? PROBE_PROBABLE : PROBE_NO;
	}
	const char *s = (const char *)prefix, *end = s + len;
	for (int lines = 0; s < end && lines < 12; lines++) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		const char *line_end = nl ? nl : end;
		if (lines == 0 && line_has(s, line_end, " Time and Allocation Profiling Report"))
			return PROBE_NEAR_CERTAIN;
		if (line_has(s, line_end, "total time") && line_has(s, line_end, " ticks @ "))
			return PROBE_PROBABLE;
		if (!nl)
			break;
		s = nl + 1;
	}
	return PROBE_NO;
}

static const char *const ghc_extensions[] = { NULL };

const struct format format_ghc = {
	.name = "ghc",
	.description = "GHC cost-centre profiles: +RTS -p, -P, -pa, -pj (.prof text or JSON)",
	.extensions = ghc_extensions,
	.binary = 0,
	.probe = ghc_probe,
	.read = ghc_read,
};
