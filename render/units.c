/*
 * units (units.h). The unit names and their aliases are pprof's
 * (internal/measurement), so that a profile's numbers read the same here
 * and in go tool pprof: a unit is found by its lower-cased name, less a
 * plural "s" when it is longer than two letters.
 */
#include "units.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../base/ascii.h"

struct unit {
	const char *shown;
	const char *aliases; /* space-separated, lower case */
	double factor;       /* of the family's base unit */
};

static const struct unit time_units[] = {
	{ "ns", "ns nanosecond", 1 },       { "us", "us microsecond", 1e3 },
	{ "ms", "ms millisecond", 1e6 },    { "s", "s sec second", 1e9 },
	{ "hrs", "hour hr", 3600e9 },       { NULL, NULL, 0 },
};

static const struct unit byte_units[] = {
	{ "B", "b byte", 1 },
	{ "kB", "kb kbyte kilobyte", 1024.0 },
	{ "MB", "mb mbyte megabyte", 1024.0 * 1024 },
	{ "GB", "gb gbyte gigabyte", 1024.0 * 1024 * 1024 },
	{ "TB", "tb tbyte terabyte", 1024.0 * 1024 * 1024 * 1024 },
	{ "PB", "pb pbyte petabyte", 1024.0 * 1024 * 1024 * 1024 * 1024 },
	{ NULL, NULL, 0 },
};

static const struct unit *const families[] = { time_units, byte_units };

/* Is `word` (len bytes) one of the space-separated `aliases`? */
static int is_alias(const char *aliases, const char *word, size_t len)
{
	for (const char *a = aliases; *a;) {
		size_t n = strcspn(a, " ");
		if (n == len && memcmp(a, word, len) == 0)
			return 1;
		a += n + (a[n] == ' ');
	}
	return 0;
}

/* The unit `name` is, and its family; NULL for one of neither. */
static const struct unit *find_unit(const char *name, const struct unit **family)
{
	char lower[32];
	size_t len = strlen(name);
	if (len >= sizeof lower)
		return NULL;
	for (size_t i = 0; i < len; i++)
		lower[i] = ascii_lower(name[i]);
	if (len > 2 && lower[len - 1] == 's')
		len--;
	for (size_t f = 0; f < sizeof families / sizeof *families; f++)
		for (const struct unit *u = families[f]; u->shown; u++)
			if (is_alias(u->aliases, lower, len)) {
				*family = families[f];
				return u;
			}
	return NULL;
}

int units_scaled(const char *unit)
{
	const struct unit *family;
	return find_unit(unit, &family) != NULL;
}

int units_label(char *out, size_t size, double value, const char *unit)
{
	const struct unit *family, *from = find_unit(unit, &family);
	if (!from)
		return snprintf(out, size, "%.15g", value);
	double base = value * from->factor;
	const struct unit *to = NULL;
	for (const struct unit *u = family; u->shown; u++)
		if (fabs(base) / u->factor >= 1.0)
			to = u;
	if (!to)
		to = from;
	char number[64];
	snprintf(number, sizeof number, "%.2f", base / to->factor);
	size_t n = strlen(number);
	if (n > 3 && strcmp(number + n - 3, ".00") == 0)
		number[n - 3] = '\0';
	if (strcmp(number, "0") == 0 || strcmp(number, "-0") == 0)
		return snprintf(out, size, "0");
	return snprintf(out, size, "%s%s", number, to->shown);
}
