/* view-ibv_devinfo: `ibv_devinfo [-v] [-d DEV] [-i PORT] [-l]` as
 * rdma-core's libibverbs/examples/devinfo.c prints it, from the stored
 * verbs documents (rdma-collect/verbs/<dev>.json) and sysfs board_id.
 *
 * -v prints the device attributes the bundle holds; the blocks after
 * local_ca_ack_delay (ODP, timestamps, TSO, RSS, packet pacing, tag
 * matching, num_comp_vectors) come from "device_ex", and bundles written
 * before it held all of them (no max_wq_type_rq) leave them out, as they
 * leave out effective_speed. */
#include <arpa/inet.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "view.h"

static const char *transport_str(int64_t t)
{
	switch (t) {
	case 0: return "InfiniBand";
	case 1: return "iWARP";
	case 2: return "usNIC";
	case 3: return "usNIC UDP";
	case 4: return "unspecified";
	default: return "invalid transport";
	}
}

static const char *port_state_str(int64_t s)
{
	switch (s) {
	case 1: return "PORT_DOWN";
	case 2: return "PORT_INIT";
	case 3: return "PORT_ARMED";
	case 4: return "PORT_ACTIVE";
	default: return "invalid state";
	}
}

static const char *port_phy_state_str(int64_t s)
{
	switch (s) {
	case 1: return "SLEEP";
	case 2: return "POLLING";
	case 3: return "DISABLED";
	case 4: return "PORT_CONFIGURATION TRAINNING";
	case 5: return "LINK_UP";
	case 6: return "LINK_ERROR_RECOVERY";
	case 7: return "PHY TEST";
	default: return "invalid physical state";
	}
}

static const char *atomic_cap_str(int64_t a)
{
	switch (a) {
	case 0: return "ATOMIC_NONE";
	case 1: return "ATOMIC_HCA";
	case 2: return "ATOMIC_GLOB";
	default: return "invalid atomic capability";
	}
}

static const char *mtu_str(int64_t m)
{
	switch (m) {
	case 1: return "256";
	case 2: return "512";
	case 3: return "1024";
	case 4: return "2048";
	case 5: return "4096";
	default: return "invalid MTU";
	}
}

static const char *width_str(int64_t w)
{
	switch (w) {
	case 1: return "1";
	case 2: return "4";
	case 4: return "8";
	case 8: return "12";
	case 16: return "2";
	default: return "invalid width";
	}
}

static const char *speed_str(int64_t s)
{
	switch (s) {
	case 1: return "2.5 Gbps";
	case 2: return "5.0 Gbps";
	case 4: /* fall through */
	case 8: return "10.0 Gbps";
	case 16: return "14.0 Gbps";
	case 32: return "25.0 Gbps";
	case 64: return "50.0 Gbps";
	case 128: return "100.0 Gbps";
	case 256: return "200.0 Gbps";
	default: return "invalid speed";
	}
}

static const char *vl_str(int64_t v)
{
	switch (v) {
	case 1: return "1";
	case 2: return "2";
	case 3: return "4";
	case 4: return "8";
	case 5: return "15";
	default: return "invalid value";
	}
}

static const char *link_layer_str(int64_t l)
{
	switch (l) {
	case 0: return "Unspecified";
	case 1: return "InfiniBand";
	case 2: return "Ethernet";
	default: return "Unknown";
	}
}

