#include "utf8.h"

size_t utf8_char(const unsigned char *s, size_t len)
{
	if (len == 0)
		return 0;
	unsigned char c = s[0];
	size_t n = c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3
		 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
	if (n == 0 || n > len)
		return 0;
	for (size_t k = 1; k < n; k++)
		if ((s[k] & 0xc0) != 0x80)
			return 0;
	/* The second byte's range rules out overlongs, surrogates and > U+10FFFF. */
	if ((c == 0xe0 && s[1] < 0xa0) || (c == 0xed && s[1] > 0x9f) ||
	    (c == 0xf0 && s[1] < 0x90) || (c == 0xf4 && s[1] > 0x8f))
		return 0;
	return n;
}

int utf8_valid(const unsigned char *s, size_t len)
{
	for (size_t i = 0; i < len;) {
		size_t n = s[i] < 0x80 ? 1 : utf8_char(s + i, len - i);
		if (n == 0)
			return 0;
		i += n;
	}
	return 1;
}

size_t utf8_encode(uint32_t code, unsigned char *out)
{
	if (code < 0x80) {
		out[0] = (unsigned char)code;
		return 1;
	}
	if (code < 0x800) {
		out[0] = (unsigned char)(0xc0 | code >> 6);
		out[1] = (unsigned char)(0x80 | (code & 0x3f));
		return 2;
	}
	if (code < 0x10000) {
		out[0] = (unsigned char)(0xe0 | code >> 12);
		out[1] = (unsigned char)(0x80 | (code >> 6 & 0x3f));
		out[2] = (unsigned char)(0x80 | (code & 0x3f));
		return 3;
	}
	out[0] = (unsigned char)(0xf0 | code >> 18);
	out[1] = (unsigned char)(0x80 | (code >> 12 & 0x3f));
	out[2] = (unsigned char)(0x80 | (code >> 6 & 0x3f));
	out[3] = (unsigned char)(0x80 | (code & 0x3f));
	return 4;
}
