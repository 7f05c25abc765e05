/*
 * perf script text: registration, probe, and the header and frame
 * grammar (perf.h). A header is found by its anchor, the thread id and
 * the time ("1234 [001] 56.789012:" or "1234/1240 56.789012:"; old perf
 * printed no time: "1234 cpu-clock:"), since the command before it may
 * hold blanks and digits and be one letter long. Frame lines start with
 * a tab, or in old perf with blanks.
 */
#include "perf.h"

#include <string.h>

#include "../base/ascii.h"
#include "format.h"

int perf_read(struct input *in, struct model *m);
int perf_read_with(struct input *in, struct model *m, const struct read_options *opts);

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Digits only, at most 18 of them (so the value fits). */
static int number_at(const char *s, size_t len, int64_t *v)
{
	if (len == 0 || len > 18)
		return 0;
	*v = 0;
	for (size_t i = 0; i < len; i++) {
		if (!is_digit(s[i]))
			return 0;
		*v = *v * 10 + (s[i] - '0');
	}
	return 1;
}

/* "SECONDS.FRACTION:" */
static int is_time(const char *s, size_t len)
{
	size_t i = 0;
	while (i < len && is_digit(s[i]))
		i++;
	if (i == 0 || i >= len || s[i] != '.')
		return 0;
	size_t point = i++;
	while (i < len && is_digit(s[i]))
		i++;
	return i > point + 1 && i + 1 == len && s[i] == ':';
}

/* "TID" or "PID/TID". */
static int is_thread(const char *s, size_t len, int64_t *pid, int64_t *tid)
{
	const char *slash = memchr(s, '/', len);
	*pid = -1;
	if (!slash)
		return number_at(s, len, tid);
	return number_at(s, (size_t)(slash - s), pid) && number_at(slash + 1, len - (size_t)(slash - s) - 1, tid);
}

/* "[CPU]" */
static int is_cpu(const char *s, size_t len, int64_t *cpu)
{
	return len > 2 && s[0] == '[' && s[len - 1] == ']' && number_at(s + 1, len - 2, cpu);
}

enum { MAX_TOKENS = 64 };

struct tokens {
	struct perf_text at[MAX_TOKENS];
	size_t n;
};

/* The line's first MAX_TOKENS blank-separated words. */
static void split(const char *s, size_t len, struct tokens *t)
{
	t->n = 0;
	for (size_t i = 0; i < len && t->n < MAX_TOKENS;) {
		while (i < len && is_blank(s[i]))
			i++;
		size_t start = i;
		while (i < len && !is_blank(s[i]))
			i++;
		if (i > start)
			t->at[t->n++] = (struct perf_text){ s + start, i - start };
	}
}

/* Is word k-1 (or k-2 before a "[CPU]") the thread, with a command before it? */
static int thread_before(const struct tokens *t, size_t k, struct perf_header *h, size_t *thread)
{
	size_t before = k - 1;
	h->cpu = -1;
	if (is_cpu(t->at[before].s, t->at[before].len, &h->cpu)) {
		if (before == 0)
			return 0;
		before--;
	}
	*thread = before;
	return before >= 1 && is_thread(t->at[before].s, t->at[before].len, &h->pid, &h->tid);
}

/*
 * The index of the word after the anchor: "TID [CPU] TIME:", or in old
 * perf's lines without a time, "TID [CPU] EVENT:"; 0 when there is none.
 */
static size_t anchor(const struct tokens *t, struct perf_header *h, size_t *thread)
{
	for (size_t k = 1; k < t->n; k++)
		if (is_time(t->at[k].s, t->at[k].len) && thread_before(t, k, h, thread)) {
			h->time = (struct perf_text){ t->at[k].s, t->at[k].len - 1 };
			return k + 1;
		}
	for (size_t k = 1; k < t->n; k++) {
		const struct perf_text *w = &t->at[k];
		if (w->len > 1 && w->s[w->len - 1] == ':' && thread_before(t, k, h, thread)) {
			h->time = (struct perf_text){ w->s, 0 };
			return k;
		}
	}
	return 0;
}

static struct perf_text rest_after(const char *s, size_t len, const struct perf_text *word)
{
	size_t i = (size_t)(word->s + word->len - s);
	while (i < len && is_blank(s[i]))
		i++;
	return (struct perf_text){ s + i, len - i };
}

int perf_parse_header(const char *s, size_t len, struct perf_header *h)
{
	struct tokens t;
	size_t thread;
	split(s, len, &t);
	size_t e = anchor(&t, h, &thread);
	if (e == 0 || e >= t.n)
		return 0;
	const char *comm_end = t.at[thread].s;
	while (comm_end > t.at[0].s && is_blank(comm_end[-1]))
		comm_end--;
	h->comm = (struct perf_text){ t.at[0].s, (size_t)(comm_end - t.at[0].s) };
	h->has_period = number_at(t.at[e].s, t.at[e].len, &h->period);
	if (h->has_period && ++e >= t.n)
		return 0;
	const struct perf_text *event = &t.at[e];
	if (event->len < 2 || event->s[event->len - 1] != ':')
		return 0;
	h->event = (struct perf_text){ event->s, event->len - 1 };
	h->rest = rest_after(s, len, event);
	return 1;
}

