/*
 * Unit tests of the call-graph decomposition (model/callgraph.h) on
 * graphs built here, two events each. Every expected list of stacks was
 * worked out by hand from the rule in docs/callgraph.md; each test says
 * which part of the rule it holds, and what a broken rule would give.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../model/callgraph.h"
#include "../../model/rows.h"
#include "unit.h"

enum { EVENTS = 2 };

static uint32_t function_named(struct model *m, const char *name)
{
	struct model_function f = { 0 };
	f.name = f.system_name = model_str(m, name, strlen(name));
	return model_function(m, &f);
}

/* Self cost of `name` at `line`, for each event. */
static void self(struct model *m, struct callgraph *g, const char *name, int64_t line, int64_t e0, int64_t e1)
{
	uint32_t f = function_named(m, name);
	const int64_t costs[EVENTS] = { e0, e1 };
	CHECK(callgraph_add_self(g, f, model_location(m, f, line), costs) == 0);
}

/* Calls from `caller` at `line` into `callee`, with their inclusive cost per event. */
static void call(struct model *m, struct callgraph *g, const char *caller, int64_t line, const char *callee,
		 int64_t e0, int64_t e1)
{
	uint32_t from = function_named(m, caller), to = function_named(m, callee);
	const int64_t costs[EVENTS] = { e0, e1 };
	CHECK(callgraph_add_call(g, from, model_location(m, from, line), to, costs) == 0);
}

static void begin(struct model *m, struct callgraph **g)
{
	model_init(m);
	model_add_sample_type(m, "first", "count");
	model_add_sample_type(m, "second", "count");
	*g = callgraph_new(m, EVENTS);
}

/* The samples, one line each in order: "root:LINE;...;leaf:LINE E0 E1". */
static char *samples_of(struct model *m, struct callgraph *g)
{
	callgraph_samples(g);
	callgraph_free(g);
	static char text[4096];
	size_t len = 0, cap = 0;
	struct model_frame *frames = NULL;
	struct row_cursor rows;
	text[0] = '\0';
	rows_begin(m, &rows);
	for (const struct model_row *row; (row = rows_next(&rows)) && len < sizeof text;) {
		size_t n = model_stack_frames(m, row->stack, &frames, &cap);
		for (size_t k = n; k-- > 0 && len < sizeof text;) {
			struct model_name name;
			model_frame_name(m, &frames[k], &name);
			len += (size_t)snprintf(text + len, sizeof text - len, "%.*s:%lld%s", (int)name.len,
						name.bytes, (long long)frames[k].line, k ? ";" : "");
		}
		if (len < sizeof text)
			len += (size_t)snprintf(text + len, sizeof text - len, " %lld %lld\n",
						(long long)(row->values[0] * (int64_t)row->repeat),
						(long long)(row->values[1] * (int64_t)row->repeat));
	}
	rows_end(&rows);
	free(frames);
	model_free(m);
	return text;
}

/* Whether `got` is `want`; if not, both are shown, so a changed rule can be read. */
static int same(const char *got, const char *want)
{
	if (strcmp(got, want) == 0)
		return 1;
	fprintf(stderr, "got:\n%swant:\n%s", got, want);
	return 0;
}

/*
 * c is called from a (for 4) and from b (for 2), and holds its self cost
 * 3 and a call of d (3): under each caller it gets what that caller's
 * calls cost, and within that, its self cost and d in the same proportion
 * as in all of c (2 and 2 under a, 1 and 1 under b). Spending flow in the
 * file's order would put all of c's self cost under a (3 and 1, then 0
 * and 2). The second event has costs only in main and a.
 */
static void a_function_with_two_callers_is_split_as_the_arcs_say(void)
{
	struct model m;
	struct callgraph *g;
	begin(&m, &g);
	call(&m, g, "main", 1, "a", 6, 7);
	call(&m, g, "main", 2, "b", 3, 0);
	call(&m, g, "a", 10, "c", 4, 0);
	self(&m, g, "a", 11, 2, 7);
	call(&m, g, "b", 20, "c", 2, 0);
	self(&m, g, "b", 21, 1, 0);
	self(&m, g, "c", 30, 3, 0);
	call(&m, g, "c", 31, "d", 3, 0);
	self(&m, g, "d", 40, 3, 0);
	CHECK(same(samples_of(&m, g), "main:2;b:21 1 0\n"
				      "main:1;a:11 2 0\n"
				      "main:2;b:20;c:30 1 0\n"
				      "main:1;a:10;c:30 2 0\n"
				      "main:2;b:20;c:31;d:40 1 0\n"
				      "main:1;a:10;c:31;d:40 2 0\n"
				      "main:1;a:11 0 7\n"));
}

