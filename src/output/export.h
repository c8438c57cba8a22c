/* --export: any loaded model written as gzipped pprof (profile.proto), as
 * a V8 .cpuprofile (or the same in trace-event JSON, as Chrome saves a
 * trace), or as folded stacks ("a;b;c 42") for flame graph tools.  What a format cannot hold is said on `notes`, never dropped in
 * silence. */
#ifndef WPROF_EXPORT_H
#define WPROF_EXPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "model/model.h"

enum export_format {
	EXPORT_PPROF,
	EXPORT_CPUPROFILE,
	EXPORT_FOLDED,
	EXPORT_TRACE, /* the .cpuprofile as Profile + ProfileChunk trace events */
	EXPORT_FORMAT_COUNT
};

bool export_format_parse(const char *name, enum export_format *out);

/* Writes m to path.  `type` is the sample type written by the formats that
 * hold one value per sample (.cpuprofile, folded) and the default type of
 * a pprof file, which holds them all.  On failure, err says why. */
bool export_model(const struct model *m, unsigned type, enum export_format format,
		  const char *path, FILE *notes, char *err, size_t err_cap);

#endif
