/*
 * macOS `sample` report reader (docs/formats/sample.md): its "Call graph:"
 * section, a tree drawn with "+ ! : |", each level two columns deeper:
 *     825 Thread_15758523   DispatchQueue_1: com.apple.main-thread  (serial)
 *     + 825 start  (in libdyld.dylib) + 1  [0x7fff737cf3d5]
 * A line's count is its samples with its callees' (inclusive); its self,
 * the count less its callees' counts, is a sample at its stack. A thread's
 * line is the root frame (its first word, as the collapsers put it) and a
 * `thread` label (the whole line). A frame is named "module`symbol" as
 * stackcollapse-sample.awk names it (".dylib" dropped), its symbol whole;
 * its [0x...] is its location's address. The graph ends at the first line
 * not indented four columns ("Total number in stack", "Sort by top of
 * stack", "Binary Images:").
 * Types: samples/count, and wall/milliseconds (samples times the interval
 * of the header's "every N millisecond(s)", or "with N millisecond(s) of
 * run time between samples"), the default when given. Memory grows with
 * distinct frames and the depth.
 */
#include <string.h>

#include "../base/alloc.h"
#include "../base/ascii.h"
#include "../base/checked.h"
#include "../io/lines.h"
#include "../model/textcache.h"
#include "format.h"

int sample_read(struct input *in, struct model *m);

enum { MAX_DEPTH = 1 << 16, INDENT = 4 };

struct text {
	const char *s;
	size_t len;
};

struct node {
	uint32_t stack;
	int64_t count, callees;
	uint64_t line;
};

struct reader {
	struct lines lines;
	struct model *m;
	int64_t interval_ms; /* 0: not given */
	int in_graph;
	struct node *open; /* open[0] the thread */
	size_t depth, cap_open;
	uint32_t labels, key_thread;
	struct text_cache locations; /* by (function, address) */
	struct text_cache frame_texts; /* by a frame line's text: threads repeat their callers' lines */
	char *name;
	size_t cap_name;
	uint64_t threads;
};

static struct text trim(struct text t)
{
	while (t.len && (t.s[0] == ' ' || t.s[0] == '\t'))
		t.s++, t.len--;
	while (t.len && (t.s[t.len - 1] == ' ' || t.s[t.len - 1] == '\t'))
		t.len--;
	return t;
}

/* Where `needle` first is in t, or t.len. */
static size_t find(struct text t, const char *needle)
{
	size_t n = strlen(needle);
	for (size_t i = 0; i + n <= t.len; i++)
		if (memcmp(t.s + i, needle, n) == 0)
			return i;
	return t.len;
}

/* "WORD N millisecond" in the line, WORD "every" or "with": N in *ms. */
static int interval_in(struct text t, const char *word, int64_t *ms)
{
	size_t at = find(t, word);
	if (at == t.len)
		return 0;
	size_t i = at + strlen(word), start = i;
	int64_t value = 0;
	while (i < t.len && is_digit(t.s[i]))
		if (checked_mul_i64(value, 10, &value) || checked_add_i64(value, t.s[i++] - '0', &value))
			return 0;
	if (i == start || value == 0 || !starts_with(t.s + i, t.len - i, " millisecond"))
		return 0;
	*ms = value;
	return 1;
}

static uint32_t location_of(struct reader *r, struct text name, uint64_t address)
{
	uint32_t id = model_str(r->m, name.s, name.len);
	struct model_function f = { id, id, 0, 0, 0, 0, { 0, 0, 0, 0 } };
	struct {
		uint32_t function;
		uint64_t address;
	} key;
	memset(&key, 0, sizeof key);
	key.function = model_function(r->m, &f);
	key.address = address;
	uint64_t hash;
	uint32_t found = text_cache_find(&r->locations, (const char *)&key, sizeof key, &hash);
	if (found != HASHIDX_NONE)
		return found;
	struct model_location l;
	memset(&l, 0, sizeof l);
	l.function = key.function;
	l.native.mapping = MODEL_NONE;
	l.native.address = address;
	uint32_t location = model_add_location(r->m, &l, NULL, 0);
	text_cache_add(&r->locations, hash, (const char *)&key, sizeof key, location);
	return location;
}

