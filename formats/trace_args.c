/*
 * An event's args as speedscope names a frame with them: JavaScript's
 * JSON.stringify of what JSON.parse read (trace.h). Built with a stack of
 * the containers open, never by recursion: args nest as deep as a file
 * likes. An object's members are written as they come; one that has a key
 * that is an array index, or a key twice, is rewritten when it closes, in
 * the order JavaScript keeps an object's keys.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/alloc.h"
#include "trace.h"

void trace_text_add(struct trace_text *t, const void *bytes, size_t n)
{
	if (t->len + n + 1 > t->cap)
		grow((void **)&t->bytes, &t->cap, t->len + n + 1, 1);
	if (n) /* no bytes may come as NULL, which memcpy may not take */
		memcpy(t->bytes + t->len, bytes, n);
	t->len += n;
	t->bytes[t->len] = '\0';
}

static void add_str(struct trace_text *t, const char *s)
{
	trace_text_add(t, s, strlen(s));
}

/* A string as JSON.stringify quotes it. */
static void quoted(struct trace_text *t, const char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	size_t plain = 0;
	while (plain < len && (unsigned char)s[plain] >= 0x20 && s[plain] != '"' && s[plain] != '\\')
		plain++;
	if (plain == len) { /* most are: copied at once */
		if (t->len + len + 3 > t->cap)
			grow((void **)&t->bytes, &t->cap, t->len + len + 3, 1);
		t->bytes[t->len] = '"';
		memcpy(t->bytes + t->len + 1, s, len);
		t->bytes[t->len + 1 + len] = '"';
		t->len += len + 2;
		t->bytes[t->len] = '\0';
		return;
	}
	add_str(t, "\"");
	plain = 0;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c >= 0x20 && c != '"' && c != '\\')
			continue;
		trace_text_add(t, s + plain, i - plain);
		plain = i + 1;
		char esc[7] = { '\\', 0 };
		esc[1] = c == '"' ? '"' : c == '\\' ? '\\' : c == '\b' ? 'b' : c == '\f' ? 'f' :
			 c == '\n' ? 'n' : c == '\r' ? 'r' : c == '\t' ? 't' : 0;
		if (esc[1]) {
			trace_text_add(t, esc, 2);
		} else {
			memcpy(esc + 1, "u00", 3);
			esc[4] = hex[c >> 4];
			esc[5] = hex[c & 15];
			trace_text_add(t, esc, 6);
		}
	}
	trace_text_add(t, s + plain, len - plain);
	add_str(t, "\"");
}

/*
 * ECMAScript's Number::toString: the shortest digits that read back as
 * the same double, placed by the exponent (21 digits before the point at
 * most, 6 zeros after it, else an exponent).
 */
void trace_js_number(struct trace_text *out, const char *text)
{
	double d = strtod(text, NULL);
	if (d == 0) {
		add_str(out, "0");
		return;
	}
	if (isinf(d) || isnan(d)) {
		add_str(out, "null"); /* JSON.stringify of Infinity */
		return;
	}
	char s[40];
	for (int p = 1; p <= 17; p++) {
		snprintf(s, sizeof s, "%.*e", p - 1, d);
		if (strtod(s, NULL) == d)
			break;
	}
	char digits[24];
	size_t k = 0;
	const char *c = s;
	if (*c == '-')
		add_str(out, "-"), c++;
	for (; *c && *c != 'e'; c++)
		if (*c != '.')
			digits[k++] = *c;
	while (k > 1 && digits[k - 1] == '0')
		k--;
	int n = atoi(c + 1) + 1; /* the point's place after the first digit */
	if ((int)k <= n && n <= 21) {
		trace_text_add(out, digits, k);
		for (int i = (int)k; i < n; i++)
			add_str(out, "0");
	} else if (0 < n && n <= 21) {
		trace_text_add(out, digits, (size_t)n);
		add_str(out, ".");
		trace_text_add(out, digits + n, k - (size_t)n);
	} else if (-6 < n && n <= 0) {
		add_str(out, "0.");
		for (int i = n; i < 0; i++)
			add_str(out, "0");
		trace_text_add(out, digits, k);
	} else {
		trace_text_add(out, digits, 1);
		if (k > 1) {
			add_str(out, ".");
			trace_text_add(out, digits + 1, k - 1);
		}
		char e[16];
		snprintf(e, sizeof e, "e%c%d", n - 1 < 0 ? '-' : '+', abs(n - 1));
		add_str(out, e);
	}
}

/* A member of an object being written: where its key and its value lie in the text. */
struct trace_member {
	size_t key_at, value_at, end;
	uint32_t index;   /* the key as an array index, when it is one */
	uint8_t is_index;
};

