/*
 * perf script reader (docs/formats/perf.md). Samples stay in the order
 * perf prints them (time order). Each sample's stack is its frames, leaf
 * first, under a root frame for its command, as stackcollapse-perf.pl
 * folds them; frames are named as that script names them (offsets and
 * argument lists cut, "[unknown]" as "[DSO]"), with the symbol as
 * printed (offset cut) as the function's system name and the address and
 * DSO as location and mapping. pid, tid and cpu are labels, and so is a
 * tracepoint's payload ("trace"). The reader's options are
 * stackcollapse-perf.pl's that change names (perf.c declares them): the
 * root frame with the process and thread, kernel and JIT frames marked,
 * unknown frames with their address.
 *
 * Sample types come two per event, in the order events first appear: the
 * period (what stackcollapse-perf.pl sums: nanoseconds for cpu-clock and
 * task-clock, else a count of events; 1 when perf prints none) and the
 * number of samples. The first event's period is the default. A sample
 * has values only for its own event. Memory grows with distinct frames
 * and stacks; rows stream.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/ascii.h"
#include "../base/checked.h"
#include "../base/diag.h"
#include "../io/lines.h"
#include "../model/textcache.h"
#include "format.h"
#include "perf.h"

enum { MAX_EVENTS = 64, MAX_FRAMES = 1 << 16 };

struct frame_key {
	uint64_t address;
	uint32_t symbol, dso; /* string ids, as printed */
};

/* stackcollapse-perf.pl's options, as given to the reader. */
struct naming {
	int pid, tid;      /* the root frame: COMM-PID, COMM-PID/TID */
	int kernel, jit;   /* frames of the kernel end in "_[k]", of a JIT map in "_[j]" */
	int addrs;         /* an unknown frame names its address: "[DSO <ADDR>]" */
};

struct reader {
	struct lines lines;
	struct model *m;
	struct naming naming;
	uint32_t events[MAX_EVENTS]; /* string ids of the event names, in the order met */
	size_t n_events;
	int64_t values[2 * MAX_EVENTS];
	/* Frames met, (address, symbol, dso), and their locations. */
	struct frame_key *keys;
	uint32_t *key_location;
	size_t n_keys, cap_keys, cap_key_location;
	struct hashidx key_index;
	/*
	 * Frame lines met, whole, and their locations: a recording repeats
	 * the same few thousand frame lines, and one lookup of the line
	 * spares parsing it and looking up its symbol, DSO and key.
	 */
	struct text_cache frame_lines;
	uint32_t *mapping_of_dso; /* by string id; MODEL_NONE: none yet */
	size_t cap_mapping_of_dso;
	/*
	 * The last plain header's command, thread, CPU and event, and what
	 * they made: samples mostly repeat them, so the strings, root frame
	 * and label set need not be looked up again.
	 */
	struct header_memo {
		char *text; /* the command, then the event */
		size_t cap_text, comm_len, event_len;
		int64_t pid, tid, cpu;
		size_t period_type;
		uint32_t root, labels;
		int java, valid;
	} memo;
	/* The sample being read. */
	int open, java;
	size_t period_type;
	int64_t period;
	uint32_t root, labels;
	uint32_t *frames; /* locations, leaf first */
	size_t n_frames, cap_frames;
	char *scratch;
	size_t cap_scratch;
	uint64_t samples;
	uint64_t messages, first_message; /* lines before the first sample, and the first's number */
	uint32_t comment;
	/* Times in ns: the first sample's, and the sample's from it (rows carry them). */
	int64_t first_time, time;
};

static uint32_t str(struct reader *r, const char *s, size_t len)
{
	return model_str(r->m, s, len);
}

static int text_is(struct perf_text t, const char *s)
{
	return t.len == strlen(s) && memcmp(t.s, s, t.len) == 0;
}

/* The period's unit: perf's clock events count nanoseconds. */
static const char *period_unit(struct perf_text event)
{
	size_t base = 0;
	while (base < event.len && event.s[base] != ':')
		base++;
	struct perf_text name = { event.s, base };
	return text_is(name, "cpu-clock") || text_is(name, "task-clock") ? "nanoseconds" : "count";
}

