/*
 * sprof's views of a profile (sprof.h): one pass over the rows in their
 * order gives the records, stacks and runs; the nodes follow from the
 * distinct stacks, as sprof derives them from its stacks table.
 */
#include "sprof.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/diag.h"

/* The open runs of the pass: depth d's in open[d - 1], and where each began. */
struct pass {
	struct sprof *s;
	struct run_start {
		uint32_t seq;
		int64_t count, time;
	} *open;
	size_t depth, cap_open;
	uint32_t *path; /* the seqs of a stack, root first */
	size_t cap_path;
	struct model_frame *frames;
	size_t cap_frames;
	int runs_overflow; /* a name's run sums passed 2^63 */
};

static int seq_equals(const void *ctx, uint32_t id, const void *key)
{
	const struct sprof_seq *a = &((const struct sprof *)ctx)->seqs[id], *b = key;
	return a->key == b->key && a->parent == b->parent;
}

static uint32_t intern_seq(struct sprof *s, uint32_t key, uint32_t parent)
{
	struct sprof_seq seq = { key, parent, s->seqs[parent].depth + 1,
				 parent ? s->seqs[parent].root : key };
	return hashidx_intern(&s->seq_index, hash_mix(key, parent), seq_equals, s, &seq,
			      (void **)&s->seqs, &s->n_seqs, &s->cap_seqs, sizeof *s->seqs);
}

/* The seq of a model stack: its frames' names from the root, made once per stack. */
static uint32_t seq_of(struct pass *p, uint32_t stack)
{
	struct sprof *s = p->s;
	if (s->seq_of_stack[stack] != MODEL_NONE)
		return s->seq_of_stack[stack];
	size_t n = model_stack_frames(s->m, stack, &p->frames, &p->cap_frames);
	uint32_t seq = 0;
	while (n > 0)
		seq = intern_seq(s, flame_key(&s->keys, &p->frames[--n]), seq);
	return s->seq_of_stack[stack] = seq;
}

/* The stack of a seq, numbered as it first appears. */
static struct sprof_stack *stack_for(struct sprof *s, uint32_t seq)
{
	size_t old = s->cap_stack_of_seq;
	grow((void **)&s->stack_of_seq, &s->cap_stack_of_seq, s->n_seqs, sizeof *s->stack_of_seq);
	memset(s->stack_of_seq + old, 0xff, (s->cap_stack_of_seq - old) * sizeof *s->stack_of_seq);
	if (s->stack_of_seq[seq] == MODEL_NONE) {
		grow((void **)&s->stacks, &s->cap_stacks, s->n_stacks + 1, sizeof *s->stacks);
		s->stacks[s->n_stacks] = (struct sprof_stack){ seq, 0, 0 };
		s->stack_of_seq[seq] = (uint32_t)s->n_stacks++;
	}
	return &s->stacks[s->stack_of_seq[seq]];
}

static struct sprof_node *node(struct sprof *s, uint32_t key)
{
	return &s->nodes[key];
}

/* Runs deeper than `depth` end now: each is one of its node's runs. */
static void close_runs(struct pass *p, size_t depth)
{
	struct sprof *s = p->s;
	for (; p->depth > depth; p->depth--) {
		const struct run_start *r = &p->open[p->depth - 1];
		struct sprof_node *n = node(s, s->seqs[r->seq].key);
		n->runs++;
		/* A recursive name's runs nest, so their sums may pass the profile's total. */
		if (__builtin_add_overflow(n->run_count, s->len - r->count, &n->run_count))
			p->runs_overflow = 1;
		int64_t time;
		if (__builtin_sub_overflow(s->time, r->time, &time) ||
		    __builtin_add_overflow(n->run_time, time, &n->run_time))
			p->runs_overflow = 1;
	}
}

/* The next records' stack: the runs it leaves end, and its own begin where they differ. */
static void enter(struct pass *p, uint32_t seq)
{
	struct sprof *s = p->s;
	size_t n = s->seqs[seq].depth, same = 0;
	grow((void **)&p->path, &p->cap_path, n + 1, sizeof *p->path);
	for (uint32_t at = seq; at; at = s->seqs[at].parent)
		p->path[s->seqs[at].depth - 1] = at;
	while (same < n && same < p->depth && p->open[same].seq == p->path[same])
		same++;
	close_runs(p, same);
	grow((void **)&p->open, &p->cap_open, n + 1, sizeof *p->open);
	for (; p->depth < n; p->depth++)
		p->open[p->depth] = (struct run_start){ p->path[p->depth], s->len, s->time };
}

