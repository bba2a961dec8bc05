/* views: the table of command-equivalent views, in the order `show --list`
 * prints them; each descriptor lives in its view-<tool>.c */
#include <string.h>

#include "util.h"
#include "view.h"

const struct view *const views[] = {
	&view_ibdev2netdev,
	&view_dmesg,
	&view_ibv_devinfo,
	&view_ibstat,
	&view_show_gids,
	&view_ethtool,
	&view_dcb,
	&view_ulimit,
	&view_limits,
	&view_lspci,
	&view_lsmod,
	&view_ls_infiniband,
	&view_rdma,
	&view_sminfo,
	&view_perfquery,
	&view_iblinkinfo,
	&view_ibnetdiscover,
	&view_ibroute,
};

const size_t nviews = ARRAY_SIZE(views);

const struct view *view_find(const char *name)
{
	size_t i;

	for (i = 0; i < nviews; i++)
		if (!strcmp(views[i]->name, name))
			return views[i];
	return NULL;
}
