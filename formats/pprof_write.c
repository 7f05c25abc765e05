/*
 * pprof writer: the model as a gzip-compressed profile.proto, fields in
 * number order as Go writes them. Strings are deduplicated and numbered in
 * order of first use; the ids a file gave its mappings, locations and
 * functions are kept when they are all there and unique, else ids are
 * 1..n. Each sample and location is encoded once into a scratch buffer and
 * copied out with its length, so nothing is encoded twice.
 *
 * A model read from Rprof gets pprof's usual CPU profile shape: sample
 * types samples/count and cpu/nanoseconds (plus alloc/bytes by
 * summaryRprof's rule when memory was profiled), period from the interval,
 * and the Rprof facts pprof has no field for as comments and labels.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <pb_encode.h>

#include "../base/diag.h"
#include "../base/alloc.h"
#include "../base/checked.h"
#include "../base/varint.h"
#include "../model/view.h"
#include "pprof.h"

enum { FIELD_SAMPLE_TYPE = 1, FIELD_SAMPLE, FIELD_MAPPING, FIELD_LOCATION, FIELD_FUNCTION,
       FIELD_STRING, FIELD_DROP, FIELD_KEEP, FIELD_TIME, FIELD_DURATION, FIELD_PERIOD_TYPE,
       FIELD_PERIOD, FIELD_COMMENT, FIELD_DEFAULT_TYPE, FIELD_DOC_URL };

struct scratch {
	pb_byte_t *bytes;
	size_t cap;
};

struct writer {
	const struct model *m;
	struct output *out;
	pb_ostream_t stream;
	uint32_t *string_index; /* output index by model string id; UINT32_MAX: unused yet */
	/* Strings the writer makes (types, comments), when the model lacks them. */
	struct strtab extra;
	uint32_t *extra_index;
	size_t cap_extra_index;
	/* In output order: model string ids, or extra ids with EXTRA set. */
	uint32_t *strings;
	size_t n_strings, cap_strings;
	uint64_t *mapping_ids, *location_ids, *function_ids;
	/* "<no location>" frames, each given a function of its own after the model's. */
	uint32_t *no_location;
	size_t n_no_location, cap_no_location;
	uint64_t first_made_id;
	struct scratch sample, inner;
	/*
	 * The location ids of samples' callers, as packed varints, encoded
	 * once per caller stack: samples share call paths (an R profile
	 * repeats a few thousand stacks over millions of samples, a Go
	 * profile's samples mostly differ at the leaf). Entries index
	 * `stack_bytes`, which stops growing at STACK_CACHE_BYTES.
	 */
	struct cached_stack {
		uint32_t offset, len;
	} *stack_cache;
	struct scratch stack_bytes;
	size_t stack_bytes_used;
	/*
	 * Whole samples of one R tick with no memory columns, by stack: the
	 * bulk of an R profile, the same bytes each time a stack recurs in a
	 * run. In stack_bytes too.
	 */
	struct cached_sample {
		uint32_t offset, len, run;
	} *sample_cache;
	int64_t memory_key[4], memory_unit[4];
	int memory_strings_numbered;
	int64_t *values;
	struct view view;
	/*
	 * By type, how a time with decimals becomes whole nanoseconds: each
	 * value times ns_factor (> 0), or divided by -ns_factor, rounded
	 * (< 0); 0: written as it is.
	 */
	int64_t *ns_factor;
};

static bool write_out(pb_ostream_t *stream, const pb_byte_t *buf, size_t count)
{
	struct output *out = stream->state;
	output_write(out, buf, count);
	return !out->failed;
}

/*
 * nanopb's buffer stream, with room made beforehand for the worst case:
 * a callback per varint byte was a fifth of a conversion.
 */
static pb_ostream_t scratch_stream(struct scratch *s, size_t room)
{
	grow((void **)&s->bytes, &s->cap, room, 1);
	return pb_ostream_from_buffer(s->bytes, s->cap);
}

/* Bytes at most in a tag and a varint, and in a Label or Line message. */
enum { STACK_CACHE_BYTES = 16 << 20 };
enum { MAX_FIELD = 1 + VARINT_MAX_BYTES, MAX_LEAF = 2 * MAX_FIELD + 4 * MAX_FIELD };

