/*
 * LispWorks profiler tree reader (docs/formats/lispworks.md: the format,
 * and the reading rules where the manual is silent).
 *
 * Every node becomes a location of its own and one sample row, in file
 * order, whose value is the node's self count (Count minus its children's
 * Counts, known once its subtree is read; it may be 0). So a tree read and
 * written back is the same tree: sibling order, same-name siblings and
 * nodes with Count 0 included. A function is its name, and carries the
 * function-info, which must be the same at every occurrence.
 *
 * Streaming: the state is the chain of ancestors of the current node, so
 * a tree of any depth reads without recursion, and the nodes of the
 * current top-level tree: rows are written in time order, and a node's row
 * comes before its subtree's but its value is known only after it.
 */
#include <inttypes.h>
#include <string.h>

#include "../base/diag.h"
#include "../base/alloc.h"
#include "../base/checked.h"
#include "../base/utf8.h"
#include "../io/lines.h"
#include "lispworks.h"

struct ancestor {
	uint32_t stack;
	int64_t count, children;
	size_t node; /* in `nodes` */
	uint64_t line;
};

struct node {
	uint32_t stack;
	int64_t self;
};

struct reader {
	struct lines lines;
	struct model *m;
	struct ancestor *path; /* path[d]: the last node read at depth d */
	size_t depth, cap_path; /* depth: how many of path are live */
	uint64_t n_read;
	/* The current top-level tree, in file order, until it closes. */
	struct node *nodes;
	size_t n_nodes, cap_nodes;
};

/* Takes the next line; checks what every line of a tree must be. */
static int next_line(struct reader *r, const char **s, size_t *len)
{
	int rc = lines_next(&r->lines, s, len);
	if (rc <= 0)
		return rc;
	if (memchr(*s, '\r', *len))
		return lines_fail(&r->lines, "carriage return inside a line");
	if (!utf8_valid((const unsigned char *)*s, *len))
		return lines_fail(&r->lines, "not valid UTF-8");
	return 1;
}

static int read_header(struct reader *r, const char *s, size_t len)
{
	size_t marker = strlen(LISPWORKS_MARKER);
	int found = 0;
	for (size_t i = 0; !found && i + marker <= len; i++)
		found = memcmp(s + i, LISPWORKS_MARKER, marker) == 0;
	if (!found)
		return lines_fail(&r->lines, "no \"%s\" on the first line", LISPWORKS_MARKER);
	const char *colon = memchr(s, ':', len);
	const char *name = colon ? colon + 1 : s + len, *end = s + len;
	while (name < end && *name == ' ')
		name++;
	while (end > name && end[-1] == ' ')
		end--;
	model_add_meta(r->m, model_str(r->m, "tree_name", 9), model_str(r->m, name, (size_t)(end - name)));
	return 0;
}

/* An integer field: ASCII digits only, at most 2^63-1. */
static int integer(struct reader *r, const char *s, size_t len, const char *what,
		   int64_t *value)
{
	*value = 0;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return lines_fail(&r->lines,
					  "%s is '%.*s', not an integer", what, (int)(len > 40 ? 40 : len), s);
		if (checked_mul_i64(*value, 10, value) || checked_add_i64(*value, s[i] - '0', value))
			return lines_fail(&r->lines, "%s is larger than 2^63-1", what);
	}
	if (len == 0)
		return lines_fail(&r->lines, "%s is empty, not an integer", what);
	return 0;
}

static const char *const field_names[5] = { "Depth", "Count", "Call-Count", "Seen-Count",
					     "Top-Count" };

/* Splits on the first five '|': five integers, then the name, verbatim. */
static int split(struct reader *r, const char *s, size_t len, int64_t fields[5],
		 const char **name, size_t *name_len)
{
	size_t start = 0;
	for (int k = 0; k < 5; k++) {
		const char *bar = memchr(s + start, '|', len - start);
		if (!bar)
			return lines_fail(&r->lines, "only %d '|'-separated fields (6 needed: "
					  "Depth|Count|Call-Count|Seen-Count|Top-Count|Name)", k + 1);
		if (integer(r, s + start, (size_t)(bar - s) - start, field_names[k], &fields[k]) < 0)
			return -1;
		start = (size_t)(bar - s) + 1;
	}
	*name = s + start;
	*name_len = len - start;
	if (*name_len == 0)
		return lines_fail(&r->lines, "empty Name");
	return 0;
}

