/*
 * Unit tests of the model and the readers and writers, and helper modes
 * for the golden tests, which look at the model a reader built:
 *   unit by-name FILE          per-function ticks (name, self, total) of an
 *                              Rprof file, sorted by name: summaryRprof's view
 *   unit stacks FORMAT FILE    one line per sample row with a positive value
 *                              of the first type, in order: root;...;leaf VALUE
 *   unit labels FORMAT FILE    one line per sample row: its outermost frame,
 *                              its labels (KEY=NUM or KEY=STR, in order) and
 *                              the name of its first type with a value
 *   unit probes FILE           every reader's probe score for FILE (gzip
 *                              undone, as prof sniffs): FORMAT SCORE lines,
 *                              in the registry's order
 */
#include <stdlib.h>
#include <string.h>

#include "../../formats/format.h"
#include "../../io/input.h"
#include "../../model/aggregate.h"
#include "unit.h"

int unit_failures;

static int load(const char *format, const char *path, struct model *m)
{
	return format_read_file(path, format_by_name(format), m) ? 0 : -1;
}

int load_rprof(const char *path, struct model *m)
{
	return load("rprof", path, m);
}

static int print_stacks(const char *format, const char *path)
{
	struct model m;
	struct model_frame *frames = NULL;
	size_t cap = 0;
	if (load(format, path, &m) < 0)
		return 1;
	struct row_cursor rows;
	rows_begin(&m, &rows);
	for (const struct model_row *row; (row = rows_next(&rows));) {
		int64_t value = row->values[0] * (int64_t)row->repeat;
		if (value <= 0)
			continue;
		size_t n = model_stack_frames(&m, row->stack, &frames, &cap);
		for (size_t k = n; k-- > 0;) {
			struct model_name name;
			model_frame_name(&m, &frames[k], &name);
			printf("%.*s%s", (int)name.len, name.bytes, k ? ";" : "");
		}
		printf(" %lld\n", (long long)value);
	}
	rows_end(&rows);
	free(frames);
	model_free(&m);
	return 0;
}

static void print_row_labels(const struct model *m, const struct model_row *row,
			     struct model_frame **frames, size_t *cap)
{
	size_t n = model_stack_frames(m, row->stack, frames, cap);
	struct model_name name;
	if (n) {
		model_frame_name(m, &(*frames)[n - 1], &name);
		printf("%.*s", (int)name.len, name.bytes);
	}
	const struct model_label_set *set = &m->label_sets[row->labels];
	for (uint32_t i = 0; i < set->count; i++) {
		const struct model_label *l = &m->labels[set->first + i];
		if (l->str)
			printf(" %s=%s", model_cstr(m, l->key), model_cstr(m, l->str));
		else
			printf(" %s=%lld", model_cstr(m, l->key), (long long)l->num);
	}
	size_t t = 0;
	while (t + 1 < m->n_sample_types && row->values[t] == 0)
		t++;
	printf(" %s\n", m->n_sample_types ? model_cstr(m, m->sample_types[t].type) : "");
}

static int print_labels(const char *format, const char *path)
{
	struct model m;
	struct model_frame *frames = NULL;
	size_t cap = 0;
	if (load(format, path, &m) < 0)
		return 1;
	struct row_cursor rows;
	rows_begin(&m, &rows);
	for (const struct model_row *row; (row = rows_next(&rows));)
		print_row_labels(&m, row, &frames, &cap);
	rows_end(&rows);
	free(frames);
	model_free(&m);
	return 0;
}

struct model_row row_at(const struct model *m, size_t index, int64_t *value0)
{
	struct row_cursor rows;
	const struct model_row *r;
	struct model_row found = { 0 };
	rows_begin(m, &rows);
	while ((r = rows_next(&rows)) && r->index < index)
		;
	if (r) {
		found = *r;
		*value0 = m->n_sample_types ? r->values[0] : 0;
	}
	found.values = NULL;
	rows_end(&rows);
	return found;
}

int has_function_named(const struct model *m, const char *s)
{
	for (size_t i = 0; i < m->n_functions; i++) {
		const struct strtab_entry *e = strtab_get(&m->strings, m->functions[i].name);
		if (e->len == strlen(s) && memcmp(e->bytes, s, e->len) == 0)
			return 1;
	}
	return 0;
}

static const struct strtab *sort_names;

static int by_name_bytes(const void *a, const void *b)
{
	const struct strtab_entry *x = strtab_get(sort_names, ((const struct name_ticks *)a)->name);
	const struct strtab_entry *y = strtab_get(sort_names, ((const struct name_ticks *)b)->name);
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->bytes, y->bytes, n);
	return c ? c : (x->len > y->len) - (x->len < y->len);
}

static int print_by_name(const char *path)
{
	struct model m;
	if (load_rprof(path, &m) < 0)
		return 1;
	struct name_totals totals;
	struct view v;
	view_init(&v, &m);
	aggregate_by_name(&v, 0, &totals);
	struct name_ticks *t = totals.rows;
	sort_names = &totals.names;
	if (totals.n)
		qsort(t, totals.n, sizeof *t, by_name_bytes);
	for (size_t i = 0; i < totals.n; i++)
		printf("%s\t%llu\t%llu\n", strtab_get(&totals.names, t[i].name)->bytes,
		       (unsigned long long)t[i].self, (unsigned long long)t[i].total);
	name_totals_free(&totals);
	model_free(&m);
	return 0;
}

/* What format_sniff weighs, shown whole: test/conformance.sh wants the one winner to be the only bidder. */
static int print_probes(const char *path)
{
	struct input in;
	const unsigned char *prefix;
	if (input_open(&in, path) < 0)
		return 1;
	if (input_is_gzip(&in))
		input_gunzip(&in);
	long n = input_peek(&in, FORMAT_PROBE_BYTES, &prefix);
	for (size_t i = 0; n >= 0 && formats[i]; i++)
		if (formats[i]->read)
			printf("%s %d\n", formats[i]->name, (int)formats[i]->probe(prefix, (size_t)n));
	input_close(&in);
	return n < 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "by-name") == 0)
		return print_by_name(argv[2]);
	if (argc == 3 && strcmp(argv[1], "probes") == 0)
		return print_probes(argv[2]);
	if (argc == 4 && strcmp(argv[1], "stacks") == 0 && format_by_name(argv[2]))
		return print_stacks(argv[2], argv[3]);
	if (argc == 4 && strcmp(argv[1], "labels") == 0 && format_by_name(argv[2]))
		return print_labels(argv[2], argv[3]);
	const struct unit_test *suites[] = { model_tests, rprof_tests, callgraph_tests, units_tests, json_tests };
	int failed = 0;
	for (size_t i = 0; i < sizeof suites / sizeof *suites; i++)
		for (const struct unit_test *t = suites[i]; t->name; t++) {
			int before = unit_failures;
			t->run();
			printf("%s unit:%s\n", unit_failures == before ? "ok" : "FAIL", t->name);
			failed += unit_failures != before;
		}
	return failed ? 1 : 0;
}
