/*
 * R's abbreviate (abbreviate.h). A name is worked on as characters (bytes
 * for ASCII, code points otherwise, a byte that is not UTF-8 kept as
 * itself). R's C code drops characters one at a time, pass after pass,
 * each pass from the end, until minlength are left. What a pass drops
 * depends only on what the passes before it left and on the characters
 * kept to its right, never on minlength, which only says when to stop: so
 * a name has one order of drops (plan(), five linear passes), and its
 * short name at any minlength is the name less the first d of them, d what
 * that minlength needs (R's stopping points kept exactly).
 *
 * R's rounds (names whose short names collide are shortened again with
 * one character more) compare names by a 61-bit polynomial hash of their
 * short names. A name that collides after the first round gets the hash of
 * its short name at every minlength at once (hashes_by_minlength, from
 * prefix hashes of the name after each pass: O(length)), so that a round
 * costs O(1) per name in it; a name is in at most as many rounds as it has
 * characters, and a round looks only at its own names, so the whole is
 * linear in the names' total length. Distinct hashes are distinct names,
 * so no round ends before R's would; two different short names with one
 * hash (a chance near 2^-61 a pair) would cost their names one more round.
 * The short names written are made from the plan, not from the hashes.
 */
#include "abbreviate.h"

#include <stdint.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/hashidx.h"
#include "../base/utf8.h"

/* Bytes that are not UTF-8 stay themselves: code points no character has. */
#define RAW_BYTE 0x110000u

/* No character: what a pass sees after the last one. */
#define NO_CHAR UINT32_MAX
#define N_PASSES 5

struct word {
	uint32_t *c;
	size_t n;
	int wide; /* not ASCII: R's wide-character rules */
};

/* isspace() in R's C code; iswspace() in glibc for wide names. */
static int is_space(int wide, uint32_t ch)
{
	if (ch == ' ' || (ch >= '\t' && ch <= '\r'))
		return 1;
	return wide && (ch == 0x1680 || (ch >= 0x2000 && ch <= 0x2006) || (ch >= 0x2008 && ch <= 0x200a) ||
			ch == 0x2028 || ch == 0x2029 || ch == 0x205f || ch == 0x3000);
}

/* R's vowels: a e i o u, and for wide names its accented list, '.' (0x2e) included. */
static int is_vowel(int wide, uint32_t ch)
{
	static const uint32_t accented[] = { 0x2e, 0xe0, 0xe1, 0xe3, 0xe4, 0xe5, 0xe8, 0xe9, 0xea, 0xeb,
		0xec, 0xed, 0xee, 0xef, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf8, 0xf9, 0xfa, 0xfb, 0xfc, 0x101,
		0x103, 0x105, 0x113, 0x115, 0x117, 0x118, 0x11b, 0x129, 0x12b, 0x12d, 0x12f, 0x131, 0x14d,
		0x14f, 0x151, 0x169, 0x16b, 0x16d, 0x16f, 0x171, 0x173 };
	if (ch == 'a' || ch == 'e' || ch == 'i' || ch == 'o' || ch == 'u')
		return 1;
	for (size_t i = 0; wide && i < sizeof accented / sizeof *accented; i++)
		if (ch == accented[i])
			return 1;
	return 0;
}

/* islower() as R calls it, on a byte or a code point: ASCII letters only. */
static int is_lower(uint32_t ch)
{
	return ch >= 'a' && ch <= 'z';
}

/*
 * A pass's test of a character (never the first), given the one before it
 * (no pass has touched it yet) and the one kept after it (NO_CHAR at the
 * end): R's LASTCHAR and FIRSTCHAR on the string as it stands.
 */
typedef int pass_test(int wide, uint32_t before, uint32_t ch, uint32_t after);

static int word_end(int wide, uint32_t before, uint32_t after)
{
	return !is_space(wide, before) && (after == NO_CHAR || is_space(wide, after));
}

static int vowel_at_end(int wide, uint32_t before, uint32_t ch, uint32_t after)
{
	return is_vowel(wide, ch) && word_end(wide, before, after);
}

