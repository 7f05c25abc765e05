/*
 * diff (diff.h): go tool pprof's -diff_base, step for step (its driver's
 * fetch): with --normalize the profile is scaled, type by type, to the
 * base's totals; every base sample gets the label pprof::base=true, its
 * values times -1 (samples left all 0 go); the base is then merged in.
 */
#include "diff.h"

#include <stdlib.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/diag.h"
#include "merge.h"

static void totals(const struct model *m, double *sum)
{
	for (size_t t = 0; t < m->n_sample_types; t++)
		sum[t] = 0;
	struct row_cursor rows;
	rows_begin(m, &rows);
	for (const struct model_row *r; (r = rows_next(&rows));)
		for (size_t t = 0; t < m->n_sample_types; t++)
			sum[t] += (double)r->values[t] * (double)r->repeat;
	rows_end(&rows);
}

/* m copied through `edit` in its place. */
static void rewrite(struct model *m, const struct row_edit *edit)
{
	struct model copy;
	model_copy(&copy, m, edit);
	model_free(m);
	*m = copy;
}

static int same_types(const struct model *m, const struct model *base, const char *base_name)
{
	int same = m->n_sample_types == base->n_sample_types;
	for (size_t t = 0; same && t < m->n_sample_types; t++)
		same = strcmp(model_cstr(m, m->sample_types[t].type), model_cstr(base, base->sample_types[t].type)) == 0 &&
		       strcmp(model_cstr(m, m->sample_types[t].unit), model_cstr(base, base->sample_types[t].unit)) == 0;
	if (!same) {
		diag_error(base_name, 0, "cannot be the base: its sample types differ from the profile's "
					 "(prof -t summary shows both)");
		return 0;
	}
	if (!m->sessions.n_runs != !base->sessions.n_runs) {
		diag_error(base_name, 0, "cannot be the base: one profile is R's (runs of ticks) and the "
					 "other is not; convert both from the same kind of input");
		return 0;
	}
	return 1;
}

/* pprof's Normalize: the profile's values times the base's total over its own, type by type. */
static void normalize(struct model *m, const struct model *base)
{
	size_t n = m->n_sample_types;
	double *mine = xmalloc((n + 1) * sizeof *mine), *theirs = xmalloc((n + 1) * sizeof *theirs);
	totals(m, mine);
	totals(base, theirs);
	for (size_t t = 0; t < n; t++)
		mine[t] = mine[t] == 0 ? 0 : theirs[t] / mine[t];
	struct row_edit edit = { NULL, NULL, 0, UINT64_MAX, mine };
	rewrite(m, &edit);
	free(mine);
	free(theirs);
}

/* Every base sample labelled pprof::base=true and negated. */
static void mark_base(struct model *base)
{
	struct model_label mark = { model_str(base, DIFF_BASE_LABEL, strlen(DIFF_BASE_LABEL)),
				    model_str(base, "true", 4), 0, 0 };
	size_t n_sets = base->n_label_sets;
	uint32_t *marked = xmalloc(n_sets * sizeof *marked);
	struct model_label *labels = NULL;
	size_t cap = 0;
	for (size_t i = 0; i < n_sets; i++) {
		struct model_label_set set = base->label_sets[i];
		grow((void **)&labels, &cap, set.count + 1, sizeof *labels);
		size_t k = 0;
		for (uint32_t j = 0; j < set.count; j++)
			if (base->labels[set.first + j].key != mark.key) /* pprof's SetLabel replaces */
				labels[k++] = base->labels[set.first + j];
		labels[k++] = mark;
		marked[i] = model_label_set(base, labels, k);
	}
	free(labels);
	double *minus = xmalloc((base->n_sample_types + 1) * sizeof *minus);
	for (size_t t = 0; t < base->n_sample_types; t++)
		minus[t] = -1;
	struct row_edit edit = { NULL, marked, 0, UINT64_MAX, minus };
	rewrite(base, &edit);
	free(minus);
	free(marked);
}

int model_diff(struct model *m, struct model *base, int normalize_first, const char *base_name)
{
	if (!same_types(m, base, base_name))
		return -1;
	if (normalize_first)
		normalize(m, base);
	mark_base(base);
	/* Views title a difference by both sides' names (meta "diff_base"). */
	uint32_t source = model_get_meta(base, "source");
	const char *name = source == HASHIDX_NONE ? base_name : model_cstr(base, source);
	char *base_source = xmalloc(strlen(name) + 1);
	memcpy(base_source, name, strlen(name) + 1);
	int rc = model_merge(m, base, base_name);
	if (rc == 0)
		model_set_meta(m, "diff_base", base_source);
	free(base_source);
	return rc;
}

uint32_t model_diff_key(const struct model *m)
{
	uint32_t key = strtab_lookup(&m->strings, DIFF_BASE_LABEL, strlen(DIFF_BASE_LABEL));
	if (key == HASHIDX_NONE)
		return MODEL_NONE;
	for (size_t i = 0; i < m->n_labels; i++)
		if (m->labels[i].key == key)
			return key;
	return MODEL_NONE;
}

int model_is_base_sample(const struct model *m, uint32_t key, uint32_t label_set)
{
	const struct model_label_set *set = &m->label_sets[label_set];
	for (uint32_t j = 0; key != MODEL_NONE && j < set->count; j++)
		if (m->labels[set->first + j].key == key)
			return 1;
	return 0;
}
