/*
 * What the pprof reader's two halves, the writer and the probe share. The
 * raw profile is the file as decoded, with its own ids and string indexes;
 * pprof_read.c checks it as Go does and turns it into the model.
 */
#ifndef PROF_PPROF_H
#define PROF_PPROF_H

#include "../nanopb_gen/profile.pb.h"
#include "format.h"

struct pprof_raw_sample {
	size_t first_location, location_bytes, n_locations; /* in location_ids */
	size_t first_value, n_values;
	size_t first_label, n_labels;
	uint64_t at; /* byte offset of the message, for messages */
};

struct pprof_raw_location {
	uint64_t id, mapping_id, address;
	size_t first_line, n_lines;
	int is_folded;
};

struct pprof_raw {
	uint32_t *strings; /* model string id by string-table index */
	size_t n_strings, cap_strings;
	perftools_profiles_ValueType *sample_types;
	size_t n_sample_types, cap_sample_types;
	/* Byte offsets of sample types, mappings, locations, functions, for messages. */
	uint64_t *sample_type_at, *mapping_at, *location_at, *function_at;
	size_t cap_sample_type_at, cap_mapping_at, cap_location_at, cap_function_at;
	struct pprof_raw_sample *samples;
	size_t n_samples, cap_samples;
	/*
	 * Samples' location ids, as varints (base/varint.h): they are most of
	 * a big profile and are kept until the locations have been read.
	 */
	unsigned char *location_ids;
	size_t n_location_bytes, cap_location_ids;
	uint64_t *values;
	size_t n_values, cap_values;
	perftools_profiles_Label *labels;
	size_t n_labels, cap_labels;
	perftools_profiles_Mapping *mappings;
	size_t n_mappings, cap_mappings;
	struct pprof_raw_location *locations;
	size_t n_locations, cap_locations;
	perftools_profiles_Line *lines;
	size_t n_lines, cap_lines;
	perftools_profiles_Function *functions;
	size_t n_functions, cap_functions;
	uint64_t *comments;
	size_t n_comments, cap_comments;
	int64_t drop_frames, keep_frames, time_nanos, duration_nanos, period;
	int64_t default_sample_type, doc_url;
	perftools_profiles_ValueType period_type;
	char *scratch;
	size_t cap_scratch;
};

/* Decodes the wire format; 0, or -1 after reporting. */
int pprof_decode(struct input *in, struct model *m, struct pprof_raw *raw);
void pprof_raw_free(struct pprof_raw *raw);

int pprof_read(struct input *in, struct model *m);
int pprof_write(const struct model *m, struct output *out, const struct write_options *opts);

/*
 * Rprof's runs, #File lines, memory columns and truncated frames have no
 * place of their own in pprof; they travel as comments, labels and a
 * system_name marker (pprof_rprof.c), so that Rprof -> pprof -> Rprof
 * gives back the same bytes.
 */
#define PPROF_RPROF_RUN "prof:rprof:run "
#define PPROF_RPROF_FILE "prof:rprof:file "
#define PPROF_RPROF_TRUNCATED "prof:rprof:truncated"
/* Words between a run comment's first sample and its header line. */
#define PPROF_RPROF_UNQUOTED "unquoted "
#define PPROF_RPROF_CRLF "crlf "
#define PPROF_RPROF_NO_FINAL_NEWLINE "no-final-newline "
extern const char *const pprof_rprof_memory_keys[4];
extern const char *const pprof_rprof_memory_units[4];
/*
 * The function of a "<no location>" frame (R's reference alone), whose
 * file is the reference's: made up only in pprof, which has no lines
 * without a function.
 */
#define PPROF_RPROF_NO_LOCATION "prof:rprof:no-location"
/*
 * Labels of a sample whose outermost frame has a call site: its file and
 * line, and the bytes R wrote for it when a cut left them otherwise.
 */
#define PPROF_RPROF_CALL_FILE "rprof:call_file"
#define PPROF_RPROF_CALL_LINE "rprof:call_line"
#define PPROF_RPROF_CALL_RAW "rprof:call_raw"

/* An Rprof profile carried in pprof: its runs and #File lines. */
struct pprof_rprof {
	struct model_run *runs;
	size_t n_runs, cap_runs;
	struct model_source_file *files;
	size_t n_files, cap_files;
	struct run_replay replay;
	uint8_t crlf, no_final_newline;
	struct model_location *frames; /* a stack being given its call site */
	size_t cap_frames;
};

/*
 * Is the decoded profile one that prof wrote from Rprof? 1 with *a filled
 * (free it with pprof_rprof_free), 0 if it carries no Rprof annotations or
 * ones that do not fit (then with a warning): it is read as plain pprof.
 */
int pprof_rprof_detect(struct model *m, const struct pprof_raw *raw, const char *source,
		       struct pprof_rprof *a);
/* A function as the Rprof model has it: truncated by its marker, no id. */
void pprof_rprof_function(struct model *m, struct model_function *f);
/*
 * Adds raw sample `index` as a row of ticks, with the runs and #File lines
 * that stood before it (and after it, for the last sample).
 */
void pprof_rprof_add_sample(struct model *m, struct pprof_rprof *a, const struct pprof_raw *raw,
			    size_t index, uint32_t stack);
/* After the last sample: what stood after it, and how the file's lines ended. */
void pprof_rprof_finish(struct model *m, struct pprof_rprof *a);
void pprof_rprof_free(struct pprof_rprof *a);

/*
 * pprof's values are integers: a sample type with decimals (model.h) is
 * written with its integers as they are and the scale in its unit,
 * "count/1000" for thousandths of a count, which the reader takes back.
 * The unit of a type with `decimals` (> 0), allocated; and the decimals a
 * unit so written says, 0 for any other, with the length of the unit
 * before the scale.
 */
char *pprof_scaled_unit(const char *unit, unsigned decimals);
unsigned pprof_unit_decimals(const char *unit, size_t len, size_t *base_len);

#endif
