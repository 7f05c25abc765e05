/*
 * plot: static statistical plots as SVG, the way R's base graphics draws
 * them: a page of panels, each a framed plot area with a title, axes with
 * ticks at round numbers and their labels, and marks (points, bars, lines)
 * that each carry their values in a <title>, so that a person hovering
 * and a test reading the page see the same numbers. The marks of a panel
 * are the shapes in its <g class="marks"> (their labels are its <text>s);
 * each tick of its axes is a <g class="xtick"> or <g class="ytick"> of a
 * <line> and the <text> of its value, so that what a person reads off the
 * axes can be read back too (docs/formats/sprof.md).
 */
#ifndef PROF_PLOT_H
#define PROF_PLOT_H

#include <stddef.h>

#include "../io/output.h"

struct plot_axis {
	double lo, hi; /* the values at the ends */
	double step;   /* between ticks; 0: no ticks (categories) */
	double first;  /* the first tick */
	int log;       /* log10 scale; ticks at 1, 10, 100 ... */
	const char *label;
};

struct plot_panel {
	struct output *out;
	const char *id, *title;
	double x, y, w, h; /* the plot area, in the page */
	struct plot_axis xa, ya;
	int *replaced;     /* set when a name was not UTF-8 */
};

/*
 * An axis from round numbers around lo and hi, with round ticks (for a log
 * axis lo must be > 0); `headroom` is a share of the range added above hi,
 * room for the legend.
 */
void plot_axis_fit(struct plot_axis *a, double lo, double hi, int log, double headroom, const char *label);
/* An axis from exactly lo to hi, with round ticks between. */
void plot_axis_span(struct plot_axis *a, double lo, double hi, const char *label);
/* An axis of categories: no numbers, no ticks. */
void plot_axis_none(struct plot_axis *a, const char *label);

/* Where a value lands, in the page. */
double plot_x(const struct plot_panel *p, double v);
double plot_y(const struct plot_panel *p, double v);

/* The page: its size, a title and a grey subtitle; the panels go between. */
void plot_page_begin(struct output *out, double width, double height, const char *title,
		     const char *subtitle, int *replaced);
void plot_page_end(struct output *out);

/* The frame, title, axes and ticks; opens the marks' group. */
void plot_panel_begin(struct plot_panel *p);
/* Closes the marks; the legend's lines go top right, as R's legend("topright"). */
void plot_panel_end(struct plot_panel *p, const char *const *legend, size_t n);

/* A mark's title: `values`, then ": " and the name when there is one (cut at 300 characters). */
void plot_title(struct plot_panel *p, const char *values, const char *name, size_t len);

/* Text at (x, y), its `len` bytes cut to `chars` characters with "..", rotated by `angle`. */
void plot_text(struct plot_panel *p, double x, double y, const char *anchor, double angle,
	       const char *text, size_t len, size_t chars);

#endif
