/*
 * Legacy pprof: the step from a legacy_profile to the model (legacy.h),
 * as Go's profile package makes a Profile, so that `go tool pprof -raw`
 * shows the same profile whether it reads the legacy file or prof's pprof
 * of it: how neighbouring mappings merge, which mapping is the main
 * binary, the location order, the mapping each address gets, and Java's
 * functions.
 */
#include "legacy.h"

#include <stdio.h>
#include <string.h>

#include "../base/alloc.h"
#include "../base/ascii.h"
#include "../base/hashidx.h"

void legacy_free(struct legacy_profile *p)
{
	for (size_t i = 0; i < p->n_mappings; i++)
		free(p->mappings[i].file), free(p->mappings[i].build_id);
	for (size_t i = 0; i < p->n_attrs; i++)
		free(p->attrs[i].key), free(p->attrs[i].value);
	for (size_t i = 0; i < p->n_symbols; i++)
		free(p->symbols[i].function), free(p->symbols[i].file);
	free(p->mappings);
	free(p->attrs);
	free(p->symbols);
	free(p->owned_type);
	free(p->owned_unit);
	free(p->samples);
	free(p->addresses);
}

struct legacy_sample *legacy_add_sample(struct legacy_profile *p)
{
	grow((void **)&p->samples, &p->cap_samples, p->n_samples + 1, sizeof *p->samples);
	struct legacy_sample *s = &p->samples[p->n_samples++];
	memset(s, 0, sizeof *s);
	s->first_address = p->n_addresses;
	return s;
}

void legacy_push_address(struct legacy_profile *p, uint64_t address)
{
	grow((void **)&p->addresses, &p->cap_addresses, p->n_addresses + 1, sizeof *p->addresses);
	p->addresses[p->n_addresses++] = address;
	p->samples[p->n_samples - 1].n_addresses++;
}

/* Go's libRx, "([.]so$|[.]so[._][0-9]+)": a shared library's name. */
static int is_library(const char *file)
{
	for (const char *at = file; (at = strstr(at, ".so")); at++)
		if (at[3] == 0 || ((at[3] == '.' || at[3] == '_') && is_digit(at[4])))
			return 1;
	return 0;
}

/* The main binary, by Go's guess: a named file that is no library and no "[vdso]". */
static int is_main_binary(const char *file)
{
	size_t n = strlen(file), k = 0;
	char *clean = xmalloc(n + 1);
	for (size_t i = 0; i < n;)
		if (strncmp(file + i, "(deleted)", 9) == 0)
			i += 9;
		else
			clean[k++] = file[i++];
	const char *s = clean;
	legacy_trim(&s, &k);
	char *name = xmalloc(k + 1);
	memcpy(name, s, k);
	name[k] = 0;
	int main = k > 0 && !is_library(name) && name[0] != '[';
	free(name);
	free(clean);
	return main;
}

static int adjacent(const struct legacy_mapping *a, const struct legacy_mapping *b)
{
	if (*a->file && *b->file && strcmp(a->file, b->file) != 0)
		return 0;
	if (*a->build_id && *b->build_id && strcmp(a->build_id, b->build_id) != 0)
		return 0;
	if (a->limit != b->start)
		return 0;
	return !(a->offset && b->offset && a->offset + (a->limit - a->start) != b->offset);
}

static void take_string(char **to, char **from)
{
	if (**from) {
		free(*to);
		*to = *from;
		*from = NULL;
	}
}

/* Go's massageMappings: neighbours split from one mapping merge; the main binary goes first. */
static void massage_mappings(struct legacy_profile *p)
{
	size_t n = p->n_mappings ? 1 : 0;
	for (size_t i = 1; i < p->n_mappings; i++) {
		struct legacy_mapping *last = &p->mappings[n - 1], *m = &p->mappings[i];
		if (adjacent(last, m)) {
			last->limit = m->limit;
			take_string(&last->file, &m->file);
			take_string(&last->build_id, &m->build_id);
			free(m->file);
			free(m->build_id);
			continue;
		}
		p->mappings[n++] = *m;
	}
	p->n_mappings = n;
	for (size_t i = 0; i < n; i++)
		if (is_main_binary(p->mappings[i].file)) {
			struct legacy_mapping first = p->mappings[0];
			p->mappings[0] = p->mappings[i];
			p->mappings[i] = first;
			break;
		}
}

