/*
 * R's abbreviate (abbreviate.h). A name is worked on as characters
 * (bytes for ASCII, code points otherwise, a byte that is not UTF-8 kept
 * as itself), dropped one at a time from the end as R's C code drops
 * them, so that R's order of removal and its stopping points hold.
 */
#include "abbreviate.h"

#include <stdint.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/hashidx.h"
#include "../base/utf8.h"

/* Bytes that are not UTF-8 stay themselves: code points no character has. */
#define RAW_BYTE 0x110000u

struct word {
	uint32_t *c;
	size_t n;
	int wide; /* not ASCII: R's wide-character rules */
};

/* isspace() in R's C code; iswspace() in glibc for wide names. */
static int is_space(const struct word *w, uint32_t ch)
{
	if (ch == ' ' || (ch >= '\t' && ch <= '\r'))
		return 1;
	return w->wide && (ch == 0x1680 || (ch >= 0x2000 && ch <= 0x2006) || (ch >= 0x2008 && ch <= 0x200a) ||
			   ch == 0x2028 || ch == 0x2029 || ch == 0x205f || ch == 0x3000);
}

/* R's vowels: a e i o u, and for wide names its accented list, '.' (0x2e) included. */
static int is_vowel(const struct word *w, uint32_t ch)
{
	static const uint32_t accented[] = { 0x2e, 0xe0, 0xe1, 0xe3, 0xe4, 0xe5, 0xe8, 0xe9, 0xea, 0xeb,
		0xec, 0xed, 0xee, 0xef, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf8, 0xf9, 0xfa, 0xfb, 0xfc, 0x101,
		0x103, 0x105, 0x113, 0x115, 0x117, 0x118, 0x11b, 0x129, 0x12b, 0x12d, 0x12f, 0x131, 0x14d,
		0x14f, 0x151, 0x169, 0x16b, 0x16d, 0x16f, 0x171, 0x173 };
	if (ch == 'a' || ch == 'e' || ch == 'i' || ch == 'o' || ch == 'u')
		return 1;
	for (size_t i = 0; w->wide && i < sizeof accented / sizeof *accented; i++)
		if (ch == accented[i])
			return 1;
	return 0;
}

/* islower() as R calls it, on a byte or a code point: ASCII letters only. */
static int is_lower(uint32_t ch)
{
	return ch >= 'a' && ch <= 'z';
}

/* The first character of a word (i > 0). */
static int word_start(const struct word *w, size_t i)
{
	return is_space(w, w->c[i - 1]);
}

/* The last character of a word of two or more (i > 0). */
static int word_end(const struct word *w, size_t i)
{
	return !is_space(w, w->c[i - 1]) && (i + 1 >= w->n || is_space(w, w->c[i + 1]));
}

static int vowel_at_end(const struct word *w, size_t i)
{
	return is_vowel(w, w->c[i]) && word_end(w, i);
}

static int vowel_inside(const struct word *w, size_t i)
{
	return is_vowel(w, w->c[i]) && !word_start(w, i);
}

static int lower_at_end(const struct word *w, size_t i)
{
	return is_lower(w->c[i]) && word_end(w, i);
}

static int lower_inside(const struct word *w, size_t i)
{
	return is_lower(w->c[i]) && !word_start(w, i);
}

static int not_first(const struct word *w, size_t i)
{
	return !word_start(w, i) && !is_space(w, w->c[i]);
}

static void drop(struct word *w, size_t i)
{
	memmove(w->c + i, w->c + i + 1, (w->n - i - 1) * sizeof *w->c);
	w->n--;
}

/*
 * One of R's passes: from the last character to the second, drops those
 * `test` picks; 1 when the name became short enough (inner spaces, which
 * go at the end, not counted).
 */
static int pass(struct word *w, int (*test)(const struct word *, size_t), size_t minlen, size_t spaces)
{
	for (size_t i = w->n ? w->n - 1 : 0; i > 0; i--) {
		if (test(w, i))
			drop(w, i);
		if (w->n - spaces <= minlen)
			return 1;
	}
	return 0;
}

