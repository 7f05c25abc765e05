/*
 * Folded stacks reader. Each line is one stack, root first, and a count.
 * Counts may have a fraction ("1.5"), kept exactly as a type's decimals.
 * Lines stay in order, as rows; equal neighbours merge as in any profile.
 *
 * A differential file (difffolded.pl, inferno's diff-folded) has two
 * counts on every line: "stack BEFORE AFTER". Whether every line has two
 * is known only at the end, and a file where some line has one is read
 * with the first count as the end of the leaf's name ("f 10"), so lines
 * are read that way, and a file whose every line had two is then remade
 * with two sample types from the leaves' names, which hold the first
 * count's bytes.
 *
 * What flamegraph.pl and inferno do without, prof does without too: blank
 * lines are skipped, comment lines ('#', '//') are kept as meta comments,
 * and a malformed line is skipped with a warning naming it (under --check
 * it is a problem). A count prof cannot hold exactly is an error.
 *
 * An empty file is an empty profile. Lines mostly share their callers and
 * differ at the leaf: the callers' text is looked up whole, so a line
 * interns one frame, not one per frame.
 */
#include <string.h>

#include "../base/alloc.h"
#include "../base/checked.h"
#include "../base/diag.h"
#include "../base/numtext.h"
#include "../io/lines.h"
#include "../model/textcache.h"
#include "folded.h"

struct reader {
	struct lines lines;
	struct model *m;
	struct text_cache callers;
	struct text_cache leaves; /* a leaf's name: its location */
	uint32_t comment;   /* the meta key "comment" */
	uint64_t counted;   /* lines with a stack read */
	int all_two;        /* every one of them had two counts so far */
};

/* The digits of s[0..len) as a number; 0 when it passes 2^63-1. */
static int digits_value(const char *s, size_t len, int64_t *v)
{
	*v = 0;
	for (size_t i = 0; i < len; i++)
		if (checked_mul_i64(*v, 10, v) || checked_add_i64(*v, s[i] - '0', v))
			return 0;
	return 1;
}

/*
 * The count in units of 10^-decimals (decimals >= its own); 0 when it
 * passes 2^63-1 there. At most 18 fraction digits: they fit, and so do
 * they scaled to DECIMALS_MAX.
 */
static int scaled_count(const struct folded_count *c, unsigned decimals, int64_t *v)
{
	int64_t fraction;
	digits_value(c->fraction, c->fraction_len, &fraction);
	fraction *= pow10_i64(decimals - (unsigned)c->fraction_len);
	return digits_value(c->whole, c->whole_len, v) && !checked_mul_i64(*v, pow10_i64(decimals), v) &&
	       !checked_add_i64(*v, fraction, v);
}

static int too_large(struct lines *in, unsigned decimals)
{
	if (decimals == 0)
		return lines_errorf(in, 0, "count larger than 2^63-1");
	return lines_errorf(in, 0, "count larger than (2^63-1)/10^%u, the most with %u decimals",
			    decimals, decimals);
}

/* A count in units of 10^-decimals of its type, which gains decimals when the count has more. */
static int count_value(struct reader *r, const struct folded_count *c, int64_t *value)
{
	struct model *m = r->m;
	if (c->fraction_len > DECIMALS_MAX)
		return lines_errorf(&r->lines, 0, "count with more than %d decimals", DECIMALS_MAX);
	unsigned decimals = m->sample_types[0].decimals;
	if (c->fraction_len > decimals) {
		if (model_add_decimals(m, 0, (unsigned)c->fraction_len - decimals) < 0)
			return lines_errorf(&r->lines, 0, "in units of 10^-%zu, as this count needs, the "
							  "counts before it pass 2^63-1", c->fraction_len);
		decimals = (unsigned)c->fraction_len;
	}
	return scaled_count(c, decimals, value) ? 0 : too_large(&r->lines, decimals);
}

/*
 * Does the stack s[0..len) end in a count that a differential line's
 * first count would be, with a frame before it?
 */
static int first_count(const char *s, size_t len)
{
	struct folded_count c;
	size_t at = folded_count_at(s, len, &c);
	int64_t v;
	if (!at || s[at - 2] == ';')
		return 0;
	/* One prof could not hold is no count: the line's leaf is a name ending in digits. */
	return c.fraction_len <= DECIMALS_MAX && scaled_count(&c, (unsigned)c.fraction_len, &v);
}

