/*
 * The validator: the rules of R's validate_profile (profile package,
 * restated in docs/model.md) plus the ones our extra tables need, bent by
 * model.rules. Every profile read is checked before any writer sees it,
 * and a merge of several once more, so a bug in one reader cannot become
 * a corrupt file in another format.
 */
#include "model.h"

#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "../base/diag.h"
#include "../base/alloc.h"
#include "../base/numtext.h"

struct check {
	const struct model *m;
	const char *source;
	size_t problems;
};

__attribute__((format(printf, 2, 3)))
static void problem(struct check *c, const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	diag_error(c->source, 0, "invalid profile: %s", msg);
	c->problems++;
}

static void check_meta_and_types(struct check *c)
{
	const struct model *m = c->m;
	uint32_t version = model_get_meta(m, "version");
	if (version == HASHIDX_NONE || !model_str_is(m, version, "1.0"))
		problem(c, "meta has no version 1.0");
	if (m->n_sample_types == 0) {
		if (m->rules.strict_r || m->n_rows)
			problem(c, "no sample types");
	} else if (m->rules.strict_r && (!model_str_is(m, m->sample_types[0].type, "samples") ||
				   !model_str_is(m, m->sample_types[0].unit, "count"))) {
		problem(c, "first sample type is not samples/count");
	}
	for (size_t i = 0; i < m->n_sample_types; i++)
		if (m->sample_types[i].decimals > DECIMALS_MAX)
			problem(c, "sample type %zu has %u decimals, more than %d", i,
				m->sample_types[i].decimals, DECIMALS_MAX);
	for (size_t i = 0; i < m->n_meta; i++)
		if (m->meta[i].key >= m->strings.count || m->meta[i].value >= m->strings.count)
			problem(c, "meta row %zu names a missing string", i);
}

static void check_functions(struct check *c)
{
	const struct model *m = c->m;
	for (size_t i = 0; i < m->n_functions; i++) {
		const struct model_function *f = &m->functions[i];
		if (f->name >= m->strings.count || f->system_name >= m->strings.count ||
		    f->file_name >= m->strings.count)
			problem(c, "function %zu names a missing string", i);
		else if (m->rules.strict_r && (f->name == 0 || f->system_name == 0))
			problem(c, "function %zu has an empty name", i);
		/* Go reads any start line (Julia's PProf.jl writes -1); R's rules do not. */
		if (f->start_line < 0 && m->rules.strict_r)
			problem(c, "function %zu has a negative start line", i);
	}
}

static void check_locations(struct check *c)
{
	const struct model *m = c->m;
	for (size_t i = 0; i < m->n_locations; i++) {
		const struct model_location *l = &m->locations[i];
		if (l->function != MODEL_NONE && l->function >= m->n_functions)
			problem(c, "location %zu names missing function %u", i, l->function);
		if (l->line < 0 && m->rules.strict_r)
			problem(c, "location %zu has a negative line", i);
		if (l->native.mapping != MODEL_NONE && l->native.mapping >= m->native.n_mappings)
			problem(c, "location %zu names missing mapping %u", i, l->native.mapping);
		if ((uint64_t)l->first_inlined + l->n_inlined > m->n_inlined) {
			problem(c, "location %zu has inlined lines out of range", i);
			continue;
		}
		for (uint32_t k = 0; k < l->n_inlined; k++)
			if (m->inlined[l->first_inlined + k].function >= m->n_functions)
				problem(c, "location %zu has an inlined line with no function", i);
	}
	for (size_t i = 0; i < m->native.n_mappings; i++)
		if (m->native.mappings[i].filename >= m->strings.count ||
		    m->native.mappings[i].build_id >= m->strings.count)
			problem(c, "mapping %zu names a missing string", i);
}

static void check_labels(struct check *c)
{
	const struct model *m = c->m;
	for (size_t i = 0; i < m->n_label_sets; i++)
		if ((uint64_t)m->label_sets[i].first + m->label_sets[i].count > m->n_labels)
			problem(c, "label set %zu is out of range", i);
	for (size_t i = 0; i < m->n_labels; i++) {
		const struct model_label *l = &m->labels[i];
		if (l->key >= m->strings.count || l->str >= m->strings.count ||
		    l->num_unit >= m->strings.count)
			problem(c, "label %zu names a missing string", i);
	}
}

/* A truncated frame is what was left when R stopped writing: outermost only. */
static void check_stacks(struct check *c)
{
	const struct model *m = c->m;
	for (size_t i = 1; i < m->n_stacks; i++) {
		const struct model_stack_node *s = &m->stacks[i];
		if (s->location >= m->n_locations) {
			problem(c, "stack %zu names missing location %u", i, s->location);
			continue;
		}
		if (s->caller >= i)
			problem(c, "stack %zu has caller %u that is not older", i, s->caller);
		const struct model_location *l = &m->locations[s->location];
		if (l->function != MODEL_NONE && l->function < m->n_functions &&
		    m->functions[l->function].truncated &&
		    s->caller != MODEL_EMPTY_STACK)
			problem(c, "stack %zu has a truncated frame that is not outermost", i);
	}
}

