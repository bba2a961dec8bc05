/* test-sources: the collector's registry (collect/registry.c, built from
 * include/sources.h) against the table: each descriptor's own name is
 * the table's, in the table's order, and no two sources share a name. */
#include "sources.h"
#include "src.h"
#include "t.h"

int main(void)
{
	size_t i, k, same;

	T_OK(nsources == SOURCE_NR, "registry: %zu sources, the table %d",
	     nsources, SOURCE_NR);
	for (i = 0; i < nsources; i++) {
		T_OK(sources[i] != NULL, "registry: row %zu set", i);
		if (!sources[i])
			continue;
		T_STREQ(sources[i]->name, source_name((enum source_id)i),
			"registry: src_%s's name is the table's",
			source_name((enum source_id)i));
		T_OK(source_find(sources[i]->name) == (int)i,
		     "table: %s found at its row", sources[i]->name);
		for (k = same = 0; k < i; k++)
			same += !strcmp(sources[k]->name, sources[i]->name);
		T_OK(!same, "registry: %s named once", sources[i]->name);
	}
	T_OK(source_find("nosuch") < 0, "table: an unknown name is -1");
	T_STREQ(source_name(SOURCE_NR), "", "table: no name past the end");
	return t_done();
}
