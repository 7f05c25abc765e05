/*
 * Legacy pprof reader (docs/formats/legacy.md): tells the kinds apart as
 * Go tries its parsers (binary CPU, heap, count, thread, contention, then
 * Java's) and reads each by Go's rules into a legacy_profile, which
 * legacy_finish turns into the model (Java's text: legacy_java.c). These
 * files are already aggregated (one record per distinct stack), so they
 * are held whole: memory grows with distinct stacks.
 *
 * Where prof parts from Go: a binary profile cut inside a record is
 * refused (Go pads a 64-bit one with zero addresses); a count profile's
 * "N @" with no addresses, which Go 1.19 writes for threadcreate and then
 * refuses to read, is a sample with an empty stack.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/ascii.h"
#include "../base/diag.h"
#include "format.h"
#include "legacy.h"

int legacy_read(struct input *in, struct model *m);

struct reader {
	struct input *in;
	struct lines lines;
	struct legacy_profile p;
	unsigned word;
	int big_endian;
	uint64_t offset; /* bytes of the binary profile read */
};

/* Reads the rest: Go skips to the memory map, if there is one, and reads it. */
static int read_rest(struct reader *r, int at_map_start)
{
	const char *s;
	size_t len;
	int rc = 1;
	while (!at_map_start && (rc = lines_next(&r->lines, &s, &len)) > 0)
		at_map_start = legacy_is_map_start(s, len);
	return rc < 0 ? -1 : at_map_start ? legacy_read_maps(&r->p, &r->lines) : 0;
}

static int spaces(const char *s, size_t len, size_t *i)
{
	while (*i < len && s[*i] == ' ')
		(*i)++;
	return 1;
}

static int digits(const char *s, size_t len, size_t *i, int sign, struct legacy_span *out)
{
	size_t from = *i;
	if (sign && *i < len && s[*i] == '-')
		(*i)++;
	size_t first = *i;
	while (*i < len && is_digit(s[*i]))
		(*i)++;
	*out = (struct legacy_span){ s + from, *i - from };
	return *i > first;
}

static int literal(const char *s, size_t len, size_t *i, char c)
{
	return *i < len && s[*i] == c ? ((*i)++, 1) : 0;
}

static int is_address_char(char c)
{
	return c == ' ' || c == 'x' || is_digit(c) || (c >= 'a' && c <= 'f');
}

/* The addresses after "@": "[ x0-9a-f]*". */
static struct legacy_span address_part(const char *s, size_t len, size_t i)
{
	size_t from = i;
	while (i < len && is_address_char(s[i]))
		i++;
	return (struct legacy_span){ s + from, i - from };
}

/* heapSampleRE at i: "(-?\d+): *(-?\d+) *\[ *(\d+): *(\d+) *] @([ x0-9a-f]*)". */
static int heap_sample_at(const char *s, size_t len, size_t i, struct legacy_span g[5])
{
	if (!(digits(s, len, &i, 1, &g[0]) && literal(s, len, &i, ':') && spaces(s, len, &i) &&
	      digits(s, len, &i, 1, &g[1]) && spaces(s, len, &i) && literal(s, len, &i, '[') &&
	      spaces(s, len, &i) && digits(s, len, &i, 0, &g[2]) && literal(s, len, &i, ':') &&
	      spaces(s, len, &i) && digits(s, len, &i, 0, &g[3]) && spaces(s, len, &i) &&
	      literal(s, len, &i, ']') && literal(s, len, &i, ' ') && literal(s, len, &i, '@')))
		return 0;
	g[4] = address_part(s, len, i);
	return 1;
}

/*
 * The leftmost match. A start inside a run of digits fails where the
 * run's first digit failed, so the search goes on after the run.
 */
static int heap_sample(const char *s, size_t len, struct legacy_span g[5])
{
	for (size_t i = 0; i < len; i++) {
		if (!is_digit(s[i]) && !(s[i] == '-' && i + 1 < len && is_digit(s[i + 1])))
			continue;
		if (heap_sample_at(s, len, i, g))
			return 1;
		i += s[i] == '-';
		while (i + 1 < len && is_digit(s[i + 1]))
			i++;
	}
	return 0;
}

