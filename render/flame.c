/*
 * What the flame graph and the flame chart share (flame.h): frame keys and
 * their names, the colour of a name, and the SVG page in flamegraph.pl's
 * layout, with our script (flame.js, built into flame_js.h). Why each rule
 * is as it is: docs/formats/flamegraph.md.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/diag.h"
#include "../base/alloc.h"
#include "../base/numtext.h"
#include "../model/aggregate.h"
#include "../model/diff.h"
#include "flame.h"
#include "svg.h"
#include "units.h"

enum flame_box { BOX_FRAME, BOX_ROOT, BOX_ELIDED };

/*
 * flamegraph.pl's constants: the boxes line up with its pictures. The page
 * carries those the script lays boxes out by (page_layout), so they are
 * written here only.
 */
enum { PAD = 10, FRAME_HEIGHT = 16, FONT_SIZE = 12, LABEL_X = 3, TITLE_BAND = 36, SUBTITLE_BAND = 24,
       BOTTOM_BAND = 34 };
#define CHAR_EM 0.59 /* a character's width in em: flamegraph.pl's guess for Verdana */
#define CHAR_WIDTH (FONT_SIZE * CHAR_EM)

static const char flame_script[] =
#include "flame_js.h"
	;

static int key_equals(const void *ctx, uint32_t id, const void *key)
{
	const struct flame_key *a = &((const struct flame_keys *)ctx)->keys[id], *b = key;
	const struct model_frame_id *x = &a->frame, *y = &b->frame;
	return a->box == b->box && x->kind == y->kind && x->name == y->name && x->file == y->file &&
	       x->line == y->line && x->address == y->address;
}

static uint32_t intern(struct flame_keys *k, const struct flame_key *key)
{
	const struct model_frame_id *f = &key->frame;
	uint64_t h = hash_mix(hash_mix(key->box, f->kind), hash_mix(f->name, f->file));
	h = hash_mix(hash_mix(h, (uint64_t)f->line), f->address);
	struct flame_key unwritten = *key;
	unwritten.text = SIZE_MAX;
	return hashidx_intern(&k->index, h, key_equals, k, &unwritten, (void **)&k->keys, &k->n,
			      &k->cap, sizeof *k->keys);
}

void flame_keys_init(struct flame_keys *k, const struct model *m, int by_line)
{
	memset(k, 0, sizeof *k);
	k->m = m;
	k->by_line = by_line;
	k->of_function = xmalloc((m->n_functions + 1) * sizeof *k->of_function);
	for (size_t i = 0; i < m->n_functions; i++)
		k->of_function[i] = MODEL_NONE;
	intern(k, &(struct flame_key){ .box = BOX_ROOT });
	intern(k, &(struct flame_key){ .box = BOX_ELIDED, .frame.grey = 1 });
}

void flame_keys_free(struct flame_keys *k)
{
	free(k->keys);
	hashidx_free(&k->index);
	free(k->of_function);
	free(k->bytes);
}

uint32_t flame_key(struct flame_keys *k, const struct model_frame *fr)
{
	int by_function = fr->function != MODEL_NONE && !(k->by_line && fr->line > 0);
	uint32_t *cached = by_function ? &k->of_function[fr->function] : NULL;
	if (cached && *cached != MODEL_NONE)
		return *cached;
	struct flame_key key = { .box = BOX_FRAME };
	model_frame_id(k->m, fr, k->by_line, &key.frame);
	/* A name R cut short is shown as R shows it; grey while no whole function has it. */
	uint32_t id = intern(k, &key);
	k->keys[id].frame.grey &= key.frame.grey;
	if (cached)
		*cached = id;
	return id;
}

static void add_text(struct flame_keys *k, const char *s, size_t len)
{
	if (len == 0)
		return;
	grow((void **)&k->bytes, &k->cap_bytes, k->n_bytes + len, 1);
	memcpy(k->bytes + k->n_bytes, s, len);
	k->n_bytes += len;
}

/* The frame's name as the model gives it; with a line, " FILE:LINE" (or " line LINE") after it. */
static void make_text(struct flame_keys *k, struct flame_key *key)
{
	char made[64];
	key->text = k->n_bytes;
	if (key->box != BOX_FRAME) {
		add_text(k, key->box == BOX_ROOT ? "all" : "...", 3);
	} else {
		struct model_name name;
		model_frame_id_name(k->m, &key->frame, &name);
		add_text(k, name.bytes, name.len);
	}
	if (key->frame.line > 0) {
		const struct strtab_entry *file = strtab_get(&k->m->strings, key->frame.file);
		add_text(k, " ", 1);
		add_text(k, file->bytes, file->len);
		add_text(k, made, (size_t)snprintf(made, sizeof made, file->len ? ":%" PRId64 : "line %" PRId64,
						   key->frame.line));
	}
	key->text_len = k->n_bytes - key->text;
}

