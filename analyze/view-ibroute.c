/* view-ibroute: `ibroute [-a] [-n] [LID | -G GUID] [STARTLID [ENDLID]]` as
 * infiniband-diags' ibroute.c prints a switch's unicast table, from the
 * LFT of the fabric scan (rdma-collect/fabric/fabric.json).  The far ends
 * ibroute asks the fabric about (NodeInfo, NodeDescription, PortInfo of
 * each destination LID) are looked up in the same scan.  Without a switch
 * argument every switch is dumped, one table after the other (ibroute
 * itself needs one). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "view.h"
#include "view-lib.h"

#define LFT_BLOCK 64	/* LIDs in one LinearForwardingTable block */

struct ropts {
	int all, brief;
	unsigned start, end;
};

/* dump_lid()'s memory of the last LMC range it met (static in ibroute) */
struct lid_state {
	unsigned base, last;
	uint64_t portguid;
};

static const char *node_type_str(unsigned t, char *buf, size_t n)
{
	switch (t) {
	case IB_NODE_CA: snprintf(buf, n, "Channel Adapter"); break;
	case IB_NODE_SWITCH: snprintf(buf, n, "Switch"); break;
	case IB_NODE_ROUTER: snprintf(buf, n, "Router"); break;
	default: snprintf(buf, n, "?(%u)?", t); break;
	}
	return buf;
}

static void dump_lid(const struct ib_fabric *f, struct lid_state *st,
		     char *str, size_t len, unsigned lid, int valid, int brief)
{
	struct ib_node *n;
	struct ib_port *p;
	char type[32];
	unsigned base, lmc;

	str[0] = 0;
	if (brief)
		return;
	if (lid <= st->last) {
		if (!valid)
			snprintf(str, len, ": (path #%d - illegal port)",
				 (int)(lid - st->base));
		else if (!st->portguid)
			snprintf(str, len, ": (path #%d out of %d)",
				 (int)(lid - st->base + 1),
				 (int)(st->last - st->base + 1));
		else
			snprintf(str, len, ": (path #%d out of %d: portguid "
				 "0x%016" PRIx64 ")", (int)(lid - st->base + 1),
				 (int)(st->last - st->base + 1), st->portguid);
		return;
	}
	if (!valid) {
		snprintf(str, len, ": (illegal port)");
		return;
	}
	st->portguid = 0;
	n = ib_fabric_lid(f, lid, &p);
	if (!n) {
		snprintf(str, len, ": (unknown node and type)");
		return;
	}
	if (n->type == IB_NODE_SWITCH) {
		st->portguid = ib_switch_port_guid(n);
		base = n->lid;
		lmc = n->lmc;
	} else {
		st->portguid = p->guid;
		base = p->lid;
		lmc = p->lmc;
	}
	if (lmc > 0) {
		st->base = base;
		st->last = base + (1u << lmc) - 1;
	}
	snprintf(str, len, ": (%s portguid 0x%016" PRIx64 ": '%s')",
		 node_type_str(n->type, type, sizeof(type)), st->portguid,
		 n->desc);
}

static int dump_switch(const struct ib_fabric *f, const struct ib_node *sw,
		       const struct ropts *o, FILE *out)
{
	struct lid_state st = { 0, 0, 0 };
	unsigned top, start = o->start, end = o->end, block, i, e, n = 0;
	char str[200];

	if (!sw->lft || !jlen(sw->lft))
		return error("ibroute: no forwarding table of switch Lid %u "
			     "(0x%016" PRIx64 ") in the fabric scan", sw->lid,
			     sw->guid);
	/* LinearFDBTop: the table runs up to the highest LID assigned */
	top = jlen(sw->lft) - 1 > 0xffff ? 0xffff : (unsigned)jlen(sw->lft) - 1;
	if (!end || end > top)
		end = top;
	if (end > IB_MAX_UCAST_LID) {
		warning("illegal lft top %u, truncate to %d", end,
			IB_MAX_UCAST_LID);
		end = IB_MAX_UCAST_LID;
	}
	fprintf(out, "Unicast lids [0x%x-0x%x] of switch Lid %u guid 0x%016"
		PRIx64 " (%s):\n", start, end, sw->lid, sw->guid, sw->desc);
	fprintf(out, "  Lid  Out   Destination\n");
	fprintf(out, "       Port     Info \n");
	/* as ibroute: whole blocks up to ALIGN(endlid, 64), so an endlid
	 * that is a multiple of 64 is itself left out */
	for (block = start / LFT_BLOCK;
	     block < (end + LFT_BLOCK - 1) / LFT_BLOCK; block++) {
		i = block * LFT_BLOCK;
		e = i + LFT_BLOCK;
		if (i < start)
			i = start;
		if (e > end + 1)
			e = end + 1;
		for (; i < e; i++) {
			unsigned outport = (unsigned)ib_field(jat(sw->lft, i),
							      NULL, 8, 255);
			int valid = outport <= sw->num_ports;

			if (!valid && !o->all)
				continue;
			dump_lid(f, &st, str, sizeof(str), i, valid, o->brief);
			fprintf(out, "0x%04x %03u %s\n", i, outport, str);
			n++;
		}
	}
	fprintf(out, "%u %slids dumped \n", n, o->all ? "" : "valid ");
	return 0;
}

