/*
 * JFR chunk decoding (formats/jfr.h): integers as the chunk header says
 * (LEB128, at most 9 bytes for 64 bits, or fixed big-endian widths),
 * strings in their six encodings, the metadata event's class tree read
 * for what it says (field order and types are never assumed), and the
 * checkpoints' constant pools, indexed by (class, key) to the offset of
 * each value, decoded only when an event needs it. Memory: the chunk, its
 * classes and one index entry per pool entry.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/diag.h"
#include "../base/utf8.h"
#include "jfr.h"

/* Nesting deeper than this is refused: real metadata and values nest a few levels. */
enum { MAX_DEPTH = 32 };

int jfr_error(struct jfr_chunk *c, uint64_t at, const char *fmt, ...)
{
	if (c->failed)
		return -1;
	char what[300];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	diag_error(c->file, 0, "offset %llu: %s", (unsigned long long)(c->file_at + at), what);
	c->failed = 1;
	return -1;
}

void jfr_bad(struct jfr_cursor *k, const char *why)
{
	if (!k->bad) {
		k->why = why;
		k->bad_at = k->chunk_at + k->at;
	}
	k->bad = 1;
	k->at = k->end;
}

static int bad(struct jfr_cursor *k, const char *why)
{
	jfr_bad(k, why);
	return 0;
}

struct jfr_cursor jfr_piece_cursor(struct jfr_chunk *c, uint32_t piece)
{
	const struct jfr_piece *p = &c->pieces[piece];
	return jfr_cursor(c, c->kept, p->kept_at, p->kept_at + p->len, p->chunk_at - p->kept_at);
}

uint8_t jfr_get_byte(struct jfr_cursor *k)
{
	if (k->at >= k->end)
		return (uint8_t)bad(k, NULL);
	return k->bytes[k->at++];
}

static uint64_t get_fixed(struct jfr_cursor *k, unsigned width)
{
	if (k->end - k->at < width)
		return bad(k, NULL);
	uint64_t v = 0;
	for (unsigned i = 0; i < width; i++)
		v = v << 8 | k->bytes[k->at++];
	return v;
}

/* LEB128 as JFR writes it: seven bits a byte, the ninth byte's eight bits whole. */
static uint64_t get_leb128(struct jfr_cursor *k)
{
	/* Most numbers are one or two bytes: no bound check per byte when nine are left. */
	if (k->end - k->at >= 9) {
		const unsigned char *p = k->bytes + k->at;
		uint64_t v = 0;
		for (unsigned i = 0; i < 8; i++) {
			v |= (uint64_t)(p[i] & 0x7f) << (7 * i);
			if (!(p[i] & 0x80)) {
				k->at += i + 1;
				return v;
			}
		}
		k->at += 9;
		return v | (uint64_t)p[8] << 56;
	}
	uint64_t v = 0;
	for (unsigned i = 0; i < 8; i++) {
		uint8_t b = jfr_get_byte(k);
		v |= (uint64_t)(b & 0x7f) << (7 * i);
		if (!(b & 0x80))
			return v;
	}
	return v | (uint64_t)jfr_get_byte(k) << 56;
}

uint64_t jfr_get_long_at(struct jfr_cursor *k)
{
	return k->c->compressed ? get_leb128(k) : get_fixed(k, 8);
}

uint32_t jfr_get_int_at(struct jfr_cursor *k)
{
	return k->c->compressed ? (uint32_t)get_leb128(k) : (uint32_t)get_fixed(k, 4);
}

static uint16_t get_short(struct jfr_cursor *k)
{
	return k->c->compressed ? (uint16_t)get_leb128(k) : (uint16_t)get_fixed(k, 2);
}

static void put(struct jfr_bytes *out, const void *s, size_t len)
{
	grow((void **)&out->s, &out->cap, out->len + len + 1, 1);
	memcpy(out->s + out->len, s, len);
	out->len += len;
	out->s[out->len] = '\0';
}

/* A code point as UTF-8 (a lone UTF-16 surrogate as U+FFFD). */
static void put_code(struct jfr_bytes *out, uint32_t code)
{
	unsigned char b[4];
	if (code >= 0xd800 && code < 0xe000)
		code = 0xfffd;
	put(out, b, utf8_encode(code, b));
}

