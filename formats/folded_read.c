/*
 * Folded stacks reader. Each line is one stack, root first, and a count;
 * a line that does not parse is an error with its number, never skipped.
 * Lines stay in order, as rows; equal neighbours merge as in any profile.
 * An empty file is an empty profile. Lines mostly share their callers and
 * differ at the leaf: the callers' text is looked up whole, so a line
 * interns one frame, not one per frame.
 */
#include <string.h>

#include "../io/diag.h"
#include "../model/textcache.h"
#include "folded.h"

static int fail(struct input *in, const char *what)
{
	diag_error(in->name, in->line, "%s", what);
	return -1;
}

/* Interns the frames of s[from..to), root first, onto *stack; -1 at an empty one. */
static int push_frames(struct model *m, const char *s, size_t from, size_t to, uint32_t *stack)
{
	for (size_t start = from; start <= to;) {
		const char *semi = memchr(s + start, ';', to - start);
		size_t end = semi ? (size_t)(semi - s) : to;
		if (end == start)
			return -1;
		struct model_function f = { 0 };
		f.name = f.system_name = model_str(m, s + start, end - start);
		*stack = model_stack(m, model_location(m, model_function(m, &f), 0), *stack);
		start = end + 1;
	}
	return 0;
}

static int read_line(struct input *in, struct model *m, struct text_cache *callers,
		     const char *s, size_t len)
{
	if (len == 0)
		return fail(in, "blank line");
	if (memchr(s, '\0', len))
		return fail(in, "NUL byte in line");
	size_t at = folded_count_at(s, len);
	if (at == 0)
		return fail(in, "not 'frame;frame;... COUNT': no whole-number count after the last space");
	int64_t count = 0;
	for (size_t i = at; i < len; i++) {
		if (count > (INT64_MAX - 9) / 10)
			return fail(in, "count larger than 2^63-1");
		count = count * 10 + (s[i] - '0');
	}
	uint32_t stack = MODEL_EMPTY_STACK;
	size_t stack_len = at - 1, leaf = stack_len;
	while (leaf > 0 && s[leaf - 1] != ';')
		leaf--;
	if (leaf > 0) {
		uint64_t hash;
		stack = text_cache_find(callers, s, leaf - 1, &hash);
		if (stack == HASHIDX_NONE) {
			stack = MODEL_EMPTY_STACK;
			if (push_frames(m, s, 0, leaf - 1, &stack) < 0)
				return fail(in, "empty frame name");
			text_cache_add(callers, hash, s, leaf - 1, stack);
		}
	}
	if (push_frames(m, s, leaf, stack_len, &stack) < 0)
		return fail(in, "empty frame name");
	model_add_sample(m, stack, &count, NULL, 0);
	return 0;
}

int folded_read(struct input *in, struct model *m)
{
	const char *s;
	size_t len;
	int rc, failed = 0;
	struct text_cache callers = { 0 };
	model_add_sample_type(m, "samples", "count");
	while ((rc = input_get_line(in, &s, &len)) > 0) {
		if (len > 0 && s[len - 1] == '\r')
			len--;
		if (read_line(in, m, &callers, s, len) < 0) {
			failed = 1;
			if (!diag_go_on())
				break;
		}
	}
	text_cache_free(&callers);
	/* No lines is an empty profile: what the writer makes of one. */
	return rc < 0 || failed ? -1 : 0;
}
