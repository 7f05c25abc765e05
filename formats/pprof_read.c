/*
 * pprof reader, second half: checks a decoded profile by Go's rules
 * (docs/formats/pprof.md: string table, ids, references, value counts, labels)
 * and builds the model, keeping ids, order and every field, so that the
 * writer can give back what Go's profile package would read from the
 * input. A profile that prof wrote from Rprof is built as that Rprof model
 * (pprof_rprof.c), decided before anything is built.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "../base/diag.h"
#include "../base/alloc.h"
#include "../base/varint.h"
#include "pprof.h"

struct resolver {
	struct pprof_raw *raw;
	struct model *m;
	const char *source;
	struct id_index {
		struct hashidx hash;
		/*
		 * by_id[id]: the item with that id, when ids are dense (Go
		 * numbers them 1..n): a sample's every frame is looked up.
		 */
		uint32_t *by_id;
		uint64_t n_by_id;
	} mapping_ids, location_ids, function_ids;
	/*
	 * The stacks of the callers of samples' innermost frames, by their
	 * location ids: samples mostly share a call path and differ at the
	 * leaf, so a sample costs one lookup for its path, not one per frame.
	 */
	struct hashidx caller_index;
	struct caller_stack {
		size_t first, n; /* bytes in raw->location_ids */
		uint32_t stack;
	} *callers;
	size_t n_callers, cap_callers;
	uint64_t *ids; /* the sample being resolved's location ids */
	size_t cap_ids;
	uint32_t *function_of; /* model function by raw function index */
	uint32_t *location_of; /* model location by raw location index */
	uint32_t *no_location_file; /* by raw function index: the file of a "<no location>" one */
	struct pprof_rprof *rprof; /* non-NULL: the file carries an Rprof profile */
	uint64_t at;           /* offset of the message being resolved; 0: none */
	const char *field;     /* and what it is */
};

/* Says which message a problem is in: "in function at byte 120". */
static void locate(struct resolver *r, const char *field, uint64_t at)
{
	r->field = field;
	r->at = at;
}

__attribute__((format(printf, 2, 3)))
static int bad(const struct resolver *r, const char *fmt, ...)
{
	char msg[200];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (r->field)
		diag_error(r->source, 0, "bad pprof: %s, in %s at byte %" PRIu64, msg, r->field, r->at);
	else
		diag_error(r->source, 0, "bad pprof: %s", msg);
	return -1;
}

/* A string index, checked: 0 <= i < len(string_table). */
static int str(const struct resolver *r, int64_t index, const char *what, uint32_t *id)
{
	if (index < 0 || (uint64_t)index >= r->raw->n_strings)
		return bad(r, "%s names string %" PRId64 " of %zu", what, index, r->raw->n_strings);
	*id = r->raw->strings[index];
	return 0;
}

/* A table of raw items, each with a uint64 id at `offset`. */
struct id_table {
	const void *items;
	size_t stride, offset;
};

struct id_key {
	const struct id_table *table;
	uint64_t id;
};

static uint64_t id_at(const struct id_table *t, size_t i)
{
	uint64_t id;
	memcpy(&id, (const char *)t->items + i * t->stride + t->offset, sizeof id);
	return id;
}

static int id_equals(const void *ctx, uint32_t i, const void *key)
{
	const struct id_key *k = key;
	(void)ctx;
	return id_at(k->table, i) == k->id;
}

static uint32_t find_id(const struct id_index *idx, const struct id_table *t, uint64_t id)
{
	if (idx->by_id)
		return id < idx->n_by_id ? idx->by_id[id] : HASHIDX_NONE;
	struct id_key key = { t, id };
	return hashidx_find(&idx->hash, hash_mix(id, 0), id_equals, NULL, &key);
}

/*
 * Indexes a table by its ids, refusing 0 and repeats, as Go does: in an
 * array by id when the ids are dense (Go numbers them 1..n), else hashed.
 */
