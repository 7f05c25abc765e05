/*
 * lines: the one way every text reader walks its input, line by line. It
 * owns what all text formats share, so that each reader has only its own
 * grammar to say:
 *  - line endings: the first line's decides (LF, or CR LF as Windows
 *    writes); in a CR LF input each line's CR is taken off, in an LF
 *    input a CR is data. Whether the last line had an ending is recorded
 *    too, so that a writer can give the bytes back;
 *  - a UTF-8 byte-order mark before the first line is skipped (and
 *    recorded); UTF-16 text is refused with a message that says so;
 *  - a NUL byte in a line is refused, since no text format holds one;
 *  - --check's keep-going rule: after a bad line, lines_go_on() says
 *    whether to read on, and the input counts as failed;
 *  - lines a format lets readers skip (folded stacks' malformed lines, as
 *    flamegraph.pl skips them): a warning naming each, the first few, then
 *    a count; under --check each is a problem;
 *  - messages "prof: FILE:LINE: what 'excerpt'", the excerpt short and
 *    printable whatever the bytes.
 */
#ifndef PROF_LINES_H
#define PROF_LINES_H

#include <stddef.h>
#include <stdint.h>

#include "input.h"

struct lines {
	struct input *in;
	int check_nul;     /* refuse NUL bytes (on unless a reader must say something else first) */
	/* What the input's bytes were like, for writers that give them back. */
	int crlf;          /* lines end in CR LF */
	int final_newline; /* the last line read had a line ending */
	int bom;           /* a UTF-8 byte-order mark came first */
	/* What happened. */
	int started;       /* the first line was asked for */
	int failed;        /* a bad line was reported */
	int broken;        /* the input itself failed: nothing more can be read */
	uint64_t skipped;  /* lines skipped with lines_skip */
};

void lines_begin(struct lines *t, struct input *in);

/*
 * The next line, without its ending: 1 with *s and *len set, 0 at the end,
 * -1 after reporting a bad line (consumed: lines_go_on says whether to go
 * on) or a failed input.
 */
int lines_next(struct lines *t, const char **s, size_t *len);
/* Gives back the line just returned; valid once, before the next. */
void lines_unget(struct lines *t);
/* The number of the line just returned, from 1. */
uint64_t lines_number(const struct lines *t);

/* Reports "what 'excerpt of s'" at `line` (0: the current one); returns -1. */
int lines_error(struct lines *t, uint64_t line, const char *what, const char *s, size_t len);
/* Reports a formatted message at `line` (0: the current one); returns -1. */
int lines_errorf(struct lines *t, uint64_t line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/*
 * Reports a formatted message at the current line, cut to 255 bytes (a
 * reader's refusal that quotes part of a line says no more); returns -1.
 */
int lines_fail(struct lines *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* After a bad line: 1 to read on (--check lists every problem), 0 to stop. */
int lines_go_on(struct lines *t);

/*
 * Skips the current line, which the format lets a reader do without: a
 * warning "what 'excerpt'; skipped", for the first LINES_SKIPS_NAMED of
 * them. Under --check it is a problem instead: reported as an error, -1
 * (lines_go_on says whether to read on); else 0.
 */
enum { LINES_SKIPS_NAMED = 10 };
int lines_skip(struct lines *t, const char *what, const char *s, size_t len);
/* After the last line: a warning with how many were skipped, when not all were named. */
void lines_skips_counted(const struct lines *t);

/*
 * Before anything is read: when the input starts with a UTF-16 byte-order
 * mark, reports that prof reads UTF-8 only and returns -1; else 0. Sniffing
 * asks too, so that UTF-16 is named whatever the format.
 */
int lines_refuse_utf16(struct input *in);

#endif
