/*
 * What a JFR chunk's stack traces become (formats/jfr.h): frames named as
 * async-profiler's converters name them ("pkg.Class.method", the method
 * alone where there is no class), each a location at its line, the frame
 * type kept in the function's system name; a hidden class's name without
 * the parts each run makes anew (its address and hash, a lambda's number:
 * "App$$Lambda.apply"), so that runs merge, the whole name kept in the
 * system name; and the names of threads and
 * thread states for labels. Each pool key is resolved once a chunk, and
 * kept in a cache cleared at the next chunk, where keys mean other things.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "../base/alloc.h"
#include "jfr.h"

/* JFR's stackdepth is at most 2048 in the JDK; async-profiler's goes further. */
enum { MAX_FRAMES = 1 << 16 };

static int entry_equals(const void *ctx, uint32_t i, const void *key)
{
	const struct jfr_keymap_entry *e = &((const struct jfr_keymap *)ctx)->entries[i], *k = key;
	return e->a == k->a && e->b == k->b;
}

static int keymap_get(const struct jfr_keymap *km, uint64_t a, uint64_t b, uint64_t *value)
{
	if (b == 0 && a < km->n_dense && km->dense[a]) {
		*value = km->dense[a] - 1;
		return 1;
	}
	if (km->n == 0)
		return 0;
	struct jfr_keymap_entry k = { a, b, 0 };
	uint32_t i = hashidx_find(&km->index, hash_mix(a, b), entry_equals, km, &k);
	if (i == HASHIDX_NONE)
		return 0;
	*value = km->entries[i].value;
	return 1;
}

static uint64_t keymap_put(struct jfr_keymap *km, uint64_t a, uint64_t b, uint64_t value)
{
	km->count++;
	if (b == 0 && a < 16 * (km->count + 256)) {
		if (a >= km->n_dense) {
			grow((void **)&km->dense, &km->cap_dense, (size_t)a + 1, sizeof *km->dense);
			memset(km->dense + km->n_dense, 0, ((size_t)a + 1 - km->n_dense) * sizeof *km->dense);
			km->n_dense = (size_t)a + 1;
		}
		km->dense[a] = value + 1;
		return value;
	}
	grow((void **)&km->entries, &km->cap, km->n + 1, sizeof *km->entries);
	km->entries[km->n] = (struct jfr_keymap_entry){ a, b, value };
	hashidx_insert(&km->index, hash_mix(a, b), (uint32_t)km->n++);
	return value;
}

static void keymap_clear(struct jfr_keymap *km)
{
	km->n = km->count = 0;
	if (km->n_dense)
		memset(km->dense, 0, km->n_dense * sizeof *km->dense);
	km->n_dense = 0;
	hashidx_free(&km->index);
}

static void keymap_free(struct jfr_keymap *km)
{
	keymap_clear(km);
	free(km->entries);
	free(km->dense);
}

/* The text of field `name` of pool `type`'s entry `key`, in r->text; 0 when there is none. */
static int pool_text(struct jfr_stacks *r, uint32_t type, uint64_t key, const char *name)
{
	r->text.len = 0;
	int32_t i = jfr_field_named(r->c, type, name);
	struct jfr_cursor k = jfr_pool_value(r->c, type, key);
	if (i < 0 || k.bad)
		return 0;
	jfr_seek_field(&k, type, i);
	return !k.bad && jfr_field_text(&k, jfr_field_at(r->c, type, i), &r->text) && r->text.len > 0;
}

static void append(struct jfr_bytes *b, const char *s, size_t len)
{
	grow((void **)&b->s, &b->cap, b->len + len + 1, 1);
	memcpy(b->s + b->len, s, len);
	b->len += len;
}

