/* import-readers: the one table of import's readers (imp.h).  Each
 * row names a tool, the file and command names that hint at it, the
 * collector source its evidence belongs to, a recognizer of its text and
 * its parser (imp-ib.c, imp-host*.c, imp-ibdiag.c, imp-rdma.c).
 *
 * A recognizer answers "does this text look like the tool's output?" from
 * a few lines of it, cheaply and without side effects: the file's name
 * is only a hint, so a pasted `output.txt` or one part of a ticket is
 * given to the reader its content names.  Recognizers look at lines with
 * their leading blanks dropped (a paste loses or changes indentation) and
 * at most REC_LINES of them; they are strict enough that two of them
 * rarely claim one text, and the table's order settles the rest (the more
 * specific first: ethtool -i before the generic "name: value" lines).
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "imp.h"
#include "nccl.h"
#include "perftest.h"
#include "util.h"

#define REC_LINES 400

struct rl {
	const char *p, *end;
	int n;
	char s[512];
};

static void rl_init(struct rl *r, const char *text, size_t len)
{
	r->p = text;
	r->end = text + len;
	r->n = 0;
}

/* the next line, leading blanks dropped, cut at 511 bytes */
static int rl_next(struct rl *r)
{
	const char *e;
	size_t k;

	if (r->p >= r->end || r->n >= REC_LINES)
		return 0;
	e = memchr(r->p, '\n', (size_t)(r->end - r->p));
	if (!e)
		e = r->end;
	while (r->p < e && (*r->p == ' ' || *r->p == '\t'))
		r->p++;
	k = (size_t)(e - r->p);
	if (k >= sizeof(r->s))
		k = sizeof(r->s) - 1;
	memcpy(r->s, r->p, k);
	while (k && (r->s[k - 1] == '\r' || r->s[k - 1] == ' '))
		k--;
	r->s[k] = 0;
	r->p = e + 1;
	r->n++;
	return 1;
}

/* how many lines satisfy pred */
static int count_lines(const char *text, size_t len, int (*pred)(const char *))
{
	struct rl r;
	int n = 0;

	rl_init(&r, text, len);
	while (rl_next(&r))
		n += pred(r.s) ? 1 : 0;
	return n;
}

static int line_starts(const char *text, size_t len, const char *prefix)
{
	struct rl r;

	rl_init(&r, text, len);
	while (rl_next(&r))
		if (starts_with(r.s, prefix))
			return 1;
	return 0;
}

static int has(const char *text, size_t len, const char *needle)
{
	return ih_has(text, len, needle);
}

/* --- the recognizers --- */

static int rec_devinfo(const char *t, size_t n)
{
	return line_starts(t, n, "hca_id:");
}

static int ibstat_ca(const char *s)
{
	return starts_with(s, "CA '") || starts_with(s, "CA type:") ||
	       starts_with(s, "Number of ports:");
}

static int rec_ibstat(const char *t, size_t n)
{
	/* "ibpanic: ... stat of IB device 'mlx5_8' failed": ibstat's own
	 * (ibstat.c), alone when it died on the first device */
	return count_lines(t, n, ibstat_ca) >= 2 ||
	       (line_starts(t, n, "CA '") && line_starts(t, n, "Port GUID:")) ||
	       (line_starts(t, n, "ibpanic:") &&
		has(t, n, "stat of IB device '"));
}

static int rec_ibstatus(const char *t, size_t n)
{
	return line_starts(t, n, "Infiniband device '");
}

static int gid_row(const char *s)
{
	char dev[64], gid[64];
	unsigned port, idx;

	return sscanf(s, "%63s %u %u %63s", dev, &port, &idx, gid) == 4 &&
	       strlen(gid) == 39 && gid[4] == ':' && gid[9] == ':';
}

static int rec_ibv_devices(const char *t, size_t n)
{
	struct rl r;

	rl_init(&r, t, n);
	while (rl_next(&r)) {
		const char *s = r.s + strspn(r.s, " \t");

		if (starts_with(s, "device") && strstr(s, "node GUID"))
			return 1;
	}
	return 0;
}

static int rec_show_gids(const char *t, size_t n)
{
	struct rl r;

	rl_init(&r, t, n);
	while (rl_next(&r)) {
		if (starts_with(r.s, "DEV") && strstr(r.s, "PORT") &&
		    strstr(r.s, "INDEX") && strstr(r.s, "GID"))
			return 1;
	}
	return count_lines(t, n, gid_row) >= 1;
}