const char *flame_key_text(struct flame_keys *k, uint32_t id, size_t *len)
{
	if (k->keys[id].text == SIZE_MAX)
		make_text(k, &k->keys[id]);
	*len = k->keys[id].text_len;
	return k->bytes + k->keys[id].text;
}

size_t flame_stack_keys(struct flame_keys *k, uint32_t stack, int reverse, uint32_t **keys,
			size_t *cap, struct model_frame **frames, size_t *cap_frames)
{
	size_t n = model_stack_frames(k->m, stack, frames, cap_frames);
	grow((void **)keys, cap, n + 1, sizeof **keys);
	for (size_t i = 0; i < n; i++)
		(*keys)[i] = flame_key(k, &(*frames)[reverse ? i : n - 1 - i]);
	return n;
}

int flame_total(const struct model *m, struct output *out, const struct flame_options *opts,
		int prefer_time, struct flame_values *fv)
{
	/* An empty profile is the input's doing, not the output's. */
	const char *input = opts->input ? opts->input : out->name;
	struct view v;
	view_init(&v, m);
	if (m->n_rows == 0) {
		diag_error(input, 0, "no samples: nothing to draw");
		return -1;
	}
	/* A timeline of R's ticks is drawn in time: appended runs with other intervals to scale. */
	if (view_pick(&v, opts->sample_type, prefer_time ? VIEW_TIMELINE : VIEW_WEIGHT, out->name,
		      &fv->type) < 0)
		return -1;
	fv->time_ordered = v.ticks;
	fv->type_name = view_type(&v, fv->type);
	fv->unit = view_unit(&v, fv->type);
	fv->decimals = view_decimals(&v, fv->type);
	if (strcmp(fv->unit, "count") == 0)
		fv->unit = "samples";
	int64_t *values = xmalloc((v.n_types + 1) * sizeof *values);
	int rc = 0;
	fv->total = 0;
	struct row_cursor rows;
	rows_begin(m, &rows);
	fv->diff_key = v.diff_key;
	for (const struct model_row *row; rc == 0 && (row = rows_next(&rows));) {
		view_values(&v, row, values);
		if (model_is_base_sample(m, v.diff_key, row->labels))
			continue;
		if (values[fv->type] < 0)
			rc = view_refuse_negative(m, row->index, fv->type, values[fv->type],
						  "a flame graph", out->name);
		fv->total += values[fv->type];
	}
	rows_end(&rows);
	free(values);
	if (rc == 0 && fv->total == 0) {
		diag_error(input, 0, "no %s in any sample: nothing to draw", fv->type_name);
		rc = -1;
	}
	fv->percent_of = rc == 0 ? percent_total(&v, fv->type) : fv->total;
	if (fv->percent_of == 0)
		fv->percent_of = fv->total;
	return rc;
}

/* FNV-1a: a name's colour must not change between runs or machines. */
static uint32_t name_hash(const char *s, size_t len)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

/* A fraction in [0, 1) from 8 bits of the hash, so that hue, saturation and lightness vary apart. */
static double fraction(uint32_t h, int byte)
{
	return (double)((h >> (8 * byte)) & 0xff) / 256.0;
}

static int ends_with(const char *s, size_t len, const char *tail)
{
	size_t n = strlen(tail);
	return len >= n && memcmp(s + len - n, tail, n) == 0;
}

/*
 * The package a name tells: before the first "::" (R's pkg::fun and
 * pkg:::fun, C++'s ns::f; from the last space, as in "T* ns::f"), else Go's
 * path/pkg.Func (up to the first '.' after the last '/'). 0 when none.
 */
static size_t package_of(const char *s, size_t len, size_t *from)
{
	*from = 0;
	for (size_t i = 1; i + 1 < len; i++)
		if (s[i] == ':' && s[i + 1] == ':') {
			for (size_t k = 0; k < i; k++)
				if (s[k] == ' ')
					*from = k + 1;
			return i - *from;
		}
	size_t slash = 0;
	for (size_t i = 0; i < len && s[i] != '(' && s[i] != ' '; i++)
		if (s[i] == '/')
			slash = i + 1;
	const char *dot = memchr(s + slash, '.', len - slash);
	return dot && dot > s ? (size_t)(dot - s) : 0;
}

