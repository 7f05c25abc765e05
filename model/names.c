/*
 * names: the name every view shows for a function (docs/model.md, "Frames,
 * their identity and names"), computed once per profile before it is
 * written.
 *
 * A function is what its input calls one: its name, file and start line
 * (and the rest model_function interns by). Views show a function by its
 * name; where two functions of the profile share that name but not their
 * file and start line (`<module>` of two files, `__init__` of two
 * classes, V8's `(anonymous)` functions), each is shown with its file and
 * line in the form of its ecosystem's tools: DevTools' `name file:line`
 * for V8's profiles, else py-spy's `name (file:line)` (`name (file)`
 * without a line). A name no other function has stays short, and so does
 * a function with no file and no line (shared_names says why). R's
 * profiles (rows with sessions) name a function by its name alone, as
 * summaryRprof does: the file R gives is where a line was, not the
 * function's, so their names stay as R wrote them.
 */
#include "model.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/alloc.h"

/* The name a function has before any file is added: its name, else its system name. */
static uint32_t bare_name(const struct model_function *f)
{
	return f->name ? f->name : f->system_name;
}

/* Does the function's file or start line tell it from others of its name? */
static int has_place(const struct model_function *f)
{
	return f->file_name != 0 || f->start_line > 0;
}

/*
 * For each function with a place, whether another function has its bare
 * name at another place: shared[f] by function, through the first placed
 * function of each name. A function with no file and no line is no other
 * function's rival: nothing tells it apart from one of its name that has
 * a place (a frame R gave no line, a pprof function not symbolized to a
 * file), so it is shown by its name alone.
 */
static uint8_t *shared_names(const struct model *m)
{
	size_t n = m->n_functions;
	uint32_t *first_of_name = xmalloc((m->strings.count + 1) * sizeof *first_of_name);
	memset(first_of_name, 0xff, (m->strings.count + 1) * sizeof *first_of_name);
	uint8_t *shared = xcalloc(n + 1, 1);
	for (size_t i = 0; i < n; i++) {
		const struct model_function *f = &m->functions[i];
		uint32_t *first = &first_of_name[bare_name(f)];
		if (!has_place(f))
			continue;
		if (*first == MODEL_NONE) {
			*first = (uint32_t)i;
			continue;
		}
		const struct model_function *g = &m->functions[*first];
		shared[*first] |= f->file_name != g->file_name || f->start_line != g->start_line;
	}
	for (size_t i = 0; i < n; i++) {
		const struct model_function *f = &m->functions[i];
		shared[i] = has_place(f) && shared[first_of_name[bare_name(f)]];
	}
	free(first_of_name);
	return shared;
}

static void append(char *text, size_t *len, const char *bytes, size_t n)
{
	memcpy(text + *len, bytes, n);
	*len += n;
}

/*
 * "name (file:line)", or DevTools' "name file:line", as a string of the
 * model; names and files are counted bytes (a pprof string may hold NUL).
 */
static uint32_t placed_name(struct model *m, const struct model_function *f, int devtools)
{
	const struct strtab_entry *name = strtab_get(&m->strings, bare_name(f));
	const struct strtab_entry *file = strtab_get(&m->strings, f->file_name);
	char line[32] = "";
	if (f->start_line > 0)
		snprintf(line, sizeof line, "%s%" PRId64, file->len ? ":" : "line ", f->start_line);
	char *text = xmalloc((size_t)name->len + file->len + sizeof line + 3);
	size_t len = 0;
	append(text, &len, name->bytes, name->len);
	append(text, &len, devtools ? " " : " (", devtools ? 1 : 2);
	append(text, &len, file->bytes, file->len);
	append(text, &len, line, strlen(line));
	append(text, &len, ")", devtools ? 0 : 1);
	uint32_t id = model_str(m, text, len);
	free(text);
	return id;
}

void model_name_functions(struct model *m)
{
	free(m->shown_names);
	m->shown_names = xmalloc((m->n_functions + 1) * sizeof *m->shown_names);
	m->n_shown_names = m->n_functions;
	uint8_t *shared = m->sessions.n_runs ? xcalloc(m->n_functions + 1, 1) : shared_names(m);
	uint32_t format = model_get_meta(m, "format");
	/* A trace is DevTools' too: its V8 profiles are named as DevTools names them. */
	int devtools = format != HASHIDX_NONE && (model_str_is(m, format, "cpuprofile") || model_str_is(m, format, "trace"));
	for (size_t i = 0; i < m->n_functions; i++) {
		const struct model_function *f = &m->functions[i];
		int placed = shared[i] && strtab_get(&m->strings, bare_name(f))->len;
		m->shown_names[i] = placed ? placed_name(m, f, devtools) : bare_name(f);
	}
	free(shared);
}

uint32_t model_shown_name(const struct model *m, uint32_t function)
{
	if (function < m->n_shown_names)
		return m->shown_names[function];
	return bare_name(&m->functions[function]);
}
