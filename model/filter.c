/*
 * filter (filter.h): each stage maps every stack id to the stack a sample
 * of it has after the stage (MODEL_NONE: the sample is dropped), building
 * new stack nodes and locations in the source model as it goes. Stacks are
 * visited in id order, which puts every caller before its callees, so a
 * stack's answer is made from its caller's. The stages' maps are then
 * composed and the rows copied through the result (model_copy), which
 * keeps runs, labels and memory columns where they stood.
 *
 * pprof's rules are on locations and their lines (a location's own line,
 * then the callers inlined into it), and a location whose lines a filter
 * changes is pprof's same location with fewer lines: here, a new location
 * with the same address and mapping.
 */
#include "filter.h"

#include <string.h>

#include "../base/alloc.h"
#include "../base/diag.h"
#include "aggregate.h"
#include "merge.h"
#include "view.h"

/* One location's lines at a time, in a buffer reused from one to the next (not io/lines.h's). */
struct line_scratch {
	struct model_line *at;
	size_t n, cap;
};

/* Location `loc`'s lines, innermost first; none for an unsymbolized address. */
static void location_lines(const struct model *m, uint32_t loc, struct line_scratch *out)
{
	const struct model_location *l = &m->locations[loc];
	out->n = 0;
	if (l->function == MODEL_NONE)
		return;
	grow((void **)&out->at, &out->cap, 1 + (size_t)l->n_inlined, sizeof *out->at);
	out->at[0] = (struct model_line){ l->function, l->line, l->column };
	if (l->n_inlined) /* else m->inlined may be NULL */
		memcpy(out->at + 1, m->inlined + l->first_inlined, l->n_inlined * sizeof *out->at);
	out->n = 1 + (size_t)l->n_inlined;
}

/* Location `loc` with only `n` (at least one) of its lines, `kept`. */
static uint32_t relocate(struct model *m, uint32_t loc, const struct model_line *kept, size_t n)
{
	struct model_location l = m->locations[loc];
	l.function = kept[0].function;
	l.line = kept[0].line;
	l.column = kept[0].column;
	l.native.id = 0; /* the input's id names the location with all its lines */
	return model_add_location(m, &l, kept + 1, n - 1);
}

static int matches(const struct model *m, const regex_t *re, uint32_t str)
{
	return regexec(re, model_cstr(m, str), 0, NULL, 0) == 0;
}

static int line_matches(const struct model *m, const regex_t *re, const struct model_line *line)
{
	const struct model_function *f = &m->functions[line->function];
	return matches(m, re, f->name) || matches(m, re, f->file_name);
}

static int mapping_matches(const struct model *m, const regex_t *re, uint32_t loc)
{
	uint32_t mapping = m->locations[loc].native.mapping;
	return mapping != MODEL_NONE && matches(m, re, m->native.mappings[mapping].filename);
}

static int location_matches(const struct model *m, const regex_t *re, uint32_t loc,
			    const struct line_scratch *ln)
{
	for (size_t i = 0; i < ln->n; i++)
		if (line_matches(m, re, &ln->at[i]))
			return 1;
	return mapping_matches(m, re, loc);
}

/* Keeps the lines that match `re` (want 1) or do not (want 0), in place. */
static void keep_lines(const struct model *m, const regex_t *re, int want, struct line_scratch *ln)
{
	size_t kept = 0;
	for (size_t i = 0; i < ln->n; i++)
		if (line_matches(m, re, &ln->at[i]) == want)
			ln->at[kept++] = ln->at[i];
	ln->n = kept;
}

struct stage {
	uint32_t *stacks; /* by stack id, for ids below n */
	size_t n;
};

static void stage_begin(struct stage *s, const struct model *m)
{
	s->n = m->n_stacks;
	s->stacks = xmalloc(s->n * sizeof *s->stacks);
}

/* pprof's FilterSamplesByName: which locations are focused or ignored, and their lines after hide and show. */
struct by_name {
	uint8_t *focused, *ignored;
	uint32_t *location; /* MODEL_NONE: hidden */
	int focus_matched, ignore_matched, hide_matched, show_matched;
};

static void name_location(struct model *m, const struct filter_spec *f, uint32_t loc, struct line_scratch *ln,
			  struct by_name *b)
{
	location_lines(m, loc, ln);
	size_t all = ln->n;
	if (f->ignore && location_matches(m, f->ignore, loc, ln))
		b->ignored[loc] = b->ignore_matched = 1;
	else if (!f->focus || location_matches(m, f->focus, loc, ln))
		b->focused[loc] = b->focus_matched = 1;
	int hidden = 0;
	if (f->hide && location_matches(m, f->hide, loc, ln)) {
		b->hide_matched = 1;
		if (mapping_matches(m, f->hide, loc))
			ln->n = 0;
		keep_lines(m, f->hide, 0, ln);
		hidden = ln->n == 0;
	}
	if (f->show) {
		if (!mapping_matches(m, f->show, loc))
			keep_lines(m, f->show, 1, ln);
		hidden = ln->n == 0;
		b->show_matched |= !hidden;
	}
	b->location[loc] = hidden ? MODEL_NONE : ln->n == all ? loc : relocate(m, loc, ln->at, ln->n);
}