/*
 * A box's fill, a function of its name alone (docs/formats/flamegraph.md):
 * grey for nameless and cut-short frames, fixed hues for R's <GC> and
 * kernel frames, a hue per package, else flamegraph.pl's "hot" reds.
 */
static void colour_of(const struct flame_key *key, const char *name, size_t len, char *out, size_t size)
{
	uint32_t h = name_hash(name, len);
	size_t from, pkg = package_of(name, len, &from);
	if (key->box == BOX_ELIDED)
		snprintf(out, size, "rgb(215,215,215)");
	else if (key->frame.grey || (len == 9 && (memcmp(name, "[unknown]", 9) == 0 || memcmp(name, MODEL_UNKNOWN_NAME, 9) == 0)))
		snprintf(out, size, "rgb(190,190,190)");
	else if (len == 4 && memcmp(name, "<GC>", 4) == 0)
		svg_hsl(300, 0.35, 0.72, out, size);
	else if (ends_with(name, len, "_[k]"))
		svg_hsl(25, 0.55, 0.52 + 0.1 * fraction(h, 0), out, size);
	else if (pkg)
		svg_hsl(90 + 180 * fraction(name_hash(name + from, pkg), 0), 0.45 + 0.2 * fraction(h, 1),
			   0.62 + 0.13 * fraction(h, 2), out, size);
	else
		snprintf(out, size, "rgb(%d,%d,%d)", 205 + (int)(50 * fraction(h, 0)),
			 (int)(230 * fraction(h, 1)), (int)(55 * fraction(h, 2)));
}

/* flamegraph.pl's label: as many characters as fit at 0.59 em, cut with "..", none under 3. */
static void label(struct flame_page *p, const char *name, size_t len, double width)
{
	size_t fits = (size_t)(width / CHAR_WIDTH), count;
	if (fits < 3)
		return;
	size_t cut = svg_first_characters(name, len, fits - 2, &count);
	if (count <= fits) {
		svg_text(p->out, name, len, &p->replaced_bytes);
	} else {
		svg_text(p->out, name, cut, &p->replaced_bytes);
		output_str(p->out, "..");
	}
}

void flame_page_init(struct flame_page *p, struct output *out, struct flame_keys *keys,
		     const struct flame_options *opts, const struct flame_values *fv)
{
	memset(p, 0, sizeof *p);
	p->out = out;
	p->keys = keys;
	p->opts = opts;
	p->unit = fv->unit;
	p->decimals = fv->decimals;
	p->percent_of = fv->percent_of;
	p->ran_ns = -1;
	p->per_count = (opts->width - 2.0 * PAD) / (double)fv->total;
	p->min_count = opts->min_width_percent ? (double)fv->total * opts->min_width / 100
					       : opts->min_width / p->per_count;
}

int flame_wide_enough(const struct flame_page *p, int64_t count)
{
	return !((double)count < p->min_count);
}

static void text_element(struct flame_page *p, const char *id, const char *class, double x, double y,
			 const char *text)
{
	svg_printf(p->out, "<text id=\"%s\"%s%s%s x=\"%.1f\" y=\"%.1f\">", id, class ? " class=\"" : "",
		   class ? class : "", class ? "\"" : "", x, y);
	svg_text(p->out, text, strlen(text), &p->replaced_bytes);
	output_str(p->out, "</text>\n");
}

static const char page_style[] =
	"<style type=\"text/css\">\n"
	"text { font-family: Verdana, sans-serif; font-size: 12px; fill: rgb(0,0,0); }\n"
	"#title { text-anchor: middle; font-size: 17px; }\n"
	"#subtitle { text-anchor: middle; fill: rgb(110,110,110); }\n"
	"#search, #ignorecase { opacity: 0.1; cursor: pointer; }\n"
	"#search:hover, #search.show, #ignorecase:hover, #ignorecase.show { opacity: 1; }\n"
	"#unzoom { cursor: pointer; }\n"
	"#frames > g { cursor: pointer; }\n"
	"#frames > g:hover { stroke: black; stroke-width: 0.5; }\n"
	".hide { display: none; }\n"
	".parent { opacity: 0.5; }\n"
	"</style>\n";

double flame_page_top(const struct flame_page *p)
{
	return TITLE_BAND + (p->subtitle ? SUBTITLE_BAND : 0);
}

void flame_page_begin(struct flame_page *p)
{
	flame_page_head(p);
	flame_page_frames(p);
}

