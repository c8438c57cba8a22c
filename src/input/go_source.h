/* Where Go keeps the source files a Go profile names, tried after
 * pprof's own places (input/source.h) have failed:
 *
 *   - a module of the module cache, .../pkg/mod/<escaped module>@<version>/f.go
 *     from any machine, or <module>@<version>/f.go from a -trimpath build:
 *     under this machine's cache ($GOMODCACHE, else each $GOPATH entry's
 *     pkg/mod, else ~/go/pkg/mod), the module path and version written
 *     with each capital as '!' and its small letter, as the cache does;
 *   - the same module vendored: <module root>/vendor/<module>/f.go, and
 *     any .../vendor/<package>/f.go under <module root>/vendor/;
 *   - the main module of a -trimpath build, <module path>/f.go: under the
 *     directory of the go.mod whose `module` line names it;
 *   - the standard library, .../src/<package>/f.go from the building
 *     machine's GOROOT or <package>/f.go from a -trimpath build (a first
 *     element without a dot, as every standard package has): under
 *     $GOROOT/src and under the GOROOT of the `go` found on PATH;
 *   - a package of GOPATH mode, .../src/<import path>/f.go from any
 *     machine or <import path>/f.go from a -trimpath build: under each
 *     $GOPATH entry's src/ (~/go/src by default).
 *
 * GOROOT, GOPATH and GOMODCACHE are the environment's when set and not
 * empty, else the values `go env -w` wrote in the go env file ($GOENV,
 * "off" for none, else $XDG_CONFIG_HOME/go/env, else ~/.config/go/env),
 * as the go command reads them.
 *
 * Module roots are the directories of the nearest go.mod at or above the
 * current directory and at or above each --source-path directory.  Only
 * names ending in .go or .s (Go's assembly) are looked for. */
#ifndef WPROF_GO_SOURCE_H
#define WPROF_GO_SOURCE_H

#include <stdbool.h>
#include <stddef.h>

/* Called with each candidate path in the order above; true stops the
 * search (the file was found). */
typedef bool (*go_try_fn)(void *ctx, const char *path);

/* True when `try` accepted a candidate for `path` (a path as the profile
 * names it, file:// taken off); `dirs` are the --source-path directories. */
bool go_source_find(const char *path, const char *const *dirs, size_t ndirs,
		    go_try_fn try, void *ctx);

#endif
