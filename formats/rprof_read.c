/*
 * Rprof reader. The grammar and its traps are in docs/formats/rprof.md;
 * the points that shape this file:
 *
 *  - Names are raw bytes: they may hold '"', '" ' and even a newline. A
 *    name ends at a '" ' that is followed by the end of the line, another
 *    '"', or a line reference; a line that ends inside a name continues on
 *    the next physical line unless that line starts something of its own
 *    (a sample, a #File line, a header), in which case R's line buffer cut
 *    the frame short: it is kept, raw, as a truncated outermost frame.
 *  - A reference "F#L " belongs to the name that follows it.
 *  - Each header starts a run; #File numbering restarts with it.
 *
 * The reader streams: lines point into the input buffer, and the only
 * per-sample work is interning, so memory grows with distinct stacks and
 * rows, not with the size of the file. A long run repeats a few hundred
 * distinct lines millions of times, so the text of a line (after the
 * memory prefix) is looked up first: one hash instead of one per frame.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "../base/ascii.h"
#include "../base/diag.h"
#include "../base/alloc.h"
#include "../io/lines.h"
#include "../model/textcache.h"
#include "rprof.h"

/* R stops at 100 files per run; a generous bound keeps the table small. */
enum { MAX_FILE_NUMBER = 1000000 };

struct reader {
	struct input *in;
	struct lines lines;
	struct model *m;
	int in_run, memory, line_refs;
	/* How the run's names are written: decided by its first sample with frames. */
	int quoting_known, unquoted;
	/* Path string id by #File number, for the current run. */
	uint32_t *file_paths;
	size_t cap_file_paths;
	struct hashidx numbers_by_path;
	/* Locations of the sample being read, innermost first. */
	uint32_t *frames;
	size_t n_frames, cap_frames;
	/* A sample spread over several physical lines, joined. */
	char *joined;
	size_t cap_joined;
	uint64_t sample_line;
	int warned_truncated;
	/* The sample read so far depends on more than its own line. */
	int not_cacheable;
	/*
	 * Stack ids by the exact text of a line's frames, valid for one run:
	 * #File numbers never change meaning inside a run. Only lines read
	 * whole are remembered; a joined or cut line depends on the lines
	 * around it.
	 */
	struct text_cache cache;
};

struct ref {
	int present;
	size_t start;
	uint64_t file, line;
};

static int fail(struct reader *r, uint64_t line, const char *what, const char *s, size_t len)
{
	return lines_error(&r->lines, line, what, s, len);
}

