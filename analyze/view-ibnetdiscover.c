/* view-ibnetdiscover: `ibnetdiscover` as infiniband-diags' ibnetdiscover.c
 * prints the topology file (no grouping), from the fabric scan
 * (rdma-collect/fabric/fabric.json): switches, then CAs, then routers,
 * each in the order libibnetdisc listed them, each with its linked ports.
 *
 * Differences that follow from the evidence: "generated on" is the
 * bundle's collection time, in UTC; FDR10 (Mellanox ExtendedPortInfo) is
 * not stored, so a 10 Gb/s lane prints QDR; a switch is "enhanced port 0"
 * when the scan stored its port 0. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "log.h"
#include "view.h"
#include "view-lib.h"

/* the compat strings ibnetdiscover keeps from before libibmad had them */
static const char *speed_compat(unsigned s)
{
	switch (s) {
	case 1: return "SDR";
	case 2: return "DDR";
	case 4: return "QDR";
	}
	return "???";
}

static const char *speedext_compat(unsigned e, unsigned s)
{
	switch (e) {
	case 0: return speed_compat(s);
	case 1: return "FDR";
	case 2: return "EDR";
	case 4: return "HDR";
	case 8: return "NDR";
	}
	return "???";
}

static const char *width_compat(unsigned w)
{
	switch (w) {
	case 1: return "1x";
	case 2: return "4x";
	case 4: return "8x";
	case 8: return "12x";
	case 16: return "2x";
	}
	return "??";
}

static const char *link_speed(const struct ib_port *p)
{
	unsigned e = ib_port_espeed(p);

	return p->speed_active != 4 && !e ? speed_compat(p->speed_active) :
					    speedext_compat(e, p->speed_active);
}

/* node_name(): "S-<guid>" quoted */
static const char *node_name(const struct ib_node *n, char *buf, size_t len)
{
	char t = n->type == IB_NODE_SWITCH ? 'S' : n->type == IB_NODE_CA ? 'H' :
		 n->type == IB_NODE_ROUTER ? 'R' : '?';

	snprintf(buf, len, "\"%c-%016" PRIx64 "\"", t, n->guid);
	return buf;
}

static unsigned remote_lid(const struct ib_port *r)
{
	return r->node->type == IB_NODE_SWITCH ? r->node->lid : r->lid;
}

static void out_ids(const struct ib_node *n, FILE *out)
{
	fprintf(out, "\nvendid=0x%x\ndevid=0x%x\n", n->vendor_id, n->device_id);
	if (n->sys_guid)
		fprintf(out, "sysimgguid=0x%" PRIx64 "\n", n->sys_guid);
}

static void out_switch(const struct ib_node *n, FILE *out)
{
	char name[64], rname[64];
	unsigned i;

	out_ids(n, out);
	fprintf(out, "switchguid=0x%" PRIx64 "(%" PRIx64 ")\n", n->guid,
		ib_switch_port_guid(n));
	fprintf(out, "Switch\t%u %s\t\t# \"%s\" %s port 0 lid %u lmc %u\n",
		n->num_ports, node_name(n, name, sizeof(name)), n->desc,
		n->port[0] ? "enhanced" : "base", n->lid, n->lmc);
	for (i = 1; i <= n->num_ports; i++) {
		const struct ib_port *p = n->port[i], *r;

		if (!p || !p->remote)
			continue;
		r = p->remote;
		fprintf(out, "[%u]\t%s[%u]", p->num,
			node_name(r->node, rname, sizeof(rname)), r->num);
		if (r->node->type != IB_NODE_SWITCH)
			fprintf(out, "(%" PRIx64 ") ", r->guid);
		fprintf(out, "\t\t# \"%s\" lid %u %s%s\n", r->node->desc,
			remote_lid(r), width_compat(p->width_active),
			link_speed(p));
	}
}