/* IBV_DEVICE_* bits in the order devinfo.c tests them */
static const struct {
	uint32_t bit;
	const char *name;
} cap_flags[] = {
	{ 1u << 0, "RESIZE_MAX_WR" }, { 1u << 1, "BAD_PKEY_CNTR" },
	{ 1u << 2, "BAD_QKEY_CNTR" }, { 1u << 3, "RAW_MULTI" },
	{ 1u << 4, "AUTO_PATH_MIG" }, { 1u << 5, "CHANGE_PHY_PORT" },
	{ 1u << 6, "UD_AV_PORT_ENFORCE" }, { 1u << 7, "CURR_QP_STATE_MOD" },
	{ 1u << 8, "SHUTDOWN_PORT" }, { 1u << 9, "INIT_TYPE" },
	{ 1u << 10, "PORT_ACTIVE_EVENT" }, { 1u << 11, "SYS_IMAGE_GUID" },
	{ 1u << 12, "RC_RNR_NAK_GEN" }, { 1u << 13, "SRQ_RESIZE" },
	{ 1u << 14, "N_NOTIFY_CQ" }, { 1u << 17, "MEM_WINDOW" },
	{ 1u << 18, "UD_IP_CSUM" }, { 1u << 20, "XRC" },
	{ 1u << 21, "MEM_MGT_EXTENSIONS" }, { 1u << 23, "MEM_WINDOW_TYPE_2A" },
	{ 1u << 24, "MEM_WINDOW_TYPE_2B" }, { 1u << 25, "RC_IP_CSUM" },
	{ 1u << 26, "RAW_IP_CSUM" }, { 1u << 29, "MANAGED_FLOW_STEERING" },
};

static void print_cap_flags(uint32_t f, FILE *out)
{
	uint32_t known = 0;
	size_t i;

	for (i = 0; i < sizeof(cap_flags) / sizeof(cap_flags[0]); i++) {
		known |= cap_flags[i].bit;
		if (f & cap_flags[i].bit)
			fprintf(out, "\t\t\t\t\t%s\n", cap_flags[i].name);
	}
	if (f & ~known)
		fprintf(out, "\t\t\t\t\tUnknown flags: 0x%" PRIX32 "\n", f & ~known);
}

/* "%d" lines of the -v device block: label, tabs, key */
static const struct {
	const char *fmt;	/* with one %lld */
	const char *key;
} dev_ints[] = {
	{ "\tmax_qp:\t\t\t\t%lld\n", "max_qp" },
	{ "\tmax_qp_wr:\t\t\t%lld\n", "max_qp_wr" },
	{ NULL, "device_cap_flags" },
	{ "\tmax_sge:\t\t\t%lld\n", "max_sge" },
	{ "\tmax_sge_rd:\t\t\t%lld\n", "max_sge_rd" },
	{ "\tmax_cq:\t\t\t\t%lld\n", "max_cq" },
	{ "\tmax_cqe:\t\t\t%lld\n", "max_cqe" },
	{ "\tmax_mr:\t\t\t\t%lld\n", "max_mr" },
	{ "\tmax_pd:\t\t\t\t%lld\n", "max_pd" },
	{ "\tmax_qp_rd_atom:\t\t\t%lld\n", "max_qp_rd_atom" },
	{ "\tmax_ee_rd_atom:\t\t\t%lld\n", "max_ee_rd_atom" },
	{ "\tmax_res_rd_atom:\t\t%lld\n", "max_res_rd_atom" },
	{ "\tmax_qp_init_rd_atom:\t\t%lld\n", "max_qp_init_rd_atom" },
	{ "\tmax_ee_init_rd_atom:\t\t%lld\n", "max_ee_init_rd_atom" },
	{ NULL, "atomic_cap" },
	{ "\tmax_ee:\t\t\t\t%lld\n", "max_ee" },
	{ "\tmax_rdd:\t\t\t%lld\n", "max_rdd" },
	{ "\tmax_mw:\t\t\t\t%lld\n", "max_mw" },
	{ "\tmax_raw_ipv6_qp:\t\t%lld\n", "max_raw_ipv6_qp" },
	{ "\tmax_raw_ethy_qp:\t\t%lld\n", "max_raw_ethy_qp" },
	{ "\tmax_mcast_grp:\t\t\t%lld\n", "max_mcast_grp" },
	{ "\tmax_mcast_qp_attach:\t\t%lld\n", "max_mcast_qp_attach" },
	{ "\tmax_total_mcast_qp_attach:\t%lld\n", "max_total_mcast_qp_attach" },
	{ "\tmax_ah:\t\t\t\t%lld\n", "max_ah" },
	{ "\tmax_fmr:\t\t\t%lld\n", "max_fmr" },
	{ "\tmax_map_per_fmr:\t\t%lld\n", "max_map_per_fmr" },	/* if max_fmr */
	{ "\tmax_srq:\t\t\t%lld\n", "max_srq" },
	{ "\tmax_srq_wr:\t\t\t%lld\n", "max_srq_wr" },		/* if max_srq */
	{ "\tmax_srq_sge:\t\t\t%lld\n", "max_srq_sge" },		/* if max_srq */
	{ "\tmax_pkeys:\t\t\t%lld\n", "max_pkeys" },
	{ "\tlocal_ca_ack_delay:\t\t%lld\n", "local_ca_ack_delay" },
};

