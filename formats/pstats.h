/* What the pstats reader, writer and probe share (docs/formats/pstats.md). */
#ifndef PROF_PSTATS_H
#define PROF_PSTATS_H

#include "format.h"

/* marshal's type bytes that pstats files hold; FLAG_REF marks an object others may refer back to. */
enum {
	MARSHAL_FLAG_REF = 0x80,
	MARSHAL_NULL = '0',
	MARSHAL_NONE = 'N',
	MARSHAL_FALSE = 'F',
	MARSHAL_TRUE = 'T',
	MARSHAL_STOPITER = 'S',
	MARSHAL_ELLIPSIS = '.',
	MARSHAL_INT = 'i',
	MARSHAL_INT64 = 'I',
	MARSHAL_LONG = 'l',
	MARSHAL_FLOAT = 'f',
	MARSHAL_BINARY_FLOAT = 'g',
	MARSHAL_COMPLEX = 'x',
	MARSHAL_BINARY_COMPLEX = 'y',
	MARSHAL_STRING = 's',
	MARSHAL_INTERNED = 't',
	MARSHAL_STRINGREF = 'R',
	MARSHAL_REF = 'r',
	MARSHAL_UNICODE = 'u',
	MARSHAL_ASCII = 'a',
	MARSHAL_ASCII_INTERNED = 'A',
	MARSHAL_SHORT_ASCII = 'z',
	MARSHAL_SHORT_ASCII_INTERNED = 'Z',
	MARSHAL_TUPLE = '(',
	MARSHAL_SMALL_TUPLE = ')',
	MARSHAL_LIST = '[',
	MARSHAL_DICT = '{',
	MARSHAL_SET = '<',
	MARSHAL_FROZENSET = '>',
	MARSHAL_CODE = 'c',
};

/* The model's sample types: self time as the file holds it, then calls and primitive calls. */
#define PSTATS_TIME_TYPE "time"
#define PSTATS_CALLS_TYPE "calls"
#define PSTATS_PRIMITIVE_CALLS_TYPE "primitive_calls"

/* 10^-k as C's literal, k 0 to 27: a value with k decimals of seconds is value * this. */
double pstats_scale(unsigned k);

int pstats_read(struct input *in, struct model *m);
int pstats_write(const struct model *m, struct output *out, const struct write_options *opts);

#endif