/* Go's addValues: a count and size, the block size, unsampled for v2 profiles. */
static int heap_values(struct reader *r, struct legacy_span count_text, struct legacy_span size_text, const char *label,
		       const struct legacy_heap_header *h, struct legacy_sample *sample, int64_t *values)
{
	int64_t count, size;
	if (!legacy_decimal(count_text, &count) || !legacy_decimal(size_text, &size))
		return lines_errorf(&r->lines, 0, "a heap sample's number is out of range");
	if (count == 0 && size != 0)
		return lines_errorf(&r->lines, 0, "%s count was 0 but %s bytes was %" PRId64, label, label, size);
	if (count != 0) {
		sample->bytes = count == -1 ? legacy_wrapping_mul(size, -1) : size / count;
		if (h->v2)
			legacy_unsample(&count, &size, h->period);
	}
	values[0] = count;
	values[1] = size;
	return 0;
}

static int heap_line(struct reader *r, const char *s, size_t len, const struct legacy_heap_header *h)
{
	struct legacy_span g[5];
	if (!heap_sample(s, len, g))
		return lines_error(&r->lines, 0, "not a heap sample", s, len);
	struct legacy_sample *sample = legacy_add_sample(&r->p);
	sample->has_bytes = 1;
	if ((h->has_alloc && heap_values(r, g[2], g[3], "allocation", h, sample, sample->values) < 0) ||
	    heap_values(r, g[0], g[1], "inuse", h, sample, sample->values + (h->has_alloc ? 2 : 0)) < 0)
		return -1;
	if (!legacy_hex_addresses(&r->p, g[4], 0))
		return lines_error(&r->lines, 0, "an address out of range", s, len);
	return 0;
}

static void set_types(struct legacy_profile *p, const char *const *types, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		p->types[i][0] = types[2 * i];
		p->types[i][1] = types[2 * i + 1];
	}
	p->n_types = n;
}

static int read_heap(struct reader *r, const char *first, size_t first_len)
{
	static const char *const alloc_types[] = { "alloc_objects", "count", "alloc_space", "bytes",
						   "inuse_objects", "count", "inuse_space", "bytes" };
	static const char *const types[] = { "objects", "count", "space", "bytes" };
	struct legacy_heap_header h;
	legacy_heap_header(first, first_len, &h);
	r->p.period_type = "space";
	r->p.period_unit = "bytes";
	r->p.period = h.period;
	set_types(&r->p, h.has_alloc ? alloc_types : types, h.has_alloc ? 4 : 2);
	const char *s;
	size_t len;
	int rc;
	while ((rc = lines_next(&r->lines, &s, &len)) != 0) {
		if (rc < 0 || (legacy_trim(&s, &len), legacy_is_space_or_comment(s, len)))
			continue;
		if (legacy_is_map_start(s, len))
			return r->lines.failed ? -1 : read_rest(r, 1);
		if (heap_line(r, s, len, &h) < 0 && !lines_go_on(&r->lines))
			return -1;
	}
	return r->lines.failed ? -1 : 0;
}

/*
 * contentionSampleRE at i: "(\d+) *(\d+) @". Go's backtracking splits one
 * run of digits right before " @": all but the last digit, then the last.
 */
static int contention_sample_at(const char *s, size_t len, size_t i, struct legacy_span g[3])
{
	size_t j = i;
	digits(s, len, &j, 0, &g[0]);
	size_t after_first = j;
	spaces(s, len, &j);
	if (j > after_first && digits(s, len, &j, 0, &g[1]) && starts_with(s + j, len - j, " @")) {
		g[2] = address_part(s, len, j + 2);
		return 1;
	}
	if (g[0].len >= 2 && starts_with(s + after_first, len - after_first, " @")) {
		g[0].len--;
		g[1] = (struct legacy_span){ s + after_first - 1, 1 };
		g[2] = address_part(s, len, after_first + 2);
		return 1;
	}
	return 0;
}