#define EXTRA 0x80000000u

static uint32_t number_string(struct writer *w, uint32_t *index, uint32_t tagged_id)
{
	if (*index == UINT32_MAX) {
		grow((void **)&w->strings, &w->cap_strings, w->n_strings + 1, sizeof *w->strings);
		*index = (uint32_t)w->n_strings;
		w->strings[w->n_strings++] = tagged_id;
	}
	return *index;
}

/* The string-table index of model string `id`, numbered on first use. */
static int64_t sx(struct writer *w, uint32_t id)
{
	return number_string(w, &w->string_index[id], id);
}

static int64_t sx_bytes(struct writer *w, const char *bytes, size_t len)
{
	uint32_t id = strtab_lookup(&w->m->strings, bytes, len);
	if (id != HASHIDX_NONE)
		return sx(w, id);
	id = strtab_intern(&w->extra, bytes, len);
	size_t old = w->cap_extra_index;
	grow((void **)&w->extra_index, &w->cap_extra_index, (size_t)id + 1, sizeof *w->extra_index);
	memset(w->extra_index + old, 0xff, (w->cap_extra_index - old) * sizeof *w->extra_index);
	return number_string(w, &w->extra_index[id], id | EXTRA);
}

static int64_t sx_cstr(struct writer *w, const char *s)
{
	return sx_bytes(w, s, strlen(s));
}

static bool put_varint(pb_ostream_t *s, uint32_t field, uint64_t v)
{
	return v == 0 || (pb_encode_tag(s, PB_WT_VARINT, field) && pb_encode_varint(s, v));
}

static bool put_bytes(pb_ostream_t *s, uint32_t field, const struct scratch *bytes,
		      const pb_ostream_t *filled)
{
	return pb_encode_tag(s, PB_WT_STRING, field) &&
	       pb_encode_string(s, bytes->bytes, filled->bytes_written);
}

static bool put_leaf(pb_ostream_t *s, uint32_t field, const pb_msgdesc_t *fields, const void *msg)
{
	return pb_encode_tag(s, PB_WT_STRING, field) && pb_encode_submessage(s, fields, msg);
}

static bool put_packed(pb_ostream_t *s, uint32_t field, const uint64_t *v, size_t n)
{
	if (n == 0)
		return true;
	pb_ostream_t sizing = PB_OSTREAM_SIZING;
	for (size_t i = 0; i < n; i++)
		pb_encode_varint(&sizing, v[i]);
	if (!pb_encode_tag(s, PB_WT_STRING, field) || !pb_encode_varint(s, sizing.bytes_written))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!pb_encode_varint(s, v[i]))
			return false;
	return true;
}

static int same_id(const void *ids, uint32_t i, const void *id)
{
	return ((const uint64_t *)ids)[i] == *(const uint64_t *)id;
}

/* Keeps the input's ids when all are there and unique; else numbers 1..n. */
static uint64_t *assign_ids(const void *items, size_t stride, size_t offset, size_t n)
{
	uint64_t *ids = xmalloc((n + 1) * sizeof *ids);
	struct hashidx seen = { 0 };
	int keep = 1;
	for (size_t i = 0; i < n && keep; i++) {
		memcpy(&ids[i], (const char *)items + i * stride + offset, sizeof ids[i]);
		keep = ids[i] != 0 &&
		       hashidx_find(&seen, hash_mix(ids[i], 0), same_id, ids, &ids[i]) == HASHIDX_NONE;
		if (keep)
			hashidx_insert(&seen, hash_mix(ids[i], 0), (uint32_t)i);
	}
	hashidx_free(&seen);
	for (size_t i = 0; i < n && !keep; i++)
		ids[i] = i + 1;
	return ids;
}

/* Does every value of type `type` times `factor` fit an int64? */
static int fits_times(const struct writer *w, size_t type, int64_t factor)
{
	int64_t scaled;
	int fits = 1;
	struct row_cursor rows;
	rows_begin(w->m, &rows);
	for (const struct model_row *r; fits && (r = rows_next(&rows));)
		fits = !checked_mul_i64(r->values[type], factor, &scaled) &&
		       !checked_mul_i64(scaled, (int64_t)r->repeat, &scaled);
	rows_end(&rows);
	return fits;
}