/*
 * main calls f for 6; f (self 1 in each of two levels) calls itself for 5
 * (callgrind's inclusive cost of the inner level) and g for 4. A call into
 * itself is inside its outer call: g's 4 sit under one f, and f's total is
 * 6, not 11. Following it would give main;f;f;g.
 */
static void recursion_is_counted_once(void)
{
	struct model m;
	struct callgraph *g;
	begin(&m, &g);
	call(&m, g, "main", 1, "f", 6, 0);
	self(&m, g, "f", 10, 2, 0);
	call(&m, g, "f", 11, "f", 5, 0);
	call(&m, g, "f", 12, "g", 4, 0);
	self(&m, g, "g", 20, 4, 0);
	CHECK(same(samples_of(&m, g), "main:1;f:10 2 0\n"
				      "main:1;f:12;g:20 4 0\n"));
}

/*
 * f, which only g calls, calls g (for 8, g's whole time) and holds 2; g
 * holds 3 and calls h for 5, and calls f back for 2 (time inside f's
 * outer call, counted again). The cycle f, g is one node: nothing enters
 * it, so it starts all it holds, 10, at f, the member holding most beyond
 * what calls bring it, and each cost is counted once: f's total is 10.
 * Taking g's call back as flow brought to f would start f at 8 and leave g
 * a stack of its own (g;h 2).
 */
static void a_cycle_stands_at_what_it_holds(void)
{
	struct model m;
	struct callgraph *g;
	begin(&m, &g);
	self(&m, g, "f", 10, 2, 0);
	call(&m, g, "f", 11, "g", 8, 0);
	self(&m, g, "g", 20, 3, 0);
	call(&m, g, "g", 21, "f", 2, 0);
	call(&m, g, "g", 22, "h", 5, 0);
	self(&m, g, "h", 30, 5, 0);
	CHECK(same(samples_of(&m, g), "f:10 2 0\n"
				      "f:11;g:20 3 0\n"
				      "f:11;g:22;h:30 5 0\n"));
}

/*
 * The cycle f, g is entered from main for 10 and calls h for 4 (from g);
 * main calls h too, for 2: h's 6 (self 6) goes under each caller as its
 * arc says, 4 under the cycle and 2 under main, and the cycle gets what
 * entered it, 10.
 */
static void an_arc_out_of_a_cycle_keeps_its_cost(void)
{
	struct model m;
	struct callgraph *g;
	begin(&m, &g);
	call(&m, g, "main", 1, "f", 10, 0);
	call(&m, g, "main", 2, "h", 2, 0);
	self(&m, g, "f", 10, 2, 0);
	call(&m, g, "f", 11, "g", 8, 0);
	self(&m, g, "g", 20, 4, 0);
	call(&m, g, "g", 21, "f", 3, 0);
	call(&m, g, "g", 22, "h", 4, 0);
	self(&m, g, "h", 30, 6, 0);
	CHECK(same(samples_of(&m, g), "main:1;f:10 2 0\n"
				      "main:1;f:11;g:20 4 0\n"
				      "main:2;h:30 2 0\n"
				      "main:1;f:11;g:22;h:30 4 0\n"));
}

/*
 * e is called for 6 but holds 4 and calls nothing (cProfile's untraced C
 * calls): the 2 stay under e, in a frame that says what they are, not in
 * its self cost. t is called from main for 2 but holds 5 (clone() starting
 * a thread): its other 3 start under a frame that says no caller was
 * recorded. What t holds is split over its two arrivals in proportion, in
 * whole units: of main's 2, w's share 1.6 and t's own 0.4 round to 2 and 0.
 */
static void time_the_graph_cannot_place_is_named(void)
{
	struct model m;
	struct callgraph *g;
	begin(&m, &g);
	call(&m, g, "t", 10, "w", 4, 0);
	self(&m, g, "t", 11, 1, 0);
	self(&m, g, "w", 20, 4, 0);
	call(&m, g, "main", 1, "t", 2, 0);
	call(&m, g, "s", 30, "e", 6, 0);
	self(&m, g, "e", 40, 4, 0);
	CHECK(same(samples_of(&m, g), "s:30;e:40 4 0\n"
				      "s:30;e:40;(untraced calls):0 2 0\n"
				      "(no recorded caller):0;t:11 1 0\n"
				      "main:1;t:10;w:20 2 0\n"
				      "(no recorded caller):0;t:10;w:20 2 0\n"));
}