static int contention_sample(const char *s, size_t len, struct legacy_span g[3])
{
	for (size_t i = 0; i < len; i++) {
		if (!is_digit(s[i]))
			continue;
		if (contention_sample_at(s, len, i, g))
			return 1;
		while (i + 1 < len && is_digit(s[i + 1]))
			i++;
	}
	return 0;
}

struct contention {
	int64_t period, cpu_hz;
};

/* Go's parseContentionSample: delay in cycles made nanoseconds, both unsampled by the period. */
static int contention_line(struct reader *r, const char *s, size_t len, const struct contention *c)
{
	struct legacy_span g[3];
	int64_t delay, count;
	if (!contention_sample(s, len, g))
		return lines_error(&r->lines, 0, "not a contention sample", s, len);
	if (!legacy_decimal(g[0], &delay) || !legacy_decimal(g[1], &count))
		return lines_error(&r->lines, 0, "a number out of range", s, len);
	if (c->period > 0) {
		if (c->cpu_hz > 0)
			delay = legacy_go_int64((double)delay * (double)c->period / ((double)c->cpu_hz / 1e9));
		count = legacy_wrapping_mul(count, c->period);
	}
	struct legacy_sample *sample = legacy_add_sample(&r->p);
	sample->values[0] = count;
	sample->values[1] = delay;
	if (!legacy_hex_addresses(&r->p, g[2], 0))
		return lines_error(&r->lines, 0, "an address out of range", s, len);
	return 0;
}

/* "key = value" before the samples; 1 when the line is none (the first sample). */
static int contention_attribute(struct reader *r, const char *s, size_t len, struct contention *c)
{
	const char *eq = memchr(s, '=', len);
	if (!eq || starts_with(s, len, "---"))
		return 1;
	struct legacy_span key = { s, (size_t)(eq - s) }, value = { eq + 1, len - key.len - 1 };
	legacy_trim(&key.s, &key.len);
	legacy_trim(&value.s, &value.len);
	int64_t v = 0;
#define KEY_IS(x) (key.len == strlen(x) && memcmp(key.s, x, key.len) == 0)
	if (KEY_IS("format") || KEY_IS("resolution"))
		return lines_errorf(&r->lines, 0, "a Java profile's attribute in a profile that is not Java's");
	if (!(KEY_IS("cycles/second") || KEY_IS("sampling period") || KEY_IS("ms since reset") ||
	      KEY_IS("discarded samples")))
		return lines_error(&r->lines, 0, "not a contention profile's attribute", s, len);
	if (!KEY_IS("discarded samples") && !legacy_go_integer(value, &v))
		return lines_error(&r->lines, 0, "not a whole number", value.s, value.len);
	if (KEY_IS("cycles/second"))
		c->cpu_hz = v;
	else if (KEY_IS("sampling period"))
		c->period = r->p.period = v;
	else if (KEY_IS("ms since reset"))
		r->p.duration_nanos = legacy_wrapping_mul(v, 1000 * 1000);
#undef KEY_IS
	return 0;
}

static int read_contention(struct reader *r)
{
	static const char *const types[] = { "contentions", "count", "delay", "nanoseconds" };
	struct contention c = { 1, 0 };
	r->p.period_type = "contentions";
	r->p.period_unit = "count";
	r->p.period = 1;
	set_types(&r->p, types, 2);
	const char *s;
	size_t len;
	int rc, in_header = 1;
	while ((rc = lines_next(&r->lines, &s, &len)) != 0) {
		if (rc < 0 || (legacy_trim(&s, &len), legacy_is_space_or_comment(s, len)))
			continue;
		if (in_header && (rc = contention_attribute(r, s, len, &c)) <= 0) {
			if (rc < 0)
				return -1;
			continue;
		}
		in_header = 0;
		if (starts_with(s, len, "---"))
			return r->lines.failed ? -1 : read_rest(r, legacy_is_map_start(s, len));
		if (contention_line(r, s, len, &c) < 0 && !lines_go_on(&r->lines))
			return -1;
	}
	return r->lines.failed ? -1 : 0;
}

