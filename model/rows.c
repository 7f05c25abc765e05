#include "rows.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../base/diag.h"
#include "../base/fdio.h"
#include "../base/spill.h"
#include "../base/alloc.h"
#include "model.h"
#include "../base/varint.h"

enum { ROWS_IN_MEMORY = 4 << 20, READ_CHUNK = 1 << 20 };

static size_t max_row_bytes(const struct model *m)
{
	return VARINT_MAX_BYTES * (3 + m->n_sample_types + 4 + 1);
}

void rows_init(struct row_store *s)
{
	memset(s, 0, sizeof *s);
	s->fd = -1;
	s->memory_from = SIZE_MAX;
}

void rows_free(struct row_store *s)
{
	free(s->bytes);
	free(s->sums);
	free(s->last_values);
	if (s->fd >= 0)
		close(s->fd);
	rows_init(s);
}

static void spill(struct row_store *s)
{
	if (s->fd < 0)
		s->fd = spill_temporary_file("prof-rows", "sample rows");
	/* At in_file, not the file's end: rows taken back (rows_take_back) are written over. */
	int err = lseek(s->fd, (off_t)s->in_file, SEEK_SET) < 0 ? errno : fd_write_all(s->fd, s->bytes, s->used, NULL);
	if (err)
		diag_fatal("cannot write sample rows to a temporary file: %s",
			   err > 0 ? strerror(err) : "no space");
	s->in_file += s->used;
	s->used = 0;
}

static void encode(const struct model *m, struct row_store *s, const struct model_row *row)
{
	if (s->cap - s->used < max_row_bytes(m))
		grow((void **)&s->bytes, &s->cap, s->used + max_row_bytes(m), 1);
	unsigned char *p = s->bytes + s->used;
	p = varint_put(p, row->stack);
	p = varint_put(p, row->labels);
	p = varint_put(p, row->repeat);
	for (size_t t = 0; t < m->n_sample_types; t++)
		p = varint_put(p, varint_zigzag(row->values[t]));
	if (row->index >= s->memory_from) {
		p = varint_put(p, row->memory.small_v);
		p = varint_put(p, row->memory.big_v);
		p = varint_put(p, row->memory.nodes);
		p = varint_put(p, row->memory.dup_count);
	}
	/* Rows come in time order: a time after the one before takes a byte or two, where a time from the start took six. */
	if (m->timed_rows) {
		p = varint_put(p, varint_zigzag((int64_t)((uint64_t)row->time_ns - (uint64_t)s->last_time)));
		s->last_time = row->time_ns;
	}
	s->used = (size_t)(p - s->bytes);
	if (s->used >= ROWS_IN_MEMORY)
		spill(s);
}

void rows_mark(const struct model *m, struct rows_mark *mark)
{
	const struct row_store *s = &m->rows;
	*mark = (struct rows_mark){ m->n_rows, m->n_sample_types, m->merge_barrier, s->memory_from, s->in_file, s->used,
				    s->has_last, s->unsure, s->last, s->last_time, NULL, NULL, s->cap_sums };
	mark->values = xmalloc((m->n_sample_types + 1) * sizeof *mark->values);
	if (s->has_last && m->n_sample_types)
		memcpy(mark->values, s->last_values, m->n_sample_types * sizeof *mark->values);
	mark->sums = xmalloc((s->cap_sums + 1) * sizeof *mark->sums);
	if (s->cap_sums)
		memcpy(mark->sums, s->sums, s->cap_sums * sizeof *mark->sums);
}

void rows_take_back(struct model *m, const struct rows_mark *mark)
{
	struct row_store *s = &m->rows;
	if (m->n_sample_types != mark->n_sample_types)
		diag_fatal("rows taken back after a sample type was added"); /* a reader's bug, not the input's */
	if (s->in_file > mark->in_file && mark->used) {
		/* The rows in memory at the mark have gone to the file since, at mark->in_file. */
		grow((void **)&s->bytes, &s->cap, mark->used, 1);
		int err = fd_pread_all(s->fd, s->bytes, mark->used, mark->in_file);
		if (err)
			diag_fatal("cannot read sample rows back from their temporary file: %s",
				   err > 0 ? strerror(err) : "file shrank");
	}
	s->in_file = mark->in_file;
	s->used = mark->used;
	s->memory_from = mark->memory_from;
	s->has_last = mark->has_last;
	s->unsure = mark->unsure;
	s->last_time = mark->last_time;
	if (mark->has_last) {
		s->last = mark->last;
		s->last.values = s->last_values;
		if (m->n_sample_types)
			memcpy(s->last_values, mark->values, m->n_sample_types * sizeof *mark->values);
	}
	if (mark->n_sums)
		memcpy(s->sums, mark->sums, mark->n_sums * sizeof *s->sums);
	if (s->cap_sums > mark->n_sums)
		memset(s->sums + mark->n_sums, 0, (s->cap_sums - mark->n_sums) * sizeof *s->sums);
	m->n_rows = mark->n_rows;
	m->merge_barrier = mark->merge_barrier;
}

void rows_mark_free(struct rows_mark *mark)
{
	free(mark->values);
	free(mark->sums);
	mark->values = NULL;
	mark->sums = NULL;
}

