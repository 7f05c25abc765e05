/*
 * model: the one in-memory profile that every reader fills and every
 * writer reads (docs/model.md). Its core is the tables of R's `profile`
 * package: meta, sample_types, samples (here: rows), locations, functions,
 * with R's validation rules. Around the core:
 *
 *  - stacks are hash-consed nodes (location, caller): a stack is the id of
 *    its innermost node, stored once however many samples share it;
 *  - sample rows are runs of consecutive identical samples (`repeat`), so
 *    memory grows with runs, not with the number of samples, and time order
 *    survives (rows.h);
 *  - `rules`: how a reader's format bends the core's rules (R's strict
 *    validation, merging equal neighbours, locations as tree nodes), each
 *    set by the reader in one place.
 *
 * What only some inputs carry is grouped, each group under one name, so
 * that every coupling of the model to a format can be found by that name:
 *  - `sessions`: profiling sessions (R's runs: interval and modes), their
 *    source-file lines (R's `#File`) and the memory columns of rows;
 *  - `model_function.tree`: a call tree's function-info (Call-Count,
 *    Seen-Count, Top-Count);
 *  - `native`: what a binary profile says of its code (pprof): mappings,
 *    and for each location its address, mapping and id, so that such a
 *    file can be written back as it was;
 *  - `model_function.truncated`: a frame cut short by R's line buffer (or
 *    by a file copied while R was writing), shown by the name R shows and
 *    kept with its raw bytes as its system name;
 *  - `model_location.call_site`: where the outermost frame was called
 *    from, in code that is no frame (R's reference after the outermost
 *    frame, or before a frame R's line buffer cut off whole). A location
 *    with a call site and no function is the frame of a sample that was
 *    that reference alone: R calls it "<no location>";
 *  - `graph`: a call graph's own figures (pstats, callgrind), beside the
 *    samples made from it, for its format's writer (graph.h).
 *
 * A sample type's values are integers; its `decimals` say where the point
 * is, for inputs with fractional counts.
 *
 * Ids are dense indexes. The model holds no format header: what a header
 * says is stored as data (interval, modes), and writers rebuild headers.
 */
#ifndef PROF_MODEL_H
#define PROF_MODEL_H

#include <stdint.h>
#include <stddef.h>

#include "../base/hashidx.h"
#include "graph.h"
#include "rows.h"
#include "strtab.h"

#define MODEL_NONE UINT32_MAX
/* Stack id of the empty stack; real stack nodes start at 1. */
#define MODEL_EMPTY_STACK 0u

struct model_meta {
	uint32_t key, value;
};

/*
 * A sample type; its values are integers in units of 10^-decimals of
 * `unit` (0 for whole numbers), so that fractional counts (folded stacks'
 * "1.5") are kept exactly: 1.5 with 1 decimal is the value 15.
 */
struct model_sample_type {
	uint32_t type, unit;
	uint8_t decimals; /* at most DECIMALS_MAX (base/numtext.h) */
};

/* A call tree's function-info, as the LispWorks profiler counts it. */
struct model_tree_info {
	uint8_t known; /* the input had it */
	int64_t call_count, seen_count, top_count;
};

struct model_function {
	uint32_t name, system_name, file_name;
	int64_t start_line;
	uint8_t truncated;
	uint64_t native_id; /* the input's id for it; 0 when it had none */
	struct model_tree_info tree;
};

struct model_line {
	uint32_t function;
	int64_t line, column;
};

/* Where a binary profile says a location's code is. */
struct model_native_location {
	uint64_t id;      /* the input's id; 0 when it had none */
	uint32_t mapping; /* MODEL_NONE: none */
	uint64_t address;
	uint8_t is_folded;
};

/* A line in a source file; line 0: none. */
struct model_call_site {
	uint32_t file; /* path string id */
	int64_t line;
	/*
	 * The bytes R wrote for it when they are not "F#L " (string id; 0: they
	 * are): a line cut by R's buffer after the reference, or inside it.
	 */
	uint32_t raw;
};

struct model_location {
	uint32_t function; /* MODEL_NONE: no line (an unsymbolized address, or a call site alone) */
	int64_t line;      /* 0: unknown */
	int64_t column;
	struct model_call_site call_site;
	/* The callers this line was inlined into, innermost first. */
	uint32_t first_inlined, n_inlined;
	struct model_native_location native;
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
	uint8_t unquoted; /* names without quotes, split at spaces (R before 2.9) */
};

struct model_source_file {
	uint32_t run;
	uint64_t number; /* N of "#File N:" */
	uint32_t path;
	uint32_t before_row;
};

