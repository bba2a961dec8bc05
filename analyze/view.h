/* view: a bundle's evidence printed the way the familiar tool prints it
 * (ibstat, ibv_devinfo, lspci -vvv, ethtool -S ...), from the bundle alone.
 * Each view lives in view-<tool>.c and exports its descriptor, declared
 * here; views.c is the table of them.  view-lib.c is not a view: it holds
 * what the InfiniBand fabric views share (view-lib.h). */
#ifndef RDMA_ANALYZE_VIEW_H
#define RDMA_ANALYZE_VIEW_H

#include <stddef.h>
#include <stdio.h>

#include "breader.h"

struct view {
	const char *name;	/* as typed: "ibstat", "ibv_devinfo" */
	const char *usage;	/* arguments, e.g. "[-v]" or "IFACE" */
	const char *help;
	/* 0, or -1 with a message (missing evidence, bad argument) */
	int (*show)(const struct bundle_r *b, int argc, char **argv, FILE *out);
};

/* each view-<tool>.c exports its descriptor; views.c lists them */
extern const struct view view_ibdev2netdev;
extern const struct view view_dmesg;
extern const struct view view_ibv_devinfo;
extern const struct view view_ibstat;
extern const struct view view_show_gids;
extern const struct view view_ethtool;
extern const struct view view_dcb;
extern const struct view view_ulimit;		/* view-limits.c */
extern const struct view view_limits;
extern const struct view view_lspci;
extern const struct view view_lsmod;
extern const struct view view_ls_infiniband;
extern const struct view view_rdma;
extern const struct view view_sminfo;
extern const struct view view_perfquery;
extern const struct view view_iblinkinfo;
extern const struct view view_ibnetdiscover;
extern const struct view view_ibroute;

/* in the order `show --list` prints them */
extern const struct view *const views[];
extern const size_t nviews;
/* the view of that name, or NULL */
const struct view *view_find(const char *name);

#endif
