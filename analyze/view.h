/* view: a bundle's evidence printed the way the familiar tool prints it
 * (ibstat, ibv_devinfo, lspci -vvv, ethtool -S ...), from the bundle alone.
 * The views are a table (views.c); each lives in view-<tool>.c. */
#ifndef RDMA_ANALYZE_VIEW_H
#define RDMA_ANALYZE_VIEW_H

#include <stdio.h>

#include "breader.h"

struct view {
	const char *name;	/* as typed: "ibstat", "ibv_devinfo" */
	const char *usage;	/* arguments, e.g. "[-v]" or "IFACE" */
	const char *help;
	/* 0, or -1 with a message (missing evidence, bad argument) */
	int (*show)(const struct bundle_r *b, int argc, char **argv, FILE *out);
};

extern const struct view views[];
const struct view *view_find(const char *name);

#endif
