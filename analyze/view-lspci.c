/* view-lspci: the collected PCI functions as `lspci -vvv` (pciutils 3.14)
 * prints the lines an RDMA diagnosis reads: the device line, NUMA node,
 * the PCI Express capability header with LnkCap, LnkSta, LnkCap2, LnkSta2,
 * the ACS capability with ACSCap and ACSCtl, and the kernel driver.  Other
 * lspci lines (Control, Status, BARs, DevCap, LnkCtl ...) are left out.
 * A 64-byte config space (collected as non-root) shows "Capabilities:
 * <access denied>", as lspci does for a non-root user.  Names come from a
 * small table of the devices the project meets; others print as lspci
 * does without pci.ids ("Device 352a"). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "pcicfg.h"
#include "pciids.h"
#include "util.h"
#include "view.h"

#define FLAG(x, y) (((x) & (y)) ? '+' : '-')

static const char *aspm_support(unsigned code)
{
	static const char *const s[] = { "not supported", "L0s", "L1",
					 "L0s L1" };

	return s[code & 3];
}

static const char *latency_l0s(unsigned v)
{
	static const char *const s[] = { "<64ns", "<128ns", "<256ns", "<512ns",
					 "<1us", "<2us", "<4us", "unlimited" };

	return s[v & 7];
}

static const char *latency_l1(unsigned v)
{
	static const char *const s[] = { "<1us", "<2us", "<4us", "<8us",
					 "<16us", "<32us", "<64us", "unlimited" };

	return s[v & 7];
}

static const char *link_compare(int type, int sta, int cap)
{
	if (sta > cap)
		return " (overdriven)";
	if (sta == cap)
		return "";
	if (type == PCIE_TYPE_ROOT_PORT || type == PCIE_TYPE_DOWNSTREAM ||
	    type == PCIE_TYPE_PCIE_BRIDGE)
		return "";
	return " (downgraded)";
}

static const char *crosslink_res(unsigned v)
{
	switch (v & 3) {
	case 0: return "unsupported";
	case 1: return "Upstream Port";
	case 2: return "Downstream Port";
	default: return "incomplete";
	}
}

static void express(const struct pcicfg *c, unsigned func_dev, FILE *out)
{
	uint32_t t = c->lnkcap;
	unsigned aspm = (t >> 10) & 3;
	uint16_t w = c->lnksta;
	int type = c->port_type;
	const char *tn = pcicfg_port_type(type);

	fprintf(out, "\tCapabilities: [%02x] Express (v%d) ", c->exp_off,
		c->exp_version);
	if (type == PCIE_TYPE_ROOT_PORT || type == PCIE_TYPE_DOWNSTREAM)
		fprintf(out, "%s (Slot-)", tn);
	else if (tn)
		fputs(tn, out);
	else
		fprintf(out, "Unknown type %d", type);
	fputs(", IntMsgNum 0\n", out);
	fprintf(out, "\t\tLnkCap:\tPort #%u, Speed %s, Width x%d, ASPM %s",
		(unsigned)(t >> 24), pcicfg_speed_lspci(pcicfg_cap_speed(c)),
		pcicfg_cap_width(c), aspm_support(aspm));
	if (aspm) {
		fputs(", Exit Latency ", out);
		if (aspm & 1)
			fprintf(out, "L0s %s", latency_l0s((t >> 12) & 7));
		if (aspm & 2)
			fprintf(out, "%sL1 %s", (aspm & 1) ? ", " : "",
				latency_l1((t >> 15) & 7));
	}
	fputc('\n', out);
	fprintf(out, "\t\t\tClockPM%c Surprise%c LLActRep%c BwNot%c "
		"ASPMOptComp%c\n", FLAG(t, 0x40000), FLAG(t, 0x80000),
		FLAG(t, 0x100000), FLAG(t, 0x200000), FLAG(t, 0x400000));
	fprintf(out, "\t\tLnkSta:\tSpeed %s%s, Width x%d%s\n",
		pcicfg_speed_lspci(pcicfg_sta_speed(c)),
		link_compare(type, pcicfg_sta_speed(c), pcicfg_cap_speed(c)),
		pcicfg_sta_width(c),
		link_compare(type, pcicfg_sta_width(c), pcicfg_cap_width(c)));
	fprintf(out, "\t\t\tTrErr%c Train%c SlotClk%c DLActive%c BWMgmt%c "
		"ABWMgmt%c\n", FLAG(w, 0x0400), FLAG(w, 0x0800),
		FLAG(w, 0x1000), FLAG(w, 0x2000), FLAG(w, 0x4000),
		FLAG(w, 0x8000));
	if (!c->has_link2)
		return;
	/* LnkCap2 is reserved for endpoints that are not function 0 */
	if (!((type == PCIE_TYPE_ENDPOINT || type == PCIE_TYPE_LEG_END) &&
	      func_dev) && c->lnkcap2)
		fprintf(out, "\t\tLnkCap2: Supported Link Speeds: %s, "
			"Crosslink%c Retimer%c 2Retimers%c DRS%c\n",
			pcicfg_speeds2_lspci(c->lnkcap2),
			FLAG(c->lnkcap2, 0x100), FLAG(c->lnkcap2, 0x00800000),
			FLAG(c->lnkcap2, 0x01000000), FLAG(c->lnkcap2, 0x80000000u));
	w = c->lnksta2;
	fprintf(out, "\t\tLnkSta2: Current De-emphasis Level: %s, "
		"EqualizationComplete%c EqualizationPhase1%c\n"
		"\t\t\t EqualizationPhase2%c EqualizationPhase3%c "
		"LinkEqualizationRequest%c\n"
		"\t\t\t Retimer%c 2Retimers%c CrosslinkRes: %s, FltMode%c\n",
		(w & 1) ? "-3.5dB" : "-6dB", FLAG(w, 0x02), FLAG(w, 0x04),
		FLAG(w, 0x08), FLAG(w, 0x10), FLAG(w, 0x20), FLAG(w, 0x40),
		FLAG(w, 0x80), crosslink_res(w >> 8), FLAG(w, 0x400));
}

