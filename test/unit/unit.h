/* A minimal test harness: each CHECK that fails prints where and why. */
#ifndef PROF_UNIT_H
#define PROF_UNIT_H

#include <stdio.h>

#include "../../model/model.h"

extern int unit_failures;

#define CHECK(cond)                                                                    \
	do {                                                                           \
		if (!(cond)) {                                                         \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, \
				#cond);                                                \
			unit_failures++;                                               \
		}                                                                      \
	} while (0)

/* Reads an Rprof file into m; 0 on success. */
int load_rprof(const char *path, struct model *m);
/*
 * Row `index` of m (tests look at a few rows by position), with the first
 * value in *value0.
 */
struct model_row row_at(const struct model *m, size_t index, int64_t *value0);
/* Does name `s` (exact bytes, NUL-terminated) name a function of m? */
int has_function_named(const struct model *m, const char *s);

struct unit_test {
	const char *name;
	void (*run)(void);
};

/* Each ends with a { NULL, NULL } entry. */
extern const struct unit_test model_tests[];
extern const struct unit_test rprof_tests[];
extern const struct unit_test callgraph_tests[];
extern const struct unit_test units_tests[];
extern const struct unit_test json_tests[];

#endif
