/* Unit tests of the model: interning, hash-consing, row merging, validation. */
#include <stdint.h>
#include <string.h>

#include "../../base/numtext.h"
#include "../../model/view.h"
#include "unit.h"

static void strings_are_interned_once(void)
{
	struct model m;
	model_init(&m);
	uint32_t a = model_str(&m, "lm.fit", 6);
	CHECK(a == model_str(&m, "lm.fit", 6));
	CHECK(a != model_str(&m, "lm_fit", 6));
	CHECK(model_str(&m, "", 0) == 0);
	uint32_t with_nul = model_str(&m, "a\0b", 3);
	CHECK(with_nul != model_str(&m, "a", 1));
	CHECK(strtab_get(&m.strings, with_nul)->len == 3);
	model_free(&m);
}

static uint32_t frame(struct model *m, const char *name)
{
	struct model_function f = { 0 };
	f.name = f.system_name = model_str(m, name, strlen(name));
	return model_location(m, model_function(m, &f), 0);
}

static void stacks_are_stored_once(void)
{
	struct model m;
	model_init(&m);
	uint32_t outer = model_stack(&m, frame(&m, "main"), MODEL_EMPTY_STACK);
	uint32_t a = model_stack(&m, frame(&m, "f"), outer);
	uint32_t b = model_stack(&m, frame(&m, "f"), model_stack(&m, frame(&m, "main"), 0));
	CHECK(a == b);
	CHECK(m.n_stacks == 3);
	CHECK(m.n_functions == 2 && m.n_locations == 2);
	model_free(&m);
}

static void setup_run(struct model *m)
{
	model_init(m);
	model_add_sample_type(m, "samples", "count");
	struct model_run run = { .interval_us = 20000 };
	model_add_run(m, &run);
}

static void consecutive_identical_samples_merge(void)
{
	struct model m;
	setup_run(&m);
	int64_t one = 1;
	uint32_t s = model_stack(&m, frame(&m, "f"), 0);
	uint32_t t = model_stack(&m, frame(&m, "g"), 0);
	model_add_sample(&m, s, &one, NULL, 0);
	model_add_sample(&m, s, &one, NULL, 0);
	model_add_sample(&m, t, &one, NULL, 0);
	model_add_sample(&m, s, &one, NULL, 0);
	CHECK(m.n_rows == 3);
	int64_t value;
	CHECK(row_at(&m, 0, &value).repeat == 2 && row_at(&m, 1, &value).repeat == 1 &&
	      row_at(&m, 2, &value).repeat == 1);
	/* A #File line between two samples keeps them apart, as does a new run. */
	model_add_source_file(&m, 1, model_str(&m, "x.R", 3));
	model_add_sample(&m, s, &one, NULL, 0);
	CHECK(m.n_rows == 4);
	struct model_run run = { .interval_us = 20000 };
	model_add_run(&m, &run);
	model_add_sample(&m, s, &one, NULL, 0);
	CHECK(m.n_rows == 5 && row_at(&m, 4, &value).run == 1);
	CHECK(model_validate(&m, "test") == 0);
	model_free(&m);
}

static void memory_samples_merge_only_when_equal(void)
{
	struct model m;
	setup_run(&m);
	int64_t one = 1;
	struct model_memory a = { 1, 2, 56, 0 }, b = { 1, 2, 112, 0 };
	model_add_sample(&m, 0, &one, &a, 0);
	model_add_sample(&m, 0, &one, &a, 0);
	model_add_sample(&m, 0, &one, &b, 0);
	int64_t value;
	CHECK(m.sessions.has_memory && m.n_rows == 2 && row_at(&m, 0, &value).repeat == 2);
	CHECK(row_at(&m, 1, &value).memory.nodes == 112);
	model_free(&m);
}

static void validator_finds_broken_models(void)
{
	struct model m;
	setup_run(&m);
	int64_t one = 1;
	struct model_function truncated = { .truncated = 1 };
	truncated.name = truncated.system_name = model_str(&m, "\"standardGen", 12);
	uint32_t cut = model_location(&m, model_function(&m, &truncated), 0);
	uint32_t outer = model_stack(&m, cut, 0);
	CHECK(model_validate(&m, "test") == 0);
	/* A truncated frame with a caller is not what R's line buffer leaves. */
	model_add_sample(&m, model_stack(&m, frame(&m, "f"), model_stack(&m, cut, outer)), &one, NULL, 0);
	CHECK(model_validate(&m, "test") == 1);
	model_free(&m);

	setup_run(&m);
	struct model_function empty = { 0 };
	model_location(&m, model_function(&m, &empty), 0);
	m.locations[0].line = -1;
	CHECK(model_validate(&m, "test") == 2);
	m.sample_types[0].type = model_str(&m, "cpu", 3);
	CHECK(model_validate(&m, "test") == 3);
	model_free(&m);
}