/* countRE: "\A(\d+) @( 0x[0-9a-f]+)+\z", where prof also takes no address. */
static int count_line(struct reader *r, const char *s, size_t len)
{
	struct legacy_span n;
	size_t i = 0;
	int64_t count;
	if (!digits(s, len, &i, 0, &n) || !starts_with(s + i, len - i, " @"))
		return lines_error(&r->lines, 0, "not a count sample", s, len);
	struct legacy_span rest = { s + i + 2, len - i - 2 };
	for (size_t k = 0; k < rest.len;) {
		size_t from = k;
		if (!starts_with(rest.s + k, rest.len - k, " 0x"))
			return lines_error(&r->lines, 0, "not a count sample", s, len);
		for (k += 3; k < rest.len && (is_digit(rest.s[k]) || (rest.s[k] >= 'a' && rest.s[k] <= 'f'));)
			k++;
		if (k == from + 3)
			return lines_error(&r->lines, 0, "not a count sample", s, len);
	}
	if (!legacy_go_integer(n, &count))
		return lines_error(&r->lines, 0, "not a whole number", n.s, n.len);
	struct legacy_sample *sample = legacy_add_sample(&r->p);
	sample->values[0] = count;
	if (!legacy_hex_addresses(&r->p, rest, 0))
		return lines_error(&r->lines, 0, "an address out of range", s, len);
	return 0;
}

static int read_count(struct reader *r, const char *first, size_t first_len)
{
	size_t type_len;
	legacy_count_start(first, first_len, &type_len);
	r->p.owned_type = xmalloc(type_len + 1);
	memcpy(r->p.owned_type, first, type_len);
	r->p.owned_type[type_len] = 0;
	r->p.period_type = r->p.types[0][0] = r->p.owned_type;
	r->p.period_unit = r->p.types[0][1] = "count";
	r->p.n_types = 1;
	r->p.period = 1;
	const char *s;
	size_t len;
	int rc;
	while ((rc = lines_next(&r->lines, &s, &len)) != 0) {
		if (rc < 0 || legacy_is_space_or_comment(s, len))
			continue;
		if (starts_with(s, len, "---"))
			return r->lines.failed ? -1 : read_rest(r, legacy_is_map_start(s, len));
		if (count_line(r, s, len) < 0 && !lines_go_on(&r->lines))
			return -1;
	}
	return r->lines.failed ? -1 : 0;
}

/*
 * One thread's stack, after its "--- Thread" line, to the "---" line that
 * ends it (in *s): 1, or 0 at the end of the input. "[same as previous
 * thread]", or no address at all, counts one more for the thread before.
 */
static int thread_stack(struct reader *r, const char **s, size_t *len)
{
	struct legacy_sample *sample = legacy_add_sample(&r->p);
	sample->values[0] = 1;
	int same = 0, rc;
	while ((rc = lines_next(&r->lines, s, len)) > 0) {
		legacy_trim(s, len);
		if (*len == 0)
			continue;
		if (starts_with(*s, *len, "---"))
			break;
		if (legacy_contains(*s, *len, "same as previous thread"))
			same = 1;
		else if (!legacy_hex_addresses(&r->p, (struct legacy_span){ *s, *len }, 1))
			return lines_error(&r->lines, 0, "an address out of range", *s, *len);
	}
	if (rc > 0 && (same || sample->n_addresses == 0)) {
		r->p.n_addresses -= sample->n_addresses;
		if (--r->p.n_samples)
			r->p.samples[r->p.n_samples - 1].values[0]++;
	}
	return rc;
}

