/*
 * Java thread dump reader (docs/formats/jstack.md). Each thread of each
 * dump is one sample: its stack the thread's name (without a trailing
 * "-DIGITS") as the root, then its frames, outermost first; its labels the
 * thread's whole name and its state. Two sample types: `runnable`, the
 * threads stackcollapse-jstack.pl counts (RUNNABLE, but the JVM's
 * background threads and those in epoll or a socket's accept or read),
 * and `threads`, every thread. A thread ends at a blank line, as the
 * script ends it; lines no dump holds (a transcript's prompts, a
 * program's own output, the SMR info block) are passed over, and a prefix
 * a console put before "Full thread dump" is taken off the lines after it.
 */
#include <stdint.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/ascii.h"
#include "../io/lines.h"
#include "../model/textcache.h"
#include "format.h"
#include "jstack.h"

int jstack_read(struct input *in, struct model *m);

/* What stackcollapse-jstack.pl makes of a thread's state, for `runnable`. */
enum verdict {
	UNKNOWN,     /* no state line yet: the script's "?" */
	RUNNABLE,
	OTHER,       /* another state, or a background thread, or one waiting on I/O */
};

struct reader {
	struct lines lines;
	struct model *m;
	struct text_cache frame_lines; /* a frame line's location */
	uint32_t *frames;              /* the open thread's, leaf first */
	size_t n_frames, cap_frames;
	char *name;                    /* the open thread's name, when it has one */
	size_t name_len, cap_name;
	int has_name, dump_to_file;
	uint32_t state;                /* the state label's string, or MODEL_NONE */
	enum verdict verdict;
	int stated;                    /* some thread of the input gave a state */
	uint64_t threads;
	char *console;                 /* the prefix a console put on the dump's lines ("[info] ") */
	size_t console_len, cap_console;
	uint32_t key_thread, key_state;
};

/* A thread's name as its root frame: a trailing "-DIGITS" (a pool's numbering) removed. */
static uint32_t root_of(struct reader *r)
{
	size_t n = r->name_len;
	while (n > 0 && is_digit(r->name[n - 1]))
		n--;
	if (n < r->name_len && n > 0 && r->name[n - 1] == '-')
		n--;
	else
		n = r->name_len;
	struct model_function f = { .name = model_str(r->m, r->name, n) };
	return model_location(r->m, model_function(r->m, &f), 0);
}

static uint32_t labels_of(struct reader *r)
{
	struct model_label labels[2];
	size_t n = 0;
	if (r->has_name)
		labels[n++] = (struct model_label){ r->key_thread, model_str(r->m, r->name, r->name_len), 0, 0 };
	if (r->state != MODEL_NONE)
		labels[n++] = (struct model_label){ r->key_state, r->state, 0, 0 };
	return model_label_set(r->m, labels, n);
}

/* The open thread as a sample, when it has a name or frames; then none is open. */
static void end_thread(struct reader *r)
{
	if (r->has_name || r->n_frames) {
		/* An empty name (JDK 21's virtual threads) is no frame: the script's empty first frame names nothing. */
		uint32_t stack = r->has_name && r->name_len ? model_stack(r->m, root_of(r), MODEL_EMPTY_STACK) : MODEL_EMPTY_STACK;
		for (size_t i = r->n_frames; i-- > 0;)
			stack = model_stack(r->m, r->frames[i], stack);
		int64_t values[2] = { r->verdict == RUNNABLE, 1 };
		model_add_sample(r->m, stack, values, NULL, labels_of(r));
		r->threads++;
	}
	r->n_frames = 0;
	r->has_name = r->dump_to_file = 0;
	r->state = MODEL_NONE;
	r->verdict = UNKNOWN;
}

/* The first state a thread gives is its own, as in the script. */
static void set_state(struct reader *r, struct jstack_text state)
{
	if (state.len == 0)
		return;
	r->stated = 1;
	if (r->state == MODEL_NONE)
		r->state = model_str(r->m, state.s, state.len);
	if (r->verdict == UNKNOWN)
		r->verdict = state.len == 8 && memcmp(state.s, "RUNNABLE", 8) == 0 ? RUNNABLE : OTHER;
}

static int ends_with(const char *s, size_t len, const char *suffix)
{
	size_t n = strlen(suffix);
	return len >= n && memcmp(s + len - n, suffix, n) == 0;
}

/* The JVM's own threads the script leaves out whatever their state: `C. CompilerThread` and three names. */
static int is_background(const char *s, size_t len)
{
	for (size_t i = 2; i + 15 <= len; i++)
		if (s[i - 2] == 'C' && memcmp(s + i, " CompilerThread", 15) == 0)
			return 1;
	return jstack_has(s, len, "Signal Dispatcher") || jstack_has(s, len, "Service Thread") ||
	       jstack_has(s, len, "Attach Listener");
}

/* A thread waiting on I/O, by its frame, as the script tells them: not running. */
static int is_waiting_frame(const char *s, size_t len)
{
	if (jstack_has(s, len, "epollWait") || ends_with(s, len, "socketAccept") || ends_with(s, len, "socketRead0"))
		return 1;
	if (!ends_with(s, len, "accept0"))
		return 0;
	return jstack_has(s, len - 7, "Socket");
}