static int i2n_row(const char *s)
{
	const char *a = strstr(s, " port ");

	return a && strstr(a, " ==> ") && (strstr(s, "(Up)") ||
					   strstr(s, "(Down)"));
}

static int rec_ibdev2netdev(const char *t, size_t n)
{
	return count_lines(t, n, i2n_row) >= 1;
}

static int devnode_row(const char *s)
{
	return s[0] == 'c' && s[1] && strchr("r-", s[1]) &&
	       (strstr(s, " uverbs") || strstr(s, " umad") ||
		strstr(s, " issm") || strstr(s, " rdma_cm"));
}

/* plain ls: every word a node's name */
static int devnode_words(const char *s)
{
	size_t k;

	if (!*s)
		return 0;
	while (*s) {
		k = strcspn(s, " \t");
		if (!ib_devnode_name(s, k))
			return 0;
		s += k;
		s += strspn(s, " \t");
	}
	return 1;
}

static int nonblank(const char *s)
{
	return *s != 0;
}

static int rec_ls_infiniband(const char *t, size_t n)
{
	int words = count_lines(t, n, devnode_words);

	return count_lines(t, n, devnode_row) >= 1 ||
	       (words >= 1 && words == count_lines(t, n, nonblank));
}

static int rec_sminfo(const char *t, size_t n)
{
	return line_starts(t, n, "sminfo: sm lid") ||
	       (line_starts(t, n, "sminfo") && has(t, n, "SMINFO_"));
}