/*
 * A time with decimals (pstats' seconds) is written as whole nanoseconds,
 * the unit go tool pprof prints as ms and s: a finer time is rounded to
 * the nanosecond (Python's profile module sums floats); one whose
 * nanoseconds would pass 2^63 keeps its decimals in its unit.
 */
static void choose_ns_factors(struct writer *w)
{
	w->ns_factor = xcalloc(w->view.n_types + 1, sizeof *w->ns_factor);
	for (size_t i = 0; i < w->view.n_types; i++) {
		unsigned decimals = view_decimals(&w->view, i);
		uint64_t ns = view_unit_ns(view_unit(&w->view, i)), scale = 1;
		if (decimals == 0 || ns == 0)
			continue;
		for (unsigned d = 0; d < decimals; d++)
			scale *= 10;
		if (scale <= ns && fits_times(w, i, (int64_t)(ns / scale)))
			w->ns_factor[i] = (int64_t)(ns / scale);
		else if (scale > ns)
			w->ns_factor[i] = -(int64_t)(scale / ns);
	}
}

/* A value divided by `by`, rounded half away from zero. */
static int64_t divided_rounded(int64_t value, int64_t by)
{
	int64_t q = value / by, r = value % by; /* r has the sign of value, |r| < by <= 10^18 */
	if (2 * (r < 0 ? -r : r) >= by)
		q += r < 0 ? -1 : 1;
	return q;
}

static void scale_times(const struct writer *w, int64_t *values)
{
	for (size_t i = 0; i < w->view.n_types; i++) {
		int64_t f = w->ns_factor[i];
		values[i] = f > 0 ? values[i] * f : f < 0 ? divided_rounded(values[i], -f) : values[i];
	}
}

/*
 * A type with decimals has its scale in its unit ("count/1000"), its
 * values as they are; a time, whole nanoseconds (choose_ns_factors).
 */
static bool write_sample_types(struct writer *w)
{
	for (size_t i = 0; i < w->view.n_types; i++) {
		unsigned decimals = w->ns_factor[i] ? 0 : view_decimals(&w->view, i);
		const char *unit = w->ns_factor[i] ? "nanoseconds" : view_unit(&w->view, i);
		char *scaled = decimals ? pprof_scaled_unit(unit, decimals) : NULL;
		perftools_profiles_ValueType t = { sx_cstr(w, view_type(&w->view, i)),
						   sx_cstr(w, scaled ? scaled : unit) };
		free(scaled);
		if (!put_leaf(&w->stream, FIELD_SAMPLE_TYPE, perftools_profiles_ValueType_fields, &t))
			return false;
	}
	return true;
}

/*
 * A Label, as nanopb would encode it (fields that are 0 left out), from
 * primitives: a memory-profiled R sample has four, and nanopb's
 * descriptor walk was a third of writing one.
 */
static bool put_label(pb_ostream_t *s, int64_t key, int64_t str, int64_t num, int64_t unit)
{
	/* Each field: a one-byte tag and its varint; fields that are 0 are left out. */
	const uint64_t fields[4] = { (uint64_t)key, (uint64_t)str, (uint64_t)num, (uint64_t)unit };
	size_t len = 0;
	for (int k = 0; k < 4; k++)
		len += fields[k] ? 1 + varint_size(fields[k]) : 0;
	return pb_encode_tag(s, PB_WT_STRING, 3) && pb_encode_varint(s, len) &&
	       put_varint(s, 1, fields[0]) && put_varint(s, 2, fields[1]) &&
	       put_varint(s, 3, fields[2]) && put_varint(s, 4, fields[3]);
}

/* String indexes of the memory labels' keys and units, numbered at first use. */
static void number_memory_strings(struct writer *w)
{
	if (w->memory_strings_numbered)
		return;
	for (int k = 0; k < 4; k++) {
		w->memory_key[k] = sx_cstr(w, pprof_rprof_memory_keys[k]);
		w->memory_unit[k] = sx_cstr(w, pprof_rprof_memory_units[k]);
	}
	w->memory_strings_numbered = 1;
}

