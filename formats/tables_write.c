/*
 * tables writer: the model's tables as tab-separated text, the relational
 * view R's dm_from_profile() gives of a profile, for inspection and tests.
 * Each table starts with "# NAME" and a header line; ids count from 1, as
 * in R; a tab, a newline or a backslash inside a value is written \t, \n
 * or \\. A sample type with decimals has its values written with them
 * ("1.500"), and sample_types a decimals column when any type has some.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "../base/numtext.h"
#include "format.h"

static void cell(struct output *out, const struct model *m, uint32_t id)
{
	const struct strtab_entry *e = strtab_get(&m->strings, id);
	for (size_t i = 0; i < e->len; i++) {
		char c = e->bytes[i];
		if (c == '\t' || c == '\n' || c == '\\') {
			output_byte(out, '\\');
			c = c == '\t' ? 't' : c == '\n' ? 'n' : '\\';
		}
		output_byte(out, c);
	}
}

static void number(struct output *out, int64_t v, char after)
{
	char text[24];
	snprintf(text, sizeof text, "%" PRId64 "%c", v, after);
	output_str(out, text);
}

static void scaled(struct output *out, int64_t v, unsigned decimals, char after)
{
	char text[DECIMAL_TEXT_MAX];
	output_write(out, text, decimal_text(text, v, decimals, 0));
	output_byte(out, after);
}

static int has_decimals(const struct model *m)
{
	for (size_t i = 0; i < m->n_sample_types; i++)
		if (m->sample_types[i].decimals)
			return 1;
	return 0;
}

static void string_pair(struct output *out, const struct model *m, uint32_t a, uint32_t b)
{
	cell(out, m, a);
	output_byte(out, '\t');
	cell(out, m, b);
	output_byte(out, '\n');
}

static void write_meta(struct output *out, const struct model *m)
{
	output_str(out, "# meta\nkey\tvalue\n");
	for (size_t i = 0; i < m->n_meta; i++)
		string_pair(out, m, m->meta[i].key, m->meta[i].value);
	int decimals = has_decimals(m);
	output_str(out, decimals ? "\n# sample_types\ntype\tunit\tdecimals\n" : "\n# sample_types\ntype\tunit\n");
	for (size_t i = 0; i < m->n_sample_types; i++) {
		cell(out, m, m->sample_types[i].type);
		output_byte(out, '\t');
		cell(out, m, m->sample_types[i].unit);
		if (decimals) {
			output_byte(out, '\t');
			number(out, m->sample_types[i].decimals, '\n');
		} else {
			output_byte(out, '\n');
		}
	}
}

/* One row per model row: its values (times its repeat), memory columns, run. */
static void write_samples(struct output *out, const struct model *m)
{
	output_str(out, "\n# samples\nsample_id");
	for (size_t t = 0; t < m->n_sample_types; t++) {
		output_byte(out, '\t');
		cell(out, m, m->sample_types[t].type);
	}
	output_str(out, m->sessions.has_memory ? "\tsmall_v\tbig_v\tnodes\tdup_count" : "");
	output_str(out, m->sessions.n_runs ? "\trun\n" : "\n");
	struct row_cursor rows;
	rows_begin(m, &rows);
	for (const struct model_row *row; (row = rows_next(&rows));) {
		number(out, (int64_t)row->index + 1,
		       m->n_sample_types || m->sessions.has_memory || m->sessions.n_runs ? '\t' : '\n');
		for (size_t t = 0; t < m->n_sample_types; t++)
			scaled(out, row->values[t] * (int64_t)row->repeat, m->sample_types[t].decimals,
			       t + 1 < m->n_sample_types || m->sessions.has_memory || m->sessions.n_runs ? '\t' : '\n');
		if (m->sessions.has_memory) {
			number(out, (int64_t)row->memory.small_v, '\t');
			number(out, (int64_t)row->memory.big_v, '\t');
			number(out, (int64_t)row->memory.nodes, '\t');
			number(out, (int64_t)row->memory.dup_count, m->sessions.n_runs ? '\t' : '\n');
		}
		if (m->sessions.n_runs)
			number(out, (int64_t)row->run + 1, '\n');
	}
	rows_end(&rows);
	output_str(out, "\n# sample_locations\nsample_id\tposition\tlocation_id\n");
	rows_begin(m, &rows);
	for (const struct model_row *row; (row = rows_next(&rows));) {
		int64_t position = 1;
		for (uint32_t s = row->stack; s != MODEL_EMPTY_STACK; s = m->stacks[s].caller) {
			number(out, (int64_t)row->index + 1, '\t');
			number(out, position++, '\t');
			number(out, (int64_t)m->stacks[s].location + 1, '\n');
		}
	}
	rows_end(&rows);
}

/* Call sites (R's reference after the outermost frame) get columns when there are any. */
static int has_call_sites(const struct model *m)
{
	for (size_t i = 0; i < m->n_locations; i++)
		if (m->locations[i].call_site.line)
			return 1;
	return 0;
}

static void write_locations(struct output *out, const struct model *m)
{
	int sites = has_call_sites(m);
	output_str(out, sites ? "\n# locations\nlocation_id\tfunction_id\tline\tcall_file\tcall_line\n"
			      : "\n# locations\nlocation_id\tfunction_id\tline\n");
	for (size_t i = 0; i < m->n_locations; i++) {
		const struct model_location *l = &m->locations[i];
		number(out, (int64_t)i + 1, '\t');
		if (l->function == MODEL_NONE)
			output_str(out, "NA\t");
		else
			number(out, (int64_t)l->function + 1, '\t');
		number(out, l->line, sites ? '\t' : '\n');
		if (sites) {
			cell(out, m, l->call_site.file);
			output_byte(out, '\t');
			number(out, l->call_site.line, '\n');
		}
	}
	output_str(out, "\n# functions\nfunction_id\tname\tsystem_name\tfile_name\tstart_line\n");
	for (size_t i = 0; i < m->n_functions; i++) {
		const struct model_function *f = &m->functions[i];
		number(out, (int64_t)i + 1, '\t');
		cell(out, m, f->name);
		output_byte(out, '\t');
		cell(out, m, f->system_name);
		output_byte(out, '\t');
		cell(out, m, f->file_name);
		output_byte(out, '\t');
		number(out, f->start_line, '\n');
	}
}

int tables_write(const struct model *m, struct output *out, const struct write_options *opts)
{
	(void)opts;
	write_meta(out, m);
	write_samples(out, m);
	write_locations(out, m);
	return 0;
}

const struct format format_tables = {
	.name = "tables",
	.description = "the model's tables as TSV, R's dm_from_profile() view (write only)",
	.extensions = (const char *const[]){ ".tsv", NULL },
	.binary = 0,
	.probe = NULL,
	.read = NULL,
	.write = tables_write,
};