/* Costs add up per location and per arc; a sum past 2^63-1 is refused. */
static void costs_add_up_and_overflow_is_refused(void)
{
	struct model m;
	struct callgraph *g;
	begin(&m, &g);
	self(&m, g, "main", 1, 2, 1);
	self(&m, g, "main", 1, 3, 1);
	uint32_t f = function_named(&m, "main");
	const int64_t huge[EVENTS] = { INT64_MAX, 0 };
	CHECK(callgraph_add_self(g, f, model_location(&m, f, 2), huge) == 0);
	CHECK(callgraph_add_self(g, f, model_location(&m, f, 2), huge) < 0);
	CHECK(callgraph_add_call(g, f, model_location(&m, f, 3), f, huge) == 0);
	CHECK(callgraph_add_call(g, f, model_location(&m, f, 3), f, huge) < 0);
	callgraph_free(g);
	model_free(&m);
	begin(&m, &g);
	self(&m, g, "main", 1, 2, 1);
	self(&m, g, "main", 1, 3, 1);
	CHECK(strcmp(samples_of(&m, g), "main:1 5 0\nmain:1 0 2\n") == 0);
}

/* A graph of one event (time) and one count type (calls), over main, a and b, for the counts' tests. */
struct counted {
	struct model m;
	struct callgraph *g;
	uint32_t main, a, b;
};

static void begin_counted(struct counted *t)
{
	model_init(&t->m);
	model_add_sample_type(&t->m, "time", "count");
	model_add_sample_type(&t->m, "calls", "count");
	t->g = callgraph_new(&t->m, 1);
	t->main = function_named(&t->m, "main");
	t->a = function_named(&t->m, "a");
	t->b = function_named(&t->m, "b");
}

/* Function fn's own cost at `line`. */
static void own(struct counted *t, uint32_t fn, int64_t line, int64_t cost)
{
	CHECK(callgraph_add_self(t->g, fn, model_location(&t->m, fn, line), &cost) == 0);
}

/* Calls from `from` at line `site` into `to`, costing `cost`, then their count, with `to`'s frame at `to_line`. */
static void counted_call(struct counted *t, uint32_t from, int64_t site, uint32_t to, int64_t cost, int64_t to_line,
			 int64_t calls)
{
	uint32_t at = model_location(&t->m, from, site);
	CHECK(callgraph_add_distinct_call(t->g, from, at, to, &cost) == 0);
	callgraph_add_count(t->g, from, at, to, model_location(&t->m, to, to_line), &calls);
}

/*
 * Counts (the type after the one event) do not flow: main's calls of a
 * (its arc the last added) ride with a's time; b, whom a calls taking no
 * time, is reached through the counts, under a's first stack; main's
 * calls from outside are a one-frame sample. Counts spent as flow would
 * give b no stack.
 */
static void counts_go_under_the_callers_first_stack(void)
{
	struct counted t;
	begin_counted(&t);
	const int64_t three = 3, outside = 1, twice = 2, four = 4;
	own(&t, t.main, 1, 1);
	CHECK(callgraph_add_call(t.g, t.main, model_location(&t.m, t.main, 2), t.a, &three) == 0);
	own(&t, t.a, 10, 3);
	callgraph_add_count(t.g, MODEL_NONE, MODEL_NONE, t.main, model_location(&t.m, t.main, 1), &outside);
	callgraph_add_count(t.g, t.main, model_location(&t.m, t.main, 2), t.a, model_location(&t.m, t.a, 10), &twice);
	callgraph_add_count(t.g, t.a, model_location(&t.m, t.a, 11), t.b, model_location(&t.m, t.b, 20), &four);
	CHECK(same(samples_of(&t.m, t.g), "main:1 1 0\nmain:2;a:10 3 2\nmain:1 0 1\nmain:2;a:11;b:20 0 4\n"));
}

/*
 * Counts added right after their arc go with the callee's own cost on the
 * stack the flow brings it through that arc: one sample, not two, for
 * main;a. Counts not carried by flow (b's: its arc costs nothing) stay a
 * sample of their own. Counts left out of the flow would give four rows.
 */