static int has_empty_frame(const char *s, size_t len)
{
	if (len == 0 || s[0] == ';' || s[len - 1] == ';')
		return 1;
	for (const char *p = s; (p = memchr(p, ';', (size_t)(s + len - p))) != NULL; p++)
		if (p[1] == ';')
			return 1;
	return 0;
}

/* The location of the function named name[0..len). */
static uint32_t location_named(struct model *m, const char *name, size_t len)
{
	struct model_function f = { 0 };
	f.name = f.system_name = model_str(m, name, len);
	return model_location(m, model_function(m, &f), 0);
}

/* Interns the frames of s[from..to), root first, onto *stack; none of them empty. */
static void push_frames(struct model *m, const char *s, size_t from, size_t to, uint32_t *stack)
{
	for (size_t start = from; start <= to;) {
		const char *semi = memchr(s + start, ';', to - start);
		size_t end = semi ? (size_t)(semi - s) : to;
		*stack = model_stack(m, location_named(m, s + start, end - start), *stack);
		start = end + 1;
	}
}

static int read_stack(struct reader *r, const char *s, size_t len)
{
	struct lines *in = &r->lines;
	struct folded_count count;
	size_t stack_len = folded_count_at(s, len, &count) - 1, leaf = stack_len;
	while (leaf > 0 && s[leaf - 1] != ';')
		leaf--;
	uint64_t hash = 0;
	uint32_t callers = MODEL_EMPTY_STACK;
	if (leaf > 0)
		callers = text_cache_find(&r->callers, s, leaf - 1, &hash);
	if (leaf == stack_len || (callers == HASHIDX_NONE && has_empty_frame(s, leaf - 1)))
		return lines_skip(in, "empty frame name", s, len);
	int64_t value;
	if (count_value(r, &count, &value) < 0)
		return -1;
	r->all_two = r->all_two && first_count(s, stack_len);
	r->counted++;
	if (callers == HASHIDX_NONE) {
		callers = MODEL_EMPTY_STACK;
		push_frames(r->m, s, 0, leaf - 1, &callers);
		text_cache_add(&r->callers, hash, s, leaf - 1, callers);
	}
	uint32_t location = text_cache_find(&r->leaves, s + leaf, stack_len - leaf, &hash);
	if (location == HASHIDX_NONE) {
		location = location_named(r->m, s + leaf, stack_len - leaf);
		text_cache_add(&r->leaves, hash, s + leaf, stack_len - leaf, location);
	}
	model_add_sample(r->m, model_stack(r->m, location, callers), &value, NULL, 0);
	return 0;
}

/* The differential file remade: the model read with one count, and what becomes of each stack. */
struct remake {
	const struct model *m;
	struct model *d;
	uint32_t *location_of_function; /* by m's function: d's location of its name; MODEL_NONE until made */
	uint32_t *plain;        /* by m's stack used as a caller: d's stack of the same names */
	struct split {
		uint32_t stack;     /* d's stack: the leaf without its first count; 0 until made */
		struct folded_count before;
	} *split;               /* by m's stack of a row */
};

static uint32_t copy_str(struct remake *x, uint32_t id)
{
	const struct strtab_entry *e = strtab_get(&x->m->strings, id);
	return model_str(x->d, e->bytes, e->len);
}

static uint32_t location_of(struct remake *x, uint32_t stack)
{
	uint32_t f = x->m->locations[x->m->stacks[stack].location].function;
	if (x->location_of_function[f] == MODEL_NONE) {
		const struct strtab_entry *e = strtab_get(&x->m->strings, x->m->functions[f].name);
		x->location_of_function[f] = location_named(x->d, e->bytes, e->len);
	}
	return x->location_of_function[f];
}

/* d's stacks for m's stacks that are callers (a caller is older than its callees). */
static void map_callers(struct remake *x)
{
	const struct model *m = x->m;
	uint8_t *is_caller = xcalloc(m->n_stacks, 1);
	for (size_t s = 1; s < m->n_stacks; s++)
		is_caller[m->stacks[s].caller] = 1;
	for (size_t s = 1; s < m->n_stacks; s++)
		if (is_caller[s])
			x->plain[s] = model_stack(x->d, location_of(x, (uint32_t)s), x->plain[m->stacks[s].caller]);
	free(is_caller);
}

