#include "diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>


enum { MAX_PROBLEMS = 100 };

static int quiet, keep_going;
static unsigned long errors;
static void (*fatal_cleanup)(void);
static void (*before_message)(void);

static void vreport(const char *file, uint64_t line, const char *kind,
		    const char *fmt, va_list ap)
{
	if (before_message)
		before_message();
	fputs("prof: ", stderr);
	if (file) {
		fputs(file, stderr);
		if (line)
			fprintf(stderr, ":%llu", (unsigned long long)line);
		fputs(": ", stderr);
	}
	fputs(kind, stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void diag_verror(const char *file, uint64_t line, const char *fmt, va_list ap)
{
	errors++;
	vreport(file, line, "", fmt, ap);
}

void diag_error(const char *file, uint64_t line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_verror(file, line, fmt, ap);
	va_end(ap);
}

/* The first warnings, kept for a report of the profile (diag_warnings). */
static char kept_warnings[DIAG_KEPT_WARNINGS][DIAG_WARNING_MAX];
static size_t n_warnings;

static void keep_warning(const char *file, uint64_t line, const char *fmt, va_list ap)
{
	if (n_warnings < DIAG_KEPT_WARNINGS) {
		char *text = kept_warnings[n_warnings];
		int n = 0;
		if (file)
			n = line ? snprintf(text, DIAG_WARNING_MAX, "%s:%llu: ", file, (unsigned long long)line)
				 : snprintf(text, DIAG_WARNING_MAX, "%s: ", file);
		if (n >= 0 && n < DIAG_WARNING_MAX)
			vsnprintf(text + n, DIAG_WARNING_MAX - (size_t)n, fmt, ap);
	}
	n_warnings++;
}

void diag_warn(const char *file, uint64_t line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	keep_warning(file, line, fmt, ap);
	va_end(ap);
	if (quiet)
		return;
	va_start(ap, fmt);
	vreport(file, line, "warning: ", fmt, ap);
	va_end(ap);
}

size_t diag_warnings(size_t i, const char **text)
{
	*text = i < n_warnings && i < DIAG_KEPT_WARNINGS ? kept_warnings[i] : NULL;
	return n_warnings;
}

void diag_set_quiet(int q)
{
	quiet = q;
}

void diag_set_keep_going(int k)
{
	keep_going = k;
}

int diag_go_on(void)
{
	if (keep_going && errors == MAX_PROBLEMS)
		fprintf(stderr, "prof: %d problems; stopping there\n", MAX_PROBLEMS);
	return keep_going && errors < MAX_PROBLEMS;
}

int diag_checking(void)
{
	return keep_going;
}

void diag_before_message(void (*hook)(void))
{
	before_message = hook;
}

void diag_on_fatal(void (*cleanup)(void))
{
	fatal_cleanup = cleanup;
}

_Noreturn void diag_fatal(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport(NULL, 0, "", fmt, ap);
	va_end(ap);
	if (fatal_cleanup)
		fatal_cleanup();
	exit(1);
}
