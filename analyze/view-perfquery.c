/* view-perfquery: `perfquery [-x] [-C CA] [-P PORT] [LID [PORT]]` as
 * infiniband-diags' perfquery.c prints it: "# Port counters: Lid L port P
 * (CapMask: 0x..)" and libibmad's dotted fields (_mad_dump_field: name,
 * ':', dots up to column 32, value).
 *
 * The counters come from the bundle, never from a live query: without a
 * LID, the local port's (mad source, local.pma); with LID and PORT, the
 * local port or the peer switch port when they match (mad source), else
 * any port of the fabric scan (--fabric).  The PMA's ClassPortInfo
 * CapabilityMask is printed only when stored (pma.ClassPortInfo of the
 * port's end in the mad document, of the node in the scan): without it the
 * header ends after the port number, PortXmitWait is printed as stored and
 * -x prints every stored extended counter. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "view.h"
#include "view-lib.h"

enum { F_UINT, F_HEX };

struct pc_field {
	const char *name;
	unsigned bits;
	int kind;
};

/* mad_dump_perfcounters(): IB_PC_FIRST_F..VL15Dropped, QP1Dropped, then
 * VL15Dropped..IB_PC_LAST_F, with the fields' widths */
static const struct pc_field pc_fields[] = {
	{ "PortSelect", 8, F_UINT },
	{ "CounterSelect", 16, F_HEX },
	{ "SymbolErrorCounter", 16, F_UINT },
	{ "LinkErrorRecoveryCounter", 8, F_UINT },
	{ "LinkDownedCounter", 8, F_UINT },
	{ "PortRcvErrors", 16, F_UINT },
	{ "PortRcvRemotePhysicalErrors", 16, F_UINT },
	{ "PortRcvSwitchRelayErrors", 16, F_UINT },
	{ "PortXmitDiscards", 16, F_UINT },
	{ "PortXmitConstraintErrors", 8, F_UINT },
	{ "PortRcvConstraintErrors", 8, F_UINT },
	{ "CounterSelect2", 8, F_HEX },
	{ "LocalLinkIntegrityErrors", 4, F_UINT },
	{ "ExcessiveBufferOverrunErrors", 4, F_UINT },
	{ "QP1Dropped", 16, F_UINT },
	{ "VL15Dropped", 16, F_UINT },
	{ "PortXmitData", 32, F_UINT },
	{ "PortRcvData", 32, F_UINT },
	{ "PortXmitPkts", 32, F_UINT },
	{ "PortRcvPkts", 32, F_UINT },
	{ "PortXmitWait", 32, F_UINT },
	{ NULL, 0, 0 },
};

/* dump_perfcounters_ext(): the first six always, the next four when the
 * CapabilityMask has bit 9, the rest when CapabilityMask2 has bit 1 */
static const struct pc_field pcx_fields[] = {
	{ "PortSelect", 8, F_UINT },
	{ "CounterSelect", 16, F_HEX },
	{ "PortXmitData", 64, F_UINT },
	{ "PortRcvData", 64, F_UINT },
	{ "PortXmitPkts", 64, F_UINT },
	{ "PortRcvPkts", 64, F_UINT },
	{ NULL, 0, 0 },
};
static const struct pc_field pcx_width_fields[] = {
	{ "PortUnicastXmitPkts", 64, F_UINT },
	{ "PortUnicastRcvPkts", 64, F_UINT },
	{ "PortMulticastXmitPkts", 64, F_UINT },
	{ "PortMulticastRcvPkts", 64, F_UINT },
	{ NULL, 0, 0 },
};
static const struct pc_field pcx_addl_fields[] = {
	{ "CounterSelect2", 32, F_HEX },
	{ "SymbolErrorCounter", 64, F_UINT },
	{ "LinkErrorRecoveryCounter", 64, F_UINT },
	{ "LinkDownedCounter", 64, F_UINT },
	{ "PortRcvErrors", 64, F_UINT },
	{ "PortRcvRemotePhysicalErrors", 64, F_UINT },
	{ "PortRcvSwitchRelayErrors", 64, F_UINT },
	{ "PortXmitDiscards", 64, F_UINT },
	{ "PortXmitConstraintErrors", 64, F_UINT },
	{ "PortRcvConstraintErrors", 64, F_UINT },
	{ "LocalLinkIntegrityErrors", 64, F_UINT },
	{ "ExcessiveBufferOverrunErrors", 64, F_UINT },
	{ "VL15Dropped", 64, F_UINT },
	{ "PortXmitWait", 64, F_UINT },
	{ "QP1Dropped", 64, F_UINT },
	{ NULL, 0, 0 },
};

