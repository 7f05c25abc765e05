#include "lines.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../base/diag.h"

enum { EXCERPT_BYTES = 64 };

void lines_begin(struct lines *t, struct input *in)
{
	memset(t, 0, sizeof *t);
	t->in = in;
	t->check_nul = 1;
}

uint64_t lines_number(const struct lines *t)
{
	return t->in->line;
}

/* A short, printable excerpt of a line for messages. */
static const char *excerpt(const char *s, size_t len, char buf[EXCERPT_BYTES])
{
	size_t o = 0;
	for (size_t i = 0; i < len && o < EXCERPT_BYTES - 8; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c >= 0x20 && c < 0x7f && c != '\\')
			buf[o++] = (char)c;
		else
			o += (size_t)snprintf(buf + o, EXCERPT_BYTES - o, "\\x%02x", c);
	}
	if (o >= EXCERPT_BYTES - 8 && len > 0)
		o += (size_t)snprintf(buf + o, EXCERPT_BYTES - o, "...");
	buf[o] = '\0';
	return buf;
}

int lines_error(struct lines *t, uint64_t line, const char *what, const char *s, size_t len)
{
	char buf[EXCERPT_BYTES];
	return lines_errorf(t, line, "%s '%s'", what, excerpt(s, len, buf));
}

int lines_errorf(struct lines *t, uint64_t line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_verror(t->in->name, line ? line : t->in->line, fmt, ap);
	va_end(ap);
	t->failed = 1;
	return -1;
}

int lines_fail(struct lines *t, const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return lines_errorf(t, 0, "%s", msg);
}

int lines_go_on(struct lines *t)
{
	return !t->broken && diag_go_on();
}

int lines_skip(struct lines *t, const char *what, const char *s, size_t len)
{
	char buf[EXCERPT_BYTES];
	if (diag_checking())
		return lines_errorf(t, 0, "%s '%s'", what, excerpt(s, len, buf));
	if (++t->skipped <= LINES_SKIPS_NAMED)
		diag_warn(t->in->name, t->in->line, "%s '%s'; skipped", what, excerpt(s, len, buf));
	return 0;
}

void lines_skips_counted(const struct lines *t)
{
	if (t->skipped > LINES_SKIPS_NAMED)
		diag_warn(t->in->name, 0, "%llu lines skipped in all, the first %d named above",
			  (unsigned long long)t->skipped, LINES_SKIPS_NAMED);
}

int lines_refuse_utf16(struct input *in)
{
	const unsigned char *p;
	long n = input_peek(in, 2, &p);
	if (n < 0)
		return -1;
	if (n == 2 && ((p[0] == 0xff && p[1] == 0xfe) || (p[0] == 0xfe && p[1] == 0xff))) {
		diag_error(in->name, 0, "UTF-16 text; convert it to UTF-8 first "
					"(iconv -f UTF-16 -t UTF-8)");
		return -1;
	}
	return 0;
}

/* Before the first line: a byte-order mark says which encoding the text is in. */
static int read_bom(struct lines *t)
{
	const unsigned char *p;
	if (lines_refuse_utf16(t->in) < 0)
		return -1;
	long n = input_peek(t->in, 3, &p);
	if (n < 0)
		return -1;
	t->bom = n == 3 && p[0] == 0xef && p[1] == 0xbb && p[2] == 0xbf;
	if (t->bom)
		input_skip(t->in, 3);
	return 0;
}

int lines_next(struct lines *t, const char **s, size_t *len)
{
	if (!t->started) {
		t->started = 1;
		if (read_bom(t) < 0) {
			t->broken = t->failed = 1;
			return -1;
		}
	}
	int rc = input_get_line(t->in, s, len);
	if (rc <= 0) {
		t->broken |= rc < 0;
		t->failed |= rc < 0;
		return rc;
	}
	t->final_newline = t->in->last_newline;
	if (t->in->line == 1)
		t->crlf = *len > 0 && (*s)[*len - 1] == '\r';
	if (t->crlf && *len > 0 && (*s)[*len - 1] == '\r')
		(*len)--;
	if (t->check_nul && memchr(*s, '\0', *len))
		return lines_error(t, 0, "NUL byte in line", *s, *len);
	return 1;
}

void lines_unget(struct lines *t)
{
	input_unget_line(t->in);
}