/* A method's name: "pkg.Class.method", or the method alone when it has no class. */
static uint32_t method_name(struct jfr_stacks *r, uint32_t method_type, uint64_t key, int native)
{
	uint64_t id;
	if (keymap_get(&r->methods, key, (uint64_t)native, &id))
		return (uint32_t)id;
	struct jfr_bytes *name = &r->name;
	name->len = 0;
	int32_t class_field = jfr_field_named(r->c, method_type, "type");
	if (!native && class_field >= 0) {
		struct jfr_cursor k = jfr_pool_value(r->c, method_type, key);
		jfr_seek_field(&k, method_type, class_field);
		if (!k.bad && jfr_field_text(&k, jfr_field_at(r->c, method_type, class_field), name) && name->len) {
			for (size_t i = 0; i < name->len; i++)
				name->s[i] = name->s[i] == '/' ? '.' : name->s[i];
			append(name, ".", 1);
		}
	}
	if (pool_text(r, method_type, key, "name"))
		append(name, r->text.s, r->text.len);
	else if (name->len)
		name->len--; /* a class without a method name: the class */
	uint32_t s = name->len ? model_str(r->m, name->s, name->len) : model_str(r->m, "unknown", 7);
	return (uint32_t)keymap_put(&r->methods, key, (uint64_t)native, s);
}

/* After "+0x<hex>" (a hidden class's address), JFR's ".<hash>" or "/<hash>": past it; NULL when not so. */
static const char *past_address(const char *plus)
{
	const char *end = plus + 3;
	while (isxdigit((unsigned char)*end))
		end++;
	if (end == plus + 3)
		return NULL;
	if ((*end == '.' || *end == '/') && isdigit((unsigned char)end[1])) {
		const char *hash = end + 1;
		while (isdigit((unsigned char)*hash))
			hash++;
		if (*hash == '.' || !*hash)
			end = hash;
	}
	return *end == '.' || !*end ? end : NULL;
}

/*
 * A name without a hidden class's per-run parts: JFR names the class
 * "App$$Lambda$90+0x00007f5de8007a08/1234" (JDK 17; JDK 21 leaves out
 * "$90"), async-profiler's --norm drops the address and the hash, and the
 * lambda's number, which depends on the order lambdas were first used,
 * goes too (as gradle-profiler's sanitizer drops it). `name` when there
 * is nothing to drop.
 */
static uint32_t without_run_parts(struct model *m, uint32_t name)
{
	const char *s = model_cstr(m, name), *plus = strstr(s, "+0x"), *end = plus ? past_address(plus) : NULL;
	if (!end)
		return name;
	size_t cut = (size_t)(plus - s), digits = cut;
	while (digits > 0 && isdigit((unsigned char)s[digits - 1]))
		digits--;
	if (digits < cut && digits >= 9 && memcmp(s + digits - 9, "$$Lambda$", 9) == 0)
		cut = digits - 1;
	size_t rest = strlen(end);
	char *shown = xmalloc(cut + rest + 1);
	memcpy(shown, s, cut);
	memcpy(shown + cut, end, rest + 1);
	uint32_t id = model_str(m, shown, cut + rest);
	free(shown);
	return id;
}

/* async-profiler's own frames (C++, kernel) are named by the method alone, as its converters do. */
static int is_native_type(const char *description)
{
	return strcmp(description, "C++") == 0 || strcmp(description, "Kernel") == 0;
}

/* The function of a frame: its name, and as system name the name and the frame type. */
static uint32_t frame_function(struct jfr_stacks *r, uint32_t method_type, uint64_t method,
			       uint32_t frame_type, uint64_t type_key)
{
	uint64_t id;
	if (keymap_get(&r->functions, method, type_key, &id))
		return (uint32_t)id;
	int typed = frame_type != UINT32_MAX && pool_text(r, frame_type, type_key, "description");
	char description[64] = "";
	if (typed)
		snprintf(description, sizeof description, "%.*s", (int)r->text.len, r->text.s);
	uint32_t whole = method_name(r, method_type, method, typed && is_native_type(description));
	const char *n = model_cstr(r->m, whole);
	size_t len = strlen(n);
	char *system = xmalloc(len + sizeof description + 4);
	int system_len = typed ? snprintf(system, len + sizeof description + 4, "%s [%s]", n, description) : 0;
	struct model_function f = { without_run_parts(r->m, whole), typed ? model_str(r->m, system, (size_t)system_len) : whole,
				    0, 0, 0, 0, { 0, 0, 0, 0 } };
	free(system);
	return (uint32_t)keymap_put(&r->functions, method, type_key, model_function(r->m, &f));
}