static int index_ids(struct resolver *r, struct id_index *idx, const struct id_table *t,
		     size_t n, const char *what, const uint64_t *at)
{
	uint64_t max = 0;
	for (size_t i = 0; i < n; i++)
		max = id_at(t, i) > max ? id_at(t, i) : max;
	int dense = max <= 2 * (uint64_t)n + 64;
	if (dense) {
		idx->n_by_id = max + 1;
		idx->by_id = xmalloc(idx->n_by_id * sizeof *idx->by_id);
		memset(idx->by_id, 0xff, idx->n_by_id * sizeof *idx->by_id);
	}
	for (size_t i = 0; i < n; i++) {
		struct id_key key = { t, id_at(t, i) };
		locate(r, what, at[i]);
		if (key.id == 0)
			return bad(r, "%s %zu has the reserved id 0", what, i);
		if (find_id(idx, t, key.id) != HASHIDX_NONE)
			return bad(r, "two %ss with id %" PRIu64, what, key.id);
		if (dense)
			idx->by_id[key.id] = (uint32_t)i;
		else
			hashidx_insert(&idx->hash, hash_mix(key.id, 0), (uint32_t)i);
	}
	return 0;
}


static void free_ids(struct id_index *idx)
{
	hashidx_free(&idx->hash);
	free(idx->by_id);
}

static struct id_table mapping_table(const struct pprof_raw *raw)
{
	return (struct id_table){ raw->mappings, sizeof *raw->mappings,
				  offsetof(perftools_profiles_Mapping, id) };
}

static struct id_table function_table(const struct pprof_raw *raw)
{
	return (struct id_table){ raw->functions, sizeof *raw->functions,
				  offsetof(perftools_profiles_Function, id) };
}

static struct id_table location_table(const struct pprof_raw *raw)
{
	return (struct id_table){ raw->locations, sizeof *raw->locations,
				  offsetof(struct pprof_raw_location, id) };
}

static int build_sample_types(struct resolver *r)
{
	/* R's ticks; time and memory are what the view makes of them. */
	if (r->rprof) {
		model_add_sample_type(r->m, "samples", "count");
		return 0;
	}
	for (size_t i = 0; i < r->raw->n_sample_types; i++) {
		struct model_sample_type t = { 0, 0, 0 };
		locate(r, "sample_type", r->raw->sample_type_at[i]);
		if (str(r, r->raw->sample_types[i].type, "a sample type", &t.type) < 0 ||
		    str(r, r->raw->sample_types[i].unit, "a sample unit", &t.unit) < 0)
			return -1;
		/* "count/1000": thousandths of a count, as the writer gives decimals. */
		const struct strtab_entry *unit = strtab_get(&r->m->strings, t.unit);
		size_t base_len;
		t.decimals = (uint8_t)pprof_unit_decimals(unit->bytes, unit->len, &base_len);
		if (t.decimals)
			t.unit = model_str(r->m, unit->bytes, base_len);
		grow((void **)&r->m->sample_types, &r->m->cap_sample_types, i + 1,
		     sizeof *r->m->sample_types);
		r->m->sample_types[i] = t;
		r->m->n_sample_types = i + 1;
	}
	return 0;
}

static int build_mappings(struct resolver *r)
{
	const struct pprof_raw *raw = r->raw;
	struct id_table t = mapping_table(raw);
	if (index_ids(r, &r->mapping_ids, &t, raw->n_mappings, "mapping", raw->mapping_at) < 0)
		return -1;
	for (size_t i = 0; i < raw->n_mappings; i++) {
		const perftools_profiles_Mapping *p = &raw->mappings[i];
		locate(r, "mapping", raw->mapping_at[i]);
		struct model_mapping mm = { p->id, p->memory_start, p->memory_limit, p->file_offset,
					    0, 0, p->has_functions, p->has_filenames,
					    p->has_line_numbers, p->has_inline_frames };
		if (str(r, p->filename, "a mapping's file name", &mm.filename) < 0 ||
		    str(r, p->build_id, "a mapping's build id", &mm.build_id) < 0)
			return -1;
		model_add_mapping(r->m, &mm);
	}
	return 0;
}

static int build_functions(struct resolver *r)
{
	const struct pprof_raw *raw = r->raw;
	struct id_table t = function_table(raw);
	if (index_ids(r, &r->function_ids, &t, raw->n_functions, "function", raw->function_at) < 0)
		return -1;
	r->function_of = xmalloc((raw->n_functions + 1) * sizeof *r->function_of);
	r->no_location_file = xmalloc((raw->n_functions + 1) * sizeof *r->no_location_file);
	for (size_t i = 0; i < raw->n_functions; i++) {
		const perftools_profiles_Function *p = &raw->functions[i];
		locate(r, "function", raw->function_at[i]);
		struct model_function f = { .start_line = p->start_line, .native_id = p->id };
		if (str(r, p->name, "a function name", &f.name) < 0 ||
		    str(r, p->system_name, "a function's system name", &f.system_name) < 0 ||
		    str(r, p->filename, "a function's file name", &f.file_name) < 0)
			return -1;
		r->no_location_file[i] = MODEL_NONE;
		/* R's "<no location>" is no function: only its file is kept. */
		if (r->rprof && model_str_is(r->m, f.system_name, PPROF_RPROF_NO_LOCATION)) {
			r->no_location_file[i] = f.file_name;
			r->function_of[i] = MODEL_NONE;
			continue;
		}
		if (r->rprof)
			pprof_rprof_function(r->m, &f);
		r->function_of[i] = model_function(r->m, &f);
	}
	return 0;
}