static bool write_labels(struct writer *w, pb_ostream_t *s, const struct model_row *row)
{
	const struct model *m = w->m;
	const struct model_label_set *set = &m->label_sets[row->labels];
	for (uint32_t k = 0; k < set->count; k++) {
		const struct model_label *l = &m->labels[set->first + k];
		if (!put_label(s, sx(w, l->key), sx(w, l->str), l->num, sx(w, l->num_unit)))
			return false;
	}
	if (!w->view.ticks)
		return true;
	/* The call site of a frame; a "<no location>" frame holds its own file and line (write_location). */
	struct model_call_site site = model_stack_call_site(m, row->stack);
	if (row->stack != MODEL_EMPTY_STACK && model_is_call_site(m, m->stacks[row->stack].location))
		site = (struct model_call_site){ 0, 0, site.raw };
	/* An empty path (console input) is no label: Go would drop it as empty. */
	if (site.file && !put_label(s, sx_cstr(w, PPROF_RPROF_CALL_FILE), sx(w, site.file), 0, 0))
		return false;
	if (site.line && !put_label(s, sx_cstr(w, PPROF_RPROF_CALL_LINE), 0, site.line, 0))
		return false;
	if (site.raw && !put_label(s, sx_cstr(w, PPROF_RPROF_CALL_RAW), sx(w, site.raw), 0, 0))
		return false;
	if (!m->sessions.runs[row->run].memory_profiling)
		return true;
	number_memory_strings(w);
	const struct model_memory *mem = &row->memory;
	const uint64_t fields[4] = { mem->small_v, mem->big_v, mem->nodes, mem->dup_count };
	for (int k = 0; k < 4; k++)
		/* With a unit, a zero survives Go's reader, which drops empty labels. */
		if (!put_label(s, w->memory_key[k], 0, (int64_t)fields[k], w->memory_unit[k]))
			return false;
	return true;
}

/* The packed location ids of `stack` (outward from its innermost frame), at *bytes. */
static bool callers_bytes(struct writer *w, uint32_t stack, const pb_byte_t **bytes, size_t *len)
{
	const struct model *m = w->m;
	struct cached_stack *c = &w->stack_cache[stack];
	*len = 0;
	if (stack == MODEL_EMPTY_STACK)
		return true;
	if (c->len) {
		*bytes = w->stack_bytes.bytes + c->offset;
		*len = c->len;
		return true;
	}
	size_t n = 0;
	for (uint32_t s = stack; s != MODEL_EMPTY_STACK; s = m->stacks[s].caller)
		n++;
	size_t room = n * VARINT_MAX_BYTES;
	size_t at = w->stack_bytes_used + room <= STACK_CACHE_BYTES ? w->stack_bytes_used : 0;
	if (at)
		grow((void **)&w->stack_bytes.bytes, &w->stack_bytes.cap, at + room, 1);
	pb_ostream_t out = at ? pb_ostream_from_buffer(w->stack_bytes.bytes + at, room)
			      : scratch_stream(&w->inner, room);
	for (uint32_t s = stack; s != MODEL_EMPTY_STACK; s = m->stacks[s].caller)
		if (!pb_encode_varint(&out, w->location_ids[m->stacks[s].location]))
			return false;
	*bytes = at ? w->stack_bytes.bytes + at : w->inner.bytes;
	*len = out.bytes_written;
	if (at && out.bytes_written) {
		*c = (struct cached_stack){ (uint32_t)at, (uint32_t)out.bytes_written };
		w->stack_bytes_used += out.bytes_written;
	}
	return true;
}

/* Field 1 of a sample: its innermost location's id, then its callers'. */
static bool put_stack(pb_ostream_t *s, uint64_t leaf, const pb_byte_t *callers, size_t callers_len)
{
	pb_ostream_t sizing = PB_OSTREAM_SIZING;
	pb_encode_varint(&sizing, leaf);
	return pb_encode_tag(s, PB_WT_STRING, 1) &&
	       pb_encode_varint(s, sizing.bytes_written + callers_len) && pb_encode_varint(s, leaf) &&
	       pb_write(s, callers, callers_len);
}

