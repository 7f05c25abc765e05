/*
 * Legacy pprof (docs/formats/legacy.md): the formats `go tool pprof`
 * still reads besides profile.proto, read by Go's rules (google/pprof's
 * legacy_profile.go): gperftools' binary CPU profile, and the text heap,
 * growth, contention and count profiles of gperftools and Go. Every kind
 * is parsed into one legacy_profile (addresses, as these files carry no
 * names), which legacy_finish turns into the model the way Go turns it
 * into a Profile: the memory map's mappings merged and the main binary
 * first, locations numbered in the order samples first use them, each
 * address given its mapping (or a made-up one covering everything).
 */
#ifndef PROF_LEGACY_H
#define PROF_LEGACY_H

#include <stddef.h>
#include <stdint.h>

#include "../io/lines.h"
#include "../model/model.h"

enum { LEGACY_MAX_TYPES = 4 };

struct legacy_sample {
	int64_t values[LEGACY_MAX_TYPES];
	size_t first_address, n_addresses; /* in legacy_profile.addresses, leaf first */
	int has_bytes;                     /* a heap sample's block size label */
	int64_t bytes;
};

struct legacy_mapping {
	uint64_t start, limit, offset;
	char *file, *build_id; /* owned; "" when absent */
};

/* A Java symbol line: what an address stands for. */
struct legacy_symbol {
	uint64_t address;
	char *function, *file; /* owned */
	int64_t line;
};

/* "$key" = value assignments in a memory map, replaced in the lines after them. */
struct legacy_attr {
	char *key, *value;
};

struct legacy_profile {
	const char *types[LEGACY_MAX_TYPES][2]; /* type, unit */
	size_t n_types;
	const char *period_type, *period_unit;
	int64_t period, duration_nanos;
	struct legacy_sample *samples;
	size_t n_samples, cap_samples;
	uint64_t *addresses;
	size_t n_addresses, cap_addresses;
	struct legacy_mapping *mappings;
	size_t n_mappings, cap_mappings;
	struct legacy_attr *attrs;
	size_t n_attrs, cap_attrs;
	int attrs_dropped; /* past the bounds legacy_model.c sets */
	struct legacy_symbol *symbols;
	size_t n_symbols, cap_symbols;
	char *owned_type, *owned_unit; /* a count profile's type name, a Java profile's unit */
	int drop_duplicate_leaf;
	int java, java_heap; /* Java's kinds: addresses are keys of symbols, and go */ /* Go's cleanupDuplicateLocations applies (CPU profiles) */
};

void legacy_free(struct legacy_profile *p);
/* Appends a sample whose addresses are the next n pushed with legacy_push_address. */
struct legacy_sample *legacy_add_sample(struct legacy_profile *p);
void legacy_push_address(struct legacy_profile *p, uint64_t address);

/*
 * Java's kinds (legacy_java.c): whether a "--- contentionz 1 ---" text is
 * Java's (its attributes, in the bytes after that line, name a format or
 * resolution), and the reading of what follows the first line (the
 * header's attributes, the samples, the symbol lines) or, without the
 * header, of a CPU profile's symbol lines. 0, or -1 after reporting.
 */
int legacy_is_java_contention(const unsigned char *rest, size_t len);
int legacy_read_java(struct lines *t, struct legacy_profile *p, int with_header);

/* Go's "--- Memory map: ---" and "MAPPED_LIBRARIES:" start the memory map. */
int legacy_is_map_start(const char *s, size_t len);
/* Reads the memory map: every line left in the input. 0, or -1 after reporting. */
int legacy_read_maps(struct legacy_profile *p, struct lines *t);
/* Fills the model as Go fills a Profile (see the top). */
void legacy_finish(struct legacy_profile *p, struct model *m);

/* A span of a line. */
struct legacy_span {
	const char *s;
	size_t len;
};

/* Does `what` occur in s? */
int legacy_contains(const char *s, size_t len, const char *what);
/* A NUL-ended copy, to free. */
char *legacy_copy(struct legacy_span t);

/* Go's arithmetic where the format's numbers meet it. */
int64_t legacy_go_int64(double x); /* float64 to int64 on amd64: the lowest int64 when out of range */
int64_t legacy_wrapping_mul(int64_t a, int64_t b);
/* strconv.ParseInt(s, 10, 64) of "-?DIGITS"; 0 when out of range. */
int legacy_decimal(struct legacy_span t, int64_t *v);
/* strconv.ParseInt(s, 0, 64): sign, then decimal, 0x, 0o or 0 octal, 0b; 0 when it is none. */
int legacy_go_integer(struct legacy_span t, int64_t *v);
/* A heap sample divided by the chance it was sampled at this rate (Go's scaleHeapSample). */
void legacy_unsample(int64_t *count, int64_t *size, int64_t rate);
/*
 * Go's parseHexAddresses: every "0x[0-9a-f]+" of t, pushed to the last
 * sample; from its adjust_from-th address on, each less 1, as Go moves a
 * return address onto its call. 0 when one does not fit in 64 bits.
 */
int legacy_hex_addresses(struct legacy_profile *p, struct legacy_span t, size_t adjust_from);

/* What the text grammars share with the probe. */
int legacy_is_space(char c); /* Go's \s: tab, newline, form feed, carriage return, blank */
/* Go's strings.TrimSpace for ASCII: */
void legacy_trim(const char **s, size_t *len);
/* Blank or a '#' comment once trimmed (Go's isSpaceOrComment). */
int legacy_is_space_or_comment(const char *s, size_t len);
/* A heap profile's first line (Go's heapHeaderRE, growthHeaderRE, fragmentationHeaderRE). */
struct legacy_heap_header {
	int v2;        /* samples are scaled by the chance of being sampled */
	int64_t period;
	int has_alloc; /* the alloc columns differ from the in-use ones */
};
int legacy_heap_header(const char *s, size_t len, struct legacy_heap_header *h);
/* A count profile's first line, "TYPE profile: total N"; the span of TYPE. */
int legacy_count_start(const char *s, size_t len, size_t *type_len);
/* A threadz profile's first lines (Go's threadzStartRE, threadStartRE). */
int legacy_is_threadz_start(const char *s, size_t len);
int legacy_is_thread_start(const char *s, size_t len);
/*
 * The profile kind a text's first line names; 0 when none. Count and
 * thread profiles may follow comment lines; a contention profile may be
 * Java's ("format = java" among its attributes).
 */
enum legacy_text_kind {
	LEGACY_NONE,
	LEGACY_HEAP,
	LEGACY_COUNT,
	LEGACY_THREAD,
	LEGACY_CONTENTION,
	LEGACY_JAVA_HEAP
};
enum legacy_text_kind legacy_text_kind(const char *s, size_t len);
/* Is this gperftools' binary CPU header (any word size, either byte order)? */
int legacy_is_cpu_header(const unsigned char *b, size_t len, unsigned *word, int *big_endian,
			 uint64_t *period_us);

#endif
