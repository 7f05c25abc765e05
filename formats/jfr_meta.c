/*
 * JFR metadata and constant pools (formats/jfr.h). The metadata event is
 * a string table and a tree of elements; prof takes from it each class
 * (name, id, fields in order: name, type, constantPool, dimension, and
 * jdk.jfr.Timespan's unit) and ignores the rest (settings, regions,
 * other annotations). A checkpoint event holds pools of (key, value);
 * each value is indexed where it starts, and read only when an event
 * needs it. Counts are checked against the bytes left before anything is
 * allocated for them.
 */
#include <string.h>

#include "../base/alloc.h"
#include "../base/checked.h"
#include "jfr.h"

enum { MAX_DEPTH = 32 };

/* A field's annotation, resolved once every class is known. */
struct annotation {
	uint32_t field;
	uint64_t class_id;
	struct jfr_text value;
};

struct meta {
	struct jfr_chunk *c;
	struct jfr_cursor k;
	struct jfr_text *strings;
	uint64_t n_strings;
	struct annotation *notes;
	size_t n_notes, cap_notes;
	int32_t open_class; /* the class whose element is being read; -1: none */
};

/* The attributes prof reads, by element. */
struct attributes {
	struct jfr_text name, id, class_id, constant_pool, dimension, value;
	int has_name, has_id, has_class;
};

static struct jfr_text add_name(struct jfr_chunk *c, const char *s, size_t len)
{
	grow((void **)&c->names, &c->names_cap, c->names_len + len + 1, 1);
	memcpy(c->names + c->names_len, s, len);
	struct jfr_text t = { (uint32_t)c->names_len, (uint32_t)len };
	c->names_len += len;
	c->names[c->names_len++] = '\0';
	return t;
}

/* A decimal id as the metadata writes it; 0 and -1 when it is none. */
static int parse_id(const struct jfr_chunk *c, struct jfr_text t, uint64_t *id)
{
	*id = 0;
	if (t.len == 0 || t.len > 20)
		return -1;
	for (uint32_t i = 0; i < t.len; i++) {
		char d = c->names[t.at + i];
		if (d < '0' || d > '9' || checked_mul_u64(*id, 10, id) || checked_add_u64(*id, (uint64_t)(d - '0'), id))
			return -1;
	}
	return 0;
}

static int class_equals(const void *ctx, uint32_t i, const void *key)
{
	return ((const struct jfr_chunk *)ctx)->classes[i].id == *(const uint64_t *)key;
}

uint32_t jfr_class_of_id(const struct jfr_chunk *c, uint64_t id)
{
	return hashidx_find(&c->class_index, hash_mix(id, 7), class_equals, c, &id);
}

static enum jfr_kind kind_of(const struct jfr_chunk *c, struct jfr_text name)
{
	static const struct {
		const char *name;
		enum jfr_kind kind;
	} primitives[] = {
		{ "boolean", JFR_BOOLEAN }, { "byte", JFR_BYTE }, { "char", JFR_CHAR }, { "short", JFR_SHORT },
		{ "int", JFR_INT }, { "long", JFR_LONG }, { "float", JFR_FLOAT }, { "double", JFR_DOUBLE },
		{ "java.lang.String", JFR_STRING },
	};
	for (size_t i = 0; i < sizeof primitives / sizeof *primitives; i++)
		if (jfr_text_is(c, name, primitives[i].name))
			return primitives[i].kind;
	return JFR_STRUCT;
}

static struct jfr_text string_ref(struct meta *mt)
{
	uint32_t i = jfr_get_int(&mt->k);
	if (i < mt->n_strings)
		return mt->strings[i];
	jfr_bad(&mt->k, "a metadata string index out of range");
	return (struct jfr_text){ 0, 0 };
}

