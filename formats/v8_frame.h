/*
 * v8_frame: V8's callFrames (a .cpuprofile's nodes, a heap profile's) as
 * the model's functions and locations, named as DevTools names them, so
 * that two profiles of one program name their functions alike. A
 * function is its name (DevTools' "(anonymous)" for ""), url and start
 * line; a location is its function, line and column (V8 tells functions
 * apart by column too), each made once. "(root)" is no frame.
 */
#ifndef PROF_V8_FRAME_H
#define PROF_V8_FRAME_H

#include <stddef.h>
#include <stdint.h>

#include "../base/hashidx.h"
#include "../model/model.h"

/* What a callFrame says of its function; line and column 1-based, 0 unknown, as the model holds them. */
struct v8_call_frame {
	uint32_t name, url;
	int64_t line, column;
	int has_name;
};

struct v8_frame_key;

/* The locations made so far, by function, line and column. */
struct v8_frames {
	struct model *m;
	struct v8_frame_key *keys;
	size_t n, cap;
	struct hashidx index;
};

void v8_frames_init(struct v8_frames *f, struct model *m);
void v8_frames_free(struct v8_frames *f);

/* The location of a callFrame (it has a name); MODEL_NONE for "(root)". */
uint32_t v8_frame_location(struct v8_frames *f, const struct v8_call_frame *cf);

#endif