static void print_dev_verbose(const struct jv *d, FILE *out)
{
	size_t i;

	if (jget(d, "max_mr_size"))
		fprintf(out, "\tmax_mr_size:\t\t\t0x%llx\n",
			(unsigned long long)juint(d, "max_mr_size", 0));
	if (jget(d, "page_size_cap"))
		fprintf(out, "\tpage_size_cap:\t\t\t0x%llx\n",
			(unsigned long long)juint(d, "page_size_cap", 0));
	for (i = 0; i < sizeof(dev_ints) / sizeof(dev_ints[0]); i++) {
		const char *k = dev_ints[i].key;

		if (!jget(d, k))
			continue;
		if (!strcmp(k, "device_cap_flags")) {
			uint32_t f = (uint32_t)juint(d, k, 0);

			fprintf(out, "\tdevice_cap_flags:\t\t0x%08x\n", f);
			print_cap_flags(f, out);
			continue;
		}
		if (!strcmp(k, "atomic_cap")) {
			fprintf(out, "\tatomic_cap:\t\t\t%s (%d)\n",
				atomic_cap_str(jint(d, k, -1)), (int)jint(d, k, -1));
			continue;
		}
		if (!strcmp(k, "max_map_per_fmr") && !jint(d, "max_fmr", 0))
			continue;
		if ((!strcmp(k, "max_srq_wr") || !strcmp(k, "max_srq_sge")) &&
		    !jint(d, "max_srq", 0))
			continue;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
		fprintf(out, dev_ints[i].fmt, (long long)(int)jint(d, k, 0));
#pragma GCC diagnostic pop
	}
}

#define CAPS_INDENT "\t\t\t\t\t"

static void print_bits(uint64_t v, const char *const *names, int n,
		       FILE *out)
{
	uint64_t known = 0;
	int i;

	for (i = 0; i < n; i++) {
		known |= 1ULL << i;
		if (names[i] && (v & (1ULL << i)))
			fprintf(out, CAPS_INDENT "%s\n", names[i]);
	}
	if (v & ~known)
		fprintf(out, CAPS_INDENT "Unknown flags: 0x%llX\n",
			(unsigned long long)(v & ~known));
}

static void print_odp_transport(uint64_t v, FILE *out)
{
	static const char *const names[] = {
		"SUPPORT_SEND", "SUPPORT_RECV", "SUPPORT_WRITE", "SUPPORT_READ",
		"SUPPORT_ATOMIC", "SUPPORT_SRQ",
	};

	if (!v)
		fputs(CAPS_INDENT "NO SUPPORT\n", out);
	else
		print_bits(v, names, 6, out);
}

/* supported QP types: bit IBV_QPT_UD (4) and IBV_QPT_RAW_PACKET (8) */
static void print_qpts(uint64_t v, const char *head, FILE *out)
{
	uint64_t unknown = v & ~((1ULL << 8) | (1ULL << 4));

	fprintf(out, "%ssupported_qp:\n", head);
	if (v & (1ULL << 8))
		fputs(CAPS_INDENT "SUPPORT_RAW_PACKET\n", out);
	if (v & (1ULL << 4))
		fputs(CAPS_INDENT "SUPPORT_UD\n", out);
	if (unknown)
		fprintf(out, CAPS_INDENT "Unknown flags: 0x%llX\n",
			(unsigned long long)unknown);
}

/* devinfo.c after local_ca_ack_delay: print_odp_caps() through
 * num_comp_vectors, from the stored ibv_query_device_ex() result */