static void read_attributes(struct meta *mt, struct attributes *a)
{
	uint64_t n = jfr_get_int(&mt->k);
	for (uint64_t i = 0; i < n && !mt->k.bad; i++) {
		struct jfr_text key = string_ref(mt), value = string_ref(mt);
		if (jfr_text_is(mt->c, key, "name"))
			a->name = value, a->has_name = 1;
		else if (jfr_text_is(mt->c, key, "id"))
			a->id = value, a->has_id = 1;
		else if (jfr_text_is(mt->c, key, "class"))
			a->class_id = value, a->has_class = 1;
		else if (jfr_text_is(mt->c, key, "constantPool"))
			a->constant_pool = value;
		else if (jfr_text_is(mt->c, key, "dimension"))
			a->dimension = value;
		else if (jfr_text_is(mt->c, key, "value"))
			a->value = value;
	}
}

static int add_class(struct meta *mt, const struct attributes *a, uint64_t at)
{
	struct jfr_chunk *c = mt->c;
	uint64_t id;
	if (!a->has_name || parse_id(c, a->id, &id) < 0)
		return jfr_error(c, at, "a metadata class without a name or a valid id");
	if (jfr_class_of_id(c, id) != HASHIDX_NONE)
		return jfr_error(c, at, "two metadata classes with id %llu", (unsigned long long)id);
	grow((void **)&c->classes, &c->cap_classes, c->n_classes + 1, sizeof *c->classes);
	struct jfr_class *cl = &c->classes[c->n_classes];
	memset(cl, 0, sizeof *cl);
	cl->id = id;
	cl->name = a->name;
	cl->kind = (uint8_t)kind_of(c, a->name);
	cl->first_field = (uint32_t)c->n_fields;
	hashidx_insert(&c->class_index, hash_mix(id, 7), (uint32_t)c->n_classes);
	mt->open_class = (int32_t)c->n_classes++;
	return 0;
}

static int add_field(struct meta *mt, const struct attributes *a, uint64_t at)
{
	struct jfr_chunk *c = mt->c;
	struct jfr_field f;
	memset(&f, 0, sizeof f);
	if (!a->has_name || parse_id(c, a->class_id, &f.type_id) < 0)
		return jfr_error(c, at, "a metadata field without a name or a valid class");
	f.name = a->name;
	f.pool = jfr_text_is(c, a->constant_pool, "true");
	f.array = a->dimension.len > 0 && !jfr_text_is(c, a->dimension, "0");
	grow((void **)&c->fields, &c->cap_fields, c->n_fields + 1, sizeof *c->fields);
	c->fields[c->n_fields++] = f;
	c->classes[mt->open_class].n_fields++;
	return 0;
}

static void add_annotation(struct meta *mt, const struct attributes *a)
{
	uint64_t id;
	if (parse_id(mt->c, a->class_id, &id) < 0)
		return;
	grow((void **)&mt->notes, &mt->cap_notes, mt->n_notes + 1, sizeof *mt->notes);
	mt->notes[mt->n_notes++] = (struct annotation){ (uint32_t)(mt->c->n_fields - 1), id, a->value };
}

/*
 * One element and its children. Classes count only outside a class,
 * fields only right under one, annotations right under a field: so each
 * class's fields stay one run of c->fields, whatever else the tree holds.
 */
static int read_element(struct meta *mt, int depth, int in_field)
{
	if (depth > MAX_DEPTH)
		return jfr_error(mt->c, mt->k.chunk_at + mt->k.at, "metadata elements nested too deep");
	uint64_t at = mt->k.chunk_at + mt->k.at;
	struct jfr_text name = string_ref(mt);
	struct attributes a;
	memset(&a, 0, sizeof a);
	read_attributes(mt, &a);
	if (mt->k.bad)
		return 0;
	int opened = 0, field = 0;
	if (jfr_text_is(mt->c, name, "class") && mt->open_class < 0) {
		if (add_class(mt, &a, at) < 0)
			return -1;
		opened = 1;
	} else if (jfr_text_is(mt->c, name, "field") && mt->open_class >= 0 && depth > 0 && !in_field) {
		if (add_field(mt, &a, at) < 0)
			return -1;
		field = 1;
	} else if (jfr_text_is(mt->c, name, "annotation") && in_field && a.has_class) {
		add_annotation(mt, &a);
	}
	uint64_t n = jfr_get_int(&mt->k);
	int32_t outer = mt->open_class;
	for (uint64_t i = 0; i < n && !mt->k.bad; i++) {
		if (read_element(mt, depth + 1, field) < 0)
			return -1;
		mt->open_class = outer;
	}
	if (opened)
		mt->open_class = -1;
	return 0;
}

