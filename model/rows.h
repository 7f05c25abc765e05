/*
 * rows: the model's sample rows, stored so that memory does not grow with
 * the number of samples. Rows are appended in time order and read back in
 * that order with a cursor, never by index:
 *
 *  - each row is a few varints (stack, label set, repeat, values, memory
 *    columns, time), a few bytes where the struct was forty;
 *  - past ROWS_IN_MEMORY bytes they go to an unlinked temporary file in
 *    $TMPDIR (else /tmp), read back a buffer at a time, so a gigabyte of
 *    Rprof costs disk, not memory;
 *  - the newest row stays decoded: the next sample may merge into it.
 *
 * A row's run is not stored: runs start at rows (model_run.first_row), in
 * order, and the cursor follows them.
 */
#ifndef PROF_ROWS_H
#define PROF_ROWS_H

#include <stddef.h>
#include <stdint.h>

struct model;

struct model_memory {
	uint64_t small_v, big_v, nodes, dup_count;
};

struct model_row {
	size_t index;
	uint32_t stack;
	uint32_t run;    /* MODEL_NONE in a profile that has no runs */
	uint32_t labels; /* label set; 0 is the empty one */
	uint64_t repeat; /* consecutive identical samples this row stands for */
	const int64_t *values; /* n_sample_types values, for one sample of the row */
	struct model_memory memory; /* zeros where the sample had none */
	int64_t time_ns; /* with model.timed_rows: its first sample's time, from the profile's first */
};

struct row_store {
	unsigned char *bytes; /* encoded rows not yet in the file */
	size_t used, cap;
	int fd;               /* -1 until the rows outgrow memory */
	uint64_t in_file;     /* bytes written to it */
	size_t memory_from;   /* rows from this index on carry memory columns */
	int64_t last_time;    /* of the last row encoded: each row's time is stored from it */
	/*
	 * What model_validate checks of each row, checked as rows come:
	 * `unsure` once a row names a stack or label set not yet made, has
	 * a repeat of 0 or past 2^63, or makes a type's sum of |value x
	 * repeat| (`sums`) pass 2^63; model_validate reads every row again
	 * only then.
	 */
	uint64_t *sums;
	size_t cap_sums;
	int unsure;
	int has_last;
	struct model_row last;
	int64_t *last_values;
	size_t cap_last_values;
};

void rows_init(struct row_store *s);
void rows_free(struct row_store *s);

/* Appends a row to m (rows are added through model_add_samples). */
void rows_append(struct model *m, const struct model_row *row);
/*
 * Where the rows stand, to take back the rows added after it: a reader
 * that hands samples to the model before it knows they are in time order
 * takes them back when they are not. Only rows go back: the stacks,
 * label sets and strings they made stay, and sample types and runs must
 * not be added in between.
 */
struct rows_mark {
	size_t n_rows, n_sample_types, merge_barrier, memory_from;
	uint64_t in_file;
	size_t used;
	int has_last, unsure;
	struct model_row last;
	int64_t last_time;
	int64_t *values; /* the last row's */
	uint64_t *sums;
	size_t n_sums;
};

void rows_mark(const struct model *m, struct rows_mark *mark);
void rows_take_back(struct model *m, const struct rows_mark *mark);
void rows_mark_free(struct rows_mark *mark);

/* Counts `repeat` more samples of a row towards the checks model_validate would make. */
void rows_check(struct model *m, uint32_t stack, uint32_t labels, const int64_t *values, uint64_t repeat);

struct row_cursor {
	const struct model *m;
	struct model_row row;
	size_t next; /* index of the row rows_next gives next */
	int64_t *values;
	size_t next_run;
	int64_t time;        /* of the row decoded last */
	/* Where decoding stands: the file, through buf, then the store's bytes. */
	uint64_t file_offset;
	unsigned char *buf;
	const unsigned char *at, *end;
	int in_memory;
};

void rows_begin(const struct model *m, struct row_cursor *c);
/* The next row, valid until the next call; NULL after the last. */
const struct model_row *rows_next(struct row_cursor *c);
void rows_end(struct row_cursor *c);

#endif
