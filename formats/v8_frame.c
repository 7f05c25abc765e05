/* v8_frame (v8_frame.h). */
#include "v8_frame.h"

#include <stdlib.h>
#include <string.h>

#include "../base/alloc.h"

struct v8_frame_key {
	uint32_t function;
	int64_t line, column;
	uint32_t location;
};

void v8_frames_init(struct v8_frames *f, struct model *m)
{
	memset(f, 0, sizeof *f);
	f->m = m;
}

void v8_frames_free(struct v8_frames *f)
{
	free(f->keys);
	hashidx_free(&f->index);
}

static int key_equals(const void *ctx, uint32_t i, const void *key)
{
	const struct v8_frame_key *a = &((const struct v8_frames *)ctx)->keys[i], *b = key;
	return a->function == b->function && a->line == b->line && a->column == b->column;
}

/* The location of a function's line and column, made once. */
static uint32_t location_at(struct v8_frames *f, uint32_t function, int64_t line, int64_t column)
{
	struct v8_frame_key key = { function, line, column, 0 };
	uint64_t h = hash_mix(hash_mix(function, (uint64_t)line), (uint64_t)column);
	uint32_t i = hashidx_find(&f->index, h, key_equals, f, &key);
	if (i != HASHIDX_NONE)
		return f->keys[i].location;
	struct model_location l = { .function = function, .line = line, .column = column,
				    .native = { .mapping = MODEL_NONE } };
	key.location = model_add_location(f->m, &l, NULL, 0);
	grow((void **)&f->keys, &f->cap, f->n + 1, sizeof *f->keys);
	f->keys[f->n] = key;
	hashidx_insert(&f->index, h, (uint32_t)f->n++);
	return key.location;
}

uint32_t v8_frame_location(struct v8_frames *f, const struct v8_call_frame *cf)
{
	if (model_str_is(f->m, cf->name, "(root)"))
		return MODEL_NONE;
	struct model_function fn = { .name = cf->name, .file_name = cf->url, .start_line = cf->line };
	if (model_str_is(f->m, cf->name, ""))
		fn.name = model_str(f->m, "(anonymous)", 11);
	return location_at(f, model_function(f->m, &fn), cf->line, cf->column);
}