static void counts_ride_with_the_flow_of_their_arc(void)
{
	struct counted t;
	begin_counted(&t);
	own(&t, t.main, 1, 1);
	own(&t, t.a, 10, 3);
	counted_call(&t, t.main, 2, t.a, 3, 10, 2);
	counted_call(&t, t.a, 11, t.b, 0, 20, 4);
	CHECK(same(samples_of(&t.m, t.g), "main:1 1 0\nmain:2;a:10 3 2\nmain:2;a:11;b:20 0 4\n"));
}

/*
 * A callee with no own cost of its own where its arc brings it (a only
 * calls b) has its counts in a sample of their own on the stack the flow
 * made for its frame, main;a, before the flow goes on under it; b's ride
 * with its time. Counts left to the walk after the flow would come after
 * b's time, under a's first stack.
 */
static void counts_of_a_callee_without_own_cost_go_on_its_frame(void)
{
	struct counted t;
	begin_counted(&t);
	own(&t, t.main, 1, 1);
	own(&t, t.b, 20, 3);
	counted_call(&t, t.main, 2, t.a, 3, 11, 2);
	counted_call(&t, t.a, 11, t.b, 3, 20, 4);
	CHECK(same(samples_of(&t.m, t.g), "main:1 1 0\nmain:2;a:11 0 2\nmain:2;a:11;b:20 3 4\n"));
}

/* The profiler's own total of `name`, for each event. */
static void total(struct model *m, struct callgraph *g, const char *name, int64_t e0, int64_t e1)
{
	const int64_t totals[EVENTS] = { e0, e1 };
	callgraph_set_total(g, function_named(m, name), totals);
}

/*
 * The cycle a, b is entered at both: main calls a for 6 and b for 6; each
 * holds 5 and calls the other for 1 (time counted again, as cProfile's
 * arcs within a cycle are), and each's own total is 6. What arrives at an
 * entry is first its own member's: a's tree holds a's 6 and b's tree b's
 * 6. Splitting the cycle's 12 over both entries in proportion would put
 * half of b under a (main;a;b 3): b's total 9, above its own 6.
 */
static void an_entry_takes_its_own_member_first(void)
{
	struct model m;
	struct callgraph *g;
	begin(&m, &g);
	call(&m, g, "main", 1, "a", 6, 0);
	call(&m, g, "main", 2, "b", 6, 0);
	self(&m, g, "a", 10, 6, 0);
	call(&m, g, "a", 11, "b", 1, 0);
	self(&m, g, "b", 20, 6, 0);
	call(&m, g, "b", 21, "a", 1, 0);
	total(&m, g, "a", 6, 0);
	total(&m, g, "b", 6, 0);
	CHECK(same(samples_of(&m, g), "main:1;a:10 6 0\n"
				      "main:2;b:20 6 0\n"));
}

/*
 * The cycle e, u, v is entered at e for 9: e calls u (8), u calls v (7), v
 * calls e back (1); each holds 1, 1 and 7. Laid out along its calls v
 * would go under u, but u's own total is 2: v would bring u to 8. So v
 * goes right under the entry, which reaches it through the cycle. Without
 * the bound: main;e;u;v 7.
 */
static void a_cycle_member_stays_within_its_own_total(void)
{
	struct model m;
	struct callgraph *g;
	begin(&m, &g);
	call(&m, g, "main", 1, "e", 9, 0);
	self(&m, g, "e", 10, 1, 0);
	call(&m, g, "e", 11, "u", 8, 0);
	self(&m, g, "u", 20, 1, 0);
	call(&m, g, "u", 21, "v", 7, 0);
	self(&m, g, "v", 30, 7, 0);
	call(&m, g, "v", 31, "e", 1, 0);
	total(&m, g, "u", 2, 0);
	CHECK(same(samples_of(&m, g), "main:1;e:10 1 0\n"
				      "main:1;e:11;u:20 1 0\n"
				      "main:1;e:10;v:30 7 0\n"));
}

/*
 * f, which nobody calls, holds 2 and calls g for 1, but its own total is
 * 5 (a script's time in calls the profiler did not trace): the 2 left are
 * untraced time under f, so that f stands at 5, not 3.
 */