static void print_dev_ex(const struct jv *x, FILE *out)
{
	static const char *const odp[] = { "ODP_SUPPORT", "ODP_SUPPORT_IMPLICIT" };
	static const char *const raw[] = {
		"C-VLAN stripping offload", "Scatter FCS offload",
		"IP csum offload", "Delay drop",
	};
	uint64_t f;

#define U(k) ((unsigned long long)juint(x, k, 0))
	if (!jget(x, "max_wq_type_rq"))
		return;
	fputs("\tgeneral_odp_caps:\n", out);
	print_bits(U("odp_general_caps"), odp, 2, out);
	fputs("\trc_odp_caps:\n", out);
	print_odp_transport(U("odp_rc_caps"), out);
	fputs("\tuc_odp_caps:\n", out);
	print_odp_transport(U("odp_uc_caps"), out);
	fputs("\tud_odp_caps:\n", out);
	print_odp_transport(U("odp_ud_caps"), out);
	fputs("\txrc_odp_caps:\n", out);
	print_odp_transport(U("xrc_odp_caps"), out);
	if (U("completion_timestamp_mask"))
		fprintf(out, "\tcompletion timestamp_mask:\t\t\t0x%016llx\n",
			U("completion_timestamp_mask"));
	else
		fputs("\tcompletion_timestamp_mask not supported\n", out);
	if (U("hca_core_clock"))
		fprintf(out, "\thca_core_clock:\t\t\t%llukHZ\n",
			U("hca_core_clock"));
	else
		fputs("\tcore clock not supported\n", out);
	if (U("raw_packet_caps")) {
		fputs("\traw packet caps:\n", out);
		print_bits(U("raw_packet_caps") & 0xf, raw, 4, out);
	}
	f = U("device_cap_flags_ex");
	fprintf(out, "\tdevice_cap_flags_ex:\t\t0x%llX\n", (unsigned long long)f);
	/* only the bits above the 32 of device_cap_flags: RAW_SCATTER_FCS
	 * (34) and PCI_WRITE_END_PADDING (36) have names */
	f &= 0xffffffff00000000ULL;
	if (f & (1ULL << 34))
		fputs(CAPS_INDENT "RAW_SCATTER_FCS\n", out);
	if (f & (1ULL << 36))
		fputs(CAPS_INDENT "PCI_WRITE_END_PADDING\n", out);
	if (f & ~((1ULL << 34) | (1ULL << 36)))
		fprintf(out, CAPS_INDENT "Unknown flags: 0x%llX\n",
			(unsigned long long)(f & ~((1ULL << 34) | (1ULL << 36))));
	fprintf(out, "\ttso_caps:\n\t\tmax_tso:\t\t\t%d\n",
		(int)U("tso_max_tso"));
	if (U("tso_max_tso"))
		print_qpts(U("tso_supported_qpts"), "\t\t", out);
	fputs("\trss_caps:\n", out);
	fprintf(out, "\t\tmax_rwq_indirection_tables:\t\t\t%u\n",
		(unsigned)U("rss_max_rwq_indirection_tables"));
	fprintf(out, "\t\tmax_rwq_indirection_table_size:\t\t\t%u\n",
		(unsigned)U("rss_max_rwq_indirection_table_size"));
	fprintf(out, "\t\trx_hash_function:\t\t\t\t0x%x\n",
		(unsigned)U("rss_rx_hash_function"));
	fprintf(out, "\t\trx_hash_fields_mask:\t\t\t\t0x%llX\n",
		U("rss_rx_hash_fields_mask"));
	if (U("rss_supported_qpts"))
		print_qpts(U("rss_supported_qpts"), "\t\t", out);
	fprintf(out, "\tmax_wq_type_rq:\t\t\t%u\n", (unsigned)U("max_wq_type_rq"));
	fputs("\tpacket_pacing_caps:\n", out);
	fprintf(out, "\t\tqp_rate_limit_min:\t%ukbps\n",
		(unsigned)U("pp_qp_rate_limit_min"));
	fprintf(out, "\t\tqp_rate_limit_max:\t%ukbps\n",
		(unsigned)U("pp_qp_rate_limit_max"));
	if (U("pp_qp_rate_limit_max"))
		print_qpts(U("pp_supported_qpts"), "\t\t", out);
	if (U("tm_max_num_tags")) {
		fprintf(out, "\tmax_rndv_hdr_size:\t\t%u\n",
			(unsigned)U("tm_max_rndv_hdr_size"));
		fprintf(out, "\tmax_num_tags:\t\t\t%u\n",
			(unsigned)U("tm_max_num_tags"));
		fprintf(out, "\tmax_ops:\t\t\t%u\n", (unsigned)U("tm_max_ops"));
		fprintf(out, "\tmax_sge:\t\t\t%u\n", (unsigned)U("tm_max_sge"));
		fputs("\tflags:\n", out);
		if (U("tm_flags") & 1)
			fputs(CAPS_INDENT "IBV_TM_CAP_RC\n", out);
	} else {
		fputs("\ttag matching not supported\n", out);
	}
	if (U("cq_mod_max_cq_count") && U("cq_mod_max_cq_period")) {
		fputs("\n\tcq moderation caps:\n", out);
		fprintf(out, "\t\tmax_cq_count:\t%u\n",
			(unsigned)U("cq_mod_max_cq_count"));
		fprintf(out, "\t\tmax_cq_period:\t%u us\n\n",
			(unsigned)U("cq_mod_max_cq_period"));
	}
	if (U("max_dm_size"))
		fprintf(out, "\tmaximum available device memory:\t%lluBytes\n\n",
			U("max_dm_size"));
	fprintf(out, "\tnum_comp_vectors:\t\t%d\n",
		(int)jint(x, "num_comp_vectors", 0));
#undef U
}