static void warn_unmatched(int wanted, int matched, const char *option)
{
	if (wanted && !matched)
		diag_warn(NULL, 0, "--%s matched no frame", option);
}

static struct stage by_name_stage(struct model *m, const struct filter_spec *f)
{
	size_t n_locations = m->n_locations;
	struct by_name b = { xcalloc(n_locations + 1, 1), xcalloc(n_locations + 1, 1),
			     xmalloc((n_locations + 1) * sizeof *b.location), 0, 0, 0, 0 };
	struct line_scratch ln = { 0 };
	for (uint32_t loc = 0; loc < n_locations; loc++)
		name_location(m, f, loc, &ln, &b);
	free(ln.at);
	warn_unmatched(f->focus != NULL, b.focus_matched, "focus");
	warn_unmatched(f->ignore != NULL, b.ignore_matched, "ignore");
	warn_unmatched(f->hide != NULL, b.hide_matched, "hide");
	warn_unmatched(f->show != NULL, b.show_matched, "show");

	struct stage s;
	stage_begin(&s, m);
	uint8_t *focused = xcalloc(s.n, 1), *ignored = xcalloc(s.n, 1);
	uint32_t *kept = xmalloc(s.n * sizeof *kept); /* the stack with hidden locations left out */
	kept[0] = MODEL_EMPTY_STACK;
	s.stacks[0] = MODEL_NONE; /* pprof keeps no sample without a focused location */
	for (size_t id = 1; id < s.n; id++) {
		uint32_t loc = m->stacks[id].location, caller = m->stacks[id].caller;
		focused[id] = focused[caller] | b.focused[loc];
		ignored[id] = ignored[caller] | b.ignored[loc];
		uint32_t to = b.location[loc];
		kept[id] = to == MODEL_NONE ? kept[caller] : model_stack(m, to, kept[caller]);
		s.stacks[id] = focused[id] && !ignored[id] && kept[id] != MODEL_EMPTY_STACK ? kept[id] : MODEL_NONE;
	}
	free(focused);
	free(ignored);
	free(kept);
	free(b.focused);
	free(b.ignored);
	free(b.location);
	return s;
}

/*
 * pprof's ShowFrom: a matching location loses the inlined callers outside
 * its outermost matching line; a sample keeps its frames from the leaf up
 * to its outermost matching location, and goes when none matches.
 */
static uint32_t show_from_location(struct model *m, const regex_t *re, uint32_t loc, struct line_scratch *ln)
{
	if (mapping_matches(m, re, loc))
		return loc;
	location_lines(m, loc, ln);
	for (size_t i = ln->n; i-- > 0;)
		if (line_matches(m, re, &ln->at[i]))
			return i + 1 == ln->n ? loc : relocate(m, loc, ln->at, i + 1);
	return MODEL_NONE;
}

typedef uint32_t location_rule(struct model *m, const regex_t *re, uint32_t loc, struct line_scratch *ln);

/* Each location through `rule` (MODEL_NONE: no match); warns when none matched. */
static uint32_t *match_locations(struct model *m, const regex_t *re, location_rule *rule, const char *option)
{
	size_t n_locations = m->n_locations;
	uint32_t *matched = xmalloc((n_locations + 1) * sizeof *matched);
	struct line_scratch ln = { 0 };
	int any = 0;
	for (uint32_t loc = 0; loc < n_locations; loc++)
		any |= (matched[loc] = rule(m, re, loc, &ln)) != MODEL_NONE;
	free(ln.at);
	warn_unmatched(1, any, option);
	return matched;
}

static struct stage show_from_stage(struct model *m, const regex_t *re)
{
	uint32_t *matched = match_locations(m, re, show_from_location, "show-from");
	struct stage s;
	stage_begin(&s, m);
	s.stacks[0] = MODEL_NONE;
	for (size_t id = 1; id < s.n; id++) {
		uint32_t loc = m->stacks[id].location, caller = m->stacks[id].caller;
		uint32_t to = matched[loc] == MODEL_NONE ? loc : matched[loc];
		if (s.stacks[caller] != MODEL_NONE)
			s.stacks[id] = model_stack(m, to, s.stacks[caller]);
		else
			s.stacks[id] = matched[loc] == MODEL_NONE ? MODEL_NONE : model_stack(m, to, MODEL_EMPTY_STACK);
	}
	free(matched);
	return s;
}