/* Where a StackFrame's fields are, by name. */
struct frame_fields {
	int32_t method, line, type;
	uint32_t method_type, frame_type;
};

static struct frame_fields frame_fields(const struct jfr_chunk *c, uint32_t frame_class)
{
	struct frame_fields ff = { jfr_field_named(c, frame_class, "method"), jfr_field_named(c, frame_class, "lineNumber"),
				   jfr_field_named(c, frame_class, "type"), UINT32_MAX, UINT32_MAX };
	if (ff.method >= 0 && jfr_field_at(c, frame_class, ff.method)->pool)
		ff.method_type = jfr_field_at(c, frame_class, ff.method)->type;
	if (ff.type >= 0 && jfr_field_at(c, frame_class, ff.type)->pool)
		ff.frame_type = jfr_field_at(c, frame_class, ff.type)->type;
	return ff;
}

/* One StackFrame at the cursor, as a location. */
static uint32_t frame_location(struct jfr_stacks *r, struct jfr_cursor *k, uint32_t frame_class, const struct frame_fields *ff)
{
	const struct jfr_class *cl = &r->c->classes[frame_class];
	uint64_t method = 0, type_key = 0;
	int64_t line = 0;
	for (int32_t i = 0; i < (int32_t)cl->n_fields && !k->bad; i++) {
		const struct jfr_field *f = jfr_field_at(r->c, frame_class, i);
		uint64_t v = jfr_get_number(k, f);
		if (i == ff->method)
			method = v;
		else if (i == ff->line)
			line = (int32_t)v;
		else if (i == ff->type)
			type_key = v;
	}
	uint32_t function = ff->method_type == UINT32_MAX ? model_function(r->m, &(struct model_function){ model_str(r->m, "unknown", 7), 0, 0, 0, 0, 0, { 0, 0, 0, 0 } })
							  : frame_function(r, ff->method_type, method, ff->frame_type, type_key);
	return model_location(r->m, function, line > 0 ? line : 0);
}

/* The frames of a StackTrace value, leaf first, into r->frames; how many, or -1 when malformed. */
static long trace_frames(struct jfr_stacks *r, struct jfr_cursor *k, uint32_t trace_class, int *truncated)
{
	int32_t frames_at = jfr_field_named(r->c, trace_class, "frames"), cut_at = jfr_field_named(r->c, trace_class, "truncated");
	long n = 0;
	for (int32_t i = 0; i < (int32_t)r->c->classes[trace_class].n_fields && !k->bad; i++) {
		const struct jfr_field *f = jfr_field_at(r->c, trace_class, i);
		if (i == cut_at) {
			*truncated = jfr_get_number(k, f) != 0;
			continue;
		}
		if (i != frames_at || !f->array || f->pool) {
			jfr_skip_field(k, f);
			continue;
		}
		uint64_t count = jfr_get_count(k);
		if (count > MAX_FRAMES) {
			jfr_bad(k, "a stack deeper than 65536 frames");
			return -1;
		}
		struct frame_fields ff = frame_fields(r->c, f->type);
		grow((void **)&r->frames, &r->cap_frames, count + 1, sizeof *r->frames);
		for (uint64_t j = 0; j < count && !k->bad; j++)
			r->frames[n++] = frame_location(r, k, f->type, &ff);
	}
	return k->bad ? -1 : n;
}

/* A stack trace key's stack id, shifted left once, with the truncated mark in bit 0. */
int jfr_stack_of(struct jfr_stacks *r, uint32_t trace_class, uint64_t key, uint64_t *stack)
{
	if (keymap_get(&r->stacks, key, 0, stack))
		return 0;
	struct jfr_cursor k = jfr_pool_value(r->c, trace_class, key);
	int truncated = 0;
	long n = k.bad ? 0 : trace_frames(r, &k, trace_class, &truncated);
	if (n < 0)
		return jfr_error(r->c, k.bad_at, "stack trace %llu: %s", (unsigned long long)key, k.why ? k.why : "cut short");
	uint32_t id = MODEL_EMPTY_STACK;
	for (long i = n; i-- > 0;)
		id = model_stack(r->m, r->frames[i], id);
	*stack = keymap_put(&r->stacks, key, 0, (uint64_t)id << 1 | (uint64_t)truncated);
	return 0;
}

