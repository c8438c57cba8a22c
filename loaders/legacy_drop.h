/* The frames pprof drops from the legacy forms' stacks once it has their
 * names (profile.addLegacyFrameInfo and RemoveUninteresting in Go 1.19's
 * pprof): allocator frames from heap profiles (runtime.*, malloc,
 * operator new, ...; not runtime.panic), lock bookkeeping from contention
 * profiles, the CPU profiler's signal handler from the rest. */
#ifndef WPROF_LEGACY_DROP_H
#define WPROF_LEGACY_DROP_H

#include <regex.h>
#include <stdbool.h>

struct legacy_drop {
	regex_t drop, keep;
	bool has_keep;
};

/* The expressions for a profile of these sample types. */
void legacy_drop_init(struct legacy_drop *d, const char *const *types, unsigned ntypes);
void legacy_drop_free(struct legacy_drop *d);

/* Is a frame of this function (its name as symbolized) dropped? */
bool legacy_drops(const struct legacy_drop *d, const char *function);

#endif