/* A length that the bytes left can hold (each unit takes at least one). */
uint64_t jfr_get_count(struct jfr_cursor *k)
{
	uint64_t n = jfr_get_int(k);
	return n > k->end - k->at ? (uint64_t)bad(k, NULL) : n;
}

/* Java's UTF-16 pairs, as the char array encoding gives them, joined into one character. */
static void get_char_array(struct jfr_cursor *k, struct jfr_bytes *out)
{
	uint64_t n = jfr_get_count(k);
	for (uint64_t i = 0; i < n && !k->bad; i++) {
		uint32_t code = get_short(k);
		if (code >= 0xd800 && code < 0xdc00 && i + 1 < n) {
			uint64_t back = k->at;
			uint32_t low = get_short(k);
			if (low >= 0xdc00 && low < 0xe000) {
				if (out)
					put_code(out, 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00));
				i++;
				continue;
			}
			k->at = back;
		}
		if (out)
			put_code(out, code);
	}
}

static void get_string_at(struct jfr_cursor *k, struct jfr_bytes *out, int depth);

/* Encoding 2: a key into java.lang.String's pool. */
static void get_pooled_string(struct jfr_cursor *k, struct jfr_bytes *out, int depth)
{
	uint64_t key = jfr_get_long(k);
	struct jfr_chunk *c = k->c;
	struct jfr_cursor inner;
	if (c->string_type == UINT32_MAX || (inner = jfr_pool_value(c, c->string_type, key)).bad || depth > 2) {
		bad(k, "a string's constant pool key is in no pool");
		return;
	}
	get_string_at(&inner, out, depth + 1);
	if (inner.bad) {
		bad(k, inner.why);
		k->bad_at = inner.bad_at;
	}
}

static void get_string_at(struct jfr_cursor *k, struct jfr_bytes *out, int depth)
{
	uint8_t encoding = jfr_get_byte(k);
	uint64_t n;
	switch (encoding) {
	case 0: /* null */
	case 1: /* empty */
		return;
	case 2: /* skipped, the key alone: its pool may come later in the chunk */
		if (out)
			get_pooled_string(k, out, depth);
		else
			jfr_get_long(k);
		return;
	case 3: /* UTF-8, as the writer gave it */
		n = jfr_get_count(k);
		if (out && !k->bad)
			put(out, k->bytes + k->at, n);
		k->at += n;
		return;
	case 4:
		get_char_array(k, out);
		return;
	case 5: /* Latin-1 */
		n = jfr_get_count(k);
		for (uint64_t i = 0; i < n && out; i++)
			put_code(out, k->bytes[k->at + i]);
		k->at += n;
		return;
	default:
		bad(k, "a string of unknown encoding");
	}
}

void jfr_get_string(struct jfr_cursor *k, struct jfr_bytes *out)
{
	get_string_at(k, out, 0);
}

static void skip_value(struct jfr_cursor *k, uint32_t type, int depth);

static void skip_one(struct jfr_cursor *k, const struct jfr_field *f, int depth)
{
	if (f->pool)
		jfr_get_long(k);
	else
		skip_value(k, f->type, depth);
}

static void skip_field_at(struct jfr_cursor *k, const struct jfr_field *f, int depth)
{
	if (!f->array) {
		skip_one(k, f, depth);
		return;
	}
	uint64_t n = jfr_get_count(k);
	/* Elements that take no bytes: nothing to skip, however many. */
	if (!f->pool && k->c->classes[f->type].empty)
		return;
	for (uint64_t i = 0; i < n && !k->bad; i++)
		skip_one(k, f, depth);
}

static void skip_value(struct jfr_cursor *k, uint32_t type, int depth)
{
	const struct jfr_class *cl = &k->c->classes[type];
	switch (cl->kind) {
	case JFR_BOOLEAN:
	case JFR_BYTE:
		jfr_get_byte(k);
		return;
	case JFR_CHAR:
	case JFR_SHORT:
		get_short(k);
		return;
	case JFR_INT:
		jfr_get_int(k);
		return;
	case JFR_LONG:
		jfr_get_long(k);
		return;
	case JFR_FLOAT:
		get_fixed(k, 4);
		return;
	case JFR_DOUBLE:
		get_fixed(k, 8);
		return;
	case JFR_STRING:
		get_string_at(k, NULL, 0);
		return;
	}
	if (cl->empty)
		return;
	if (depth > MAX_DEPTH) {
		bad(k, "values nested too deep");
		return;
	}
	for (uint32_t i = 0; i < cl->n_fields && !k->bad; i++)
		skip_field_at(k, &k->c->fields[cl->first_field + i], depth + 1);
}

