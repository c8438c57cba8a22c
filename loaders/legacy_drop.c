/* pprof's drop_frames for the legacy forms (see legacy_drop.h). */
#include "legacy_drop.h"

#include <string.h>

#include "base/util.h"
#include "frame_prune.h"

/* pprof's allocRxStr: POSIX, tcmalloc, OS X and Go allocators. */
static const char alloc_frames[] =
	"calloc|cfree|malloc|free|memalign|do_memalign|(__)?posix_memalign|"
	"pvalloc|valloc|realloc|"
	"tcmalloc::.*|tc_calloc|tc_cfree|tc_malloc|tc_free|tc_memalign|"
	"tc_posix_memalign|tc_pvalloc|tc_valloc|tc_realloc|tc_new|tc_delete|"
	"tc_newarray|tc_deletearray|tc_new_nothrow|tc_newarray_nothrow|"
	"malloc_zone_malloc|malloc_zone_calloc|malloc_zone_valloc|"
	"malloc_zone_realloc|malloc_zone_memalign|malloc_zone_free|"
	"runtime\\..*|"
	"BaseArena::.*|(::)?do_malloc_no_errno|(::)?do_malloc_pages|(::)?do_malloc|"
	"DoSampledAllocation|MallocedMemBlock::MallocedMemBlock|_M_allocate|"
	"__builtin_(vec_)?delete|__builtin_(vec_)?new|"
	"__gnu_cxx::new_allocator::allocate|__libc_malloc|"
	"__malloc_alloc_template::allocate|allocate|cpp_alloc|"
	"operator new(\\[\\])?|simple_alloc::allocate";

/* allocSkipRxStr: Go runtime frames kept in the middle of a stack. */
static const char alloc_kept[] = "runtime\\.panic|runtime\\.reflectcall|runtime\\.call[0-9]*";

static const char cpu_profiler_frames[] =
	"ProfileData::Add|ProfileData::prof_handler|CpuProfiler::prof_handler|"
	"__pthread_sighandler|__restore";

static const char lock_frames[] =
	"RecordLockProfileData|(base::)?RecordLockProfileData.*|"
	"(base::)?SubmitMutexProfileData.*|(base::)?SubmitSpinLockProfileData.*|"
	"(base::Mutex::)?AwaitCommon.*|(base::Mutex::)?Unlock.*|"
	"(base::Mutex::)?UnlockSlow.*|(base::Mutex::)?ReaderUnlock.*|"
	"(base::MutexLock::)?~MutexLock.*|"
	"(Mutex::)?AwaitCommon.*|(Mutex::)?Unlock.*|(Mutex::)?UnlockSlow.*|"
	"(Mutex::)?ReaderUnlock.*|(MutexLock::)?~MutexLock.*|"
	"(SpinLock::)?Unlock.*|(SpinLock::)?SlowUnlock.*|"
	"(SpinLockHolder::)?~SpinLockHolder.*";

/* pprof's heapzSampleTypes and contentionzSampleTypes: the sample type
 * names, all of them, in order. */
static bool types_are(const char *const *types, unsigned ntypes, const char *list)
{
	for (unsigned t = 0; t < ntypes; t++) {
		size_t n = strlen(types[t]);
		if (strncmp(list, types[t], n) || (list[n] != ' ' && list[n] != '\0'))
			return false;
		list += n + (list[n] == ' ');
	}
	return *list == '\0';
}

static bool is_heap(const char *const *types, unsigned ntypes)
{
	static const char *const heaps[] = {
		"allocations size", "objects space", "inuse_objects inuse_space",
		"alloc_objects alloc_space",
		"alloc_objects alloc_space inuse_objects inuse_space",
	};
	for (size_t i = 0; i < ARRAY_LEN(heaps); i++)
		if (types_are(types, ntypes, heaps[i]))
			return true;
	return false;
}

void legacy_drop_init(struct legacy_drop *d, const char *const *types, unsigned ntypes)
{
	bool heap = is_heap(types, ntypes);
	const char *drop = heap ? alloc_frames
		: types_are(types, ntypes, "contentions delay") ? lock_frames
		: cpu_profiler_frames;
	/* The tables are fixed and compile. */
	regcomp_whole(&d->drop, drop);
	d->has_keep = heap && regcomp_whole(&d->keep, alloc_kept);
}

void legacy_drop_free(struct legacy_drop *d)
{
	regfree(&d->drop);
	if (d->has_keep)
		regfree(&d->keep);
}

bool legacy_drops(const struct legacy_drop *d, const char *function)
{
	return *function && function_name_matches(&d->drop, function) &&
	       !(d->has_keep && function_name_matches(&d->keep, function));
}
