/*
 * DTrace, SystemTap and bpftrace stack aggregations reader
 * (docs/formats/dtrace.md). Each stack, its frames leaf first, weighs its
 * count, in one type "samples"; stacks stay in the file's order. Frames
 * are named as the collapser of each dialect names them, and the offset
 * or address a frame line prints is its location's address:
 *  - DTrace (stackcollapse.pl): the offset cut from the last '+', C++
 *    arguments cut, "a->b" as two frames (the inlined one "_[i]"), ';'
 *    as ':', a leading 'L' dropped; DTrace's own header lines skipped;
 *  - SystemTap (stackcollapse-stap.pl), when the first frame is
 *    "0xADDR : name+off/len [module]": the address and offset cut;
 *  - bpftrace (stackcollapse-bpftrace.pl), when the input has a map's
 *    key "@[": frames as printed, offsets kept; the key's last part
 *    ("comm" of @[kstack, comm]) as the root frame.
 * Bytes are bytes: a symbol DTrace cut inside a UTF-8 sequence is kept as
 * it is. Memory grows with distinct frames and the deepest stack.
 */
#include <string.h>

#include "../base/alloc.h"
#include "../base/ascii.h"
#include "../base/checked.h"
#include "../base/diag.h"
#include "../io/lines.h"
#include "../model/textcache.h"
#include "dtrace.h"
#include "format.h"

int dtrace_read(struct input *in, struct model *m);

enum { MAX_FRAMES = 1 << 16 };

struct frame_key {
	uint32_t function;
	uint64_t address;
};

struct reader {
	struct lines lines;
	struct model *m;
	int bpftrace;       /* a map's key "@[" in the prefix */
	int stap;           /* -1 until the first frame tells */
	int in_key;         /* bpftrace: between "@[" and "]: N" */
	uint64_t key_line;  /* where the open key or stack began */
	/* Locations by (function, address), and by frame line whole (lines of one frame). */
	struct frame_key *keys;
	uint32_t *key_location;
	size_t n_keys, cap_keys, cap_key_location;
	struct hashidx key_index;
	struct text_cache frame_lines;
	/* Stacks by their locations' bytes: an aggregation repeats a few call paths under many leaves. */
	struct text_cache stacks_met;
	uint32_t *frames; /* the open stack's locations, leaf first */
	size_t n_frames, cap_frames;
	struct dtrace_text *parts; /* one line's parts between "->", caller first */
	size_t n_parts, cap_parts;
	char *scratch;
	size_t cap_scratch;
	uint64_t stacks, named_keys;
};

static char *scratch(struct reader *r, size_t len)
{
	grow((void **)&r->scratch, &r->cap_scratch, len + 8, 1);
	return r->scratch;
}

static int key_equals(const void *ctx, uint32_t id, const void *key)
{
	const struct frame_key *a = &((const struct reader *)ctx)->keys[id], *b = key;
	return a->function == b->function && a->address == b->address;
}

/* The location of a frame named `name` at `address`, made the first time it is met. */
static uint32_t location_of(struct reader *r, const char *name, size_t len, uint64_t address)
{
	uint32_t id = model_str(r->m, name, len);
	struct model_function f = { id, id, 0, 0, 0, 0, { 0, 0, 0, 0 } };
	struct frame_key key = { model_function(r->m, &f), address };
	uint64_t h = hash_mix(key.function, key.address);
	uint32_t found = hashidx_find(&r->key_index, h, key_equals, r, &key);
	if (found != HASHIDX_NONE)
		return r->key_location[found];
	struct model_location l;
	memset(&l, 0, sizeof l);
	l.function = key.function;
	l.native.mapping = MODEL_NONE;
	l.native.address = address;
	grow((void **)&r->keys, &r->cap_keys, r->n_keys + 1, sizeof *r->keys);
	grow((void **)&r->key_location, &r->cap_key_location, r->n_keys + 1, sizeof *r->key_location);
	r->keys[r->n_keys] = key;
	r->key_location[r->n_keys] = model_add_location(r->m, &l, NULL, 0);
	hashidx_insert(&r->key_index, h, (uint32_t)r->n_keys);
	return r->key_location[r->n_keys++];
}

