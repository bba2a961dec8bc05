/* cmd-list: `rdma-analyze list BUNDLE...`, what the analyzer itself reads
 * in a bundle (the same reader, breader, the same limits), entry by entry,
 * sorted by path; the entries it leaves out are counted. */
#include <stdio.h>

#include "analyze.h"
#include "breader.h"
#include "import.h"
#include "log.h"

static int list_one(const char *path)
{
	struct bundle_r *b;
	char err[512];
	size_t i;

	if (imp_or_br_open(path, NULL, &b, err, sizeof(err)) < 0) {
		error("%s: %s", path, err);
		return -1;
	}
	printf("%s: bundle format %d\n", path, b->format_version);
	for (i = 0; i < b->n; i++) {
		const struct br_entry *e = &b->v[i];

		if (e->type == BR_LINK)
			printf("  l %10s  %s -> %s\n", "", e->path, e->data);
		else
			printf("  %c %10zu  %s\n", e->type == BR_DIR ? 'd' : '-',
			       e->type == BR_DIR ? (size_t)0 : e->len, e->path);
	}
	if (b->ignored)
		printf("%s: %zu entries, %zu left out (unsafe paths, hard links, "
		       "devices, FIFOs, earlier copies of a path)\n", path,
		       b->n, b->ignored);
	else
		printf("%s: %zu entries\n", path, b->n);
	br_free(b);
	return 0;
}

int cmd_list(int argc, char **argv)
{
	int i, rc = EXIT_OK;

	if (argc < 2)
		return usage_error("list", "which bundles?");
	for (i = 1; i < argc; i++)
		if (list_one(argv[i]) < 0)
			rc = EXIT_INPUT;
	return rc;
}
