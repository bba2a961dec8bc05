/* load-phy: the physical layer: mlxlink outputs (the commands source's
 * mlxlink-<name>/stdout, the name an RDMA device, or an mst device or PCI
 * address that mst-status/stdout (mst status [-v]) or the device links
 * name, and attachments that are mlxlink text) into phy (the network
 * link) and phy_pcie (the host's PCIe link, --port_type PCIE),
 * the verbs active width/speed of each port into link_active, and each
 * RDMA device's PCI function into ibdev_pci */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "db.h"
#include "load.h"
#include "mlxlink.h"

static void lanes(struct buf *b, const double *v, int n)
{
	int i;

	buf_reset(b);
	for (i = 0; i < n; i++)
		buf_addf(b, "%s%.0f", i ? "," : "", v[i] >= 0 ? v[i] : -1.0);
}

static int store(struct ld *l, const char *path, const char *ibdev,
		 const struct mlxlink *m)
{
	struct buf raw = BUF_INIT, h = BUF_INIT, ph = BUF_INIT;
	double r[MLXLINK_LANES];
	int i, rc;

#define S(x) ((x)[0] ? (x) : NULL)
	for (i = 0; i < m->nraw; i++)
		r[i] = (double)m->raw_errors[i];
	lanes(&raw, r, m->nraw);
	lanes(&h, m->height, m->nheight);
	lanes(&ph, m->phase, m->nphase);
	rc = ld_exec(l, "INSERT OR REPLACE INTO phy (bundle_id, path, ibdev, "
		     "port, state, phys_state, speed, width, fec, enabled_speeds, "
		     "cable_speeds, eff_errors, eff_ber, eff_ber_text, raw_ber, "
		     "raw_ber_text, raw_errors, eye_height, eye_phase) VALUES (?, "
		     "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
		     "ississsssssNDsDssss", l->bid, path, ibdev, (int64_t)1,
		     S(m->state), S(m->phys_state), S(m->speed), S(m->width),
		     S(m->fec), S(m->enabled_speeds), S(m->cable_speeds),
		     m->eff_errors, m->eff_ber, S(m->eff_ber_text), m->raw_ber,
		     S(m->raw_ber_text), m->nraw ? raw.buf : NULL,
		     m->nheight ? h.buf : NULL, m->nphase ? ph.buf : NULL);
#undef S
	buf_release(&raw);
	buf_release(&h);
	buf_release(&ph);
	return rc;
}

/* the RDMA device an attachment's name mentions ("mlxlink-mlx5_3.txt"):
 * the longest device name found not followed by a digit */
static const char *dev_in_name(const char *name, const char **devs, size_t n)
{
	const char *best = NULL;
	size_t i, bl = 0;

	for (i = 0; i < n; i++) {
		size_t dl = strlen(devs[i]);
		const char *p = name;

		while ((p = strstr(p, devs[i]))) {
			if (p[dl] < '0' || p[dl] > '9') {
				if (dl > bl) {
					best = devs[i];
					bl = dl;
				}
				break;
			}
			p++;
		}
	}
	return best;
}

/* the PCI function of an RDMA device (its sys/class/infiniband/<dev>/
 * device link) into bdf[16]; 0, or -1 when the bundle has no such link */
static int pci_of(struct ld *l, const char *dev, char *bdf)
{
	char p[PATH_MAX], real[PATH_MAX];
	const char *b;

	snprintf(p, sizeof(p), "sys/class/infiniband/%s/device", dev);
	if (!br_resolve(l->b, p, real, sizeof(real)) || !strcmp(real, p))
		return -1;
	b = strrchr(real, '/') ? strrchr(real, '/') + 1 : real;
	return mst_bdf(b, bdf);
}

/* the RDMA device whose PCI function is bdf, to name an mlxlink run on
 * a PCI address */
static const char *dev_of_bdf(struct ld *l, const char **devs, size_t nd,
			      const char *bdf)
{
	char b[16];
	size_t i;

	for (i = 0; i < nd; i++)
		if (!pci_of(l, devs[i], b) && !strcmp(b, bdf))
			return devs[i];
	return NULL;
}