static int push(struct reader *r, uint32_t location)
{
	if (r->n_frames == MAX_FRAMES)
		return lines_errorf(&r->lines, 0, "a stack deeper than %d frames", MAX_FRAMES);
	grow((void **)&r->frames, &r->cap_frames, r->n_frames + 1, sizeof *r->frames);
	r->frames[r->n_frames++] = location;
	return 0;
}

/* "0xHEX" (1 to 16 digits, either case) as a number in *v; 0, *v untouched, when it is not one. */
static int hex_value(const char *s, size_t len, uint64_t *v)
{
	if (len < 3 || len > 18 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
		return 0;
	uint64_t value = 0;
	for (size_t i = 2; i < len; i++) {
		if (!is_hex(s[i]))
			return 0;
		char c = ascii_lower(s[i]);
		value = value << 4 | (uint64_t)(is_digit(c) ? c - '0' : c - 'a' + 10);
	}
	*v = value;
	return 1;
}

/* Where the last `c` is in s[0..len), or len. */
static size_t last_of(const char *s, size_t len, char c)
{
	for (size_t i = len; i-- > 0;)
		if (s[i] == c)
			return i;
	return len;
}

static struct dtrace_text without_blanks_before(const char *s, size_t len)
{
	size_t i = 0;
	while (i < len && dtrace_is_blank(s[i]))
		i++;
	return (struct dtrace_text){ s + i, len - i };
}

/* stackcollapse.pl's cut of C++ arguments: from the last '(' or '<' after the first "::". */
static size_t arguments_at(struct dtrace_text t)
{
	for (size_t i = 0; i + 1 < t.len; i++) {
		if (t.s[i] != ':' || t.s[i + 1] != ':')
			continue;
		for (size_t k = t.len; k-- > i + 2;)
			if (t.s[k] == '(' || t.s[k] == '<')
				return k;
		break;
	}
	return t.len;
}

/* One part of a DTrace frame, named: ';' as ':', no leading 'L', "_[i]" when inlined. */
static uint32_t part_location(struct reader *r, struct dtrace_text part, int inlined, uint64_t address)
{
	if (part.len && part.s[0] == 'L')
		part.s++, part.len--;
	char *s = scratch(r, part.len + 4);
	for (size_t i = 0; i < part.len; i++)
		s[i] = part.s[i] == ';' ? ':' : part.s[i];
	if (inlined)
		memcpy(s + part.len, "_[i]", 4);
	return location_of(r, s, part.len + (inlined ? 4 : 0), address);
}

/* The parts of t between "->", as Perl's split makes them: trailing empty ones dropped. */
static void split_inlined(struct reader *r, struct dtrace_text t)
{
	r->n_parts = 0;
	for (size_t at = 0;;) {
		size_t arrow = at;
		while (arrow + 1 < t.len && !(t.s[arrow] == '-' && t.s[arrow + 1] == '>'))
			arrow++;
		int last = arrow + 1 >= t.len;
		grow((void **)&r->parts, &r->cap_parts, r->n_parts + 1, sizeof *r->parts);
		r->parts[r->n_parts++] = (struct dtrace_text){ t.s + at, (last ? t.len : arrow) - at };
		if (last)
			break;
		at = arrow + 2;
	}
	while (r->n_parts > 0 && r->parts[r->n_parts - 1].len == 0)
		r->n_parts--;
}

/* A DTrace frame: its parts pushed callee first, as the stack is leaf first. */
static int add_dtrace_frame(struct reader *r, const char *line, size_t len)
{
	struct dtrace_text t = without_blanks_before(line, len);
	uint64_t address = 0;
	size_t plus = last_of(t.s, t.len, '+');
	if (plus < t.len) {
		hex_value(t.s + plus + 1, t.len - plus - 1, &address);
		t.len = plus;
	} else {
		size_t tick = last_of(t.s, t.len, '`');
		size_t from = tick < t.len ? tick + 1 : 0;
		hex_value(t.s + from, t.len - from, &address);
	}
	t.len = arguments_at(t);
	if (t.len == 0)
		t = (struct dtrace_text){ "-", 1 };
	split_inlined(r, t);
	for (size_t i = r->n_parts; i-- > 0;)
		if (push(r, part_location(r, r->parts[i], i > 0, address)) < 0)
			return -1;
	return 0;
}

/* A SystemTap frame: the offset cut from the last '+', the address up to the last " : ". */
static int add_stap_frame(struct reader *r, const char *line, size_t len)
{
	struct dtrace_text t = without_blanks_before(line, len);
	uint64_t address = 0;
	size_t space = 0;
	while (space < t.len && t.s[space] != ' ')
		space++;
	hex_value(t.s, space, &address);
	t.len = last_of(t.s, t.len, '+');
	for (size_t i = t.len; i >= 3; i--)
		if (memcmp(t.s + i - 3, " : ", 3) == 0) {
			t.s += i, t.len -= i;
			break;
		}
	if (t.len == 0)
		t = (struct dtrace_text){ "-", 1 };
	return push(r, location_of(r, t.s, t.len, address));
}

/* ustack(perf)'s "ADDRESS func+OFFSET (module)": its address, hex without "0x". */
static int perf_address(struct dtrace_text t, uint64_t *address)
{
	size_t n = 0;
	while (n < t.len && n <= 16 && is_hex(t.s[n]))
		n++;
	if (n == 0 || n > 16 || n == t.len || t.s[n] != ' ')
		return 0;
	char text[19] = "0x";
	memcpy(text + 2, t.s, n);
	return hex_value(text, n + 2, address);
}

/* kstack's and ustack's "func+OFFSET": the offset, decimal (at most 19 digits); 0, *offset untouched, when none. */
static int decimal_offset(struct dtrace_text t, uint64_t *offset)
{
	size_t plus = last_of(t.s, t.len, '+');
	if (plus == t.len || t.len - plus - 1 == 0 || t.len - plus - 1 > 19)
		return 0;
	uint64_t value = 0;
	for (size_t i = plus + 1; i < t.len; i++) {
		if (!is_digit(t.s[i]))
			return 0;
		value = value * 10 + (uint64_t)(t.s[i] - '0');
	}
	*offset = value;
	return 1;
}

/* A bpftrace frame, as printed: "func+OFFSET", "0xADDRESS", or ustack(perf)'s. */
static int add_bpftrace_frame(struct reader *r, const char *line, size_t len)
{
	struct dtrace_text t = without_blanks_before(line, len);
	uint64_t address = 0;
	if (!perf_address(t, &address) && !decimal_offset(t, &address))
		hex_value(t.s, t.len, &address);
	return push(r, location_of(r, t.s, t.len, address));
}

/* A frame line: whole lines met before are looked up (a line of one frame). */
static int add_frame_line(struct reader *r, const char *s, size_t len,
			  int (*add)(struct reader *r, const char *line, size_t len))
{
	uint64_t hash;
	uint32_t location = text_cache_find(&r->frame_lines, s, len, &hash);
	if (location != HASHIDX_NONE)
		return push(r, location);
	size_t before = r->n_frames;
	if (add(r, s, len) < 0)
		return -1;
	if (r->n_frames == before + 1)
		text_cache_add(&r->frame_lines, hash, s, len, r->frames[before]);
	return 0;
}

/* The open stack ends with its count. */
static int end_stack(struct reader *r, struct dtrace_text digits)
{
	int64_t count = 0;
	for (size_t i = 0; i < digits.len; i++)
		if (checked_mul_i64(count, 10, &count) || checked_add_i64(count, digits.s[i] - '0', &count))
			return lines_errorf(&r->lines, 0, "a count past 2^63");
	uint64_t hash;
	size_t bytes = r->n_frames * sizeof *r->frames;
	uint32_t stack = text_cache_find(&r->stacks_met, (const char *)r->frames, bytes, &hash);
	if (stack == HASHIDX_NONE) {
		stack = MODEL_EMPTY_STACK;
		for (size_t i = r->n_frames; i-- > 0;)
			stack = model_stack(r->m, r->frames[i], stack);
		text_cache_add(&r->stacks_met, hash, (const char *)r->frames, bytes, stack);
	}
	model_add_samples(r->m, stack, &count, NULL, 0, 1, 0);
	r->n_frames = 0;
	r->stacks++;
	return 0;
}

/* A line inside a bpftrace key, or outside one. */
static int read_bpftrace_line(struct reader *r, const char *s, size_t len)
{
	struct dtrace_text part, digits;
	if (!r->in_key) {
		r->named_keys += dtrace_is_named_key(s, len);
		if (!dtrace_is_key_start(s, len))
			return 0; /* bpftrace's own lines, and other maps: not stacks */
		r->in_key = 1;
		r->key_line = lines_number(&r->lines);
		s += 2, len -= 2;
		if (len == 0)
			return 0;
	}
	if (dtrace_key_end(s, len, &part, &digits)) {
		r->in_key = 0;
		if (part.len && push(r, location_of(r, part.s, part.len, 0)) < 0)
			return -1;
		return end_stack(r, digits);
	}
	/* ", " between a key's parts (kstack, ustack); a part printed on it, as "comm, ", is a frame. */
	if (s[0] == ',') {
		struct dtrace_text rest = without_blanks_before(s + 1, len - 1);
		while (rest.len && (dtrace_is_blank(rest.s[rest.len - 1]) || rest.s[rest.len - 1] == ','))
			rest.len--;
		return rest.len ? push(r, location_of(r, rest.s, rest.len, 0)) : 0;
	}
	return add_frame_line(r, s, len, add_bpftrace_frame);
}

static int read_line(struct reader *r, const char *s, size_t len)
{
	struct dtrace_text digits;
	if (r->bpftrace)
		return read_bpftrace_line(r, s, len);
	if (dtrace_count_line(s, len, &digits))
		return end_stack(r, digits);
	if (dtrace_is_blank_line(s, len) || (r->stap <= 0 && r->n_frames == 0 && dtrace_is_header(s, len)))
		return 0;
	if (r->n_frames == 0)
		r->key_line = lines_number(&r->lines);
	if (r->stap < 0)
		r->stap = dtrace_is_stap_frame(s, len);
	return add_frame_line(r, s, len, r->stap ? add_stap_frame : add_dtrace_frame);
}

/* Does the prefix hold a bpftrace map's key, "@[" or "@name[", at a line's start? */
static int has_bpftrace_key(struct input *in)
{
	const unsigned char *p;
	long n = input_peek(in, FORMAT_PROBE_BYTES, &p);
	for (long i = 0; i < n; i++) {
		if (i > 0 && p[i - 1] != '\n')
			continue;
		const char *line = (const char *)p + i;
		size_t len = (size_t)(n - i);
		if (dtrace_is_key_start(line, len) || dtrace_is_named_key(line, len))
			return 1;
	}
	return 0;
}

static void reader_free(struct reader *r)
{
	free(r->keys);
	free(r->key_location);
	hashidx_free(&r->key_index);
	text_cache_free(&r->frame_lines);
	text_cache_free(&r->stacks_met);
	free(r->frames);
	free(r->parts);
	free(r->scratch);
}

/* What ends the input: frames with no count, as the collapsers drop them, and what was left out. */
static void report_end(struct reader *r)
{
	if (r->n_frames || r->in_key)
		diag_warn(r->lines.in->name, r->key_line, "%s with no count at the end of the input, left out "
			  "(cut short?)", r->in_key ? "a map's key" : "a stack");
	if (r->named_keys)
		diag_warn(r->lines.in->name, 0, "%llu entries of named maps (@NAME[...]) left out, as "
			  "stackcollapse-bpftrace.pl leaves them: prof reads the map named @",
			  (unsigned long long)r->named_keys);
}

int dtrace_read(struct input *in, struct model *m)
{
	struct reader r;
	memset(&r, 0, sizeof r);
	r.m = m;
	r.stap = -1;
	r.bpftrace = has_bpftrace_key(in);
	model_add_sample_type(m, "samples", "count");
	lines_begin(&r.lines, in);
	const char *s;
	size_t len;
	int got;
	while ((got = lines_next(&r.lines, &s, &len)) != 0)
		if ((got < 0 || read_line(&r, s, len) < 0) && !lines_go_on(&r.lines))
			break;
	int failed = r.lines.failed;
	if (!failed && r.stacks)
		report_end(&r);
	if (!failed && r.stacks == 0)
		failed = lines_errorf(&r.lines, 1, "no stack: %s", !r.bpftrace ? "no frames then a count line"
			 : r.named_keys ? "only maps with a name (@NAME[...]); prof reads the map named @"
			 : "no map key \"@[...]: COUNT\"") < 0;
	reader_free(&r);
	return failed ? -1 : 0;
}
