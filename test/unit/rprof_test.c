/*
 * Unit tests of the Rprof reader on R-written files: each checks one
 * loss of R's profile package (docs/formats/rprof.md) that prof must not have.
 */
#include <string.h>

#include "unit.h"

static uint64_t total_ticks(const struct model *m)
{
	uint64_t n = 0;
	struct row_cursor rows;
	rows_begin(m, &rows);
	for (const struct model_row *row; (row = rows_next(&rows));)
		n += row->repeat * (uint64_t)row->values[0];
	rows_end(&rows);
	return n;
}

static const char *innermost_name(const struct model *m, size_t row)
{
	int64_t value;
	uint32_t s = row_at(m, row, &value).stack;
	if (s == MODEL_EMPTY_STACK)
		return "";
	return model_cstr(m, m->functions[m->locations[m->stacks[s].location].function].name);
}

/* The profile package drops the innermost frame and all memory numbers. */
static void memory_prefix_is_parsed_and_kept(void)
{
	struct model m;
	CHECK(load_rprof("testdata/rprof/strings-memory.out", &m) == 0);
	CHECK(m.sessions.has_memory && m.sessions.runs[0].memory_profiling);
	CHECK(total_ticks(&m) == 50); /* every sample line; the package keeps 50 of them with damage */
	/* Line 2: ":189227:1016091:19911616:62:"nchar" "paste0" ... */
	int64_t value;
	struct model_row first = row_at(&m, 0, &value);
	CHECK(first.memory.small_v > 0 && first.memory.nodes % 56 == 0);
	CHECK(strcmp(innermost_name(&m, 0), "") != 0);
	model_free(&m);
}

static void interval_and_modes_are_kept(void)
{
	struct model m;
	CHECK(load_rprof("testdata/rprof/boot-memory-gc-line.out", &m) == 0);
	CHECK(m.sessions.n_runs == 1);
	CHECK(m.sessions.runs[0].interval_us == 5000);
	CHECK(m.sessions.runs[0].memory_profiling && m.sessions.runs[0].gc_profiling && m.sessions.runs[0].line_profiling);
	CHECK(has_function_named(&m, "<GC>"));
	model_free(&m);
	CHECK(load_rprof("testdata/rprof/kmeans-default.out", &m) == 0);
	CHECK(m.sessions.runs[0].interval_us == 20000 && !m.sessions.runs[0].line_profiling);
	CHECK(m.sessions.n_files == 0);
	model_free(&m);
}

static void names_are_never_mangled(void)
{
	struct model m;
	CHECK(load_rprof("testdata/rprof/names-gc.out", &m) == 0);
	CHECK(has_function_named(&m, "a\"b"));
	CHECK(has_function_named(&m, "q\" sp"));
	CHECK(has_function_named(&m, "bu\nrn"));
	CHECK(has_function_named(&m, "ta\tb"));
	CHECK(has_function_named(&m, "back\\slash"));
	CHECK(has_function_named(&m, "gr\xc3\xb6\xc3\x9f" "e"));
	CHECK(has_function_named(&m, "fl[[\"a b\"]]"));
	CHECK(!has_function_named(&m, "bu") && !has_function_named(&m, "rn"));
	for (size_t i = 0; i < m.n_functions; i++)
		CHECK(!m.functions[i].truncated);
	model_free(&m);
	CHECK(load_rprof("testdata/rprof/optim-line.out", &m) == 0);
	CHECK(has_function_named(&m, "compiler:::tryCmpfun"));
	model_free(&m);
}