static int vowel_inside(int wide, uint32_t before, uint32_t ch, uint32_t after)
{
	(void)after;
	return is_vowel(wide, ch) && !is_space(wide, before);
}

static int lower_at_end(int wide, uint32_t before, uint32_t ch, uint32_t after)
{
	return is_lower(ch) && word_end(wide, before, after);
}

static int lower_inside(int wide, uint32_t before, uint32_t ch, uint32_t after)
{
	(void)after;
	return is_lower(ch) && !is_space(wide, before);
}

static int not_first(int wide, uint32_t before, uint32_t ch, uint32_t after)
{
	(void)after;
	return !is_space(wide, before) && !is_space(wide, ch);
}


/*
 * A name's drops. R first cuts the trailing spaces (but never the first
 * character) and counts the inner ones, which go only at the very end and
 * do not count against minlength; then each pass drops what it picks.
 */
struct plan {
	size_t kept;    /* characters before the trailing spaces */
	size_t letters; /* of those, all but the inner spaces: what minlength is held to */
	uint32_t *order; /* positions, in the order the passes drop them */
	size_t n_drops;
	size_t pass_end[N_PASSES]; /* order[0 .. pass_end[p]) are the drops of passes 0..p */
};

/* Buffers for the longest name. */
struct scratch {
	struct word w;
	struct plan plan;
	uint32_t *live, *next, *chars;
	uint8_t *pass_of;
	uint64_t *prefix[2], *power;
	uint32_t *counted[2];
};

/*
 * One pass from the last of the len characters left (positions in live[])
 * to the second: their drops appended to the order, the survivors left in
 * live[]; returns how many. Inline, so that each pass's test is too.
 */
static inline size_t one_pass(const struct word *w, struct scratch *s, size_t len, pass_test *test)
{
	struct plan *pl = &s->plan;
	if (len == 0)
		return 0;
	size_t out = len; /* survivors fill next[] from its end */
	for (size_t i = len - 1; i > 0; i--) {
		uint32_t after = out < len ? w->c[s->next[out]] : NO_CHAR;
		if (test(w->wide, w->c[s->live[i - 1]], w->c[s->live[i]], after))
			pl->order[pl->n_drops++] = s->live[i];
		else
			s->next[--out] = s->live[i];
	}
	s->next[--out] = s->live[0];
	memcpy(s->live, s->next + out, (len - out) * sizeof *s->live);
	return len - out;
}

/* R's passes in its order, after the trailing spaces. */
static void plan(const struct word *w, struct scratch *s)
{
	struct plan *pl = &s->plan;
	pl->kept = w->n;
	while (pl->kept > 1 && is_space(w->wide, w->c[pl->kept - 1]))
		pl->kept--;
	pl->letters = pl->kept;
	for (size_t i = 1; i < pl->kept; i++)
		pl->letters -= (size_t)is_space(w->wide, w->c[i]);
	size_t len = pl->kept;
	for (size_t i = 0; i < len; i++)
		s->live[i] = (uint32_t)i;
	pl->n_drops = 0;
	len = one_pass(w, s, len, vowel_at_end);
	pl->pass_end[0] = pl->n_drops;
	len = one_pass(w, s, len, vowel_inside);
	pl->pass_end[1] = pl->n_drops;
	len = one_pass(w, s, len, lower_at_end);
	pl->pass_end[2] = pl->n_drops;
	len = one_pass(w, s, len, lower_inside);
	pl->pass_end[3] = pl->n_drops;
	one_pass(w, s, len, not_first);
	pl->pass_end[4] = pl->n_drops;
}

/*
 * How many drops the short name at minlength m has: R stops as soon as no
 * more than m letters are left, or when the passes have nothing more.
 */
static size_t drops_at(const struct plan *pl, size_t m)
{
	if (m >= pl->letters)
		return 0;
	return pl->letters - m < pl->n_drops ? pl->letters - m : pl->n_drops;
}

