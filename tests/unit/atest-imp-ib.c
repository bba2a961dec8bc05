/* atest-imp-ib: the InfiniBand tool parsers of analyze/import/imp-ib.c.
 *
 * Round trip: each view of a sample bundle (ibv_devinfo -v, ibstat,
 * show_gids, ibdev2netdev, ls-infiniband) is parsed back and the view of
 * the import must print the same bytes.  Real outputs (public pastes,
 * their sources below) give the values rdma-collect stores.  Hostile and
 * foreign text: nothing is added.
 *
 * Each text is written to a folder of its own and imported with imp_open,
 * as `rdma-analyze report DIR` would.
 *
 * `atest-imp-ib --cat DIR PATH` imports the outputs in DIR and prints the
 * entry at PATH: tests/cli/import-ib.sh compares the documents imported
 * from the simulated fabric's real tool outputs with the collector's. */
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "breader.h"
#include "import/imp.h"
#include "log.h"
#include "t.h"
#include "util.h"
#include "view.h"

/* a folder of outputs into a bundle, by the import */
static struct bundle_r *import_dir(const char *dir)
{
	struct bundle_r *b = NULL;
	char err[256];

	if (imp_open(dir, NULL, &b, err, sizeof(err)) < 0)
		fprintf(stderr, "import %s: %s\n", dir, err);
	return b;
}

/* --- views --- */

static char *show(const struct bundle_r *b, const char *cmd)
{
	char line[256], *argv[16], *save, *s, *out = NULL;
	const struct view *v;
	size_t n = 0;
	int argc = 0;
	FILE *f;

	snprintf(line, sizeof(line), "%s", cmd);
	for (s = strtok_r(line, " ", &save); s && argc < 16;
	     s = strtok_r(NULL, " ", &save))
		argv[argc++] = s;
	v = view_find(argv[0]);
	f = open_memstream(&out, &n);
	if (!v || !f)
		return NULL;
	if (v->show(b, argc - 1, argv + 1, f) < 0) {
		fclose(f);
		free(out);
		return NULL;
	}
	fclose(f);
	return out;
}