static int pq_row(const char *s)
{
	/* and the names of OFED 1.3's libibmad (SymbolErrors:, XmtData:) */
	static const char *const names[] = {
		"PortSelect:", "SymbolErrorCounter:", "PortXmitData:",
		"PortRcvData:", "PortXmitWait:", "LinkDownedCounter:",
		"PortXmitDiscards:", "PortRcvErrors:", "SymbolErrors:",
		"LinkDowned:", "RcvErrors:", "XmtDiscards:", "XmtData:",
		"RcvData:",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (starts_with(s, names[i]))
			return 1;
	return 0;
}

static int rec_perfquery(const char *t, size_t n)
{
	return line_starts(t, n, "# Port counters:") ||
	       line_starts(t, n, "# Port extended counters:") ||
	       line_starts(t, n, "Port counters: Lid ") ||
	       count_lines(t, n, pq_row) >= 2;
}

static int ill_row(const char *s)
{
	return (starts_with(s, "Switch: 0x") || starts_with(s, "Switch 0x") ||
		starts_with(s, "CA: ")) ;
}

/* a port line: "2   17[  ] ==( 4X ... Active/  LinkUp)==>", a CA's with
 * its port GUID first; `iblinkinfo | grep Up` keeps only these */
static int ill_port(const char *s)
{
	unsigned lid, port;
	char g[20];

	if (!strstr(s, ")==>") || !strstr(s, "==("))
		return 0;
	if (starts_with(s, "0x") && sscanf(s, "%19s %u %u[", g, &lid, &port) == 3)
		return 1;
	return sscanf(s, "%u %u[", &lid, &port) == 2;
}

static int rec_iblinkinfo(const char *t, size_t n)
{
	return (count_lines(t, n, ill_row) >= 1 && has(t, n, "==>")) ||
	       count_lines(t, n, ill_port) >= 1;
}

/* ibnetdiscover -p: "CA   134  1 0x7cfe9003003b4bde 4x EDR - SW ..." */
static int ind_report(const char *s)
{
	char t[8], g[24], w[8];
	unsigned lid, port;

	return sscanf(s, "%7s %u %u %23s %7s", t, &lid, &port, g, w) == 5 &&
	       (!strcmp(t, "CA") || !strcmp(t, "SW") || !strcmp(t, "RT")) &&
	       starts_with(g, "0x") && strchr(w, 'x') && strchr(s, '\'');
}

/* the topology: 'Switch	36 "S-0010e0406d5aa0a0"		# "..."' */
static int ind_topo(const char *s)
{
	return (starts_with(s, "Switch") || starts_with(s, "Ca") ||
		starts_with(s, "Rt")) && (strstr(s, " \"S-") ||
					   strstr(s, " \"H-") ||
					   strstr(s, " \"R-")) && strchr(s, '#');
}

static int rec_ibnetdiscover(const char *t, size_t n)
{
	return count_lines(t, n, ind_report) >= 1 ||
	       count_lines(t, n, ind_topo) >= 1;
}

/* ibswitches, ibhosts: 'Switch : 0x... ports 36 "desc" ... lid 15 lmc 0',
 * "> " quoted or not */
static int isw_row(const char *s)
{
	char t[8], g[24];
	unsigned np;

	s = imp_unquoted(s);
	return sscanf(s, "%7s : %23s ports %u", t, g, &np) == 3 &&
	       (!strcmp(t, "Switch") || !strcmp(t, "Ca") || !strcmp(t, "Rt")) &&
	       starts_with(g, "0x") && strchr(s, '"');
}

static int rec_ibswitches(const char *t, size_t n)
{
	return count_lines(t, n, isw_row) >= 1;
}

/* ibqueryerrors: '   GUID 0x... port 3: [SymbolErrorCounter == 5]' */
static int iqe_row(const char *s)
{
	char g[24], pn[8];

	return sscanf(s, "GUID %23s port %7[0-9A-Z]:", g, pn) == 2 &&
	       starts_with(g, "0x") && strstr(s, ": [") && strstr(s, " == ");
}

static int rec_ibqueryerrors(const char *t, size_t n)
{
	return count_lines(t, n, iqe_row) >= 1;
}

static int rec_dbcsv(const char *t, size_t n)
{
	return line_starts(t, n, "START_NODES") ||
	       line_starts(t, n, "START_PORTS");
}

/* ibdiagnet's console log: "-I- " lines, and its banner or its Summary
 * table ("-I- Stage   Warnings   Errors   Comment") */
static int ibdl_row(const char *s)
{
	return starts_with(s, "-I- ") || starts_with(s, "-W- ") ||
	       starts_with(s, "-E- ");
}

static int rec_ibdiag_log(const char *t, size_t n)
{
	return count_lines(t, n, ibdl_row) >= 3 &&
	       (line_starts(t, n, "Running version:") ||
		line_starts(t, n, "-I- Stage ") || has(t, n, "ibdiagnet2."));
}

static int bdf_head(const char *s)
{
	unsigned a, b, c, d;
	char sp;

	if (sscanf(s, "%4x:%2x:%2x.%1u%c", &a, &b, &c, &d, &sp) == 5 &&
	    sp == ' ')
		return 1;
	return sscanf(s, "%2x:%2x.%1u%c", &a, &b, &c, &sp) == 4 && sp == ' ' &&
	       s[2] == ':' && s[5] == '.';
}

/* -n's device line: "04:00.0 0200: 15b3:101d", the class and ids alone */
static int bdf_numeric(const char *s)
{
	const char *p = strchr(s, ' ');
	unsigned c, v, d;
	char sp;

	return bdf_head(s) && p &&
	       sscanf(p + 1, "%4x: %4x:%4x%c", &c, &v, &d, &sp) >= 3 &&
	       strlen(p + 1) >= 15 && p[5] == ':' && p[11] == ':';
}

/* "ACSCtl:\tSrcValid- TransBlk- ..." as lspci -vvv prints it */
static int acsctl_line(const char *s)
{
	return starts_with(s, "ACSCtl:") && strstr(s, "SrcValid") &&
	       strstr(s, "ReqRedir");
}

/* lspci -v/-vv/-vvv, named or numeric (-n), whole or cut ("...." for
 * what the poster left out), or only its ACSCtl lines (| grep ACSCtl) */
static int rec_lspci(const char *t, size_t n)
{
	if (count_lines(t, n, bdf_head) < 1)
		return count_lines(t, n, acsctl_line) >= 1;
	return has(t, n, "LnkSta:") || has(t, n, "Mellanox") ||
	       has(t, n, "Ethernet controller") ||
	       has(t, n, "Infiniband controller") ||
	       has(t, n, "Network controller") ||
	       has(t, n, "\tCapabilities: [") || has(t, n, "ACSCtl:") ||
	       count_lines(t, n, bdf_numeric) >= 1;
}

static int mod_row(const char *s)
{
	static const char *const rdma[] = {
		"ib_core ", "mlx5_core ", "mlx5_ib ", "ib_uverbs ", "rdma_cm ",
		"rdma_ucm ", "ib_umad ", "mlx4_core ", "mlx_compat ",
		"nvidia_peermem ", "rdma_rxe ", "irdma ", "bnxt_re ", "efa ",
		"ib_ipoib ", "ib_cm ", "iw_cm ",
	};
	unsigned long sz;
	unsigned used;
	char name[64];
	size_t i;

	if (sscanf(s, "%63s %lu %u", name, &sz, &used) != 3)
		return 0;
	for (i = 0; i < ARRAY_SIZE(rdma); i++)
		if (starts_with(s, rdma[i]))
			return 1;
	return 0;
}

static int rec_lsmod(const char *t, size_t n)
{
	return line_starts(t, n, "Module                  Size  Used by") ||
	       count_lines(t, n, mod_row) >= 1;
}

static int klog_row(const char *s)
{
	const char *e;

	if (ih_is_klog_record(s))
		return 1;
	if (s[0] == '[') {
		/* [ 12.345678] or [Sat Nov 29 21:04:05 2025] */
		e = strchr(s, ']');
		return e && e - s < 40 && (strchr(s, '.') < e || strchr(s, ':') < e);
	}
	/* syslog or journalctl: "Nov 29 21:04:05 host kernel: ..." */
	return strstr(s, " kernel: ") != NULL;
}

static int rec_dmesg(const char *t, size_t n)
{
	return count_lines(t, n, klog_row) >= 1 &&
	       (has(t, n, "mlx") || has(t, n, "infiniband") ||
		has(t, n, "ib_") || has(t, n, "rdma") || has(t, n, "Linux version") ||
		count_lines(t, n, klog_row) >= 5);
}

static int stat_row(const char *s)
{
	const char *c = strrchr(s, ':');
	const char *v;

	if (!c || c == s || c[1] != ' ')
		return 0;
	for (v = s; v < c; v++)
		if (!isalnum((unsigned char)*v) && !strchr("_[].-", *v))
			return 0;
	for (v = c + 2; *v == ' '; v++)
		;
	if (*v == '-')
		v++;
	if (!isdigit((unsigned char)*v))
		return 0;
	while (isdigit((unsigned char)*v))
		v++;
	return !*v && (starts_with(s, "rx") || starts_with(s, "tx") ||
		       strstr(s, "_phy") || strstr(s, "vport") ||
		       strstr(s, "_pause") || strstr(s, "_cnp"));
}

/* the command line first, without a prompt: "ethtool -S IF | grep x" */
static int stats_cmd_first(const char *t, size_t n)
{
	struct rl r;

	rl_init(&r, t, n);
	while (rl_next(&r) && !r.s[0])
		;
	return starts_with(r.s, "ethtool -S ") ||
	       starts_with(r.s, "sudo ethtool -S ") ||
	       starts_with(r.s, "ethtool --statistics ");
}

static int rec_ethtool_stats(const char *t, size_t n)
{
	return line_starts(t, n, "NIC statistics:") ||
	       count_lines(t, n, stat_row) >= 2 ||
	       (stats_cmd_first(t, n) && count_lines(t, n, stat_row) >= 1);
}

/* ethtool_stats.pl: "Ethtool(IF) stat: N (N) <= name /sec" */
static int rate_row(const char *s)
{
	const char *e = strstr(s, ") stat: ");
	size_t n = strlen(s);

	return starts_with(s, "Ethtool(") && e && strstr(e, " <= ") &&
	       n > 5 && !strcmp(s + n - 5, " /sec");
}

static int rec_ethtool_rates(const char *t, size_t n)
{
	return count_lines(t, n, rate_row) >= 1;
}

static int rec_ethtool_drvinfo(const char *t, size_t n)
{
	return line_starts(t, n, "driver: ") &&
	       (line_starts(t, n, "firmware-version:") ||
		line_starts(t, n, "bus-info:"));
}

static int rec_ethtool_pause(const char *t, size_t n)
{
	return line_starts(t, n, "Pause parameters for ");
}

static int rec_ethtool_link(const char *t, size_t n)
{
	return line_starts(t, n, "Settings for ") &&
	       (line_starts(t, n, "Speed:") || line_starts(t, n, "Link detected:"));
}

static int rec_dcb_pfc(const char *t, size_t n)
{
	return line_starts(t, n, "pfc-cap ") || line_starts(t, n, "prio-pfc ");
}

/* mlnx_qos: "PFC configuration:" and its "enabled  0 0 0 1 0 0 0 0" */
static int qos_enabled_row(const char *s)
{
	int i;

	if (!starts_with(s, "enabled"))
		return 0;
	s += 7;
	for (i = 0; i < 8; i++) {
		s += strspn(s, " \t");
		if (*s != '0' && *s != '1')
			return 0;
		s++;
	}
	return 1;
}

static int rec_mlnx_qos(const char *t, size_t n)
{
	return line_starts(t, n, "PFC configuration:") &&
	       count_lines(t, n, qos_enabled_row) >= 1;
}

static int ip_row(const char *s)
{
	unsigned k;
	char name[64], lt;

	return sscanf(s, "%u: %63[^:]: %c", &k, name, &lt) == 3 && lt == '<';
}

static int rec_ip(const char *t, size_t n)
{
	return count_lines(t, n, ip_row) >= 1;
}

static int rec_ulimit(const char *t, size_t n)
{
	return line_starts(t, n, "max locked memory");
}

/* whole, or what "grep Huge /proc/meminfo" kept of it */
static int rec_meminfo(const char *t, size_t n)
{
	return line_starts(t, n, "HugePages_Total:") &&
	       (line_starts(t, n, "MemTotal:") ||
		line_starts(t, n, "HugePages_Free:"));
}

static int rec_cmdline(const char *t, size_t n)
{
	return line_starts(t, n, "BOOT_IMAGE=");
}

static int limits_row(const char *s)
{
	char dom[128], type[16], item[32];

	return s[0] != '#' && sscanf(s, "%127s %15s %31s", dom, type, item) == 3 &&
	       (!strcmp(type, "soft") || !strcmp(type, "hard") ||
		!strcmp(type, "-")) && !strcmp(item, "memlock");
}

static int rec_limits_conf(const char *t, size_t n)
{
	return count_lines(t, n, limits_row) >= 1;
}

/* a section title of the network link's or of the PCIe link's output */
static int rec_mlxlink(const char *t, size_t n)
{
	return (line_starts(t, n, "Operational Info") &&
		has(t, n, "Physical state")) ||
	       line_starts(t, n, "Physical Counters and BER Info") ||
	       line_starts(t, n, "PCIe Operational (Enabled) Info");
}

static int rec_mst_status(const char *t, size_t n)
{
	return line_starts(t, n, "MST modules:") ||
	       (line_starts(t, n, "DEVICE_TYPE") && has(t, n, "/dev/mst/"));
}

static int nccl_env_row(const char *s)
{
	return starts_with(s, "NCCL_") && strchr(s, '=') && !strchr(s, ' ');
}

static int rec_nccl_conf(const char *t, size_t n)
{
	return count_lines(t, n, nccl_env_row) >= 1 && !ih_is_nccl(t, n);
}

static int rec_attachment(const char *t, size_t n)
{
	return ih_is_nccl(t, n) || perftest_detect(t, n);
}

static int rdma_link_row(const char *s)
{
	unsigned k, p;
	char name[64];

	/* "link mlx5_0/1 ...", before iproute2 5.4 "0/1: mlx5_0/1: ..." */
	return (starts_with(s, "link ") ||
		sscanf(s, "%u/%u: %63[^:]:", &k, &p, name) == 3) &&
	       strchr(s, '/') && !strstr(s, " lqpn ") &&
	       (strstr(s, " state ") || strstr(s, " physical_state "));
}

static int rec_rdma_link(const char *t, size_t n)
{
	return count_lines(t, n, rdma_link_row) >= 1;
}

static int rdma_dev_row(const char *s)
{
	unsigned k;
	char name[64];

	return sscanf(s, "%u: %63[^:]:", &k, name) == 2 &&
	       strstr(s, " node_type ") != NULL;
}

static int rec_rdma_dev(const char *t, size_t n)
{
	return count_lines(t, n, rdma_dev_row) >= 1;
}

static int rdma_stat_row(const char *s)
{
	return starts_with(s, "link ") && strchr(s, '/') &&
	       !strstr(s, " state ") && !strstr(s, " physical_state ");
}

static int rec_rdma_stat(const char *t, size_t n)
{
	return count_lines(t, n, rdma_stat_row) >= 1;
}

static int res_row(const char *s)
{
	unsigned k;
	char name[64];

	return (sscanf(s, "%u: %63[^:]:", &k, name) == 2 && strstr(s, " pd ") &&
		strstr(s, " qp ")) ||
	       (starts_with(s, "link ") && (strstr(s, " lqpn ") ||
					   strstr(s, " cqn ") || strstr(s, " mrn ")));
}

static int rec_rdma_res(const char *t, size_t n)
{
	return count_lines(t, n, res_row) >= 1;
}

static int rec_fi_info(const char *t, size_t n)
{
	return (line_starts(t, n, "provider:") && line_starts(t, n, "fabric:") &&
		line_starts(t, n, "domain:")) || line_starts(t, n, "fi_info:");
}

static int rec_uname(const char *t, size_t n)
{
	return line_starts(t, n, "Linux ") && has(t, n, "GNU/Linux");
}

/* uptime, or uptime -p alone ("up 2 hours, 3 minutes") */
static int rec_uptime(const char *t, size_t n)
{
	while (n && isspace((unsigned char)*t))
		t++, n--;
	return (has(t, n, " up ") && has(t, n, "load average")) ||
	       (n > 4 && !strncmp(t, "up ", 3) && isdigit((unsigned char)t[3]));
}

/* --- the table --- */

/* The order matters where names overlap: the first row whose pattern
 * matches and whose parser takes the text wins ("ethtool_*" after the
 * ethtool option rows); for content alone, the first recognizer that
 * claims the text and whose parser takes it. */
const struct imp_reader imp_readers[] = {
	{ "ibv_devinfo", "ibv_devinfo|ibv_devinfo_-v|ibv_devinfo_*",
	  SOURCE_VERBS, rec_devinfo, ib_devinfo,
	  "the output of ibv_devinfo -v" },
	{ "ibstat", "ibstat|ibstat_*", SOURCE_SYSFS, rec_ibstat, ib_ibstat,
	  "the output of ibstat" },
	{ "ibstatus", "ibstatus|ibstatus_*", SOURCE_SYSFS, rec_ibstatus,
	  ib_ibstatus, "the output of ibstatus" },
	{ "ibv_devices", "ibv_devices", SOURCE_SYSFS, rec_ibv_devices,
	  ib_ibv_devices, "the output of ibv_devices" },
	{ "show_gids", "show_gids|show_gids_*", SOURCE_SYSFS, rec_show_gids,
	  ib_show_gids, "the output of show_gids" },
	{ "ibdev2netdev", "ibdev2netdev|ibdev2netdev_-v", SOURCE_SYSFS,
	  rec_ibdev2netdev, ib_ibdev2netdev, "the output of ibdev2netdev -v" },
	{ "ls -la /dev/infiniband", "ls_-la_dev_infiniband|ls_-l_dev_infiniband|"
	  "ls_-la_.dev.infiniband|ls_-l_.dev.infiniband|ls-infiniband|"
	  "ls_-al_dev_infiniband|ls_dev_infiniband|ls_-la_dev_infiniband_|"
	  "ls_-l_dev_infiniband_",
	  SOURCE_DEVNODES, rec_ls_infiniband, ib_ls_infiniband,
	  "the output of ls -la /dev/infiniband" },
	{ "sminfo", "sminfo|sminfo_-C_*|sminfo_*", SOURCE_MAD, rec_sminfo,
	  ib_sminfo, "the output of sminfo" },
	{ "perfquery", "perfquery|perfquery_-x|perfquery_-C_*|perfquery_-x_-C_*|"
	  "perfquery_*", SOURCE_MAD, rec_perfquery,
	  ib_perfquery, "the output of perfquery -x" },
	{ "iblinkinfo", "iblinkinfo|iblinkinfo_-C_*|iblinkinfo_*",
	  SOURCE_FABRIC, rec_iblinkinfo, ib_iblinkinfo,
	  "the output of iblinkinfo" },
	{ "ibnetdiscover", "ibnetdiscover|ibnetdiscover_*|ibnetdiscover-*",
	  SOURCE_FABRIC, rec_ibnetdiscover, fab_ibnetdiscover,
	  "the output of ibnetdiscover (or ibnetdiscover -p)" },
	{ "ibswitches", "ibswitches|ibswitches_*|ibhosts|ibhosts_*",
	  SOURCE_FABRIC, rec_ibswitches, fab_ibswitches,
	  "the output of ibswitches or ibhosts" },
	{ "ibqueryerrors", "ibqueryerrors|ibqueryerrors_*", SOURCE_FABRIC,
	  rec_ibqueryerrors, fab_ibqueryerrors,
	  "the output of ibqueryerrors --report-port (--data)" },
	{ "rdma link", "rdma_link|rdma_link_show|rdma_link_*|rdma_-d_link*|"
	  "rdma_-j_link*|rdma_-p_link*", SOURCE_SYSFS, rec_rdma_link, rdma_link,
	  "the output of rdma link show" },
	{ "rdma dev", "rdma_dev|rdma_dev_show|rdma_dev_*|rdma_-d_dev*",
	  SOURCE_SYSFS, rec_rdma_dev, rdma_dev, "the output of rdma dev show" },
	{ "rdma statistic", "rdma_statistic|rdma_statistic_show|"
	  "rdma_statistic_show*|rdma_statistic_mode|rdma_statistic_mode*|"
	  "rdma_stat|rdma_stat_show|rdma_stat_show*|rdma_stat_mode*|"
	  "rdma_-d_stat*|rdma_-p_stat*|rdma_-j_stat*", SOURCE_SYSFS,
	  rec_rdma_stat, rdma_statistic, "the output of rdma statistic show" },
	{ "rdma resource", "rdma_res|rdma_res_*|rdma_resource|rdma_resource_*",
	  SOURCE_SYSFS, rec_rdma_res, rdma_res, "the output of rdma res show" },
	{ "fi_info", "fi_info|fi_info_*", SOURCE_VERBS, rec_fi_info,
	  rdma_fi_info, "the output of fi_info -v" },
	/* before the kernel log's: an NCCL log with time stamps before
	 * each line (mpirun --timestamp-output) has lines like a syslog's */
	{ "NCCL log, perftest output", "nccl|nccl*|*nccl|*.nccl|ib_*|"
	  "raw_ethernet_*|perftest|perftest*|*perftest|*_bw|*_lat|*_perf|"
	  "*_perf_*", SOURCE_ATTACH, rec_attachment, ih_attachment,
	  "an NCCL log with NCCL_DEBUG=INFO, or a perftest output" },
	{ "lspci", "lspci|lspci_-*", SOURCE_PCI, rec_lspci, ih_lspci,
	  "the output of lspci -vvv, run as root" },
	{ "lsmod", "lsmod|lsmod_*|proc_modules|modules", SOURCE_MODULES,
	  rec_lsmod, ih_lsmod, "the output of lsmod" },
	{ "dmesg", "dmesg|dmesg_-*|dmesg_*|journalctl_-k|journalctl_-k*|"
	  "journalctl_--dmesg*|kern|kern.log|messages|syslog|dmesg-erst*|"
	  "dmesg-efi*|console-ramoops*", SOURCE_KLOG, rec_dmesg, ih_dmesg,
	  "the output of dmesg (or journalctl -k)" },
	{ "ethtool -S", "ethtool_-S_*|ethtool_--statistics_*", SOURCE_NETDEV,
	  rec_ethtool_stats, ih_ethtool_stats,
	  "the output of ethtool -S IFACE, saved as 'ethtool -S IFACE.txt'" },
	{ "ethtool_stats.pl", "ethtool_stats*", SOURCE_NETDEV, rec_ethtool_rates,
	  ih_ethtool_rates, "the output of ethtool_stats.pl --dev IFACE" },
	{ "ethtool -i", "ethtool_-i_*|ethtool_--driver_*", SOURCE_NETDEV,
	  rec_ethtool_drvinfo, ih_ethtool_drvinfo,
	  "the output of ethtool -i IFACE" },
	{ "ethtool -a", "ethtool_-a_*|ethtool_--show-pause_*", SOURCE_NETDEV,
	  rec_ethtool_pause, ih_ethtool_pause, "the output of ethtool -a IFACE" },
	{ "ethtool", "ethtool_*", SOURCE_NETDEV, rec_ethtool_link,
	  ih_ethtool_link, "the output of ethtool IFACE" },
	{ "dcb pfc show", "dcb_pfc_show_dev_*|dcb_-s_pfc_show_dev_*|"
	  "dcb_-statistics_pfc_show_dev_*", SOURCE_NETDEV, rec_dcb_pfc,
	  ih_dcb_pfc, "the output of dcb pfc show dev IFACE" },
	{ "mlnx_qos", "mlnx_qos_-i_*|mlnx_qos_--interface_*|mlnx_qos",
	  SOURCE_NETDEV, rec_mlnx_qos, ih_mlnx_qos,
	  "the output of mlnx_qos -i IFACE" },
	{ "ip", "ip_*|ip", SOURCE_NETDEV, rec_ip, ih_ip,
	  "the output of ip -d addr" },
	/* bash takes the options apart or together, in either order:
	 * "ulimit -H -l" is "ulimit -Hl" */
	{ "ulimit -l", "ulimit_-l|ulimit_-Sl|ulimit_-lS|ulimit_-S_-l|"
	  "ulimit_-l_-S|ulimit_-a|ulimit_-Sa|ulimit_-aS|ulimit_-S_-a|"
	  "ulimit_-a_-S|ulimit", SOURCE_LIMITS, rec_ulimit, ih_ulimit_soft,
	  "the output of ulimit -a" },
	{ "ulimit -Hl", "ulimit_-Hl|ulimit_-lH|ulimit_-H_-l|ulimit_-l_-H|"
	  "ulimit_-Ha|ulimit_-aH|ulimit_-H_-a|ulimit_-a_-H", SOURCE_LIMITS, NULL,
	  ih_ulimit_hard, "the output of ulimit -Ha" },
	{ "/proc/meminfo", "meminfo|proc_meminfo", SOURCE_LIMITS, rec_meminfo,
	  ih_meminfo, "a copy of /proc/meminfo" },
	{ "/proc/cmdline", "cmdline|proc_cmdline", SOURCE_IDENTITY, rec_cmdline,
	  ih_cmdline, "a copy of /proc/cmdline" },
	{ "limits.conf", "limits.conf|etc_security_limits.conf|"
	  "etc_security_limits.d_*", SOURCE_LIMITS,
	  rec_limits_conf, ih_limits_conf, "a copy of /etc/security/limits.conf" },
	{ "mlxlink", "mlxlink_-d_*|mlxlink_--device_*|mstlink_-d_*|"
	  "mstlink_--device_*", SOURCE_COMMANDS, rec_mlxlink,
	  ih_mlxlink, "the output of mlxlink -d DEV -m -e -c, saved as "
	  "'mlxlink -d DEV.txt'" },
	{ "mst status", "mst_status|mst_status_-v", SOURCE_COMMANDS,
	  rec_mst_status, ih_mst_status, "the output of mst status -v" },
	{ "/etc/nccl.conf", "nccl.conf|etc_nccl.conf", SOURCE_NCCL,
	  rec_nccl_conf, ih_nccl_conf, "a copy of /etc/nccl.conf" },
	{ "ibdiagnet", "ibdiagnet2.db_csv|*.db_csv", SOURCE_FABRIC, rec_dbcsv,
	  ibdiag_dbcsv, "ibdiagnet's ibdiagnet2.db_csv" },
	{ "ibdiagnet log", "ibdiagnet2|ibdiagnet|ibdiagnet_*|ibdiagnet2_*",
	  SOURCE_FABRIC, rec_ibdiag_log, ibdiag_log,
	  "ibdiagnet's console log (ibdiagnet2.log)" },
	/* (readers added for issue 17's real corpus go above this line,
	 * each in its group's place: fabric tools after iblinkinfo, host
	 * tools after dcb, application logs after NCCL) */
	{ "hostname", "hostname|etc_hostname", SOURCE_IDENTITY, NULL,
	  imp_rd_hostname, "the output of hostname" },
	{ "uname -a", "uname|uname_-a", SOURCE_IDENTITY, rec_uname,
	  imp_rd_uname, "the output of uname -a" },
	{ "uptime", "uptime", SOURCE_IDENTITY, rec_uptime, imp_rd_uptime,
	  "the output of uptime" },
	{ NULL, NULL, 0, NULL, NULL, NULL },
};