static void acs(const struct pcicfg *c, const unsigned char *cfg, FILE *out)
{
	uint16_t w = c->acs_cap;

	fprintf(out, "\tCapabilities: [%03x v%d] Access Control Services\n",
		c->acs_off, (cfg[c->acs_off + 2] & 0xf));
	fprintf(out, "\t\tACSCap:\tSrcValid%c TransBlk%c ReqRedir%c "
		"CmpltRedir%c UpstreamFwd%c EgressCtrl%c DirectTrans%c\n",
		FLAG(w, PCI_ACS_SV), FLAG(w, PCI_ACS_TB), FLAG(w, PCI_ACS_RR),
		FLAG(w, PCI_ACS_CR), FLAG(w, PCI_ACS_UF), FLAG(w, PCI_ACS_EC),
		FLAG(w, PCI_ACS_DT));
	w = c->acs_ctrl;
	fprintf(out, "\t\tACSCtl:\tSrcValid%c TransBlk%c ReqRedir%c "
		"CmpltRedir%c UpstreamFwd%c EgressCtrl%c DirectTrans%c\n",
		FLAG(w, PCI_ACS_SV), FLAG(w, PCI_ACS_TB), FLAG(w, PCI_ACS_RR),
		FLAG(w, PCI_ACS_CR), FLAG(w, PCI_ACS_UF), FLAG(w, PCI_ACS_EC),
		FLAG(w, PCI_ACS_DT));
}

static long hexfile(const struct bundle_r *b, const char *dir,
		    const char *name, long dflt)
{
	char p[PATH_MAX], line[32];
	long long v;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	if (!br_line(b, p, line, sizeof(line)) ||
	    parse_ll(line, 0, 0, 0xffffffffLL, &v) < 0)
		return dflt;
	return (long)v;
}

