/*
 * diag: every message prof prints goes through here, so that they all
 * read "prof: FILE:LINE: what is wrong" (lower case, no full stop), and so
 * that a fatal condition can remove a half-written output before exiting.
 */
#ifndef PROF_DIAG_H
#define PROF_DIAG_H

#include <stddef.h>
#include <stdint.h>

#include <stdarg.h>

/* Line 0 means "no line": the message reads "prof: FILE: ...". */
void diag_error(const char *file, uint64_t line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void diag_verror(const char *file, uint64_t line, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));
void diag_warn(const char *file, uint64_t line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Warnings are dropped when quiet; errors never are. */
void diag_set_quiet(int quiet);

/*
 * The warnings given so far, quiet or not, for a report that shows them
 * (-t html): *text is warning i as "FILE:LINE: what" (cut to
 * DIAG_WARNING_MAX bytes), or NULL past the first DIAG_KEPT_WARNINGS.
 * Returns how many there were in all.
 */
enum { DIAG_KEPT_WARNINGS = 20, DIAG_WARNING_MAX = 300 };
size_t diag_warnings(size_t i, const char **text);

/*
 * --check lists every problem: a reader that can go on after a bad line
 * asks diag_go_on() whether to (it says no after too many problems).
 */
void diag_set_keep_going(int keep_going);
int diag_go_on(void);
/* Is this --check, where what a conversion would only warn of is a problem? */
int diag_checking(void);

/*
 * Called before every message: a line drawn in place on stderr (progress,
 * in io/) must be erased first, and base/ cannot know about it.
 */
void diag_before_message(void (*hook)(void));

/* Called before exiting on a fatal error (out of memory, a signal). */
void diag_on_fatal(void (*cleanup)(void));
_Noreturn void diag_fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