/* the RDMA device and PCI function an mlxlink output was run on, from
 * the name it was run with (rdma-collect/commands/mlxlink-<name>): an
 * RDMA device, or an mst device or PCI address that mst status [-v] or
 * the device links name; written to ibdev (n bytes) and bdf (16 bytes),
 * "" when nothing names them */
static void mlxlink_names(struct ld *l, const char **devs, size_t nd,
			  const char *name, char *ibdev, size_t n, char *bdf)
{
	struct mst_row *v = NULL;
	const char *mst, *d = NULL;
	size_t len, i;
	int nr = 0, k;

	ibdev[0] = 0;
	if (mst_bdf(name, bdf) < 0)
		bdf[0] = 0;
	for (i = 0; i < nd && !d; i++)
		if (!strcmp(devs[i], name))
			d = devs[i];
	mst = d ? NULL : br_data(l->b, "rdma-collect/commands/mst-status/stdout",
				 &len);
	if (mst && (v = malloc(64 * sizeof(*v))))
		nr = mst_rows(mst, len, v, 64);
	for (k = 0; k < nr && !d; k++) {
		if (strcmp(v[k].name, name) && (!bdf[0] || strcmp(v[k].pci, bdf)))
			continue;
		if (v[k].pci[0])
			snprintf(bdf, 16, "%s", v[k].pci);
		if (v[k].rdma[0])
			d = v[k].rdma;
	}
	if (!d && bdf[0])
		d = dev_of_bdf(l, devs, nd, bdf);
	if (d) {
		snprintf(ibdev, n, "%s", d);
		if (!bdf[0] && pci_of(l, d, bdf) < 0)
			bdf[0] = 0;
	}
	free(v);
}

/* the host's PCIe link an output shows (--port_type PCIE), keyed by its
 * PCI function when known, else by the name it was run with */
static int store_pcie(struct ld *l, const char *path, const char *name,
		      const char *ibdev, const char *bdf,
		      const struct mlxlink_pci *p)
{
	struct buf g = BUF_INIT, h = BUF_INIT, ph = BUF_INIT;
	const char *dev = bdf[0] ? bdf : ibdev[0] ? ibdev : name;
	int rc;

#define S(x) ((x)[0] ? (x) : NULL)
#define I(x) ((int64_t)(x))
	lanes(&g, p->grade, p->ngrade);
	lanes(&h, p->height, p->nheight);
	lanes(&ph, p->phase, p->nphase);
	rc = ld_exec(l, "INSERT OR REPLACE INTO phy_pcie (bundle_id, dev, "
		     "depth, pcie_index, node, path, pci_addr, ibdev, speed, "
		     "speed_enabled, gen, gen_enabled, gts, gts_enabled, width, "
		     "width_enabled, device_status, dl_down, rx_errors, "
		     "tx_errors, crc_dllp, crc_tlp, eye_grade, eye_height, "
		     "eye_phase) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
		     "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
		     "isiiisssssNNDDNNsNNNNNsss", l->bid, dev,
		     (int64_t)(p->depth >= 0 ? p->depth : 0),
		     (int64_t)(p->index >= 0 ? p->index : 0),
		     (int64_t)(p->node >= 0 ? p->node : 0), path, S(bdf),
		     S(ibdev), S(p->speed), S(p->speed_en), I(p->gen),
		     I(p->gen_en), p->gts, p->gts_en, I(p->width),
		     I(p->width_en), S(p->status), p->dl_down, p->rx_errors,
		     p->tx_errors, p->crc_dllp, p->crc_tlp,
		     p->ngrade ? g.buf : NULL, p->nheight ? h.buf : NULL,
		     p->nphase ? ph.buf : NULL);
#undef I
#undef S
	buf_release(&g);
	buf_release(&h);
	buf_release(&ph);
	return rc;
}

/* one mlxlink text: its network link into phy, its PCIe link into
 * phy_pcie */