static enum jfr_timespan timespan_of(const struct jfr_chunk *c, struct jfr_text unit)
{
	static const char *const units[] = { "", "TICKS", "NANOSECONDS", "MICROSECONDS", "MILLISECONDS", "SECONDS" };
	for (size_t i = 1; i < sizeof units / sizeof *units; i++)
		if (jfr_text_is(c, unit, units[i]))
			return (enum jfr_timespan)i;
	return JFR_NO_SPAN;
}

/* Field types to class indexes, Timespan units, and which classes take no bytes. */
static int resolve(struct meta *mt, uint64_t at)
{
	struct jfr_chunk *c = mt->c;
	for (size_t i = 0; i < c->n_fields; i++) {
		uint32_t type = jfr_class_of_id(c, c->fields[i].type_id);
		if (type == HASHIDX_NONE)
			return jfr_error(c, at, "a metadata field of class id %llu, which no class has",
					 (unsigned long long)c->fields[i].type_id);
		c->fields[i].type = type;
	}
	for (size_t i = 0; i < mt->n_notes; i++) {
		uint32_t type = jfr_class_of_id(c, mt->notes[i].class_id);
		if (type != HASHIDX_NONE && jfr_text_is(c, c->classes[type].name, "jdk.jfr.Timespan"))
			c->fields[mt->notes[i].field].timespan = (uint8_t)timespan_of(c, mt->notes[i].value);
	}
	/* The greatest fixed point: a struct is empty until one of its fields holds something. */
	for (size_t i = 0; i < c->n_classes; i++)
		c->classes[i].empty = c->classes[i].kind == JFR_STRUCT;
	for (int changed = 1; changed;) {
		changed = 0;
		for (size_t i = 0; i < c->n_classes; i++) {
			struct jfr_class *cl = &c->classes[i];
			for (uint32_t f = 0; cl->empty && f < cl->n_fields; f++) {
				const struct jfr_field *fd = &c->fields[cl->first_field + f];
				if (fd->pool || fd->array || !c->classes[fd->type].empty)
					cl->empty = 0, changed = 1;
			}
		}
	}
	c->string_type = jfr_class_named(c, "java.lang.String");
	return 0;
}

static int read_strings(struct meta *mt)
{
	struct jfr_bytes s = { NULL, 0, 0 };
	uint64_t n = jfr_get_int(&mt->k);
	if (n > mt->k.end - mt->k.at)
		n = 0, jfr_bad(&mt->k, NULL);
	mt->strings = xcalloc(n ? n : 1, sizeof *mt->strings);
	for (uint64_t i = 0; i < n && !mt->k.bad; i++) {
		s.len = 0;
		jfr_get_string(&mt->k, &s);
		mt->strings[i] = add_name(mt->c, s.s ? s.s : "", s.len);
	}
	mt->n_strings = n;
	free(s.s);
	return 0;
}

int jfr_read_metadata(struct jfr_chunk *c, uint32_t piece)
{
	struct meta mt;
	memset(&mt, 0, sizeof mt);
	mt.c = c;
	mt.k = jfr_piece_cursor(c, piece);
	mt.open_class = -1;
	c->n_classes = c->n_fields = c->names_len = 0;
	hashidx_free(&c->class_index);
	jfr_get_int(&mt.k);  /* size */
	jfr_get_long(&mt.k); /* type 0 */
	jfr_get_long(&mt.k); /* start */
	jfr_get_long(&mt.k); /* duration */
	jfr_get_long(&mt.k); /* metadata id */
	read_strings(&mt);
	int failed = read_element(&mt, 0, 0) < 0;
	if (!failed && mt.k.bad)
		failed = jfr_error(c, mt.k.bad_at, "metadata event: %s", mt.k.why ? mt.k.why : "cut short") < 0;
	if (!failed)
		failed = resolve(&mt, c->pieces[piece].chunk_at) < 0;
	free(mt.strings);
	free(mt.notes);
	return failed ? -1 : 0;
}

