/*
 * model: the one in-memory profile that every reader fills and every
 * writer reads. It follows the tables of R's `profile` package (meta,
 * sample_types, samples, locations, functions) and extends them with what
 * the supported formats carry, so that a conversion loses nothing:
 *
 *  - stacks are hash-consed nodes (location, caller): a stack is the id of
 *    its innermost node, stored once however many samples share it;
 *  - sample rows are runs of consecutive identical samples (`repeat`), so
 *    memory grows with runs, not with the number of samples, and time order
 *    survives;
 *  - `runs` are profiling sessions (one per Rprof header: interval and
 *    which profiling modes were on); `source_files` are Rprof's `#File`
 *    lines with the row they stood before, so they can be written back
 *    where they were;
 *  - Rprof's memory columns (small_v, big_v, nodes, dup_count) per row;
 *  - a function may be `truncated`: the outermost frame of a sample that
 *    R's line buffer cut short, kept with its raw bytes as its name;
 *  - pprof's mappings, location addresses and inlined lines, labels, and
 *    the ids a file gave its functions, locations and mappings (kept so
 *    that a pprof file can be written back as it was);
 *  - a LispWorks tree's function-info (Call-Count, Seen-Count, Top-Count),
 *    and its nodes as locations of their own (`tree_nodes`), so that
 *    same-name siblings and nodes with Count 0 are written back.
 *
 * Ids are dense indexes. The model holds no format header: what a header
 * says is stored as data (interval, modes), and writers rebuild headers.
 */
#ifndef PROF_MODEL_H
#define PROF_MODEL_H

#include <stdint.h>
#include <stddef.h>

#include "hashidx.h"
#include "rows.h"
#include "strtab.h"

#define MODEL_NONE UINT32_MAX
/* Stack id of the empty stack; real stack nodes start at 1. */
#define MODEL_EMPTY_STACK 0u

struct model_meta {
	uint32_t key, value;
};

struct model_sample_type {
	uint32_t type, unit;
};

struct model_function {
	uint32_t name, system_name, file_name;
	int64_t start_line;
	uint8_t truncated;
	uint64_t id; /* the input's id; 0 when it had none */
	/* A LispWorks tree's function-info, when the input had one. */
	uint8_t has_tree_info;
	int64_t call_count, seen_count, top_count;
};

struct model_line {
	uint32_t function;
	int64_t line, column;
};

struct model_location {
	uint32_t function; /* MODEL_NONE: no line (an unsymbolized address) */
	int64_t line;      /* 0: unknown */
	int64_t column;
	uint64_t id;       /* the input's id; 0 when it had none */
	uint32_t mapping;  /* MODEL_NONE: none */
	uint64_t address;
	/* The callers this line was inlined into, innermost first. */
	uint32_t first_inlined, n_inlined;
	uint8_t is_folded;
};

struct model_mapping {
	uint64_t id, memory_start, memory_limit, file_offset;
	uint32_t filename, build_id;
	uint8_t has_functions, has_filenames, has_line_numbers, has_inline_frames;
};

struct model_label {
	uint32_t key, str;
	int64_t num;
	uint32_t num_unit;
};

struct model_label_set {
	uint32_t first, count;
};

struct model_stack_node {
	uint32_t location;
	uint32_t caller; /* stack id of the rest of the stack, outward */
};

struct model_run {
	uint32_t first_row;
	uint64_t interval_us;
	uint8_t memory_profiling, gc_profiling, line_profiling;
};

struct model_source_file {
	uint32_t run;
	uint64_t number; /* N of "#File N:" */
	uint32_t path;
	uint32_t before_row;
};

struct model {
	struct strtab strings;

	struct model_meta *meta;
	size_t n_meta, cap_meta;

	struct model_sample_type *sample_types;
	size_t n_sample_types, cap_sample_types;

	struct model_function *functions;
	size_t n_functions, cap_functions;
	struct hashidx function_index;

	struct model_location *locations;
	size_t n_locations, cap_locations;
	struct hashidx location_index;
	struct model_line *inlined;
	size_t n_inlined, cap_inlined;

	struct model_mapping *mappings;
	size_t n_mappings, cap_mappings;

	struct model_label *labels;
	size_t n_labels, cap_labels;
	struct model_label_set *label_sets; /* [0] is the empty set */
	size_t n_label_sets, cap_label_sets;
	struct hashidx label_set_index;

	struct model_stack_node *stacks; /* [0] is the empty stack */
	size_t n_stacks, cap_stacks;
	struct hashidx stack_index;

	struct model_run *runs;
	size_t n_runs, cap_runs;

	struct model_source_file *source_files;
	size_t n_source_files, cap_source_files;

