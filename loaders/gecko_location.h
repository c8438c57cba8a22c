/* What the Firefox Profiler makes of a Gecko profile's frame location
 * string (process-profile.ts: extractFuncsAndResourcesFromFrameLocations):
 *
 *   "0x7fff7d962da1"                        an unsymbolicated address
 *   "name (in libxul.so) + 123", "name (in lib) (file.cpp:12)",
 *   "name (in lib)"                         a C++ function of a library
 *   "name (http://x.js:12:3)", "name (x.js:12)[4]"
 *                                           a JS function, its line, column
 *   "http://x.js:12:3"                      "(root scope) http://x.js"
 *   anything else ("Startup::XRE_Main")     a label
 *
 * A URL "a.js -> b.js" (a script loaded by another) is its last part. */
#ifndef WPROF_GECKO_LOCATION_H
#define WPROF_GECKO_LOCATION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct gecko_location {
	const char *name, *file, *library; /* into the string; NULL: none */
	size_t name_len, file_len, library_len;
	bool root_scope; /* the name is "(root scope) " and the file */
	bool js;
	int32_t line, column; /* -1 when not given */
};

void gecko_location_parse(const char *s, size_t len, struct gecko_location *out);

#endif
