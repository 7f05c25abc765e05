/*
 * json: a pull tokenizer for JSON (RFC 8259) read from an input, shared by
 * the readers of JSON formats (V8 .cpuprofile, speedscope). It streams:
 * memory is its 64 KiB read buffer, the current string or number (at most
 * JSON_TEXT_MAX bytes) and a nesting stack of one bit per open level, so a
 * file of any size with arrays of any length costs the same, and nesting
 * is bounded only by memory (--max-memory), never by the C stack. It checks the
 * whole grammar (commas, colons, nesting, nothing after the value), so a
 * reader sees only well-formed tokens, and reports errors as
 * "prof: FILE:LINE: what (byte N)". The writers' one need, a string
 * escaped, is here too.
 */
#ifndef PROF_JSON_H
#define PROF_JSON_H

#include <stddef.h>
#include <stdint.h>

#include "input.h"
#include "output.h"

/* The longest string or number kept: a function name or a URL, not a file. */
enum { JSON_TEXT_MAX = 1 << 20 };
enum { JSON_BUFFER = 1 << 16 };

enum json_token {
	JSON_FAILED = -1, /* reported */
	JSON_END = 0,     /* after the top-level value */
	JSON_OBJECT,
	JSON_OBJECT_END,
	JSON_ARRAY,
	JSON_ARRAY_END,
	JSON_KEY,         /* an object's key: text holds it */
	JSON_STRING,      /* text holds it, escapes undone, as UTF-8 */
	JSON_NUMBER,      /* text holds it as written */
	JSON_TRUE,
	JSON_FALSE,
	JSON_NULL,
};

struct json {
	struct input *in;
	unsigned char *buf;
	size_t at, end;
	uint64_t consumed;     /* bytes before buf[0] */
	uint64_t line;         /* of the byte at `at`, from 1 */
	uint64_t token_offset; /* where the last token began */
	uint64_t token_line;
	char *text;            /* the last key, string or number, NUL-terminated */
	size_t len, cap;
	/* Which open containers are objects, a bit per level, outermost first. */
	unsigned char *nest;
	size_t depth, cap_nest;
	int expect; /* one of the states in json.c */
	int failed;
};

void json_begin(struct json *j, struct input *in);
void json_end(struct json *j);

/* The next token; JSON_FAILED after reporting. */
enum json_token json_next(struct json *j);

/* Reports a problem at the last token; returns -1. */
int json_error(struct json *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * Inside an array: the next element when it is a whole number written
 * plainly ("12", "-3"), parsed where it lies, without a token: 1 and *v;
 * 0 when the array ends (its end taken); 2 when the next element is
 * anything else (nothing taken: ask json_next); -1 after reporting.
 * Profiles are mostly such arrays (V8's samples and timeDeltas).
 */
int json_next_int(struct json *j, int64_t *v);

/*
 * Inside an array: the next element when it is a number, read where it
 * lies. As json_next_int (1 and *v, 0, 2, -1), but any other number (a
 * fraction, an exponent, past 18 digits, or digits across the buffer's
 * end) is taken too: 3, its text in `text` as after JSON_NUMBER. Arrays
 * of times are such numbers (Firefox's samples).
 */
int json_next_number(struct json *j, int64_t *v);

/*
 * The next value, an object member's or an array element, when it is a
 * whole number written plainly (at most 18 digits) right after the ':' or
 * ',' before it: 1 and *v, taken as a JSON_NUMBER would be (`text` not
 * set). 0 when it is anything else, or white space comes first: nothing
 * taken, for json_next. -1 after an earlier failure. Traces' pids and
 * times are such numbers.
 */
int json_next_whole(struct json *j, int64_t *v);

/*
 * Inside an array, before its next element: 1 when nothing but white
 * space (after a ',' where one may come) is left of the input, as in a
 * trace Chrome was still writing; 0 when more comes (only that white
 * space and comma taken); -1 after a read error.
 */
int json_input_ends(struct json *j);

/* Skips the rest of the value that `first` (just returned) began: 0, or -1. */
int json_skip(struct json *j, enum json_token first);

/*
 * The number token just read as a whole number ("12", "-3"; "12.0" and
 * "1e3" are refused, as are values past int64): 0, or -1 after reporting
 * that `what` must be a whole number.
 */
int json_int(struct json *j, const char *what, int64_t *v);

/*
 * The number token just read as an integer in units of 10^-decimals: when
 * it has more decimals than *decimals (up to DECIMALS_MAX), *decimals is
 * raised and the caller must scale what it holds. 0, or -1 after
 * reporting.
 */
int json_decimal(struct json *j, const char *what, int64_t *v, unsigned *decimals);

/* Probes' evidence: does a prefix of input start (after white space) with '{'? */
int json_prefix_is_object(const unsigned char *prefix, size_t len);
/* Does the prefix hold `needle` (a key in quotes, say) anywhere? */
int json_prefix_has(const unsigned char *prefix, size_t len, const char *needle);

/* The next token must be `want`, named `what` in the message: 0, or -1. */
int json_expect(struct json *j, enum json_token want, const char *what);

/*
 * A tree of node objects, each holding its children in an array under
 * "children" (V8's old .cpuprofile head, .heapprofile, GHC's -pj), read
 * with a stack of the nodes open, not by recursion: a file thousands deep
 * must not reach the C stack's end. The root's '{' has just been read.
 * `open` is told of each node as its '{' is read, `field` of each of its
 * keys but "children" (the key in j->text; it reads the value), `close`
 * of its '}', each with the node's depth (0: the root). 0, or -1 after
 * reporting.
 */
struct json_tree_calls {
	void (*open)(void *ctx, size_t depth);
	int (*field)(void *ctx, size_t depth);
	int (*close)(void *ctx, size_t depth);
};
int json_tree(struct json *j, const struct json_tree_calls *calls, void *ctx);

/*
 * For the JSON writers: `len` bytes as a JSON string, quoted and escaped.
 * JSON holds Unicode only, so bytes that are not UTF-8 become U+FFFD each:
 * returns 1 when some did (the writer warns once), else 0.
 */
int json_write_string(struct output *out, const char *s, size_t len);

#endif