#define PM_EXT_WIDTH_SUPPORTED	(1u << 9)
#define PM_PC_XMIT_WAIT_SUP	(1u << 12)
#define PM_ADDL_PORT_CTRS_EXT	(1u << 1)	/* of CapabilityMask2 */

/* a field as _mad_dump_field() prints it; a field not stored is left out
 * rather than printed as a 0 nobody read */
static void dump_field(const struct pc_field *f, const struct jv *grp,
		       int zero, FILE *out)
{
	size_t l = strlen(f->name);
	uint64_t v;

	if (!jget(grp, f->name))
		return;
	v = zero ? 0 : ib_field(grp, f->name, f->bits, 0);
	fprintf(out, "%s:%.*s", f->name, l < 32 ? (int)(32 - l) : 0,
		"................................");
	if (f->kind == F_HEX)
		fprintf(out, "0x%0*llx\n", (int)(f->bits + 7) / 8 * 2,
			(unsigned long long)v);
	else
		fprintf(out, "%llu\n", (unsigned long long)v);
}

static void dump_fields(const struct pc_field *f, const struct jv *grp,
			FILE *out)
{
	for (; f->name; f++)
		dump_field(f, grp, 0, out);
}

struct pq_src {
	const struct jv *pma;
	const struct jv *cpi;	/* ClassPortInfo if not in pma, or NULL */
	unsigned lid, port;
};

static int print_counters(const struct pq_src *s, int ext, FILE *out)
{
	const struct jv *cpi = s->cpi ? s->cpi : jget(s->pma, "ClassPortInfo");
	const struct jv *grp = jget(s->pma, ext ? "PortCountersExtended" :
					    "PortCounters");
	long cap = -1, cap2 = -1;
	const struct pc_field *f;

	if (!grp || grp->t != J_OBJ)
		return error("perfquery: no %s of Lid %u port %u stored",
			     ext ? "PortCountersExtended" : "PortCounters",
			     s->lid, s->port);
	if (jget(cpi, "CapabilityMask"))
		cap = (long)ib_field(cpi, "CapabilityMask", 16, 0);
	if (jget(cpi, "CapabilityMask2"))
		cap2 = (long)ib_field(cpi, "CapabilityMask2", 27, 0);
	fprintf(out, "# Port %scounters: Lid %u port %u", ext ? "extended " : "",
		s->lid, s->port);
	if (cap >= 0 && !ext)
		fprintf(out, " (CapMask: 0x%02lX)", cap);
	else if (cap >= 0)
		fprintf(out, " (CapMask: 0x%02lX CapMask2: 0x%07lX)", cap,
			cap2 < 0 ? 0 : cap2);
	fprintf(out, "\n");
	if (!ext) {
		/* perfquery clears PortXmitWait when the PMA does not
		 * claim it */
		for (f = pc_fields; f->name; f++)
			dump_field(f, grp, cap >= 0 && !(cap & PM_PC_XMIT_WAIT_SUP) &&
				   !strcmp(f->name, "PortXmitWait"), out);
		return 0;
	}
	dump_fields(pcx_fields, grp, out);
	if (cap < 0 || (cap & PM_EXT_WIDTH_SUPPORTED))
		dump_fields(pcx_width_fields, grp, out);
	if (cap2 < 0 || (cap2 & PM_ADDL_PORT_CTRS_EXT))
		dump_fields(pcx_addl_fields, grp, out);
	return 0;
}

/* the local port or its peer in the MAD documents, by LID and port */
static int find_in_mad(const struct bundle_r *b, unsigned lid, unsigned port,
		       struct pq_src *s, struct jv **keep)
{
	const char **names;
	char path[512];
	size_t n = ib_mad_docs(b, &names), i;

	for (i = 0; i < n; i++) {
		struct jv *d;
		const struct jv *loc, *peer;

		snprintf(path, sizeof(path), "%s/%s", IB_MAD_DIR, names[i]);
		d = br_json(b, path);
		loc = jget(d, "local");
		peer = jget(d, "peer");
		if (ib_field(jget(loc, "portinfo"), "Lid", 16, 0) == lid &&
		    ib_field(d, "port", 8, 0) == port && jget(loc, "pma")) {
			s->pma = jget(loc, "pma");
		} else if (ib_field(peer, "lid", 16, 0) == lid &&
			   ib_field(jget(peer, "nodeinfo"), "LocalPort", 8, 0) == port &&
			   jget(peer, "pma")) {
			s->pma = jget(peer, "pma");
		} else {
			jfree(d);
			continue;
		}
		*keep = d;
		free(names);
		return 1;
	}
	free(names);
	return 0;
}

