#include "v8_frame.h"

#include <string.h>

#include "../src/util.h"

enum frame_kind v8_frame_kind(const char *name, const char *url, int32_t line)
{
	static const struct {
		const char *name;
		enum frame_kind kind;
	} meta[] = {
		{ "(root)", KIND_ROOT },	  { "(host)", KIND_ROOT },
		{ "(program)", KIND_PROGRAM },	  { "(idle)", KIND_IDLE },
		{ "(garbage collector)", KIND_GC }, { "(gc)", KIND_GC },
	};
	for (size_t i = 0; i < ARRAY_LEN(meta); i++)
		if (!strcmp(name, meta[i].name))
			return meta[i].kind;
	if (!strncmp(url, "wasm://", 7) || strstr(name, "wasm-function"))
		return KIND_WASM;
	if (!*url && line < 0)
		return KIND_NATIVE;
	return KIND_JS;
}
