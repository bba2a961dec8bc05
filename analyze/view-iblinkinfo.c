/* view-iblinkinfo: `iblinkinfo [-d] [-l] [--switches-only|--cas-only]` as
 * infiniband-diags' iblinkinfo.c prints it, from the fabric scan
 * (rdma-collect/fabric/fabric.json): every node in the order libibnetdisc
 * listed it, every port with its link and the far end.
 *
 * Without a fabric scan, the MAD documents show one link per local port:
 * the CA's port line and the line of the switch port its cable enters, as
 * iblinkinfo prints those two lines (the rest of the fabric is unknown).
 *
 * Not stored, so not printed as iblinkinfo would: FDR10 (Mellanox
 * ExtendedPortInfo), chassis external port numbers ("[  ]" always).  A
 * switch whose port 0 was not stored, or a port without its CapabilityMask,
 * shows its extended speed when LinkSpeedExtActive is not 0. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "log.h"
#include "view.h"
#include "view-lib.h"

struct lopts {
	int down_only, line_mode, only_type;
};

/* get_max_width() of ibdiag_common.c: the widest of a width mask */
static unsigned max_width(unsigned m)
{
	if (m & 8)
		return 8;
	if (m & 4)
		return 4;
	if (m & 2)
		return 2;
	if (m & 0x10)
		return 0x10;
	return 1;
}

/* get_max(): the highest bit of a mask (1 for 0) */
static unsigned max_bit(unsigned m)
{
	unsigned r = 0;

	while (m >>= 1)
		r++;
	return 1u << r;
}

/* get_max_msg(): "Could be ..." when the link runs below what both ends
 * support */
static void max_msg(const struct ib_port *p, char *wmsg, char *smsg, size_t n)
{
	const struct ib_port *r = p->remote;
	long cap = ib_port_cap_mask(p), rcap = ib_port_cap_mask(r);
	char buf[64];
	unsigned m;

	wmsg[0] = smsg[0] = 0;
	m = max_width(p->width_supported & r->width_supported);
	if (!(m & p->width_active))
		snprintf(wmsg, n, "Could be %s", ib_width_str(m, buf, sizeof(buf)));
	/* a mask not stored counts as claiming extended speeds: the
	 * supported values decide then */
	if ((cap < 0 || (cap & 0x4000)) && (rcap < 0 || (rcap & 0x4000)) &&
	    p->speed_ext_supported && r->speed_ext_supported) {
		m = max_bit(p->speed_ext_supported & r->speed_ext_supported);
		if (!(m & p->speed_ext_active))
			snprintf(smsg, n, "Could be %s",
				 ib_speedext_str(m, buf, sizeof(buf)));
		return;
	}
	m = max_bit(p->speed_supported & r->speed_supported);
	if (!(m & p->speed_active))
		snprintf(smsg, n, "Could be %s", ib_speed_str(m, buf, sizeof(buf)));
}

static unsigned port_lid(const struct ib_port *p)
{
	if (p->node->type == IB_NODE_SWITCH || !p->lid)
		return p->node->lid;
	return p->lid;
}