/* Go's fixes for handlers that map the main binary oddly (remapMappingIDs). */
static void fix_main_mapping(struct legacy_profile *p)
{
	if (p->n_mappings > 1 && strncmp(p->mappings[0].file, "/anon_hugepage", 14) == 0 &&
	    p->mappings[0].limit == p->mappings[1].start) {
		free(p->mappings[0].file);
		free(p->mappings[0].build_id);
		memmove(p->mappings, p->mappings + 1, --p->n_mappings * sizeof *p->mappings);
	}
	if (p->n_mappings && p->mappings[0].start - p->mappings[0].offset == 0x400000) {
		p->mappings[0].start = 0x400000;
		p->mappings[0].offset = 0;
	}
}

/* The mapping of an address, as Go finds it; a made-up one covering all when none does. */
static uint32_t mapping_of(struct legacy_profile *p, uint64_t a, uint32_t *fake)
{
	if (a == 0)
		return MODEL_NONE;
	for (size_t i = 0; i < p->n_mappings; i++)
		if (p->mappings[i].start <= a && a < p->mappings[i].limit)
			return (uint32_t)i;
	/* Handlers that lost the first part of a mapping split in two. */
	for (size_t i = 0; i < p->n_mappings; i++) {
		struct legacy_mapping *m = &p->mappings[i];
		if (m->offset && m->start - m->offset <= a && a < m->start) {
			m->start -= m->offset;
			m->offset = 0;
			return (uint32_t)i;
		}
	}
	if (*fake == MODEL_NONE) {
		grow((void **)&p->mappings, &p->cap_mappings, p->n_mappings + 1, sizeof *p->mappings);
		p->mappings[p->n_mappings] = (struct legacy_mapping){ 0, UINT64_MAX, 0, legacy_copy((struct legacy_span){ "", 0 }),
								      legacy_copy((struct legacy_span){ "", 0 }) };
		*fake = (uint32_t)p->n_mappings++;
	}
	return *fake;
}

/* Locations: one per address, in the order samples first use them. */
struct locations {
	uint64_t *addresses;
	uint32_t *mapping, *model_id;
	size_t n, cap;
	struct hashidx index;
	/* Java's: each location's function (an index into `functions`) and line. */
	uint32_t *function;
	int64_t *line;
	const struct legacy_symbol **functions; /* the symbol line that named each first */
	size_t n_functions, cap_functions;
	struct hashidx function_index;
};

static int same_address(const void *ctx, uint32_t id, const void *key)
{
	return ((const struct locations *)ctx)->addresses[id] == *(const uint64_t *)key;
}

static uint32_t location_of(struct locations *l, uint64_t a, int add)
{
	uint64_t h = hash_mix(a, 0);
	uint32_t id = hashidx_find(&l->index, h, same_address, l, &a);
	if (id != HASHIDX_NONE || !add)
		return id;
	grow((void **)&l->addresses, &l->cap, l->n + 1, sizeof *l->addresses);
	l->addresses[l->n] = a;
	hashidx_insert(&l->index, h, (uint32_t)l->n);
	return (uint32_t)l->n++;
}

/* Numbers the locations; from here on a sample's addresses are its locations' indexes. */
static void number_locations(struct legacy_profile *p, struct locations *l)
{
	for (size_t i = 0; i < p->n_samples; i++)
		for (size_t k = 0; k < p->samples[i].n_addresses; k++) {
			uint64_t *a = &p->addresses[p->samples[i].first_address + k];
			*a = location_of(l, *a, 1);
		}
}

/*
 * The profiler's leaf may come twice, from the signal context and from
 * unwinding, the second adjusted by -1 (Go's cleanupDuplicateLocations,
 * applied after the locations are numbered, as Go does).
 */
static void drop_duplicate_leaves(struct legacy_profile *p, const struct locations *l)
{
	for (size_t i = 0; i < p->n_samples; i++) {
		struct legacy_sample *s = &p->samples[i];
		uint64_t *a = s->n_addresses > 1 ? p->addresses + s->first_address : NULL;
		if (a && l->addresses[a[0]] == l->addresses[a[1]] + 1) {
			memmove(a + 1, a + 2, (s->n_addresses - 2) * sizeof *a);
			s->n_addresses--;
		}
	}
}

static int same_function(const void *ctx, uint32_t id, const void *key)
{
	const struct legacy_symbol *const *sym = key;
	return strcmp(((const struct locations *)ctx)->functions[id]->function, (*sym)->function) == 0;
}

/* A function per name, its file the first line's that named it (Go's parseJavaLocations). */
static uint32_t function_of(struct locations *l, const struct legacy_symbol *sym)
{
	uint64_t h = hash_bytes(sym->function, strlen(sym->function));
	return hashidx_intern(&l->function_index, h, same_function, l, &sym, (void **)&l->functions,
			      &l->n_functions, &l->cap_functions, sizeof *l->functions);
}