static int mlxlink_text(struct ld *l, const char *path, const char *name,
			const char *ibdev, const char *bdf, const char *d,
			size_t len)
{
	struct mlxlink *m = malloc(sizeof(*m));
	int rc = 0;

	if (!m)
		return -1;
	if (mlxlink_parse(d, len, m) == 0)
		rc = store(l, path, ibdev[0] ? ibdev : NULL, m);
	if (!rc && m->pci.link)
		rc = store_pcie(l, path, name, ibdev, bdf, &m->pci);
	free(m);
	return rc;
}

static int mlxlink_outputs(struct ld *l)
{
	const char **devs, **names;
	size_t nd, n, i;
	int rc = 0;

	nd = br_list(l->b, "sys/class/infiniband", &devs);
	n = br_list(l->b, "rdma-collect/commands", &names);
	for (i = 0; i < n && !rc; i++) {
		char p[PATH_MAX], dev[64], bdf[16];
		const char *d;
		size_t len;

		if (strncmp(names[i], "mlxlink-", 8) || !names[i][8])
			continue;
		snprintf(p, sizeof(p), "rdma-collect/commands/%s/stdout", names[i]);
		d = br_data(l->b, p, &len);
		if (!d)
			continue;
		mlxlink_names(l, devs, nd, names[i] + 8, dev, sizeof(dev), bdf);
		rc = mlxlink_text(l, p, names[i] + 8, dev, bdf, d, len);
	}
	free(names);
	n = br_list(l->b, "rdma-collect/attach", &names);
	for (i = 0; i < n && !rc; i++) {
		char p[PATH_MAX], bdf[16] = "";
		const char *d, *dev;
		size_t len;

		snprintf(p, sizeof(p), "rdma-collect/attach/%s", names[i]);
		d = br_data(l->b, p, &len);
		dev = dev_in_name(names[i], devs, nd);
		if (dev && pci_of(l, dev, bdf) < 0)
			bdf[0] = 0;
		if (d)
			rc = mlxlink_text(l, p, names[i], dev ? dev : "", bdf,
					  d, len);
	}
	free(names);
	free(devs);
	return rc;
}

static int verbs_links(struct ld *l)
{
	const char **devs;
	size_t nd, i, k;
	int rc = 0;

	nd = br_list(l->b, "sys/class/infiniband", &devs);
	for (i = 0; i < nd && !rc; i++) {
		char p[PATH_MAX], real[PATH_MAX];
		const char *pci;
		struct jv *v;
		const struct jv *ports;

		snprintf(p, sizeof(p), "sys/class/infiniband/%s/device", devs[i]);
		if (br_resolve(l->b, p, real, sizeof(real)) && strcmp(real, p)) {
			pci = strrchr(real, '/') ? strrchr(real, '/') + 1 : real;
			if (strlen(pci) == 12 && pci[4] == ':' && pci[7] == ':' &&
			    pci[10] == '.')
				rc = ld_exec(l, "INSERT OR REPLACE INTO "
					     "temp.s_ibdev_pci (bundle_id, ibdev, "
					     "pci_addr) VALUES (?, ?, ?)", "iss", l->bid,
					     devs[i], pci);
		}
		snprintf(p, sizeof(p), "rdma-collect/verbs/%s.json", devs[i]);
		v = br_json(l->b, p);
		ports = jget(v, "ports");
		for (k = 0; k < jlen(ports) && !rc; k++) {
			const struct jv *pt = jat(ports, k);
			int64_t pn = jint(pt, "port", -1);

			if (pn < 0 || pn > 255)
				continue;
			rc = ld_exec(l, "INSERT OR REPLACE INTO "
				     "temp.s_link_active "
				     "(bundle_id, ibdev, port, active_width, "
				     "active_speed, active_speed_ex) VALUES (?, ?, ?, "
				     "?, ?, ?)", "isiNNN", l->bid, devs[i], pn,
				     jint(pt, "active_width", -1),
				     jint(pt, "active_speed", -1),
				     jint(pt, "active_speed_ex", -1));
		}
		jfree(v);
	}
	free(devs);
	return rc;
}

int load_phy(struct ld *l)
{
	if (mlxlink_outputs(l) < 0 || verbs_links(l) < 0)
		return -1;
	return 0;
}
