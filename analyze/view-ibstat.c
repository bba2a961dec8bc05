/* view-ibstat: `ibstat [-l] [-s] [CA [PORT]]` as infiniband-diags'
 * ibstat.c prints it: the values libibumad reads from sysfs (node_type,
 * hca_type, fw_ver, hw_rev, GUIDs; per port state, phys_state, rate,
 * lid, lid_mask_count, sm_lid, cap_mask, the port GUID from gids/0,
 * link_layer).  "Effective speed" needs a live verbs query and is not
 * printed. */
#include <stdint.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "log.h"
#include "view.h"

static const char *const node_type_str[] = {
	"???", "CA", "Switch", "Router", "iWARP RNIC"
};
static const char *const port_state_str[] = {
	"???", "Down", "Initializing", "Armed", "Active"
};
static const char *const port_phy_state_str[] = {
	"No state change", "Sleep", "Polling", "Disabled",
	"PortConfigurationTraining", "LinkUp", "LinkErrorRecovery", "PhyTest"
};

/* libibumad sys_read_uint: strtoul(buf, NULL, 0) of the first line */
static unsigned long rd_uint(const struct bundle_r *b, const char *dir,
			     const char *f, int *ok)
{
	char p[512], line[64];

	snprintf(p, sizeof(p), "%s/%s", dir, f);
	if (!br_line(b, p, line, sizeof(line))) {
		if (ok)
			*ok = 0;
		return 0;
	}
	return strtoul(line, NULL, 0);
}

static const char *rd_str(const struct bundle_r *b, const char *dir,
			  const char *f, char *buf, size_t n)
{
	char p[512];

	snprintf(p, sizeof(p), "%s/%s", dir, f);
	if (!br_line(b, p, buf, n))
		buf[0] = 0;
	return buf;
}

/* sys_read_guid: four 16-bit groups split at ": \t\n" */
static uint64_t rd_guid(const struct bundle_r *b, const char *dir, const char *f)
{
	char buf[64], *s, *tok;
	uint64_t g = 0;
	int i;

	rd_str(b, dir, f, buf, sizeof(buf));
	s = buf;
	for (i = 0; i < 4; i++) {
		tok = strsep(&s, ": \t\n");
		if (!tok)
			return 0;
		g = (g << 16) | (strtoul(tok, NULL, 16) & 0xffff);
	}
	return g;
}

/* the port GUID: the interface id of gids/0 */
static uint64_t port_guid(const struct bundle_r *b, const char *pdir)
{
	char buf[64];
	unsigned g[8];
	uint64_t v = 0;
	int i;

	rd_str(b, pdir, "gids/0", buf, sizeof(buf));
	if (sscanf(buf, "%4x:%4x:%4x:%4x:%4x:%4x:%4x:%4x", &g[0], &g[1], &g[2],
		   &g[3], &g[4], &g[5], &g[6], &g[7]) != 8)
		return 0;
	for (i = 4; i < 8; i++)
		v = (v << 16) | g[i];
	return v;
}

static void port_dump(const struct bundle_r *b, const char *ca, unsigned pn,
		      int alone, FILE *out)
{
	const char *pre = alone ? "" : "\t\t", *hdr = alone ? "" : "\t";
	char dir[512], rate[64], ll[64];
	unsigned long st, ps, r;
	char *paren;

	snprintf(dir, sizeof(dir), "sys/class/infiniband/%s/ports/%u", ca, pn);
	st = rd_uint(b, dir, "state", NULL);
	ps = rd_uint(b, dir, "phys_state", NULL);
	r = rd_uint(b, dir, "rate", NULL);
	rd_str(b, dir, "rate", rate, sizeof(rate));
	fprintf(out, "%sPort %u:\n", hdr, pn);
	fprintf(out, "%sState: %s\n", pre, st <= 4 ? port_state_str[st] : "???");
	fprintf(out, "%sPhysical state: %s\n", pre,
		ps <= 7 ? port_phy_state_str[ps] : "???");
	paren = strchr(rate, ')');
	if (paren && paren - rate >= 5 && !strncasecmp(paren - 5, "fdr10", 5))
		fprintf(out, "%sRate: %d (FDR10)\n", pre, (int)r);
	else if (r != 2)	/* 1x SDR */
		fprintf(out, "%sRate: %d\n", pre, (int)r);
	else
		fprintf(out, "%sRate: 2.5\n", pre);
	fprintf(out, "%sBase lid: %d\n", pre, (int)rd_uint(b, dir, "lid", NULL));
	fprintf(out, "%sLMC: %d\n", pre,
		(int)rd_uint(b, dir, "lid_mask_count", NULL));
	fprintf(out, "%sSM lid: %d\n", pre, (int)rd_uint(b, dir, "sm_lid", NULL));
	fprintf(out, "%sCapability mask: 0x%08x\n", pre,
		(unsigned)rd_uint(b, dir, "cap_mask", NULL));
	fprintf(out, "%sPort GUID: 0x%016" PRIx64 "\n", pre, port_guid(b, dir));
	if (!*rd_str(b, dir, "link_layer", ll, sizeof(ll)))
		snprintf(ll, sizeof(ll), "IB");
	fprintf(out, "%sLink layer: %s\n", pre, ll);
}

