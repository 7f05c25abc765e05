/*
 * Instruments' "deep copy" of a call tree (docs/formats/instruments.md):
 * registration and probe; instruments_read.c reads it. The text is what
 * Edit > Deep Copy puts on the clipboard: a tab-separated header naming
 * the columns, then a row per call-tree node.
 */
#include <string.h>

#include "../base/ascii.h"
#include "format.h"

int instruments_read(struct input *in, struct model *m);

/* What speedscope's importer allows before "\tSymbol Name" on the header line: \w, space, tab, parentheses. */
static int is_header_char(char c)
{
	return is_digit(c) || (ascii_lower(c) >= 'a' && ascii_lower(c) <= 'z') || c == '_' || c == ' ' ||
	       c == '\t' || c == '(' || c == ')';
}

/*
 * The header is the signature, matched as speedscope matches it (a first
 * line of words, spaces, tabs and parentheses, then "\tSymbol Name", which
 * Instruments 16's "Symbol Names" begins with too).
 */
static enum probe_score instruments_probe(const unsigned char *prefix, size_t len)
{
	static const char sign[] = "\tSymbol Name";
	const char *s = (const char *)prefix;
	if (len >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0)
		s += 3, len -= 3;
	for (size_t i = 0;; i++) {
		if (len - i >= sizeof sign - 1 && memcmp(s + i, sign, sizeof sign - 1) == 0)
			return PROBE_NEAR_CERTAIN;
		if (i == len || !is_header_char(s[i]))
			return PROBE_NO;
	}
}

static const char *const instruments_extensions[] = { ".instruments.txt", NULL };

const struct format format_instruments = {
	.name = "instruments",
	.description = "Instruments' deep copy of a call tree (time, cycles or allocations), "
		       "as speedscope imports it: read only",
	.extensions = instruments_extensions,
	.binary = 0,
	.probe = instruments_probe,
	.read = instruments_read,
	.write = NULL,
};