/* The innermost open node is done: its self is a sample. */
static int close_node(struct reader *r)
{
	struct node *n = &r->open[--r->depth];
	int64_t self;
	if (checked_sub_i64(n->count, n->callees, &self) || self < 0)
		return lines_errorf(&r->lines, n->line, "its callees count %lld samples, more than its own %lld",
				    (long long)n->callees, (long long)n->count);
	if (self == 0)
		return 0;
	int64_t values[2] = { self, 0 };
	if (r->interval_ms && checked_mul_i64(self, r->interval_ms, &values[1]))
		return lines_errorf(&r->lines, n->line, "a time past 2^63 ms");
	model_add_samples(r->m, n->stack, values, NULL, r->labels, 1, 0);
	return 0;
}

static int close_to(struct reader *r, size_t depth)
{
	while (r->depth > depth)
		if (close_node(r) < 0)
			return -1;
	return 0;
}

static int open_node(struct reader *r, uint32_t location, int64_t count)
{
	if (r->depth == MAX_DEPTH)
		return lines_errorf(&r->lines, 0, "a call graph deeper than %d frames", MAX_DEPTH);
	uint32_t caller = MODEL_EMPTY_STACK;
	if (r->depth) {
		struct node *up = &r->open[r->depth - 1];
		caller = up->stack;
		if (checked_add_i64(up->callees, count, &up->callees))
			return lines_errorf(&r->lines, 0, "counts adding up past 2^63");
	}
	grow((void **)&r->open, &r->cap_open, r->depth + 1, sizeof *r->open);
	r->open[r->depth++] = (struct node){ model_stack(r->m, location, caller), count, 0,
					     lines_number(&r->lines) };
	return 0;
}

static int open_thread(struct reader *r, struct text text, int64_t count)
{
	if (close_to(r, 0) < 0)
		return -1;
	struct text word = { text.s, 0 };
	while (word.len < text.len && text.s[word.len] != ' ' && text.s[word.len] != '\t')
		word.len++;
	struct model_label label = { r->key_thread, model_str(r->m, text.s, text.len), 0, 0 };
	r->labels = model_label_set(r->m, &label, 1);
	r->threads++;
	return open_node(r, location_of(r, word, 0), count);
}

/* "[0x...]" ending the line: the address, else 0. */
static uint64_t address_of(struct text t)
{
	if (t.len < 4 || t.s[t.len - 1] != ']')
		return 0;
	size_t open = t.len - 1;
	while (open > 0 && t.s[open] != '[')
		open--;
	if (t.s[open] != '[' || open + 3 > t.len - 1 || t.s[open + 1] != '0' || t.s[open + 2] != 'x')
		return 0;
	uint64_t address = 0;
	size_t i = open + 3, digits = 0;
	for (; i < t.len - 1 && is_hex(t.s[i]) && digits < 16; i++, digits++) {
		char c = ascii_lower(t.s[i]);
		address = address << 4 | (uint64_t)(is_digit(c) ? c - '0' : c - 'a' + 10);
	}
	return i == t.len - 1 && digits ? address : 0;
}

/* "symbol  (in module) + off  [0x...]": named "module`symbol", ".dylib" out of the module. */
static int open_frame(struct reader *r, struct text text, int64_t count)
{
	uint64_t hash;
	uint32_t known = text_cache_find(&r->frame_texts, text.s, text.len, &hash);
	if (known != HASHIDX_NONE)
		return open_node(r, known, count);
	size_t in = find(text, "  (in ");
	size_t end = in < text.len ? in : find(text, "  [");
	struct text symbol = trim((struct text){ text.s, end });
	if (symbol.len == 0)
		return lines_errorf(&r->lines, 0, "a frame with no symbol after its count");
	size_t len = 0;
	grow((void **)&r->name, &r->cap_name, text.len + 1, 1);
	if (in < text.len) {
		struct text module = { text.s + in + 6, text.len - in - 6 };
		const char *close = memchr(module.s, ')', module.len);
		module.len = close ? (size_t)(close - module.s) : module.len;
		for (size_t i = 0; i < module.len; i++) {
			if (module.len - i >= 6 && memcmp(module.s + i, ".dylib", 6) == 0)
				i += 5;
			else
				r->name[len++] = module.s[i];
		}
		r->name[len++] = '`';
	}
	memcpy(r->name + len, symbol.s, symbol.len);
	struct text name = { r->name, len + symbol.len };
	uint32_t location = location_of(r, name, address_of(text));
	text_cache_add(&r->frame_texts, hash, text.s, text.len, location);
	return open_node(r, location, count);
}

