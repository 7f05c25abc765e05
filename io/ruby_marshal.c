/*
 * Ruby's Marshal 4.8, read as ruby_marshal.h says. Ruby's own loader
 * (marshal.c, r_object) is the rule for what enters the tables: every
 * non-immediate object, in the order its type byte comes, enters the object
 * table (a Bignum too, even one of Fixnum size, and a Float); every new
 * Symbol enters the symbol table before its instance variables are read.
 * A link must name an entry already made; a link to an Array or a Hash
 * would mean reading it again, which no stackprof dump needs: it comes as
 * RUBY_LINK, skipped where it does not matter, refused where it does.
 */
#include "ruby_marshal.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/diag.h"

int ruby_marshal_error(struct ruby_marshal *mr, const char *fmt, ...)
{
	char what[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	diag_error(mr->name, 0, "offset %" PRIu64 ": %s", mr->value_offset, what);
	return -1;
}

int ruby_marshal_begin(struct ruby_marshal *mr, const char *name, const unsigned char *data, size_t len)
{
	memset(mr, 0, sizeof *mr);
	mr->name = name;
	mr->data = data;
	mr->len = len;
	if (len < 2 || data[0] != 4 || data[1] != 8)
		return ruby_marshal_error(mr, "not Ruby Marshal data (it starts 04 08, version 4.8)");
	mr->at = 2;
	return 0;
}

void ruby_marshal_end(struct ruby_marshal *mr)
{
	free(mr->objects);
	free(mr->symbols);
}

int ruby_value_is(const struct ruby_value *v, const char *text)
{
	size_t n = strlen(text);
	return (v->kind == RUBY_STRING || v->kind == RUBY_SYMBOL) && v->len == n && memcmp(v->bytes, text, n) == 0;
}

static inline size_t left(const struct ruby_marshal *mr)
{
	return mr->len - mr->at;
}

static int cut_short(struct ruby_marshal *mr)
{
	return ruby_marshal_error(mr, "the data ends inside a value");
}

static inline int byte(struct ruby_marshal *mr, int *c)
{
	*c = 0;
	if (left(mr) < 1)
		return cut_short(mr);
	*c = mr->data[mr->at++];
	return 0;
}

/* Marshal's packed long (w_long): one byte, or a length byte and 1 to 4 little-endian bytes. */
static inline int packed_long(struct ruby_marshal *mr, int64_t *v)
{
	int c;
	*v = 0;
	if (byte(mr, &c) < 0)
		return -1;
	int8_t s = (int8_t)c;
	if (s == 0 || s > 4 || s < -4) {
		*v = s == 0 ? 0 : s > 0 ? s - 5 : s + 5;
		return 0;
	}
	int n = s > 0 ? s : -s;
	if (left(mr) < (size_t)n)
		return cut_short(mr);
	uint32_t x = s > 0 ? 0 : UINT32_MAX;
	for (int i = 0; i < n; i++) {
		x &= ~(UINT32_C(0xff) << (8 * i));
		x |= (uint32_t)mr->data[mr->at++] << (8 * i);
	}
	*v = s > 0 ? (int64_t)x : (int64_t)(int32_t)x;
	return 0;
}

/* A count or length: not negative, and each of its items at least `item_bytes` of what is left. */
static inline int length(struct ruby_marshal *mr, size_t item_bytes, const char *what, uint64_t *n)
{
	int64_t v;
	*n = 0;
	if (packed_long(mr, &v) < 0)
		return -1;
	if (v < 0)
		return ruby_marshal_error(mr, "%s %" PRId64 ": negative", what, v);
	if ((uint64_t)v * item_bytes > left(mr)) /* v < 2^31: no overflow, and no division per value */
		return ruby_marshal_error(mr, "%s %" PRId64 ": more than the %zu bytes left hold", what, v, left(mr));
	*n = (uint64_t)v;
	return 0;
}

static int bytes(struct ruby_marshal *mr, const char *what, struct ruby_value *v)
{
	if (length(mr, 1, what, &v->count) < 0)
		return -1;
	v->bytes = mr->data + mr->at;
	v->len = (size_t)v->count;
	v->count = 0;
	mr->at += v->len;
	return 0;
}

static void enter(size_t **table, size_t *n, size_t *cap, size_t type_at)
{
	if (*n == *cap) /* every Bignum of raw is an entry: a call per entry would cost a tenth of the read */
		grow((void **)table, cap, *n + 1, sizeof **table);
	(*table)[(*n)++] = type_at;
}

static void enter_object(struct ruby_marshal *mr, size_t type_at)
{
	if (!mr->replaying)
		enter(&mr->objects, &mr->n_objects, &mr->cap_objects, type_at);
}

static int bytes(struct ruby_marshal *mr, const char *what, struct ruby_value *v);
static int bignum(struct ruby_marshal *mr, struct ruby_value *v);

/*
 * A link (`@` or `;`): the entry it names, read again where it stands: a
 * String, Symbol, Float or Bignum as itself, anything else as RUBY_LINK.
 */
static int link(struct ruby_marshal *mr, const size_t *table, size_t n, const char *what, struct ruby_value *v)
{
	int64_t i;
	if (packed_long(mr, &i) < 0)
		return -1;
	if (i < 0 || (uint64_t)i >= n)
		return ruby_marshal_error(mr, "a link to %s %" PRId64 " of %zu so far", what, i, n);
	size_t resume = mr->at;
	mr->at = table[i];
	mr->replaying = 1;
	int type = mr->data[mr->at++], rc = 0;
	v->kind = type == '"' ? RUBY_STRING : type == ':' ? RUBY_SYMBOL : type == 'f' ? RUBY_FLOAT : RUBY_LINK;
	if (type == 'l')
		rc = bignum(mr, v);
	else if (v->kind != RUBY_LINK)
		rc = bytes(mr, "a linked value's length", v);
	mr->replaying = 0;
	mr->at = resume;
	return rc;
}

static uint64_t little_endian_64(const unsigned char *b)
{
	return (uint64_t)b[0] | (uint64_t)b[1] << 8 | (uint64_t)b[2] << 16 | (uint64_t)b[3] << 24 |
	       (uint64_t)b[4] << 32 | (uint64_t)b[5] << 40 | (uint64_t)b[6] << 48 | (uint64_t)b[7] << 56;
}

/* A Bignum: sign, a count of 16-bit words, the words little-endian; kept when it fits int64. */
static int bignum(struct ruby_marshal *mr, struct ruby_value *v)
{
	size_t type_at = mr->type_at;
	int sign;
	uint64_t words;
	if (byte(mr, &sign) < 0 || length(mr, 2, "a Bignum's count of 16-bit words", &words) < 0)
		return -1;
	if (sign != '+' && sign != '-')
		return ruby_marshal_error(mr, "a Bignum's sign byte 0x%02x, not + or -", (unsigned)sign);
	const unsigned char *word = mr->data + mr->at;
	size_t n = (size_t)(2 * words), low = n < 8 ? n : 8;
	mr->at += n;
	uint64_t magnitude = 0;
	/* A frame id's 6 bytes and what follows, read as 8 at once (one load, as compilers make it). */
	if (left(mr) + n >= 8)
		magnitude = little_endian_64(word) & (low == 8 ? UINT64_MAX : (UINT64_C(1) << (8 * low)) - 1);
	else
		for (size_t i = 0; i < low; i++)
			magnitude |= (uint64_t)word[i] << (8 * i);
	int big = 0;
	for (size_t i = low; i < n; i++)
		big |= word[i] != 0;
	if (big || magnitude > (uint64_t)INT64_MAX)
		v->kind = RUBY_BIG;
	else
		v->kind = RUBY_INTEGER, v->integer = sign == '+' ? (int64_t)magnitude : -(int64_t)magnitude;
	enter_object(mr, type_at);
	return 0;
}

static int symbol_of(struct ruby_marshal *mr, int depth, const char *what);
static int read_value(struct ruby_marshal *mr, struct ruby_value *v, int depth, int in_ivar);
static int skip_children(struct ruby_marshal *mr, const struct ruby_value *v, int depth);

static int too_deep(struct ruby_marshal *mr, int depth)
{
	if (depth < RUBY_MARSHAL_DEPTH)
		return 0;
	return ruby_marshal_error(mr, "values nested more than %d deep", RUBY_MARSHAL_DEPTH);
}

/* A value read and skipped whole. */
static int skip_value(struct ruby_marshal *mr, int depth)
{
	struct ruby_value v;
	if (too_deep(mr, depth) < 0 || read_value(mr, &v, depth, 0) < 0)
		return -1;
	return skip_children(mr, &v, depth);
}

static int skip_children(struct ruby_marshal *mr, const struct ruby_value *v, int depth)
{
	if (v->count > 0 && too_deep(mr, depth + 1) < 0)
		return -1;
	for (uint64_t i = 0; i < v->count; i++)
		if (skip_value(mr, depth + 1) < 0)
			return -1;
	return 0;
}

/* `I`: a String's, Symbol's or Regexp's instance variables (its encoding), after it. */
static int instance_variables(struct ruby_marshal *mr, struct ruby_value *v, int depth)
{
	if (read_value(mr, v, depth, 1) < 0)
		return -1;
	if (v->count > 0)
		return ruby_marshal_error(mr, "instance variables on an array, hash or object: not read");
	uint64_t n;
	if (length(mr, 2, "a count of instance variables", &n) < 0 || too_deep(mr, depth + 1) < 0)
		return -1;
	for (uint64_t i = 0; i < n; i++)
		if (symbol_of(mr, depth + 1, "an instance variable's name") < 0 || skip_value(mr, depth + 1) < 0)
			return -1;
	return 0;
}

/* A Symbol, new or linked: a class's name, an instance variable's. */
static int symbol_of(struct ruby_marshal *mr, int depth, const char *what)
{
	struct ruby_value v;
	uint64_t offset = mr->at;
	if (too_deep(mr, depth + 1) < 0 || read_value(mr, &v, depth + 1, 0) < 0)
		return -1;
	if (v.kind != RUBY_SYMBOL) {
		mr->value_offset = offset;
		return ruby_marshal_error(mr, "%s is not a Symbol", what);
	}
	return 0;
}

/* An object whose fields (`o`, `S`: name, value pairs) or one value (`U`, `d`) follow. */
static int other_object(struct ruby_marshal *mr, struct ruby_value *v, int type, int depth)
{
	v->kind = RUBY_OTHER;
	enter_object(mr, mr->type_at);
	if (symbol_of(mr, depth, "a class name") < 0)
		return -1;
	if (type == 'U' || type == 'd') {
		v->count = 1;
		return 0;
	}
	if (length(mr, 2, "an object's count of fields", &v->count) < 0)
		return -1;
	v->count *= 2;
	return 0;
}

/* Objects held as bytes alone: `u` (a _dump), `/` (a Regexp, then its options), `c`, `m`, `M`. */
static int bytes_object(struct ruby_marshal *mr, struct ruby_value *v, int type, int depth)
{
	size_t type_at = mr->type_at;
	if (type == 'u' && symbol_of(mr, depth, "a class name") < 0)
		return -1;
	if (bytes(mr, "an object's length", v) < 0)
		return -1;
	int options;
	if (type == '/' && byte(mr, &options) < 0)
		return -1;
	v->kind = RUBY_OTHER;
	v->count = 0;
	enter_object(mr, type_at);
	return 0;
}

static int container(struct ruby_marshal *mr, struct ruby_value *v, int type)
{
	int hash = type != '[';
	v->kind = hash ? RUBY_HASH : RUBY_ARRAY;
	if (length(mr, hash ? 2 : 1, hash ? "a Hash's count of pairs" : "an Array's count", &v->count) < 0)
		return -1;
	v->count = hash ? 2 * v->count + (type == '}') : v->count;
	enter_object(mr, mr->type_at);
	return 0;
}

static int scalar(struct ruby_marshal *mr, struct ruby_value *v, int type)
{
	switch (type) {
	case '0': v->kind = RUBY_NIL; return 0;
	case 'T': v->kind = RUBY_TRUE; return 0;
	case 'F': v->kind = RUBY_FALSE; return 0;
	case 'i': v->kind = RUBY_INTEGER; return packed_long(mr, &v->integer);
	case 'l': return bignum(mr, v);
	case 'f':
	case '"':
		v->kind = type == 'f' ? RUBY_FLOAT : RUBY_STRING;
		if (bytes(mr, type == 'f' ? "a Float's length" : "a String's length", v) < 0)
			return -1;
		enter_object(mr, mr->type_at);
		return 0;
	case ':':
		v->kind = RUBY_SYMBOL;
		if (bytes(mr, "a Symbol's length", v) < 0)
			return -1;
		enter(&mr->symbols, &mr->n_symbols, &mr->cap_symbols, mr->type_at);
		return 0;
	case ';': return link(mr, mr->symbols, mr->n_symbols, "symbol", v);
	case '@': return link(mr, mr->objects, mr->n_objects, "object", v);
	}
	return ruby_marshal_error(mr, "a value of type byte 0x%02x, which Marshal 4.8 does not have", (unsigned)type);
}

static int read_value(struct ruby_marshal *mr, struct ruby_value *v, int depth, int in_ivar)
{
	memset(v, 0, sizeof *v);
	v->offset = mr->value_offset = mr->at;
	for (;;) {
		int type;
		mr->type_at = mr->at;
		if (byte(mr, &type) < 0)
			return -1;
		switch (type) {
		case 'e': /* extended by a module, 'C' a user's subclass: the name, then the object */
		case 'C':
			if (symbol_of(mr, depth, "a module or class name") < 0)
				return -1;
			continue;
		case 'I':
			if (in_ivar)
				return ruby_marshal_error(mr, "instance variables of instance variables");
			return instance_variables(mr, v, depth);
		case '[':
		case '{':
		case '}':
			return container(mr, v, type);
		case 'o':
		case 'S':
		case 'U':
		case 'd':
			return other_object(mr, v, type, depth);
		case 'u':
		case '/':
		case 'c':
		case 'm':
		case 'M':
			return bytes_object(mr, v, type, depth);
		}
		return scalar(mr, v, type);
	}
}

int ruby_marshal_next(struct ruby_marshal *mr, struct ruby_value *v)
{
	if (read_value(mr, v, 0, 0) < 0)
		return -1;
	mr->value_offset = v->offset; /* the caller's messages are about this value, not one inside it */
	return 0;
}

int ruby_marshal_skip(struct ruby_marshal *mr, const struct ruby_value *v)
{
	return skip_children(mr, v, 0);
}