/* the port numbers under ports/, ascending */
static unsigned ports_of(const struct bundle_r *b, const char *ca,
			 unsigned char have[256])
{
	char p[512];
	const char **names;
	size_t n, i;
	unsigned max = 0;

	memset(have, 0, 256);
	snprintf(p, sizeof(p), "sys/class/infiniband/%s/ports", ca);
	n = br_list(b, p, &names);
	for (i = 0; i < n; i++) {
		char *end;
		unsigned long v = strtoul(names[i], &end, 10);

		if (*end || v > 255)
			continue;
		have[v] = 1;
		if (v > max)
			max = (unsigned)v;
	}
	free(names);
	return max;
}

static int ca_stat(const struct bundle_r *b, const char *ca, long port,
		   int short_format, FILE *out)
{
	char dir[512], buf[128];
	unsigned char have[256];
	unsigned long nt;
	unsigned n, p;
	int ok = 1;

	snprintf(dir, sizeof(dir), "sys/class/infiniband/%s", ca);
	nt = rd_uint(b, dir, "node_type", &ok);
	if (!ok || !nt)
		return 0;
	n = ports_of(b, ca, have);
	if (!short_format && port >= 0) {
		if (port > n || !have[port])
			return error("%s: '%s' has no port number %ld - max (%u)",
				     nt <= 4 ? node_type_str[nt] : "???", ca,
				     port, n);
		fprintf(out, "%s: '%s'\n", nt <= 4 ? node_type_str[nt] : "???", ca);
		port_dump(b, ca, (unsigned)port, 1, out);
		return 0;
	}
	fprintf(out, "%s '%s'\n", nt <= 4 ? node_type_str[nt] : "???", ca);
	fprintf(out, "\t%s type: %s\n", nt <= 4 ? node_type_str[nt] : "???",
		rd_str(b, dir, "hca_type", buf, sizeof(buf)));
	fprintf(out, "\tNumber of ports: %u\n", n);
	fprintf(out, "\tFirmware version: %s\n",
		rd_str(b, dir, "fw_ver", buf, sizeof(buf)));
	fprintf(out, "\tHardware version: %s\n",
		rd_str(b, dir, "hw_rev", buf, sizeof(buf)));
	fprintf(out, "\tNode GUID: 0x%016" PRIx64 "\n", rd_guid(b, dir, "node_guid"));
	fprintf(out, "\tSystem image GUID: 0x%016" PRIx64 "\n",
		rd_guid(b, dir, "sys_image_guid"));
	if (short_format)
		return 0;
	for (p = 0; p <= n; p++)
		if (have[p])
			port_dump(b, ca, p, 0, out);
	return 0;
}

static int is_ib_type(const struct bundle_r *b, const char *ca)
{
	char dir[512];
	unsigned long t;
	int ok = 1;

	snprintf(dir, sizeof(dir), "sys/class/infiniband/%s", ca);
	t = rd_uint(b, dir, "node_type", &ok);
	return ok && t >= 1 && t <= 3;
}

static int show(const struct bundle_r *b, int argc, char **argv, FILE *out)
{
	const char **cas, *want = NULL;
	long port = -1;
	int lflag = 0, sflag = 0, rc = 0, i, found = 0;
	size_t n, k;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "-l") || !strcmp(argv[i], "--list_of_cas"))
			lflag = 1;
		else if (!strcmp(argv[i], "-s") || !strcmp(argv[i], "--short"))
			sflag = 1;
		else if (argv[i][0] == '-')
			return error("ibstat: usage: ibstat [-l] [-s] [CA [PORT]]");
		else if (!want)
			want = argv[i];
		else if (port < 0)
			port = strtol(argv[i], NULL, 0);
		else
			return error("ibstat: usage: ibstat [-l] [-s] [CA [PORT]]");
	}
	n = br_list(b, "sys/class/infiniband", &cas);
	for (k = 0; k < n; k++) {
		if (!is_ib_type(b, cas[k]) || (want && strcmp(want, cas[k])))
			continue;
		found = 1;
		if (lflag)
			fprintf(out, "%s\n", cas[k]);
		else if (ca_stat(b, cas[k], port, sflag, out) < 0)
			rc = error("stat of IB device '%s' failed", cas[k]);
	}
	if (want && !found)
		rc = error("'%s' IB device can't be found", want);
	free(cas);
	return rc;
}

const struct view view_ibstat = {
	.name = "ibstat",
	.usage = "[-l] [-s] [CA [PORT]]",
	.help = "CAs and ports as ibstat (sysfs)",
	.show = show,
};
