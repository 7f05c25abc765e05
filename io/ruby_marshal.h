/*
 * ruby_marshal: a pull reader of Ruby's Marshal format 4.8 (what
 * Marshal.dump writes; ruby/ruby's doc/marshal.rdoc), over bytes held in
 * memory, for the stackprof reader (docs/formats/stackprof.md says why it
 * is written here, not taken from a library). A value comes as one token:
 * a scalar (nil, true, false, an Integer, a Float's text, a String's or
 * Symbol's bytes) whole, a container (Array, Hash, an object's or
 * Struct's fields, a wrapper) as its count of values that follow, for the
 * caller to read in turn or skip.
 *
 * Every length and count is checked against the bytes left before it is
 * used, links (`@` objects, `;` symbols) against the tables built so far,
 * and skipping nests at most RUBY_MARSHAL_DEPTH deep, so any bytes cost at
 * most memory in proportion to their length. Problems are reported as
 * "prof: FILE: offset N: what".
 */
#ifndef PROF_RUBY_MARSHAL_H
#define PROF_RUBY_MARSHAL_H

#include <stddef.h>
#include <stdint.h>

enum { RUBY_MARSHAL_DEPTH = 256 };

enum ruby_marshal_kind {
	RUBY_NIL,
	RUBY_TRUE,
	RUBY_FALSE,
	RUBY_INTEGER, /* Fixnum, or a Bignum that fits int64: `integer` */
	RUBY_BIG,     /* a Bignum past int64: its value is not kept */
	RUBY_FLOAT,   /* its text ("1.2", "inf"): bytes, len */
	RUBY_STRING,  /* bytes, len */
	RUBY_SYMBOL,  /* bytes, len */
	RUBY_ARRAY,   /* `count` values follow */
	RUBY_HASH,    /* `count` values follow: keys and values, then the default of a `}` hash */
	RUBY_OTHER,   /* any other object (a user's class, Struct, Regexp...): `count` values follow */
	RUBY_LINK,    /* a link to an Array, Hash or other object read before: not read again */
};

struct ruby_value {
	enum ruby_marshal_kind kind;
	int64_t integer;
	const unsigned char *bytes;
	size_t len;
	uint64_t count;
	uint64_t offset; /* where the value began, for messages */
};

struct ruby_marshal {
	const char *name; /* for messages */
	const unsigned char *data;
	size_t len, at;
	uint64_t value_offset; /* where the last value began */
	size_t type_at;        /* where the type byte being read is */
	/*
	 * The object and symbol tables: where each entry's type byte is, read
	 * again for a link to it (8 bytes an entry, however big the value).
	 */
	size_t *objects, *symbols;
	size_t n_objects, cap_objects, n_symbols, cap_symbols;
	int replaying; /* a link's value is being read again: the tables stay as they are */
};

/* Checks the 04 08 header: 0, or -1 after reporting. */
int ruby_marshal_begin(struct ruby_marshal *mr, const char *name, const unsigned char *data, size_t len);
void ruby_marshal_end(struct ruby_marshal *mr);
/* The next value: 0 and *v, or -1 after reporting. */
int ruby_marshal_next(struct ruby_marshal *mr, struct ruby_value *v);
/* Skips the values a container just returned holds (nothing for a scalar): 0, or -1. */
int ruby_marshal_skip(struct ruby_marshal *mr, const struct ruby_value *v);
/* Reports a problem at the last value's offset; returns -1. */
int ruby_marshal_error(struct ruby_marshal *mr, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Is a value a String or Symbol of exactly these bytes? */
int ruby_value_is(const struct ruby_value *v, const char *text);

#endif