/* The raw index of a line's function. */
static int line_function(struct resolver *r, const perftools_profiles_Line *line,
			 uint64_t location_id, uint32_t *raw_index)
{
	struct id_table t = function_table(r->raw);
	*raw_index = find_id(&r->function_ids, &t, line->function_id);
	if (*raw_index == HASHIDX_NONE)
		return bad(r, "location %" PRIu64 " has a line with unknown function %" PRIu64,
			   location_id, line->function_id);
	return 0;
}

/*
 * A location of R's: a function and a line, or the call site of a
 * "<no location>" frame, whose made-up function is raw function `first`.
 */
static uint32_t rprof_location(struct resolver *r, uint32_t first, const struct model_location *l)
{
	if (first != HASHIDX_NONE && r->no_location_file[first] != MODEL_NONE)
		return model_location_called(r->m, MODEL_NONE, 0,
					     (struct model_call_site){ r->no_location_file[first], l->line });
	return model_location(r->m, l->function, l->line);
}

static int build_location(struct resolver *r, size_t i, struct model_line **inlined, size_t *cap)
{
	const struct pprof_raw *raw = r->raw;
	const struct pprof_raw_location *p = &raw->locations[i];
	struct model_location l = { .function = MODEL_NONE,
				    .native = { p->id, MODEL_NONE, p->address, (uint8_t)p->is_folded } };
	/* A mapping id that names no mapping means none, as in Go. */
	struct id_table mappings = mapping_table(raw);
	if (p->mapping_id)
		l.native.mapping = find_id(&r->mapping_ids, &mappings, p->mapping_id);
	if (l.native.mapping == HASHIDX_NONE)
		l.native.mapping = MODEL_NONE;
	size_t n_inlined = p->n_lines ? p->n_lines - 1 : 0;
	grow((void **)inlined, cap, n_inlined + 1, sizeof **inlined);
	uint32_t first = HASHIDX_NONE; /* the raw function of the location's own line */
	for (size_t k = 0; k < p->n_lines; k++) {
		const perftools_profiles_Line *line = &raw->lines[p->first_line + k];
		uint32_t raw_index;
		if (line_function(r, line, p->id, &raw_index) < 0)
			return -1;
		uint32_t function = r->function_of[raw_index];
		if (k == 0) {
			first = raw_index;
			l.function = function;
			l.line = line->line;
			l.column = line->column;
		} else {
			(*inlined)[k - 1] = (struct model_line){ function, line->line, line->column };
		}
	}
	/* An R frame is a function and a line, as the Rprof reader makes it. */
	r->location_of[i] = r->rprof ? rprof_location(r, first, &l)
				     : model_add_location(r->m, &l, *inlined, n_inlined);
	return 0;
}

static int build_locations(struct resolver *r)
{
	const struct pprof_raw *raw = r->raw;
	struct id_table t = location_table(raw);
	if (index_ids(r, &r->location_ids, &t, raw->n_locations, "location", raw->location_at) < 0)
		return -1;
	struct model_line *inlined = NULL;
	size_t cap = 0;
	int rc = 0;
	r->location_of = xmalloc((raw->n_locations + 1) * sizeof *r->location_of);
	for (size_t i = 0; i < raw->n_locations && rc == 0; i++) {
		locate(r, "location", raw->location_at[i]);
		rc = build_location(r, i, &inlined, &cap);
	}
	free(inlined);
	return rc;
}