/* How the core's rules bend for the input's format; set by its reader. */
struct model_rules {
	/*
	 * R's validate_profile rules: the first sample type is samples/count,
	 * names are not empty, lines not negative. Off for formats that
	 * legitimately break them (pprof: any sample types, empty names; a
	 * differential folded file: types before and after).
	 */
	uint8_t strict_r;
	/*
	 * Equal neighbouring samples stay separate rows: merging them would
	 * change a sample list that is written back as it was (pprof), or
	 * join nodes of a tree.
	 */
	uint8_t keep_rows_apart;
	/*
	 * Each location is one node of a call tree: a tree writer keeps nodes
	 * apart by location, not by function name, so same-name siblings and
	 * nodes with a count of 0 come back.
	 */
	uint8_t tree_nodes;
};

/* Profiling sessions and what belongs to them (R's runs). */
struct model_sessions {
	struct model_run *runs;
	size_t n_runs, cap_runs;
	struct model_source_file *files;
	size_t n_files, cap_files;
	/* Rows carry memory columns (zeros for rows that had none). */
	int has_memory;
	/* How the file's lines ended, so that it can be written back as it was. */
	uint8_t crlf, no_final_newline;
};

/* What a binary profile says of its code, besides each location's. */
struct model_native {
	struct model_mapping *mappings;
	size_t n_mappings, cap_mappings;
};

struct model {
	struct strtab strings;
	struct model_rules rules;

	struct model_meta *meta;
	size_t n_meta, cap_meta;

	struct model_sample_type *sample_types;
	size_t n_sample_types, cap_sample_types;

	struct model_function *functions;
	size_t n_functions, cap_functions;
	struct hashidx function_index;
	/*
	 * By function, the name views show (string id), set by
	 * model_name_functions before a profile is written; functions past
	 * n_shown_names are shown by their own names.
	 */
	uint32_t *shown_names;
	size_t n_shown_names;

	struct model_location *locations;
	size_t n_locations, cap_locations;
	struct hashidx location_index;
	struct model_line *inlined;
	size_t n_inlined, cap_inlined;

	struct model_label *labels;
	size_t n_labels, cap_labels;
	struct model_label_set *label_sets; /* [0] is the empty set */
	size_t n_label_sets, cap_label_sets;
	struct hashidx label_set_index;

	struct model_stack_node *stacks; /* [0] is the empty stack */
	size_t n_stacks, cap_stacks;
	struct hashidx stack_index;

	/* Read them with rows_begin/rows_next (rows.h). */
	struct row_store rows;
	size_t n_rows;
	/* Rows before this index may not absorb the next sample. */
	size_t merge_barrier;

	/*
	 * A sample type whose value is the time from a sample to the next
	 * (a .cpuprofile's wall time), so that samples have times without
	 * runs: --time counts by it. SIZE_MAX: none.
	 */
	size_t timeline_type;
	/*
	 * Rows carry the time of their first sample (model_row.time_ns), as
	 * perf and speedscope give it: --time counts by it. Set before the
	 * first row is added, never after.
	 */
	uint8_t timed_rows;

	/*
	 * Per view type (view.h), what percentages are of when --focus,
	 * --ignore, --show or --hide narrowed the rows: the whole profile's
	 * percent_totals (aggregate.h), as go tool pprof's percentages are of
	 * the whole. NULL: the rows are whole.
	 */
	int64_t *whole_totals;

