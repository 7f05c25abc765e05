#include "aggregate.h"

#include <stdlib.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/checked.h"
#include "diff.h"

struct counter {
	struct name_totals *out;
	size_t cap_rows;
	/* Entry of each function, and of each location without one; MODEL_NONE: not yet. */
	uint32_t *of_function, *of_location;
	uint32_t *of_name; /* by string id in out->names */
	size_t cap_of_name;
	size_t *counted_in; /* by entry: the last row it was counted in */
	size_t cap_counted;
};

/* The entry of a name, made when first seen. */
static uint32_t entry_of_name(struct counter *c, const char *bytes, size_t len)
{
	struct name_totals *out = c->out;
	uint32_t id = strtab_intern(&out->names, bytes, len);
	size_t old = c->cap_of_name;
	grow((void **)&c->of_name, &c->cap_of_name, (size_t)id + 1, sizeof *c->of_name);
	memset(c->of_name + old, 0xff, (c->cap_of_name - old) * sizeof *c->of_name);
	if (c->of_name[id] == MODEL_NONE) {
		grow((void **)&out->rows, &c->cap_rows, out->n + 1, sizeof *out->rows);
		grow((void **)&c->counted_in, &c->cap_counted, out->n + 1, sizeof *c->counted_in);
		out->rows[out->n] = (struct name_ticks){ id, 0, 0, 0, 0 };
		c->counted_in[out->n] = SIZE_MAX;
		c->of_name[id] = (uint32_t)out->n++;
	}
	return c->of_name[id];
}

static uint32_t entry_of_frame(struct counter *c, const struct model *m, const struct model_frame *fr)
{
	uint32_t *known = fr->function != MODEL_NONE ? &c->of_function[fr->function]
						     : &c->of_location[fr->location];
	if (*known != MODEL_NONE)
		return *known;
	if (fr->function != MODEL_NONE) {
		const struct strtab_entry *e = strtab_get(&m->strings, model_shown_name(m, fr->function));
		*known = entry_of_name(c, e->bytes, e->len);
	} else {
		struct model_name name;
		model_frame_name(m, fr, &name);
		*known = entry_of_name(c, name.bytes, name.len);
	}
	return *known;
}

static uint32_t *unknown_entries(size_t n)
{
	uint32_t *entries = xmalloc((n + 1) * sizeof *entries);
	memset(entries, 0xff, (n + 1) * sizeof *entries);
	return entries;
}

void aggregate_by_name(struct view *v, size_t type, struct name_totals *out)
{
	const struct model *m = v->m;
	struct counter c = { out, 0, unknown_entries(m->n_functions), unknown_entries(m->n_locations),
			     NULL, 0, NULL, 0 };
	int64_t *values = xmalloc((v->n_types + 1) * sizeof *values);
	struct model_frame *frames = NULL;
	size_t cap_frames = 0;
	memset(out, 0, sizeof *out);
	strtab_init(&out->names);
	struct row_cursor rows;
	rows_begin(m, &rows);
	for (const struct model_row *row; (row = rows_next(&rows));) {
		view_values(v, row, values);
		int64_t ticks = values[type];
		if (ticks == 0)
			continue;
		int base = model_is_base_sample(m, v->diff_key, row->labels);
		size_t n_frames = model_stack_frames(m, row->stack, &frames, &cap_frames);
		for (size_t k = 0; k < n_frames; k++) {
			uint32_t e = entry_of_frame(&c, m, &frames[k]);
			struct name_ticks *t = &out->rows[e];
			int first_in_row = c.counted_in[e] != row->index;
			t->self += k == 0 ? ticks : 0;
			t->total += first_in_row ? ticks : 0;
			t->base_self += base && k == 0 ? diff_base_count(ticks) : 0;
			t->base_total += base && first_in_row ? diff_base_count(ticks) : 0;
			c.counted_in[e] = row->index;
		}
	}
	rows_end(&rows);
	free(values);
	free(frames);
	free(c.of_function);
	free(c.of_location);
	free(c.of_name);
	free(c.counted_in);
}

void name_totals_free(struct name_totals *t)
{
	strtab_free(&t->names);
	free(t->rows);
	memset(t, 0, sizeof *t);
}

/* a + b, at most INT64_MAX: both are magnitudes. */
static int64_t saturated_add(int64_t a, int64_t b)
{
	int64_t sum;
	return checked_add_i64(a, b, &sum) ? INT64_MAX : sum;
}

static void sum_magnitudes(const struct model *m, int64_t *whole, int64_t *base)
{
	struct view v;
	view_init(&v, m);
	int64_t *values = xmalloc((v.n_types + 1) * sizeof *values);
	struct row_cursor rows;
	rows_begin(m, &rows);
	for (const struct model_row *row; (row = rows_next(&rows));) {
		view_values(&v, row, values);
		int is_base = model_is_base_sample(m, v.diff_key, row->labels);
		for (size_t t = 0; t < v.n_types; t++) {
			int64_t size = values[t] < 0 ? diff_base_count(values[t]) : values[t];
			whole[t] = saturated_add(whole[t], size);
			base[t] = is_base ? saturated_add(base[t], size) : base[t];
		}
	}
	rows_end(&rows);
	free(values);
}

int64_t *percent_totals(const struct model *m)
{
	struct view v;
	view_init(&v, m);
	int64_t *totals = xcalloc(v.n_types + 1, sizeof *totals);
	if (m->whole_totals) {
		memcpy(totals, m->whole_totals, v.n_types * sizeof *totals);
		return totals;
	}
	int64_t *base = xcalloc(v.n_types + 1, sizeof *base);
	sum_magnitudes(m, totals, base);
	for (size_t t = 0; t < v.n_types; t++)
		totals[t] = base[t] > 0 ? base[t] : totals[t];
	free(base);
	return totals;
}

int64_t percent_total(struct view *v, size_t type)
{
	int64_t *totals = percent_totals(v->m), total = totals[type];
	free(totals);
	return total;
}