static void model_of_one_type(struct model *m)
{
	model_init(m);
	model_add_sample_type(m, "samples", "count");
}

/*
 * Rows are checked as they come (rows_check), so that the validator need
 * not read them again; where one may be wrong it does, and finds what it
 * always found.
 */
static void rows_are_checked_as_they_come(void)
{
	struct model m;
	int64_t half = INT64_MAX / 2 + 1, one = 1;
	model_of_one_type(&m);
	model_add_samples(&m, model_stack(&m, frame(&m, "f"), 0), &half, NULL, 0, 1, 0);
	CHECK(model_validate(&m, "test") == 0 && !m.rows.unsure);
	model_add_samples(&m, model_stack(&m, frame(&m, "g"), 0), &half, NULL, 0, 1, 0);
	CHECK(m.rows.unsure && model_validate(&m, "test") == 1); /* the type's sum passes 2^63 */
	model_free(&m);

	model_of_one_type(&m);
	uint32_t s = model_stack(&m, frame(&m, "f"), 0);
	model_add_samples(&m, s, &half, NULL, 0, 1, 0);
	model_add_samples(&m, s, &half, NULL, 0, 1, 0);
	CHECK(m.n_rows == 1 && model_validate(&m, "test") == 1); /* one row, whose repeat makes it pass */
	model_free(&m);

	model_of_one_type(&m);
	model_add_samples(&m, 1, &one, NULL, 0, 1, 0);
	CHECK(m.rows.unsure);
	model_stack(&m, frame(&m, "f"), 0); /* the stack the row named, made after it */
	CHECK(model_validate(&m, "test") == 0);
	model_add_samples(&m, 7, &one, NULL, 0, 1, 0);
	CHECK(model_validate(&m, "test") == 1); /* a stack never made */
	model_free(&m);
}

/* Rows past what stays in memory go to a file and come back as they were. */
static void rows_come_back_from_the_spill_file(void)
{
	struct model m;
	setup_run(&m);
	m.rules.keep_rows_apart = 1;
	uint32_t s = model_stack(&m, frame(&m, "f"), 0);
	const size_t n = 3000000, memory_from = 1000000, second_run = 2000000;
	for (size_t i = 0; i < n; i++) {
		int64_t value = (int64_t)i * 7 - 5;
		struct model_memory mem = { i, 2 * i, 3 * i, i };
		if (i == second_run) {
			struct model_run run = { .interval_us = 10000, .memory_profiling = 1 };
			model_add_run(&m, &run);
		}
		model_add_samples(&m, s, &value, i >= memory_from ? &mem : NULL, 0, i + 1, 0);
	}
	CHECK(m.rows.in_file > 0);
	struct row_cursor a, b;
	rows_begin(&m, &a);
	rows_begin(&m, &b);
	size_t seen = 0, wrong = 0;
	for (const struct model_row *r; (r = rows_next(&a)); seen++) {
		const struct model_row *same = rows_next(&b);
		size_t i = r->index;
		uint64_t small = i >= memory_from ? i : 0;
		wrong += i != seen || r->stack != s || r->repeat != i + 1 ||
			 r->values[0] != (int64_t)i * 7 - 5 || r->memory.small_v != small ||
			 r->memory.nodes != 3 * small || r->run != (i >= second_run) ||
			 !same || same->index != i || same->values[0] != r->values[0];
	}
	CHECK(seen == n && wrong == 0 && !rows_next(&b));
	rows_end(&a);
	rows_end(&b);
	model_free(&m);
}

static int decimal_is(int64_t v, unsigned decimals, int trim, const char *want)
{
	char text[DECIMAL_TEXT_MAX];
	size_t len = decimal_text(text, v, decimals, trim);
	return len == strlen(want) && strcmp(text, want) == 0;
}

static void decimals_are_written_exactly(void)
{
	CHECK(decimal_is(1500, 3, 1, "1.5") && decimal_is(1500, 3, 0, "1.500"));
	CHECK(decimal_is(5, 2, 1, "0.05") && decimal_is(0, 3, 1, "0") && decimal_is(0, 2, 0, "0.00"));
	CHECK(decimal_is(2000, 3, 1, "2") && decimal_is(-25, 1, 1, "-2.5") && decimal_is(42, 0, 1, "42"));
	CHECK(decimal_is(INT64_MIN, 18, 0, "-9.223372036854775808"));
	CHECK(decimal_is(INT64_MAX, 0, 0, "9223372036854775807"));
}