	/* What only some inputs carry (see the top of this file). */
	struct model_sessions sessions;
	struct model_native native;
	struct model_graph graph;
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
/*
 * A type of whole numbers (decimals 0). Added after rows exist (perf
 * script names an event only when its first sample comes), it rewrites
 * them once, each with the value 0 for it.
 */
uint32_t model_add_sample_type(struct model *m, const char *type, const char *unit);
/*
 * Gives sample type `type` `more` decimals: every value of it, in every
 * row, is multiplied by 10^more. 0, or -1 when a value would pass 2^63
 * (the profile is then unchanged).
 */
int model_add_decimals(struct model *m, size_t type, unsigned more);

uint32_t model_function(struct model *m, const struct model_function *f);
uint32_t model_location(struct model *m, uint32_t function, int64_t line);
/* Interns a plain location: function, line and call site (no inlined lines, nothing native). */
uint32_t model_location_called(struct model *m, uint32_t function, int64_t line,
			       struct model_call_site call_site);
/* Is the location a call site alone, no frame of its own? */
int model_is_call_site(const struct model *m, uint32_t location);
/* Where a stack's outermost frame was called from; line 0 when not known. */
struct model_call_site model_stack_call_site(const struct model *m, uint32_t stack);
/* Appends a location as a file gave it, with its inlined callers' lines. */
uint32_t model_add_location(struct model *m, const struct model_location *l,
			    const struct model_line *inlined, size_t n_inlined);
uint32_t model_add_mapping(struct model *m, const struct model_mapping *mapping);
/* Interns a list of labels as a set; 0 for none. */
uint32_t model_label_set(struct model *m, const struct model_label *labels, size_t n);
uint32_t model_stack(struct model *m, uint32_t location, uint32_t caller);
/* model_stack(location, caller) will be asked soon: its slot is fetched now (hashidx_prefetch). */
void model_stack_prefetch(const struct model *m, uint32_t location, uint32_t caller);
/* Room for `more` stacks to come, for a reader that knows about how many it will make. */
void model_reserve_stacks(struct model *m, size_t more);

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
 * Merges into the last row when everything in it is equal, its time too.
 * `time_ns` counts only in a model of timed rows.
 */
void model_add_samples(struct model *m, uint32_t stack, const int64_t *values,
		       const struct model_memory *memory, uint32_t labels, uint64_t repeat,
		       int64_t time_ns);
void model_add_sample(struct model *m, uint32_t stack, const int64_t *values,
		      const struct model_memory *memory, uint32_t labels);
/* Its rows rewritten without their times: a merge with an input that has none. */
void model_drop_times(struct model *m);
/* Do its samples have times (R's runs, a timeline type or timed rows), so that --time applies? */
int model_has_times(const struct model *m);

/* One frame of a stack as a reader of the profile sees it. */
struct model_frame {
	uint32_t function; /* MODEL_NONE for an unsymbolized location */
	int64_t line;
	uint32_t location;
};

/*
 * How many frames a location stands for: the callers its line was inlined
 * into, and its own line.
 */
uint32_t model_location_depth(const struct model *m, uint32_t location);
/*
 * A location's frame k of model_location_depth, outermost first: the
 * callers it was inlined into, then its own line last. Writers that build
 * a tree from the root walk a location so.
 */
struct model_frame model_location_frame(const struct model *m, uint32_t location, uint32_t k);

/*
 * The frames of a stack, innermost first: each location's own line, then
 * the lines of the callers it was inlined into. *frames is grown as
 * needed (free it when done); returns how many there are.
 */
size_t model_stack_frames(const struct model *m, uint32_t stack, struct model_frame **frames,
			  size_t *cap);

/*
 * Names every function as views show it (model/names.c): its name, else
 * its system name; with its file and line, in the form of its ecosystem's
 * tools, where another function of the profile has that name elsewhere
 * (`<module> (a.py:1)`, V8's `(anonymous) file:///a.js:3`). Call it once
 * the functions are all there, before writing.
 */
void model_name_functions(struct model *m);
/* The name views show for a function (string id). */
uint32_t model_shown_name(const struct model *m, uint32_t function);

/* What a frame is, for views that merge frames into boxes or nodes. */
enum model_frame_kind {
	MODEL_FRAME_FUNCTION,    /* by its function's name (and with lines, file and line) */
	MODEL_FRAME_ADDRESS,     /* an address with no function: by its address */
	MODEL_FRAME_NO_LOCATION, /* R's reference alone, no frame of its own: all one */
};

/*
 * A frame's identity: frames of equal identities are one box of a flame
 * graph, one node of sprof's. Functions of one shown name
 * (model_shown_name) are one, as in folded stacks; with lines, one per
 * file and line.
 */
struct model_frame_id {
	uint8_t kind;     /* enum model_frame_kind */
	uint8_t grey;     /* no whole name to show: cut short by R, or nameless */
	uint32_t name;    /* a function's: its shown name (model_shown_name) */
	uint32_t file;    /* with lines: the function's file (string id) */
	int64_t line;     /* with lines; 0 otherwise */
	uint64_t address; /* an address's */
};

/* The identity of a frame; by_line: a frame per source line, where the frame has one. */
void model_frame_id(const struct model *m, const struct model_frame *fr, int by_line,
		    struct model_frame_id *id);

/* A frame's name as viewers show it; `made` holds a name made up here. */
struct model_name {
	const char *bytes;
	size_t len;
	char made[24];
};

/* The name shown for a function with neither name nor system name. */
#define MODEL_UNKNOWN_NAME "<unknown>"

/*
 * The name of an identity, without its line: the function's name (else
 * its system name); an address with no function is named "0x..." by its
 * address, a call site alone "<no location>" (as R's summaryRprof names
 * it); MODEL_UNKNOWN_NAME when there is nothing.
 */
void model_frame_id_name(const struct model *m, const struct model_frame_id *id,
			 struct model_name *name);
/*
 * A frame's own name, for formats that carry its file and line beside it
 * (pstats, callgrind, cpuprofile, Rprof, trees): model_frame_id_name of
 * its identity, with the function's name, else its system name.
 */
void model_frame_name(const struct model *m, const struct model_frame *fr, struct model_name *name);
/* A frame's name as views show it (model_shown_name): model_frame_id_name of its identity. */
void model_frame_shown_name(const struct model *m, const struct model_frame *fr, struct model_name *name);

/*
 * Checks the rules of R's validate_profile plus ours; reports each problem
 * on stderr naming `source`, and returns how many there were.
 */
size_t model_validate(const struct model *m, const char *source);

#endif
