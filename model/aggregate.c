#include "aggregate.h"

#include "alloc.h"

struct name_ticks *aggregate_by_name(struct view *v, size_t type, size_t *count)
{
	const struct model *m = v->m;
	int64_t *values = xmalloc((v->n_types + 1) * sizeof *values);
	/* Indexed by string id: where each name's entry is, and the last row it was counted in. */
	uint32_t *entry_of = xmalloc(m->strings.count * sizeof *entry_of);
	size_t *counted_in = xmalloc(m->strings.count * sizeof *counted_in);
	for (size_t i = 0; i < m->strings.count; i++) {
		entry_of[i] = MODEL_NONE;
		counted_in[i] = SIZE_MAX;
	}
	struct name_ticks *out = NULL;
	size_t n = 0, cap = 0;
	struct model_frame *frames = NULL;
	size_t cap_frames = 0;
	struct row_cursor rows;
	rows_begin(m, &rows);
	for (const struct model_row *row; (row = rows_next(&rows));) {
		size_t r = row->index;
		view_values(v, row, values);
		int64_t ticks = values[type];
		if (values[type] == 0)
			continue;
		size_t n_frames = model_stack_frames(m, row->stack, &frames, &cap_frames);
		for (size_t k = 0; k < n_frames; k++) {
			if (frames[k].function == MODEL_NONE)
				continue;
			uint32_t name = m->functions[frames[k].function].name;
			if (entry_of[name] == MODEL_NONE) {
				grow((void **)&out, &cap, n + 1, sizeof *out);
				out[n] = (struct name_ticks){ name, 0, 0 };
				entry_of[name] = (uint32_t)n++;
			}
			struct name_ticks *e = &out[entry_of[name]];
			if (k == 0)
				e->self += ticks;
			if (counted_in[name] != r)
				e->total += ticks;
			counted_in[name] = r;
		}
	}
	rows_end(&rows);
	free(values);
	free(frames);
	free(entry_of);
	free(counted_in);
	*count = n;
	return out;
}