/* The event's period type (its count type follows); -1 when there are too many events. */
static int event_types(struct reader *r, struct perf_text event, size_t *type)
{
	uint32_t id = str(r, event.s, event.len);
	for (size_t i = 0; i < r->n_events; i++)
		if (r->events[i] == id) {
			*type = 2 * i;
			return 0;
		}
	if (r->n_events == MAX_EVENTS)
		return lines_errorf(&r->lines, 0, "more than %d events", MAX_EVENTS);
	char name[300];
	size_t n = event.len < 280 ? event.len : 280;
	memcpy(name, event.s, n);
	name[n] = '\0';
	model_add_sample_type(r->m, name, period_unit(event));
	if (r->n_events == 0)
		model_set_meta(r->m, "default_sample_type", name);
	memcpy(name + n, ":samples", sizeof ":samples");
	model_add_sample_type(r->m, name, "count");
	r->events[r->n_events++] = id;
	*type = 2 * (r->n_events - 1);
	return 0;
}

static char *scratch(struct reader *r, size_t len)
{
	grow((void **)&r->scratch, &r->cap_scratch, len + 3, 1);
	return r->scratch;
}

/* perf prints addresses and symbol offsets in lower case only. */
static int is_lower_hex(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'f');
}

/* The symbol without its last "+0xOFFSET" ("operator++0x12" is operator+). */
static struct perf_text without_offset(struct perf_text sym)
{
	size_t i = sym.len;
	while (i > 0 && is_lower_hex(sym.s[i - 1]))
		i--;
	if (i < sym.len && i >= 3 && memcmp(sym.s + i - 3, "+0x", 3) == 0)
		sym.len = i - 3;
	return sym;
}

/* A Go method, "pkg.(*T).M": a '(' after a '.', and ")." later. */
static int is_go_method(struct perf_text t)
{
	for (size_t i = 1; i < t.len; i++)
		if (t.s[i] == '(' && t.s[i - 1] == '.')
			for (size_t k = i + 1; k + 1 < t.len; k++)
				if (t.s[k] == ')' && t.s[k + 1] == '.')
					return 1;
	return 0;
}

/* Where stackcollapse-perf.pl cuts an argument list: the first '(' that opens no "(anonymous namespace)". */
static size_t arguments_at(struct perf_text t)
{
	for (size_t i = 0; i < t.len; i++) {
		if (t.s[i] != '(')
			continue;
		if (!starts_with(t.s + i, t.len - i, "(anonymous namespace)"))
			return i;
		i += strlen("(anonymous namespace)") - 1;
	}
	return t.len;
}

enum { ADDRESS_TEXT = sizeof " <ffffffffffffffff>" };

/*
 * "[unknown]" in a known DSO is named by the DSO's file name: "[libR.so]";
 * with --addrs, either one with the address: "[libR.so <7f3a12>]".
 */
static struct perf_text unknown_name(struct reader *r, struct perf_text dso, uint64_t address)
{
	size_t base = dso.len;
	while (base > 0 && dso.s[base - 1] != '/')
		base--;
	if (text_is(dso, "[unknown]"))
		dso = (struct perf_text){ "unknown", 7 }, base = 0;
	char *s = scratch(r, dso.len - base + ADDRESS_TEXT);
	size_t n = 0;
	s[n++] = '[';
	memcpy(s + n, dso.s + base, dso.len - base);
	n += dso.len - base;
	if (r->naming.addrs)
		n += (size_t)sprintf(s + n, " <%" PRIx64 ">", address);
	s[n++] = ']';
	return (struct perf_text){ s, n };
}

/* The frame's name as stackcollapse-perf.pl writes it, in the scratch buffer. */
static struct perf_text collapsed_name(struct reader *r, struct perf_text sym, struct perf_text dso, uint64_t address)
{
	if (text_is(sym, "[unknown]") && (r->naming.addrs || !text_is(dso, "[unknown]")))
		return unknown_name(r, dso, address);
	size_t end = is_go_method(sym) ? sym.len : arguments_at(sym);
	char *s = scratch(r, sym.len);
	size_t n = 0, from = r->java && end > 1 && sym.s[0] == 'L' && memchr(sym.s, '/', end) ? 1 : 0;
	for (size_t i = from; i < end; i++)
		if (sym.s[i] != '"' && sym.s[i] != '\'')
			s[n++] = sym.s[i] == ';' ? ':' : sym.s[i];
	if (n == 0) /* a symbol that is all argument list ("(foo)"): keep it whole */
		return sym;
	return (struct perf_text){ s, n };
}

