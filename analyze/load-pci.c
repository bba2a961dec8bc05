/* load-pci: the PCI functions the pci source collected (HCAs, GPUs and the
 * bridges up to their root ports): identity, topology (parent from the
 * sysfs path), driver, NUMA node, IOMMU group, the sysfs link strings and
 * the config space decoded by pcicfg (LnkCap, LnkSta, ACS); the IOMMU
 * groups' domain types, the IOMMU units and the command line's passthrough
 * setting (facts iommu_units, iommu_passthrough); an import's ACSCtl
 * lines without their functions (facts acsctl_unplaced, _on) */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "load.h"
#include "pcicfg.h"
#include "util.h"

static int64_t hexnum(const char *s, int64_t dflt)
{
	long long v;

	if (!s || parse_ll(s, 0, 0, 0xffffffffLL, &v) < 0)
		return dflt;
	return v;
}

static int64_t decnum(const char *s, int64_t dflt)
{
	long long v;

	if (!s || parse_ll(s, 10, -1, 1LL << 31, &v) < 0)
		return dflt;
	return v;
}

/* "0000:b1:00.0" */
static int is_bdf(const char *s, size_t n)
{
	static const char shape[] = "xxxx:xx:xx.x";
	size_t i;

	if (n != sizeof(shape) - 1)
		return 0;
	for (i = 0; i < n; i++) {
		if (shape[i] == 'x' ? !strchr("0123456789abcdefABCDEF", s[i]) ||
				      !s[i] : s[i] != shape[i])
			return 0;
	}
	return 1;
}

/* the basename of the target of the link at path, if path is a link */
static const char *link_name(struct ld *l, const char *path, char *out,
			     size_t n)
{
	char real[PATH_MAX];
	const char *s;

	if (!br_resolve(l->b, path, real, sizeof(real)) || !strcmp(real, path))
		return NULL;
	s = strrchr(real, '/');
	s = s ? s + 1 : real;
	if (!*s || check_snprintf(out, n, "%s", s) < 0)
		return NULL;
	return out;
}

/* the first name under dir/infiniband/ (the bundle stores the files
 * below it, not always the folder) */
static const char *ibdev_of(const struct bundle_r *b, const char *dir,
			    char *out, size_t n)
{
	char pre[PATH_MAX];
	size_t lo = 0, hi = b->n, pl;

	if (check_snprintf(pre, sizeof(pre), "%s/infiniband/", dir) < 0)
		return NULL;
	pl = strlen(pre);
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (strcmp(b->v[mid].path, pre) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < b->n && !strncmp(b->v[lo].path, pre, pl); lo++) {
		const char *rest = b->v[lo].path + pl;
		size_t len = strcspn(rest, "/");

		if (len && len < n) {
			memcpy(out, rest, len);
			out[len] = 0;
			return out;
		}
	}
	return NULL;
}

static const char *kind_of(int64_t vendor, int64_t cls)
{
	if (vendor == 0x15b3 && (cls >> 16) == 0x02)
		return "hca";
	if (vendor == 0x10de && (cls >> 16) == 0x03)
		return "gpu";
	if ((cls >> 8) == 0x0604)
		return "bridge";
	return "other";
}