/* A stored value is 10^-decimals of its unit: 2.5 s at 1 decimal is 25, 3.75 ms at 2 is 375. */
static void decimals_scale_times(void)
{
	CHECK(25 * view_ns_per_value("seconds", 1) == 2.5e9);
	CHECK(375 * view_ns_per_value("milliseconds", 2) == 3.75e6);
	CHECK(7 * view_ns_per_value("nanoseconds", 0) == 7 && view_ns_per_value("microseconds", 3) == 1);
	CHECK(view_ns_per_value("bytes", 2) == 0 && view_ns_per_value("count", 0) == 0);
}

/* More decimals scale every row, spilled ones too; a value past 2^63 leaves all as it was. */
static void decimals_scale_every_row(void)
{
	struct model m;
	model_init(&m);
	model_add_sample_type(&m, "before", "count");
	model_add_sample_type(&m, "after", "count");
	uint32_t s = model_stack(&m, frame(&m, "f"), 0), t = model_stack(&m, frame(&m, "g"), 0);
	const size_t n = 1500000;
	for (size_t i = 0; i < n; i++) {
		int64_t values[2] = { (int64_t)i, 3 };
		model_add_samples(&m, i % 2 ? s : t, values, NULL, 0, 2, 0);
	}
	CHECK(m.rows.in_file > 0);
	CHECK(model_add_decimals(&m, 1, 2) == 0 && m.sample_types[1].decimals == 2);
	size_t wrong = 0, seen = 0;
	struct row_cursor rows;
	rows_begin(&m, &rows);
	for (const struct model_row *r; (r = rows_next(&rows)); seen++)
		wrong += r->values[0] != (int64_t)seen || r->values[1] != 300 || r->repeat != 2 ||
			 r->stack != (seen % 2 ? s : t);
	rows_end(&rows);
	CHECK(seen == n && wrong == 0 && m.n_rows == n);
	CHECK(model_add_decimals(&m, 0, 18) < 0 && m.sample_types[0].decimals == 0);
	int64_t last;
	CHECK(row_at(&m, n - 1, &last).repeat == 2 && last == (int64_t)n - 1);
	model_free(&m);
}

/*
 * Timed rows keep each time through the spill file and a new sample type;
 * equal samples merge only at the same time; dropping the times keeps the rest.
 */
/*
 * Rows taken back to a mark are as they were, wherever they went since (to
 * the file, merged into the row before): the JFR reader takes back a
 * chunk's samples when one goes back in time.
 */
static void rows_taken_back_are_as_they_were(void)
{
	struct model m;
	model_of_one_type(&m);
	m.timed_rows = 1;
	uint32_t f = model_stack(&m, frame(&m, "f"), 0), g = model_stack(&m, frame(&m, "g"), 0);
	const size_t before = 300000, after = 1000000;
	struct rows_mark mark;
	for (size_t i = 0; i < before + after; i++) {
		int64_t value;
		if (i == before) { /* then the row before the mark is merged into */
			rows_mark(&m, &mark);
			value = (int64_t)(before - 1) * 3;
			model_add_samples(&m, (before - 1) % 2 ? f : g, &value, NULL, 0, 1, (int64_t)(before - 1) * 1000);
		}
		value = (int64_t)i * 3;
		model_add_samples(&m, i % 2 ? f : g, &value, NULL, 0, 1, (int64_t)i * 1000);
	}
	CHECK(m.rows.in_file > mark.in_file && mark.used > 0 && m.n_rows == before + after);
	rows_take_back(&m, &mark);
	rows_mark_free(&mark);
	int64_t value = 7;
	model_add_samples(&m, f, &value, NULL, 0, 1, (int64_t)before * 1000);
	CHECK(m.n_rows == before + 1 && model_validate(&m, "test") == 0);
	size_t seen = 0, wrong = 0;
	struct row_cursor rows;
	rows_begin(&m, &rows);
	for (const struct model_row *r; (r = rows_next(&rows)); seen++)
		wrong += seen < before ? r->stack != (seen % 2 ? f : g) || r->values[0] != (int64_t)seen * 3 ||
						 r->time_ns != (int64_t)seen * 1000 || r->repeat != 1
				       : r->stack != f || r->values[0] != 7 || r->time_ns != (int64_t)before * 1000;
	rows_end(&rows);
	CHECK(seen == before + 1 && wrong == 0);
	model_free(&m);
}