static void grow_nodes(struct sprof *s, size_t *cap_nodes)
{
	size_t old = *cap_nodes;
	grow((void **)&s->nodes, cap_nodes, s->keys.n, sizeof *s->nodes);
	memset(s->nodes + old, 0, (*cap_nodes - old) * sizeof *s->nodes);
}

static int stream(struct pass *p, struct output *out)
{
	struct sprof *s = p->s;
	int64_t *values = xmalloc((s->view.n_types + 1) * sizeof *values);
	size_t cap_nodes = 0;
	uint32_t last = MODEL_NONE;
	int rc = 0;
	struct row_cursor rows;
	rows_begin(s->m, &rows);
	for (const struct model_row *row; rc == 0 && (row = rows_next(&rows));) {
		view_values(&s->view, row, values);
		int64_t count = sprof_row_count(s, values), time = sprof_row_time(s, values);
		if (count < 0)
			rc = view_refuse_negative(s->m, row->index, s->type, count, "sprof's views", out->name);
		if (count <= 0)
			continue;
		uint32_t seq = seq_of(p, row->stack);
		grow_nodes(s, &cap_nodes);
		if (seq != last) {
			s->runs++;
			enter(p, seq);
		}
		last = seq;
		struct sprof_stack *st = stack_for(s, seq);
		st->count += count;
		st->time += time;
		s->len += count;
		s->time += time;
	}
	rows_end(&rows);
	close_runs(p, 0);
	grow_nodes(s, &cap_nodes);
	free(values);
	return rc;
}

/* Self and total from the stacks: total once per stack, however often a name recurs. */
static void count_nodes(struct sprof *s)
{
	uint32_t *counted_in = xmalloc((s->keys.n + 1) * sizeof *counted_in);
	memset(counted_in, 0xff, (s->keys.n + 1) * sizeof *counted_in);
	for (size_t i = 0; i < s->n_stacks; i++) {
		const struct sprof_stack *st = &s->stacks[i];
		const struct sprof_seq *leaf = &s->seqs[st->seq];
		if (leaf->depth == 0)
			continue;
		node(s, leaf->key)->self += st->count;
		node(s, leaf->key)->self_time += st->time;
		node(s, leaf->key)->leaf = 1;
		node(s, leaf->root)->root = 1;
		for (uint32_t at = st->seq; at; at = s->seqs[at].parent) {
			struct sprof_node *n = node(s, s->seqs[at].key);
			if (counted_in[s->seqs[at].key] == i)
				continue;
			counted_in[s->seqs[at].key] = (uint32_t)i;
			n->total += st->count;
			n->total_time += st->time;
		}
	}
	free(counted_in);
}

static int compare_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* sprof's nrnodesperlevel: distinct (depth, name) pairs, counted by depth. */
static void count_levels(struct sprof *s)
{
	uint64_t *pairs = xmalloc(s->n_seqs * sizeof *pairs);
	for (size_t i = 1; i < s->n_seqs; i++) {
		pairs[i - 1] = (uint64_t)s->seqs[i].depth << 32 | s->seqs[i].key;
		if (s->seqs[i].depth > s->max_depth)
			s->max_depth = s->seqs[i].depth;
	}
	if (s->n_seqs > 1)
		qsort(pairs, s->n_seqs - 1, sizeof *pairs, compare_u64);
	s->per_level = xcalloc(s->max_depth + 1, sizeof *s->per_level);
	for (size_t i = 0; i + 1 < s->n_seqs; i++)
		if (i == 0 || pairs[i] != pairs[i - 1])
			s->per_level[(pairs[i] >> 32) - 1]++;
	free(pairs);
}

static struct sprof *sorting;

static int by_name(const void *a, const void *b)
{
	size_t la, lb;
	const char *x = sprof_name(sorting, *(const uint32_t *)a, &la);
	const char *y = sprof_name(sorting, *(const uint32_t *)b, &lb);
	int c = memcmp(x, y, la < lb ? la : lb);
	return c ? c : la < lb ? -1 : la > lb;
}

/* The nodes by name in byte order (sprof sorts in the locale's order, which varies), and their short names. */
static void list_nodes(struct sprof *s)
{
	size_t len;
	s->node_keys = xmalloc((s->keys.n + 1) * sizeof *s->node_keys);
	for (uint32_t k = FLAME_ELIDED + 1; k < s->keys.n; k++)
		if (s->nodes[k].total > 0)
			s->node_keys[s->n_nodes++] = k;
	/* Every name made first: making one may move the others. */
	for (size_t i = 0; i < s->n_nodes; i++)
		sprof_name(s, s->node_keys[i], &len);
	sorting = s;
	if (s->n_nodes)
		qsort(s->node_keys, s->n_nodes, sizeof *s->node_keys, by_name);
	const char **names = xmalloc((s->n_nodes + 1) * sizeof *names);
	size_t *lens = xmalloc((s->n_nodes + 1) * sizeof *lens);
	for (size_t i = 0; i < s->n_nodes; i++)
		names[i] = sprof_name(s, s->node_keys[i], &lens[i]);
	abbreviate(names, lens, s->n_nodes, 4, &s->short_names);
	free(names);
	free(lens);
}