static int function(struct ld *l, const char *bdf)
{
	char link[PATH_MAX], dir[PATH_MAX], p[PATH_MAX], parent[16];
	char ven[16], dev[16], cls[16], sv[16], sd[16], numa[16], cls_s[40],
	     cws[16], mls[40], mws[16], drv[64], grp[32], ibdev[64];
	const char *slash, *cfg, *group = NULL;
	struct pcicfg c;
	size_t clen = 0;
	int64_t vendor, klass, gnum = -1;
	int has_cfg;

	if (!is_bdf(bdf, strlen(bdf)))
		return 0;
	snprintf(link, sizeof(link), "sys/bus/pci/devices/%s", bdf);
	if (!br_resolve(l->b, link, dir, sizeof(dir)))
		return 0;
	parent[0] = 0;
	slash = strrchr(dir, '/');
	if (slash && slash > dir) {
		const char *q = slash - 1;

		while (q > dir && q[-1] != '/')
			q--;
		if (is_bdf(q, (size_t)(slash - q)))
			snprintf(parent, sizeof(parent), "%.*s",
				 (int)(slash - q), q);
	}
#define F(name, buf) (pjoin(p, sizeof(p), dir, "/" name, NULL), \
		      br_line(l->b, p, buf, sizeof(buf)) ? buf : NULL)
	vendor = hexnum(F("vendor", ven), -1);
	klass = hexnum(F("class", cls), -1);
	snprintf(p, sizeof(p), "%s/config", dir);
	cfg = br_data(l->b, p, &clen);
	has_cfg = cfg != NULL;
	pcicfg_parse((const unsigned char *)cfg, cfg ? clen : 0, &c);
	snprintf(p, sizeof(p), "%s/driver", dir);
	if (!link_name(l, p, drv, sizeof(drv)))
		drv[0] = 0;
	snprintf(p, sizeof(p), "%s/iommu_group", dir);
	if (link_name(l, p, grp, sizeof(grp))) {
		group = grp;
		gnum = decnum(grp, -1);
	}
	if (ld_exec(l, "INSERT OR REPLACE INTO "
		    "temp.s_pci_functions (bundle_id, "
		    "addr, vendor, device, class, subsys_vendor, subsys_device, "
		    "kind, parent_addr, driver, numa_node, iommu_group, "
		    "cur_link_speed, cur_link_width, max_link_speed, "
		    "max_link_width, config_bytes, lnkcap_speed, lnkcap_width, "
		    "lnksta_speed, lnksta_width, pcie_port_type, path, lnkcap2, "
		    "ibdev) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
		    "?, ?, ?, ?, ?, ?, ?, ?, ?)", "isNNNNNsssNNsNsNNDNDNssNs",
		    l->bid, bdf, vendor, hexnum(F("device", dev), -1), klass,
		    hexnum(F("subsystem_vendor", sv), -1),
		    hexnum(F("subsystem_device", sd), -1),
		    kind_of(vendor, klass), parent[0] ? parent : NULL,
		    drv[0] ? drv : NULL,
		    /* numa_node -1 means "no node": kept as NULL */
		    decnum(F("numa_node", numa), -1), gnum,
		    F("current_link_speed", cls_s),
		    decnum(F("current_link_width", cws), -1),
		    F("max_link_speed", mls),
		    decnum(F("max_link_width", mws), -1),
		    has_cfg ? (int64_t)clen : (int64_t)-1,
		    c.has_exp && pcicfg_speed_gts(pcicfg_cap_speed(&c)) > 0 ?
		    pcicfg_speed_gts(pcicfg_cap_speed(&c)) : -1.0,
		    c.has_exp ? (int64_t)pcicfg_cap_width(&c) : (int64_t)-1,
		    c.has_exp && pcicfg_speed_gts(pcicfg_sta_speed(&c)) > 0 ?
		    pcicfg_speed_gts(pcicfg_sta_speed(&c)) : -1.0,
		    c.has_exp ? (int64_t)pcicfg_sta_width(&c) : (int64_t)-1,
		    c.has_exp ? pcicfg_port_type(c.port_type) : NULL, dir,
		    c.has_link2 ? (int64_t)c.lnkcap2 : (int64_t)-1,
		    ibdev_of(l->b, dir, ibdev, sizeof(ibdev))) < 0)
		return -1;
#undef F
	if (c.has_acs &&
	    ld_exec(l, "INSERT OR REPLACE INTO "
		    "temp.s_pci_acs (bundle_id, addr, "
		    "cap, ctrl, src_valid, trans_blk, req_redir, cmplt_redir, "
		    "upstream_fwd, egress_ctrl, direct_trans, offset) VALUES (?, "
		    "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", "isiiiiiiiiii", l->bid, bdf,
		    (int64_t)c.acs_cap, (int64_t)c.acs_ctrl,
		    (int64_t)!!(c.acs_ctrl & PCI_ACS_SV),
		    (int64_t)!!(c.acs_ctrl & PCI_ACS_TB),
		    (int64_t)!!(c.acs_ctrl & PCI_ACS_RR),
		    (int64_t)!!(c.acs_ctrl & PCI_ACS_CR),
		    (int64_t)!!(c.acs_ctrl & PCI_ACS_UF),
		    (int64_t)!!(c.acs_ctrl & PCI_ACS_EC),
		    (int64_t)!!(c.acs_ctrl & PCI_ACS_DT),
		    (int64_t)c.acs_off) < 0)
		return -1;
	if (group && gnum >= 0) {
		char type[32];

		snprintf(p, sizeof(p), "sys/kernel/iommu_groups/%s/type", group);
		if (ld_exec(l, "INSERT OR REPLACE INTO "
			    "temp.s_iommu_groups (bundle_id, "
			    "grp, type, path) VALUES (?, ?, ?, ?)", "iiss", l->bid,
			    gnum, br_line(l->b, p, type, sizeof(type)) ? type : NULL,
			    p) < 0)
			return -1;
	}
	return 0;
}