static int usage_err(void)
{
	return error("perfquery: usage: perfquery [-x] [-C CA] [-P PORT] "
		     "[LID [PORT]]");
}

static int parse_u(const char *s, unsigned long max, unsigned *v)
{
	char *end;
	unsigned long x;

	if (!*s || *s == '-')
		return -1;
	x = strtoul(s, &end, 0);
	if (*end || x > max)
		return -1;
	*v = (unsigned)x;
	return 0;
}

static int show(const struct bundle_r *b, int argc, char **argv, FILE *out)
{
	const char *ca = NULL;
	unsigned port = 0, lid = 0, pnum = 0;
	int ext = 0, nargs = 0, rc, i;
	struct ib_fabric fab;
	struct ib_node *node;
	struct ib_port *fp;
	struct jv *doc = NULL;
	struct pq_src s = { NULL, NULL, 0, 0 };

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "-x") || !strcmp(argv[i], "--extended"))
			ext = 1;
		else if (!strcmp(argv[i], "-C") && i + 1 < argc)
			ca = argv[++i];
		else if (!strcmp(argv[i], "-P") && i + 1 < argc) {
			if (parse_u(argv[++i], 255, &port) < 0)
				return usage_err();
		} else if (argv[i][0] != '-' && nargs == 0) {
			if (parse_u(argv[i], 0xffff, &lid) < 0 || !lid)
				return error("perfquery: can't resolve destination "
					     "port %s", argv[i]);
			nargs++;
		} else if (argv[i][0] != '-' && nargs == 1) {
			if (parse_u(argv[i], 255, &pnum) < 0)
				return usage_err();
			nargs++;
		} else {
			return usage_err();
		}
	}
	if (!nargs) {
		doc = ib_mad_load(b, ca, port, "perfquery");
		if (!doc)
			return -1;
		s.pma = jget(jget(doc, "local"), "pma");
		s.lid = (unsigned)ib_field(jget(jget(doc, "local"), "portinfo"),
					   "Lid", 16, 0);
		s.port = (unsigned)ib_field(doc, "port", 8, 0);
		if (!s.pma) {
			const struct jv *errs = jget(doc, "errors");
			const char *why = jstr(errs, "local.pma") ? jstr(errs, "local.pma") :
				jstr(errs, "local.pma.PortCounters");
			char cwhy[160];

			rc = error("perfquery: no counters of the local port in "
				   "%s (%s)", b->file,
				   why ? ib_clean(why, cwhy, sizeof(cwhy)) :
					 "not collected");
			jfree(doc);
			return rc;
		}
		rc = print_counters(&s, ext, out);
		jfree(doc);
		return rc;
	}
	s.lid = lid;
	s.port = pnum;
	if (find_in_mad(b, lid, pnum, &s, &doc)) {
		rc = print_counters(&s, ext, out);
		jfree(doc);
		return rc;
	}
	if (!br_get(b, IB_FABRIC_JSON))
		return error("perfquery: no counters of Lid %u port %u in %s "
			     "(neither the local port nor its peer; no fabric "
			     "scan)", lid, pnum, b->file);
	if (ib_fabric_load(b, &fab) < 0)
		return -1;
	/* PortSelect names any port of the node the LID reaches */
	node = ib_fabric_lid(&fab, lid, &fp);
	fp = node && pnum <= node->num_ports ? node->port[pnum] : NULL;
	if (!node) {
		rc = error("perfquery: no Lid %u in the fabric scan of %s", lid,
			   b->file);
	} else if (!fp || !fp->pma) {
		rc = error("perfquery: no counters of Lid %u port %u in the "
			   "fabric scan of %s", lid, pnum, b->file);
	} else {
		s.pma = fp->pma;
		/* the scan asks each node's PMA once */
		s.cpi = jget(node->pma, "ClassPortInfo");
		rc = print_counters(&s, ext, out);
	}
	ib_fabric_release(&fab);
	return rc;
}

const struct view view_perfquery = {
	.name = "perfquery",
	.usage = "[-x] [-C CA] [-P PORT] [LID [PORT]]",
	.help = "PMA port counters as perfquery: the local port, its peer switch port (mad) or any port of the fabric scan",
	.show = show,
};
