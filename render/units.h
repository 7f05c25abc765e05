/*
 * units: a value of a sample type as a person reads it, the way go tool
 * pprof prints it (its measurement.ScaledLabel with the unit "auto"):
 * scaled to the largest unit it holds at least one of, two decimals, a
 * trailing ".00" dropped: 2150000000 nanoseconds is "2.15s", 390000000 is
 * "390ms", 1572864 bytes "1.50MB", 0 is "0". Times scale over ns, us, ms,
 * s and hrs, bytes over B, kB, MB, GB, TB, PB (1024 each); a unit of
 * neither (count, samples, objects) prints the value as a plain number.
 * Machine outputs keep exact values and never use this.
 */
#ifndef PROF_UNITS_H
#define PROF_UNITS_H

#include <stddef.h>

/* Is `unit` (a sample type's unit, in any case, singular or plural) a time or a size? */
int units_scaled(const char *unit);

/*
 * `value` in `unit` written into out[0..size) as a person reads it (see
 * above); cut to fit, always NUL-terminated when size > 0. Returns the
 * length the whole label has, as snprintf does.
 */
int units_label(char *out, size_t size, double value, const char *unit);

#endif
