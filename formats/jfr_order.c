/*
 * The time order of a JFR chunk's samples (formats/jfr.h). A JVM writes
 * each thread's buffer as it fills, so a chunk's events go back in time
 * by up to the chunk's length. Samples are held in a block, sorted by
 * (start, arrival) when it fills or the chunk ends; a chunk of more than
 * one block puts each sorted block in a spill, a few bytes a sample, and
 * merges them. Memory: one block (8 MB, and as much again while qsort
 * sorts it), 4 MB of the spill and the spilled blocks' read buffers,
 * which share 4 MB; the rest is disk.
 */
#include <stdlib.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/varint.h"
#include "jfr.h"

enum {
	BLOCK_SAMPLES = 1 << 18,
	RUN_BYTES = VARINT_MAX_BYTES * 5, /* the most one sample takes in a run */
	MERGE_BUFFERS = 4 << 20,
	RUNS_IN_MEMORY = 4 << 20,
};

void jfr_order_init(struct jfr_order *o)
{
	memset(o, 0, sizeof *o);
	o->in_order = 1;
	spill_init(&o->runs, "JFR samples in time order", RUNS_IN_MEMORY);
}

static int earlier(const void *a, const void *b)
{
	const struct jfr_sample *x = a, *y = b;
	if (x->ns != y->ns)
		return x->ns < y->ns ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void sort_block(struct jfr_order *o)
{
	if (!o->in_order)
		qsort(o->block, o->n, sizeof *o->block, earlier);
	o->in_order = 1;
}

/* The block, sorted, as a run in the spill: each sample's start after the one before, then its other fields. */
static void spill_block(struct jfr_order *o)
{
	sort_block(o);
	unsigned char bytes[1024 * RUN_BYTES], *p = bytes;
	grow((void **)&o->run, &o->cap_runs, o->n_runs + 1, sizeof *o->run);
	struct jfr_run *run = &o->run[o->n_runs++];
	run->at = spill_size(&o->runs);
	uint64_t ns = 0;
	for (size_t i = 0; i < o->n; i++) {
		const struct jfr_sample *s = &o->block[i];
		p = varint_put(p, (uint64_t)s->ns - ns);
		p = varint_put(p, varint_zigzag(s->weight));
		p = varint_put(p, s->stack);
		p = varint_put(p, s->labels);
		p = varint_put(p, s->type);
		ns = (uint64_t)s->ns;
		if (p > bytes + sizeof bytes - RUN_BYTES || i + 1 == o->n) {
			spill_put(&o->runs, bytes, (size_t)(p - bytes));
			p = bytes;
		}
	}
	run->end = spill_size(&o->runs);
	o->n = 0;
}

void jfr_order_add(struct jfr_order *o, const struct jfr_sample *s)
{
	if (o->n == BLOCK_SAMPLES)
		spill_block(o);
	if (o->n == o->cap)
		grow((void **)&o->block, &o->cap, o->n + 1, sizeof *o->block);
	struct jfr_sample *to = &o->block[o->n];
	*to = *s;
	to->seq = (uint32_t)o->n;
	if (o->n && to->ns < to[-1].ns)
		o->in_order = 0;
	o->n++;
}

/* A spilled run being merged: its reader and its next sample. */
struct head {
	struct spill_reader rd;
	struct jfr_sample s;
	uint64_t ns;
	int done;
};

static void next_of(struct head *h)
{
	if (spill_reader_want(&h->rd, RUN_BYTES) == 0) {
		h->done = 1;
		return;
	}
	const unsigned char *p = h->rd.p;
	uint64_t v;
	p = varint_get(p, &v);
	h->ns += v;
	h->s.ns = (int64_t)h->ns;
	p = varint_get(p, &v);
	h->s.weight = varint_unzigzag(v);
	p = varint_get(p, &v);
	h->s.stack = (uint32_t)v;
	p = varint_get(p, &v);
	h->s.labels = (uint32_t)v;
	p = varint_get(p, &v);
	h->s.type = (uint32_t)v;
	spill_reader_skip(&h->rd, (size_t)(p - h->rd.p));
}

/* Is run a's next sample before run b's? Ties go to the run made first, which came first. */
static int before(const struct head *heads, uint32_t a, uint32_t b)
{
	if (heads[a].s.ns != heads[b].s.ns)
		return heads[a].s.ns < heads[b].s.ns;
	return a < b;
}

/* Restores the heap of run indexes below `i`. */
static void sift_down(const struct head *heads, uint32_t *heap, size_t n, size_t i)
{
	for (;;) {
		size_t least = i, l = 2 * i + 1, r = l + 1;
		if (l < n && before(heads, heap[l], heap[least]))
			least = l;
		if (r < n && before(heads, heap[r], heap[least]))
			least = r;
		if (least == i)
			return;
		uint32_t t = heap[i];
		heap[i] = heap[least];
		heap[least] = t;
		i = least;
	}
}

static void merge_runs(struct jfr_order *o, void (*take)(void *, const struct jfr_sample *), void *ctx)
{
	struct head *heads = xcalloc(o->n_runs, sizeof *heads);
	uint32_t *heap = xmalloc(o->n_runs * sizeof *heap);
	size_t step = MERGE_BUFFERS / o->n_runs, n = 0;
	step = step < 4096 ? 4096 : step > (1 << 20) ? (1 << 20) : step;
	for (size_t i = 0; i < o->n_runs; i++) {
		spill_reader_init(&heads[i].rd, &o->runs, o->run[i].at, o->run[i].end, step);
		next_of(&heads[i]);
		if (!heads[i].done)
			heap[n++] = (uint32_t)i;
	}
	for (size_t i = n / 2; i-- > 0;)
		sift_down(heads, heap, n, i);
	while (n > 0) {
		struct head *h = &heads[heap[0]];
		take(ctx, &h->s);
		next_of(h);
		if (h->done)
			heap[0] = heap[--n];
		sift_down(heads, heap, n, 0);
	}
	for (size_t i = 0; i < o->n_runs; i++)
		spill_reader_free(&heads[i].rd);
	free(heads);
	free(heap);
}

void jfr_order_flush(struct jfr_order *o, void (*take)(void *, const struct jfr_sample *), void *ctx)
{
	if (o->n_runs == 0) {
		sort_block(o);
		for (size_t i = 0; i < o->n; i++)
			take(ctx, &o->block[i]);
	} else {
		if (o->n)
			spill_block(o);
		merge_runs(o, take, ctx);
	}
	o->n = o->n_runs = 0;
	o->in_order = 1;
	spill_clear(&o->runs);
}

void jfr_order_free(struct jfr_order *o)
{
	free(o->block);
	free(o->run);
	spill_free(&o->runs);
}
