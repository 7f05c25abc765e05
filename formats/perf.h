/*
 * perf script text (docs/formats/perf.md): the grammar the probe and the
 * reader share. A sample is a header line, then its frames, leaf first,
 * each a line that starts with a tab; a blank line ends it (a recording
 * without call graphs has its one frame on the header line instead).
 */
#ifndef PROF_PERF_H
#define PROF_PERF_H

#include <stddef.h>
#include <stdint.h>

/* A span of a line. */
struct perf_text {
	const char *s;
	size_t len;
};

struct perf_header {
	struct perf_text comm;   /* the command, as printed (may hold blanks) */
	int64_t pid, tid;        /* pid -1 when only the tid is printed */
	int64_t cpu;             /* -1 when not printed */
	struct perf_text time;   /* "SECONDS.MICROS" */
	int has_period;
	int64_t period;
	struct perf_text event;  /* "cpu-clock:ppp", without the ':' that ends it */
	struct perf_text rest;   /* after the event: a tracepoint's payload or a lone frame */
};

/* Parses a header line, anchored at "TID [CPU] SECONDS.FRACTION:"; 0 when it is none. */
int perf_parse_header(const char *s, size_t len, struct perf_header *h);

struct perf_frame {
	uint64_t address;
	struct perf_text symbol; /* as printed, with its +0xOFFSET */
	struct perf_text dso;    /* inside the last parentheses */
};

/* Parses "ADDRESS SYMBOL (DSO)" (leading blanks allowed); 0 when it is none. */
int perf_parse_frame(const char *s, size_t len, struct perf_frame *f);

/* Does a line hold control bytes no perf script text has (binary, such as a perf.data)? */
int perf_is_binary(const char *s, size_t len);

#endif