/* Refs resolve per run: numbering restarts with each header. */
static void appended_runs_resolve_files_per_run(void)
{
	struct model m;
	CHECK(load_rprof("testdata/rprof/append-mixed.out", &m) == 0);
	CHECK(m.sessions.n_runs == 2);
	CHECK(!m.sessions.runs[0].memory_profiling && m.sessions.runs[1].memory_profiling);
	CHECK(m.sessions.runs[0].interval_us == 5000 && m.sessions.runs[1].interval_us == 2000);
	/* Run 2 defines #File 1 again (workloads.R), then #File 2: other.R. */
	CHECK(m.sessions.n_files == 3);
	CHECK(m.sessions.files[1].run == 1 && m.sessions.files[1].number == 1);
	CHECK(m.sessions.files[2].run == 1 && m.sessions.files[2].number == 2);
	CHECK(strcmp(model_cstr(&m, m.sessions.files[2].path), "other.R") == 0);
	for (size_t i = 0; i < m.n_functions; i++)
		if (strcmp(model_cstr(&m, m.functions[i].name), "other_burn") == 0)
			CHECK(strcmp(model_cstr(&m, m.functions[i].file_name), "other.R") == 0 ||
			      m.functions[i].file_name == 0);
	model_free(&m);
}

/* Console code has an empty path: a ref to it is not "no ref". */
static void empty_file_path_is_a_real_file(void)
{
	struct model m;
	CHECK(load_rprof("testdata/rprof/console-memory-line.out", &m) == 0);
	int console_line = 0;
	for (size_t i = 0; i < m.n_locations; i++) {
		const struct model_function *f = &m.functions[m.locations[i].function];
		if (strcmp(model_cstr(&m, f->name), "console_burn") == 0 && m.locations[i].line > 0)
			console_line = f->file_name == 0;
	}
	CHECK(console_line);
	model_free(&m);
}

/* A truncated function shown as `name`, whose raw bytes are `raw`. */
static int has_truncated(const struct model *m, const char *name, const char *raw)
{
	for (size_t i = 0; i < m->n_functions; i++) {
		const struct model_function *f = &m->functions[i];
		if (f->truncated && strcmp(model_cstr(m, f->name), name) == 0 &&
		    strcmp(model_cstr(m, f->system_name), raw) == 0)
			return 1;
	}
	return 0;
}

static void truncated_frames_and_cut_references_are_kept_raw(void)
{
	struct model m;
	CHECK(load_rprof("testdata/rprof/cut-lines.out", &m) == 0);
	CHECK(total_ticks(&m) == 18);
	size_t truncated = 0;
	for (size_t i = 0; i < m.n_functions; i++)
		truncated += m.functions[i].truncated;
	/*
	 * 18 lines: 2 end cleanly in '" ', 16 mid-token, each differently: 11
	 * in a name, 5 after or inside the reference before it, which are
	 * call sites of the frame before, kept raw, no frames.
	 */
	CHECK(truncated == 11);
	/* Named as R shows them, raw bytes kept. */
	CHECK(has_truncated(&m, "optim_wo", "1#36 \"optim_wo"));
	CHECK(has_truncated(&m, "optim_work", "1#36 \"optim_work\""));
	size_t raw_sites = 0, whole_sites = 0;
	for (size_t i = 0; i < m.n_locations; i++) {
		const struct model_call_site *site = &m.locations[i].call_site;
		raw_sites += site->raw != 0;
		whole_sites += site->raw != 0 && site->line == 36 && model_str_is(&m, site->raw, "1#36 \"");
	}
	CHECK(raw_sites == 5);
	CHECK(whole_sites == 1);
	model_free(&m);
}

const struct unit_test rprof_tests[] = {
	{ "memory_prefix_is_parsed_and_kept", memory_prefix_is_parsed_and_kept },
	{ "interval_and_modes_are_kept", interval_and_modes_are_kept },
	{ "names_are_never_mangled", names_are_never_mangled },
	{ "appended_runs_resolve_files_per_run", appended_runs_resolve_files_per_run },
	{ "empty_file_path_is_a_real_file", empty_file_path_is_a_real_file },
	{ "truncated_frames_and_cut_references_are_kept_raw", truncated_frames_and_cut_references_are_kept_raw },
	{ NULL, NULL },
};