/*
 * The records' time: the counted type itself when it is a time, else the
 * first time type that every counted record has (an R profile's cpu beside
 * its ticks); none when the times are another event's (a JFR's
 * jdk.ThreadPark:duration beside jdk.ExecutionSample's records).
 */
static void find_time(struct sprof *s)
{
	size_t n = s->view.n_types;
	char *every = xcalloc(n + 1, 1);
	for (size_t t = 0; t < n; t++)
		every[t] = view_ns_per_value(view_unit(&s->view, t), view_decimals(&s->view, t)) > 0;
	int64_t *values = xmalloc((n + 1) * sizeof *values);
	struct view v;
	view_init(&v, s->m);
	struct row_cursor rows;
	rows_begin(s->m, &rows);
	for (const struct model_row *row; !every[s->type] && (row = rows_next(&rows));) {
		view_values(&v, row, values);
		for (size_t t = 0; t < n && values[s->type]; t++)
			every[t] &= values[t] != 0;
	}
	rows_end(&rows);
	s->time_type = every[s->type] ? s->type : SIZE_MAX;
	for (size_t t = 0; t < n && s->time_type == SIZE_MAX; t++)
		s->time_type = every[t] ? t : SIZE_MAX;
	if (s->time_type != SIZE_MAX)
		s->ns_per_time_value = view_ns_per_value(view_unit(&s->view, s->time_type),
							 view_decimals(&s->view, s->time_type));
	free(values);
	free(every);
}

int sprof_init(struct sprof *s, const struct model *m, const char *sample_type, struct output *out)
{
	memset(s, 0, sizeof *s);
	s->m = m;
	view_init(&s->view, m);
	flame_keys_init(&s->keys, m, 0);
	s->seqs = xmalloc(sizeof *s->seqs);
	s->seqs[0] = (struct sprof_seq){ MODEL_NONE, MODEL_NONE, 0, MODEL_NONE };
	s->n_seqs = s->cap_seqs = 1;
	s->seq_of_stack = xmalloc((m->n_stacks + 1) * sizeof *s->seq_of_stack);
	memset(s->seq_of_stack, 0xff, (m->n_stacks + 1) * sizeof *s->seq_of_stack);
	s->seq_of_stack[MODEL_EMPTY_STACK] = 0;
	if (view_pick(&s->view, sample_type, VIEW_TICKS, out->name, &s->type) < 0)
		return -1;
	find_time(s);
	struct pass p = { .s = s };
	int rc = stream(&p, out);
	free(p.open);
	free(p.path);
	free(p.frames);
	if (rc == 0 && p.runs_overflow)
		rc = (diag_error(out->name, 0, "sprof's runs of a name sum past 2^63"), -1);
	if (rc < 0)
		return -1;
	count_nodes(s);
	count_levels(s);
	list_nodes(s);
	return 0;
}

void sprof_free(struct sprof *s)
{
	flame_keys_free(&s->keys);
	free(s->seqs);
	hashidx_free(&s->seq_index);
	free(s->seq_of_stack);
	free(s->stack_of_seq);
	free(s->stacks);
	free(s->nodes);
	free(s->node_keys);
	free(s->per_level);
	if (s->short_names.bytes)
		abbreviations_free(&s->short_names);
}

int64_t sprof_row_count(const struct sprof *s, const int64_t *values)
{
	return values[s->type];
}

int64_t sprof_row_time(const struct sprof *s, const int64_t *values)
{
	return s->time_type == SIZE_MAX ? 0 : values[s->time_type];
}

uint32_t sprof_stack_of(const struct sprof *s, uint32_t model_stack)
{
	return s->stack_of_seq[s->seq_of_stack[model_stack]];
}

const char *sprof_name(struct sprof *s, uint32_t key, size_t *len)
{
	return flame_key_text(&s->keys, key, len);
}

void sprof_seconds(const struct sprof *s, double time, char *text, size_t size)
{
	if (s->time_type == SIZE_MAX)
		snprintf(text, size, "NA");
	else
		snprintf(text, size, "%.6f", time * s->ns_per_time_value / 1e9);
}
