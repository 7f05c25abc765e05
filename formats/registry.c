/* The one table of formats; --list-formats prints it in this order. */
#include "format.h"

#include <string.h>

extern const struct format format_rprof;
extern const struct format format_pprof;
extern const struct format format_lispworks;
extern const struct format format_folded;
extern const struct format format_speedscope;
extern const struct format format_summary;
extern const struct format format_tables;

const struct format *const formats[] = {
	&format_rprof,
	&format_pprof,
	&format_lispworks,
	&format_folded,
	&format_speedscope,
	&format_summary,
	&format_tables,
	NULL,
};

const struct format *format_by_name(const char *name)
{
	for (size_t i = 0; formats[i]; i++)
		if (strcmp(formats[i]->name, name) == 0 ||
		    (formats[i]->alias && strcmp(formats[i]->alias, name) == 0))
			return formats[i];
	return NULL;
}

const struct format *format_by_extension(const char *path)
{
	size_t n = strlen(path);
	for (size_t i = 0; formats[i]; i++)
		for (const char *const *ext = formats[i]->extensions; *ext; ext++) {
			size_t e = strlen(*ext);
			if (n > e && strcmp(path + n - e, *ext) == 0)
				return formats[i];
		}
	return NULL;
}