static bool encode_sample(struct writer *w, const struct model_row *row, pb_ostream_t *s)
{
	const struct model *m = w->m;
	const struct model_stack_node *node = row->stack == MODEL_EMPTY_STACK ? NULL : &m->stacks[row->stack];
	const pb_byte_t *callers = NULL;
	size_t callers_len = 0;
	if (node && !callers_bytes(w, node->caller, &callers, &callers_len))
		return false;
	size_t n_labels = m->label_sets[row->labels].count + 6;
	*s = scratch_stream(&w->sample, 3 * MAX_FIELD + VARINT_MAX_BYTES + callers_len +
					      w->view.n_types * VARINT_MAX_BYTES + n_labels * MAX_LEAF);
	bool ok = !node || put_stack(s, w->location_ids[node->location], callers, callers_len);
	view_values(&w->view, row, w->values);
	scale_times(w, w->values);
	return ok && put_packed(s, 2, (const uint64_t *)w->values, w->view.n_types) &&
	       write_labels(w, s, row);
}

static int is_one_plain_tick(const struct writer *w, const struct model_row *row)
{
	return w->view.ticks && row->repeat == 1 && row->values[0] == 1 && row->labels == 0 &&
	       !w->m->sessions.runs[row->run].memory_profiling;
}

static bool write_sample(struct writer *w, const struct model_row *row)
{
	struct cached_sample *c = is_one_plain_tick(w, row) ? &w->sample_cache[row->stack] : NULL;
	if (c && c->len && c->run == row->run) {
		output_write(w->out, w->stack_bytes.bytes + c->offset, c->len);
		return !w->out->failed;
	}
	pb_ostream_t s;
	if (!encode_sample(w, row, &s))
		return false;
	size_t at = w->stack_bytes_used;
	if (c && at + MAX_FIELD + s.bytes_written <= STACK_CACHE_BYTES) {
		grow((void **)&w->stack_bytes.bytes, &w->stack_bytes.cap, at + MAX_FIELD + s.bytes_written, 1);
		pb_ostream_t field = pb_ostream_from_buffer(w->stack_bytes.bytes + at, MAX_FIELD + s.bytes_written);
		if (put_bytes(&field, FIELD_SAMPLE, &w->sample, &s)) {
			*c = (struct cached_sample){ (uint32_t)at, (uint32_t)field.bytes_written, row->run };
			w->stack_bytes_used += field.bytes_written;
		}
	}
	return put_bytes(&w->stream, FIELD_SAMPLE, &w->sample, &s);
}

static bool write_mappings(struct writer *w)
{
	for (size_t i = 0; i < w->m->native.n_mappings; i++) {
		const struct model_mapping *p = &w->m->native.mappings[i];
		perftools_profiles_Mapping mm = { w->mapping_ids[i], p->memory_start, p->memory_limit,
						  p->file_offset, sx(w, p->filename), sx(w, p->build_id),
						  p->has_functions, p->has_filenames,
						  p->has_line_numbers, p->has_inline_frames };
		if (!put_leaf(&w->stream, FIELD_MAPPING, perftools_profiles_Mapping_fields, &mm))
			return false;
	}
	return true;
}

static bool put_line(struct writer *w, pb_ostream_t *s, uint32_t function, int64_t line,
		     int64_t column)
{
	perftools_profiles_Line l = { w->function_ids[function], line, column };
	return put_leaf(s, 4, perftools_profiles_Line_fields, &l);
}

static bool write_location(struct writer *w, size_t i)
{
	const struct model_location *l = &w->m->locations[i];
	pb_ostream_t s = scratch_stream(&w->inner, 4 * MAX_FIELD + (1 + l->n_inlined) * MAX_LEAF);
	bool ok = put_varint(&s, 1, w->location_ids[i]) &&
		  put_varint(&s, 2, l->native.mapping == MODEL_NONE ? 0 : w->mapping_ids[l->native.mapping]) &&
		  put_varint(&s, 3, l->native.address);
	if (l->function != MODEL_NONE)
		ok = ok && put_line(w, &s, l->function, l->line, l->column);
	if (model_is_call_site(w->m, (uint32_t)i)) {
		perftools_profiles_Line line = { w->first_made_id + w->n_no_location, l->call_site.line, 0 };
		grow((void **)&w->no_location, &w->cap_no_location, w->n_no_location + 1,
		     sizeof *w->no_location);
		w->no_location[w->n_no_location++] = (uint32_t)i;
		ok = ok && put_leaf(&s, 4, perftools_profiles_Line_fields, &line);
	}
	for (uint32_t k = 0; ok && k < l->n_inlined; k++) {
		const struct model_line *in = &w->m->inlined[l->first_inlined + k];
		ok = put_line(w, &s, in->function, in->line, in->column);
	}
	ok = ok && put_varint(&s, 5, l->native.is_folded);
	return ok && put_bytes(&w->stream, FIELD_LOCATION, &w->inner, &s);
}

