#include "model.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/checked.h"
#include "../base/numtext.h"

void model_init(struct model *m)
{
	memset(m, 0, sizeof *m);
	strtab_init(&m->strings);
	rows_init(&m->rows);
	m->rules.strict_r = 1;
	m->timeline_type = SIZE_MAX;
	model_set_meta(m, "version", "1.0");
	/* Stack id 0 is the empty stack; it has no location of its own. */
	grow((void **)&m->stacks, &m->cap_stacks, 1, sizeof *m->stacks);
	m->stacks[0].location = MODEL_NONE;
	m->stacks[0].caller = MODEL_NONE;
	m->n_stacks = 1;
	/* Label set 0 is the empty set. */
	grow((void **)&m->label_sets, &m->cap_label_sets, 1, sizeof *m->label_sets);
	m->label_sets[0] = (struct model_label_set){ 0, 0 };
	m->n_label_sets = 1;
}

void model_free(struct model *m)
{
	strtab_free(&m->strings);
	free(m->meta);
	free(m->sample_types);
	free(m->functions);
	hashidx_free(&m->function_index);
	free(m->shown_names);
	free(m->locations);
	hashidx_free(&m->location_index);
	free(m->inlined);
	free(m->native.mappings);
	free(m->labels);
	free(m->label_sets);
	hashidx_free(&m->label_set_index);
	free(m->stacks);
	hashidx_free(&m->stack_index);
	free(m->sessions.runs);
	free(m->sessions.files);
	rows_free(&m->rows);
	model_graph_free(&m->graph);
	free(m->whole_totals);
	memset(m, 0, sizeof *m);
}

uint32_t model_str(struct model *m, const char *bytes, size_t len)
{
	return strtab_intern(&m->strings, bytes, len);
}

const char *model_cstr(const struct model *m, uint32_t id)
{
	return strtab_get(&m->strings, id)->bytes;
}

int model_str_is(const struct model *m, uint32_t id, const char *s)
{
	const struct strtab_entry *e = strtab_get(&m->strings, id);
	return e->len == strlen(s) && memcmp(e->bytes, s, e->len) == 0;
}

void model_set_meta(struct model *m, const char *key, const char *value)
{
	uint32_t k = strtab_intern_cstr(&m->strings, key);
	uint32_t v = strtab_intern_cstr(&m->strings, value);
	for (size_t i = 0; i < m->n_meta; i++)
		if (m->meta[i].key == k) {
			m->meta[i].value = v;
			return;
		}
	model_add_meta(m, k, v);
}

void model_add_meta(struct model *m, uint32_t key, uint32_t value)
{
	grow((void **)&m->meta, &m->cap_meta, m->n_meta + 1, sizeof *m->meta);
	m->meta[m->n_meta++] = (struct model_meta){ key, value };
}

uint32_t model_get_meta(const struct model *m, const char *key)
{
	uint32_t k = strtab_lookup(&m->strings, key, strlen(key));
	for (size_t i = 0; k != HASHIDX_NONE && i < m->n_meta; i++)
		if (m->meta[i].key == k)
			return m->meta[i].value;
	return HASHIDX_NONE;
}

/*
 * m's rows in the layout m now has (more types, or no times), rewritten
 * into a new store from `old`, a copy of the model that still holds the old
 * store and layout, as model_add_decimals does. Types old lacks get 0.
 */
static void rewrite_rows(struct model *m, struct model *old)
{
	rows_init(&m->rows);
	m->rows.memory_from = old->rows.memory_from;
	int64_t *values = xcalloc(m->n_sample_types + 1, sizeof *values);
	struct row_cursor rows;
	rows_begin(old, &rows);
	for (const struct model_row *row; (row = rows_next(&rows));) {
		memcpy(values, row->values, old->n_sample_types * sizeof *values);
		struct model_row rewritten = *row;
		rewritten.values = values;
		rows_append(m, &rewritten);
	}
	rows_end(&rows);
	free(values);
	rows_free(&old->rows);
}

/* Rows written before the last type was added get 0 for it. */
static void widen_rows(struct model *m)
{
	struct model old = *m;
	old.n_sample_types = m->n_sample_types - 1;
	rewrite_rows(m, &old);
}

