/*
 * The SVG writers' shared text and colour helpers (svg.h). Moved here from
 * flame.c unchanged when sprof's plots became the second SVG writer.
 */
#include "svg.h"

#include <stdarg.h>
#include <stdio.h>

/* The length of a UTF-8 sequence at s[i], or 0 when it is not one. */
static size_t utf8_at(const char *s, size_t len, size_t i)
{
	unsigned char c = (unsigned char)s[i];
	size_t n = c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3
		 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
	for (size_t k = 1; k < n; k++)
		if (i + k >= len || ((unsigned char)s[i + k] & 0xc0) != 0x80)
			return 0;
	return n;
}

void svg_text(struct output *out, const char *s, size_t len, int *replaced)
{
	static const char *const entity[128] = { ['&'] = "&amp;", ['<'] = "&lt;", ['>'] = "&gt;",
		['"'] = "&quot;", ['\t'] = "&#9;", ['\n'] = "&#10;", ['\r'] = "&#13;" };
	for (size_t i = 0; i < len;) {
		unsigned char c = (unsigned char)s[i];
		size_t n = utf8_at(s, len, i);
		if (c < 128 && entity[c]) {
			output_str(out, entity[c]);
		} else if (n == 0 || c < 0x20) {
			output_str(out, "\xef\xbf\xbd");
			*replaced |= n == 0;
		} else {
			output_write(out, s + i, n);
		}
		i += n ? n : 1;
	}
}

void svg_printf(struct output *out, const char *fmt, ...)
{
	char text[512];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	output_write(out, text, n < 0 ? 0 : (size_t)n < sizeof text ? (size_t)n : sizeof text - 1);
}

size_t svg_first_characters(const char *s, size_t len, size_t chars, size_t *count)
{
	size_t bytes = len, i = 0;
	for (*count = 0; i < len; ++*count) {
		if (*count == chars)
			bytes = i;
		size_t n = utf8_at(s, len, i);
		i += n ? n : 1;
	}
	return bytes;
}

static double distance(double a, double b)
{
	return a > b ? a - b : b - a;
}

/* The usual formula, without libm. */
void svg_hsl(double hue, double sat, double light, char *out, size_t size)
{
	double c = (1 - distance(2 * light, 1)) * sat, hp = hue / 60;
	double x = c * (1 - distance(hp - 2 * (int)(hp / 2), 1)), m = light - c / 2;
	double rgb[6][3] = { { c, x, 0 }, { x, c, 0 }, { 0, c, x }, { 0, x, c }, { x, 0, c }, { c, 0, x } };
	const double *v = rgb[(int)hp % 6];
	snprintf(out, size, "rgb(%d,%d,%d)", (int)((v[0] + m) * 255 + 0.5), (int)((v[1] + m) * 255 + 0.5),
		 (int)((v[2] + m) * 255 + 0.5));
}