static void check_runs(struct check *c)
{
	const struct model *m = c->m;
	for (size_t i = 0; i < m->sessions.n_runs; i++) {
		uint32_t first = m->sessions.runs[i].first_row;
		if ((i == 0 && first != 0) || (i > 0 && first < m->sessions.runs[i - 1].first_row) ||
		    first > m->n_rows)
			problem(c, "run %zu starts at row %u out of order", i, first);
	}
	for (size_t i = 0; i < m->sessions.n_files; i++) {
		const struct model_source_file *f = &m->sessions.files[i];
		if (f->run >= m->sessions.n_runs) {
			problem(c, "source file %zu belongs to missing run %u", i, f->run);
			continue;
		}
		uint32_t end = f->run + 1 < m->sessions.n_runs ? m->sessions.runs[f->run + 1].first_row
						      : (uint32_t)m->n_rows;
		if (f->before_row < m->sessions.runs[f->run].first_row || f->before_row > end)
			problem(c, "source file %zu is placed outside its run", i);
		if (f->path >= m->strings.count)
			problem(c, "source file %zu names a missing string", i);
	}
}

static void check_row(struct check *c, const struct model_row *r)
{
	const struct model *m = c->m;
	if (r->repeat == 0)
		problem(c, "sample %zu has value 0", r->index);
	if (r->stack >= m->n_stacks)
		problem(c, "sample %zu names missing stack %u", r->index, r->stack);
	if (r->labels >= m->n_label_sets)
		problem(c, "sample %zu names missing label set %u", r->index, r->labels);
}

/* |a| added to *sum, or 0 when the sum would pass 2^63-1. */
static int add_magnitude(uint64_t *sum, int64_t a)
{
	uint64_t mag = a < 0 ? (uint64_t)0 - (uint64_t)a : (uint64_t)a;
	return !__builtin_add_overflow(*sum, mag, sum) && *sum <= INT64_MAX;
}

/* Adds a row's values times its repeat to the per-type sums; 0 on overflow. */
static int add_row_values(const struct model *m, const struct model_row *r, uint64_t *sums)
{
	for (size_t t = 0; t < m->n_sample_types; t++) {
		int64_t v;
		if (r->repeat > INT64_MAX || __builtin_mul_overflow(r->values[t], (int64_t)r->repeat, &v) ||
		    !add_magnitude(&sums[t], v))
			return (int)t + 1;
	}
	return 0;
}

static int add_cpu_time(const struct model *m, const struct model_row *r, uint64_t *cpu)
{
	int64_t ticks, ns;
	return r->run < m->sessions.n_runs && r->repeat <= INT64_MAX &&
	       !__builtin_mul_overflow(r->values[0], (int64_t)r->repeat, &ticks) &&
	       !__builtin_mul_overflow(ticks, (int64_t)m->sessions.runs[r->run].interval_us * 1000, &ns) &&
	       add_magnitude(cpu, ns);
}

static int memory_fits(const struct model_memory *mem)
{
	uint64_t small, big, total;
	return !__builtin_mul_overflow(mem->small_v, 8, &small) &&
	       !__builtin_mul_overflow(mem->big_v, 8, &big) &&
	       !__builtin_add_overflow(small, big, &total) &&
	       !__builtin_add_overflow(total, mem->nodes, &total) && total <= INT64_MAX;
}

/*
 * Each row's references, and the sums every writer makes: per type, the
 * total magnitude of value x repeat must fit in 63 bits, and so must an
 * Rprof profile's CPU time and each sample's memory total. Checked once
 * here, in one pass over the rows, no later sum can overflow.
 */
static void check_rows(struct check *c)
{
	const struct model *m = c->m;
	/* Each row passed as it came (rows_check): reading them again finds nothing more. */
	if (!m->rows.unsure && !m->sessions.n_runs && !m->sessions.has_memory)
		return;
	uint64_t *sums = xcalloc(m->n_sample_types + 1, sizeof *sums);
	uint64_t cpu = 0;
	/* Sums only of a profile with no other problem; each overflow reported once. */
	int summing = c->problems == 0;
	int types_ok = 1, cpu_ok = m->sessions.n_runs && m->n_sample_types, memory_ok = m->sessions.has_memory;
	size_t problems_before = c->problems;
	struct row_cursor rows;
	rows_begin(m, &rows);
	for (const struct model_row *r; c->problems <= 20 && (r = rows_next(&rows));) {
		check_row(c, r);
		summing &= c->problems == problems_before;
		if (!summing)
			continue;
		int bad_type = types_ok ? add_row_values(m, r, sums) : 0;
		if (bad_type) {
			problem(c, "sample type %s sums past 2^63",
				model_cstr(m, m->sample_types[bad_type - 1].type));
			types_ok = 0;
		}
		if (cpu_ok && !add_cpu_time(m, r, &cpu)) {
			problem(c, "CPU time (ticks x interval) sums past 2^63 nanoseconds");
			cpu_ok = 0;
		}
		if (memory_ok && !memory_fits(&r->memory)) {
			problem(c, "sample %zu: memory of 8*small_v + 8*big_v + nodes passes 2^63 bytes",
				r->index);
			memory_ok = 0;
		}
		problems_before = c->problems;
	}
	rows_end(&rows);
	free(sums);
}

size_t model_validate(const struct model *m, const char *source)
{
	struct check c = { m, source, 0 };
	check_meta_and_types(&c);
	check_functions(&c);
	check_locations(&c);
	check_stacks(&c);
	check_labels(&c);
	check_runs(&c);
	check_rows(&c);
	return c.problems;
}