static void header(struct reader *r, const struct jstack_header *h)
{
	grow((void **)&r->name, &r->cap_name, h->name.len + 1, 1);
	memcpy(r->name, h->name.s, h->name.len);
	r->name_len = h->name.len;
	r->has_name = 1;
	r->dump_to_file = h->dump_to_file;
	if (is_background(h->name.s, h->name.len))
		r->verdict = OTHER;
	set_state(r, h->state);
}

/*
 * A frame: its name the text up to the first '(' (the script's), its file
 * and line from "(FILE:LINE)" when the parentheses hold them (after the
 * module, "java.base@17/Thread.java:840").
 */
static uint32_t location_of(struct reader *r, const char *s, size_t len)
{
	const char *open = memchr(s, '(', len);
	size_t name_len = open ? (size_t)(open - s) : len;
	struct model_function f = { .name = model_str(r->m, s, name_len) };
	int64_t line = 0;
	const char *close = open ? memchr(open, ')', len - name_len) : NULL;
	if (close) {
		const char *file = open + 1, *colon = NULL;
		for (const char *p = file; p < close; p++)
			if (*p == '/')
				file = p + 1;
			else if (*p == ':')
				colon = p;
		if (colon && colon > file && close - colon > 1 && close - colon < 12) {
			int64_t v = 0;
			const char *p = colon + 1;
			while (p < close && is_digit(*p))
				v = v * 10 + (*p++ - '0');
			if (p == close) {
				f.file_name = model_str(r->m, file, (size_t)(colon - file));
				line = v;
			}
		}
	}
	return model_location(r->m, model_function(r->m, &f), line);
}

static void frame(struct reader *r, const char *s, size_t len)
{
	uint64_t hash;
	uint32_t location = text_cache_find(&r->frame_lines, s, len, &hash);
	if (location == HASHIDX_NONE) {
		location = location_of(r, s, len);
		text_cache_add(&r->frame_lines, hash, s, len, location);
	}
	const char *open = memchr(s, '(', len);
	if (is_waiting_frame(s, open ? (size_t)(open - s) : len))
		r->verdict = OTHER;
	grow((void **)&r->frames, &r->cap_frames, r->n_frames + 1, sizeof *r->frames);
	r->frames[r->n_frames++] = location;
}

/* A frame of dump_to_file's JDK 21 form: indented, without `at`; not a `- locked` line. */
static int bare_frame(const char *s, size_t len, struct jstack_text *t)
{
	size_t i = 0;
	while (i < len && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (i == 0 || i == len || s[i] == '-')
		return 0;
	*t = (struct jstack_text){ s + i, len - i };
	return 1;
}

static void line(struct reader *r, const char *s, size_t len)
{
	struct jstack_header h;
	struct jstack_text t;
	if (len == 0) {
		end_thread(r);
	} else if (jstack_parse_header(s, len, &h)) {
		header(r, &h);
	} else if (s[0] == '#') {
		/* A comment, as the script skips it. */
	} else if (jstack_parse_state(s, len, &t)) {
		set_state(r, t);
	} else if (jstack_parse_at(s, len, &t) || (r->dump_to_file && bare_frame(s, len, &t))) {
		frame(r, t.s, t.len);
	}
}

static int read_dumps(struct reader *r)
{
	const char *s;
	size_t len;
	int got;
	while ((got = lines_next(&r->lines, &s, &len)) != 0) {
		if (got < 0) {
			if (!lines_go_on(&r->lines))
				return -1;
			continue;
		}
		/* A CR LF transcript (script(1)) whose first line ended in LF alone. */
		if (len > 0 && s[len - 1] == '\r')
			len--;
		size_t dump = jstack_dump_start(s, len);
		if (dump != SIZE_MAX) {
			grow((void **)&r->console, &r->cap_console, dump + 1, 1);
			memcpy(r->console, s, dump);
			r->console_len = dump;
		}
		jstack_unprefix(r->console, r->console_len, &s, &len);
		line(r, s, len);
	}
	end_thread(r);
	if (r->lines.failed)
		return -1;
	/* Text with no thread in it is no dump, whatever -f says: an empty profile would hide that. */
	if (r->threads == 0)
		return lines_errorf(&r->lines, lines_number(&r->lines),
				    "no thread of a Java thread dump (no \"NAME\" or #N \"NAME\" header, no \"at\" frame)");
	return 0;
}

int jstack_read(struct input *in, struct model *m)
{
	struct reader r;
	memset(&r, 0, sizeof r);
	r.m = m;
	r.state = MODEL_NONE;
	lines_begin(&r.lines, in);
	m->rules.strict_r = 0;
	model_add_sample_type(m, "runnable", "count");
	model_add_sample_type(m, "threads", "count");
	r.key_thread = model_str(m, "thread", 6);
	r.key_state = model_str(m, "state", 5);
	int rc = read_dumps(&r);
	/* A dump without states (JDK 21's dump_to_file) has no runnable thread to show: its threads are the view. */
	model_set_meta(m, "default_sample_type", r.stated ? "runnable" : "threads");
	text_cache_free(&r.frame_lines);
	free(r.frames);
	free(r.name);
	free(r.console);
	return rc;
}
