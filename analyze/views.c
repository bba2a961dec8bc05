/* views: the table of command-equivalent views */
#include <string.h>

#include "view.h"

int view_ibdev2netdev(const struct bundle_r *b, int argc, char **argv, FILE *out);
int view_dmesg(const struct bundle_r *b, int argc, char **argv, FILE *out);
int view_ibv_devinfo(const struct bundle_r *b, int argc, char **argv, FILE *out);
int view_ibstat(const struct bundle_r *b, int argc, char **argv, FILE *out);
int view_show_gids(const struct bundle_r *b, int argc, char **argv, FILE *out);
int view_ethtool(const struct bundle_r *b, int argc, char **argv, FILE *out);
int view_dcb(const struct bundle_r *b, int argc, char **argv, FILE *out);
int view_ulimit(const struct bundle_r *b, int argc, char **argv, FILE *out);
int view_limits(const struct bundle_r *b, int argc, char **argv, FILE *out);
int view_lspci(const struct bundle_r *b, int argc, char **argv, FILE *out);
int view_lsmod(const struct bundle_r *b, int argc, char **argv, FILE *out);
int view_ls_infiniband(const struct bundle_r *b, int argc, char **argv, FILE *out);
int view_rdma(const struct bundle_r *b, int argc, char **argv, FILE *out);
int view_sminfo(const struct bundle_r *b, int argc, char **argv, FILE *out);
int view_perfquery(const struct bundle_r *b, int argc, char **argv, FILE *out);
int view_iblinkinfo(const struct bundle_r *b, int argc, char **argv, FILE *out);
int view_ibnetdiscover(const struct bundle_r *b, int argc, char **argv, FILE *out);
int view_ibroute(const struct bundle_r *b, int argc, char **argv, FILE *out);

const struct view views[] = {
	{ "ibdev2netdev", "", "RDMA port to netdev map, as ibdev2netdev", view_ibdev2netdev },
	{ "dmesg", "[--rdma]", "the kernel log as dmesg prints it; --rdma: only RDMA-relevant lines", view_dmesg },
	{ "ibv_devinfo", "[-v] [-l] [-d DEV] [-i PORT]", "devices and ports as ibv_devinfo (verbs evidence)", view_ibv_devinfo },
	{ "ibstat", "[-l] [-s] [CA [PORT]]", "CAs and ports as ibstat (sysfs)", view_ibstat },
	{ "show_gids", "[DEV]", "GID table as show_gids (sysfs)", view_show_gids },
	{ "ethtool", "-S|-a IFACE", "netdev statistics as ethtool -S, pause settings as ethtool -a", view_ethtool },
	{ "dcb", "[-s] pfc show dev IFACE", "PFC settings as iproute2 dcb pfc show", view_dcb },
	{ "ulimit", "[-l|-Sl|-Hl]", "the collector's locked-memory limit as ulimit -l (KiB)", view_ulimit },
	{ "limits", "", "Max locked memory of every process collected, as /proc/PID/limits", view_limits },
	{ "lspci", "[BDF]", "PCIe link and ACS lines of the HCAs, GPUs and bridges as lspci -vvv", view_lspci },
	{ "lsmod", "", "loaded modules as lsmod (users from /proc/modules)", view_lsmod },
	{ "ls-infiniband", "", "/dev/infiniband as ls -la /dev/infiniband", view_ls_infiniband },
	{ "rdma", "link [show [DEV[/PORT]]]", "RDMA ports as iproute2's rdma link show (sysfs)", view_rdma },
	{ "sminfo", "[-C CA] [-P PORT]", "the master SM as sminfo (mad source: SMInfo)", view_sminfo },
	{ "perfquery", "[-x] [-C CA] [-P PORT] [LID [PORT]]", "PMA port counters as perfquery: the local port, its peer switch port (mad) or any port of the fabric scan", view_perfquery },
	{ "iblinkinfo", "[-d] [-l] [--switches-only|--cas-only]", "every link as iblinkinfo (fabric scan; else the local links from the mad source)", view_iblinkinfo },
	{ "ibnetdiscover", "", "the topology file as ibnetdiscover (fabric scan)", view_ibnetdiscover },
	{ "ibroute", "[-a] [-n] [LID | -G GUID] [STARTLID [ENDLID]]", "a switch's unicast forwarding table as ibroute; every switch without LID (fabric scan)", view_ibroute },
	{ NULL, NULL, NULL, NULL },
};

const struct view *view_find(const char *name)
{
	const struct view *v;

	for (v = views; v->name; v++)
		if (!strcmp(v->name, name))
			return v;
	return NULL;
}