/*
 * The short name at minlength m into out (room for w->n); returns its
 * length. A name no longer than m stays whole; one that trailing spaces
 * alone bring down to m is its first m characters, inner spaces kept;
 * else it loses its first drops_at(m) drops, and then (R's last step,
 * since it is still longer than m) every inner space.
 */
static size_t short_at(const struct word *w, struct scratch *s, size_t m, uint32_t *out)
{
	const struct plan *pl = &s->plan;
	if (w->n <= m || pl->kept <= m) {
		size_t n = w->n < m ? w->n : m;
		memcpy(out, w->c, n * sizeof *out);
		return n;
	}
	memset(s->pass_of, 0, pl->kept);
	for (size_t k = drops_at(pl, m); k-- > 0;)
		s->pass_of[pl->order[k]] = 1;
	size_t n = 1;
	out[0] = w->c[0];
	for (size_t i = 1; i < pl->kept; i++)
		if (!s->pass_of[i] && !is_space(w->wide, w->c[i]))
			out[n++] = w->c[i];
	return n;
}

/* The hash: characters as digits base HASH_BASE, modulo the prime 2^61 - 1. */
#define HASH_PRIME ((UINT64_C(1) << 61) - 1)
#define HASH_BASE UINT64_C(0x1f3d5b79a2c4e687)

static uint64_t mul_mod(uint64_t a, uint64_t b)
{
	unsigned __int128 p = (unsigned __int128)a * b;
	uint64_t r = (uint64_t)(p & HASH_PRIME) + (uint64_t)(p >> 61);
	return r >= HASH_PRIME ? r - HASH_PRIME : r;
}

static uint64_t add_mod(uint64_t a, uint64_t b)
{
	uint64_t r = a + b;
	return r >= HASH_PRIME ? r - HASH_PRIME : r;
}

/* h followed by character ch (+1, so that a NUL counts). */
static uint64_t hash_push(uint64_t h, uint32_t ch)
{
	return add_mod(mul_mod(h, HASH_BASE), ch + UINT64_C(1));
}

static uint64_t hash_chars(const uint32_t *c, size_t n)
{
	uint64_t h = 0;
	for (size_t i = 0; i < n; i++)
		h = hash_push(h, c[i]);
	return h;
}

/*
 * Prefix hashes of the name after passes before `level`: prefix[x] hashes,
 * and counted[x] counts, what is left of positions [0, x) once inner
 * spaces go (the first character always stays).
 */
static void level_prefixes(const struct word *w, struct scratch *s, size_t level, uint64_t *prefix,
			   uint32_t *counted)
{
	prefix[0] = 0;
	counted[0] = 0;
	for (size_t x = 0; x < s->plan.kept; x++) {
		int in = s->pass_of[x] >= level && (x == 0 || !is_space(w->wide, w->c[x]));
		prefix[x + 1] = in ? hash_push(prefix[x], w->c[x]) : prefix[x];
		counted[x + 1] = counted[x] + (uint32_t)in;
	}
}

/* What prefix[from, end) hashes on its own. */
static uint64_t hash_after(const struct scratch *s, int at, size_t from)
{
	size_t end = s->plan.kept;
	uint64_t shifted = mul_mod(s->prefix[at][from], s->power[s->counted[at][end] - s->counted[at][from]]);
	return add_mod(s->prefix[at][end], HASH_PRIME - shifted);
}

/*
 * hash[m - m0] is the hash of short_at(m), for every m from m0 to the
 * name's length (which stands for any longer m). The short name with d
 * drops, the d-th by pass p at position x, is what passes before p left
 * before x, then what pass p left after x: two pieces of prefix hashes.
 */
