/*
 * ascii: the byte tests the text readers share. ASCII only, whatever the
 * locale (ctype's isdigit may take other digits, and wants an unsigned
 * char): profile files are parsed the same everywhere.
 */
#ifndef PROF_ASCII_H
#define PROF_ASCII_H

#include <stddef.h>
#include <string.h>

static inline int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static inline int is_hex(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static inline char ascii_lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* Do the `len` bytes at `s` start with the string `prefix`? */
static inline int starts_with(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);
	return len >= n && memcmp(s, prefix, n) == 0;
}

#endif