/* Does `t` hold `word`? */
static int text_has(struct perf_text t, const char *word)
{
	size_t n = strlen(word);
	for (size_t i = 0; i + n <= t.len; i++)
		if (memcmp(t.s + i, word, n) == 0)
			return 1;
	return 0;
}

/* The kernel's frames, as --kernel tells them: a DSO "[...]" or ".../vmlinux", not "[unknown]". */
static int is_kernel(struct perf_text dso)
{
	return (dso.len && (dso.s[0] == '[' || (dso.len >= 7 && memcmp(dso.s + dso.len - 7, "vmlinux", 7) == 0))) &&
	       !text_has(dso, "unknown");
}

/* A JIT's frames, as --jit tells them: its symbol map, "/tmp/perf-PID.map". */
static int is_jit(struct perf_text dso)
{
	for (size_t i = 0; i + 10 <= dso.len; i++) {
		if (memcmp(dso.s + i, "/tmp/perf-", 10) != 0)
			continue;
		size_t k = i + 10;
		while (k < dso.len && is_digit(dso.s[k]))
			k++;
		if (k > i + 10 && k + 4 <= dso.len && dso.s[k] == '.' && memcmp(dso.s + k + 1, "map", 3) == 0)
			return 1;
	}
	return 0;
}

/* The name with --kernel's or --jit's mark, in the scratch buffer (which it may be in already). */
static struct perf_text marked(struct reader *r, struct perf_text name, struct perf_text dso)
{
	const char *mark = r->naming.kernel && is_kernel(dso) ? "_[k]"
			 : r->naming.jit && is_jit(dso) && !text_has(name, "_[j]") ? "_[j]" : NULL;
	if (!mark)
		return name;
	if (name.s != r->scratch)
		memcpy(scratch(r, name.len + 4), name.s, name.len);
	else
		scratch(r, name.len + 4);
	memcpy(r->scratch + name.len, mark, 4);
	return (struct perf_text){ r->scratch, name.len + 4 };
}

static uint32_t function_of(struct reader *r, struct perf_text sym, struct perf_text dso, uint64_t address)
{
	sym = without_offset(sym);
	if (sym.len == 0)
		sym = (struct perf_text){ "[unknown]", 9 };
	struct perf_text name = marked(r, collapsed_name(r, sym, dso, address), dso);
	struct model_function f = { str(r, name.s, name.len), str(r, sym.s, sym.len), 0, 0, 0, 0, { 0, 0, 0, 0 } };
	return model_function(r->m, &f);
}

/* A DSO's mapping, one per name; perf's "(inlined)" frames have none. */
static uint32_t mapping_of(struct reader *r, struct perf_text dso, uint32_t dso_id)
{
	if (text_is(dso, "inlined"))
		return MODEL_NONE;
	size_t old = r->cap_mapping_of_dso;
	grow((void **)&r->mapping_of_dso, &r->cap_mapping_of_dso, (size_t)dso_id + 1, sizeof *r->mapping_of_dso);
	memset(r->mapping_of_dso + old, 0xff, (r->cap_mapping_of_dso - old) * sizeof *r->mapping_of_dso);
	if (r->mapping_of_dso[dso_id] == MODEL_NONE) {
		struct model_mapping mm = { 0, 0, 0, 0, dso_id, 0, 1, 0, 0, 0 };
		r->mapping_of_dso[dso_id] = model_add_mapping(r->m, &mm);
	}
	return r->mapping_of_dso[dso_id];
}

static int key_equals(const void *ctx, uint32_t id, const void *key)
{
	const struct frame_key *a = &((const struct reader *)ctx)->keys[id], *b = key;
	return a->address == b->address && a->symbol == b->symbol && a->dso == b->dso;
}