static int hex_digit(char c, unsigned *v)
{
	if (is_digit(c))
		*v = (unsigned)(c - '0');
	else if (c >= 'a' && c <= 'f')
		*v = (unsigned)(c - 'a' + 10);
	else if (c >= 'A' && c <= 'F')
		*v = (unsigned)(c - 'A' + 10);
	else
		return 0;
	return 1;
}

/* The '(' that opens the group closed at s[close]; SIZE_MAX when unbalanced. */
static size_t group_start(const char *s, size_t close)
{
	size_t depth = 0;
	for (size_t i = close + 1; i-- > 0;) {
		depth += s[i] == ')';
		if (s[i] == '(' && --depth == 0)
			return i;
	}
	return SIZE_MAX;
}

int perf_parse_frame(const char *s, size_t len, struct perf_frame *f)
{
	size_t i = 0;
	while (i < len && is_blank(s[i]))
		i++;
	size_t start = i;
	unsigned v;
	f->address = 0;
	for (; i < len && hex_digit(s[i], &v); i++) {
		if (i - start >= 16)
			return 0;
		f->address = f->address << 4 | v;
	}
	if (i == start || i >= len || !is_blank(s[i]))
		return 0;
	while (len > i && is_blank(s[len - 1]))
		len--;
	if (len == 0 || s[len - 1] != ')')
		return 0;
	size_t open = group_start(s, len - 1);
	if (open == SIZE_MAX || open <= i)
		return 0;
	f->dso = (struct perf_text){ s + open + 1, len - open - 2 };
	while (i < open && is_blank(s[i]))
		i++;
	size_t end = open;
	while (end > i && is_blank(s[end - 1]))
		end--;
	f->symbol = (struct perf_text){ s + i, end - i };
	return 1;
}

int perf_is_binary(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c < 0x20 && c != '\t' && c != '\r' && c != '\f' && c != '\v' && c != 0x1b)
			return 1;
	}
	return 0;
}

/* Text perf prints on stderr ("build id event received for ...", "Warning:"): no frame, no binary. */
static int is_message(const char *s, size_t len)
{
	return len == 0 || (!is_blank(s[0]) && !perf_is_binary(s, len));
}

/*
 * A header line followed by a frame line, or by another header (a
 * recording without call graphs), is perf script; '#' lines (--header)
 * come first, so one after a header is not perf's (Go's heap profile has
 * "N: BYTES [N:" lines, old perf's "COMM TID EVENT:" to the grammar, then
 * '#' lines). Folded stacks and Rprof lines have no "TID TIME:" anchor.
 * Before the first header may come perf's own messages (its stderr saved
 * with the text): a little less sure then. Binary after a header (a
 * perf.data appended) ends what the prefix can tell, not what it told;
 * it stands for the second header the first one lacks, since no text
 * format turns to binary there, so that the reader refuses it at its line.
 */
static enum probe_score perf_probe(const unsigned char *prefix, size_t len)
{
	const char *s = (const char *)prefix, *end = s + len;
	int headers = 0, frames = 0, messages = 0, binary = 0;
	for (int lines = 0; s < end && lines < 200 && !frames; lines++) {
		/* An unended last line is judged only for binary: its text may be cut. */
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t n = (size_t)((nl ? nl : end) - s);
		if (n && s[n - 1] == '\r')
			n--;
		struct perf_header h;
		struct perf_frame f;
		if (headers && perf_is_binary(s, n)) {
			binary = 1;
			break;
		}
		if (!nl)
			break;
		if (n && s[0] == '#' && (headers || messages))
			return PROBE_NO;
		if (n && s[0] != '#') {
			if (perf_parse_header(s, n, &h))
				headers++;
			else if (headers && perf_parse_frame(s, n, &f))
				frames++;
			else if (!headers && is_message(s, n))
				messages++;
			else
				return PROBE_NO;
		}
		s = nl + 1;
	}
	int enough_headers = headers >= 2 || (headers && binary);
	if (messages)
		return frames ? PROBE_PROBABLE : enough_headers ? PROBE_DOUBTFUL : PROBE_NO;
	return frames ? PROBE_STRONG : enough_headers ? PROBE_PLAUSIBLE : PROBE_NO;
}

static const char *const perf_extensions[] = { ".perf", ".perf.txt", NULL };

/* stackcollapse-perf.pl's options that name frames, under its names (docs/formats/perf.md). */
static const struct format_option perf_read_options[] = {
	{ "pid", NULL, "root frames COMM-PID, as stackcollapse-perf.pl --pid names them", NULL },
	{ "tid", NULL, "root frames COMM-PID/TID, as stackcollapse-perf.pl --tid", NULL },
	{ "kernel", NULL, "kernel frames end in _[k], as stackcollapse-perf.pl --kernel", NULL },
	{ "jit", NULL, "frames of a JIT's /tmp/perf-PID.map end in _[j], as stackcollapse-perf.pl --jit", NULL },
	{ "all", NULL, "both --kernel and --jit", NULL },
	{ "addrs", NULL, "unknown frames name their address, [DSO <ADDR>], as stackcollapse-perf.pl --addrs",
	  NULL },
	{ NULL, NULL, NULL, NULL },
};

const struct format format_perf = {
	.name = "perf",
	.description = "Linux perf script text (perf record -g; perf script): read only",
	.extensions = perf_extensions,
	.binary = 0,
	.probe = perf_probe,
	.read = perf_read,
	.read_options = perf_read_options,
	.read_with = perf_read_with,
	.has_times = 1,
	.write = NULL,
};