/* A line of the call graph: the tree's marks, then the count, at 4 + 2 x depth columns. */
static int read_graph_line(struct reader *r, const char *s, size_t len)
{
	size_t i = INDENT;
	while (i < len && (s[i] == ' ' || s[i] == '+' || s[i] == '!' || s[i] == ':' || s[i] == '|'))
		i++;
	if (i == len || !is_digit(s[i]) || (i - INDENT) % 2)
		return lines_error(&r->lines, 0, "a call graph line without a count two columns a level in",
				   s, len);
	size_t depth = (i - INDENT) / 2;
	int64_t count = 0;
	while (i < len && is_digit(s[i]))
		if (checked_mul_i64(count, 10, &count) || checked_add_i64(count, s[i++] - '0', &count))
			return lines_errorf(&r->lines, 0, "a count past 2^63");
	if (i < len && s[i] != ' ')
		return lines_error(&r->lines, 0, "a count not followed by a space", s, len);
	struct text text = trim((struct text){ s + i, len - i });
	if (depth == 0)
		return text.len ? open_thread(r, text, count)
				: lines_error(&r->lines, 0, "a thread with no name", s, len);
	if (r->depth == 0)
		return lines_error(&r->lines, 0, "a frame before any thread's line", s, len);
	if (depth > r->depth)
		return lines_errorf(&r->lines, 0, "a frame at level %zu under one at level %zu", depth,
				    r->depth - 1);
	return close_to(r, depth) < 0 ? -1 : open_frame(r, text, count);
}

/* The types, once the header's interval is known: samples, and wall when it is. */
static void begin_graph(struct reader *r)
{
	r->in_graph = 1;
	model_add_sample_type(r->m, "samples", "count");
	if (r->interval_ms) {
		model_add_sample_type(r->m, "wall", "milliseconds");
		model_set_meta(r->m, "default_sample_type", "wall");
	}
}

/* 1 when the graph is over; -1 refused. */
static int read_line(struct reader *r, const char *s, size_t len)
{
	struct text t = { s, len };
	if (!r->in_graph) {
		if (!r->interval_ms && !interval_in(t, " every ", &r->interval_ms))
			interval_in(t, " with ", &r->interval_ms);
		if (starts_with(s, len, "Call graph:"))
			begin_graph(r);
		return 0;
	}
	if (len < INDENT || memcmp(s, "    ", INDENT) != 0)
		return 1;
	return read_graph_line(r, s, len);
}

static int read_graph(struct reader *r)
{
	const char *s;
	size_t len;
	int got;
	while ((got = lines_next(&r->lines, &s, &len)) != 0) {
		int step = got < 0 ? -1 : read_line(r, s, len);
		if (step > 0)
			break;
		if (step < 0 && !lines_go_on(&r->lines))
			return -1;
	}
	if (close_to(r, 0) < 0 || r->lines.failed)
		return -1;
	if (!r->in_graph)
		return lines_errorf(&r->lines, 0, "no \"Call graph:\" line: not a report of macOS sample");
	if (r->threads == 0)
		return lines_errorf(&r->lines, 0, "a \"Call graph:\" with no thread (\"    COUNT Thread_...\")");
	return 0;
}

int sample_read(struct input *in, struct model *m)
{
	struct reader r;
	memset(&r, 0, sizeof r);
	r.m = m;
	lines_begin(&r.lines, in);
	r.key_thread = model_str(m, "thread", 6);
	int status = read_graph(&r);
	free(r.open);
	free(r.name);
	text_cache_free(&r.locations);
	text_cache_free(&r.frame_texts);
	return status;
}