static void function(const struct bundle_r *b, const char *bdf, int domain,
		     FILE *out)
{
	char dir[PATH_MAX], p[PATH_MAX], real[PATH_MAX], numa[16];
	const char *cfg, *vn = NULL, *dn = NULL, *cn = NULL, *drv;
	long vendor, device, cls, rev;
	struct pcicfg c;
	size_t len = 0;
	unsigned dev = 0, fn = 0;

	snprintf(p, sizeof(p), "sys/bus/pci/devices/%s", bdf);
	if (!br_resolve(b, p, dir, sizeof(dir)))
		return;
	vendor = hexfile(b, dir, "vendor", -1);
	device = hexfile(b, dir, "device", -1);
	cls = hexfile(b, dir, "class", -1);
	rev = hexfile(b, dir, "revision", 0);
	snprintf(p, sizeof(p), "%s/config", dir);
	cfg = br_data(b, p, &len);
	pcicfg_parse((const unsigned char *)cfg, cfg ? len : 0, &c);
	if (vendor < 0 && c.len >= 4) {
		vendor = c.vendor;
		device = c.device;
	}
	if (vendor >= 0) {
		vn = pci_vendor_name((unsigned)vendor);
		dn = device >= 0 ? pci_device_name((unsigned)vendor,
						   (unsigned)device) : NULL;
	}
	if (cls >= 0)
		cn = pci_class_name((unsigned)cls >> 8);
	sscanf(bdf + 8, "%2x.%1x", &dev, &fn);
	fputs(domain ? bdf : bdf + 5, out);
	if (cn)
		fprintf(out, " %s: ", cn);
	else
		fprintf(out, " Class %04lx: ", cls < 0 ? 0 : (unsigned long)cls >> 8);
	if (vn)
		fputs(vn, out);
	else
		fprintf(out, "Device %04lx", vendor < 0 ? 0xffffUL : (unsigned long)vendor);
	if (dn)
		fprintf(out, " %s", dn);
	else
		fprintf(out, " Device %04lx", device < 0 ? 0xffffUL : (unsigned long)device);
	if (rev > 0)
		fprintf(out, " (rev %02lx)", rev);
	fputc('\n', out);
	snprintf(p, sizeof(p), "%s/numa_node", dir);
	if (br_line(b, p, numa, sizeof(numa)) && numa[0] && numa[0] != '-')
		fprintf(out, "\tNUMA node: %s\n", numa);
	if (c.short_space && !c.has_exp)
		fputs("\tCapabilities: <access denied>\n", out);
	if (c.has_exp)
		express(&c, dev || fn, out);
	if (c.has_acs)
		acs(&c, (const unsigned char *)cfg, out);
	snprintf(p, sizeof(p), "%s/driver", dir);
	if (br_resolve(b, p, real, sizeof(real)) && strcmp(real, p)) {
		drv = strrchr(real, '/');
		fprintf(out, "\tKernel driver in use: %s\n", drv ? drv + 1 : real);
	}
	fputc('\n', out);
}

static int show(const struct bundle_r *b, int argc, char **argv, FILE *out)
{
	const char **names;
	size_t n, i;
	int domain = 0, shown = 0;

	if (argc > 1)
		return error("lspci takes at most one argument: a PCI address");
	n = br_list(b, "sys/bus/pci/devices", &names);
	if (!n) {
		free(names);
		return error("%s: no PCI functions (the pci source collected "
			     "none)", b->file);
	}
	/* lspci shows domains only when one is not 0000 */
	for (i = 0; i < n; i++)
		if (strlen(names[i]) == 12 && strncmp(names[i], "0000:", 5))
			domain = 1;
	for (i = 0; i < n; i++) {
		if (strlen(names[i]) != 12)
			continue;
		if (argc == 1 && strcmp(argv[0], names[i]) &&
		    strcmp(argv[0], names[i] + 5))
			continue;
		function(b, names[i], domain, out);
		shown++;
	}
	free(names);
	if (argc == 1 && !shown)
		return error("no PCI function %s in %s", argv[0], b->file);
	return 0;
}

const struct view view_lspci = {
	.name = "lspci",
	.usage = "[BDF]",
	.help = "PCIe link and ACS lines of the HCAs, GPUs and bridges as lspci -vvv",
	.show = show,
};
