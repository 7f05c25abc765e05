/*
 * Flame chart writer (-t flamechart): the samples in their order along x
 * (an R profile's in time, each run at its own interval; any other in the
 * order of the file, as the subtitle says), depth along y. A box is a run:
 * consecutive samples in which one frame key sits at one depth under one
 * parent box, which are the runs of sprof's recursive run-length encoding
 * (docs/formats/flamegraph.md). Consecutive boxes narrower than
 * --minwidth under one parent (no wide box between them) become one grey
 * "..." box from the first one's start to the last one's end, its title
 * counting only theirs, drawn when it is wide enough; their time stays in
 * the parent's width either way.
 *
 * Rows are streamed, three times: the total (for the scale), a dry run
 * for the deepest box drawn (the page's height comes first in the file),
 * and the drawing. Memory grows with the deepest stack, output with the
 * boxes wide enough to draw. Boxes are written as their runs end, so a
 * parent follows its children; each carries data-first (its first sample,
 * from 1) and data-len (its samples), by which flame.js orders them.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/diag.h"
#include "../model/diff.h"
#include "flamegraph.h"

struct open_box {
	uint32_t key;
	int64_t start;  /* in counts */
	uint64_t first; /* sample number, from 1 */
};

/*
 * Narrow boxes merged so far at one depth, under the current parent: from
 * the first one's start to the last one's end, with their summed count.
 */
struct pending {
	int used;
	int64_t start, end, count;
	uint64_t first, end_sample;
	uint32_t runs;
};

struct chart {
	const struct model *m;
	const struct flame_options *opts;
	const struct flame_values *fv;
	struct flame_keys keys;
	struct flame_page page;
	int dry;
	struct open_box *open; /* open[d - 1] is the box at depth d */
	size_t depth, cap_open;
	struct pending *pending; /* pending[d] */
	size_t cap_pending;
	int64_t at;      /* counts so far */
	uint64_t sample; /* the next sample's number */
	uint32_t *keys_of_stack;
	size_t cap_keys_of_stack;
	struct model_frame *frames;
	size_t cap_frames;
};

static void emit(struct chart *c, uint32_t key, size_t depth, struct flame_span span, uint64_t first,
		 uint64_t end_sample, uint32_t runs)
{
	if (c->dry) {
		if (depth > c->page.max_depth)
			c->page.max_depth = (unsigned)depth;
		return;
	}
	char extra[128];
	int n = snprintf(extra, sizeof extra, "%s data-first=\"%" PRIu64 "\" data-len=\"%" PRIu64 "\"",
			 key == FLAME_ELIDED ? " class=\"elided\"" : "", first, end_sample - first);
	if (key == FLAME_ELIDED)
		snprintf(extra + n, sizeof extra - (size_t)n, " data-runs=\"%" PRIu32 "\"", runs);
	flame_box(&c->page, key, (unsigned)depth, span, extra);
}

static struct pending *pending_at(struct chart *c, size_t depth)
{
	if (depth >= c->cap_pending) {
		size_t old = c->cap_pending;
		grow((void **)&c->pending, &c->cap_pending, depth + 1, sizeof *c->pending);
		memset(c->pending + old, 0, (c->cap_pending - old) * sizeof *c->pending);
	}
	return &c->pending[depth];
}

/* Ends the merged narrow boxes at a depth: drawn as one "..." when that is wide enough. */
static void flush(struct chart *c, size_t depth)
{
	struct pending *p = pending_at(c, depth);
	if (p->used && flame_wide_enough(&c->page, p->end - p->start))
		emit(c, FLAME_ELIDED, depth, (struct flame_span){ p->start, p->end, p->count, 0, 0 }, p->first,
		     p->end_sample, p->runs);
	p->used = 0;
}

/* Ends the run of the deepest open box, now. */
static void close_box(struct chart *c)
{
	size_t depth = c->depth--;
	const struct open_box *b = &c->open[depth - 1];
	flush(c, depth + 1);
	struct pending *p = pending_at(c, depth);
	if (flame_wide_enough(&c->page, c->at - b->start)) {
		flush(c, depth);
		emit(c, b->key, depth, (struct flame_span){ b->start, c->at, c->at - b->start, 0, 0 }, b->first,
		     c->sample, 1);
		return;
	}
	if (!p->used)
		*p = (struct pending){ 1, b->start, 0, 0, b->first, 0, 0 };
	p->end = c->at;
	p->count += c->at - b->start;
	p->end_sample = c->sample;
	p->runs++;
}