/* Trailing spaces go, inner ones are counted; 1 when short enough. */
static int count_spaces(struct word *w, size_t minlen, size_t *spaces)
{
	int trailing = 1;
	for (size_t i = w->n ? w->n - 1 : 0; i > 0; i--) {
		if (!is_space(w, w->c[i]))
			trailing = 0;
		else if (trailing)
			w->n = i;
		else
			++*spaces;
		if (w->n - *spaces <= minlen)
			return 1;
	}
	return 0;
}

static void shorten(struct word *w, size_t minlen)
{
	static int (*const passes[])(const struct word *, size_t) = { vowel_at_end, vowel_inside,
								      lower_at_end, lower_inside, not_first };
	size_t spaces = 0;
	int done = w->n < minlen || count_spaces(w, minlen, &spaces);
	for (size_t p = 0; !done && p < sizeof passes / sizeof *passes; p++)
		done = pass(w, passes[p], minlen, spaces);
	if (w->n > minlen)
		for (size_t i = w->n - 1; i > 0; i--)
			if (is_space(w, w->c[i]))
				drop(w, i);
}

/* The name as characters into w (w->c has room for len). */
static void decode(struct word *w, const char *s, size_t len)
{
	w->n = 0;
	w->wide = 0;
	for (size_t i = 0; i < len; w->n++) {
		const unsigned char *p = (const unsigned char *)s + i;
		size_t k = *p < 0x80 ? 1 : utf8_char(p, len - i);
		w->wide |= *p >= 0x80;
		if (k == 0) {
			w->c[w->n] = RAW_BYTE + *p;
			i++;
			continue;
		}
		uint32_t ch = k == 1 ? *p : (uint32_t)(*p & (0xff >> (k + 1)));
		for (size_t b = 1; b < k; b++)
			ch = ch << 6 | (p[b] & 0x3f);
		w->c[w->n] = ch;
		i += k;
	}
}

/* Writes w back as bytes at out; returns how many (never more than the name had). */
static size_t encode(const struct word *w, char *out)
{
	size_t n = 0;
	for (size_t i = 0; i < w->n; i++) {
		uint32_t ch = w->c[i];
		if (ch >= RAW_BYTE || ch < 0x80) {
			out[n++] = (char)(ch >= RAW_BYTE ? ch - RAW_BYTE : ch);
			continue;
		}
		int k = ch < 0x800 ? 2 : ch < 0x10000 ? 3 : 4;
		for (int b = k - 1; b > 0; b--, ch >>= 6)
			out[n + (size_t)b] = (char)(0x80 | (ch & 0x3f));
		out[n] = (char)((0xf00 >> k) | ch);
		n += (size_t)k;
	}
	return n;
}

/* The names, stripped of leading and trailing spaces, and where their short names go. */
struct work {
	const char **name;
	size_t *name_len;
	size_t n;
	struct abbreviations *out;
	struct word w;
};

static int same_short(const void *ctx, uint32_t id, const void *key)
{
	const struct work *k = ctx;
	const size_t *other = key;
	return k->out->len[id] == k->out->len[*other] &&
	       memcmp(k->out->bytes + k->out->start[id], k->out->bytes + k->out->start[*other],
		      k->out->len[id]) == 0;
}

static int same_name(const void *ctx, uint32_t id, const void *key)
{
	const struct work *k = ctx;
	const size_t *other = key;
	return k->name_len[id] == k->name_len[*other] &&
	       memcmp(k->name[id], k->name[*other], k->name_len[id]) == 0;
}

static void shorten_name(struct work *k, size_t i, size_t minlen)
{
	decode(&k->w, k->name[i], k->name_len[i]);
	/* R leaves a name alone that is no longer than minlength (characters, or bytes for ASCII). */
	if (k->w.n > minlen)
		shorten(&k->w, minlen);
	k->out->len[i] = encode(&k->w, k->out->bytes + k->out->start[i]);
}