	/* Read them with rows_begin/rows_next (rows.h). */
	struct row_store rows;
	size_t n_rows;
	/* Rows carry Rprof's memory columns (zeros for rows that had none). */
	int has_memory;

	/* Rows before this index may not absorb the next sample. */
	size_t merge_barrier;
	/* pprof keeps each sample apart: merging would change its sample list. */
	int keep_samples_apart;
	/*
	 * Each location is one node of a call tree (a LispWorks tree): a tree
	 * writer keeps nodes apart by location, not by function name.
	 */
	int tree_nodes;
	/*
	 * Set by readers of formats that legitimately break R's rules (pprof:
	 * empty names, any sample types, zero or negative values); the
	 * validator then checks only what such a format requires.
	 */
	int lenient;
};

void model_init(struct model *m);
void model_free(struct model *m);

uint32_t model_str(struct model *m, const char *bytes, size_t len);
const char *model_cstr(const struct model *m, uint32_t id);
/* Is string `id` exactly the C string `s`? */
int model_str_is(const struct model *m, uint32_t id, const char *s);

void model_set_meta(struct model *m, const char *key, const char *value);
/* Adds a row even when the key exists (meta may repeat a key: comments). */
void model_add_meta(struct model *m, uint32_t key, uint32_t value);
/* HASHIDX_NONE when absent. */
uint32_t model_get_meta(const struct model *m, const char *key);
uint32_t model_add_sample_type(struct model *m, const char *type, const char *unit);

uint32_t model_function(struct model *m, const struct model_function *f);
uint32_t model_location(struct model *m, uint32_t function, int64_t line);
/* Appends a location as a file gave it, with its inlined callers' lines. */
uint32_t model_add_location(struct model *m, const struct model_location *l,
			    const struct model_line *inlined, size_t n_inlined);
uint32_t model_add_mapping(struct model *m, const struct model_mapping *mapping);
/* Interns a list of labels as a set; 0 for none. */
uint32_t model_label_set(struct model *m, const struct model_label *labels, size_t n);
uint32_t model_stack(struct model *m, uint32_t location, uint32_t caller);

uint32_t model_add_run(struct model *m, const struct model_run *run);
void model_add_source_file(struct model *m, uint64_t number, uint32_t path);

/*
 * Copying rows into another model: the runs and #File lines of a source,
 * added to the copy where they stood, before the row that follows them.
 */
struct run_replay {
	const struct model_run *runs;
	size_t n_runs;
	const struct model_source_file *files;
	size_t n_files;
	const uint32_t *paths; /* path string ids in the copy by source id; NULL: the same */
	size_t run, file;      /* how many are added so far */
};
/* Adds what stood before source row `row`; SIZE_MAX: all that is left. */
void model_replay_runs(struct model *m, struct run_replay *r, size_t row);

/*
 * Appends `repeat` identical samples to the last run (if any): `values` has
 * n_sample_types entries, `memory` is NULL unless memory columns are kept.
 * Merges into the last row when everything in it is equal.
 */
void model_add_samples(struct model *m, uint32_t stack, const int64_t *values,
		       const struct model_memory *memory, uint32_t labels, uint64_t repeat);
void model_add_sample(struct model *m, uint32_t stack, const int64_t *values,
		      const struct model_memory *memory, uint32_t labels);

/*
 * The sample type named by `wanted` (a type name or a 0-based index), or
 * when wanted is NULL the default: pprof's default_sample_type, else the
 * last type. HASHIDX_NONE when there is no such type.
 */
uint32_t model_sample_type(const struct model *m, const char *wanted);

/* One frame of a stack as a reader of the profile sees it. */
struct model_frame {
	uint32_t function; /* MODEL_NONE for an unsymbolized location */
	int64_t line;
	uint32_t location;
};

/*
 * The frames of a stack, innermost first: each location's own line, then
 * the lines of the callers it was inlined into. *frames is grown as
 * needed (free it when done); returns how many there are.
 */
size_t model_stack_frames(const struct model *m, uint32_t stack, struct model_frame **frames,
			  size_t *cap);

/* A frame's name as viewers show it; `made` holds a name made up here. */
struct model_name {
	const char *bytes;
	size_t len;
	char made[24];
};

/*
 * The function's name, else its system name; an address with no function
 * is named "0x..." by its address; "<unknown>" when there is nothing.
 */
void model_frame_name(const struct model *m, const struct model_frame *fr, struct model_name *name);

/*
 * Checks the rules of R's validate_profile plus ours; reports each problem
 * on stderr naming `source`, and returns how many there were.
 */
size_t model_validate(const struct model *m, const char *source);

#endif