static void out_ca(const struct ib_node *n, FILE *out)
{
	char name[64], rname[64];
	unsigned i;

	out_ids(n, out);
	fprintf(out, "%sguid=0x%" PRIx64 "\n",
		n->type == IB_NODE_CA ? "ca" : "rt", n->guid);
	fprintf(out, "%s\t%u %s\t\t# \"%s\"\n",
		n->type == IB_NODE_CA ? "Ca" : "Rt", n->num_ports,
		node_name(n, name, sizeof(name)), n->desc);
	for (i = 1; i <= n->num_ports; i++) {
		const struct ib_port *p = n->port[i], *r;

		if (!p || !p->remote)
			continue;
		r = p->remote;
		fprintf(out, "[%u](%" PRIx64 ") \t%s[%u]", p->num, p->guid,
			node_name(r->node, rname, sizeof(rname)), r->num);
		if (r->node->type != IB_NODE_SWITCH)
			fprintf(out, " (%" PRIx64 ") ", r->guid);
		fprintf(out, "\t\t# lid %u lmc %u \"%s\" lid %u %s%s\n", p->lid,
			p->lmc, r->node->desc, remote_lid(r),
			width_compat(p->width_active), link_speed(p));
	}
}

/* ctime()'s form of the bundle's collection time, in UTC */
static void out_date(const struct bundle_r *b, FILE *out)
{
	const char *at = jstr(b->manifest, "collected_at");
	struct tm tm;
	char buf[64];

	memset(&tm, 0, sizeof(tm));
	if (at && strptime(at, "%Y-%m-%dT%H:%M:%SZ", &tm) &&
	    strftime(buf, sizeof(buf), "%a %b %e %H:%M:%S %Y", &tm))
		fprintf(out, "%s\n", buf);
	else
		fprintf(out, "(unknown)\n");
}

/* the node the scan started from: directed route "0" */
static void out_from(const struct ib_fabric *f, FILE *out)
{
	const struct ib_node *n = NULL;
	uint64_t pg = 0;
	size_t i;

	for (i = 0; i < f->n && !n; i++)
		if (!f->node[i].dup && f->node[i].dr_path &&
		    !strcmp(f->node[i].dr_path, "0"))
			n = &f->node[i];
	if (!n)
		return;
	if (n->type == IB_NODE_SWITCH)
		pg = ib_switch_port_guid(n);
	else if (f->from_port <= n->num_ports && n->port[f->from_port])
		pg = n->port[f->from_port]->guid;
	if (pg)
		fprintf(out, "# Initiated from node %016" PRIx64 " port %016"
			PRIx64 "\n", n->guid, pg);
}

static int show(const struct bundle_r *b, int argc, char **argv, FILE *out)
{
	static const unsigned order[] = { IB_NODE_SWITCH, IB_NODE_CA,
					  IB_NODE_ROUTER };
	struct ib_fabric f;
	char why[160], st[32];
	size_t i, t;

	(void)argv;
	if (argc)
		return error("ibnetdiscover: usage: ibnetdiscover");
	if (ib_fabric_load(b, &f) < 0)
		return -1;
	if (f.status && strcmp(f.status, "ok"))
		warning("ibnetdiscover: the stored scan is %s%s%s",
			ib_clean(f.status, st, sizeof(st)), f.reason ? ": " : "",
			f.reason ? ib_clean(f.reason, why, sizeof(why)) : "");
	fprintf(out, "#\n# Topology file: generated on ");
	out_date(b, out);
	fprintf(out, "#\n");
	out_from(&f, out);
	for (t = 0; t < 3; t++)
		for (i = 0; i < f.n; i++) {
			if (f.node[i].dup || f.node[i].type != order[t])
				continue;
			if (order[t] == IB_NODE_SWITCH)
				out_switch(&f.node[i], out);
			else
				out_ca(&f.node[i], out);
		}
	ib_fabric_release(&f);
	return 0;
}

const struct view view_ibnetdiscover = {
	.name = "ibnetdiscover",
	.usage = "",
	.help = "the topology file as ibnetdiscover (fabric scan)",
	.show = show,
};