/* "prof:rprof:truncated RAW": the marker, and the bytes R wrote (pprof_rprof.c). */
static int64_t truncated_marker(struct writer *w, uint32_t raw)
{
	const struct strtab_entry *e = strtab_get(&w->m->strings, raw);
	size_t n = strlen(PPROF_RPROF_TRUNCATED);
	char *text = xmalloc(n + 1 + e->len);
	memcpy(text, PPROF_RPROF_TRUNCATED " ", n + 1);
	memcpy(text + n + 1, e->bytes, e->len);
	int64_t index = sx_bytes(w, text, n + 1 + e->len);
	free(text);
	return index;
}

/* Does `s` hold the C string `what` (memmem is a GNU extension)? */
static int holds(const char *s, size_t len, const char *what)
{
	size_t n = strlen(what);
	for (size_t i = 0; i + n <= len; i++)
		if (memcmp(s + i, what, n) == 0)
			return 1;
	return 0;
}

/* Does `s` hold `a` with `b` after it? */
static int holds_pair(const char *s, size_t len, char a, char b)
{
	const char *at = memchr(s, a, len);
	return at && memchr(at, b, len - (size_t)(at - s)) != NULL;
}

/*
 * Would go tool pprof rewrite this name, were it its own system name?
 * pprof takes a function whose system name is its name as not yet
 * demangled, and where such a name looks like demangled C++ (`<>[]` or
 * `::` in it, but not Java's `.<` nor Go's `]).`), cuts every `(...)` and
 * `<...>` from it: `<module>` becomes empty, printed `<unknown>`
 * (its symbolizer's demangleSingleFunction).
 */
static int pprof_would_rewrite(const struct strtab_entry *name)
{
	const char *s = name->bytes;
	size_t len = name->len;
	if (holds(s, len, ".<") || holds(s, len, "])."))
		return 0;
	int looks_cxx = memchr(s, '<', len) || memchr(s, '>', len) || memchr(s, '[', len) ||
			memchr(s, ']', len) || holds(s, len, "::");
	return looks_cxx && (holds_pair(s, len, '(', ')') || holds_pair(s, len, '<', '>'));
}

/*
 * A system name that is only the name again (a function of a format
 * without system names: no id of the input's), where go tool pprof would
 * rewrite it, is left empty, so that pprof shows the name as the input
 * gave it. A pprof input's functions are written as they were.
 */
static int64_t system_name_of(struct writer *w, const struct model_function *f)
{
	if (f->truncated)
		return truncated_marker(w, f->system_name);
	if (f->native_id == 0 && f->system_name == f->name &&
	    pprof_would_rewrite(strtab_get(&w->m->strings, f->name)))
		return 0;
	return sx(w, f->system_name);
}

static bool write_function(struct writer *w, size_t i)
{
	const struct model_function *f = &w->m->functions[i];
	perftools_profiles_Function p = { w->function_ids[i], sx(w, f->name), system_name_of(w, f),
					  sx(w, f->file_name), f->start_line };
	return put_leaf(&w->stream, FIELD_FUNCTION, perftools_profiles_Function_fields, &p);
}

static bool write_made_functions(struct writer *w)
{
	for (size_t k = 0; k < w->n_no_location; k++) {
		const struct model_location *l = &w->m->locations[w->no_location[k]];
		perftools_profiles_Function p = { w->first_made_id + k, sx_cstr(w, "<no location>"),
						  sx_cstr(w, PPROF_RPROF_NO_LOCATION),
						  sx(w, l->call_site.file), 0 };
		if (!put_leaf(&w->stream, FIELD_FUNCTION, perftools_profiles_Function_fields, &p))
			return false;
	}
	return true;
}