/* Go's parseThread: "--- threadz N ---", then each "--- Thread ..." and its stack. */
static int read_thread(struct reader *r, const char *s, size_t len)
{
	static const char *const types[] = { "thread", "count" };
	r->p.period_type = "thread";
	r->p.period_unit = "count";
	r->p.period = 1;
	r->p.drop_duplicate_leaf = 1;
	set_types(&r->p, types, 1);
	int rc = 1;
	if (legacy_is_threadz_start(s, len))
		while ((rc = lines_next(&r->lines, &s, &len)) > 0 && !legacy_is_map_start(s, len) &&
		       !(len && s[0] == '-'))
			;
	for (; rc > 0; rc = thread_stack(r, &s, &len)) {
		if (legacy_is_map_start(s, len))
			return read_rest(r, 1);
		if (starts_with(s, len, "---- no stack trace for"))
			return read_rest(r, 0);
		if (!legacy_is_thread_start(s, len))
			return lines_error(&r->lines, 0, "not a thread's first line", s, len);
	}
	return rc < 0 ? -1 : lines_errorf(&r->lines, 0, "the threads end without a \"---\" line (Go needs one)");
}

static int read_text(struct reader *r)
{
	const char *s;
	size_t len;
	int rc;
	lines_begin(&r->lines, r->in);
	if ((rc = lines_next(&r->lines, &s, &len)) <= 0)
		return rc < 0 ? -1 : (diag_error(r->in->name, 0, "empty input"), -1);
	const unsigned char *rest;
	long n;
	switch (legacy_text_kind(s, len)) {
	case LEGACY_HEAP:
		return read_heap(r, s, len);
	case LEGACY_JAVA_HEAP:
		r->p.java_heap = 1;
		return legacy_read_java(&r->lines, &r->p, 1);
	case LEGACY_CONTENTION:
		legacy_trim(&s, &len);
		if (len == 21 && memcmp(s, "--- contentionz 1 ---", 21) == 0 &&
		    (n = input_peek(r->in, FORMAT_PROBE_BYTES, &rest)) >= 0 &&
		    legacy_is_java_contention(rest, (size_t)n))
			return legacy_read_java(&r->lines, &r->p, 1);
		return read_contention(r);
	default:
		break;
	}
	while (legacy_is_space_or_comment(s, len) && (rc = lines_next(&r->lines, &s, &len)) > 0)
		;
	enum legacy_text_kind kind = rc > 0 ? legacy_text_kind(s, len) : LEGACY_NONE;
	if (kind == LEGACY_COUNT)
		return read_count(r, s, len);
	if (kind == LEGACY_THREAD)
		return read_thread(r, s, len);
	if (rc < 0)
		return -1;
	return lines_error(&r->lines, 0, "not a legacy pprof profile (heap, contention, count, thread or binary CPU)",
			   rc > 0 ? s : "", rc > 0 ? len : 0);
}

/* 1 and the next word; 0 at the end of the input; -1 after reporting. */
static int read_word(struct reader *r, uint64_t *v, const char *inside)
{
	unsigned char b[8];
	size_t got = 0;
	long n = 1;
	while (got < r->word && (n = input_read(r->in, b + got, r->word - got)) > 0)
		got += (size_t)n;
	if (n < 0)
		return -1;
	if (got < r->word && (got > 0 || inside)) {
		diag_error(r->in->name, 0, "byte %" PRIu64 ": the profile ends inside %s", r->offset + got,
			   inside ? inside : "a word");
		return -1;
	}
	if (got == 0)
		return 0;
	*v = 0;
	for (unsigned k = 0; k < r->word; k++)
		*v |= (uint64_t)b[r->big_endian ? r->word - 1 - k : k] << (8 * k);
	r->offset += r->word;
	return 1;
}

