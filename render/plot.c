/*
 * Static plots as SVG (plot.h): the page, the panels' frames and axes, and
 * the text of marks. Ticks are at 1, 2 or 5 times a power of ten, about
 * five to an axis, as R's pretty() picks them; a log axis has ticks at
 * powers of ten. No libm: logarithms come from a short series.
 */
#include "plot.h"

#include <stdio.h>
#include <string.h>

#include "svg.h"

enum { TICK_SIZE = 10, TICK_LEN = 4, MAX_TITLE_CHARS = 300 };

/* log10(v) for v > 0, to far better than a pixel. */
static double log10_of(double v)
{
	double e = 0, sum = 0;
	for (; v >= 2; v /= 2)
		e++;
	for (; v < 1; v *= 2)
		e--;
	double z = (v - 1) / (v + 1), term = z;
	for (int k = 1; k < 40; k += 2, term *= z * z)
		sum += term / k;
	return (e * 0.69314718055994531 + 2 * sum) / 2.30258509299404568;
}

/* 1, 2 or 5 times a power of ten, about a fifth of the range. */
static double round_step(double range)
{
	double raw = range / 5, mag = 1;
	while (mag * 10 <= raw)
		mag *= 10;
	while (mag > raw)
		mag /= 10;
	double f = raw / mag;
	return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * mag;
}

static double floor_to(double v, double step)
{
	double n = (double)(long long)(v / step);
	return (n > v / step ? n - 1 : n) * step;
}

void plot_axis_fit(struct plot_axis *a, double lo, double hi, int log, double headroom, const char *label)
{
	*a = (struct plot_axis){ .log = log, .label = label };
	if (log) {
		hi *= 1 + 3 * headroom;
		for (a->lo = 1; a->lo * 10 <= lo; a->lo *= 10)
			;
		for (a->hi = a->lo * 10; a->hi < hi; a->hi *= 10)
			;
		a->step = 10;
		a->first = a->lo;
		return;
	}
	if (!(hi > lo))
		hi = lo + 1;
	hi += (hi - lo) * headroom;
	a->step = round_step(hi - lo);
	a->first = a->lo = floor_to(lo, a->step);
	a->hi = -floor_to(-hi, a->step);
}

void plot_axis_span(struct plot_axis *a, double lo, double hi, const char *label)
{
	*a = (struct plot_axis){ .lo = lo, .hi = hi > lo ? hi : lo + 1, .label = label };
	a->step = round_step(a->hi - a->lo);
	a->first = -floor_to(-lo, a->step);
}

void plot_axis_none(struct plot_axis *a, const char *label)
{
	*a = (struct plot_axis){ .lo = 0, .hi = 1, .label = label };
}

static double scale(const struct plot_axis *a, double v)
{
	if (a->log)
		return (log10_of(v) - log10_of(a->lo)) / (log10_of(a->hi) - log10_of(a->lo));
	return (v - a->lo) / (a->hi - a->lo);
}

double plot_x(const struct plot_panel *p, double v)
{
	return p->x + scale(&p->xa, v) * p->w;
}

double plot_y(const struct plot_panel *p, double v)
{
	return p->y + p->h - scale(&p->ya, v) * p->h;
}

void plot_page_begin(struct output *out, double width, double height, const char *title,
		     const char *subtitle, int *replaced)
{
	output_str(out, "<?xml version=\"1.0\" standalone=\"no\"?>\n");
	svg_printf(out, "<svg version=\"1.1\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
			"xmlns=\"http://www.w3.org/2000/svg\">\n", width, height, width, height);
	output_str(out, "<style type=\"text/css\">\n"
			"text { font-family: Verdana, sans-serif; fill: rgb(0,0,0); }\n"
			"text { font-size: 10px; }\n"
			"#title { font-size: 17px; }\n"
			"#subtitle { font-size: 12px; fill: rgb(90,90,90); }\n"
			".ptitle { font-size: 13px; font-weight: bold; }\n"
			".xlab, .ylab, .legend text { font-size: 11px; }\n"
			".marks > *:hover { stroke: rgb(255,0,255); stroke-width: 2; }\n"
			"</style>\n");
	svg_printf(out, "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"rgb(255,255,255)\"/>\n",
		   width, height);
	svg_printf(out, "<text id=\"title\" x=\"%.1f\" y=\"24\" text-anchor=\"middle\">", width / 2);
	svg_text(out, title, strlen(title), replaced);
	svg_printf(out, "</text>\n<text id=\"subtitle\" x=\"%.1f\" y=\"44\" text-anchor=\"middle\">", width / 2);
	svg_text(out, subtitle, strlen(subtitle), replaced);
	output_str(out, "</text>\n");
}

void plot_page_end(struct output *out)
{
	output_str(out, "</svg>\n");
}