static bool write_string_table(struct writer *w)
{
	for (size_t i = 0; i < w->n_strings; i++) {
		uint32_t id = w->strings[i];
		const struct strtab_entry *e = id & EXTRA ? strtab_get(&w->extra, id & ~EXTRA)
							  : strtab_get(&w->m->strings, id);
		if (!pb_encode_tag(&w->stream, PB_WT_STRING, FIELD_STRING) ||
		    !pb_encode_string(&w->stream, (const pb_byte_t *)e->bytes, e->len))
			return false;
	}
	return true;
}

static int64_t meta_int(const struct model *m, const char *key)
{
	uint32_t v = model_get_meta(m, key);
	return v == HASHIDX_NONE ? 0 : strtoll(model_cstr(m, v), NULL, 10);
}

static int64_t meta_sx(struct writer *w, const char *key)
{
	uint32_t v = model_get_meta(w->m, key);
	return v == HASHIDX_NONE ? 0 : sx(w, v);
}

/* The comments that carry Rprof's runs and #File lines; see pprof_rprof.c. */
static void rprof_comments(struct writer *w, uint64_t **comments, size_t *n, size_t *cap)
{
	const struct model *m = w->m;
	char *text = NULL;
	size_t cap_text = 0;
	for (size_t r = 0, f = 0; r < m->sessions.n_runs; r++) {
		const struct model_run *run = &m->sessions.runs[r];
		grow((void **)&text, &cap_text, 256, 1);
		snprintf(text, cap_text, "%s%" PRIu32 " %s%s%s%s%s%s%s%" PRIu64, PPROF_RPROF_RUN,
			 run->first_row, run->unquoted ? PPROF_RPROF_UNQUOTED : "",
			 m->sessions.crlf ? PPROF_RPROF_CRLF : "",
			 m->sessions.no_final_newline ? PPROF_RPROF_NO_FINAL_NEWLINE : "",
			 run->memory_profiling ? "memory profiling: " : "",
			 run->gc_profiling ? "GC profiling: " : "",
			 run->line_profiling ? "line profiling: " : "", "sample.interval=", run->interval_us);
		grow((void **)comments, cap, *n + 1, sizeof **comments);
		(*comments)[(*n)++] = (uint64_t)sx_cstr(w, text);
		for (; f < m->sessions.n_files && m->sessions.files[f].run == r; f++) {
			const struct model_source_file *sf = &m->sessions.files[f];
			const struct strtab_entry *path = strtab_get(&m->strings, sf->path);
			size_t need = strlen(PPROF_RPROF_FILE) + 64 + path->len;
			grow((void **)&text, &cap_text, need, 1);
			int len = snprintf(text, cap_text, "%s%zu %" PRIu32 " %" PRIu64 " ", PPROF_RPROF_FILE,
					   r, sf->before_row, sf->number);
			memcpy(text + len, path->bytes, path->len);
			grow((void **)comments, cap, *n + 1, sizeof **comments);
			(*comments)[(*n)++] = (uint64_t)sx_bytes(w, text, (size_t)len + path->len);
		}
	}
	free(text);
}

/* Registers the strings of fields 7-15 before the string table is written. */
static bool write_header_fields(struct writer *w)
{
	const struct model *m = w->m;
	perftools_profiles_ValueType period_type = { meta_sx(w, "period_type"), meta_sx(w, "period_unit") };
	int64_t period = meta_int(m, "period"), default_type = meta_sx(w, "default_sample_type");
	uint64_t *comments = NULL;
	size_t n = 0, cap = 0;
	if (w->view.ticks) {
		period_type = (perftools_profiles_ValueType){ sx_cstr(w, "cpu"), sx_cstr(w, "nanoseconds") };
		period = (int64_t)m->sessions.runs[0].interval_us * 1000;
		default_type = sx_cstr(w, "cpu");
		rprof_comments(w, &comments, &n, &cap);
	}
	for (size_t i = 0; i < m->n_meta; i++)
		if (strcmp(model_cstr(m, m->meta[i].key), "comment") == 0) {
			grow((void **)&comments, &cap, n + 1, sizeof *comments);
			comments[n++] = (uint64_t)sx(w, m->meta[i].value);
		}
	int64_t drop = meta_sx(w, "drop_frames"), keep = meta_sx(w, "keep_frames");
	int64_t doc_url = meta_sx(w, "doc_url");
	pb_ostream_t *s = &w->stream;
	bool ok = write_string_table(w) && put_varint(s, FIELD_DROP, (uint64_t)drop) &&
		  put_varint(s, FIELD_KEEP, (uint64_t)keep) &&
		  put_varint(s, FIELD_TIME, (uint64_t)meta_int(m, "time_nanos")) &&
		  put_varint(s, FIELD_DURATION, (uint64_t)meta_int(m, "duration_nanos"));
	if (ok && (period_type.type || period_type.unit))
		ok = put_leaf(s, FIELD_PERIOD_TYPE, perftools_profiles_ValueType_fields, &period_type);
	ok = ok && put_varint(s, FIELD_PERIOD, (uint64_t)period) &&
	     put_packed(s, FIELD_COMMENT, comments, n);
	/* Go always writes default_sample_type, even 0. */
	ok = ok && pb_encode_tag(s, PB_WT_VARINT, FIELD_DEFAULT_TYPE) &&
	     pb_encode_varint(s, (uint64_t)default_type) && put_varint(s, FIELD_DOC_URL, (uint64_t)doc_url);
	free(comments);
	return ok;
}

