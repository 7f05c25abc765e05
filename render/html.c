/*
 * The report page's frame (html.h): the head with our styles, the data
 * block, our script. Both are kept as report.css and report.js and built
 * into C strings by the Makefile, as flame.js is.
 */
#include <stdio.h>

#include "../base/utf8.h"
#include "html.h"

static const char report_css[] =
#include "report_css.h"
	;

static const char report_script[] =
#include "report_js.h"
	;

static void html_text(struct output *out, const char *s)
{
	for (; *s; s++)
		switch (*s) {
		case '<': output_str(out, "&lt;"); break;
		case '>': output_str(out, "&gt;"); break;
		case '&': output_str(out, "&amp;"); break;
		default: output_byte(out, *s);
		}
}

void html_page_begin(struct output *out, const char *title)
{
	output_str(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
			"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>");
	html_text(out, title);
	output_str(out, "</title>\n<style>\n");
	output_str(out, report_css);
	output_str(out, "</style>\n</head>\n<body>\n<noscript>This report needs JavaScript.</noscript>\n"
			"<script type=\"application/json\" id=\"data\">\n");
}

void html_page_end(struct output *out)
{
	output_str(out, "\n</script>\n<script>\n");
	output_str(out, report_script);
	output_str(out, "</script>\n</body>\n</html>\n");
}

int html_json_string(struct output *out, const char *s, size_t len)
{
	int replaced = 0;
	output_byte(out, '"');
	for (size_t i = 0; i < len;) {
		unsigned char c = (unsigned char)s[i];
		size_t n = c < 0x80 ? 1 : utf8_char((const unsigned char *)s + i, len - i);
		if (c == '"' || c == '\\') {
			output_byte(out, '\\');
			output_byte(out, (char)c);
		} else if (c < 0x20 || c == '<') {
			char esc[8];
			snprintf(esc, sizeof esc, "\\u%04x", c);
			output_str(out, esc);
		} else if (n) {
			output_write(out, s + i, n);
		} else {
			output_str(out, UTF8_REPLACEMENT);
			replaced = 1;
		}
		i += n ? n : 1;
	}
	output_byte(out, '"');
	return replaced;
}

void html_base64(struct output *out, const unsigned char *data, size_t len)
{
	static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	for (size_t i = 0; i < len; i += 3) {
		uint32_t word = (uint32_t)data[i] << 16;
		if (i + 1 < len)
			word |= (uint32_t)data[i + 1] << 8;
		if (i + 2 < len)
			word |= data[i + 2];
		output_byte(out, digits[word >> 18 & 63]);
		output_byte(out, digits[word >> 12 & 63]);
		output_byte(out, i + 1 < len ? digits[word >> 6 & 63] : '=');
		output_byte(out, i + 2 < len ? digits[word & 63] : '=');
	}
}