/* One record: its count, depth and addresses; 0 after the end-of-data record or at the end. */
static int cpu_record(struct reader *r, int64_t period)
{
	uint64_t count, depth, a;
	int rc = read_word(r, &count, NULL);
	if (rc <= 0) {
		if (rc == 0)
			diag_warn(r->in->name, 0, "no end-of-data record: the profile may be cut");
		return rc;
	}
	if (read_word(r, &depth, "a sample") <= 0)
		return -1;
	struct legacy_sample *sample = legacy_add_sample(&r->p);
	sample->values[0] = (int64_t)count;
	sample->values[1] = legacy_wrapping_mul((int64_t)count, period);
	for (uint64_t k = 0; k < depth; k++) {
		if (read_word(r, &a, "a sample's stack") <= 0)
			return -1;
		/* Return addresses land on the call less 1; the leaf is where the signal came. */
		legacy_push_address(&r->p, k > 0 && !r->p.java ? a - 1 : a);
	}
	if (count == 0 && depth == 1 && r->p.addresses[sample->first_address] == 0) {
		r->p.n_samples--;
		r->p.n_addresses--;
		return 0;
	}
	return 1;
}

static int compare_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* The second frame nearly every sample shares, or 0 when none. */
static int shared_second_frame(const struct legacy_profile *p, uint64_t *frame)
{
	uint64_t *second = xmalloc((p->n_samples + 1) * sizeof *second);
	size_t n = 0, need = p->n_samples - p->n_samples / 32, found = 0;
	for (size_t i = 0; i < p->n_samples; i++)
		if (p->samples[i].n_addresses > 1)
			second[n++] = p->addresses[p->samples[i].first_address + 1];
	qsort(second, n, sizeof *second, compare_u64);
	for (size_t i = 0, j; i < n && !found; i = j) {
		for (j = i; j < n && second[j] == second[i]; j++)
			;
		if (j - i >= need)
			*frame = second[i], found = 1;
	}
	free(second);
	return (int)found;
}

/*
 * Go's rule for the signal handler's frames: when all samples but one in
 * 32 share their second frame, it was pushed by the handler and goes,
 * up to two times.
 */
static void drop_signal_frames(struct legacy_profile *p)
{
	uint64_t frame;
	for (int pass = 0; pass < 2 && shared_second_frame(p, &frame); pass++)
		for (size_t i = 0; i < p->n_samples; i++) {
			struct legacy_sample *s = &p->samples[i];
			uint64_t *a = s->n_addresses > 1 ? p->addresses + s->first_address : NULL;
			if (a && a[1] == frame) {
				memmove(a + 1, a + 2, (s->n_addresses - 2) * sizeof *a);
				s->n_addresses--;
			}
		}
}

static int read_cpu(struct reader *r, uint64_t period_us)
{
	static const char *const types[] = { "samples", "count", "cpu", "nanoseconds" };
	uint64_t header;
	for (int k = 0; k < 5; k++)
		if (read_word(r, &header, "the header") <= 0)
			return -1;
	int64_t period = legacy_wrapping_mul((int64_t)period_us, 1000);
	r->p.period_type = "cpu";
	r->p.period_unit = "nanoseconds";
	r->p.period = period;
	r->p.drop_duplicate_leaf = !r->p.java;
	set_types(&r->p, types, 2);
	int rc;
	while ((rc = cpu_record(r, period)) > 0)
		;
	if (rc < 0)
		return -1;
	lines_begin(&r->lines, r->in);
	if (r->p.java)
		return legacy_read_java(&r->lines, &r->p, 0);
	drop_signal_frames(&r->p);
	return legacy_read_maps(&r->p, &r->lines) < 0 ? -1 : 0;
}

int legacy_read(struct input *in, struct model *m)
{
	struct reader r = { .in = in };
	const unsigned char *prefix;
	long n = input_peek(in, 40, &prefix);
	uint64_t period_us;
	int rc, kind = n < 0 ? 0 : legacy_is_cpu_header(prefix, (size_t)n, &r.word, &r.big_endian, &period_us);
	r.p.java = kind == 2;
	if (n < 0)
		rc = -1;
	else
		rc = kind ? read_cpu(&r, period_us) : read_text(&r);
	if (rc == 0)
		legacy_finish(&r.p, m);
	legacy_free(&r.p);
	return rc;
}