void plot_text(struct plot_panel *p, double x, double y, const char *anchor, double angle,
	       const char *text, size_t len, size_t chars)
{
	size_t count, cut = svg_first_characters(text, len, chars > 2 ? chars - 2 : chars, &count);
	svg_printf(p->out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\"", x, y, anchor);
	if (angle != 0)
		svg_printf(p->out, " transform=\"rotate(%.0f %.1f %.1f)\"", angle, x, y);
	output_byte(p->out, '>');
	svg_text(p->out, text, count <= chars ? len : cut, p->replaced);
	output_str(p->out, count <= chars ? "</text>\n" : "..</text>\n");
}

/* As R labels axes: six digits, large numbers as 2e+06. */
static void tick_label(double v, char *text, size_t size)
{
	snprintf(text, size, "%g", v > -1e-9 && v < 1e-9 ? 0 : v);
}

/* The ticks run from lo to hi; rounding must not lose the last. */
static double last_tick(const struct plot_axis *a)
{
	return a->log ? a->hi * (1 + 1e-9) : a->hi + a->step * 1e-6;
}

static double next_tick(const struct plot_axis *a, double v)
{
	return a->log ? v * 10 : v + a->step;
}

/* A tick and its value's label: below the x axis, or left of the y axis. */
static void tick(struct plot_panel *p, double v, int x_axis)
{
	char text[32];
	double at = x_axis ? plot_x(p, v) : plot_y(p, v), bottom = p->y + p->h;
	tick_label(v, text, sizeof text);
	if (x_axis)
		svg_printf(p->out, "<g class=\"xtick\"><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
				   "stroke=\"rgb(0,0,0)\"/><text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
			   at, bottom, at, bottom + TICK_LEN, at, bottom + TICK_LEN + TICK_SIZE + 1);
	else
		svg_printf(p->out, "<g class=\"ytick\"><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
				   "stroke=\"rgb(0,0,0)\"/><text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">",
			   p->x - TICK_LEN, at, p->x, at, p->x - TICK_LEN - 2, at + TICK_SIZE / 2.0 - 1);
	output_str(p->out, text);
	output_str(p->out, "</text></g>\n");
}

static void ticks(struct plot_panel *p, const struct plot_axis *a, int x_axis)
{
	for (double v = a->first; a->step > 0 && v <= last_tick(a); v = next_tick(a, v))
		tick(p, v, x_axis);
}

void plot_panel_begin(struct plot_panel *p)
{
	svg_printf(p->out, "<g class=\"panel\" id=\"%s\">\n", p->id);
	svg_printf(p->out, "<rect class=\"frame\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
			   "fill=\"none\" stroke=\"rgb(0,0,0)\"/>\n", p->x, p->y, p->w, p->h);
	svg_printf(p->out, "<text class=\"ptitle\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
		   p->x + p->w / 2, p->y - 8);
	svg_text(p->out, p->title, strlen(p->title), p->replaced);
	output_str(p->out, "</text>\n");
	ticks(p, &p->xa, 1);
	ticks(p, &p->ya, 0);
	if (p->xa.label)
		svg_printf(p->out, "<text class=\"xlab\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
			   p->x + p->w / 2, p->y + p->h + (p->xa.step > 0 ? 32 : 98), p->xa.label);
	if (p->ya.label)
		svg_printf(p->out, "<text class=\"ylab\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
				   "transform=\"rotate(-90 %.1f %.1f)\">%s</text>\n", p->x - 44, p->y + p->h / 2,
			   p->x - 44, p->y + p->h / 2, p->ya.label);
	output_str(p->out, "<g class=\"marks\">\n");
}

void plot_panel_end(struct plot_panel *p, const char *const *legend, size_t n)
{
	output_str(p->out, "</g>\n<g class=\"legend\">\n");
	/* A panel too low for its legend has it above, its last line level with the title. */
	int above = p->h < 14.0 * (double)n + 40;
	for (size_t i = 0; i < n; i++) {
		double y = above ? p->y - 8 - 13.0 * (double)(n - 1 - i) : p->y + 14 + 13.0 * (double)i;
		plot_text(p, p->x + p->w - 6, y, "end", 0, legend[i], strlen(legend[i]), 200);
	}
	output_str(p->out, "</g>\n</g>\n");
}

void plot_title(struct plot_panel *p, const char *values, const char *name, size_t len)
{
	output_str(p->out, "<title>");
	svg_text(p->out, values, strlen(values), p->replaced);
	if (name) {
		size_t count, cut = svg_first_characters(name, len, MAX_TITLE_CHARS, &count);
		output_str(p->out, ": ");
		svg_text(p->out, name, cut, p->replaced);
		output_str(p->out, count > MAX_TITLE_CHARS ? "...</title>" : "</title>");
	} else {
		output_str(p->out, "</title>");
	}
}