/* The location of a frame line, made the first time it is met. */
static uint32_t location_of(struct reader *r, const struct perf_frame *f)
{
	struct frame_key key = { f->address, str(r, f->symbol.s, f->symbol.len), str(r, f->dso.s, f->dso.len) };
	uint64_t h = hash_mix(hash_mix(key.address, key.symbol), key.dso);
	uint32_t id = hashidx_find(&r->key_index, h, key_equals, r, &key);
	if (id != HASHIDX_NONE)
		return r->key_location[id];
	struct model_location l;
	memset(&l, 0, sizeof l);
	l.function = function_of(r, f->symbol, f->dso, f->address);
	l.native.mapping = mapping_of(r, f->dso, key.dso);
	l.native.address = f->address;
	grow((void **)&r->keys, &r->cap_keys, r->n_keys + 1, sizeof *r->keys);
	grow((void **)&r->key_location, &r->cap_key_location, r->n_keys + 1, sizeof *r->key_location);
	r->keys[r->n_keys] = key;
	r->key_location[r->n_keys] = model_add_location(r->m, &l, NULL, 0);
	hashidx_insert(&r->key_index, h, (uint32_t)r->n_keys);
	return r->key_location[r->n_keys++];
}

static int add_location(struct reader *r, uint32_t location)
{
	if (r->n_frames == MAX_FRAMES)
		return lines_errorf(&r->lines, 0, "a stack deeper than %d frames", MAX_FRAMES);
	grow((void **)&r->frames, &r->cap_frames, r->n_frames + 1, sizeof *r->frames);
	r->frames[r->n_frames++] = location;
	return 0;
}

static int add_frame(struct reader *r, const struct perf_frame *f)
{
	return add_location(r, location_of(r, f));
}

/* A tab-indented frame line of an open sample. */
static int add_frame_line(struct reader *r, const char *s, size_t len)
{
	uint64_t hash;
	uint32_t location = text_cache_find(&r->frame_lines, s, len, &hash);
	if (location != HASHIDX_NONE)
		return add_location(r, location);
	struct perf_frame f;
	if (!perf_parse_frame(s, len, &f))
		return lines_skip(&r->lines, "not a frame", s, len);
	location = location_of(r, &f);
	text_cache_add(&r->frame_lines, hash, s, len, location);
	return add_location(r, location);
}

/*
 * With --pid, "-PID" after the command; with --tid, "-PID/TID". A line
 * without the pid has "?" for it, and so has one whose tid is 0: the
 * script takes a tid of 0 for none, and the pid for the tid.
 */
static size_t thread_suffix(const struct reader *r, const struct perf_header *h, char *s)
{
	int both = h->pid >= 0 && h->tid != 0;
	int64_t tid = both || h->pid < 0 ? h->tid : h->pid;
	char pid[24] = "?";
	if (both)
		sprintf(pid, "%" PRId64, h->pid);
	if (r->naming.tid)
		return (size_t)sprintf(s, "-%s/%" PRId64, pid, tid);
	return r->naming.pid ? (size_t)sprintf(s, "-%s", pid) : 0;
}

/* The command as the root frame: its blanks as '_', as stackcollapse-perf.pl writes it. */
static uint32_t root_of(struct reader *r, const struct perf_header *h)
{
	struct perf_text comm = h->comm;
	char *s = scratch(r, comm.len + 48);
	for (size_t i = 0; i < comm.len; i++)
		s[i] = comm.s[i] == ' ' || comm.s[i] == '\t' ? '_' : comm.s[i];
	size_t n = comm.len + thread_suffix(r, h, s + comm.len);
	struct model_function f = { str(r, s, n), str(r, comm.s, comm.len), 0, 0, 0, 0, { 0, 0, 0, 0 } };
	return model_location(r->m, model_function(r->m, &f), 0);
}