void flame_page_head(struct flame_page *p)
{
	struct output *out = p->out;
	unsigned w = p->opts->width;
	p->height = (p->max_depth + 1.0) * FRAME_HEIGHT + flame_page_top(p) + BOTTOM_BAND;
	p->root_y = p->opts->inverted ? flame_page_top(p) : p->height - BOTTOM_BAND - FRAME_HEIGHT + 1;
	output_str(out, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
			"<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" "
			"\"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\">\n");
	svg_printf(out, "<svg version=\"1.1\" width=\"%u\" height=\"%.0f\" onload=\"init(evt)\" "
			"viewBox=\"0 0 %u %.0f\" xmlns=\"http://www.w3.org/2000/svg\" "
			"xmlns:xlink=\"http://www.w3.org/1999/xlink\"", w, p->height, w, p->height);
	/* The script's layout: the numbers it places and labels zoomed boxes by. */
	svg_printf(out, " data-pad=\"%d\" data-frame-height=\"%d\" data-font-size=\"%d\" data-char-em=\"%g\" "
			"data-label-x=\"%d\"", PAD, FRAME_HEIGHT, FONT_SIZE, CHAR_EM, LABEL_X);
	/* What the search's match is a share of: the titles' whole. */
	char whole[DECIMAL_TEXT_MAX];
	decimal_text(whole, p->percent_of, p->decimals, 1);
	svg_printf(out, " data-percent-of=\"%s\">\n", whole);
	output_str(out, "<!-- Made by ");
	output_str(out, p->opts->made_by);
	output_str(out, " (docs/formats/flamegraph.md): one <g> per box, "
			"its data-count, its <title> NAME (AMOUNT, PERCENT%), its <rect> and its label. -->\n"
			"<defs><linearGradient id=\"background\" y1=\"0\" y2=\"1\" x1=\"0\" x2=\"0\">"
			"<stop stop-color=\"#eeeeee\" offset=\"5%\"/><stop stop-color=\"#eeeeb0\" offset=\"95%\"/>"
			"</linearGradient></defs>\n");
	output_str(out, page_style);
	output_str(out, "<script type=\"text/ecmascript\"><![CDATA[\n");
	output_str(out, flame_script);
	output_str(out, "]]></script>\n");
	svg_printf(out, "<rect x=\"0\" y=\"0\" width=\"%u\" height=\"%.0f\" fill=\"url(#background)\"/>\n",
		   w, p->height);
	text_element(p, "title", NULL, w / 2.0, 2 * FONT_SIZE, p->title);
	if (p->subtitle)
		text_element(p, "subtitle", NULL, w / 2.0, 4 * FONT_SIZE, p->subtitle);
	text_element(p, "details", NULL, PAD, p->height - BOTTOM_BAND / 2.0, " ");
	text_element(p, "unzoom", "hide", PAD, 2 * FONT_SIZE, "Reset Zoom");
	text_element(p, "search", NULL, w - PAD - 100, 2 * FONT_SIZE, "Search");
	text_element(p, "ignorecase", NULL, w - PAD - 16, 2 * FONT_SIZE, "ic");
	text_element(p, "matched", NULL, w - PAD - 100, p->height - BOTTOM_BAND / 2.0, " ");
}

void flame_page_frames(struct flame_page *p)
{
	output_str(p->out, "<g id=\"frames\">\n");
}

/* A count as flamegraph.pl prints it: thousands separated by commas; a fraction after them. */
static void write_count(struct output *out, int64_t n, unsigned decimals);

/*
 * A title's count as a person reads it: a time or a size in units
 * (units_label: "2.15s", "1.50MB"), else the count and its unit ("1,234
 * samples"). The box's data-count keeps the exact value.
 */
static void write_amount(struct flame_page *p, int64_t n, const char *before)
{
	output_str(p->out, before);
	if (units_scaled(p->unit)) {
		char text[64];
		units_label(text, sizeof text, (double)n / (double)pow10_i64(p->decimals), p->unit);
		output_str(p->out, text);
		return;
	}
	write_count(p->out, n, p->decimals);
	output_byte(p->out, ' ');
	svg_text(p->out, p->unit, strlen(p->unit), &p->replaced_bytes);
}