/* Each symbol line names the location at its address, the last line winning. */
static void resolve_symbols(const struct legacy_profile *p, struct locations *l)
{
	l->function = xmalloc((l->n + 1) * sizeof *l->function);
	l->line = xmalloc((l->n + 1) * sizeof *l->line);
	for (size_t i = 0; i < l->n; i++)
		l->function[i] = MODEL_NONE, l->line[i] = 0;
	for (size_t i = 0; i < p->n_symbols; i++) {
		uint32_t at = location_of(l, p->symbols[i].address, 0);
		if (at == HASHIDX_NONE)
			continue;
		l->function[at] = function_of(l, &p->symbols[i]);
		l->line[at] = p->symbols[i].line;
	}
}

/* Functions in the order locations first use them, as Go numbers them; their model ids. */
static uint32_t *add_functions(struct locations *l, struct model *m)
{
	uint32_t *model_id = xmalloc((l->n_functions + 1) * sizeof *model_id), next = 1;
	for (size_t i = 0; i < l->n_functions; i++)
		model_id[i] = MODEL_NONE;
	for (size_t i = 0; i < l->n; i++) {
		uint32_t f = l->function[i];
		if (f == MODEL_NONE || model_id[f] != MODEL_NONE)
			continue;
		const struct legacy_symbol *sym = l->functions[f];
		uint32_t name = model_str(m, sym->function, strlen(sym->function));
		struct model_function mf = { name, name, model_str(m, sym->file, strlen(sym->file)), 0, 0, next++, { 0, 0, 0, 0 } };
		model_id[f] = model_function(m, &mf);
	}
	return model_id;
}

/* The frames Go's viewers drop from such profiles (Go's addLegacyFrameInfo), by sample types. */
static const char alloc_frames[] =
	"calloc|cfree|malloc|free|memalign|do_memalign|(__)?posix_memalign|pvalloc|valloc|realloc|"
	"tcmalloc::.*|tc_calloc|tc_cfree|tc_malloc|tc_free|tc_memalign|tc_posix_memalign|tc_pvalloc|"
	"tc_valloc|tc_realloc|tc_new|tc_delete|tc_newarray|tc_deletearray|tc_new_nothrow|"
	"tc_newarray_nothrow|malloc_zone_malloc|malloc_zone_calloc|malloc_zone_valloc|"
	"malloc_zone_realloc|malloc_zone_memalign|malloc_zone_free|runtime\\..*|BaseArena::.*|"
	"(::)?do_malloc_no_errno|(::)?do_malloc_pages|(::)?do_malloc|DoSampledAllocation|"
	"MallocedMemBlock::MallocedMemBlock|_M_allocate|__builtin_(vec_)?delete|"
	"__builtin_(vec_)?new|__gnu_cxx::new_allocator::allocate|__libc_malloc|"
	"__malloc_alloc_template::allocate|allocate|cpp_alloc|operator new(\\[\\])?|"
	"simple_alloc::allocate";
static const char alloc_keep_frames[] = "runtime\\.panic|runtime\\.reflectcall|runtime\\.call[0-9]*";
static const char cpu_profiler_frames[] =
	"ProfileData::Add|ProfileData::prof_handler|CpuProfiler::prof_handler|__pthread_sighandler|__restore";
static const char lock_frames[] =
	"RecordLockProfileData|(base::)?RecordLockProfileData.*|(base::)?SubmitMutexProfileData.*|"
	"(base::)?SubmitSpinLockProfileData.*|(base::Mutex::)?AwaitCommon.*|(base::Mutex::)?Unlock.*|"
	"(base::Mutex::)?UnlockSlow.*|(base::Mutex::)?ReaderUnlock.*|(base::MutexLock::)?~MutexLock.*|"
	"(Mutex::)?AwaitCommon.*|(Mutex::)?Unlock.*|(Mutex::)?UnlockSlow.*|(Mutex::)?ReaderUnlock.*|"
	"(MutexLock::)?~MutexLock.*|(SpinLock::)?Unlock.*|(SpinLock::)?SlowUnlock.*|"
	"(SpinLockHolder::)?~SpinLockHolder.*";

static int types_are(const struct legacy_profile *p, const char *const *names, size_t n)
{
	if (p->n_types != n)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (strcmp(p->types[i][0], names[i]) != 0)
			return 0;
	return 1;
}