struct trace_level {
	size_t start;          /* where its '{' or '[' is */
	size_t first_member;   /* its members in the member list, to the list's end */
	uint8_t object, rewrite;
	size_t n_values;
};

struct writer {
	struct trace_text *out;
	struct trace_level *levels;
	size_t depth, cap_levels;
	struct trace_member *members;
	size_t n_members, cap_members;
	struct trace_args *args;
	int arg;   /* the outermost object's member being written, as enum trace_arg; -1: another */
};

/* Is the key an array index ("0", "17", below 2^32 - 1), which JavaScript orders first? */
static int array_index(const char *s, size_t len, uint32_t *index)
{
	if (len == 0 || len > 10 || (s[0] == '0' && len > 1))
		return 0;
	uint64_t v = 0;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return 0;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	if (v >= 4294967295u)
		return 0;
	*index = (uint32_t)v;
	return 1;
}

static const char *const arg_names[ARG_COUNT] = {
	"line", "column", "name", "category", "url", "params", "allocatedCategory", "allocatedName"
};
static const size_t arg_lengths[ARG_COUNT] = { 4, 6, 4, 8, 3, 6, 17, 13 };

static void key(struct writer *w, const char *s, size_t len)
{
	struct trace_level *l = &w->levels[w->depth - 1];
	if (l->n_values++)
		add_str(w->out, ",");
	grow((void **)&w->members, &w->cap_members, w->n_members + 1, sizeof *w->members);
	struct trace_member *mb = &w->members[w->n_members++];
	mb->key_at = w->out->len;
	mb->is_index = (uint8_t)array_index(s, len, &mb->index);
	l->rewrite |= mb->is_index;
	quoted(w->out, s, len);
	add_str(w->out, ":");
	mb->value_at = w->out->len;
	w->arg = -1;
	if (w->args && w->depth == 1)
		for (int a = 0; a < ARG_COUNT; a++)
			if (arg_lengths[a] == len && memcmp(arg_names[a], s, len) == 0) {
				w->arg = a;
				w->args->present |= 1u << a;
				w->args->value[a].len = 0;
				trace_text_add(&w->args->value[a], "", 0);
				w->args->is_string[a] = 0;
			}
}

/* A value is complete at the current level: its member ends here. */
static void value_done(struct writer *w)
{
	if (w->depth && w->levels[w->depth - 1].object)
		w->members[w->n_members - 1].end = w->out->len;
}

static const char *sort_text; /* the text whose members qsort compares */
static const struct trace_member *sort_members;

static int member_order(const void *a, const void *b)
{
	const struct trace_member *x = &sort_members[*(const uint32_t *)a], *y = &sort_members[*(const uint32_t *)b];
	size_t lx = x->value_at - x->key_at, ly = y->value_at - y->key_at;
	int c = memcmp(sort_text + x->key_at, sort_text + y->key_at, lx < ly ? lx : ly);
	if (c == 0 && lx != ly)
		c = lx < ly ? -1 : 1;
	if (c == 0)
		c = *(const uint32_t *)a < *(const uint32_t *)b ? -1 : 1;
	return c;
}

static int index_order(const void *a, const void *b)
{
	const struct trace_member *x = &sort_members[*(const uint32_t *)a], *y = &sort_members[*(const uint32_t *)b];
	return x->index < y->index ? -1 : x->index > y->index;
}

/*
 * The object's members in JavaScript's order: array indexes ascending,
 * then the other keys where each first came, each key once with its
 * last value. The object's text is rewritten so.
 */