/* A JVM class name as Java writes it: "[J" as "long[]", "[Ljava/lang/String;" as "java.lang.String[]". */
static uint32_t java_class_name(struct model *m, const char *jvm, size_t len)
{
	static const char primitives[] = "BbyteCcharDdoubleFfloatIintJlongSshortZboolean";
	size_t dims = 0;
	while (dims < len && jvm[dims] == '[')
		dims++;
	const char *base = jvm + dims;
	size_t base_len = len - dims;
	if (dims && base_len == 1 && strchr("BCDFIJSZ", *base)) {
		const char *at = strchr(primitives, *base) + 1;
		base = at;
		base_len = 0;
		while (islower((unsigned char)base[base_len]))
			base_len++;
	} else if (dims && base_len >= 2 && *base == 'L' && base[base_len - 1] == ';') {
		base++;
		base_len -= 2;
	}
	char *name = xmalloc(base_len + 2 * dims + 1);
	for (size_t i = 0; i < base_len; i++)
		name[i] = base[i] == '/' ? '.' : base[i];
	for (size_t i = 0; i < dims; i++)
		memcpy(name + base_len + 2 * i, "[]", 2);
	uint32_t id = model_str(m, name, base_len + 2 * dims);
	free(name);
	return id;
}

void jfr_with_class_leaf(struct jfr_stacks *r, uint32_t class_type, uint64_t key, uint64_t *stack)
{
	uint64_t location;
	if (*stack >> 1 == MODEL_EMPTY_STACK)
		return;
	if (!keymap_get(&r->classes, key, 0, &location)) {
		location = MODEL_NONE;
		if (pool_text(r, class_type, key, "name")) {
			uint32_t whole = java_class_name(r->m, r->text.s, r->text.len);
			struct model_function f = { without_run_parts(r->m, whole), whole, 0, 0, 0, 0, { 0, 0, 0, 0 } };
			location = model_location(r->m, model_function(r->m, &f), 0);
		}
		keymap_put(&r->classes, key, 0, location);
	}
	if (location == MODEL_NONE)
		return;
	*stack = (uint64_t)model_stack(r->m, (uint32_t)location, (uint32_t)(*stack >> 1)) << 1 | (*stack & 1);
}

/* A thread's name: its Java name, else its OS name; 0 when it has neither. */
uint32_t jfr_thread_name(struct jfr_stacks *r, uint32_t thread_class, uint64_t key)
{
	uint64_t id;
	if (keymap_get(&r->threads, key, 0, &id))
		return (uint32_t)id;
	id = pool_text(r, thread_class, key, "javaName") || pool_text(r, thread_class, key, "osName")
		     ? model_str(r->m, r->text.s, r->text.len) : 0;
	return (uint32_t)keymap_put(&r->threads, key, 0, id);
}

uint32_t jfr_state_name(struct jfr_stacks *r, uint32_t state_class, uint64_t key)
{
	uint64_t id;
	if (keymap_get(&r->states, key, 0, &id))
		return (uint32_t)id;
	id = pool_text(r, state_class, key, "name") ? model_str(r->m, r->text.s, r->text.len) : 0;
	return (uint32_t)keymap_put(&r->states, key, 0, id);
}

void jfr_stacks_clear(struct jfr_stacks *r)
{
	keymap_clear(&r->stacks);
	keymap_clear(&r->functions);
	keymap_clear(&r->methods);
	keymap_clear(&r->threads);
	keymap_clear(&r->states);
	keymap_clear(&r->classes);
}

void jfr_stacks_free(struct jfr_stacks *r)
{
	keymap_free(&r->stacks);
	keymap_free(&r->functions);
	keymap_free(&r->methods);
	keymap_free(&r->threads);
	keymap_free(&r->states);
	keymap_free(&r->classes);
	free(r->text.s);
	free(r->name.s);
	free(r->frames);
}