void rows_check(struct model *m, uint32_t stack, uint32_t labels, const int64_t *values, uint64_t repeat)
{
	struct row_store *s = &m->rows;
	if (s->unsure)
		return;
	if (repeat == 0 || repeat > INT64_MAX || stack >= m->n_stacks || labels >= m->n_label_sets) {
		s->unsure = 1;
		return;
	}
	if (s->cap_sums < m->n_sample_types) {
		size_t old = s->cap_sums;
		grow((void **)&s->sums, &s->cap_sums, m->n_sample_types, sizeof *s->sums);
		memset(s->sums + old, 0, (s->cap_sums - old) * sizeof *s->sums);
	}
	for (size_t t = 0; t < m->n_sample_types; t++) {
		int64_t v;
		uint64_t magnitude;
		if (__builtin_mul_overflow(values[t], (int64_t)repeat, &v)) {
			s->unsure = 1;
			return;
		}
		magnitude = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
		if (__builtin_add_overflow(s->sums[t], magnitude, &s->sums[t]) || s->sums[t] > INT64_MAX) {
			s->unsure = 1;
			return;
		}
	}
}

void rows_append(struct model *m, const struct model_row *row)
{
	struct row_store *s = &m->rows;
	rows_check(m, row->stack, row->labels, row->values, row->repeat);
	if (s->has_last) {
		s->last.values = s->last_values;
		encode(m, s, &s->last);
	}
	grow((void **)&s->last_values, &s->cap_last_values, m->n_sample_types + 1,
	     sizeof *s->last_values);
	if (m->n_sample_types)
		memcpy(s->last_values, row->values, m->n_sample_types * sizeof *row->values);
	s->last = *row;
	s->last.values = s->last_values;
	s->has_last = 1;
}

void rows_begin(const struct model *m, struct row_cursor *c)
{
	memset(c, 0, sizeof *c);
	c->m = m;
	c->values = xmalloc((m->n_sample_types + 1) * sizeof *c->values);
	c->in_memory = m->rows.in_file == 0;
	if (c->in_memory) {
		c->at = c->end = m->rows.bytes;
		if (m->rows.bytes)
			c->end += m->rows.used;
	} else {
		size_t size = 2 * max_row_bytes(m);
		c->buf = xmalloc(size > READ_CHUNK ? size : READ_CHUNK);
	}
}

void rows_end(struct row_cursor *c)
{
	free(c->values);
	free(c->buf);
}

/* Makes a whole row available at c->at, from the file while it lasts. */
static void refill(struct row_cursor *c)
{
	const struct row_store *s = &c->m->rows;
	size_t left = (size_t)(c->end - c->at);
	if (c->in_memory || left >= max_row_bytes(c->m))
		return;
	if (c->file_offset == s->in_file) {
		if (left)
			return;
		c->in_memory = 1;
		c->at = c->end = s->bytes;
		if (s->bytes)
			c->end += s->used;
		return;
	}
	size_t size = 2 * max_row_bytes(c->m);
	size = size > READ_CHUNK ? size : READ_CHUNK;
	if (left)
		memmove(c->buf, c->at, left);
	size_t want = size - left;
	if (want > s->in_file - c->file_offset)
		want = (size_t)(s->in_file - c->file_offset);
	int err = fd_pread_all(s->fd, c->buf + left, want, c->file_offset);
	if (err)
		diag_fatal("cannot read sample rows back from their temporary file: %s",
			   err > 0 ? strerror(err) : "file shrank");
	c->file_offset += want;
	c->at = c->buf;
	c->end = c->buf + left + want;
}

static void decode(struct row_cursor *c)
{
	const struct model *m = c->m;
	const unsigned char *p = c->at;
	uint64_t v;
	p = varint_get(p, &v);
	c->row.stack = (uint32_t)v;
	p = varint_get(p, &v);
	c->row.labels = (uint32_t)v;
	p = varint_get(p, &c->row.repeat);
	for (size_t t = 0; t < m->n_sample_types; t++) {
		p = varint_get(p, &v);
		c->values[t] = varint_unzigzag(v);
	}
	c->row.values = c->values;
	memset(&c->row.memory, 0, sizeof c->row.memory);
	if (c->row.index >= m->rows.memory_from) {
		p = varint_get(p, &c->row.memory.small_v);
		p = varint_get(p, &c->row.memory.big_v);
		p = varint_get(p, &c->row.memory.nodes);
		p = varint_get(p, &c->row.memory.dup_count);
	}
	c->row.time_ns = 0;
	if (m->timed_rows) {
		p = varint_get(p, &v);
		c->time = (int64_t)((uint64_t)c->time + (uint64_t)varint_unzigzag(v));
		c->row.time_ns = c->time;
	}
	c->at = p;
}

const struct model_row *rows_next(struct row_cursor *c)
{
	const struct model *m = c->m;
	size_t i = c->next;
	if (i >= m->n_rows)
		return NULL;
	c->next++;
	c->row.index = i;
	if (i + 1 == m->n_rows && m->rows.has_last) {
		c->row = m->rows.last;
	} else {
		refill(c);
		decode(c);
	}
	while (c->next_run < m->sessions.n_runs && m->sessions.runs[c->next_run].first_row <= i)
		c->next_run++;
	c->row.run = c->next_run ? (uint32_t)(c->next_run - 1) : MODEL_NONE;
	return &c->row;
}
