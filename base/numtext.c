#include "numtext.h"

#include <string.h>

int64_t pow10_i64(unsigned n)
{
	int64_t p = 1;
	while (n-- > 0)
		p *= 10;
	return p;
}

size_t decimal_text(char buf[DECIMAL_TEXT_MAX], int64_t v, unsigned decimals, int trim)
{
	char digits[U64_TEXT_MAX];
	/* The magnitude as unsigned: -INT64_MIN does not fit an int64. */
	uint64_t magnitude = v < 0 ? -(uint64_t)v : (uint64_t)v;
	const char *d = u64_text(digits, magnitude);
	size_t n = (size_t)(digits + U64_TEXT_MAX - d), len = 0;
	if (v < 0)
		buf[len++] = '-';
	/* At least one digit before the point: 5 with 2 decimals is 0.05. */
	size_t whole = n > decimals ? n - decimals : 0;
	if (whole) {
		memcpy(buf + len, d, whole);
		len += whole;
	} else {
		buf[len++] = '0';
	}
	if (decimals) {
		size_t point = len;
		buf[len++] = '.';
		for (size_t i = n; i < decimals; i++)
			buf[len++] = '0';
		memcpy(buf + len, d + whole, n - whole);
		len += n - whole;
		while (trim && buf[len - 1] == '0')
			len--;
		if (trim && len == point + 1)
			len = point;
	}
	buf[len] = '\0';
	return len;
}