void model_drop_times(struct model *m)
{
	struct model old = *m;
	m->timed_rows = 0;
	rewrite_rows(m, &old);
}

int model_has_times(const struct model *m)
{
	return m->sessions.n_runs || m->timeline_type != SIZE_MAX || m->timed_rows;
}

uint32_t model_add_sample_type(struct model *m, const char *type, const char *unit)
{
	grow((void **)&m->sample_types, &m->cap_sample_types, m->n_sample_types + 1,
	     sizeof *m->sample_types);
	m->sample_types[m->n_sample_types] = (struct model_sample_type){
		strtab_intern_cstr(&m->strings, type), strtab_intern_cstr(&m->strings, unit), 0
	};
	m->n_sample_types++;
	if (m->n_rows)
		widen_rows(m);
	return (uint32_t)m->n_sample_types - 1;
}

/*
 * The rows are rewritten into a new store: a value's varint grows with it.
 * The old store is read through a copy of the model that still holds it.
 */
int model_add_decimals(struct model *m, size_t type, unsigned more)
{
	int64_t factor = pow10_i64(more);
	struct model old = *m;
	rows_init(&m->rows);
	m->rows.memory_from = old.rows.memory_from;
	int64_t *values = xmalloc((m->n_sample_types + 1) * sizeof *values);
	int fits = 1;
	struct row_cursor rows;
	rows_begin(&old, &rows);
	for (const struct model_row *row; fits && (row = rows_next(&rows));) {
		memcpy(values, row->values, m->n_sample_types * sizeof *values);
		fits = !checked_mul_i64(values[type], factor, &values[type]);
		struct model_row scaled = *row;
		scaled.values = values;
		rows_append(m, &scaled);
	}
	rows_end(&rows);
	free(values);
	struct row_store *dropped = fits ? &old.rows : &m->rows;
	rows_free(dropped);
	if (!fits)
		m->rows = old.rows;
	else
		m->sample_types[type].decimals = (uint8_t)(m->sample_types[type].decimals + more);
	return fits ? 0 : -1;
}

static uint64_t function_hash(const struct model_function *f)
{
	uint64_t h = hash_mix(f->name, f->system_name);
	h = hash_mix(h, f->file_name);
	h = hash_mix(h, (uint64_t)f->start_line);
	h = hash_mix(h, f->native_id);
	return hash_mix(h, f->truncated);
}

static int function_equals(const void *ctx, uint32_t id, const void *key)
{
	const struct model_function *a = &((const struct model *)ctx)->functions[id];
	const struct model_function *b = key;
	return a->name == b->name && a->system_name == b->system_name &&
	       a->file_name == b->file_name && a->start_line == b->start_line &&
	       a->truncated == b->truncated && a->native_id == b->native_id;
}

uint32_t model_function(struct model *m, const struct model_function *f)
{
	return hashidx_intern(&m->function_index, function_hash(f), function_equals, m, f,
			      (void **)&m->functions, &m->n_functions, &m->cap_functions,
			      sizeof *m->functions);
}

/* Only plain locations are interned; see model_location_called. */
static int location_equals(const void *ctx, uint32_t id, const void *key)
{
	const struct model_location *a = &((const struct model *)ctx)->locations[id];
	const struct model_location *b = key;
	return a->function == b->function && a->line == b->line &&
	       a->call_site.file == b->call_site.file && a->call_site.line == b->call_site.line &&
	       a->call_site.raw == b->call_site.raw;
}

static uint32_t append_location(struct model *m, const struct model_location *l)
{
	grow((void **)&m->locations, &m->cap_locations, m->n_locations + 1,
	     sizeof *m->locations);
	m->locations[m->n_locations] = *l;
	return (uint32_t)m->n_locations++;
}

uint32_t model_location(struct model *m, uint32_t function, int64_t line)
{
	return model_location_called(m, function, line, (struct model_call_site){ 0, 0, 0 });
}

int model_is_call_site(const struct model *m, uint32_t location)
{
	const struct model_location *l = &m->locations[location];
	return l->function == MODEL_NONE && l->call_site.line != 0;
}