/* kstrtobool's first letters */
static int boolval(const char *v)
{
	if (strchr("1yYtT", v[0]) && v[0])
		return 1;
	if (strchr("0nNfF", v[0]) && v[0])
		return 0;
	if ((v[0] == 'o' || v[0] == 'O') && v[1])
		return v[1] == 'n' || v[1] == 'N' ? 1 :
		       v[1] == 'f' || v[1] == 'F' ? 0 : -1;
	return -1;
}

/* the command line's passthrough setting: iommu=pt|nopt (x86, a comma
 * list) and iommu.passthrough=<bool>, the last occurrence wins (early
 * parameters run once per occurrence); "--" ends the kernel's part */
static int cmdline_passthrough(const char *cmd, char *tok, size_t n)
{
	int pt = -1;

	tok[0] = 0;
	while (cmd && *cmd) {
		size_t len = strcspn(cmd, " \t\n");
		char w[256];

		if (len && len < sizeof(w)) {
			memcpy(w, cmd, len);
			w[len] = 0;
			if (!strcmp(w, "--"))
				break;
			if (starts_with(w, "iommu=")) {
				char *s = w + 6, *save = NULL, *it;
				char copy[256];

				snprintf(copy, sizeof(copy), "%s", w);
				for (it = strtok_r(s, ",", &save); it;
				     it = strtok_r(NULL, ",", &save)) {
					if (!strncmp(it, "pt", 2))
						pt = 1;
					else if (!strncmp(it, "nopt", 4))
						pt = 0;
					else
						continue;
					snprintf(tok, n, "%s", copy);
				}
			} else if (starts_with(w, "iommu.passthrough=")) {
				int v = boolval(w + 18);

				if (v >= 0) {
					pt = v;
					snprintf(tok, n, "%s", w);
				}
			}
		}
		cmd += len;
		cmd += strspn(cmd, " \t\n");
	}
	return pt;
}

static int iommu_facts(struct ld *l)
{
	const char **units;
	size_t n, i;
	char list[512], tok[256];
	const char *cmd = br_data(l->b, "proc/cmdline", NULL);
	int pt;

	list[0] = 0;
	n = br_list(l->b, "sys/class/iommu", &units);
	for (i = 0; i < n; i++) {
		size_t k = strlen(list);

		snprintf(list + k, sizeof(list) - k, "%s%s", k ? " " : "",
			 units[i]);
	}
	free(units);
	if (n && ld_fact(l, "iommu_units", list, "sys/class/iommu") < 0)
		return -1;
	if (!cmd)
		return 0;
	pt = cmdline_passthrough(cmd, tok, sizeof(tok));
	if (ld_fact(l, "iommu_passthrough", pt < 0 ? NULL : pt ? "1" : "0",
		    "proc/cmdline") < 0 ||
	    ld_fact(l, "iommu_passthrough_param", tok[0] ? tok : NULL,
		    "proc/cmdline") < 0)
		return -1;
	return 0;
}

/* an import's ACSCtl lines without their functions (imp-host-pci.c):
 * how many, and how many redirect or validate (SrcValid, ReqRedir,
 * CmpltRedir: the bits ACS_ENABLED judges) */
static int loose_acs(struct ld *l)
{
	static const char p[] = "rdma-collect/import/acsctl.txt";
	const char *data, *s, *e, *end;
	char line[256], nb[24], ob[24];
	size_t len = 0;
	long n = 0, on = 0;

	data = br_data(l->b, p, &len);
	if (!data)
		return 0;
	for (s = data, end = data + len; s < end; s = e + 1) {
		e = memchr(s, '\n', (size_t)(end - s));
		if (!e)
			e = end;
		snprintf(line, sizeof(line), "%.*s", (int)(e - s), s);
		if (!starts_with(line, "ACSCtl:"))
			continue;
		n++;
		on += strstr(line, "SrcValid+") || strstr(line, "ReqRedir+") ||
		      strstr(line, "CmpltRedir+");
	}
	snprintf(nb, sizeof(nb), "%ld", n);
	snprintf(ob, sizeof(ob), "%ld", on);
	if (ld_fact(l, "acsctl_unplaced", nb, p) < 0 ||
	    ld_fact(l, "acsctl_unplaced_on", ob, p) < 0)
		return -1;
	return 0;
}

int load_pci(struct ld *l)
{
	const char **names;
	size_t n, i;
	int rc = 0;

	n = br_list(l->b, "sys/bus/pci/devices", &names);
	for (i = 0; i < n && !rc; i++)
		rc = function(l, names[i]);
	free(names);
	if (!rc)
		rc = iommu_facts(l);
	if (!rc)
		rc = loose_acs(l);
	return rc;
}