/* Digits at s[*pos]; 0 and the value, or -1 when none or on overflow. */
static int parse_u64(const char *s, size_t len, size_t *pos, uint64_t *value)
{
	size_t i = *pos;
	uint64_t v = 0;
	if (i >= len || !isdigit((unsigned char)s[i]))
		return -1;
	for (; i < len && isdigit((unsigned char)s[i]); i++) {
		uint64_t d = (uint64_t)(s[i] - '0');
		if (v > (UINT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	*pos = i;
	*value = v;
	return 0;
}

/*
 * Does a line reference start at s[k]? A whole one ("12#34 ") counts, and
 * so does one cut by the end of the line ("12", "12#", "12#34").
 */
static int ref_starts_at(const char *s, size_t len, size_t k)
{
	size_t i = k;
	while (i < len && isdigit((unsigned char)s[i]))
		i++;
	if (i == k)
		return 0;
	if (i == len)
		return 1;
	if (s[i] != '#')
		return 0;
	size_t digits = ++i;
	while (i < len && isdigit((unsigned char)s[i]))
		i++;
	return i == len || (i > digits && s[i] == ' ');
}

/* Index of the quote that closes a name starting at s[from], or -1. */
static long name_end(const char *s, size_t len, size_t from, int refs)
{
	const char *q = memchr(s + from, '"', len - from);
	for (; q; q = memchr(q + 1, '"', len - (size_t)(q + 1 - s))) {
		size_t j = (size_t)(q - s);
		if (j + 1 >= len)
			return -1;
		if (s[j + 1] != ' ')
			continue;
		size_t k = j + 2;
		if (k == len || s[k] == '"' || (refs && ref_starts_at(s, len, k)))
			return (long)j;
	}
	return -1;
}

/* Does this physical line begin something other than the rest of a name? */
static int starts_own_line(const struct reader *r, const char *s, size_t len)
{
	if (len == 0)
		return 0;
	if (s[0] == '"' || (s[0] == ':' && r->memory) || starts_with(s, len, RPROF_FILE))
		return 1;
	if (r->line_refs && isdigit((unsigned char)s[0])) {
		size_t i = 0;
		while (i < len && isdigit((unsigned char)s[i]))
			i++;
		if (i < len && s[i] == '#')
			return 1;
	}
	return rprof_is_header(s, len);
}

/* Before the header, a NUL byte is for read_line to call "not an Rprof file". */
static int get_line(struct reader *r, const char **s, size_t *len)
{
	r->lines.check_nul = r->in_run;
	return lines_next(&r->lines, s, len);
}

/*
 * Joins the next physical line to the sample when it continues a name.
 * 1: joined (*s, *len now the joined text); 0: it starts its own line or
 * the input ended; -1: error.
 */
static int join_next_line(struct reader *r, const char **s, size_t *len)
{
	r->not_cacheable = 1;
	if (*s != r->joined) {
		grow((void **)&r->joined, &r->cap_joined, *len + 1, 1);
		memcpy(r->joined, *s, *len);
		*s = r->joined;
	}
	const char *next;
	size_t next_len;
	int rc = get_line(r, &next, &next_len);
	if (rc <= 0)
		return rc;
	if (starts_own_line(r, next, next_len)) {
		lines_unget(&r->lines);
		return 0;
	}
	if (*len + 1 + next_len > r->in->max_line) {
		return lines_errorf(&r->lines, r->sample_line, "sample longer than %zu bytes",
				    r->in->max_line);
	}
	grow((void **)&r->joined, &r->cap_joined, *len + 1 + next_len, 1);
	r->joined[*len] = '\n';
	memcpy(r->joined + *len + 1, next, next_len);
	*len += 1 + next_len;
	*s = r->joined;
	return 1;
}

static void push_frame(struct reader *r, uint32_t location)
{
	grow((void **)&r->frames, &r->cap_frames, r->n_frames + 1, sizeof *r->frames);
	r->frames[r->n_frames++] = location;
}

/* The file and line a whole "F#L " names, checked against the run's #File lines. */
static int resolve_ref(struct reader *r, const struct ref *ref, struct model_call_site *at)
{
	if (ref->file >= r->cap_file_paths || r->file_paths[ref->file] == MODEL_NONE)
		return lines_errorf(&r->lines, r->sample_line,
				    "line reference %llu#%llu names undefined #File %llu",
				    (unsigned long long)ref->file, (unsigned long long)ref->line,
				    (unsigned long long)ref->file);
	if (ref->line == 0 || ref->line > INT64_MAX)
		return lines_errorf(&r->lines, r->sample_line,
				    "line reference %llu#%llu: lines are numbered from 1",
				    (unsigned long long)ref->file, (unsigned long long)ref->line);
	*at = (struct model_call_site){ r->file_paths[ref->file], (int64_t)ref->line, 0 };
	return 0;
}

static int add_frame(struct reader *r, const char *name, size_t len, const struct ref *ref)
{
	struct model_function f = { 0 };
	struct model_call_site at = { 0, 0, 0 };
	if (len == 0)
		return lines_errorf(&r->lines, r->sample_line, "empty function name \"\"");
	f.name = f.system_name = model_str(r->m, name, len);
	if (ref->present && resolve_ref(r, ref, &at) < 0)
		return -1;
	f.file_name = at.file;
	push_frame(r, model_location(r->m, model_function(r->m, &f), at.line));
	return 0;
}

/*
 * A reference after the outermost frame is where that frame was called
 * from, in code that is no frame: R 3.x writes one after every outermost
 * frame it has a line for, R 4.x when the call came from sourced code. A
 * line of that reference alone is a sample with no frame at all.
 */
static int add_call_site(struct reader *r, const struct ref *ref)
{
	struct model_call_site at;
	if (resolve_ref(r, ref, &at) < 0)
		return -1;
	if (r->n_frames == 0) {
		push_frame(r, model_location_called(r->m, MODEL_NONE, 0, at));
		return 0;
	}
	const struct model_location *outermost = &r->m->locations[r->frames[r->n_frames - 1]];
	r->frames[r->n_frames - 1] = model_location_called(r->m, outermost->function,
							   outermost->line, at);
	return 0;
}

/* One warning a file for a sample cut short, saying which of the two cuts it was. */
static void warn_cut(struct reader *r, const char *kept)
{
	if (r->warned_truncated)
		return;
	r->warned_truncated = 1;
	if (!r->lines.final_newline)
		diag_warn(r->in->name, r->sample_line, "the file ends inside a sample (copied while R "
			  "was writing?); %s", kept);
	else
		diag_warn(r->in->name, r->sample_line, "sample cut short by R's line buffer; %s", kept);
}

/*
 * Does a cut tail hold nothing of a name: a reference, whole with its
 * blank ("5#5 ", and the quote R writes before the name) or cut ("5#5",
 * whose line may have lost digits, "5#", "5")? *whole says which.
 */
static int reference_only(const char *tail, size_t len, struct ref *ref, int *whole)
{
	size_t i = 0;
	*whole = 0;
	if (parse_u64(tail, len, &i, &ref->file) < 0)
		return 0;
	if (i < len && tail[i] == '#' && ++i < len && parse_u64(tail, len, &i, &ref->line) == 0 && i < len &&
	    tail[i] == ' ') {
		*whole = 1;
		i++;
		i += i < len && tail[i] == '"';
	}
	return i == len;
}

/*
 * A line cut right after a reference ('"dbWriteTable" 5#5 "'): the frame
 * it began is gone but for it, and it is where the outermost frame left
 * was called from. So it is that frame's call site (none when cut inside
 * it), no frame of its own, and its bytes are kept to be written back.
 * 0 when the tail is more than a reference or no frame is left to hold it.
 */
static int add_cut_call_site(struct reader *r, const char *tail, size_t len)
{
	struct ref ref = { 1, 0, 0, 0 };
	int whole;
	if (!r->line_refs || !reference_only(tail, len, &ref, &whole) || (r->n_frames == 0 && !whole))
		return 0;
	struct model_call_site at = { 0, 0, 0 };
	if (whole && resolve_ref(r, &ref, &at) < 0)
		return -1;
	at.raw = model_str(r->m, tail, len);
	r->not_cacheable = 1;
	if (r->n_frames == 0) {
		push_frame(r, model_location_called(r->m, MODEL_NONE, 0, at));
	} else {
		const struct model_location *outermost = &r->m->locations[r->frames[r->n_frames - 1]];
		r->frames[r->n_frames - 1] = model_location_called(r->m, outermost->function, outermost->line, at);
	}
	warn_cut(r, "the reference it ends with is its last frame's call site");
	return 1;
}

/*
 * What was left of the outermost frame when writing stopped: kept byte for
 * byte as the system name, and named as R shows it, without the reference
 * and the opening quote (`"microbenchmark::` is `microbenchmark::`). A
 * tail that is a reference alone is a call site instead.
 */
static int add_truncated(struct reader *r, const char *tail, size_t len)
{
	int rc = add_cut_call_site(r, tail, len);
	if (rc != 0)
		return rc < 0 ? -1 : 0;
	struct model_function f = { .truncated = 1 };
	size_t shown = 0;
	while (shown < len && isdigit((unsigned char)tail[shown]))
		shown++;
	if (shown < len && tail[shown] == '#')
		while (++shown < len && tail[shown] != ' ')
			;
	shown += shown < len && tail[shown] == ' ';
	size_t end = len;
	if (shown < len && tail[shown] == '"') {
		shown++;
		/* Cut between the closing quote and its space: the name is whole. */
		end -= end > shown && tail[end - 1] == '"';
	}
	if (shown == end)
		shown = 0, end = len;
	r->not_cacheable = 1;
	f.system_name = model_str(r->m, tail, len);
	f.name = model_str(r->m, tail + shown, end - shown);
	push_frame(r, model_location(r->m, model_function(r->m, &f), 0));
	warn_cut(r, "its last frame is kept as truncated");
	return 0;
}

/* 1: a whole "F#L " was read; 0: the line ended inside it; -1: malformed. */
static int parse_ref(const char *s, size_t len, size_t *pos, struct ref *ref)
{
	size_t i = *pos;
	ref->start = i;
	if (parse_u64(s, len, &i, &ref->file) < 0)
		return -1;
	if (i == len)
		return 0;
	if (s[i++] != '#')
		return -1;
	if (i == len)
		return 0;
	if (parse_u64(s, len, &i, &ref->line) < 0)
		return -1;
	if (i == len)
		return 0;
	if (s[i++] != ' ')
		return -1;
	ref->present = 1;
	*pos = i;
	return 1;
}

static int read_memory_prefix(struct reader *r, const char *s, size_t len, size_t *pos,
			      struct model_memory *mem)
{
	uint64_t *fields[4] = { &mem->small_v, &mem->big_v, &mem->nodes, &mem->dup_count };
	size_t i = 0;
	for (int k = 0; k < 4; k++) {
		if (i >= len || s[i++] != ':' || parse_u64(s, len, &i, fields[k]) < 0)
			return fail(r, r->sample_line, "bad memory prefix", s, len);
	}
	if (i >= len || s[i++] != ':')
		return fail(r, r->sample_line, "bad memory prefix", s, len);
	*pos = i;
	return 0;
}

/* Reads the frames after the memory prefix, joining lines as names need. */
static int read_frames(struct reader *r, const char *s, size_t len, size_t pos)
{
	struct ref ref = { 0, 0, 0, 0 };
	while (pos < len) {
		size_t frame_start = ref.present ? ref.start : pos;
		if (s[pos] == '"') {
			long end;
			int rc;
			while ((end = name_end(s, len, pos + 1, r->line_refs)) < 0)
				if ((rc = join_next_line(r, &s, &len)) <= 0) {
					if (rc < 0)
						return -1;
					return add_truncated(r, s + frame_start, len - frame_start);
				}
			if (add_frame(r, s + pos + 1, (size_t)end - pos - 1, &ref) < 0)
				return -1;
			ref.present = 0;
			pos = (size_t)end + 2;
		} else if (r->line_refs && !ref.present && isdigit((unsigned char)s[pos])) {
			int rc = parse_ref(s, len, &pos, &ref);
			if (rc < 0)
				return fail(r, r->sample_line, "bad line reference in", s + pos,
					    len - pos);
			if (rc == 0)
				return add_truncated(r, s + frame_start, len - frame_start);
		} else {
			return fail(r, r->sample_line, "expected a quoted function name at",
				    s + pos, len - pos);
		}
	}
	return ref.present ? add_call_site(r, &ref) : 0;
}

/*
 * Frames of an unquoted run: names end at spaces, each followed by one.
 * A last name with no space after it is where writing stopped.
 */
static int read_unquoted(struct reader *r, const char *s, size_t len, size_t pos)
{
	const struct ref none = { 0, 0, 0, 0 };
	while (pos < len) {
		const char *space = memchr(s + pos, ' ', len - pos);
		if (!space)
			return add_truncated(r, s + pos, len - pos);
		if (add_frame(r, s + pos, (size_t)(space - s) - pos, &none) < 0)
			return -1;
		pos = (size_t)(space - s) + 1;
	}
	return 0;
}

/* R before 2.9 wrote names without quotes: the first sample of a run tells. */
static void decide_quoting(struct reader *r, const char *s, size_t len, size_t pos)
{
	if (r->quoting_known || pos == len)
		return;
	r->quoting_known = 1;
	r->unquoted = s[pos] != '"' && !(r->line_refs && isdigit((unsigned char)s[pos]));
	r->m->sessions.runs[r->m->sessions.n_runs - 1].unquoted = (uint8_t)r->unquoted;
}

/* The stack of the frames in s[pos..len), from the cache or read. */
static int stack_of_frames(struct reader *r, const char *s, size_t len, size_t pos,
			   uint32_t *stack)
{
	uint64_t hash;
	uint32_t hit = text_cache_find(&r->cache, s + pos, len - pos, &hash);
	if (hit != HASHIDX_NONE) {
		*stack = hit;
		return 0;
	}
	r->n_frames = 0;
	r->not_cacheable = 0;
	decide_quoting(r, s, len, pos);
	if ((r->unquoted ? read_unquoted(r, s, len, pos) : read_frames(r, s, len, pos)) < 0)
		return -1;
	*stack = MODEL_EMPTY_STACK;
	for (size_t i = r->n_frames; i-- > 0;)
		*stack = model_stack(r->m, r->frames[i], *stack);
	if (!r->not_cacheable)
		text_cache_add(&r->cache, hash, s + pos, len - pos, *stack);
	return 0;
}

static int read_sample(struct reader *r, const char *s, size_t len)
{
	struct model_memory mem;
	size_t pos = 0;
	r->sample_line = lines_number(&r->lines);
	if (len == 0) {
		return lines_errorf(&r->lines, r->sample_line, "empty line (R never writes one)");
	}
	if (r->memory) {
		if (read_memory_prefix(r, s, len, &pos, &mem) < 0)
			return -1;
	} else if (s[0] == ':') {
		return fail(r, r->sample_line,
			    "memory prefix but the header has no 'memory profiling:'", s, len);
	}
	uint32_t stack;
	if (stack_of_frames(r, s, len, pos, &stack) < 0)
		return -1;
	const int64_t one_tick = 1;
	model_add_sample(r->m, stack, &one_tick, r->memory ? &mem : NULL, 0);
	return 0;
}

static int read_header(struct reader *r, const char *s, size_t len)
{
	int memory, gc, line;
	size_t pos = rprof_header_flags(s, len, &memory, &gc, &line);
	uint64_t interval;
	pos += strlen(RPROF_INTERVAL);
	if (parse_u64(s, len, &pos, &interval) < 0 || pos != len || interval > INT32_MAX)
		return fail(r, lines_number(&r->lines), "bad sample.interval in header", s, len);
	struct model_run run = { 0, interval, (uint8_t)memory, (uint8_t)gc, (uint8_t)line, 0 };
	model_add_run(r->m, &run);
	r->in_run = 1;
	r->memory = memory;
	r->line_refs = line;
	r->quoting_known = r->unquoted = 0;
	/* #File numbering restarts with every run. */
	for (size_t i = 0; i < r->cap_file_paths; i++)
		r->file_paths[i] = MODEL_NONE;
	hashidx_free(&r->numbers_by_path);
	text_cache_clear(&r->cache);
	return 0;
}

static int number_has_path(const void *ctx, uint32_t number, const void *path)
{
	return ((const struct reader *)ctx)->file_paths[number] == *(const uint32_t *)path;
}

static int read_file_line(struct reader *r, const char *s, size_t len)
{
	size_t pos = strlen(RPROF_FILE);
	uint64_t number;
	if (parse_u64(s, len, &pos, &number) < 0 || len - pos < 2 || s[pos] != ':' ||
	    s[pos + 1] != ' ')
		return fail(r, lines_number(&r->lines), "bad #File line", s, len);
	if (number == 0 || number > MAX_FILE_NUMBER)
		return fail(r, lines_number(&r->lines), "#File number out of range in", s, len);
	uint32_t path = model_str(r->m, s + pos + 2, len - pos - 2);
	if (number < r->cap_file_paths && r->file_paths[number] != MODEL_NONE)
		return fail(r, lines_number(&r->lines), "#File number defined twice in one run:", s, len);
	uint64_t h = hash_mix(path, 0);
	uint32_t other = hashidx_find(&r->numbers_by_path, h, number_has_path, r, &path);
	if (other != HASHIDX_NONE) {
		return lines_errorf(&r->lines, 0, "#File %llu repeats the path of #File %u",
				    (unsigned long long)number, other);
	}
	size_t old_cap = r->cap_file_paths;
	grow((void **)&r->file_paths, &r->cap_file_paths, (size_t)number + 1,
	     sizeof *r->file_paths);
	for (size_t i = old_cap; i < r->cap_file_paths; i++)
		r->file_paths[i] = MODEL_NONE;
	r->file_paths[number] = path;
	hashidx_insert(&r->numbers_by_path, h, (uint32_t)number);
	model_add_source_file(r->m, number, path);
	return 0;
}

static int read_line(struct reader *r, const char *s, size_t len)
{
	if (rprof_is_header(s, len))
		return read_header(r, s, len);
	if (!r->in_run)
		return fail(r, lines_number(&r->lines),
			    "not an Rprof file: the first line is not a sample.interval header:",
			    s, len);
	if (starts_with(s, len, RPROF_FILE))
		return read_file_line(r, s, len);
	return read_sample(r, s, len);
}

int rprof_read(struct input *in, struct model *m)
{
	struct reader r;
	memset(&r, 0, sizeof r);
	r.in = in;
	r.m = m;
	lines_begin(&r.lines, in);
	m->rules = (struct model_rules){ .strict_r = 1 };
	model_add_sample_type(m, "samples", "count");
	const char *s;
	size_t len;
	int rc;
	/* Before the header, nothing after a bad line can be read as Rprof. */
	while ((rc = get_line(&r, &s, &len)) != 0)
		if ((rc < 0 || read_line(&r, s, len) < 0) && (!r.in_run || !lines_go_on(&r.lines)))
			break;
	if (!r.lines.failed && !r.in_run)
		lines_errorf(&r.lines, 0, "empty input: no Rprof header");
	m->sessions.crlf = (uint8_t)r.lines.crlf;
	m->sessions.no_final_newline = lines_number(&r.lines) > 0 && !r.lines.final_newline;
	free(r.file_paths);
	hashidx_free(&r.numbers_by_path);
	free(r.frames);
	free(r.joined);
	text_cache_free(&r.cache);
	return r.lines.failed ? -1 : 0;
}