struct model_call_site model_stack_call_site(const struct model *m, uint32_t stack)
{
	if (stack == MODEL_EMPTY_STACK)
		return (struct model_call_site){ 0, 0, 0 };
	while (m->stacks[stack].caller != MODEL_EMPTY_STACK)
		stack = m->stacks[stack].caller;
	return m->locations[m->stacks[stack].location].call_site;
}

uint32_t model_location_called(struct model *m, uint32_t function, int64_t line,
			       struct model_call_site call_site)
{
	struct model_location key = { .function = function, .line = line, .call_site = call_site,
				      .native = { .mapping = MODEL_NONE } };
	uint64_t h = hash_mix(hash_mix(function, (uint64_t)line),
			      hash_mix(hash_mix(call_site.file, (uint64_t)call_site.line), call_site.raw));
	uint32_t id = hashidx_find(&m->location_index, h, location_equals, m, &key);
	if (id != HASHIDX_NONE)
		return id;
	id = append_location(m, &key);
	hashidx_insert(&m->location_index, h, id);
	return id;
}

uint32_t model_add_location(struct model *m, const struct model_location *l,
			    const struct model_line *inlined, size_t n_inlined)
{
	struct model_location copy = *l;
	grow((void **)&m->inlined, &m->cap_inlined, m->n_inlined + n_inlined, sizeof *m->inlined);
	copy.first_inlined = (uint32_t)m->n_inlined;
	copy.n_inlined = (uint32_t)n_inlined;
	if (n_inlined)
		memcpy(m->inlined + m->n_inlined, inlined, n_inlined * sizeof *inlined);
	m->n_inlined += n_inlined;
	return append_location(m, &copy);
}

uint32_t model_add_mapping(struct model *m, const struct model_mapping *mapping)
{
	grow((void **)&m->native.mappings, &m->native.cap_mappings, m->native.n_mappings + 1, sizeof *m->native.mappings);
	m->native.mappings[m->native.n_mappings] = *mapping;
	return (uint32_t)m->native.n_mappings++;
}

struct label_key {
	const struct model_label *labels;
	size_t n;
};

/* Field by field: a label's padding bytes are not part of it. */
static int label_equals(const struct model_label *a, const struct model_label *b)
{
	return a->key == b->key && a->str == b->str && a->num == b->num && a->num_unit == b->num_unit;
}

static int label_set_equals(const void *ctx, uint32_t id, const void *key)
{
	const struct model *m = ctx;
	const struct label_key *k = key;
	const struct model_label_set *set = &m->label_sets[id];
	if (set->count != k->n)
		return 0;
	for (size_t i = 0; i < k->n; i++)
		if (!label_equals(&m->labels[set->first + i], &k->labels[i]))
			return 0;
	return 1;
}

static uint64_t label_set_hash(const struct model_label *labels, size_t n)
{
	uint64_t h = n;
	for (size_t i = 0; i < n; i++) {
		h = hash_mix(h, labels[i].key);
		h = hash_mix(h, labels[i].str);
		h = hash_mix(h, (uint64_t)labels[i].num);
		h = hash_mix(h, labels[i].num_unit);
	}
	return h;
}

uint32_t model_label_set(struct model *m, const struct model_label *labels, size_t n)
{
	if (n == 0)
		return 0;
	struct label_key key = { labels, n };
	uint64_t h = label_set_hash(labels, n);
	uint32_t id = hashidx_find(&m->label_set_index, h, label_set_equals, m, &key);
	if (id != HASHIDX_NONE)
		return id;
	grow((void **)&m->labels, &m->cap_labels, m->n_labels + n, sizeof *m->labels);
	memcpy(m->labels + m->n_labels, labels, n * sizeof *labels);
	grow((void **)&m->label_sets, &m->cap_label_sets, m->n_label_sets + 1,
	     sizeof *m->label_sets);
	id = (uint32_t)m->n_label_sets++;
	m->label_sets[id] = (struct model_label_set){ (uint32_t)m->n_labels, (uint32_t)n };
	m->n_labels += n;
	hashidx_insert(&m->label_set_index, h, id);
	return id;
}

