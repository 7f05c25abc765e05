/*
 * Unit tests of render/units.c. The expected labels follow go tool pprof's
 * measurement.ScaledLabel (Go's own source, internal/measurement): each
 * case is what `go tool pprof -top` prints for that value and unit.
 */
#include <string.h>

#include "../../render/units.h"
#include "unit.h"

static int label_is(double value, const char *unit, const char *want)
{
	char got[64];
	units_label(got, sizeof got, value, unit);
	if (strcmp(got, want) != 0)
		fprintf(stderr, "units_label(%.17g, %s): got %s, want %s\n", value, unit, got, want);
	return strcmp(got, want) == 0;
}

static void times_scale_to_the_largest_unit_they_hold(void)
{
	CHECK(label_is(2150000000, "nanoseconds", "2.15s"));
	CHECK(label_is(390000000, "nanoseconds", "390ms"));
	CHECK(label_is(10000000, "nanoseconds", "10ms"));
	CHECK(label_is(1500, "nanoseconds", "1.50us"));
	CHECK(label_is(999, "nanoseconds", "999ns"));
	CHECK(label_is(2.5, "seconds", "2.50s"));
	CHECK(label_is(7200, "seconds", "2hrs"));
	CHECK(label_is(0.25, "milliseconds", "250us"));
	CHECK(label_is(-390000000, "nanoseconds", "-390ms"));
	CHECK(label_is(0, "nanoseconds", "0"));
	CHECK(label_is(0.001, "nanoseconds", "0"));
}

static void bytes_scale_by_1024(void)
{
	CHECK(label_is(1572864, "bytes", "1.50MB"));
	CHECK(label_is(1023, "bytes", "1023B"));
	CHECK(label_is(1024, "bytes", "1kB"));
	CHECK(label_is(3.0 * 1024 * 1024 * 1024, "bytes", "3GB"));
	CHECK(label_is(2048, "kilobytes", "2MB"));
}

static void other_units_are_plain_numbers(void)
{
	CHECK(label_is(3829, "count", "3829"));
	CHECK(label_is(12, "samples", "12"));
	CHECK(label_is(2.5, "objects", "2.5"));
	CHECK(units_scaled("Nanoseconds") && units_scaled("bytes") && units_scaled("s"));
	CHECK(!units_scaled("count") && !units_scaled("") && !units_scaled("ss"));
}

static void a_label_is_cut_to_its_room(void)
{
	char out[4];
	CHECK(units_label(out, sizeof out, 2150000000, "nanoseconds") == 5);
	CHECK(strcmp(out, "2.1") == 0);
}

const struct unit_test units_tests[] = {
	{ "times_scale_to_the_largest_unit_they_hold", times_scale_to_the_largest_unit_they_hold },
	{ "bytes_scale_by_1024", bytes_scale_by_1024 },
	{ "other_units_are_plain_numbers", other_units_are_plain_numbers },
	{ "a_label_is_cut_to_its_room", a_label_is_cut_to_its_room },
	{ NULL, NULL },
};
