/* registry: every evidence source, in the order they run: the table of
 * include/sources.h (which says why that order), each row the descriptor
 * src_<name> of collect/src-<name>.c.
 */
#include "sources.h"
#include "src.h"
#include "util.h"

#define SOURCE_EXTERN(id, name) extern const struct source src_##name;
SOURCES(SOURCE_EXTERN)
#undef SOURCE_EXTERN

const struct source *const sources[] = {
#define SOURCE_ROW(id, name) [SOURCE_##id] = &src_##name,
	SOURCES(SOURCE_ROW)
#undef SOURCE_ROW
};

const size_t nsources = ARRAY_SIZE(sources);