static int stack_equals(const void *ctx, uint32_t id, const void *key)
{
	const struct model_stack_node *a = &((const struct model *)ctx)->stacks[id];
	const struct model_stack_node *b = key;
	return a->location == b->location && a->caller == b->caller;
}

uint32_t model_stack(struct model *m, uint32_t location, uint32_t caller)
{
	struct model_stack_node key = { location, caller };
	return hashidx_intern(&m->stack_index, hash_mix(location, caller), stack_equals, m, &key,
			      (void **)&m->stacks, &m->n_stacks, &m->cap_stacks, sizeof *m->stacks);
}

void model_stack_prefetch(const struct model *m, uint32_t location, uint32_t caller)
{
	hashidx_prefetch(&m->stack_index, hash_mix(location, caller));
}

void model_reserve_stacks(struct model *m, size_t more)
{
	hashidx_reserve(&m->stack_index, m->n_stacks + more);
	grow((void **)&m->stacks, &m->cap_stacks, m->n_stacks + more, sizeof *m->stacks);
}

uint32_t model_add_run(struct model *m, const struct model_run *run)
{
	grow((void **)&m->sessions.runs, &m->sessions.cap_runs, m->sessions.n_runs + 1, sizeof *m->sessions.runs);
	m->sessions.runs[m->sessions.n_runs] = *run;
	m->sessions.runs[m->sessions.n_runs].first_row = (uint32_t)m->n_rows;
	m->merge_barrier = m->n_rows;
	return (uint32_t)m->sessions.n_runs++;
}

void model_add_source_file(struct model *m, uint64_t number, uint32_t path)
{
	grow((void **)&m->sessions.files, &m->sessions.cap_files, m->sessions.n_files + 1,
	     sizeof *m->sessions.files);
	m->sessions.files[m->sessions.n_files++] = (struct model_source_file){
		(uint32_t)(m->sessions.n_runs - 1), number, path, (uint32_t)m->n_rows
	};
	/* The line must be written back between the same two samples. */
	m->merge_barrier = m->n_rows;
}

void model_replay_runs(struct model *m, struct run_replay *r, size_t row)
{
	for (;;) {
		if (r->run < r->n_runs && (r->runs[r->run].first_row == row || row == SIZE_MAX)) {
			model_add_run(m, &r->runs[r->run++]);
			continue;
		}
		const struct model_source_file *f = r->file < r->n_files ? &r->files[r->file] : NULL;
		if (f && f->run < r->run && (f->before_row == row || row == SIZE_MAX)) {
			model_add_source_file(m, f->number, r->paths ? r->paths[f->path] : f->path);
			r->file++;
			continue;
		}
		return;
	}
}

static uint32_t current_run(const struct model *m)
{
	return m->sessions.n_runs ? (uint32_t)(m->sessions.n_runs - 1) : MODEL_NONE;
}

static int same_as_last_row(const struct model *m, uint32_t stack, const int64_t *values,
			    const struct model_memory *memory, uint32_t labels, int64_t time_ns)
{
	if (m->rules.keep_rows_apart || !m->rows.has_last || m->n_rows <= m->merge_barrier)
		return 0;
	const struct model_row *last = &m->rows.last;
	if (last->stack != stack || last->run != current_run(m) || last->labels != labels)
		return 0;
	if (m->timed_rows && last->time_ns != time_ns)
		return 0;
	size_t n = m->n_sample_types;
	if (n && memcmp(last->values, values, n * sizeof *values) != 0)
		return 0;
	if (memory && !m->sessions.has_memory)
		return 0;
	return !memory || memcmp(&last->memory, memory, sizeof *memory) == 0;
}

void model_add_samples(struct model *m, uint32_t stack, const int64_t *values,
		       const struct model_memory *memory, uint32_t labels, uint64_t repeat,
		       int64_t time_ns)
{
	if (same_as_last_row(m, stack, values, memory, labels, time_ns)) {
		/* Past 2^64 stays there; the validator refuses repeats past 2^63. */
		if (checked_add_u64(m->rows.last.repeat, repeat, &m->rows.last.repeat))
			m->rows.last.repeat = UINT64_MAX;
		rows_check(m, stack, labels, values, m->rows.last.repeat > INT64_MAX ? UINT64_MAX : repeat);
		return;
	}
	if (memory && !m->sessions.has_memory) {
		m->sessions.has_memory = 1;
		m->rows.memory_from = m->n_rows;
	}
	struct model_row row = { m->n_rows, stack, current_run(m), labels, repeat, values,
				 memory ? *memory : (struct model_memory){ 0, 0, 0, 0 },
				 m->timed_rows ? time_ns : 0 };
	rows_append(m, &row);
	m->n_rows++;
}