static void set_frame_rules(const struct legacy_profile *p, struct model *m)
{
	static const char *const heap[][4] = { { "allocations", "size" },
					       { "objects", "space" },
					       { "inuse_objects", "inuse_space" },
					       { "alloc_objects", "alloc_space" } };
	static const char *const go_heap[] = { "alloc_objects", "alloc_space", "inuse_objects", "inuse_space" };
	static const char *const contention[] = { "contentions", "delay" };
	int is_heap = types_are(p, go_heap, 4);
	for (size_t i = 0; i < 4; i++)
		is_heap |= types_are(p, heap[i], 2);
	if (is_heap) {
		model_set_meta(m, "drop_frames", alloc_frames);
		model_set_meta(m, "keep_frames", alloc_keep_frames);
	} else {
		model_set_meta(m, "drop_frames", types_are(p, contention, 2) ? lock_frames : cpu_profiler_frames);
	}
}

static void set_meta_int(struct model *m, const char *key, int64_t v)
{
	char text[24];
	if (v == 0)
		return;
	snprintf(text, sizeof text, "%lld", (long long)v);
	model_set_meta(m, key, text);
}

static void add_mappings(const struct legacy_profile *p, struct model *m)
{
	for (size_t i = 0; i < p->n_mappings; i++) {
		const struct legacy_mapping *lm = &p->mappings[i];
		struct model_mapping mm = { i + 1, lm->start, lm->limit, lm->offset,
					    model_str(m, lm->file, strlen(lm->file)),
					    model_str(m, lm->build_id, strlen(lm->build_id)), 0, 0, 0, 0 };
		model_add_mapping(m, &mm);
	}
}

/* Java's locations keep their function and line, and no address (Go's Aggregate). */
static void add_locations(const struct legacy_profile *p, struct locations *l, struct model *m)
{
	uint32_t *function = p->java ? add_functions(l, m) : NULL;
	l->model_id = xmalloc((l->n + 1) * sizeof *l->model_id);
	for (size_t i = 0; i < l->n; i++) {
		struct model_location loc = { 0 };
		uint32_t f = p->java ? l->function[i] : MODEL_NONE;
		loc.function = f == MODEL_NONE ? MODEL_NONE : function[f];
		loc.line = f == MODEL_NONE ? 0 : l->line[i];
		loc.native = (struct model_native_location){ i + 1, l->mapping[i], p->java ? 0 : l->addresses[i], 0 };
		l->model_id[i] = model_add_location(m, &loc, NULL, 0);
	}
	free(function);
}

static void add_samples(const struct legacy_profile *p, struct locations *l, struct model *m)
{
	struct model_label bytes = { model_str(m, "bytes", 5), 0, 0, 0 };
	for (size_t i = 0; i < p->n_samples; i++) {
		const struct legacy_sample *s = &p->samples[i];
		uint32_t stack = MODEL_EMPTY_STACK;
		for (size_t k = s->n_addresses; k-- > 0;)
			stack = model_stack(m, l->model_id[p->addresses[s->first_address + k]], stack);
		bytes.num = s->bytes;
		model_add_sample(m, stack, s->values, NULL, s->has_bytes ? model_label_set(m, &bytes, 1) : 0);
	}
}

void legacy_finish(struct legacy_profile *p, struct model *m)
{
	struct locations l = { 0 };
	uint32_t fake = MODEL_NONE;
	massage_mappings(p);
	number_locations(p, &l);
	fix_main_mapping(p);
	if (p->java)
		resolve_symbols(p, &l);
	l.mapping = xmalloc((l.n + 1) * sizeof *l.mapping);
	for (size_t i = 0; i < l.n; i++)
		l.mapping[i] = mapping_of(p, p->java && l.function[i] != MODEL_NONE ? 0 : l.addresses[i], &fake);
	if (p->drop_duplicate_leaf)
		drop_duplicate_leaves(p, &l);

	m->rules.strict_r = 0;
	m->rules.keep_rows_apart = 1;
	for (size_t i = 0; i < p->n_types; i++)
		model_add_sample_type(m, p->types[i][0], p->types[i][1]);
	/* Java's heap profiles name no period type. */
	if (p->period_type) {
		model_set_meta(m, "period_type", p->period_type);
		model_set_meta(m, "period_unit", p->period_unit);
	}
	set_meta_int(m, "period", p->period);
	set_meta_int(m, "duration_nanos", p->duration_nanos);
	set_frame_rules(p, m);
	add_mappings(p, m);
	add_locations(p, &l, m);
	add_samples(p, &l, m);
	free(l.addresses);
	free(l.mapping);
	free(l.model_id);
	free(l.function);
	free(l.line);
	free(l.functions);
	hashidx_free(&l.index);
	hashidx_free(&l.function_index);
}