/* Go drops a label with no string, number or unit; say so rather than drop quietly. */
static int build_labels(struct resolver *r, const struct pprof_raw_sample *s, uint32_t *set,
			struct model_label **labels, size_t *cap, size_t *dropped)
{
	size_t n = 0;
	grow((void **)labels, cap, s->n_labels + 1, sizeof **labels);
	for (size_t k = 0; k < s->n_labels; k++) {
		const perftools_profiles_Label *p = &r->raw->labels[s->first_label + k];
		struct model_label l = { 0, 0, 0, 0 };
		if (str(r, p->key, "a label key", &l.key) < 0)
			return -1;
		if (p->str != 0) {
			if (str(r, p->str, "a label value", &l.str) < 0)
				return -1;
		} else if (p->num != 0 || p->num_unit != 0) {
			l.num = p->num;
			if (str(r, p->num_unit, "a label unit", &l.num_unit) < 0)
				return -1;
		} else {
			(*dropped)++;
			continue;
		}
		(*labels)[n++] = l;
	}
	*set = model_label_set(r->m, *labels, n);
	return 0;
}

struct byte_span {
	const unsigned char *bytes;
	size_t n;
};

static int same_callers(const void *ctx, uint32_t i, const void *key)
{
	const struct resolver *r = ctx;
	const struct caller_stack *c = &r->callers[i];
	const struct byte_span *k = key;
	return c->n == k->n && memcmp(r->raw->location_ids + c->first, k->bytes, k->n) == 0;
}

/* Interns r->ids[from-1] (outermost first) down to r->ids[to], onto *stack. */
static int push_frames(struct resolver *r, size_t from, size_t to, uint32_t *stack)
{
	struct id_table t = location_table(r->raw);
	for (size_t k = from; k-- > to;) {
		uint32_t l = find_id(&r->location_ids, &t, r->ids[k]);
		if (l == HASHIDX_NONE)
			return bad(r, "a sample names unknown location %" PRIu64, r->ids[k]);
		*stack = model_stack(r->m, r->location_of[l], *stack);
	}
	return 0;
}

static int build_stack(struct resolver *r, const struct pprof_raw_sample *s, uint32_t *stack)
{
	*stack = MODEL_EMPTY_STACK;
	if (s->n_locations == 0)
		return 0;
	const unsigned char *first = r->raw->location_ids + s->first_location, *p = first;
	grow((void **)&r->ids, &r->cap_ids, s->n_locations + 1, sizeof *r->ids);
	for (size_t k = 0; k < s->n_locations; k++)
		p = varint_get(p, &r->ids[k]);
	if (s->n_locations < 2)
		return push_frames(r, s->n_locations, 0, stack);
	/* The callers' ids: every varint after the innermost one. */
	const unsigned char *callers_start = varint_get(first, &r->ids[0]);
	struct byte_span callers = { callers_start, s->location_bytes - (size_t)(callers_start - first) };
	uint64_t h = hash_bytes(callers.bytes, callers.n);
	uint32_t known = hashidx_find(&r->caller_index, h, same_callers, r, &callers);
	if (known != HASHIDX_NONE) {
		*stack = r->callers[known].stack;
	} else {
		if (push_frames(r, s->n_locations, 1, stack) < 0)
			return -1;
		grow((void **)&r->callers, &r->cap_callers, r->n_callers + 1, sizeof *r->callers);
		r->callers[r->n_callers] = (struct caller_stack){
			(size_t)(callers.bytes - r->raw->location_ids), callers.n, *stack
		};
		hashidx_insert(&r->caller_index, h, (uint32_t)r->n_callers++);
	}
	return push_frames(r, 1, 0, stack);
}

static int build_samples(struct resolver *r)
{
	const struct pprof_raw *raw = r->raw;
	locate(r, NULL, 0);
	if (raw->n_samples && raw->n_sample_types == 0)
		return bad(r, "samples but no sample types (missing sample type information)");
	struct model_label *labels = NULL;
	size_t cap = 0, dropped = 0;
	int rc = 0;
	for (size_t i = 0; i < raw->n_samples && rc == 0; i++) {
		const struct pprof_raw_sample *s = &raw->samples[i];
		uint32_t stack, set;
		locate(r, "sample", s->at);
		if (s->n_values != raw->n_sample_types)
			rc = bad(r, "%zu values for %zu sample types", s->n_values, raw->n_sample_types);
		else if ((rc = build_stack(r, s, &stack)) == 0 && r->rprof)
			pprof_rprof_add_sample(r->m, r->rprof, raw, i, stack);
		else if (rc == 0 && (rc = build_labels(r, s, &set, &labels, &cap, &dropped)) == 0)
			model_add_sample(r->m, stack,
					 s->n_values ? (const int64_t *)raw->values + s->first_value : NULL,
					 NULL, set);
	}
	free(labels);
	if (rc == 0 && r->rprof)
		pprof_rprof_finish(r->m, r->rprof);
	if (dropped)
		diag_warn(r->source, 0, "%zu labels with no value dropped (pprof readers ignore them)",
			  dropped);
	return rc;
}