void model_add_sample(struct model *m, uint32_t stack, const int64_t *values,
		      const struct model_memory *memory, uint32_t labels)
{
	model_add_samples(m, stack, values, memory, labels, 1, 0);
}

uint32_t model_location_depth(const struct model *m, uint32_t location)
{
	return m->locations[location].n_inlined + 1;
}

/* The inlined callers are stored innermost first (pprof's order). */
struct model_frame model_location_frame(const struct model *m, uint32_t location, uint32_t k)
{
	const struct model_location *l = &m->locations[location];
	if (k == l->n_inlined)
		return (struct model_frame){ l->function, l->line, location };
	const struct model_line *in = &m->inlined[l->first_inlined + l->n_inlined - 1 - k];
	return (struct model_frame){ in->function, in->line, location };
}

size_t model_stack_frames(const struct model *m, uint32_t stack, struct model_frame **frames,
			  size_t *cap)
{
	size_t n = 0;
	for (; stack != MODEL_EMPTY_STACK; stack = m->stacks[stack].caller) {
		uint32_t loc = m->stacks[stack].location, depth = model_location_depth(m, loc);
		grow((void **)frames, cap, n + depth, sizeof **frames);
		for (uint32_t k = depth; k-- > 0;)
			(*frames)[n++] = model_location_frame(m, loc, k);
	}
	return n;
}

/* The identity of a frame, its function named as views show it (`shown`) or by its own name. */
static void frame_id(const struct model *m, const struct model_frame *fr, int by_line, int shown,
		     struct model_frame_id *id)
{
	*id = (struct model_frame_id){ .kind = MODEL_FRAME_FUNCTION };
	if (fr->function == MODEL_NONE) {
		id->grey = 1;
		if (model_is_call_site(m, fr->location))
			id->kind = MODEL_FRAME_NO_LOCATION;
		else {
			id->kind = MODEL_FRAME_ADDRESS;
			id->address = m->locations[fr->location].native.address;
		}
		return;
	}
	const struct model_function *f = &m->functions[fr->function];
	uint32_t own = f->name ? f->name : f->system_name;
	id->name = shown ? model_shown_name(m, fr->function) : own;
	id->grey = f->truncated || strtab_get(&m->strings, own)->len == 0;
	if (by_line && fr->line > 0) {
		id->file = f->file_name;
		id->line = fr->line;
	}
}

void model_frame_id(const struct model *m, const struct model_frame *fr, int by_line,
		    struct model_frame_id *id)
{
	frame_id(m, fr, by_line, 1, id);
}

void model_frame_id_name(const struct model *m, const struct model_frame_id *id,
			 struct model_name *name)
{
	if (id->kind == MODEL_FRAME_NO_LOCATION) {
		name->bytes = "<no location>";
		name->len = strlen(name->bytes);
	} else if (id->kind == MODEL_FRAME_ADDRESS) {
		name->len = (size_t)snprintf(name->made, sizeof name->made, "0x%" PRIx64, id->address);
		name->bytes = name->made;
	} else {
		const struct strtab_entry *e = strtab_get(&m->strings, id->name);
		name->bytes = e->len ? e->bytes : MODEL_UNKNOWN_NAME;
		name->len = e->len ? e->len : strlen(MODEL_UNKNOWN_NAME);
	}
}

void model_frame_name(const struct model *m, const struct model_frame *fr, struct model_name *name)
{
	struct model_frame_id id;
	frame_id(m, fr, 0, 0, &id);
	model_frame_id_name(m, &id, name);
}

void model_frame_shown_name(const struct model *m, const struct model_frame *fr, struct model_name *name)
{
	struct model_frame_id id;
	frame_id(m, fr, 0, 1, &id);
	model_frame_id_name(m, &id, name);
}