static bool write_profile(struct writer *w)
{
	const struct model *m = w->m;
	bool ok = write_sample_types(w);
	/* A tree's node with no self count is structure pprof cannot hold; as a sample it says nothing. */
	struct row_cursor rows;
	rows_begin(m, &rows);
	for (const struct model_row *row; ok && (row = rows_next(&rows));)
		if (!m->rules.tree_nodes || row->values[0] != 0)
			ok = write_sample(w, row);
	rows_end(&rows);
	ok = ok && write_mappings(w);
	for (size_t i = 0; ok && i < m->n_locations; i++)
		ok = write_location(w, i);
	for (size_t i = 0; ok && i < m->n_functions; i++)
		ok = write_function(w, i);
	ok = ok && write_made_functions(w);
	return ok && write_header_fields(w);
}

int pprof_write(const struct model *m, struct output *out, const struct write_options *opts)
{
	struct writer w;
	memset(&w, 0, sizeof w);
	w.m = m;
	w.out = out;
	view_init(&w.view, m);
	w.values = xmalloc((w.view.n_types + 1) * sizeof *w.values);
	choose_ns_factors(&w);
	w.stream = (pb_ostream_t){ write_out, out, SIZE_MAX, 0, NULL };
	w.string_index = xmalloc(m->strings.count * sizeof *w.string_index);
	memset(w.string_index, 0xff, m->strings.count * sizeof *w.string_index);
	strtab_init(&w.extra);
	sx(&w, 0);
	w.mapping_ids = assign_ids(m->native.mappings, sizeof *m->native.mappings, offsetof(struct model_mapping, id),
				   m->native.n_mappings);
	w.location_ids = assign_ids(m->locations, sizeof *m->locations,
				    offsetof(struct model_location, native.id), m->n_locations);
	w.function_ids = assign_ids(m->functions, sizeof *m->functions,
				    offsetof(struct model_function, native_id), m->n_functions);
	for (size_t i = 0; i < m->n_functions; i++)
		w.first_made_id = w.function_ids[i] > w.first_made_id ? w.function_ids[i] : w.first_made_id;
	w.first_made_id++;
	w.stack_cache = xcalloc(m->n_stacks, sizeof *w.stack_cache);
	w.sample_cache = xcalloc(m->n_stacks, sizeof *w.sample_cache);
	/* Offset 0 means "not cached": the first stack is never stored there. */
	w.stack_bytes_used = 1;
	output_gzip(out, opts->level);
	int rc = write_profile(&w) ? 0 : -1;
	if (rc < 0 && !out->failed)
		diag_error(out->name, 0, "cannot encode pprof: %s", PB_GET_ERROR(&w.stream));
	free(w.string_index);
	strtab_free(&w.extra);
	free(w.extra_index);
	free(w.strings);
	free(w.mapping_ids);
	free(w.location_ids);
	free(w.function_ids);
	free(w.no_location);
	free(w.sample.bytes);
	free(w.inner.bytes);
	free(w.stack_cache);
	free(w.sample_cache);
	free(w.stack_bytes.bytes);
	free(w.values);
	free(w.ns_factor);
	return rc;
}