static int usage_err(void)
{
	return error("ibroute: usage: ibroute [-a] [-n] [LID | -G GUID] "
		     "[STARTLID [ENDLID]]");
}

static int parse_num(const char *s, unsigned long long max,
		     unsigned long long *v)
{
	char *end;

	if (!*s || *s == '-')
		return -1;
	*v = strtoull(s, &end, 0);
	return *end || *v > max ? -1 : 0;
}

static int show(const struct bundle_r *b, int argc, char **argv, FILE *out)
{
	struct ropts o = { 0, 0, 0, 0 };
	const char *dest = NULL;
	unsigned long long v, lims[2] = { 0, 0 };
	int by_guid = 0, nlim = 0, rc = 0, i;
	struct ib_node *sw = NULL;
	struct ib_port *p;
	struct ib_fabric f;
	size_t k;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "-a") || !strcmp(argv[i], "--all"))
			o.all = 1;
		else if (!strcmp(argv[i], "-n") || !strcmp(argv[i], "--no_dests"))
			o.brief = 1;
		else if (!strcmp(argv[i], "-G") || !strcmp(argv[i], "--Guid"))
			by_guid = 1;
		else if (argv[i][0] == '-')
			return usage_err();
		else if (!dest)
			dest = argv[i];
		else if (nlim < 2 && !parse_num(argv[i], 0xffff, &v))
			lims[nlim++] = v;
		else
			return usage_err();
	}
	if (by_guid && !dest)
		return usage_err();
	o.start = (unsigned)lims[0];
	o.end = (unsigned)lims[1];
	if (ib_fabric_load(b, &f) < 0)
		return -1;
	if (!dest) {
		for (k = 0; k < f.n; k++)
			if (!f.node[k].dup && f.node[k].type == IB_NODE_SWITCH &&
			    dump_switch(&f, &f.node[k], &o, out) < 0)
				rc = -1;
		goto out;
	}
	if (by_guid) {
		if (parse_num(dest, ~0ULL, &v) < 0) {
			rc = error("ibroute: can't resolve destination port %s",
				   dest);
			goto out;
		}
		sw = ib_fabric_node(&f, v);
		for (k = 0; !sw && k < f.n; k++)
			if (!f.node[k].dup && f.node[k].type == IB_NODE_SWITCH &&
			    ib_switch_port_guid(&f.node[k]) == v)
				sw = &f.node[k];
	} else if (!parse_num(dest, 0xffff, &v)) {
		sw = ib_fabric_lid(&f, (unsigned)v, &p);
	} else {
		rc = error("ibroute: can't resolve destination port %s", dest);
		goto out;
	}
	if (!sw)
		rc = error("ibroute: dump tables: node info failed: valid addr? "
			   "(%s is in no node of the fabric scan)", dest);
	else if (sw->type != IB_NODE_SWITCH)
		rc = error("ibroute: dump tables: not a switch");
	else
		rc = dump_switch(&f, sw, &o, out);
out:
	ib_fabric_release(&f);
	return rc;
}

const struct view view_ibroute = {
	.name = "ibroute",
	.usage = "[-a] [-n] [LID | -G GUID] [STARTLID [ENDLID]]",
	.help = "a switch's unicast forwarding table as ibroute; every switch without LID (fabric scan)",
	.show = show,
};
