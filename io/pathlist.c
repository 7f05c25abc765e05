#include "pathlist.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../base/diag.h"

int pathlist_open(struct pathlist *p, char **args, int n_args, const char *list_name, int null)
{
	memset(p, 0, sizeof *p);
	p->args = args;
	p->n_args = n_args;
	p->separator = null ? '\0' : '\n';
	if (!list_name)
		return 0;
	p->list_name = strcmp(list_name, "-") ? list_name : "<stdin>";
	p->list = strcmp(list_name, "-") ? fopen(list_name, "r") : stdin;
	if (!p->list) {
		diag_error(list_name, 0, "cannot open: %s", strerror(errno));
		p->failed = 1;
		return -1;
	}
	return 0;
}

/* The list's next non-empty entry, without its separator; NULL at its end or on a failure. */
static const char *next_listed(struct pathlist *p)
{
	for (;;) {
		errno = 0;
		ssize_t n = getdelim(&p->path, &p->cap_path, p->separator, p->list);
		if (n < 0) {
			if (ferror(p->list)) {
				diag_error(p->list_name, 0, "read error: %s", strerror(errno ? errno : EIO));
				p->failed = 1;
			}
			return NULL;
		}
		p->entry++;
		if (n > 0 && p->path[n - 1] == p->separator)
			p->path[--n] = '\0';
		if (n == 0)
			continue;
		/* A name cannot hold a NUL: the line is no path, and cutting it would name another file. */
		if (memchr(p->path, '\0', (size_t)n)) {
			diag_error(p->list_name, p->entry, "a NUL byte in a path (for NUL-separated paths, use --null)");
			p->failed = 1;
			return NULL;
		}
		/* stdin is the list, or may be: an input from it is given on the command line. */
		if (strcmp(p->path, "-") == 0) {
			diag_error(p->list_name, p->entry, "'-' (stdin) cannot be listed; give it as a FILE");
			p->failed = 1;
			return NULL;
		}
		return p->path;
	}
}

const char *pathlist_next(struct pathlist *p)
{
	if (p->next_arg < p->n_args)
		return p->args[p->next_arg++];
	if (!p->list || p->failed)
		return NULL;
	return next_listed(p);
}

void pathlist_close(struct pathlist *p)
{
	if (p->list && p->list != stdin)
		fclose(p->list);
	free(p->path);
	memset(p, 0, sizeof *p);
}