/*
 * Marks in `again` every name whose short name another has too; returns
 * how many. Only names marked before can have changed, but any may collide.
 */
static size_t collisions(struct work *k, const size_t *unique, size_t n_unique, uint8_t *again)
{
	struct hashidx seen = { 0 };
	size_t n = 0;
	for (size_t u = 0; u < n_unique; u++) {
		size_t i = unique[u];
		uint64_t h = hash_bytes(k->out->bytes + k->out->start[i], k->out->len[i]);
		uint32_t first = hashidx_find(&seen, h, same_short, k, &i);
		again[i] = first != HASHIDX_NONE;
		if (first == HASHIDX_NONE) {
			hashidx_insert(&seen, h, (uint32_t)i);
		} else {
			n += again[first] ? 1 : 2;
			again[first] = 1;
		}
	}
	hashidx_free(&seen);
	return n;
}

/* The distinct names, first of each; of_name[i] is name i's first. */
static size_t distinct(struct work *k, size_t *unique, size_t *of_name)
{
	struct hashidx seen = { 0 };
	size_t n = 0;
	for (size_t i = 0; i < k->n; i++) {
		uint64_t h = hash_bytes(k->name[i], k->name_len[i]);
		uint32_t first = hashidx_find(&seen, h, same_name, k, &i);
		of_name[i] = first == HASHIDX_NONE ? i : first;
		if (first == HASHIDX_NONE) {
			hashidx_insert(&seen, h, (uint32_t)i);
			unique[n++] = i;
		}
	}
	hashidx_free(&seen);
	return n;
}

/* R's wrapper drops leading and trailing spaces (not tabs) first. */
static void strip_spaces(const char **s, size_t *len)
{
	while (*len && **s == ' ')
		++*s, --*len;
	while (*len && (*s)[*len - 1] == ' ')
		--*len;
}

static void work_init(struct work *k, const char *const *names, const size_t *lens, size_t n,
		      struct abbreviations *out)
{
	size_t total = 0, longest = 0;
	k->n = n;
	k->out = out;
	k->name = xmalloc((n + 1) * sizeof *k->name);
	k->name_len = xmalloc((n + 1) * sizeof *k->name_len);
	out->start = xmalloc((n + 1) * sizeof *out->start);
	out->len = xmalloc((n + 1) * sizeof *out->len);
	for (size_t i = 0; i < n; i++) {
		k->name[i] = names[i];
		k->name_len[i] = lens[i];
		strip_spaces(&k->name[i], &k->name_len[i]);
		out->start[i] = total;
		total += k->name_len[i];
		longest = k->name_len[i] > longest ? k->name_len[i] : longest;
	}
	out->bytes = xmalloc(total + 1);
	k->w.c = xmalloc((longest + 1) * sizeof *k->w.c);
}

void abbreviate(const char *const *names, const size_t *lens, size_t n, size_t minlength,
		struct abbreviations *out)
{
	struct work k;
	work_init(&k, names, lens, n, out);
	size_t *unique = xmalloc((n + 1) * sizeof *unique), *of_name = xmalloc((n + 1) * sizeof *of_name);
	uint8_t *again = xmalloc(n + 1);
	size_t n_unique = distinct(&k, unique, of_name);
	memset(again, 1, n + 1);
	for (size_t minlen = minlength;; minlen++) {
		for (size_t u = 0; u < n_unique; u++)
			if (again[unique[u]])
				shorten_name(&k, unique[u], minlen);
		if (collisions(&k, unique, n_unique, again) == 0)
			break;
	}
	for (size_t i = 0; i < n; i++) {
		out->start[i] = out->start[of_name[i]];
		out->len[i] = out->len[of_name[i]];
	}
	free(unique);
	free(of_name);
	free(again);
	free(k.name);
	free(k.name_len);
	free(k.w.c);
}

void abbreviations_free(struct abbreviations *a)
{
	free(a->bytes);
	free(a->start);
	free(a->len);
}