static void print_port(const struct ib_node *n, const struct ib_port *p,
		       const struct lopts *o, FILE *out)
{
	char width[64], speed[64], state[64], phys[64], link[256];
	char remote[512], wmsg[128], smsg[128];
	unsigned espeed = ib_port_espeed(p);

	ib_state_str(p->state, state, sizeof(state));
	ib_physstate_str(p->phys_state, phys, sizeof(phys));
	/* C14-24.2.1: a Down port's PortInfo is valid only for the states */
	if (p->state != 1) {
		if (espeed)
			ib_speedext_str(espeed, speed, sizeof(speed));
		else
			ib_speed_str(p->speed_active, speed, sizeof(speed));
		snprintf(link, sizeof(link), "(%3s %18s %6s/%8s)",
			 ib_width_str(p->width_active, width, sizeof(width)),
			 speed, state, phys);
	} else {
		snprintf(link, sizeof(link), "(              %6s/%8s)", state,
			 phys);
	}
	if (p->remote) {
		max_msg(p, wmsg, smsg, sizeof(wmsg));
		snprintf(remote, sizeof(remote), "%s%6u %4u[%2s] \"%s\" (%s %s)\n",
			 "", port_lid(p->remote), p->remote->num, "",
			 p->remote->node->desc, wmsg, smsg);
		if (o->line_mode) {
			char g[24];

			snprintf(g, sizeof(g), "0x%016" PRIx64 " ", p->remote->guid);
			snprintf(remote, sizeof(remote), "%s%6u %4u[%2s] \"%s\" "
				 "(%s %s)\n", g, port_lid(p->remote),
				 p->remote->num, "", p->remote->node->desc,
				 wmsg, smsg);
		}
	} else if (p->state == 1) {
		snprintf(remote, sizeof(remote), "           [  ] \"\" ( )\n");
	} else {
		snprintf(remote, sizeof(remote), "    \"Port not available\"\n");
	}
	if (o->line_mode)
		fprintf(out, "0x%016" PRIx64 " \"%30s\" ", p->guid, n->desc);
	else
		fprintf(out, "      ");
	if (n->type != IB_NODE_SWITCH) {
		if (!o->line_mode)
			fprintf(out, "0x%016" PRIx64 " ", p->guid);
		fprintf(out, "%6u %4u[%2s] ==%s==>  %s", p->lid, p->num, "",
			link, remote);
	} else {
		fprintf(out, "%6u %4u[%2s] ==%s==>  %s", n->lid, p->num, "",
			link, remote);
	}
}

static const char *type_str(unsigned t)
{
	switch (t) {
	case IB_NODE_SWITCH: return "Switch";
	case IB_NODE_CA: return "CA";
	case IB_NODE_ROUTER: return "Router";
	}
	return "??";
}

static void print_node(const struct ib_node *n, const struct lopts *o,
		       FILE *out)
{
	int head = 0;
	unsigned i;

	for (i = 1; i <= n->num_ports; i++) {
		const struct ib_port *p = n->port[i];

		if (!p || (o->down_only && p->state != 1))
			continue;
		if (!head && !o->line_mode) {
			if (n->type == IB_NODE_SWITCH)
				fprintf(out, "%s: 0x%016" PRIx64 " %s:\n",
					type_str(n->type), ib_switch_port_guid(n),
					n->desc);
			else
				fprintf(out, "%s: %s:\n", type_str(n->type),
					n->desc);
		}
		head = 1;
		print_port(n, p, o, out);
	}
}

static int show(const struct bundle_r *b, int argc, char **argv, FILE *out)
{
	struct lopts o = { 0, 0, 0 };
	struct ib_fabric f;
	size_t i;
	int rc;

	for (i = 0; i < (size_t)argc; i++) {
		if (!strcmp(argv[i], "-d") || !strcmp(argv[i], "--down"))
			o.down_only = 1;
		else if (!strcmp(argv[i], "-l") || !strcmp(argv[i], "--line"))
			o.line_mode = 1;
		else if (!strcmp(argv[i], "--switches-only"))
			o.only_type = IB_NODE_SWITCH;
		else if (!strcmp(argv[i], "--cas-only"))
			o.only_type = IB_NODE_CA;
		else
			return error("iblinkinfo: usage: iblinkinfo [-d] [-l] "
				     "[--switches-only|--cas-only]");
	}
	if (br_get(b, IB_FABRIC_JSON))
		rc = ib_fabric_load(b, &f);
	else
		rc = ib_fabric_from_mad(b, &f);
	if (rc < 0)
		return -1;
	for (i = 0; i < f.n; i++)
		if (!f.node[i].dup &&
		    (!o.only_type || f.node[i].type == (unsigned)o.only_type))
			print_node(&f.node[i], &o, out);
	ib_fabric_release(&f);
	return 0;
}

const struct view view_iblinkinfo = {
	.name = "iblinkinfo",
	.usage = "[-d] [-l] [--switches-only|--cas-only]",
	.help = "every link as iblinkinfo (fabric scan; else the local links from the mad source)",
	.show = show,
};