struct pool_key {
	uint32_t type;
	uint64_t key;
};

static int entry_equals(const void *ctx, uint32_t i, const void *key)
{
	const struct jfr_pool_entry *e = &((const struct jfr_chunk *)ctx)->pool[i];
	const struct pool_key *k = key;
	return e->type == k->type && e->key == k->key;
}

static uint32_t find_entry(const struct jfr_chunk *c, uint32_t type, uint64_t key)
{
	struct pool_key k = { type, key };
	return hashidx_find(&c->pool_index, hash_mix(key, type), entry_equals, c, &k);
}

struct jfr_cursor jfr_pool_value(struct jfr_chunk *c, uint32_t type, uint64_t key)
{
	uint32_t i = find_entry(c, type, key);
	if (i == HASHIDX_NONE) {
		struct jfr_cursor none = jfr_cursor(c, c->kept, 0, 0, 0);
		none.bad = 1;
		return none;
	}
	struct jfr_cursor k = jfr_piece_cursor(c, c->pool[i].piece);
	k.at = c->pool[i].at;
	return k;
}

/* An entry met again (a later flush repeats it) keeps its first value. */
static void add_entry(struct jfr_chunk *c, uint32_t type, uint64_t key, uint32_t piece, uint64_t at)
{
	if (find_entry(c, type, key) != HASHIDX_NONE)
		return;
	grow((void **)&c->pool, &c->cap_pool, c->n_pool + 1, sizeof *c->pool);
	c->pool[c->n_pool] = (struct jfr_pool_entry){ type, piece, key, at };
	hashidx_insert(&c->pool_index, hash_mix(key, type), (uint32_t)c->n_pool++);
}

static int read_pool(struct jfr_chunk *c, struct jfr_cursor *k, uint32_t piece)
{
	uint64_t at = k->chunk_at + k->at, id = jfr_get_long(k);
	uint32_t type = jfr_class_of_id(c, id);
	if (k->bad)
		return 0;
	if (type == HASHIDX_NONE)
		return jfr_error(c, at, "a constant pool of class id %llu, which the metadata does not define",
				 (unsigned long long)id);
	uint64_t n = jfr_get_count(k);
	struct jfr_field whole = { { 0, 0 }, id, type, 0, 0, 0 };
	for (uint64_t i = 0; i < n && !k->bad; i++) {
		uint64_t key = jfr_get_long(k);
		uint64_t value_at = k->at;
		jfr_skip_field(k, &whole);
		if (!k->bad)
			add_entry(c, type, key, piece, value_at);
	}
	return 0;
}

int jfr_read_checkpoint(struct jfr_chunk *c, uint32_t piece)
{
	struct jfr_cursor k = jfr_piece_cursor(c, piece);
	jfr_get_int(&k);  /* size */
	jfr_get_long(&k); /* type 1 */
	jfr_get_long(&k); /* start */
	jfr_get_long(&k); /* duration */
	jfr_get_long(&k); /* delta to the checkpoint before */
	jfr_get_byte(&k); /* what kind of checkpoint: a flush, a chunk's end */
	uint64_t n = jfr_get_int(&k);
	for (uint64_t i = 0; i < n && !k.bad; i++)
		if (read_pool(c, &k, piece) < 0)
			return -1;
	if (k.bad)
		return jfr_error(c, k.bad_at, "checkpoint event: %s", k.why ? k.why : "cut short");
	return 0;
}