static void write_count(struct output *out, int64_t n, unsigned decimals)
{
	char digits[DECIMAL_TEXT_MAX], text[2 * DECIMAL_TEXT_MAX];
	size_t len = decimal_text(digits, n, decimals, 1), k = 0, i = 0;
	const char *point = memchr(digits, '.', len);
	size_t whole = point ? (size_t)(point - digits) : len;
	if (digits[0] == '-')
		text[k++] = digits[i++];
	for (; i < whole; i++) {
		if (i > (digits[0] == '-') && (whole - i) % 3 == 0)
			text[k++] = ',';
		text[k++] = digits[i];
	}
	memcpy(text + k, digits + whole, len - whole);
	output_write(out, text, k + len - whole);
}

/* The title's name: flamegraph.pl drops perf's annotations _[k], _[w], _[i], _[j]. */
static size_t shown_length(const char *name, size_t len)
{
	if (len > 4 && name[len - 4] == '_' && name[len - 3] == '[' && name[len - 1] == ']' &&
	    strchr("kwij", name[len - 2]))
		return len - 4;
	return len;
}

static double box_y(const struct flame_page *p, unsigned depth)
{
	return p->root_y + (p->opts->inverted ? 1.0 : -1.0) * depth * FRAME_HEIGHT;
}

/* The box's rect as flamegraph.pl rounds it: both ends to 0.1 px, so that siblings tile. */
static void write_rect(struct flame_page *p, double x1, double x2, double y, const char *fill)
{
	char left[32], right[32];
	snprintf(left, sizeof left, "%.1f", x1);
	snprintf(right, sizeof right, "%.1f", x2);
	svg_printf(p->out, "<rect x=\"%s\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" rx=\"2\" ry=\"2\"/>",
		   left, y, strtod(right, NULL) - strtod(left, NULL), FRAME_HEIGHT - 1.0, fill);
}

/*
 * A difference's colours, as flamegraph.pl's: red where a box grew, blue
 * where it shrank, deeper the larger the change against the largest;
 * white where nothing changed.
 */
static void change_colour(const struct flame_page *p, int64_t change, char *out, size_t size)
{
	double share = p->max_change ? (double)(change < 0 ? -change : change) / (double)p->max_change : 0;
	int fade = (int)(200 * (1 - share) + 45.5); /* at most 245: any change is tinted */
	if (change > 0)
		snprintf(out, size, "rgb(255,%d,%d)", fade, fade);
	else if (change < 0)
		snprintf(out, size, "rgb(%d,%d,255)", fade, fade);
	else
		snprintf(out, size, "rgb(250,250,250)");
}

void flame_box(struct flame_page *p, uint32_t key, unsigned depth, struct flame_span span,
	       const char *extra)
{
	struct output *out = p->out;
	size_t len;
	const char *name = flame_key_text(p->keys, key, &len);
	if (key == FLAME_ROOT && p->root_name)
		name = p->root_name, len = strlen(name);
	char fill[32];
	if (span.has_change)
		change_colour(p, span.change, fill, sizeof fill);
	else
		colour_of(&p->keys->keys[key], name, len, fill, sizeof fill);
	len = shown_length(name, len);
	double x1 = PAD + (double)span.start * p->per_count, x2 = PAD + (double)span.end * p->per_count;
	double y = box_y(p, depth);
	char count[DECIMAL_TEXT_MAX];
	decimal_text(count, span.count, p->decimals, 1);
	/* The count the script sums, exact; the title's is for people. */
	svg_printf(out, "<g data-count=\"%s\"", count);
	if (extra)
		output_str(out, extra);
	output_str(out, "><title>");
	svg_text(p->out, name, len, &p->replaced_bytes);
	output_str(out, " (");
	write_amount(p, span.count, "");
	if (span.count == p->percent_of)
		output_str(out, ", 100%");
	else
		svg_printf(out, ", %.2f%%", 100.0 * (double)span.count / (double)p->percent_of);
	if (span.has_change)
		write_amount(p, span.change, span.change > 0 ? "; change +" : "; change ");
	if (p->ran_ns >= 0) {
		char ran[32];
		units_label(ran, sizeof ran, p->ran_ns, "nanoseconds");
		svg_printf(out, ", %s", ran);
	}
	output_str(out, ")</title>");
	write_rect(p, x1, x2, y, fill);
	svg_printf(out, "<text x=\"%.2f\" y=\"%.2f\">", x1 + LABEL_X, y + 10.5);
	label(p, name, len, x2 - x1);
	output_str(out, "</text></g>\n");
}

void flame_page_end(struct flame_page *p)
{
	output_str(p->out, "</g>\n</svg>\n");
	if (p->replaced_bytes)
		diag_warn(p->out->name, 0, "names that are not UTF-8: bad bytes written as U+FFFD");
}