/* The next samples' stack: runs end where it leaves the open path, and new ones start. */
static void enter(struct chart *c, uint32_t stack)
{
	size_t n = flame_stack_keys(&c->keys, stack, c->opts->reverse, &c->keys_of_stack,
				    &c->cap_keys_of_stack, &c->frames, &c->cap_frames);
	size_t same = 0;
	while (same < n && same < c->depth && c->open[same].key == c->keys_of_stack[same])
		same++;
	while (c->depth > same)
		close_box(c);
	grow((void **)&c->open, &c->cap_open, n, sizeof *c->open);
	for (; c->depth < n; c->depth++)
		c->open[c->depth] = (struct open_box){ c->keys_of_stack[c->depth], c->at, c->sample };
}

static void stream(struct chart *c)
{
	struct view v;
	view_init(&v, c->m);
	int64_t *values = xmalloc((v.n_types + 1) * sizeof *values);
	uint32_t last = MODEL_NONE;
	c->at = 0;
	c->sample = 1;
	c->depth = 0;
	struct row_cursor rows;
	rows_begin(c->m, &rows);
	for (const struct model_row *row; (row = rows_next(&rows));) {
		view_values(&v, row, values);
		if (row->stack != last)
			enter(c, row->stack);
		last = row->stack;
		c->at += values[c->fv->type];
		c->sample += row->repeat;
	}
	rows_end(&rows);
	while (c->depth > 0)
		close_box(c);
	flush(c, 1);
	free(values);
}

static void subtitle(const struct chart *c, char *text, size_t size)
{
	uint32_t source = model_get_meta(c->m, "source");
	snprintf(text, size, "%s: %s, %s%s%s", source == HASHIDX_NONE ? "profile" : model_cstr(c->m, source),
		 c->fv->time_ordered ? "in time order" : "in the order of the file (it has no time order)",
		 c->fv->type_name, c->opts->reverse ? ", stacks reversed (leaf at the root)" : "",
		 c->opts->frames_by_line ? ", a frame per line" : "");
}

int flamechart_write(const struct model *m, struct output *out, const struct write_options *given)
{
	struct flame_options read;
	flame_options_read(given, &read);
	const struct flame_options *opts = &read;
	struct flame_values fv;
	if (model_diff_key(m) != MODEL_NONE) {
		diag_error(out->name, 0, "a difference (--diff-base) has no one time order to chart: "
					 "draw it with -t flamegraph");
		return -1;
	}
	if (flame_total(m, out, opts, 1, &fv) < 0)
		return -1;
	struct chart c;
	memset(&c, 0, sizeof c);
	c.m = m;
	c.opts = opts;
	c.fv = &fv;
	flame_keys_init(&c.keys, m, opts->frames_by_line);
	flame_page_init(&c.page, out, &c.keys, opts, &fv);
	char sub[512];
	subtitle(&c, sub, sizeof sub);
	c.page.title = opts->title ? opts->title : "Flame Chart";
	c.page.subtitle = sub;
	c.dry = 1;
	stream(&c);
	c.dry = 0;
	flame_page_begin(&c.page);
	/* The root first: flame.js finds depths from it. */
	char root[64];
	snprintf(root, sizeof root, " data-first=\"1\" data-len=\"%" PRIu64 "\"", c.sample - 1);
	flame_box(&c.page, FLAME_ROOT, 0, (struct flame_span){ 0, fv.total, fv.total, 0, 0 }, root);
	stream(&c);
	flame_page_end(&c.page);
	flame_keys_free(&c.keys);
	free(c.open);
	free(c.pending);
	free(c.keys_of_stack);
	free(c.frames);
	return 0;
}

static const char *const flamechart_extensions[] = { ".chart.svg", NULL };

const struct format format_flamechart = {
	.name = "flamechart",
	.description = "flame chart, one interactive SVG (write only): samples in time order, boxes are runs",
	.extensions = flamechart_extensions,
	.binary = 0,
	.probe = NULL,
	.read = NULL,
	.options = flame_options,
	.write = flamechart_write,
};
