/*
 * The report page (-t html): one self-contained HTML file whose script
 * (render/report.js) and styles (render/report.css) are built in, as the
 * flame pictures' script is. The writer (formats/html_write.c) gathers
 * the numbers; this draws the page around them: the data go into one
 * JSON block the script reads, so the page needs no other file and no
 * network. docs/formats/html.md says what the page shows.
 */
#ifndef PROF_HTML_H
#define PROF_HTML_H

#include <stddef.h>

#include "../io/output.h"

/* The page up to its data block; `title` is text (escaped here). */
void html_page_begin(struct output *out, const char *title);
/* Closes the data block and writes the script. */
void html_page_end(struct output *out);

/*
 * A JSON string that is safe inside the page's <script> block: '<' is
 * written \u003c, so no name can close the block; bytes that are not
 * UTF-8 become U+FFFD. Returns whether any did.
 */
int html_json_string(struct output *out, const char *s, size_t len);

/* Bytes as base64, the data of a picture kept gzip-compressed in the page. */
void html_base64(struct output *out, const unsigned char *data, size_t len);

#endif