static void write_file(const char *dir, const char *name, const char *text)
{
	char p[1024];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	f = fopen(p, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* each view of a bundle written as the tool's output, imported, shown
 * again */
static void round_trip(const char *bundle)
{
	static const struct {
		const char *view, *file;
	} v[] = {
		{ "ibstat", "ibstat" },
		{ "ibv_devinfo -v", "ibv_devinfo -v.txt" },
		{ "show_gids", "show_gids" },
		{ "ibdev2netdev", "ibdev2netdev.out" },
		{ "ls-infiniband", "ls -la dev infiniband" },
	};
	char dir[] = "/tmp/atest-imp-ib.XXXXXX", err[256], *orig[8] = { 0 };
	struct bundle_r *b, *ib;
	size_t i;

	if (br_open(bundle, NULL, &b, err, sizeof(err)) < 0) {
		T_OK(0, "open %s: %s", bundle, err);
		return;
	}
	if (!mkdtemp(dir)) {
		br_free(b);
		return;
	}
	for (i = 0; i < ARRAY_SIZE(v); i++) {
		orig[i] = show(b, v[i].view);
		if (orig[i])
			write_file(dir, v[i].file, orig[i]);
	}
	ib = import_dir(dir);
	T_OK(ib != NULL, "%s: the outputs import", bundle);
	for (i = 0; ib && i < ARRAY_SIZE(v); i++) {
		char *again = show(ib, v[i].view);

		T_OK(orig[i] && again && !strcmp(orig[i], again),
		     "%s: %s of the import equals the bundle's", bundle, v[i].view);
		if (orig[i] && again && strcmp(orig[i], again)) {
			FILE *f = fopen("/tmp/atest-imp-ib.diff", "w");

			if (f) {
				fprintf(f, "--- bundle\n%s--- import\n%s", orig[i], again);
				fclose(f);
			}
		}
		free(again);
	}
	for (i = 0; i < ARRAY_SIZE(v); i++) {
		free(orig[i]);
		snprintf(err, sizeof(err), "%s/%s", dir, v[i].file);
		unlink(err);
	}
	rmdir(dir);
	br_free(ib);
	br_free(b);
}

/* texts imported from a folder of their own: name, text, ... NULL */
static struct bundle_r *import_texts(const char *name, ...)
{
	char dir[] = "/tmp/atest-imp-ib.XXXXXX", p[1024];
	const char *names[8];
	struct bundle_r *b;
	const char *n, *t;
	size_t k = 0, i;
	va_list ap;

	if (!mkdtemp(dir))
		return NULL;
	va_start(ap, name);
	for (n = name; n && k < 8; n = va_arg(ap, const char *)) {
		t = va_arg(ap, const char *);
		write_file(dir, n, t);
		names[k++] = n;
	}
	va_end(ap);
	b = import_dir(dir);
	for (i = 0; i < k; i++) {
		snprintf(p, sizeof(p), "%s/%s", dir, names[i]);
		unlink(p);
	}
	rmdir(dir);
	return b;
}

static const char *line_of(const struct bundle_r *b, const char *path)
{
	static char buf[256];

	return b && br_line(b, path, buf, sizeof(buf)) ? buf : "(absent)";
}

/* what became of an input file: its parts' statuses, the first that is
 * not "read", else "read" */
static const char *import_status(const struct bundle_r *b, const char *file)
{
	static char buf[32];
	struct jv *m = b ? br_json(b, "manifest.json") : NULL;
	const struct jv *in = jget(jget(m, "import"), "inputs");
	size_t i;

	snprintf(buf, sizeof(buf), "(absent)");
	for (i = 0; i < jlen(in); i++) {
		const char *st = jstr(jat(in, i), "status");

		if (!jstr(jat(in, i), "file") || strcmp(jstr(jat(in, i), "file"),
							 file) || !st)
			continue;
		if (strcmp(st, "read") || !strcmp(buf, "(absent)"))
			snprintf(buf, sizeof(buf), "%s", st);
		if (strcmp(st, "read"))
			break;
	}
	jfree(m);
	return buf;
}

/* a JSON member of a stored document as text */
static const char *json_of(const struct bundle_r *b, const char *path,
			   const char *a, const char *c, const char *d)
{
	static char buf[256];
	struct jv *doc = b ? br_json(b, path) : NULL;
	const struct jv *v = jget(doc, a);

	if (c)
		v = jget(v, c);
	if (d)
		v = jget(v, d);
	snprintf(buf, sizeof(buf), "%s", !v ? "(absent)" : v->t == J_STR ||
		 v->t == J_NUM ? v->s : "(other)");
	jfree(doc);
	return buf;
}

/* --- real outputs, verbatim (TABs where the paste had them): ibstat
 * NVIDIA/nccl#1591 (NDR) and linux-rdma/rdma-core#847 (mlx4); ibstatus
 * NVIDIA/nccl#1866; ibv_devinfo open-mpi/ompi#6137 and
 * Mellanox/k8s-rdma-shared-dev-plugin#164; show_gids NVIDIA/nccl#1573 and
 * openucx/ucx#9484; ibdev2netdev openshift/sriov-network-operator#635;
 * perfquery -x treydock/infiniband_exporter's collectors/perfquery_test.go
 * and a public script quoting an older infiniband-diags; iblinkinfo two
 * clusters' notes (EDR behind an SB7700, QDR behind an Infiniscale-IV) --- */

static const char ibstat_ndr[] =
	"CA 'mlx5_5'\n"
	"        CA type: MT4129\n"
	"        Number of ports: 1\n"
	"        Firmware version: 28.41.1000\n"
	"        Hardware version: 0\n"
	"        Node GUID: 0x9c63c003005548ae\n"
	"        System image GUID: 0x9c63c003005548ae\n"
	"        Port 1:\n"
	"                State: Active\n"
	"                Physical state: LinkUp\n"
	"                Rate: 400\n"
	"                Base lid: 987\n"
	"                LMC: 0\n"
	"                SM lid: 359\n"
	"                Capability mask: 0xa751e848\n"
	"                Port GUID: 0x9c63c003005548ae\n"
	"                Link layer: InfiniBand\n";

/* mlx4, TABs, cut in the middle of port 2 */
static const char ibstat_mlx4_cut[] =
	"CA 'mlx4_0'\n\tCA type: MT4099\n\tNumber of ports: 2\n"
	"\tFirmware version: 2.42.5000\n\tHardware version: 1\n"
	"\tNode GUID: 0xf4521403007be0e0\n\tSystem image GUID: 0xf4521403007be0e3\n"
	"\tPort 1:\n\t\tState: Down\n\t\tPhysical state: Disabled\n\t\tRate: 10\n"
	"\t\tBase lid: 38\n\t\tLMC: 0\n\t\tSM lid: 13\n"
	"\t\tCapability mask: 0x02594868\n\t\tPort GUID: 0xf4521403007be0e1\n"
	"\t\tLink layer: InfiniBand\n\tPort 2:\n\t\tState: Active\n"
	"\t\tPhysical state: LinkUp\n\t\tRate: 56\n\t\tBase lid:";

static const char ibstatus_ex[] =
	"Infiniband device 'mlx5_0' port 1 status:\n"
	"        default gid:     fe80:0000:0000:0000:8ae9:a4ff:fe9c:7f1a\n"
	"        base lid:        0x0\n"
	"        sm lid:          0x0\n"
	"        state:           4: ACTIVE\n"
	"        phys state:      5: LinkUp\n"
	"        rate:            100 Gb/sec (4X EDR)\n"
	"        link_layer:      Ethernet\n";

static const char devinfo_old[] =
	"hca_id:\tmlx5_1\n\ttransport:\t\t\tInfiniBand (0)\n"
	"\tfw_ver:\t\t\t\t16.23.1020\n\tnode_guid:\t\t\tec0d:9a03:007d:7d1b\n"
	"\tsys_image_guid:\t\t\tec0d:9a03:007d:7d1a\n\tvendor_id:\t\t\t0x02c9\n"
	"\tvendor_part_id:\t\t\t4119\n\thw_ver:\t\t\t\t0x0\n"
	"\tboard_id:\t\t\tMT_0000000008\n\tphys_port_cnt:\t\t\t1\n"
	"\tmax_mr_size:\t\t\t0xffffffffffffffff\n\tpage_size_cap:\t\t\t0xfffffffffffff000\n"
	"\tmax_qp:\t\t\t\t262144\n\tmax_qp_wr:\t\t\t32768\n"
	"\tdevice_cap_flags:\t\t0xe5721c36\n\t\t\t\t\tBAD_PKEY_CNTR\n"
	"\t\t\t\t\tXRC\n\t\t\t\t\tUnknown flags: 0xe5620000\n"
	"\tdevice_cap_exp_flags:\t\t0x520DF8F100000000\n\t\t\t\t\tEXP_DC_TRANSPORT\n"
	"\t\t\t\t\tEXT_SEND NOP\n\t\t\t\t\tUnknown flags: 0x200000000000\n"
	"\tmax_sge:\t\t\t30\n\tatomic_cap:\t\t\tATOMIC_HCA (1)\n"
	"\tlog atomic arg sizes (mask)\t\t0x8\n";

/* rdma-core before the GID types: no ", RoCE vN" */
static const char devinfo_port_old[] =
	"hca_id: mlx5_0\n"
	"        transport:                      InfiniBand (0)\n"
	"        phys_port_cnt:                  1\n"
	"                port:   1\n"
	"                        state:                  PORT_ACTIVE (4)\n"
	"                        max_mtu:                4096 (5)\n"
	"                        active_mtu:             4096 (5)\n"
	"                        sm_lid:                 0\n"
	"                        port_lid:               0\n"
	"                        port_lmc:               0x00\n"
	"                        link_layer:             Ethernet\n"
	"                        max_vl_num:             invalid value (0)\n"
	"                        active_width:           1X (1)\n"
	"                        active_speed:           25.0 Gbps (32)\n"
	"                        phys_state:             LINK_UP (5)\n"
	"                        GID[ 15]:               0000:0000:0000:0000:0000:ffff:c0a8:0606\n"
	"                        GID[  1]:               fe80::3a7c:76ff:fe7c:ab4f, RoCE v2\n";

static const char show_gids_tabs[] =
	"DEV\tPORT\tINDEX\tGID\t\t\t\t\tIPv4  \t\tVER\tDEV\n"
	"---\t----\t-----\t---\t\t\t\t\t------------  \t---\t---\n"
	"mlx5_0\t1\t4\tfe80:0000:0000:0000:a4ed:ccff:fe8b:1994\t\t\tv1\tnet1\n"
	"mlx5_0\t1\t7\t0000:0000:0000:0000:0000:ffff:0a98:000c\t10.152.0.12  \tv2\tnet1\n";

static const char show_gids_spaces[] =
	"DEV     PORT    INDEX   GID                                     IPv4            VER     DEV\n"
	"---     ----    -----   ---                                     ------------    ---     ---\n"
	"mlx5_bond_0     1       3       0000:0000:0000:0000:0000:ffff:1e99:0aaf 30.153.10.175   v2      b3.vxlan.30100\n"
	"n_gids_found=1\n";

static const char i2n[] =
	"mlx5_19 port 1 ==> ibp75s0v7 (Down)\n"
	"mlx5_2 port 1 ==> ibp75s0 (Up)\n";

static const char i2n_v[] =
	"0000:01:00.0 mlx5_0 (MT4123 - MCX653105A-HDAT) ConnectX-6 VPI adapter "
	"card, HDR IB (200Gb/s) and 200GbE, single-port QSFP56 fw 20.28.1002 "
	"port 1 (ACTIVE) ==> p5p1 (Up)\n";

static const char pq_ext[] =
	"# Port extended counters: Lid 1719 port 1 (CapMask: 0x5300 CapMask2: 0x0000002)\n"
	"PortSelect:......................1\n"
	"CounterSelect:...................0x0000\n"
	"PortXmitData:....................36298026860928\n"
	"PortRcvData:.....................12279028775751\n"
	"PortXmitPkts:....................101733204203\n"
	"PortRcvPkts:.....................32262508468\n"
	"CounterSelect2:..................0x00000000\n"
	"SymbolErrorCounter:..............0\n"
	"LinkErrorRecoveryCounter:........0\n"
	"ExcessiveBufferO";

static const char pq_old[] =
	"# Port extended counters: Lid 274 port 1 (CapMask: 0x200)\n"
	"PortSelect:......................1\n"
	"PortXmitData:....................4372366170488\n";

static const char linkinfo_edr[] =
	"CA: n02 HCA-1:\n"
	"      0xec0d9a03003d62be      4    1[  ] ==( 4X      25.78125 Gbps Active/  LinkUp)==>       2   17[  ] \"MF0;SB7700:MSB7700/U1\" ( )\n"
	"Switch: 0x506b4b0300820910 MF0;SB7700:MSB7700/U1:\n"
	"           2    1[  ] ==(                Down/ Polling)==>             [  ] \"\" ( )\n"
	"           2   17[  ] ==( 4X      25.78125 Gbps Active/  LinkUp)==>       4    1[  ] \"n02 HCA-1\" ( )\n";

static const char linkinfo_qdr[] =
	"CA: centos-data-202 HCA-1:\n"
	"    0x0002c903000cc89b      3    1[  ] ==( 4X          10.0 Gbps Active/ LinkUp)==>       2    1[  ] \"Infiniscale-IV Mellanox Technologies\" ( )\n";

#define SYS "sys/class/infiniband/"
#define MAD "rdma-collect/mad/"

static void real_pastes(void)
{
	struct bundle_r *b;

	b = import_texts("ibstat", ibstat_ndr, NULL);
	T_STREQ(line_of(b, SYS "mlx5_5/node_type"), "1: CA", "ibstat: node_type");
	T_STREQ(line_of(b, SYS "mlx5_5/hca_type"), "MT4129", "ibstat: hca_type");
	T_STREQ(line_of(b, SYS "mlx5_5/node_guid"), "9c63:c003:0055:48ae",
		"ibstat: node_guid in sysfs form");
	T_STREQ(line_of(b, SYS "mlx5_5/ports/1/state"), "4: ACTIVE", "ibstat: state");
	T_STREQ(line_of(b, SYS "mlx5_5/ports/1/phys_state"), "5: LinkUp",
		"ibstat: phys_state");
	T_STREQ(line_of(b, SYS "mlx5_5/ports/1/rate"), "400 Gb/sec",
		"ibstat: rate without the width it does not print");
	T_STREQ(line_of(b, SYS "mlx5_5/ports/1/lid"), "0x3db", "ibstat: lid in hex");
	T_STREQ(line_of(b, SYS "mlx5_5/ports/1/sm_lid"), "0x167", "ibstat: sm_lid");
	T_STREQ(line_of(b, SYS "mlx5_5/ports/1/cap_mask"), "0xa751e848",
		"ibstat: cap_mask");
	T_STREQ(line_of(b, SYS "mlx5_5/ports/1/gids/0"),
		"fe80:0000:0000:0000:9c63:c003:0055:48ae",
		"ibstat: an InfiniBand port's GUID as its GID 0");
	br_free(b);

	b = import_texts("ibstat", ibstat_mlx4_cut, NULL);
	T_STREQ(line_of(b, SYS "mlx4_0/ports/1/phys_state"), "3: Disabled",
		"ibstat mlx4: port 1 Disabled");
	T_STREQ(line_of(b, SYS "mlx4_0/ports/2/rate"), "56 Gb/sec",
		"ibstat cut: port 2's complete lines kept");
	T_STREQ(line_of(b, SYS "mlx4_0/ports/2/lid"), "(absent)",
		"ibstat cut: the cut line adds nothing");
	br_free(b);

	b = import_texts("ibstatus", ibstatus_ex, NULL);
	T_STREQ(line_of(b, SYS "mlx5_0/ports/1/rate"), "100 Gb/sec (4X EDR)",
		"ibstatus: rate as sysfs has it");
	T_STREQ(line_of(b, SYS "mlx5_0/ports/1/link_layer"), "Ethernet",
		"ibstatus: link_layer");
	br_free(b);

	/* ibstat's rate completed by ibv_devinfo -v */
	b = import_texts("ibstat", ibstat_ndr, "ibv_devinfo_-v",
			 "hca_id:\tmlx5_5\n\ttransport:\t\t\tInfiniBand (0)\n"
			 "\tphys_port_cnt:\t\t\t1\n\t\tport:\t1\n"
			 "\t\t\tactive_width:\t\t4X (2)\n"
			 "\t\t\tactive_speed:\t\t100.0 Gbps (128)\n", NULL);
	T_STREQ(line_of(b, SYS "mlx5_5/ports/1/rate"), "400 Gb/sec (4X NDR)",
		"ibstat + ibv_devinfo -v: the kernel's rate string");
	br_free(b);

	b = import_texts("ibv_devinfo -v", devinfo_old, NULL);
	T_STREQ(json_of(b, "rdma-collect/verbs/devices.json", "devices", NULL, NULL),
		"(other)", "ibv_devinfo: devices.json");
	T_STREQ(json_of(b, "rdma-collect/verbs/mlx5_1.json", "device", "vendor_id", NULL),
		"713", "ibv_devinfo: vendor_id 0x02c9");
	T_STREQ(json_of(b, "rdma-collect/verbs/mlx5_1.json", "device",
			"device_cap_flags", NULL), "3849460790",
		"ibv_devinfo: device_cap_flags, the flag names skipped");
	T_STREQ(json_of(b, "rdma-collect/verbs/mlx5_1.json", "device", "max_sge", NULL),
		"30", "ibv_devinfo: after MLNX_OFED 4's exp flags");
	T_STREQ(json_of(b, "rdma-collect/verbs/mlx5_1.json", "device", "atomic_cap", NULL),
		"1", "ibv_devinfo: atomic_cap from (1)");
	T_STREQ(line_of(b, SYS "mlx5_1/board_id"), "MT_0000000008",
		"ibv_devinfo: board_id into sysfs");
	br_free(b);

	b = import_texts("ibv_devinfo", devinfo_port_old, NULL);
	{
		struct jv *d = br_json(b, "rdma-collect/verbs/mlx5_0.json");
		const struct jv *port = jat(jget(d, "ports"), 0);
		const struct jv *g = jget(port, "gids");

		T_OK(jint(port, "active_speed", 0) == 32 &&
		     jint(port, "max_vl_num", -1) == 0 && jint(port, "link_layer", 0) == 2,
		     "ibv_devinfo: port enums from the parentheses");
		T_OK(jlen(g) == 2 && !jstr(jat(g, 0), "type") &&
		     !strcmp(jstr(jat(g, 0), "gid"), "0000:0000:0000:0000:0000:ffff:c0a8:0606"),
		     "ibv_devinfo: a GID without type (old rdma-core) keeps no type");
		T_OK(jlen(g) == 2 && jstr(jat(g, 1), "type") &&
		     !strcmp(jstr(jat(g, 1), "type"), "RoCE v2") &&
		     !strcmp(jstr(jat(g, 1), "gid"), "fe80:0000:0000:0000:3a7c:76ff:fe7c:ab4f"),
		     "ibv_devinfo: a compressed v2 GID in full form");
		jfree(d);
	}
	br_free(b);

	b = import_texts("show_gids", show_gids_tabs, NULL);
	T_STREQ(line_of(b, SYS "mlx5_0/ports/1/gids/7"),
		"0000:0000:0000:0000:0000:ffff:0a98:000c", "show_gids (tabs): gid 7");
	T_STREQ(line_of(b, SYS "mlx5_0/ports/1/gid_attrs/types/4"), "IB/RoCE v1",
		"show_gids: v1 as the kernel names it");
	T_STREQ(line_of(b, SYS "mlx5_0/ports/1/gid_attrs/ndevs/7"), "net1",
		"show_gids: ndev");
	br_free(b);
	b = import_texts("show_gids", show_gids_spaces, NULL);
	T_STREQ(line_of(b, SYS "mlx5_bond_0/ports/1/gid_attrs/ndevs/3"),
		"b3.vxlan.30100", "show_gids (spaces): a vxlan ndev");
	T_STREQ(line_of(b, SYS "mlx5_bond_0/ports/1/gid_attrs/types/3"), "RoCE v2",
		"show_gids: v2");
	br_free(b);

	b = import_texts("ibdev2netdev", i2n, NULL);
	{
		struct jv *m = b ? br_json(b, "rdma-collect/ibdev2netdev.json") : NULL;

		T_OK(jlen(m) == 2 && !strcmp(jstr(jat(m, 1), "ibdev"), "mlx5_2") &&
		     jint(jat(m, 1), "port", 0) == 1 &&
		     !strcmp(jstr(jat(m, 1), "netdev"), "ibp75s0"),
		     "ibdev2netdev: the map");
		jfree(m);
	}
	T_STREQ(line_of(b, "sys/class/net/ibp75s0/operstate"), "up",
		"ibdev2netdev: (Up)");
	br_free(b);
	b = import_texts("ibdev2netdev -v", i2n_v, NULL);
	T_STREQ(line_of(b, SYS "mlx5_0/ports/1/state"), "4: ACTIVE",
		"ibdev2netdev -v: port state");
	T_STREQ(line_of(b, SYS "mlx5_0/fw_ver"), "20.28.1002", "ibdev2netdev -v: fw");
	T_STREQ(line_of(b, SYS "mlx5_0/hca_type"), "MT4123", "ibdev2netdev -v: MT");
	T_OK(b && br_link_base(b, SYS "mlx5_0/device") &&
	     !strcmp(br_link_base(b, SYS "mlx5_0/device"), "0000:01:00.0"),
	     "ibdev2netdev -v: the PCI function");
	br_free(b);

	/* the MAD tools need a local IB port: ibstat's */
	b = import_texts("ibstat", ibstat_ndr, "sminfo",
			 "sminfo: sm lid 37 sm guid 0x7cfe90030016aef1, activity count "
			 "4484381 priority 14 state 3 SMINFO_MASTER\n",
			 "perfquery -x", pq_ext, NULL);
	T_STREQ(json_of(b, MAD "mlx5_5.1.json", "sminfo", "SmInfoGuid", NULL),
		"0x7cfe90030016aef1", "sminfo: guid");
	T_STREQ(json_of(b, MAD "mlx5_5.1.json", "sminfo", "SmState", NULL), "3",
		"sminfo: state");
	/* LID 1719 is not mlx5_5's (987): another node's port, kept as the
	 * fabric's, not as the local port's counters */
	T_STREQ(json_of(b, MAD "mlx5_5.1.json", "local", "pma", NULL),
		"(absent)", "perfquery -x of a remote LID: not the local port's");
	{
		struct jv *f = br_json(b, "rdma-collect/fabric/fabric.json");
		const struct jv *n = jat(jget(f, "nodes"), 0);
		const struct jv *pma = jget(jat(jget(n, "ports"), 0), "pma");

		T_OK(jlen(jget(f, "nodes")) == 1 && !jget(n, "guid") &&
		     jint(n, "lid", 0) == 1719 &&
		     jint(jat(jget(n, "ports"), 0), "port", 0) == 1 &&
		     juint(jget(pma, "PortCountersExtended"), "PortXmitData", 0) ==
		     36298026860928ULL &&
		     jget(jget(pma, "PortCounters"), "LinkErrorRecoveryCounter") &&
		     !jget(jget(pma, "PortCountersExtended"), "SymbolErrorCounter"),
		     "perfquery -x of a remote LID: that port's counters in the "
		     "fabric document, error counters as PortCounters");
		jfree(f);
	}
	br_free(b);
	b = import_texts("ibstat", ibstat_ndr, "perfquery",
			 "# Port counters: Lid 987 port 1 (CapMask: 0x5300)\n"
			 "SymbolErrorCounter:..............3\n", NULL);
	T_STREQ(json_of(b, MAD "mlx5_5.1.json", "local", "pma", "PortCounters"),
		"(other)", "perfquery of the local port's LID: the local port's");
	T_STREQ(line_of(b, SYS "mlx5_5/ports/1/counters/symbol_error"), "3",
		"perfquery of the local port's LID: its sysfs counters");
	T_STREQ(json_of(b, "rdma-collect/fabric/fabric.json", "nodes", NULL, NULL),
		"(absent)", "perfquery of the local port: nothing of the fabric");
	br_free(b);
	/* a lone perfquery: several blocks of one switch LID in one file,
	 * a "# perfquery" root prompt above them; iblinkinfo, read after,
	 * names the switch and keeps the counters */
	b = import_texts("0x7cfe9003009ce5b0.out",
			 "# perfquery -x 2 17\n"
			 "# Port extended counters: Lid 2 port 17 (CapMask: 0x5300 CapMask2: 0x0000002)\n"
			 "PortXmitData:....................100\n"
			 "PortXmitDiscards:................20046\n"
			 "# Port extended counters: Lid 2 port 18 (CapMask: 0x5300 CapMask2: 0x0000002)\n"
			 "PortXmitData:....................200\n"
			 "LinkDownedCounter:...............1\n"
			 "# Port counters: Lid 2 port 255 (CapMask: 0x5300)\n"
			 "PortXmitData:....................300\n",
			 "iblinkinfo", linkinfo_edr, NULL);
	{
		struct jv *f = br_json(b, "rdma-collect/fabric/fabric.json");
		const struct jv *n = jget(f, "nodes"), *sw = NULL, *p17 = NULL,
				*p18 = NULL;
		size_t i;

		for (i = 0; i < jlen(n); i++)
			if (jint(jat(n, i), "lid", 0) == 2)
				sw = jat(n, i);
		for (i = 0; i < jlen(jget(sw, "ports")); i++) {
			const struct jv *p = jat(jget(sw, "ports"), i);

			if (jint(p, "port", 0) == 17)
				p17 = p;
			if (jint(p, "port", 0) == 18)
				p18 = p;
		}
		T_OK(jlen(n) == 2 && sw && !strcmp(jstr(sw, "guid"),
						   "0x506b4b0300820910") &&
		     jint(p17, "width_active", 0) == 2 &&
		     juint(jget(jget(p17, "pma"), "PortCounters"),
			   "PortXmitDiscards", 0) == 20046 &&
		     juint(jget(jget(p18, "pma"), "PortCounters"),
			   "LinkDownedCounter", 0) == 1,
		     "perfquery blocks of a switch, then iblinkinfo: one node, "
		     "links and counters port by port");
		jfree(f);
	}
	T_STREQ(import_status(b, "0x7cfe9003009ce5b0.out"), "partial",
		"perfquery -a's summed port 255: said dropped");
	br_free(b);
	b = import_texts("sminfo_-C_mlx5_0_-P_1",
			 "sminfo: sm lid 2 sm guid 0x2c90200259201, activity count "
			 "6881 priority 0 state 3 SMINFO_MASTER\n", NULL);
	T_STREQ(json_of(b, MAD "mlx5_0.1.json", "sminfo", "SmInfoGuid", NULL),
		"0x0002c90200259201", "sminfo (sos name, unpadded guid)");
	br_free(b);
	b = import_texts("sminfo_-C_mlx5_0_-P_1", "sminfo: sm lid 0x1 sm guid "
			 "0x2c9010b7c2ae1, activity count 20 priority 1 state 3 "
			 "SMINFO_MASTER\n", NULL);
	T_STREQ(json_of(b, MAD "mlx5_0.1.json", "sminfo", "lid", NULL), "1",
		"sminfo: an old \"lid 0x1\"");
	br_free(b);
	/* no local port known: the subnet's SM all the same; a second
	 * answer of another state is said dropped */
	b = import_texts("sminfo",
			 "--------- n01---------\n"
			 "sminfo: sm lid 2 sm guid 0x2c90200259201, activity count "
			 "6881 priority 0 \nstate 3 SMINFO_MASTER\n"
			 "--------- n02---------\n"
			 "sminfo: sm lid 3 sm guid 0x2c90200259202, activity count "
			 "6881 priority 0 state 2 SMINFO_STANDBY\n", NULL);
	T_STREQ(json_of(b, MAD "sminfo.json", "sminfo", "SmState", NULL), "3",
		"lone sminfo, wrapped before state: the first answer");
	T_STREQ(json_of(b, MAD "sminfo.json", "ibdev", NULL, NULL), "(absent)",
		"lone sminfo: no local port named");
	T_STREQ(import_status(b, "sminfo"), "partial",
		"lone sminfo: another SM's answer said dropped");
	br_free(b);
	b = import_texts("sminfo", "sminfo: sm lid 1 sm guid 0xe89e4903003xxxxx, "
			 "activity count 6306612 priority 15 state 3 "
			 "SMINFO_MASTER\n", NULL);
	T_OK(json_of(b, MAD "sminfo.json", "sminfo", "SmPriority", NULL)[0] == '1' &&
	     !strcmp(json_of(b, MAD "sminfo.json", "sminfo", "SmInfoGuid", NULL),
		     "(absent)"), "sminfo: a redacted GUID left out, the SM kept");
	br_free(b);
	b = import_texts("sminfo_-C_mlx5_0_-P_1", "sminfo: iberror: failed: query\n",
			 NULL);
	T_STREQ(json_of(b, MAD "mlx5_0.1.json", "errors", "sminfo", NULL),
		"failed: query", "sminfo: no SM");
	T_STREQ(json_of(b, MAD "mlx5_0.1.json", "status", NULL, NULL), "partial",
		"sminfo: no SM makes the port partial");
	br_free(b);
	b = import_texts("perfquery_-x_-C_mlx5_0_-P_1", pq_ext, NULL);
	T_STREQ(json_of(b, MAD "mlx5_0.1.json", "local", "portinfo", "Lid"), "1719",
		"perfquery: the LID of the header");
	{
		struct jv *d = br_json(b, MAD "mlx5_0.1.json");
		const struct jv *pma = jget(jget(d, "local"), "pma");

		T_OK(juint(jget(pma, "ClassPortInfo"), "CapabilityMask", 0) == 0x5300 &&
		     juint(jget(pma, "ClassPortInfo"), "CapabilityMask2", 0) == 2,
		     "perfquery: CapMask and CapMask2");
		T_OK(juint(jget(pma, "PortCountersExtended"), "PortXmitData", 0) ==
		     36298026860928ULL &&
		     jget(jget(pma, "PortCountersExtended"), "LinkErrorRecoveryCounter") &&
		     !jget(jget(pma, "PortCountersExtended"), "ExcessiveBufferOverrunErrors"),
		     "perfquery -x: 64-bit counters, the cut last line left out");
		jfree(d);
	}
	br_free(b);
	b = import_texts("perfquery_-C_mlx5_0_-P_1", pq_old, NULL);
	T_STREQ(json_of(b, MAD "mlx5_0.1.json", "local", "pma", "ClassPortInfo"),
		"(other)", "perfquery: an old header without CapMask2");
	br_free(b);

	b = import_texts("iblinkinfo", linkinfo_edr, NULL);
	{
		struct jv *f = br_json(b, "rdma-collect/fabric/fabric.json");
		const struct jv *n = jget(f, "nodes");
		const struct jv *sw = jat(n, 1), *p17 = jat(jget(sw, "ports"), 1);

		T_OK(jlen(n) == 2 && jint(sw, "type", 0) == 2 && jint(sw, "lid", 0) == 2 &&
		     !strcmp(jstr(sw, "guid"), "0x506b4b0300820910"),
		     "iblinkinfo: the switch, its GUID and LID");
		T_OK(jint(p17, "width_active", 0) == 2 &&
		     jint(p17, "speed_ext_active", 0) == 2 &&
		     !strcmp(jstr(jget(p17, "remote"), "guid"), "0xec0d9a03003d62be") &&
		     jint(jget(p17, "remote"), "port", 0) == 1,
		     "iblinkinfo: 4X EDR, the far end by its LID");
		T_OK(jint(jat(jget(sw, "ports"), 0), "state", 0) == 1 &&
		     jint(jat(jget(sw, "ports"), 0), "phys_state", 0) == 2,
		     "iblinkinfo: Down/ Polling");
		jfree(f);
	}
	br_free(b);
	/* the old format (2010): "Switch 0x... desc:", a width and speed
	 * printed for Down ports, a second run's prompt in between */
	b = import_texts("iblinkinfo",
			 "faui36a ~ # iblinkinfo -P 1\n"
			 "Switch 0x0008f10500380136 IBM HSSM:\n"
			 "           4    1[  ] ==( 4X 5.0 Gbps Active/  LinkUp)==>       1    1[  ] \"faui36a HCA-1\" ( )\n"
			 "           4    3[  ] ==( 4X 2.5 Gbps   Down/Disabled)==>             [  ] \"\" ( )\n"
			 "faui36a ~ # iblinkinfo -P 2\n"
			 "Switch 0x0005ad0000080ba2 Topspin Switch:\n"
			 "          10    1[  ] ==( 4X 2.5 Gbps Active/  LinkUp)==>      13    2[  ] \"faui36b HCA-1\" ( )\n",
			 NULL);
	{
		struct jv *f = br_json(b, "rdma-collect/fabric/fabric.json");
		const struct jv *n = jget(f, "nodes"), *hssm = jat(n, 0);
		const struct jv *p1 = jat(jget(hssm, "ports"), 0),
				*p3 = jat(jget(hssm, "ports"), 1);

		T_OK(jlen(n) == 2 && !strcmp(jstr(hssm, "guid"), "0x0008f10500380136") &&
		     !strcmp(jstr(hssm, "desc"), "IBM HSSM") &&
		     jint(p1, "speed_active", 0) == 2 && jint(p3, "state", 0) == 1 &&
		     !jget(p3, "width_active"),
		     "iblinkinfo, old format: two switches, DDR, a Down port "
		     "with no active width");
		jfree(f);
	}
	T_STREQ(import_status(b, "iblinkinfo"), "read",
		"iblinkinfo, old format: read whole");
	br_free(b);
	/* `iblinkinfo | grep Up`: port lines alone */
	b = import_texts("iblinkinfo",
			 "      0xec0d9a03003d62be      4    1[  ] ==( 4X      25.78125 Gbps Active/  LinkUp)==>       2   17[  ] \"MF0;SB7700:MSB7700/U1\" ( )\n"
			 "           2   17[  ] ==( 4X      25.78125 Gbps Active/  LinkUp)==>       4    1[  ] \"n02 HCA-1\" ( )\n",
			 NULL);
	{
		struct jv *f = br_json(b, "rdma-collect/fabric/fabric.json");
		const struct jv *n = jget(f, "nodes"), *ca = jat(n, 0), *sw = jat(n, 1);

		T_OK(jlen(n) == 2 && !strcmp(jstr(ca, "desc"), "n02 HCA-1") &&
		     jint(jget(jat(jget(ca, "ports"), 0), "remote"), "lid", 0) == 2 &&
		     !jget(sw, "guid") && jint(sw, "lid", 0) == 2 &&
		     !strcmp(jstr(sw, "desc"), "MF0;SB7700:MSB7700/U1") &&
		     !strcmp(jstr(jget(jat(jget(sw, "ports"), 0), "remote"), "guid"),
			     "0xec0d9a03003d62be"),
		     "iblinkinfo | grep Up: a CA by its port GUID, the switch by "
		     "its LID, descriptions from the far ends");
		jfree(f);
	}
	/* the filter's doing, not the reader's: read, with a note */
	T_STREQ(import_status(b, "iblinkinfo"), "read",
		"iblinkinfo | grep Up: read as far as it goes, not partial");
	br_free(b);
	/* ... read before the ibstat that names the local port: its peer,
	 * the switch known by its LID alone, is still found */
	b = import_texts("iblinkinfo",
			 "      0xec0d9a03003d677a      1    1[  ] ==( 4X      25.78125 Gbps Active/  LinkUp)==>       2   18[  ] \"MF0;SB7700:MSB7700/U1\" ( )\n"
			 "           2   18[  ] ==( 4X      25.78125 Gbps Active/  LinkUp)==>       1    1[  ] \"n01 HCA-1\" ( )\n",
			 "ibstat",
			 "CA 'mlx5_0'\n\tCA type: MT4115\n\tNumber of ports: 1\n"
			 "\tNode GUID: 0xec0d9a03003d677a\n\tPort 1:\n\t\tState: Active\n"
			 "\t\tPhysical state: LinkUp\n\t\tRate: 100\n\t\tBase lid: 1\n"
			 "\t\tSM lid: 1\n\t\tPort GUID: 0xec0d9a03003d677a\n"
			 "\t\tLink layer: InfiniBand\n", NULL);
	T_STREQ(json_of(b, MAD "mlx5_0.1.json", "peer", "lid", NULL), "2",
		"iblinkinfo | grep Up, then ibstat: the peer switch by its LID");
	br_free(b);
	b = import_texts("iblinkinfo", linkinfo_qdr, NULL);
	T_STREQ(json_of(b, "rdma-collect/fabric/fabric.json", "status", NULL, NULL),
		"ok", "iblinkinfo: QDR with one space in \"Active/ LinkUp\"");
	br_free(b);
}

/* --- real outputs of issue 17's corpus, one of each class --- */

static void real_classes(void)
{
	const struct br_entry *e;
	struct bundle_r *b;

	/* ibstat that died on the device it was listing */
	b = import_texts("ibstat", "ibpanic: [769778] main: stat of IB "
			 "device 'mlx5_an0' failed: No such file or directory\n",
			 NULL);
	T_STREQ(line_of(b, "rdma-collect/import/vanished/mlx5_an0"),
		"ibpanic: [769778] main: stat of IB device 'mlx5_an0' failed: "
		"No such file or directory", "ibstat: the vanished device kept");
	br_free(b);
	/* ibstatus whose glob matched no device: an empty class folder */
	b = import_texts("ibstatus", "Fatal error:  device '*': sys files not "
			 "found (/sys/class/infiniband/*/ports)\n", NULL);
	e = b ? br_get(b, "sys/class/infiniband") : NULL;
	T_OK(e && e->type == BR_DIR, "ibstatus: no device is an empty "
	     "sys/class/infiniband");
	br_free(b);
	/* plain ls of /dev/infiniband */
	b = import_texts("ls dev infiniband", "rdma_cm  ucm0  uverbs0  uverbs2\n",
			 NULL);
	T_STREQ(json_of(b, "rdma-collect/devnodes.json", "status", NULL, NULL),
		"ok", "plain ls: read");
	e = b ? br_get(b, "rdma-collect/devnodes.json") : NULL;
	T_OK(e && strstr(e->data, "\"uverbs2\""), "plain ls: the names");
	br_free(b);
	/* MLNX_OFED 4.x ibv_devinfo, Latin-1 no-break spaces */
	b = import_texts("ibv_devinfo", "hca_id: mlx5_1\n\xa0\xa0\xa0 "
			 "transport:\xa0\xa0 InfiniBand (0)\n\xa0\xa0 Device "
			 "ports:\n\xa0\xa0\xa0\xa0 port:\xa0 1\n\xa0\xa0\xa0\xa0"
			 "\xa0\xa0 state:\xa0\xa0 PORT_DOWN (1)\n\xa0\xa0\xa0"
			 "\xa0\xa0\xa0 link_layer:\xa0 Ethernet\n", NULL);
	T_STREQ(line_of(b, SYS "mlx5_1/ports/1/state"), "1: DOWN",
		"ibv_devinfo Latin-1: the port state in sysfs");
	T_STREQ(line_of(b, SYS "mlx5_1/ports/1/link_layer"), "Ethernet",
		"ibv_devinfo Latin-1: link_layer");
	br_free(b);
	/* UTF-8 that holds 0xA0 as a continuation byte is left alone */
	b = import_texts("ibv_devinfo", "hca_id: mlx5_0\n\tboard_id:\t\tMT_\xc3\xa0"
			 "1\n", NULL);
	T_STREQ(line_of(b, SYS "mlx5_0/board_id"), "MT_\xc3\xa0" "1",
		"UTF-8 with 0xA0 inside a character: unchanged");
	br_free(b);
	/* show_gids with no GID at all is read, not "nothing read" */
	b = import_texts("show_gids", "DEV\tPORT\tINDEX\tGID\t\t\t\t\tIPv4  \t\t"
			 "VER\tDEV\n---\t----\t-----\t---\t\t\t\t\t------------  "
			 "\t---\t---\nn_gids_found=0\n", NULL);
	T_OK(b != NULL, "show_gids with an empty table: imported");
	br_free(b);
}

/* foreign or hostile text: nothing of it in the import */
static void hostile(void)
{
	static const struct {
		const char *name, *text;
	} v[] = {
		{ "ibstat", "CA '../../etc'\n\tCA type: x\n" },
		{ "ibv_devinfo", "Failed to get IB devices list: Function not implemented\n" },
		{ "show_gids", "bash: show_gids: command not found\n" },
		{ "ibdev2netdev", "mlx5_0 port 999 ==> eth0 (Up)\n" },
		{ "sminfo_-C_mlx5_0_-P_1", "sminfo: sm lid 99999999 sm guid 0x1, activity count 1 priority 0 state 3 SMINFO_MASTER\n" },
		{ "perfquery_-C_mlx5_0_-P_1", "ibwarn: [1] mad_rpc: _do_madrpc failed; dport (Lid 1)\n" },
		{ "iblinkinfo", "CA: x:\n   garbage ==( 4X 99 Gbps Active/  LinkUp)==> 1 1[  ] \"y\" ( )\n" },
		{ "ls -la dev infiniband", "lrwxrwxrwx\n" },
	};
	static const char *const ours[] = {
		"sys/class/infiniband", "sys/class/net", "rdma-collect/verbs",
		"rdma-collect/mad", "rdma-collect/fabric",
		"rdma-collect/ibdev2netdev.json", "rdma-collect/devnodes.json",
	};
	size_t i, k;

	for (i = 0; i < ARRAY_SIZE(v); i++) {
		struct bundle_r *b = import_texts(v[i].name, v[i].text, NULL);
		int none = 1;

		for (k = 0; b && k < ARRAY_SIZE(ours); k++)
			none &= !br_get(b, ours[k]);
		T_OK(none, "%s: foreign text adds nothing", v[i].name);
		br_free(b);
	}
}

int main(int argc, char **argv)
{
	const char *top = getenv("TOP") ? getenv("TOP") : ".";
	char p[1024];

	if (argc == 4 && !strcmp(argv[1], "--cat")) {
		struct bundle_r *b = import_dir(argv[2]);
		size_t len;
		const char *d = b ? br_data(b, argv[3], &len) : NULL;

		if (d)
			fwrite(d, 1, len, stdout);
		br_free(b);
		return d ? 0 : 1;
	}
	snprintf(p, sizeof(p), "%s/samples/dgx-h100-07-20251129T210405Z.rdma.tar.zst", top);
	round_trip(p);
	snprintf(p, sizeof(p), "%s/samples/roce-h12-20251129T210405Z.rdma.tar.zst", top);
	round_trip(p);
	real_pastes();
	real_classes();
	hostile();
	return t_done();
}
