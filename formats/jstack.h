/*
 * Java thread dumps (docs/formats/jstack.md): the line grammar the probe
 * and the reader share. A dump is what jstack, jcmd Thread.print and
 * kill -3 print (thread headers `"NAME" #N ... state`, a
 * `java.lang.Thread.State:` line, `at FRAME` lines), or what JDK 21+'s
 * jcmd Thread.dump_to_file writes as text (`#N "NAME" [STATE ...]`
 * headers, then the frames indented, with or without `at`).
 */
#ifndef PROF_JSTACK_H
#define PROF_JSTACK_H

#include <stddef.h>
#include <stdint.h>

/* The `len` bytes at `s` as a span. */
struct jstack_text {
	const char *s;
	size_t len;
};

/* A thread's header: its name, and the state a dump_to_file header gives. */
struct jstack_header {
	struct jstack_text name;
	struct jstack_text state; /* empty when the line gives none */
	int dump_to_file;         /* `#N "NAME"`: frames may come without `at` */
};

/* Parses a thread header line, either form; 0 when it is none. */
int jstack_parse_header(const char *s, size_t len, struct jstack_header *h);

/* The state word after `java.lang.Thread.State: ` anywhere in the line; 0 when there is none. */
int jstack_parse_state(const char *s, size_t len, struct jstack_text *state);

/* An `at FRAME` line (blanks before it allowed): *frame is the text after `at `; 0 when it is none. */
int jstack_parse_at(const char *s, size_t len, struct jstack_text *frame);

/* Do the `len` bytes at `s` hold `needle`? */
int jstack_has(const char *s, size_t len, const char *needle);

/*
 * Where "Full thread dump " begins in a line, or SIZE_MAX. Text before it
 * is a prefix the console put on every line of the dump (sbt's "[info] "):
 * jstack_unprefix takes it off the lines that follow.
 */
size_t jstack_dump_start(const char *s, size_t len);
/*
 * A line without `prefix` (the line is left as it is without it); a line
 * that is the prefix alone, its trailing blanks aside, is empty.
 */
void jstack_unprefix(const char *prefix, size_t prefix_len, const char **s, size_t *len);

#endif