static void timed_rows_keep_their_times(void)
{
	struct model m;
	model_init(&m);
	m.timed_rows = 1;
	model_add_sample_type(&m, "cpu", "nanoseconds");
	uint32_t s = model_stack(&m, frame(&m, "f"), 0);
	const size_t n = 1500000;
	int64_t ten = 10;
	for (size_t i = 0; i < n; i++) {
		model_add_samples(&m, s, &ten, NULL, 0, 1, (int64_t)i * 1000);
		model_add_samples(&m, s, &ten, NULL, 0, 1, (int64_t)i * 1000);
	}
	model_add_sample_type(&m, "wall", "nanoseconds");
	CHECK(m.rows.in_file > 0 && m.n_rows == n);
	size_t wrong = 0, seen = 0;
	struct row_cursor rows;
	rows_begin(&m, &rows);
	for (const struct model_row *r; (r = rows_next(&rows)); seen++)
		wrong += r->time_ns != (int64_t)seen * 1000 || r->repeat != 2 || r->values[0] != 10 || r->values[1] != 0;
	rows_end(&rows);
	CHECK(seen == n && wrong == 0);
	model_drop_times(&m);
	int64_t values[2];
	CHECK(!m.timed_rows && m.n_rows == n && row_at(&m, 1, values).time_ns == 0);
	CHECK(row_at(&m, n - 1, values).repeat == 2 && values[0] == 10);
	model_free(&m);
}

static uint32_t named_function(struct model *m, const char *name, const char *file, int64_t line)
{
	struct model_function f = { 0 };
	f.name = f.system_name = model_str(m, name, strlen(name));
	f.file_name = model_str(m, file, strlen(file));
	f.start_line = line;
	return model_function(m, &f);
}

static int shown_is(const struct model *m, uint32_t function, const char *want)
{
	return model_str_is(m, model_shown_name(m, function), want);
}

/* docs/model.md, "Frames, their identity and names". */
static void functions_of_one_name_are_shown_apart(void)
{
	struct model m;
	model_init(&m);
	uint32_t a = named_function(&m, "<module>", "a.py", 1), b = named_function(&m, "<module>", "b.py", 1);
	uint32_t no_line = named_function(&m, "f", "c.py", 0), no_file = named_function(&m, "f", "", 7);
	uint32_t unique = named_function(&m, "run", "a.py", 3), nowhere = named_function(&m, "f", "", 0);
	uint32_t only_placed = named_function(&m, "g", "a.py", 9), unplaced = named_function(&m, "g", "", 0);
	model_name_functions(&m);
	CHECK(shown_is(&m, a, "<module> (a.py:1)") && shown_is(&m, b, "<module> (b.py:1)"));
	CHECK(shown_is(&m, no_line, "f (c.py)") && shown_is(&m, no_file, "f (line 7)"));
	CHECK(shown_is(&m, unique, "run") && shown_is(&m, nowhere, "f"));
	CHECK(shown_is(&m, only_placed, "g") && shown_is(&m, unplaced, "g"));
	model_set_meta(&m, "format", "cpuprofile");
	model_name_functions(&m);
	CHECK(shown_is(&m, a, "<module> a.py:1") && shown_is(&m, no_file, "f line 7"));
	model_free(&m);
}

const struct unit_test model_tests[] = {
	{ "functions_of_one_name_are_shown_apart", functions_of_one_name_are_shown_apart },
	{ "timed_rows_keep_their_times", timed_rows_keep_their_times },
	{ "decimals_are_written_exactly", decimals_are_written_exactly },
	{ "decimals_scale_every_row", decimals_scale_every_row },
	{ "decimals_scale_times", decimals_scale_times },
	{ "rows_come_back_from_the_spill_file", rows_come_back_from_the_spill_file },
	{ "strings_are_interned_once", strings_are_interned_once },
	{ "stacks_are_stored_once", stacks_are_stored_once },
	{ "consecutive_identical_samples_merge", consecutive_identical_samples_merge },
	{ "memory_samples_merge_only_when_equal", memory_samples_merge_only_when_equal },
	{ "validator_finds_broken_models", validator_finds_broken_models },
	{ "rows_are_checked_as_they_come", rows_are_checked_as_they_come },
	{ "rows_taken_back_are_as_they_were", rows_taken_back_are_as_they_were },
	{ NULL, NULL },
};