/* devinfo.c's print_formated_gid(): v1 (and IB) in full, v2 compressed;
 * the type suffix only on Ethernet; null GIDs (interface id 0) skipped */
static void print_gid(const struct jv *g, int eth, FILE *out)
{
	unsigned char raw[16];
	char txt[64];
	const char *s = jstr(g, "gid"), *type = jstr(g, "type");
	int64_t idx = jint(g, "index", -1);
	int i, v2, zero = 1;

	if (!s || !type || idx < 0 || inet_pton(AF_INET6, s, raw) != 1)
		return;
	for (i = 8; i < 16; i++)
		zero &= !raw[i];
	if (zero)
		return;
	v2 = !strcmp(type, "RoCE v2");
	if (!v2 && strcmp(type, "RoCE v1") && strcmp(type, "IB"))
		return;	/* "Invalid gid type": devinfo prints nothing */
	fprintf(out, "\t\t\tGID[%3d]:\t\t", (int)idx);
	if (v2 && inet_ntop(AF_INET6, raw, txt, sizeof(txt)))
		fputs(txt, out);
	else
		for (i = 0; i < 16; i += 2)
			fprintf(out, "%s%02x%02x", i ? ":" : "", raw[i], raw[i + 1]);
	if (eth)
		fprintf(out, ", %s", v2 ? "RoCE v2" : "RoCE v1");
	fputc('\n', out);
}