static uint32_t labels_of(struct reader *r, const struct perf_header *h, int payload)
{
	struct model_label labels[4];
	size_t n = 0;
	if (h->pid >= 0)
		labels[n++] = (struct model_label){ str(r, "pid", 3), 0, h->pid, 0 };
	labels[n++] = (struct model_label){ str(r, "tid", 3), 0, h->tid, 0 };
	if (h->cpu >= 0)
		labels[n++] = (struct model_label){ str(r, "cpu", 3), 0, h->cpu, 0 };
	if (payload)
		labels[n++] = (struct model_label){ str(r, "trace", 5), str(r, h->rest.s, h->rest.len), 0, 0 };
	return model_label_set(r->m, labels, n);
}

static void end_sample(struct reader *r)
{
	if (!r->open)
		return;
	uint32_t stack = model_stack(r->m, r->root, MODEL_EMPTY_STACK);
	for (size_t i = r->n_frames; i-- > 0;)
		stack = model_stack(r->m, r->frames[i], stack);
	memset(r->values, 0, r->m->n_sample_types * sizeof *r->values);
	r->values[r->period_type] = r->period;
	r->values[r->period_type + 1] = 1;
	model_add_samples(r->m, stack, r->values, NULL, r->labels, 1, r->time);
	r->samples++;
	r->open = 0;
	r->n_frames = 0;
}

/* "SECONDS.FRACTION" in ns; -1 past 2^63. */
static int64_t time_ns(struct perf_text t)
{
	int64_t ns = 0, digits = 0, scale = 1000000000;
	size_t i = 0;
	for (; i < t.len && t.s[i] != '.'; i++)
		if (checked_mul_i64(ns, 10, &ns) || checked_add_i64(ns, t.s[i] - '0', &ns))
			return -1;
	if (checked_mul_i64(ns, scale, &ns))
		return -1;
	for (i++; i < t.len && scale > 1; i++) {
		scale /= 10;
		digits = digits * 10 + (t.s[i] - '0');
	}
	return checked_add_i64(ns, digits * scale, &ns) ? -1 : ns;
}

/*
 * The sample's time, from the first's. The first sample's header says
 * whether rows carry times (old perf printed none). perf script prints
 * samples sorted by time; one that goes back keeps the time before it,
 * so that a time window stays one window of samples.
 */
static int take_time(struct reader *r, const struct perf_header *h)
{
	int first = r->samples == 0; /* the sample before, if any, has ended */
	if (first)
		r->m->timed_rows = h->time.len > 0;
	if (!r->m->timed_rows || h->time.len == 0)
		return 0;
	int64_t t = time_ns(h->time);
	if (t < 0)
		return lines_errorf(&r->lines, 0, "a time past 2^63 nanoseconds");
	if (first)
		r->first_time = t;
	if (t - r->first_time > r->time)
		r->time = t - r->first_time;
	return 0;
}

static int same_header(const struct header_memo *k, const struct perf_header *h)
{
	return k->valid && h->rest.len == 0 && k->pid == h->pid && k->tid == h->tid && k->cpu == h->cpu &&
	       k->comm_len == h->comm.len && k->event_len == h->event.len &&
	       memcmp(k->text, h->comm.s, h->comm.len) == 0 &&
	       memcmp(k->text + h->comm.len, h->event.s, h->event.len) == 0;
}

/* Keeps what a header without payload or frame made, for the next like it. */
static void remember_header(struct reader *r, const struct perf_header *h)
{
	struct header_memo *k = &r->memo;
	k->valid = h->rest.len == 0;
	if (!k->valid)
		return;
	grow((void **)&k->text, &k->cap_text, h->comm.len + h->event.len, 1);
	memcpy(k->text, h->comm.s, h->comm.len);
	memcpy(k->text + h->comm.len, h->event.s, h->event.len);
	k->comm_len = h->comm.len;
	k->event_len = h->event.len;
	k->pid = h->pid;
	k->tid = h->tid;
	k->cpu = h->cpu;
	k->period_type = r->period_type;
	k->root = r->root;
	k->labels = r->labels;
	k->java = r->java;
}