/* pprof's simplifyFunc: the name without a leading '.' and from the first '(' on, but for the names that hold one. */
static size_t simplified_length(const char *name, const char **start)
{
	static const char *const reserved[] = { "(anonymous namespace)", "operator()" };
	*start = name + (name[0] == '.');
	const char *p = *start;
	while (*p) {
		size_t skip = 0;
		for (size_t r = 0; r < 2 && !skip; r++)
			if (strncmp(p, reserved[r], strlen(reserved[r])) == 0)
				skip = strlen(reserved[r]);
		if (!skip && *p == '(')
			break;
		p += skip ? skip : 1;
	}
	return (size_t)(p - *start);
}

static int simplified_matches(const struct model *m, const regex_t *re, uint32_t function)
{
	const char *name = model_cstr(m, m->functions[function].name), *start;
	if (!name[0])
		return 0;
	size_t len = simplified_length(name, &start);
	char *copy = xmalloc(len + 1);
	memcpy(copy, start, len);
	copy[len] = '\0';
	int hit = regexec(re, copy, 0, NULL, 0) == 0;
	free(copy);
	return hit;
}

/* pprof's PruneFrom: a matching location loses its inlined callees; a sample loses the frames below its innermost match. */
static uint32_t prune_from_location(struct model *m, const regex_t *re, uint32_t loc, struct line_scratch *ln)
{
	location_lines(m, loc, ln);
	for (size_t i = 0; i < ln->n; i++)
		if (simplified_matches(m, re, ln->at[i].function))
			return i == 0 ? loc : relocate(m, loc, ln->at + i, ln->n - i);
	return MODEL_NONE;
}

static struct stage prune_from_stage(struct model *m, const regex_t *re)
{
	uint32_t *pruned = match_locations(m, re, prune_from_location, "prune-from");
	struct stage s;
	stage_begin(&s, m);
	uint32_t *whole = xmalloc(s.n * sizeof *whole); /* the stack with every match's location pruned */
	uint8_t *has_match = xcalloc(s.n, 1);
	whole[0] = s.stacks[0] = MODEL_EMPTY_STACK;
	for (size_t id = 1; id < s.n; id++) {
		uint32_t loc = m->stacks[id].location, caller = m->stacks[id].caller;
		int match = pruned[loc] != MODEL_NONE;
		whole[id] = model_stack(m, match ? pruned[loc] : loc, whole[caller]);
		has_match[id] = has_match[caller] | match;
		s.stacks[id] = match || !has_match[caller] ? whole[id] : s.stacks[caller];
	}
	free(whole);
	free(has_match);
	free(pruned);
	return s;
}

/* proftools' maxdepth: the stack's outermost `depth` frames. */
static struct stage max_depth_stage(const struct model *m, uint64_t max)
{
	struct stage s;
	stage_begin(&s, m);
	uint64_t *depth = xmalloc(s.n * sizeof *depth);
	depth[0] = 0;
	s.stacks[0] = MODEL_EMPTY_STACK;
	for (size_t id = 1; id < s.n; id++) {
		uint32_t caller = m->stacks[id].caller;
		depth[id] = depth[caller] + 1;
		s.stacks[id] = depth[id] <= max ? (uint32_t)id : s.stacks[caller];
	}
	free(depth);
	return s;
}

/* Each of `map`'s stacks (below n) through `stage`, which is then freed. */
static void compose(uint32_t *map, size_t n, struct stage stage)
{
	for (size_t id = 0; id < n; id++)
		if (map[id] != MODEL_NONE)
			map[id] = stage.stacks[map[id]];
	free(stage.stacks);
}

/* The stack with its outermost frame given R's call site `site`. */
static uint32_t stack_called(struct model *m, uint32_t stack, struct model_call_site site, uint32_t **frames,
			     size_t *cap)
{
	size_t n = 0;
	for (uint32_t s = stack; s != MODEL_EMPTY_STACK; s = m->stacks[s].caller) {
		grow((void **)frames, cap, n + 1, sizeof **frames);
		(*frames)[n++] = m->stacks[s].location;
	}
	const struct model_location *outermost = &m->locations[(*frames)[n - 1]];
	uint32_t called = model_location_called(m, outermost->function, outermost->line, site);
	stack = model_stack(m, called, MODEL_EMPTY_STACK);
	for (size_t k = n - 1; k-- > 0;)
		stack = model_stack(m, (*frames)[k], stack);
	return stack;
}

/*
 * R's call site is the sample's, as pprof keeps it in labels: where a
 * filter took the outermost frame away, the new outermost frame holds it.
 */