static void print_port(const struct jv *p, int64_t pn, int verbose,
		       int transport, FILE *out)
{
	int64_t ll = jint(p, "link_layer", 0), sp;
	size_t i;

	fprintf(out, "\t\tport:\t%u\n", (unsigned)pn);
	fprintf(out, "\t\t\tstate:\t\t\t%s (%d)\n",
		port_state_str(jint(p, "state", 0)), (int)jint(p, "state", 0));
	fprintf(out, "\t\t\tmax_mtu:\t\t%s (%d)\n",
		mtu_str(jint(p, "max_mtu", 0)), (int)jint(p, "max_mtu", 0));
	fprintf(out, "\t\t\tactive_mtu:\t\t%s (%d)\n",
		mtu_str(jint(p, "active_mtu", 0)), (int)jint(p, "active_mtu", 0));
	fprintf(out, "\t\t\tsm_lid:\t\t\t%d\n", (int)jint(p, "sm_lid", 0));
	fprintf(out, "\t\t\tport_lid:\t\t%d\n", (int)jint(p, "lid", 0));
	fprintf(out, "\t\t\tport_lmc:\t\t0x%02x\n", (unsigned)jint(p, "lmc", 0));
	fprintf(out, "\t\t\tlink_layer:\t\t%s\n", link_layer_str(ll));
	if (verbose) {
		fprintf(out, "\t\t\tmax_msg_sz:\t\t0x%x\n",
			(unsigned)juint(p, "max_msg_sz", 0));
		fprintf(out, "\t\t\tport_cap_flags:\t\t0x%08x\n",
			(unsigned)juint(p, "port_cap_flags", 0));
		fprintf(out, "\t\t\tport_cap_flags2:\t0x%04x\n",
			(unsigned)juint(p, "port_cap_flags2", 0));
		fprintf(out, "\t\t\tmax_vl_num:\t\t%s (%d)\n",
			vl_str(jint(p, "max_vl_num", 0)),
			(int)jint(p, "max_vl_num", 0));
		fprintf(out, "\t\t\tbad_pkey_cntr:\t\t0x%x\n",
			(unsigned)juint(p, "bad_pkey_cntr", 0));
		fprintf(out, "\t\t\tqkey_viol_cntr:\t\t0x%x\n",
			(unsigned)juint(p, "qkey_viol_cntr", 0));
		fprintf(out, "\t\t\tsm_sl:\t\t\t%d\n", (int)jint(p, "sm_sl", 0));
		fprintf(out, "\t\t\tpkey_tbl_len:\t\t%d\n",
			(int)jint(p, "pkey_tbl_len", 0));
		fprintf(out, "\t\t\tgid_tbl_len:\t\t%d\n",
			(int)jint(p, "gid_tbl_len", 0));
		fprintf(out, "\t\t\tsubnet_timeout:\t\t%d\n",
			(int)jint(p, "subnet_timeout", 0));
		fprintf(out, "\t\t\tinit_type_reply:\t%d\n",
			(int)jint(p, "init_type_reply", 0));
		fprintf(out, "\t\t\tactive_width:\t\t%sX (%d)\n",
			width_str(jint(p, "active_width", 0)),
			(int)jint(p, "active_width", 0));
		sp = jint(p, "active_speed_ex", 0) ? jint(p, "active_speed_ex", 0) :
		     jint(p, "active_speed", 0);
		fprintf(out, "\t\t\tactive_speed:\t\t%s (%d)\n", speed_str(sp),
			(int)sp);
		if (transport == 0)
			fprintf(out, "\t\t\tphys_state:\t\t%s (%d)\n",
				port_phy_state_str(jint(p, "phys_state", 0)),
				(int)jint(p, "phys_state", 0));
		for (i = 0; i < jlen(jget(p, "gids")); i++)
			print_gid(jat(jget(p, "gids"), i), ll == 2, out);
	}
	fputc('\n', out);
}

static int print_dev(const struct bundle_r *b, const char *name, int verbose,
		     int64_t want_port, FILE *out)
{
	char p[512], board[128];
	const struct jv *d, *ports;
	struct jv *v;
	int64_t n, pn, t;
	size_t i;

	snprintf(p, sizeof(p), "rdma-collect/verbs/%s.json", name);
	v = br_json(b, p);
	d = jget(v, "device");
	if (!v || !d || (jstr(v, "status") && strcmp(jstr(v, "status"), "ok"))) {
		jfree(v);
		return error("%s: %s", name, "Failed to open device or query "
			     "device props (no verbs evidence)");
	}
	n = jint(d, "phys_port_cnt", 0);
	if (want_port && want_port > n) {
		jfree(v);
		return error("Invalid port requested for device");
	}
	t = jint(d, "transport_type", 0);
	fprintf(out, "hca_id:\t%s\n", name);
	fprintf(out, "\ttransport:\t\t\t%s (%d)\n", transport_str(t), (int)t);
	if (jstr(d, "fw_ver") && *jstr(d, "fw_ver"))
		fprintf(out, "\tfw_ver:\t\t\t\t%s\n", jstr(d, "fw_ver"));
	fprintf(out, "\tnode_guid:\t\t\t%s\n", jstr(d, "node_guid") ?
		jstr(d, "node_guid") : "0000:0000:0000:0000");
	fprintf(out, "\tsys_image_guid:\t\t\t%s\n", jstr(d, "sys_image_guid") ?
		jstr(d, "sys_image_guid") : "0000:0000:0000:0000");
	fprintf(out, "\tvendor_id:\t\t\t0x%04x\n", (unsigned)jint(d, "vendor_id", 0));
	fprintf(out, "\tvendor_part_id:\t\t\t%d\n",
		(int)jint(d, "vendor_part_id", 0));
	fprintf(out, "\thw_ver:\t\t\t\t0x%X\n", (unsigned)jint(d, "hw_ver", 0));
	snprintf(p, sizeof(p), "sys/class/infiniband/%s/board_id", name);
	if (br_line(b, p, board, sizeof(board)) && *board)
		fprintf(out, "\tboard_id:\t\t\t%s\n", board);
	fprintf(out, "\tphys_port_cnt:\t\t\t%d\n", (int)n);
	if (verbose) {
		print_dev_verbose(d, out);
		print_dev_ex(jget(v, "device_ex"), out);
	}
	ports = jget(v, "ports");
	for (pn = 1; pn <= n && pn < 256; pn++) {
		if (want_port && pn != want_port)
			continue;
		for (i = 0; i < jlen(ports); i++)
			if (jint(jat(ports, i), "port", -1) == pn)
				print_port(jat(ports, i), pn, verbose, (int)t, out);
	}
	jfree(v);
	return 0;
}

