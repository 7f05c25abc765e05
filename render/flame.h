/*
 * What the flame graph and the flame chart share: frame keys (a box per
 * frame identity the model gives, model_frame_id, plus the root and the
 * box of merged narrow ones; sprof's views take them for their nodes
 * too), their display names and colours, and the SVG page that holds the
 * boxes and the script. The page follows the layout of
 * flamegraph.pl's SVG (docs/formats/flamegraph.md), so that what reads
 * flamegraph.pl's files reads ours.
 */
#ifndef PROF_FLAME_H
#define PROF_FLAME_H

#include <stdint.h>

#include "../io/output.h"
#include "../model/view.h"

/* The two keys every picture has: the root box and a box of merged narrow ones. */
enum { FLAME_ROOT = 0, FLAME_ELIDED = 1 };

struct flame_key {
	uint8_t box;                 /* enum flame_box in flame.c: a frame's, the root, merged narrow ones */
	struct model_frame_id frame; /* a frame's box: the model's identity; grey while every frame's is */
	size_t text, text_len; /* the display name, in flame_keys.bytes; SIZE_MAX until made */
};

/*
 * Keys by frame, one per identity the model gives it (model_frame_id):
 * by function name, or with --frames line by name, file and line.
 */
struct flame_keys {
	const struct model *m;
	int by_line;
	struct flame_key *keys;
	size_t n, cap;
	struct hashidx index;
	uint32_t *of_function; /* by function, without lines; MODEL_NONE until known */
	char *bytes;
	size_t n_bytes, cap_bytes;
};

void flame_keys_init(struct flame_keys *k, const struct model *m, int by_line);
void flame_keys_free(struct flame_keys *k);
uint32_t flame_key(struct flame_keys *k, const struct model_frame *fr);
/* The key's name as shown, made once. */
const char *flame_key_text(struct flame_keys *k, uint32_t key, size_t *len);

/*
 * The keys of a stack from its root, into *keys (grown): reversed with
 * --reverse. Returns how many.
 */
size_t flame_stack_keys(struct flame_keys *k, uint32_t stack, int reverse, uint32_t **keys,
			size_t *cap, struct model_frame **frames, size_t *cap_frames);

/* The sample type a picture draws, and its total. */
struct flame_values {
	size_t type;
	const char *type_name;
	const char *unit; /* what titles count: "samples" for a count */
	unsigned decimals; /* the type's: titles write counts with their fraction */
	int64_t total;
	/*
	 * What titles' percentages are of, as the summary's (percent_total):
	 * the whole profile's under --focus, --ignore, --show, --hide; in a
	 * difference the base's. Else the total.
	 */
	int64_t percent_of;
	int time_ordered; /* the rows are R's ticks, in time order */
	/* A difference's base label (model/diff.h): its samples are the base, not drawn in the total. */
	uint32_t diff_key;
};

/* The pictures' options, read and defaulted by the writers (formats/flamegraph.h). */
struct flame_options {
	const char *sample_type; /* --sample-type */
	const char *title;       /* --title; NULL: the picture's own */
	unsigned width;          /* --width: pixels */
	double min_width;        /* --minwidth: pixels, or percent of the total */
	int min_width_percent;
	int inverted;            /* --inverted: root at the top */
	int reverse;             /* --reverse: stacks leaf first */
	int frames_by_line;      /* --frames line: a frame per line, not per function */
	const char *made_by;     /* "prof VERSION": the page's comment names its maker */
	const char *input;       /* for messages about the profile itself; NULL: the output's name */
};

/*
 * The chosen sample type (--sample-type; else the view's default, or with
 * prefer_time an R profile's CPU time) and its total, checked: -1 after
 * reporting a negative value or nothing to draw. In a difference
 * (--diff-base) the total is the profile's, without its base's samples.
 */
int flame_total(const struct model *m, struct output *out, const struct flame_options *opts,
		int prefer_time, struct flame_values *fv);

struct flame_page {
	struct output *out;
	struct flame_keys *keys;
	const struct flame_options *opts;
	const char *title, *subtitle, *unit;
	unsigned decimals;     /* of the counts in titles */
	int64_t percent_of;    /* what titles' percentages are of (flame_values) */
	double per_count;      /* pixels per count */
	double min_count;      /* boxes narrower than this many counts are left out */
	unsigned max_depth;    /* the deepest box drawn */
	double height;         /* in pixels: a deep enough stack would pass 2^32 */
	int64_t max_change;    /* a difference's largest change of a box, either sign: the deepest colour */
	int replaced_bytes;    /* names that are not UTF-8 */
	/* A flame chart's lanes: the y of the box at depth 0 of the boxes drawn next, and its name. */
	double root_y;
	const char *root_name; /* NULL: "all" */
	double ran_ns; /* in a chart in time: how long the box drawn next ran, which its title says; <0: none */
};

/* Sets the scale from the total and the options; the page's height waits for max_depth. */
void flame_page_init(struct flame_page *p, struct output *out, struct flame_keys *keys,
		     const struct flame_options *opts, const struct flame_values *fv);
/* Is a box of `count` wide enough to draw? */
int flame_wide_enough(const struct flame_page *p, int64_t count);
/* The page up to the frames' group; max_depth must be known. */
void flame_page_begin(struct flame_page *p);
/*
 * flame_page_begin in two steps, so that a chart can draw its time axis
 * between them: the page up to the script and the texts (root_y is set
 * for depth 0 of one picture), then the frames' group.
 */
void flame_page_head(struct flame_page *p);
void flame_page_frames(struct flame_page *p);
/* The y of the page's first row of boxes under the title (or subtitle), in pixels. */
double flame_page_top(const struct flame_page *p);
/* Where a box starts and ends along x, and the count its title shows, in counts. */
struct flame_span {
	int64_t start, end, count;
	/* In a difference: the box's count minus the base's, which colours it. */
	int has_change;
	int64_t change;
};

/* One box: key, depth (0: the root) and span; `extra` (or NULL) goes into the <g> tag. */
void flame_box(struct flame_page *p, uint32_t key, unsigned depth, struct flame_span span,
	       const char *extra);
/* Closes the page; warns of names that were not UTF-8. */
void flame_page_end(struct flame_page *p);

#endif