void jfr_skip_field(struct jfr_cursor *k, const struct jfr_field *f)
{
	skip_field_at(k, f, 0);
}

uint64_t jfr_get_number(struct jfr_cursor *k, const struct jfr_field *f)
{
	if (f->pool && !f->array)
		return jfr_get_long(k);
	if (f->array) {
		jfr_skip_field(k, f);
		return 0;
	}
	switch (k->c->classes[f->type].kind) {
	case JFR_BOOLEAN:
	case JFR_BYTE:
		return jfr_get_byte(k);
	case JFR_CHAR:
	case JFR_SHORT:
		return get_short(k);
	case JFR_INT:
		return jfr_get_int(k);
	case JFR_LONG:
		return jfr_get_long(k);
	default:
		jfr_skip_field(k, f);
		return 0;
	}
}

int jfr_text_is(const struct jfr_chunk *c, struct jfr_text t, const char *s)
{
	return t.len == strlen(s) && memcmp(c->names + t.at, s, t.len) == 0;
}

int32_t jfr_field_named(const struct jfr_chunk *c, uint32_t type, const char *name)
{
	const struct jfr_class *cl = &c->classes[type];
	for (uint32_t i = 0; i < cl->n_fields; i++)
		if (jfr_text_is(c, c->fields[cl->first_field + i].name, name))
			return (int32_t)i;
	return -1;
}

uint32_t jfr_class_named(const struct jfr_chunk *c, const char *name)
{
	for (size_t i = 0; i < c->n_classes; i++)
		if (jfr_text_is(c, c->classes[i].name, name))
			return (uint32_t)i;
	return UINT32_MAX;
}

void jfr_seek_field(struct jfr_cursor *k, uint32_t type, int32_t index)
{
	const struct jfr_class *cl = &k->c->classes[type];
	for (int32_t i = 0; i < index && !k->bad; i++)
		jfr_skip_field(k, &k->c->fields[cl->first_field + (uint32_t)i]);
}

static int text_at(struct jfr_cursor *k, const struct jfr_field *f, struct jfr_bytes *out, int depth)
{
	if (f->array || depth > MAX_DEPTH) {
		jfr_skip_field(k, f);
		return 0;
	}
	uint32_t type = f->type;
	struct jfr_cursor inner = *k;
	if (f->pool) {
		inner = jfr_pool_value(k->c, type, jfr_get_long(k));
		if (inner.bad)
			return 0;
	}
	struct jfr_cursor *v = f->pool ? &inner : k;
	const struct jfr_class *cl = &k->c->classes[type];
	if (cl->kind == JFR_STRING) {
		size_t before = out->len;
		get_string_at(v, out, 0);
		return !v->bad || (out->len = before, 0);
	}
	if (cl->kind != JFR_STRUCT) {
		skip_value(v, type, 0);
		return 0;
	}
	static const char *const inner_names[] = { "string", "name", "description" };
	for (size_t n = 0; n < sizeof inner_names / sizeof *inner_names; n++) {
		int32_t i = jfr_field_named(k->c, type, inner_names[n]);
		if (i < 0)
			continue;
		uint64_t start = v->at;
		jfr_seek_field(v, type, i);
		int got = !v->bad && text_at(v, &k->c->fields[cl->first_field + (uint32_t)i], out, depth + 1);
		if (!f->pool) { /* the cursor goes on after the whole struct */
			v->at = start;
			skip_value(v, type, 0);
		}
		return got;
	}
	skip_value(v, type, 0);
	return 0;
}

int jfr_field_text(struct jfr_cursor *k, const struct jfr_field *f, struct jfr_bytes *out)
{
	return text_at(k, f, out, 0);
}

void jfr_chunk_reset(struct jfr_chunk *c)
{
	c->n_classes = c->n_fields = c->names_len = c->n_pool = 0;
	c->kept_len = c->n_pieces = 0;
	hashidx_free(&c->class_index);
	hashidx_free(&c->pool_index);
	c->string_type = UINT32_MAX;
	c->failed = 0;
}

void jfr_chunk_free(struct jfr_chunk *c)
{
	jfr_chunk_reset(c);
	free(c->kept);
	free(c->pieces);
	free(c->classes);
	free(c->fields);
	free(c->names);
	free(c->pool);
}