/* A header starts a sample; a recording without call graphs has its one frame on it. */
static int start_sample(struct reader *r, const struct perf_header *h)
{
	end_sample(r);
	if (same_header(&r->memo, h)) {
		r->period_type = r->memo.period_type;
		r->period = h->has_period ? h->period : 1;
		r->java = r->memo.java;
		r->root = r->memo.root;
		r->labels = r->memo.labels;
		r->open = 1;
		return take_time(r, h);
	}
	if (event_types(r, h->event, &r->period_type) < 0 || take_time(r, h) < 0)
		return -1;
	struct perf_frame lone;
	int has_frame = h->rest.len && perf_parse_frame(h->rest.s, h->rest.len, &lone);
	r->period = h->has_period ? h->period : 1;
	/* The script tidies Java's names when the root frame is "java", so not with --pid or --tid. */
	r->java = starts_with(h->comm.s, h->comm.len, "java") && !r->naming.pid && !r->naming.tid;
	r->root = root_of(r, h);
	r->labels = labels_of(r, h, h->rest.len && !has_frame);
	r->open = 1;
	remember_header(r, h);
	return has_frame ? add_frame(r, &lone) : 0;
}

/* Before the first sample, perf's own messages (its stderr, saved with the text): one warning. */
static void messages_skipped(struct reader *r)
{
	if (r->messages == 0 || r->samples > 0 || r->open)
		return;
	diag_warn(r->lines.in->name, r->first_message, "%" PRIu64 " line%s before the first sample, not perf script "
		  "(perf's own messages?), skipped", r->messages, r->messages == 1 ? "" : "s");
}

static int read_line(struct reader *r, const char *s, size_t len)
{
	struct perf_header h;
	struct perf_frame f;
	if (perf_is_binary(s, len))
		return lines_error(&r->lines, 0, "binary data in perf script text (a perf.data file?)", s, len);
	if (len == 0) {
		end_sample(r);
		return 0;
	}
	if (s[0] == '#') {
		model_add_meta(r->m, r->comment, str(r, s, len));
		return 0;
	}
	if (s[0] == '\t' && r->open)
		return add_frame_line(r, s, len);
	if (perf_parse_header(s, len, &h)) {
		messages_skipped(r);
		return start_sample(r, &h);
	}
	if (r->samples == 0 && !r->open && s[0] != ' ') {
		if (r->messages++ == 0)
			r->first_message = lines_number(&r->lines);
		return 0;
	}
	/* Old perf indented frames with blanks, as headers without call graphs are. */
	if (r->open && perf_parse_frame(s, len, &f))
		return add_frame(r, &f);
	return lines_skip(&r->lines, "neither a sample header nor a frame", s, len);
}

static void reader_free(struct reader *r)
{
	free(r->keys);
	free(r->key_location);
	hashidx_free(&r->key_index);
	text_cache_free(&r->frame_lines);
	free(r->memo.text);
	free(r->mapping_of_dso);
	free(r->frames);
	free(r->scratch);
}

int perf_read_with(struct input *in, struct model *m, const struct read_options *opts)
{
	struct reader r;
	memset(&r, 0, sizeof r);
	r.m = m;
	int all = read_option(opts, "all") != NULL;
	r.naming = (struct naming){ read_option(opts, "pid") != NULL, read_option(opts, "tid") != NULL,
				    all || read_option(opts, "kernel"), all || read_option(opts, "jit"),
				    read_option(opts, "addrs") != NULL };
	r.comment = model_str(m, "comment", 7);
	m->rules.strict_r = 0;
	lines_begin(&r.lines, in);
	const char *s;
	size_t len;
	int got;
	while ((got = lines_next(&r.lines, &s, &len)) != 0)
		if ((got < 0 || read_line(&r, s, len) < 0) && !lines_go_on(&r.lines))
			break;
	if (!r.lines.failed)
		end_sample(&r);
	lines_skips_counted(&r.lines);
	int failed = r.lines.failed;
	if (!failed && r.samples == 0 && (r.lines.skipped || r.messages))
		failed = lines_errorf(&r.lines, 1, "no perf script sample in the input") < 0;
	reader_free(&r);
	return failed ? -1 : 0;
}

int perf_read(struct input *in, struct model *m)
{
	static const struct read_options none = { NULL, 0 };
	return perf_read_with(in, m, &none);
}