static int show(const struct bundle_r *b, int argc, char **argv, FILE *out)
{
	const char *dev = NULL;
	struct jv *list;
	const struct jv *devs;
	int64_t port = 0;
	int verbose = 0, lflag = 0, rc = 0, i;
	size_t k;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "-v") || !strcmp(argv[i], "--verbose")) {
			verbose = 1;
		} else if (!strcmp(argv[i], "-l") || !strcmp(argv[i], "--list")) {
			lflag = 1;
		} else if ((!strcmp(argv[i], "-d") || !strcmp(argv[i], "--ib-dev")) &&
			   i + 1 < argc) {
			dev = argv[++i];
		} else if ((!strcmp(argv[i], "-i") || !strcmp(argv[i], "--ib-port")) &&
			   i + 1 < argc) {
			port = strtol(argv[++i], NULL, 0);
			if (port <= 0 || port > 255)
				return error("ibv_devinfo: bad port '%s'", argv[i]);
		} else {
			return error("ibv_devinfo: usage: ibv_devinfo [-v] [-l] "
				     "[-d DEV] [-i PORT]");
		}
	}
	list = br_json(b, "rdma-collect/verbs/devices.json");
	devs = jget(list, "devices");
	if (!list) {
		return error("%s: no rdma-collect/verbs/devices.json (the verbs "
			     "source did not run)", b->file);
	}
	if (lflag) {
		fprintf(out, "%d HCA%s found:\n", (int)jlen(devs),
			jlen(devs) != 1 ? "s" : "");
		for (k = 0; k < jlen(devs); k++)
			if (jstr(jat(devs, k), NULL))
				fprintf(out, "\t%s\n", jstr(jat(devs, k), NULL));
		fputc('\n', out);
		goto out;
	}
	if (dev) {
		for (k = 0; k < jlen(devs); k++)
			if (jstr(jat(devs, k), NULL) &&
			    !strcmp(jstr(jat(devs, k), NULL), dev))
				break;
		if (k == jlen(devs))
			rc = error("IB device '%s' wasn't found", dev);
		else
			rc = print_dev(b, dev, verbose, port, out);
		goto out;
	}
	if (!jlen(devs))
		rc = error("No IB devices found");
	for (k = 0; k < jlen(devs); k++)
		if (jstr(jat(devs, k), NULL) &&
		    print_dev(b, jstr(jat(devs, k), NULL), verbose, port, out) < 0)
			rc = -1;
out:
	jfree(list);
	return rc;
}

const struct view view_ibv_devinfo = {
	.name = "ibv_devinfo",
	.usage = "[-v] [-l] [-d DEV] [-i PORT]",
	.help = "devices and ports as ibv_devinfo (verbs evidence)",
	.show = show,
};