/* A function is its name: the function-info must repeat unchanged. */
static int function_of(struct reader *r, const char *name, size_t len, const int64_t fields[5],
		       uint32_t *function)
{
	struct model_function f = { 0 };
	f.name = f.system_name = model_str(r->m, name, len);
	*function = model_function(r->m, &f);
	struct model_function *known = &r->m->functions[*function];
	if (!known->tree.known) {
		known->tree.known = 1;
		known->tree.call_count = fields[2];
		known->tree.seen_count = fields[3];
		known->tree.top_count = fields[4];
	} else if (known->tree.call_count != fields[2] || known->tree.seen_count != fields[3] ||
		   known->tree.top_count != fields[4]) {
		return lines_fail(&r->lines, "function-info %" PRId64 "|%" PRId64 "|%" PRId64
				  " differs from the %" PRId64 "|%" PRId64 "|%" PRId64 " seen before for this name",
				  fields[2], fields[3], fields[4], known->tree.call_count, known->tree.seen_count,
				  known->tree.top_count);
	}
	return 0;
}

/* The node at depth `depth` is done: its self count is now known. */
static void close_node(struct reader *r, size_t depth)
{
	struct ancestor *a = &r->path[depth];
	r->nodes[a->node].self = a->count - a->children;
	if (depth > 0)
		return;
	for (size_t i = 0; i < r->n_nodes; i++)
		model_add_sample(r->m, r->nodes[i].stack, &r->nodes[i].self, NULL, 0);
	r->n_nodes = 0;
}

static int read_node(struct reader *r, const char *s, size_t len)
{
	int64_t fields[5];
	const char *name = NULL;
	size_t name_len = 0;
	uint32_t function;
	if (split(r, s, len, fields, &name, &name_len) < 0)
		return -1;
	int64_t depth = fields[0], count = fields[1];
	if (r->depth == 0 && depth != 0)
		return lines_fail(&r->lines, "the first node is at depth %" PRId64 ", not 0", depth);
	if ((uint64_t)depth > r->depth)
		return lines_fail(&r->lines, "depth jumps from %zu to %" PRId64 " (a node may be at most one level "
				  "deeper than the previous node)", r->depth - 1, depth);
	while (r->depth > (size_t)depth)
		close_node(r, --r->depth);
	if (depth > 0) {
		struct ancestor *parent = &r->path[depth - 1];
		int64_t children;
		if (checked_add_i64(parent->children, count, &children))
			return lines_fail(&r->lines,
					  "children of line %" PRIu64 " sum past 2^63-1, above its Count %" PRId64,
					  parent->line, parent->count);
		if (children > parent->count)
			return lines_fail(&r->lines,
					  "children of line %" PRIu64 " sum to %" PRId64 ", above its Count %" PRId64,
					  parent->line, children, parent->count);
		parent->children = children;
	}
	if (function_of(r, name, name_len, fields, &function) < 0)
		return -1;
	struct model_location l = { .function = function,
				    .native = { .id = ++r->n_read, .mapping = MODEL_NONE } };
	uint32_t caller = depth > 0 ? r->path[depth - 1].stack : MODEL_EMPTY_STACK;
	uint32_t stack = model_stack(r->m, model_add_location(r->m, &l, NULL, 0), caller);
	grow((void **)&r->nodes, &r->cap_nodes, r->n_nodes + 1, sizeof *r->nodes);
	r->nodes[r->n_nodes] = (struct node){ stack, 0 };
	grow((void **)&r->path, &r->cap_path, (size_t)depth + 1, sizeof *r->path);
	r->path[depth] = (struct ancestor){ stack, count, 0, r->n_nodes++, lines_number(&r->lines) };
	r->depth = (size_t)depth + 1;
	return 0;
}

int lispworks_read(struct input *in, struct model *m)
{
	struct reader r;
	const char *s;
	size_t len;
	int rc;
	memset(&r, 0, sizeof r);
	r.m = m;
	lines_begin(&r.lines, in);
	/* Every node its own location and row, in file order. */
	m->rules = (struct model_rules){ .strict_r = 1, .keep_rows_apart = 1, .tree_nodes = 1 };
	model_add_sample_type(m, "samples", "count");
	if ((rc = next_line(&r, &s, &len)) == 0)
		diag_error(in->name, 0, "empty input");
	/* Without a header, nothing after it can be read as a tree. */
	int failed = rc <= 0 || read_header(&r, s, len) < 0;
	int go_on = !failed;
	while (go_on && (rc = next_line(&r, &s, &len)) != 0) {
		if (rc > 0 && len == 0)
			rc = lines_fail(&r.lines, "blank line");
		else if (rc > 0 && s[0] != ';')
			rc = read_node(&r, s, len);
		failed |= rc < 0;
		go_on = rc >= 0 || lines_go_on(&r.lines);
	}
	while (!failed && r.depth > 0)
		close_node(&r, --r.depth);
	free(r.path);
	free(r.nodes);
	return failed ? -1 : 0;
}
