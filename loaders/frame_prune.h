/* pprof's drop_frames and keep_frames (profile/prune.go): regular
 * expressions that must match a function's whole name, its argument list
 * cut first ("f(int)" is matched as "f"; "(anonymous namespace)" and
 * "operator()" keep their parentheses; a leading '.' of the PPC ELF v1
 * ABI is skipped).  Shared by the protocol buffer loader (the profile's
 * own expressions) and the legacy forms (pprof's built-in ones). */
#ifndef WPROF_FRAME_PRUNE_H
#define WPROF_FRAME_PRUNE_H

#include <regex.h>
#include <stdbool.h>

/* Compiles "^(pattern)$" as a POSIX extended expression; false when it
 * is not one. */
bool regcomp_whole(regex_t *re, const char *pattern);

/* Does the simplified name match re entirely? */
bool function_name_matches(const regex_t *re, const char *name);

#endif
