/*
 * Folded stacks writer: one line per distinct stack, in order of first
 * appearance, root first, with the summed integer weight of the chosen
 * sample type (--sample-type; default: samples for Rprof, else pprof's
 * default). Folded stacks have no escaping: a ';' inside a name becomes
 * ':', a line break a space, with a warning. Stacks with no weight, and
 * samples with an empty stack (which no line can hold), are left out;
 * the latter with a warning.
 */
#include <string.h>

#include "../io/diag.h"
#include "../model/alloc.h"
#include "../model/view.h"
#include "folded.h"

struct writer {
	const struct model *m;
	struct output *out;
	int64_t *weight_of; /* by stack id */
	uint32_t *order;    /* stacks in order of first appearance */
	size_t n_order, cap_order;
	struct model_frame *frames;
	size_t cap_frames;
	int changed_names;
	/*
	 * Each function's name as written, made once: a big profile writes
	 * the same few thousand names hundreds of millions of times.
	 */
	struct written_name {
		size_t offset, len;
	} *names; /* by function; len SIZE_MAX: not made yet */
	char *name_bytes;
	size_t n_name_bytes, cap_name_bytes;
};

/* The name with ';' and line breaks replaced, which folded stacks cannot hold. */
static struct written_name make_name(struct writer *w, const struct model_frame *fr)
{
	struct model_name name;
	model_frame_name(w->m, fr, &name);
	struct written_name made = { w->n_name_bytes, name.len };
	grow((void **)&w->name_bytes, &w->cap_name_bytes, w->n_name_bytes + name.len, 1);
	char *to = w->name_bytes + w->n_name_bytes;
	for (size_t i = 0; i < name.len; i++) {
		char c = name.bytes[i];
		if (c == ';' || c == '\n' || c == '\r') {
			w->changed_names = 1;
			c = c == ';' ? ':' : ' ';
		}
		to[i] = c;
	}
	w->n_name_bytes += name.len;
	return made;
}

static void write_name(struct writer *w, const struct model_frame *fr)
{
	if (fr->function == MODEL_NONE) {
		/* An address, named "0x..." on the fly: nothing to replace in it. */
		struct model_name name;
		model_frame_name(w->m, fr, &name);
		output_write(w->out, name.bytes, name.len);
		return;
	}
	struct written_name *n = &w->names[fr->function];
	if (n->len == SIZE_MAX)
		*n = make_name(w, fr);
	output_write(w->out, w->name_bytes + n->offset, n->len);
}

static void write_stack(struct writer *w, uint32_t stack)
{
	size_t n = model_stack_frames(w->m, stack, &w->frames, &w->cap_frames);
	for (size_t k = n; k-- > 0;) {
		write_name(w, &w->frames[k]);
		output_byte(w->out, k ? ';' : ' ');
	}
	output_u64(w->out, (uint64_t)w->weight_of[stack]);
	output_byte(w->out, '\n');
}

static int sum_weights(struct writer *w, struct view *v, size_t type, int64_t *values)
{
	uint64_t empty = 0;
	struct row_cursor rows;
	rows_begin(w->m, &rows);
	for (const struct model_row *row; (row = rows_next(&rows));) {
		view_values(v, row, values);
		uint32_t stack = row->stack;
		if (values[type] < 0) {
			diag_error(w->out->name, 0, "sample %zu has a negative value; folded stacks "
						    "cannot hold it", row->index);
			rows_end(&rows);
			return -1;
		}
		if (stack == MODEL_EMPTY_STACK) {
			empty += values[type] != 0;
			continue;
		}
		if (values[type] && !w->weight_of[stack]) {
			grow((void **)&w->order, &w->cap_order, w->n_order + 1, sizeof *w->order);
			w->order[w->n_order++] = stack;
		}
		w->weight_of[stack] += values[type];
	}
	rows_end(&rows);
	if (empty)
		diag_warn(w->out->name, 0, "%llu samples with an empty stack left out: no folded "
					   "line can hold them", (unsigned long long)empty);
	return 0;
}

int folded_write(const struct model *m, struct output *out, const struct write_options *opts)
{
	struct writer w;
	struct view v;
	size_t type = 0;
	memset(&w, 0, sizeof w);
	w.m = m;
	w.out = out;
	view_init(&v, m);
	if (m->n_rows && view_pick(&v, opts->sample_type, out->name, &type) < 0)
		return -1;
	int64_t *values = xmalloc((v.n_types + 1) * sizeof *values);
	w.weight_of = xcalloc(m->n_stacks, sizeof *w.weight_of);
	w.names = xmalloc((m->n_functions + 1) * sizeof *w.names);
	for (size_t i = 0; i < m->n_functions; i++)
		w.names[i].len = SIZE_MAX;
	int rc = sum_weights(&w, &v, type, values);
	for (size_t i = 0; rc == 0 && i < w.n_order; i++)
		write_stack(&w, w.order[i]);
	if (w.changed_names)
		diag_warn(out->name, 0, "names with ';' or a line break: written with ':' or a space, "
					"as folded stacks have no escaping");
	free(values);
	free(w.weight_of);
	free(w.names);
	free(w.name_bytes);
	free(w.order);
	free(w.frames);
	return rc;
}