static int meta_str(struct resolver *r, const char *key, int64_t index)
{
	uint32_t id = 0;
	if (str(r, index, key, &id) < 0)
		return -1;
	if (id != 0)
		model_add_meta(r->m, model_str(r->m, key, strlen(key)), id);
	return 0;
}

static void meta_int(struct resolver *r, const char *key, int64_t value)
{
	char text[24];
	if (value == 0)
		return;
	snprintf(text, sizeof text, "%" PRId64, value);
	model_set_meta(r->m, key, text);
}

/* What describes the whole profile goes to meta, as key/value strings. */
static int build_meta(struct resolver *r)
{
	const struct pprof_raw *raw = r->raw;
	locate(r, NULL, 0);
	/* R's profile has none: its header is in the runs. */
	if (r->rprof)
		return 0;
	if (meta_str(r, "drop_frames", raw->drop_frames) < 0 ||
	    meta_str(r, "keep_frames", raw->keep_frames) < 0 ||
	    meta_str(r, "period_type", raw->period_type.type) < 0 ||
	    meta_str(r, "period_unit", raw->period_type.unit) < 0 ||
	    meta_str(r, "default_sample_type", raw->default_sample_type) < 0 ||
	    meta_str(r, "doc_url", raw->doc_url) < 0)
		return -1;
	meta_int(r, "time_nanos", raw->time_nanos);
	meta_int(r, "duration_nanos", raw->duration_nanos);
	meta_int(r, "period", raw->period);
	for (size_t i = 0; i < raw->n_comments; i++) {
		uint32_t id = 0;
		if (str(r, (int64_t)raw->comments[i], "a comment", &id) < 0)
			return -1;
		model_add_meta(r->m, model_str(r->m, "comment", 7), id);
	}
	return 0;
}

static int check_string_table(const struct resolver *r)
{
	if (r->raw->n_strings == 0) {
		diag_error(r->source, 0, "bad pprof: no string table");
		return -1;
	}
	if (r->raw->strings[0] != 0) {
		diag_error(r->source, 0, "bad pprof: string table entry 0 is not empty");
		return -1;
	}
	return 0;
}

void pprof_raw_free(struct pprof_raw *raw)
{
	free(raw->strings);
	free(raw->sample_types);
	free(raw->samples);
	free(raw->location_ids);
	free(raw->values);
	free(raw->labels);
	free(raw->mappings);
	free(raw->locations);
	free(raw->lines);
	free(raw->functions);
	free(raw->comments);
	free(raw->scratch);
	free(raw->sample_type_at);
	free(raw->mapping_at);
	free(raw->location_at);
	free(raw->function_at);
}

int pprof_read(struct input *in, struct model *m)
{
	struct pprof_raw raw;
	struct resolver r;
	struct pprof_rprof rprof;
	memset(&raw, 0, sizeof raw);
	memset(&r, 0, sizeof r);
	r.raw = &raw;
	r.m = m;
	r.source = in->name;
	/* Any sample types and names, and each sample apart, as the file lists them. */
	m->rules = (struct model_rules){ .strict_r = 0, .keep_rows_apart = 1 };
	int rc = pprof_decode(in, m, &raw);
	if (rc == 0)
		rc = check_string_table(&r);
	if (rc == 0 && pprof_rprof_detect(m, &raw, in->name, &rprof)) {
		r.rprof = &rprof;
		m->rules = (struct model_rules){ .strict_r = 1 };
	}
	if (rc == 0)
		rc = build_sample_types(&r);
	if (rc == 0)
		rc = build_mappings(&r);
	if (rc == 0)
		rc = build_functions(&r);
	if (rc == 0)
		rc = build_locations(&r);
	if (rc == 0)
		rc = build_samples(&r);
	if (rc == 0)
		rc = build_meta(&r);
	free_ids(&r.mapping_ids);
	free_ids(&r.location_ids);
	free_ids(&r.function_ids);
	hashidx_free(&r.caller_index);
	free(r.callers);
	free(r.ids);
	free(r.function_of);
	free(r.location_of);
	free(r.no_location_file);
	if (r.rprof)
		pprof_rprof_free(r.rprof);
	pprof_raw_free(&raw);
	return rc;
}
