/*
 * sprof writer (-t sprof): the views of Sawitzki's summary.sprof as
 * tab-separated tables, each after a line "# NAME" and a header row, as
 * -t tables writes them (docs/formats/sprof.md):
 *
 *   profiles    summary_profiles: id, len (records), uniquestacks, nr_runs,
 *               sampling.time;
 *   stacks      summary_stacks: nrstacks, the range of stack lengths, and
 *               nrnodesperlevel (distinct nodes at depth 1, 2, ... from the
 *               root, space-separated);
 *   stack_list  sprof's stacks table: one row per stack in order of first
 *               appearance, its length, refcount, root and leaf;
 *   nodes       summary_nodes with nodesrunlength: one row per function
 *               name in byte order, its abbreviate()d short name, ROOT and
 *               LEAF marks, self and total, nr_runs, and the mean run.
 *
 * Counts are records (samples), times seconds, percentages over records:
 * none of sprof's milliseconds taken for counts. Rows grow with the
 * profile's distinct stacks and functions, never with its records.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "sprof.h"

/* A name as the tables write text: tab, newline and backslash escaped. */
static void cell(struct output *out, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		if (c == '\t' || c == '\n' || c == '\\') {
			output_byte(out, '\\');
			c = c == '\t' ? 't' : c == '\n' ? 'n' : '\\';
		}
		output_byte(out, c);
	}
}

static void name_cell(struct output *out, struct sprof *s, uint32_t key)
{
	size_t len;
	const char *name = key == MODEL_NONE ? "" : sprof_name(s, key, &len);
	cell(out, name, key == MODEL_NONE ? 0 : len);
}

static void tab_i64(struct output *out, int64_t v)
{
	char text[24];
	snprintf(text, sizeof text, "\t%" PRId64, v);
	output_str(out, text);
}

static void tab_seconds(struct output *out, const struct sprof *s, double time)
{
	char text[64];
	output_byte(out, '\t');
	sprof_seconds(s, time, text, sizeof text);
	output_str(out, text);
}

static void tab_ratio(struct output *out, const char *format, double part, double whole)
{
	char text[64];
	snprintf(text, sizeof text, format, whole > 0 ? part / whole : 0.0);
	output_str(out, text);
}

static void write_profiles(struct output *out, struct sprof *s)
{
	uint32_t source = model_get_meta(s->m, "source");
	const char *id = source == HASHIDX_NONE ? "" : model_cstr(s->m, source);
	output_str(out, "# profiles\nid\tlen\tuniquestacks\tnr_runs\tsampling.time\n");
	cell(out, id, strlen(id));
	tab_i64(out, s->len);
	tab_i64(out, (int64_t)s->n_stacks);
	tab_i64(out, (int64_t)s->runs);
	tab_seconds(out, s, (double)s->time);
	output_byte(out, '\n');
}

static void write_stacks(struct output *out, struct sprof *s)
{
	uint32_t shortest = UINT32_MAX, longest = 0;
	for (size_t i = 0; i < s->n_stacks; i++) {
		uint32_t d = s->seqs[s->stacks[i].seq].depth;
		shortest = d < shortest ? d : shortest;
		longest = d > longest ? d : longest;
	}
	output_str(out, "\n# stacks\nnrstacks\tstacklength.min\tstacklength.max\tnrnodesperlevel\n");
	output_u64(out, s->n_stacks);
	if (s->n_stacks) {
		tab_i64(out, shortest);
		tab_i64(out, longest);
	} else {
		output_str(out, "\tNA\tNA");
	}
	for (uint32_t d = 0; d < s->max_depth; d++) {
		output_byte(out, d ? ' ' : '\t');
		output_u64(out, s->per_level[d]);
	}
	output_str(out, s->max_depth ? "\n" : "\t\n");
}

static void write_stack_list(struct output *out, struct sprof *s)
{
	output_str(out, "\n# stack_list\nstack\tstacklength\trefcount\trefcount.time\troot\tleaf\n");
	for (size_t i = 0; i < s->n_stacks; i++) {
		const struct sprof_stack *st = &s->stacks[i];
		const struct sprof_seq *seq = &s->seqs[st->seq];
		output_u64(out, i + 1);
		tab_i64(out, seq->depth);
		tab_i64(out, st->count);
		tab_seconds(out, s, (double)st->time);
		output_byte(out, '\t');
		name_cell(out, s, seq->root);
		output_byte(out, '\t');
		name_cell(out, s, seq->key);
		output_byte(out, '\n');
	}
}

static void write_node(struct output *out, struct sprof *s, size_t i)
{
	uint32_t key = s->node_keys[i];
	const struct sprof_node *n = &s->nodes[key];
	name_cell(out, s, key);
	output_byte(out, '\t');
	cell(out, s->short_names.bytes + s->short_names.start[i], s->short_names.len[i]);
	output_str(out, n->root ? "\tROOT" : "\t-");
	output_str(out, n->leaf ? "\tLEAF" : "\t-");
	tab_i64(out, n->self);
	tab_seconds(out, s, (double)n->self_time);
	tab_ratio(out, "\t%.2f", 100.0 * (double)n->self, (double)s->len);
	tab_i64(out, n->total);
	tab_seconds(out, s, (double)n->total_time);
	tab_ratio(out, "\t%.2f", 100.0 * (double)n->total, (double)s->len);
	tab_i64(out, (int64_t)n->runs);
	tab_ratio(out, "\t%.3f", (double)n->run_count, (double)n->runs);
	tab_seconds(out, s, n->runs ? (double)n->run_time / (double)n->runs : 0.0);
	output_byte(out, '\n');
}

static void write_nodes(struct output *out, struct sprof *s)
{
	output_str(out, "\n# nodes\nname\tshortname\troot\tleaf\tself\tself.time\tself.pct\ttotal\ttotal.time"
			"\ttotal.pct\tnr_runs\tavg_len\tavg_time\n");
	for (size_t i = 0; i < s->n_nodes; i++)
		write_node(out, s, i);
}

static int sprof_write(const struct model *m, struct output *out, const struct write_options *opts)
{
	struct sprof s;
	int rc = sprof_init(&s, m, opts->sample_type, out);
	if (rc == 0) {
		write_profiles(out, &s);
		write_stacks(out, &s);
		write_stack_list(out, &s);
		write_nodes(out, &s);
	}
	sprof_free(&s);
	return rc;
}

const struct format format_sprof = {
	.name = "sprof",
	.description = "sprof's summaries of profiles, stacks and nodes as TSV (write only)",
	.extensions = (const char *const[]){ ".sprof.tsv", NULL },
	.binary = 0,
	.probe = NULL,
	.read = NULL,
	.write = sprof_write,
};
