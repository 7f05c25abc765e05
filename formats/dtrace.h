/*
 * DTrace, SystemTap and bpftrace stack aggregations
 * (docs/formats/dtrace.md): the line grammar the probe and the reader
 * share, as FlameGraph's collapsers read it. A stack is its frames, leaf
 * first, one a line, then its count alone on a line (stackcollapse.pl,
 * stackcollapse-stap.pl); bpftrace prints a map's key between "@[" and
 * "]: COUNT" (stackcollapse-bpftrace.pl). Blanks are Perl's \s: space,
 * tab, CR, LF, FF, VT.
 */
#ifndef PROF_DTRACE_H
#define PROF_DTRACE_H

#include <stddef.h>

struct dtrace_text {
	const char *s;
	size_t len;
};

/* Is c one of Perl's \s? */
int dtrace_is_blank(char c);
/* Nothing but blanks. */
int dtrace_is_blank_line(const char *s, size_t len);
/* A count line, blanks then digits ("  1641"): 1 with its digits, else 0. */
int dtrace_count_line(const char *s, size_t len, struct dtrace_text *digits);
/*
 * DTrace's own header lines, before the aggregation: "CPU     ID
 * FUNCTION:NAME", and a probe's "  0  64091      :tick-60s".
 */
int dtrace_is_header(const char *s, size_t len);
/* A SystemTap frame: "0xffffffff8103ce3b : native_safe_halt+0xb/0x10 [kernel]" (blanks before). */
int dtrace_is_stap_frame(const char *s, size_t len);
/* A bpftrace map's key begins: "@[" at the line's start. */
int dtrace_is_key_start(const char *s, size_t len);
/* A named map's key, "@name[": stackcollapse-bpftrace.pl leaves those out. */
int dtrace_is_named_key(const char *s, size_t len);
/*
 * The end of a key, ",? ?PART]: COUNT" (PART the key's last part, maybe
 * empty; the last "]: " followed by digits ends it): 1 with both, else 0.
 */
int dtrace_key_end(const char *s, size_t len, struct dtrace_text *part, struct dtrace_text *digits);

#endif