static uint64_t *hashes_by_minlength(const struct word *w, struct scratch *s, size_t m0)
{
	const struct plan *pl = &s->plan;
	size_t top = w->n > m0 ? w->n : m0;
	uint64_t *hash = xmalloc((top - m0 + 1) * sizeof *hash);
	uint64_t whole = 0;
	for (size_t i = 0; i < w->n; i++) { /* at m >= kept: the first m characters */
		whole = hash_push(whole, w->c[i]);
		if (i + 1 >= m0 && i + 1 >= pl->kept)
			hash[i + 1 - m0] = whole;
	}
	if (w->n < m0)
		hash[0] = whole;
	memset(s->pass_of, N_PASSES, pl->kept);
	for (size_t k = 0, p = 0; k < pl->n_drops; k++) {
		while (k >= pl->pass_end[p])
			p++;
		s->pass_of[pl->order[k]] = (uint8_t)p;
	}
	level_prefixes(w, s, 0, s->prefix[0], s->counted[0]);
	for (size_t m = m0 > pl->letters ? m0 : pl->letters; m < pl->kept; m++)
		hash[m - m0] = s->prefix[0][pl->kept];
	size_t most = pl->letters > m0 ? pl->letters - m0 : 0; /* drops that leave m0 letters or more */
	for (size_t p = 0, k = 0; p < N_PASSES; p++) {
		int before = (int)(p & 1), after = !before;
		level_prefixes(w, s, p + 1, s->prefix[after], s->counted[after]);
		for (; k < pl->pass_end[p]; k++) {
			size_t d = k + 1, x = pl->order[k];
			if (d > most)
				break;
			uint64_t tail = hash_after(s, after, x + 1);
			size_t tail_len = s->counted[after][pl->kept] - s->counted[after][x + 1];
			hash[pl->letters - d - m0] = add_mod(mul_mod(s->prefix[before][x], s->power[tail_len]), tail);
		}
		k = pl->pass_end[p];
		if (p == N_PASSES - 1)
			for (size_t m = m0; m + pl->n_drops < pl->letters && m < pl->kept; m++)
				hash[m - m0] = s->prefix[after][pl->kept];
	}
	return hash;
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

/* Writes characters back as bytes at out; returns how many (never more than the name had). */
static size_t encode(const uint32_t *c, size_t n_chars, char *out)
{
	size_t n = 0;
	for (size_t i = 0; i < n_chars; i++) {
		uint32_t ch = c[i];
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

/* A settled name's key, in the index of settled keys (stale once the name is back in a round). */
struct settled_entry {
	uint64_t key;
	uint32_t name;
};

/* The names, stripped of leading and trailing spaces, and the state of R's rounds. */
struct work {
	const char **name;
	size_t *name_len;
	size_t n;
	size_t minlength;
	struct abbreviations *out;
	struct scratch s;
	uint64_t *key;     /* per name: the hash of its short name as it stands */
	size_t *minlen;    /* per name: the minlength it was last shortened at */
	uint64_t **hashes; /* per name: hashes_by_minlength, from its second round on */
	size_t *top;       /* per name: the last minlength hashes has (its length in characters) */
	uint8_t *settled;  /* per name: its short name collided with none when last compared */
	uint8_t *hit;      /* per name: collides in this round */
	struct hashidx settled_keys;
	struct settled_entry *entries;
	size_t n_entries, cap_entries;
};

static void load(struct work *k, uint32_t name)
{
	decode(&k->s.w, k->name[name], k->name_len[name]);
	plan(&k->s.w, &k->s);
}

/*
 * Name's key at minlength m: its short name's hash. In the first round the
 * short name is made, and written out, for most names stop there; from the
 * second on, the key comes from the name's hashes.
 */
static void set_key(struct work *k, uint32_t name, size_t m)
{
	k->minlen[name] = m;
	if (m == k->minlength) {
		load(k, name);
		size_t chars = short_at(&k->s.w, &k->s, m, k->s.chars);
		k->key[name] = hash_chars(k->s.chars, chars);
		k->out->len[name] = encode(k->s.chars, chars, k->out->bytes + k->out->start[name]);
		return;
	}
	if (!k->hashes[name]) {
		load(k, name);
		k->hashes[name] = hashes_by_minlength(&k->s.w, &k->s, k->minlength);
		k->top[name] = k->s.w.n > k->minlength ? k->s.w.n : k->minlength;
	}
	k->key[name] = k->hashes[name][(m < k->top[name] ? m : k->top[name]) - k->minlength];
}

struct among {
	const struct work *k;
	const uint32_t *names;
};

static int same_key_among(const void *ctx, uint32_t id, const void *key)
{
	const struct among *a = ctx;
	return a->k->key[a->names[id]] == *(const uint64_t *)key;
}

static int same_settled_key(const void *ctx, uint32_t id, const void *key)
{
	const struct work *k = ctx;
	const struct settled_entry *e = &k->entries[id];
	return e->key == *(const uint64_t *)key && k->settled[e->name] && k->key[e->name] == e->key;
}

/* Marks in hit[] the names here whose keys another name here has too. */
static void collide_among(struct work *k, const uint32_t *names, size_t n)
{
	struct hashidx seen = { 0 };
	struct among ctx = { k, names };
	for (size_t i = 0; i < n; i++) {
		uint64_t key = k->key[names[i]];
		uint32_t first = hashidx_find(&seen, key, same_key_among, &ctx, &key);
		if (first == HASHIDX_NONE) {
			hashidx_insert(&seen, key, (uint32_t)i);
		} else {
			k->hit[names[i]] = 1;
			k->hit[names[first]] = 1;
		}
	}
	hashidx_free(&seen);
}

/*
 * One of R's rounds: names[0..n) shortened at minlength m. Those whose
 * short names collide, with each other or with a settled name, go to
 * next[] with the settled names they met (R's dup2 | match(x, x[dup2]));
 * the others settle. Returns how many went to next[].
 */
static size_t round_at(struct work *k, const uint32_t *names, size_t n, size_t m, uint32_t *next)
{
	size_t n_next = 0;
	for (size_t i = 0; i < n; i++)
		set_key(k, names[i], m);
	collide_among(k, names, n);
	for (size_t i = 0; i < n; i++) {
		uint64_t key = k->key[names[i]];
		uint32_t e = hashidx_find(&k->settled_keys, key, same_settled_key, k, &key);
		if (e != HASHIDX_NONE) {
			k->hit[names[i]] = 1;
			k->settled[k->entries[e].name] = 0;
			next[n_next++] = k->entries[e].name;
		}
	}
	for (size_t i = 0; i < n; i++) {
		uint32_t name = names[i];
		if (k->hit[name]) {
			k->hit[name] = 0;
			next[n_next++] = name;
			continue;
		}
		k->settled[name] = 1;
		grow((void **)&k->entries, &k->cap_entries, k->n_entries + 1, sizeof *k->entries);
		k->entries[k->n_entries] = (struct settled_entry){ k->key[name], name };
		hashidx_insert(&k->settled_keys, k->key[name], (uint32_t)k->n_entries++);
	}
	return n_next;
}

static int same_name(const void *ctx, uint32_t id, const void *key)
{
	const struct work *k = ctx;
	const size_t *other = key;
	return k->name_len[id] == k->name_len[*other] &&
	       memcmp(k->name[id], k->name[*other], k->name_len[id]) == 0;
}

/* The distinct names, first of each; of_name[i] is name i's first. */
static size_t distinct(struct work *k, uint32_t *unique, size_t *of_name)
{
	struct hashidx seen = { 0 };
	size_t n = 0;
	for (size_t i = 0; i < k->n; i++) {
		uint64_t h = hash_bytes(k->name[i], k->name_len[i]);
		uint32_t first = hashidx_find(&seen, h, same_name, k, &i);
		of_name[i] = first == HASHIDX_NONE ? i : first;
		if (first == HASHIDX_NONE) {
			hashidx_insert(&seen, h, (uint32_t)i);
			unique[n++] = (uint32_t)i;
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

static void scratch_init(struct scratch *s, size_t longest)
{
	size_t n = longest + 2;
	s->w.c = xmalloc(n * sizeof *s->w.c);
	s->plan.order = xmalloc(n * sizeof *s->plan.order);
	s->live = xmalloc(n * sizeof *s->live);
	s->next = xmalloc(n * sizeof *s->next);
	s->chars = xmalloc(n * sizeof *s->chars);
	s->pass_of = xmalloc(n);
	s->power = xmalloc(n * sizeof *s->power);
	for (int i = 0; i < 2; i++) {
		s->prefix[i] = xmalloc(n * sizeof *s->prefix[i]);
		s->counted[i] = xmalloc(n * sizeof *s->counted[i]);
	}
	s->power[0] = 1;
	for (size_t i = 1; i < n; i++)
		s->power[i] = mul_mod(s->power[i - 1], HASH_BASE);
}

static void scratch_free(struct scratch *s)
{
	free(s->w.c);
	free(s->plan.order);
	free(s->live);
	free(s->next);
	free(s->chars);
	free(s->pass_of);
	free(s->power);
	for (int i = 0; i < 2; i++) {
		free(s->prefix[i]);
		free(s->counted[i]);
	}
}

/* Returns the longest name's length. */
static size_t work_init(struct work *k, const char *const *names, const size_t *lens, size_t n,
			size_t minlength, struct abbreviations *out)
{
	size_t total = 0, longest = 0;
	memset(k, 0, sizeof *k);
	k->n = n;
	k->minlength = minlength;
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
	k->key = xmalloc((n + 1) * sizeof *k->key);
	k->minlen = xmalloc((n + 1) * sizeof *k->minlen);
	k->hashes = xcalloc(n + 1, sizeof *k->hashes);
	k->top = xmalloc((n + 1) * sizeof *k->top);
	k->settled = xcalloc(n + 1, 1);
	k->hit = xcalloc(n + 1, 1);
	scratch_init(&k->s, longest);
	return longest;
}

static void work_free(struct work *k)
{
	for (size_t i = 0; i < k->n; i++)
		free(k->hashes[i]);
	free(k->hashes);
	free(k->name);
	free(k->name_len);
	free(k->key);
	free(k->minlen);
	free(k->top);
	free(k->settled);
	free(k->hit);
	free(k->entries);
	hashidx_free(&k->settled_keys);
	scratch_free(&k->s);
}

void abbreviate(const char *const *names, const size_t *lens, size_t n, size_t minlength,
		struct abbreviations *out)
{
	struct work k;
	size_t longest = work_init(&k, names, lens, n, minlength, out);
	uint32_t *round = xmalloc((n + 1) * sizeof *round), *next = xmalloc((n + 1) * sizeof *next);
	size_t *of_name = xmalloc((n + 1) * sizeof *of_name);
	size_t n_round = distinct(&k, round, of_name);
	uint32_t *unique = xmalloc((n_round + 1) * sizeof *unique);
	memcpy(unique, round, n_round * sizeof *unique);
	size_t n_unique = n_round;
	for (size_t m = minlength; n_round; m++) {
		n_round = round_at(&k, round, n_round, m, next);
		uint32_t *swap = round;
		round = next;
		next = swap;
		if (m >= longest)
			break; /* every name is whole: distinct names differ, whatever their hashes say */
	}
	for (size_t u = 0; u < n_unique; u++) {
		uint32_t i = unique[u];
		if (k.minlen[i] == minlength)
			continue; /* written in the first round */
		load(&k, i);
		size_t chars = short_at(&k.s.w, &k.s, k.minlen[i], k.s.chars);
		out->len[i] = encode(k.s.chars, chars, out->bytes + out->start[i]);
	}
	for (size_t i = 0; i < n; i++) {
		out->start[i] = out->start[of_name[i]];
		out->len[i] = out->len[of_name[i]];
	}
	free(round);
	free(next);
	free(of_name);
	free(unique);
	work_free(&k);
}

void abbreviations_free(struct abbreviations *a)
{
	free(a->bytes);
	free(a->start);
	free(a->len);
}