static void reorder(struct writer *w, struct trace_level *l)
{
	size_t n = w->n_members - l->first_member;
	struct trace_member *mb = w->members + l->first_member;
	uint32_t *order = xmalloc(n * sizeof *order), *last = xmalloc(n * sizeof *last);
	uint8_t *dropped = xcalloc(n, 1);
	for (size_t i = 0; i < n; i++)
		order[i] = (uint32_t)i, last[i] = (uint32_t)i;
	sort_text = w->out->bytes;
	sort_members = mb;
	qsort(order, n, sizeof *order, member_order);
	/* Equal keys are neighbours now, first in file order first: the first keeps the last's value. */
	for (size_t i = 1; i < n; i++) {
		const struct trace_member *a = &mb[order[i - 1]], *b = &mb[order[i]];
		if (a->value_at - a->key_at == b->value_at - b->key_at &&
		    memcmp(w->out->bytes + a->key_at, w->out->bytes + b->key_at, a->value_at - a->key_at) == 0) {
			size_t first = i - 1;
			while (first > 0 && dropped[order[first]])
				first--;
			last[order[first]] = order[i];
			dropped[order[i]] = 1;
		}
	}
	size_t kept = 0;
	for (size_t i = 0; i < n; i++)
		if (!dropped[i])
			order[kept++] = (uint32_t)i;
	size_t indexes = 0;
	for (size_t i = 0; i < kept; i++)
		if (mb[order[i]].is_index) {
			uint32_t o = order[i];
			memmove(order + indexes + 1, order + indexes, (i - indexes) * sizeof *order);
			order[indexes++] = o;
		}
	qsort(order, indexes, sizeof *order, index_order);
	struct trace_text text = { 0, 0, 0 };
	add_str(&text, "{");
	for (size_t i = 0; i < kept; i++) {
		const struct trace_member *k = &mb[order[i]], *v = &mb[last[order[i]]];
		if (i)
			add_str(&text, ",");
		trace_text_add(&text, w->out->bytes + k->key_at, k->value_at - k->key_at);
		trace_text_add(&text, w->out->bytes + v->value_at, v->end - v->value_at);
	}
	w->out->len = l->start;
	trace_text_add(w->out, text.bytes, text.len);
	free(text.bytes);
	free(order);
	free(last);
	free(dropped);
}

static void open_level(struct writer *w, int object)
{
	if (w->depth && !w->levels[w->depth - 1].object && w->levels[w->depth - 1].n_values++)
		add_str(w->out, ",");
	if (w->args && w->depth == 1 && w->arg >= 0)
		add_str(&w->args->value[w->arg], object ? "[object Object]" : "");
	grow((void **)&w->levels, &w->cap_levels, w->depth + 1, sizeof *w->levels);
	w->levels[w->depth++] = (struct trace_level){ w->out->len, w->n_members, (uint8_t)object, 0, 0 };
	add_str(w->out, object ? "{" : "[");
}

static void close_level(struct writer *w)
{
	struct trace_level *l = &w->levels[w->depth - 1];
	if (l->object && w->n_members - l->first_member > 1)
		l->rewrite = 1; /* a key may come twice: reorder finds out */
	if (l->rewrite)
		reorder(w, l);
	add_str(w->out, l->object ? "}" : "]");
	w->n_members = l->first_member;
	w->depth--;
	value_done(w);
}

/* A scalar value: its text, and as String() gives it for an args key asked about. */
static void scalar(struct writer *w, struct json *j, enum json_token t)
{
	if (w->depth && !w->levels[w->depth - 1].object && w->levels[w->depth - 1].n_values++)
		add_str(w->out, ",");
	size_t from = w->out->len;
	if (t == JSON_STRING)
		quoted(w->out, j->text, j->len);
	else if (t == JSON_NUMBER)
		trace_js_number(w->out, j->text);
	else
		add_str(w->out, t == JSON_TRUE ? "true" : t == JSON_FALSE ? "false" : "null");
	if (w->args && w->depth == 1 && w->arg >= 0) {
		struct trace_text *v = &w->args->value[w->arg];
		if (t == JSON_STRING)
			trace_text_add(v, j->text, j->len);
		else
			trace_text_add(v, w->out->bytes + from, w->out->len - from);
		w->args->is_string[w->arg] = t == JSON_STRING;
	}
	value_done(w);
}

int trace_stringify(struct json *j, enum json_token first, struct trace_text *out, struct trace_args *args)
{
	struct writer w = { out, NULL, 0, 0, NULL, 0, 0, args, -1 };
	if (args) { /* its work space, from the last call */
		w.levels = args->levels, w.cap_levels = args->cap_levels;
		w.members = args->members, w.cap_members = args->cap_members;
	}
	int rc = 0;
	enum json_token t = first;
	for (;;) {
		if (t == JSON_FAILED) {
			rc = -1;
			break;
		}
		if (t == JSON_OBJECT || t == JSON_ARRAY)
			open_level(&w, t == JSON_OBJECT);
		else if (t == JSON_OBJECT_END || t == JSON_ARRAY_END)
			close_level(&w);
		else if (t == JSON_KEY)
			key(&w, j->text, j->len);
		else
			scalar(&w, j, t);
		if (w.depth == 0)
			break;
		t = json_next(j);
	}
	if (args) {
		args->levels = w.levels, args->cap_levels = w.cap_levels;
		args->members = w.members, args->cap_members = w.cap_members;
	} else {
		free(w.levels);
		free(w.members);
	}
	return rc;
}

void trace_args_free(struct trace_args *args)
{
	for (int a = 0; a < ARG_COUNT; a++)
		free(args->value[a].bytes);
	free(args->levels);
	free(args->members);
}