/* Splits the leaf of stack s, once: "f 10" is the frame f and the first count 10. */
static const struct split *split_leaf(struct remake *x, uint32_t s)
{
	struct split *sp = &x->split[s];
	if (sp->stack)
		return sp;
	const struct model *m = x->m;
	uint32_t f = m->locations[m->stacks[s].location].function;
	const struct strtab_entry *e = strtab_get(&m->strings, m->functions[f].name);
	size_t at = folded_count_at(e->bytes, e->len, &sp->before);
	sp->stack = model_stack(x->d, location_named(x->d, e->bytes, at - 1), x->plain[m->stacks[s].caller]);
	return sp;
}

/* The rows again, with both counts; -1 after reporting a first count past 2^63-1. */
static int remake_rows(struct remake *x, const char *name)
{
	unsigned decimals = 0;
	struct row_cursor rows;
	rows_begin(x->m, &rows);
	for (const struct model_row *row; (row = rows_next(&rows));) {
		const struct split *sp = split_leaf(x, row->stack);
		if (sp->before.fraction_len > decimals)
			decimals = (unsigned)sp->before.fraction_len;
	}
	rows_end(&rows);
	x->d->sample_types[0].decimals = (uint8_t)decimals;
	int fits = 1;
	rows_begin(x->m, &rows);
	for (const struct model_row *row; fits && (row = rows_next(&rows));) {
		int64_t values[2] = { 0, row->values[0] };
		const struct split *sp = split_leaf(x, row->stack);
		fits = scaled_count(&sp->before, decimals, &values[0]);
		model_add_samples(x->d, sp->stack, values, NULL, 0, row->repeat, 0);
	}
	rows_end(&rows);
	if (!fits)
		diag_error(name, 0, "first counts larger than (2^63-1)/10^%u, the most with %u decimals",
			   decimals, decimals);
	return fits ? 0 : -1;
}

/*
 * Remakes m, read with one count and every leaf ending in a first count,
 * as the differential profile it is: sample types before (the first
 * counts) and after (the lines' counts). -1 after reporting.
 */
static int folded_differential(struct model *m, const char *name)
{
	struct model d;
	model_init(&d);
	d.rules = m->rules;
	struct remake x = { m, &d, xmalloc((m->n_functions + 1) * sizeof *x.location_of_function),
			    xcalloc(m->n_stacks, sizeof *x.plain), xcalloc(m->n_stacks, sizeof *x.split) };
	memset(x.location_of_function, 0xff, (m->n_functions + 1) * sizeof *x.location_of_function);
	/* Meta row 0 is the version, which d has already. */
	for (size_t i = 1; i < m->n_meta; i++)
		model_add_meta(&d, copy_str(&x, m->meta[i].key), copy_str(&x, m->meta[i].value));
	for (size_t t = 0; t < 2; t++)
		model_add_sample_type(&d, folded_differential_types[t], "count");
	d.sample_types[1].decimals = m->sample_types[0].decimals;
	map_callers(&x);
	int rc = remake_rows(&x, name);
	free(x.location_of_function);
	free(x.plain);
	free(x.split);
	model_free(m);
	*m = d;
	return rc;
}

static int read_line(struct reader *r, const char *s, size_t len)
{
	switch (folded_line_kind(s, len)) {
	case FOLDED_BLANK:
		return 0;
	case FOLDED_COMMENT:
		model_add_meta(r->m, r->comment, model_str(r->m, s, len));
		return 0;
	case FOLDED_COUNTED:
		return read_stack(r, s, len);
	default:
		return lines_skip(&r->lines, "not 'frame;frame;... COUNT': no count after the last space",
				  s, len);
	}
}

int folded_read(struct input *in, struct model *m)
{
	const char *s;
	size_t len;
	int rc;
	struct reader r;
	memset(&r, 0, sizeof r);
	r.m = m;
	r.all_two = 1;
	r.comment = model_str(m, "comment", strlen("comment"));
	model_add_sample_type(m, "samples", "count");
	lines_begin(&r.lines, in);
	while ((rc = lines_next(&r.lines, &s, &len)) != 0)
		if ((rc < 0 || read_line(&r, s, len) < 0) && !lines_go_on(&r.lines))
			break;
	text_cache_free(&r.callers);
	text_cache_free(&r.leaves);
	lines_skips_counted(&r.lines);
	if (r.lines.failed)
		return -1;
	int differential = r.counted && r.all_two;
	/* R's rules hold, except that a differential file's two types are not samples/count. */
	m->rules = (struct model_rules){ .strict_r = !differential };
	/* No lines is an empty profile: what the writer makes of one. */
	return differential ? folded_differential(m, in->name) : 0;
}
