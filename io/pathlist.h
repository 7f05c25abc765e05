/*
 * pathlist: the inputs of a run, one at a time: the FILEs of the command
 * line, then the paths a list names (--files-from LIST; "-" reads the
 * list from stdin). A list holds one path per line, or with --null one
 * per NUL-terminated entry (find -print0), so that any name can be
 * listed; empty entries are skipped. The list is read as the inputs are
 * needed, never whole: a day of a fleet's profiles costs no memory here.
 */
#ifndef PROF_PATHLIST_H
#define PROF_PATHLIST_H

#include <stdio.h>

struct pathlist {
	char **args;          /* the command line's FILEs */
	int n_args, next_arg;
	const char *list_name; /* NULL: no list */
	FILE *list;
	int separator;        /* '\n', or '\0' with --null */
	unsigned long long entry; /* number of the last entry read, for messages */
	char *path;           /* the last path from the list */
	size_t cap_path;
	int failed;           /* the list could not be opened or read, and said so */
};

/* Opens the list (NULL: none); -1 after reporting when it cannot be opened. */
int pathlist_open(struct pathlist *p, char **args, int n_args, const char *list_name, int null);
/*
 * The next input's path, valid until the next call; NULL after the last,
 * or when the list failed (p->failed, with a message).
 */
const char *pathlist_next(struct pathlist *p);
void pathlist_close(struct pathlist *p);

#endif