static void keep_call_sites(struct model *m, uint32_t *map, size_t n)
{
	uint32_t *frames = NULL;
	size_t cap = 0;
	for (size_t id = 1; m->sessions.n_runs && id < n; id++) {
		if (map[id] == MODEL_NONE || map[id] == MODEL_EMPTY_STACK || map[id] == id)
			continue;
		struct model_call_site site = model_stack_call_site(m, (uint32_t)id),
				       now = model_stack_call_site(m, map[id]);
		if ((site.line || site.raw) && (now.file != site.file || now.line != site.line || now.raw != site.raw))
			map[id] = stack_called(m, map[id], site, &frames, &cap);
	}
	free(frames);
}

int filter_wanted(const struct filter_spec *f)
{
	return f->focus || f->ignore || f->hide || f->show || f->show_from || f->prune_from || f->max_depth ||
	       f->first_sample || f->end_sample != UINT64_MAX || f->has_time;
}

/* How long a row's samples last, each: its run's interval, or its timeline type's value. */
static uint64_t sample_us(const struct model *m, const struct model_row *r, double ns_per_value)
{
	if (m->sessions.n_runs)
		return m->sessions.runs[r->run].interval_us;
	int64_t v = r->values[m->timeline_type];
	return v > 0 ? (uint64_t)((double)v * ns_per_value / 1000.0) : 0;
}

/* With timed rows: the index of the first sample taken `us` or later after the first. */
static uint64_t first_timed_sample_at(const struct model *m, uint64_t us)
{
	uint64_t index = 0;
	int64_t ns = us > INT64_MAX / 1000 ? INT64_MAX : (int64_t)(us * 1000);
	struct row_cursor rows;
	rows_begin(m, &rows);
	for (const struct model_row *r; (r = rows_next(&rows)) && r->time_ns < ns;)
		index += r->repeat;
	rows_end(&rows);
	return index;
}

/* The index of the first sample that starts at `us` or later. */
static uint64_t first_sample_at(const struct model *m, uint64_t us)
{
	if (m->timed_rows)
		return first_timed_sample_at(m, us);
	uint64_t elapsed = 0, index = 0;
	const struct model_sample_type *clock = m->sessions.n_runs ? NULL : &m->sample_types[m->timeline_type];
	double ns_per_value = clock ? view_ns_per_value(model_cstr(m, clock->unit), clock->decimals) : 0;
	struct row_cursor rows;
	rows_begin(m, &rows);
	for (const struct model_row *r; (r = rows_next(&rows)); index += r->repeat) {
		uint64_t interval = sample_us(m, r, ns_per_value);
		if (elapsed >= us)
			break;
		uint64_t need = interval ? (us - elapsed + interval - 1) / interval : 0;
		if (need < r->repeat) {
			index += need;
			break;
		}
		elapsed += r->repeat * interval;
	}
	rows_end(&rows);
	return index;
}

/* --time as a window of sample indexes, within --samples' window. */
static int time_window(const struct model *m, const struct filter_spec *f, uint64_t *first, uint64_t *end)
{
	*first = f->first_sample;
	*end = f->end_sample;
	if (!f->has_time)
		return 0;
	if (!model_has_times(m)) {
		/* Which formats can have times is the registry's to say, a floor above. */
		diag_error(NULL, 0, "--time needs samples with times (the inputs --list-formats marks 't' "
				    "can have them); this input has none: try --samples");
		return -1;
	}
	uint64_t from = first_sample_at(m, f->from_us), to = f->to_us == UINT64_MAX ? UINT64_MAX : first_sample_at(m, f->to_us);
	*first = from > *first ? from : *first;
	*end = to < *end ? to : *end;
	if (*end < *first)
		*end = *first;
	return 0;
}

int model_filter(struct model *m, const struct filter_spec *f, struct model *out)
{
	struct row_edit edit;
	if (time_window(m, f, &edit.first_sample, &edit.end_sample) < 0)
		return -1;
	size_t n = m->n_stacks;
	uint32_t *map = xmalloc(n * sizeof *map);
	for (size_t id = 0; id < n; id++)
		map[id] = (uint32_t)id;
	if (f->focus || f->ignore || f->hide || f->show)
		compose(map, n, by_name_stage(m, f));
	if (f->show_from)
		compose(map, n, show_from_stage(m, f->show_from));
	if (f->prune_from)
		compose(map, n, prune_from_stage(m, f->prune_from));
	if (f->max_depth)
		compose(map, n, max_depth_stage(m, f->max_depth));
	keep_call_sites(m, map, n);
	edit.stacks = map;
	edit.label_sets = NULL;
	edit.scale = NULL;
	model_copy(out, m, &edit);
	if (f->focus || f->ignore || f->hide || f->show)
		out->whole_totals = percent_totals(m);
	free(map);
	if (out->n_rows == 0 && m->n_rows > 0)
		diag_warn(NULL, 0, "the filters left no sample");
	return 0;
}