static void an_uncalled_function_stands_at_its_own_total(void)
{
	struct model m;
	struct callgraph *g;
	begin(&m, &g);
	self(&m, g, "f", 10, 2, 0);
	call(&m, g, "f", 11, "g", 1, 0);
	self(&m, g, "g", 20, 1, 0);
	total(&m, g, "f", 5, 0);
	CHECK(same(samples_of(&m, g), "f:10 2 0\n"
				      "f:10;(untraced calls):0 2 0\n"
				      "f:11;g:20 1 0\n"));
}

/*
 * h is called from 1500 functions and calls 1500 others, for 1000 each:
 * splitting each caller's share over every callee in proportion would
 * make 2.25 million parts, past the bound (2^20 per event). Past it each
 * caller takes the callees in order, so the parts are 1500, and every
 * function's total is still its arcs' 1000.
 */
static void past_the_bound_callers_take_callees_in_order(void)
{
	enum { SIDE = 1500 };
	struct model m;
	struct callgraph *g;
	begin(&m, &g);
	char name[32];
	for (int i = 0; i < SIDE; i++) {
		snprintf(name, sizeof name, "c%d", i);
		call(&m, g, "main", i, name, 1000, 0);
		call(&m, g, name, 1, "h", 1000, 0);
		snprintf(name, sizeof name, "k%d", i);
		call(&m, g, "h", i, name, 1000, 0);
		self(&m, g, name, 1, 1000, 0);
	}
	callgraph_samples(g);
	callgraph_free(g);
	size_t n_rows = 0, whole = 0;
	int callers_seen[SIDE] = { 0 }, callees_seen[SIDE] = { 0 };
	struct model_frame *frames = NULL;
	size_t cap = 0;
	struct row_cursor rows;
	rows_begin(&m, &rows);
	for (const struct model_row *row; (row = rows_next(&rows)); n_rows++) {
		size_t n = model_stack_frames(&m, row->stack, &frames, &cap);
		struct model_name caller, callee;
		model_frame_name(&m, &frames[n - 2], &caller);
		model_frame_name(&m, &frames[0], &callee);
		char c_name[16] = "", k_name[16] = "";
		memcpy(c_name, caller.bytes, caller.len < 15 ? caller.len : 15);
		memcpy(k_name, callee.bytes, callee.len < 15 ? callee.len : 15);
		int c = atoi(c_name + 1), k = atoi(k_name + 1);
		if (n == 4 && row->values[0] * (int64_t)row->repeat == 1000 && c >= 0 && c < SIDE && k >= 0 && k < SIDE) {
			whole++;
			callers_seen[c]++;
			callees_seen[k]++;
		}
	}
	rows_end(&rows);
	free(frames);
	model_free(&m);
	CHECK(n_rows == SIDE && whole == SIDE);
	for (int i = 0; i < SIDE; i++)
		CHECK(callers_seen[i] == 1 && callees_seen[i] == 1);
}

const struct unit_test callgraph_tests[] = {
	{ "a_function_with_two_callers_is_split_as_the_arcs_say",
	  a_function_with_two_callers_is_split_as_the_arcs_say },
	{ "recursion_is_counted_once", recursion_is_counted_once },
	{ "a_cycle_stands_at_what_it_holds", a_cycle_stands_at_what_it_holds },
	{ "an_arc_out_of_a_cycle_keeps_its_cost", an_arc_out_of_a_cycle_keeps_its_cost },
	{ "time_the_graph_cannot_place_is_named", time_the_graph_cannot_place_is_named },
	{ "costs_add_up_and_overflow_is_refused", costs_add_up_and_overflow_is_refused },
	{ "counts_go_under_the_callers_first_stack", counts_go_under_the_callers_first_stack },
	{ "counts_ride_with_the_flow_of_their_arc", counts_ride_with_the_flow_of_their_arc },
	{ "counts_of_a_callee_without_own_cost_go_on_its_frame", counts_of_a_callee_without_own_cost_go_on_its_frame },
	{ "an_entry_takes_its_own_member_first", an_entry_takes_its_own_member_first },
	{ "a_cycle_member_stays_within_its_own_total", a_cycle_member_stays_within_its_own_total },
	{ "an_uncalled_function_stands_at_its_own_total", an_uncalled_function_stands_at_its_own_total },
	{ "past_the_bound_callers_take_callees_in_order", past_the_bound_callers_take_callees_in_order },
	{ NULL, NULL },
};
