/*
 * Rprof reader. The grammar and its traps are in shared/formats/rprof.md;
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

#include "../io/diag.h"
#include "../model/alloc.h"
#include "../model/textcache.h"
#include "rprof.h"

/* R stops at 100 files per run; a generous bound keeps the table small. */
enum { MAX_FILE_NUMBER = 1000000 };

struct reader {
	struct input *in;
	struct model *m;
	int in_run, memory, line_refs, crlf;
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
	int bad_line; /* get_line failed on a line it consumed: one can go on after it */
};

struct ref {
	int present;
	size_t start;
	uint64_t file, line;
};

/* A short, printable excerpt of a line for messages. */
static const char *excerpt(const char *s, size_t len)
{
	static char buf[64];
	size_t o = 0;
	for (size_t i = 0; i < len && o < sizeof buf - 8; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c >= 0x20 && c < 0x7f && c != '\\')
			buf[o++] = (char)c;
		else
			o += (size_t)snprintf(buf + o, sizeof buf - o, "\\x%02x", c);
	}
	if (o >= sizeof buf - 8 && len > 0)
		o += (size_t)snprintf(buf + o, sizeof buf - o, "...");
	buf[o] = '\0';
	return buf;
}

static int fail(struct reader *r, uint64_t line, const char *what, const char *s, size_t len)
{
	diag_error(r->in->name, line, "%s '%s'", what, excerpt(s, len));
	return -1;
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
	if (s[0] == '"' || (s[0] == ':' && r->memory) || rprof_starts_with(s, len, RPROF_FILE))
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

static int get_line(struct reader *r, const char **s, size_t *len)
{
	int rc = input_get_line(r->in, s, len);
	if (rc <= 0)
		return rc;
	if (r->crlf && *len > 0 && (*s)[*len - 1] == '\r')
		(*len)--;
	/* Before the header, read_line says "not an Rprof file" instead. */
	if (r->in_run && memchr(*s, '\0', *len)) {
		r->bad_line = 1;
		return fail(r, r->in->line, "NUL byte in line", *s, *len);
	}
	return 1;
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
		input_unget_line(r->in);
		return 0;
	}
	if (*len + 1 + next_len > r->in->max_line) {
		diag_error(r->in->name, r->sample_line, "sample longer than %zu bytes",
			   r->in->max_line);
		return -1;
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

static int add_frame(struct reader *r, const char *name, size_t len, const struct ref *ref)
{
	struct model_function f = { 0 };
	int64_t line = 0;
	if (len == 0) {
		diag_error(r->in->name, r->sample_line, "empty function name \"\"");
		return -1;
	}
	f.name = f.system_name = model_str(r->m, name, len);
	if (ref->present) {
		if (ref->file >= r->cap_file_paths || r->file_paths[ref->file] == MODEL_NONE) {
			diag_error(r->in->name, r->sample_line,
				   "line reference %llu#%llu names undefined #File %llu",
				   (unsigned long long)ref->file, (unsigned long long)ref->line,
				   (unsigned long long)ref->file);
			return -1;
		}
		if (ref->line == 0 || ref->line > INT64_MAX) {
			diag_error(r->in->name, r->sample_line,
				   "line reference %llu#%llu: lines are numbered from 1",
				   (unsigned long long)ref->file, (unsigned long long)ref->line);
			return -1;
		}
		f.file_name = r->file_paths[ref->file];
		line = (int64_t)ref->line;
	}
	push_frame(r, model_location(r->m, model_function(r->m, &f), line));
	return 0;
}

/* What R's line buffer left of the outermost frame, kept byte for byte. */
static void add_truncated(struct reader *r, const char *tail, size_t len)
{
	struct model_function f = { .truncated = 1 };
	r->not_cacheable = 1;
	f.name = f.system_name = model_str(r->m, tail, len);
	push_frame(r, model_location(r->m, model_function(r->m, &f), 0));
	if (!r->warned_truncated)
		diag_warn(r->in->name, r->sample_line,
			  "sample cut short by R's line buffer; its last frame is kept as truncated");
	r->warned_truncated = 1;
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
					add_truncated(r, s + frame_start, len - frame_start);
					return 0;
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
			if (rc == 0) {
				add_truncated(r, s + frame_start, len - frame_start);
				return 0;
			}
		} else {
			return fail(r, r->sample_line, "expected a quoted function name at",
				    s + pos, len - pos);
		}
	}
	if (ref.present)
		add_truncated(r, s + ref.start, len - ref.start);
	return 0;
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
	if (read_frames(r, s, len, pos) < 0)
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
	r->sample_line = r->in->line;
	if (len == 0) {
		diag_error(r->in->name, r->sample_line, "empty line (R never writes one)");
		return -1;
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
		return fail(r, r->in->line, "bad sample.interval in header", s, len);
	struct model_run run = { 0, interval, (uint8_t)memory, (uint8_t)gc, (uint8_t)line };
	model_add_run(r->m, &run);
	r->in_run = 1;
	r->memory = memory;
	r->line_refs = line;
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
		return fail(r, r->in->line, "bad #File line", s, len);
	if (number == 0 || number > MAX_FILE_NUMBER)
		return fail(r, r->in->line, "#File number out of range in", s, len);
	uint32_t path = model_str(r->m, s + pos + 2, len - pos - 2);
	if (number < r->cap_file_paths && r->file_paths[number] != MODEL_NONE)
		return fail(r, r->in->line, "#File number defined twice in one run:", s, len);
	uint64_t h = hash_mix(path, 0);
	uint32_t other = hashidx_find(&r->numbers_by_path, h, number_has_path, r, &path);
	if (other != HASHIDX_NONE) {
		diag_error(r->in->name, r->in->line, "#File %llu repeats the path of #File %u",
			   (unsigned long long)number, other);
		return -1;
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
		return fail(r, r->in->line,
			    "not an Rprof file: the first line is not a sample.interval header:",
			    s, len);
	if (rprof_starts_with(s, len, RPROF_FILE))
		return read_file_line(r, s, len);
	return read_sample(r, s, len);
}

int rprof_read(struct input *in, struct model *m)
{
	struct reader r;
	memset(&r, 0, sizeof r);
	r.in = in;
	r.m = m;
	model_add_sample_type(m, "samples", "count");
	const char *s;
	size_t len;
	int rc;
	int failed = 0;
	while ((rc = get_line(&r, &s, &len)) != 0) {
		if (rc < 0) {
			failed = 1;
			if (r.bad_line && diag_go_on()) {
				r.bad_line = 0;
				continue;
			}
			break;
		}
		if (in->line == 1 && len > 0 && s[len - 1] == '\r') {
			r.crlf = 1;
			len--;
		}
		/* Before the header, nothing after it can be read as Rprof. */
		if (read_line(&r, s, len) < 0 && (failed = 1) && (!r.in_run || !diag_go_on()))
			break;
	}
	if (failed)
		rc = -1;
	if (rc == 0 && !r.in_run) {
		diag_error(in->name, 0, "empty input: no Rprof header");
		rc = -1;
	}
	free(r.file_paths);
	hashidx_free(&r.numbers_by_path);
	free(r.frames);
	free(r.joined);
	text_cache_free(&r.cache);
	return rc < 0 ? -1 : 0;
}
