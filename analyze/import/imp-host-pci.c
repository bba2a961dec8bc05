/* imp-host-pci: `lspci -vvv` (any pciutils since 3.5: with and without
 * "(ok)" after LnkSta's speed and width, "MSI 00" or "IntMsgNum 0",
 * -n/-nn ids, -s filters, -D domains) into the pci source's entries: the
 * sys/bus/pci/devices/<bdf> links into a sys/devices tree, each
 * function's sysfs attributes and its `config`.
 *
 * `config` is the hex dump when the text has one (-xxx, -xxxx: then the
 * bytes are the device's own).  Otherwise it is the configuration space
 * lspci's text describes, laid out at the offsets lspci printed (pciutils
 * ls-caps.c cap_express_link() and cap_express_link2(), ls-ecaps.c cap_acs()
 * and cap_aer(), lib/header.h): the header, the capability chain, the PCI
 * Express capability's DevCap/DevCtl/LnkCap/LnkCtl/LnkSta/LnkCap2/LnkCtl2/
 * LnkSta2 and the extended chain with ACS's capability and control and
 * AER's header, so pcicfg.c decodes what lspci showed.  A space lspci
 * could not read ("Capabilities: <access denied>") stays 64 bytes, as
 * a non-root collector stores it.
 *
 * The tree: a bridge's "Bus: primary=, secondary=, subordinate=" line
 * places the functions behind it.  Without it (lspci -vvv of bridges
 * always prints it; a cut paste may not), a Root, Downstream or Upstream
 * Port takes the lowest bus above its own that has functions and no
 * bridge yet, in address order -- how firmware numbers buses depth-first;
 * a note says the tree was inferred.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "imp.h"
#include "pciids.h"
#include "pcicfg.h"
#include "util.h"

#define MAX_FUNCS 1024
#define MAX_CAPS 48
#define CFG_EXT 4096

struct cap {
	unsigned off, id, ver;
};

struct fn {
	unsigned dom, bus, dev, func;
	char bdf[16];
	long vendor, device, cls, rev, progif, svendor, sdevice;
	int numa, has_numa;
	char driver[64];
	int bridge;
	int sec, sub;		/* -1: no Bus: line */
	int parent;		/* index of the bridge above, -1: a root bus */
	int denied;
	unsigned command;
	int cap_list;
	struct cap std[MAX_CAPS], ext[MAX_CAPS];
	int nstd, next_;
	int exp;		/* index in std of the Express capability, -1 */
	int exp_ver, exp_type;
	uint32_t devcap, lnkcap, lnkcap2;
	uint16_t devctl, lnkctl, lnksta, lnkctl2, lnksta2;
	int has_lnkcap, has_lnksta, has_link2;
	int acs;		/* index in ext, -1 */
	uint16_t acs_cap, acs_ctl;
	int acs_shown;		/* an ACSCtl line was read (-vv and root) */
	unsigned char *hex;	/* CFG_EXT bytes when a dump was given */
	size_t hexlen;
};

/* what the lines after a register's label belong to */
enum reg {
	R_NONE, R_DEVCAP, R_DEVCTL, R_LNKCAP, R_LNKCTL, R_LNKSTA, R_LNKCAP2,
	R_LNKCTL2, R_LNKSTA2, R_ACSCAP, R_ACSCTL, R_CONTROL,
};

struct flag {
	enum reg reg;
	const char *name;
	uint32_t bit;
};

/* ls-caps.c / ls-ecaps.c flag names and their register bits; old
 * pciutils spellings too (DevCtl "Correctable", LnkCtl "Disabled") */
static const struct flag flags[] = {
	{ R_DEVCAP, "ExtTag", 0x20 }, { R_DEVCAP, "AttnBtn", 0x1000 },
	{ R_DEVCAP, "AttnInd", 0x2000 }, { R_DEVCAP, "PwrInd", 0x4000 },
	{ R_DEVCAP, "RBE", 0x8000 }, { R_DEVCAP, "FLReset", 0x10000000 },
	{ R_DEVCTL, "CorrErr", 0x1 }, { R_DEVCTL, "Correctable", 0x1 },
	{ R_DEVCTL, "NonFatalErr", 0x2 }, { R_DEVCTL, "Non-Fatal", 0x2 },
	{ R_DEVCTL, "FatalErr", 0x4 }, { R_DEVCTL, "Fatal", 0x4 },
	{ R_DEVCTL, "UnsupReq", 0x8 }, { R_DEVCTL, "Unsupported", 0x8 },
	{ R_DEVCTL, "RlxdOrd", 0x10 }, { R_DEVCTL, "ExtTag", 0x100 },
	{ R_DEVCTL, "PhantFunc", 0x200 }, { R_DEVCTL, "AuxPwr", 0x400 },
	{ R_DEVCTL, "NoSnoop", 0x800 }, { R_DEVCTL, "BrConfRtry", 0x8000 },
	{ R_LNKCAP, "ClockPM", 0x40000 }, { R_LNKCAP, "Surprise", 0x80000 },
	{ R_LNKCAP, "LLActRep", 0x100000 }, { R_LNKCAP, "BwNot", 0x200000 },
	{ R_LNKCAP, "ASPMOptComp", 0x400000 },
	{ R_LNKCTL, "LnkDisable", 0x10 }, { R_LNKCTL, "Disabled", 0x10 },
	{ R_LNKCTL, "CommClk", 0x40 }, { R_LNKCTL, "ExtSynch", 0x80 },
	{ R_LNKCTL, "ClockPM", 0x100 }, { R_LNKCTL, "AutWidDis", 0x200 },
	{ R_LNKCTL, "BWInt", 0x400 }, { R_LNKCTL, "AutBWInt", 0x800 },
	{ R_LNKCTL, "FltModeDis", 0x2000 },
	{ R_LNKSTA, "TrErr", 0x400 }, { R_LNKSTA, "Train", 0x800 },
	{ R_LNKSTA, "SlotClk", 0x1000 }, { R_LNKSTA, "DLActive", 0x2000 },
	{ R_LNKSTA, "BWMgmt", 0x4000 }, { R_LNKSTA, "ABWMgmt", 0x8000 },
	{ R_LNKCAP2, "Crosslink", 0x100 }, { R_LNKCAP2, "Retimer", 0x800000 },
	{ R_LNKCAP2, "2Retimers", 0x1000000 },
	{ R_LNKCAP2, "DRS", 0x80000000u },
	{ R_LNKCTL2, "EnterCompliance", 0x10 }, { R_LNKCTL2, "SpeedDis", 0x20 },
	{ R_LNKSTA2, "EqualizationComplete", 0x02 },
	{ R_LNKSTA2, "EqualizationPhase1", 0x04 },
	{ R_LNKSTA2, "EqualizationPhase2", 0x08 },
	{ R_LNKSTA2, "EqualizationPhase3", 0x10 },
	{ R_LNKSTA2, "LinkEqualizationRequest", 0x20 },
	{ R_LNKSTA2, "Retimer", 0x40 }, { R_LNKSTA2, "2Retimers", 0x80 },
	{ R_LNKSTA2, "FltMode", 0x400 },
	{ R_ACSCAP, "SrcValid", 0x01 }, { R_ACSCAP, "TransBlk", 0x02 },
	{ R_ACSCAP, "ReqRedir", 0x04 }, { R_ACSCAP, "CmpltRedir", 0x08 },
	{ R_ACSCAP, "UpstreamFwd", 0x10 }, { R_ACSCAP, "EgressCtrl", 0x20 },
	{ R_ACSCAP, "DirectTrans", 0x40 },
	{ R_ACSCTL, "SrcValid", 0x01 }, { R_ACSCTL, "TransBlk", 0x02 },
	{ R_ACSCTL, "ReqRedir", 0x04 }, { R_ACSCTL, "CmpltRedir", 0x08 },
	{ R_ACSCTL, "UpstreamFwd", 0x10 }, { R_ACSCTL, "EgressCtrl", 0x20 },
	{ R_ACSCTL, "DirectTrans", 0x40 },
	{ R_CONTROL, "I/O", 0x1 }, { R_CONTROL, "Mem", 0x2 },
	{ R_CONTROL, "BusMaster", 0x4 }, { R_CONTROL, "SpecCycle", 0x8 },
	{ R_CONTROL, "MemWINV", 0x10 }, { R_CONTROL, "VGASnoop", 0x20 },
	{ R_CONTROL, "ParErr", 0x40 }, { R_CONTROL, "Stepping", 0x80 },
	{ R_CONTROL, "SERR", 0x100 }, { R_CONTROL, "FastB2B", 0x200 },
	{ R_CONTROL, "DisINTx", 0x400 },
};

static const struct {
	const char *label;
	enum reg reg;
} labels[] = {
	{ "DevCap:", R_DEVCAP }, { "DevCtl:", R_DEVCTL },
	{ "LnkCap:", R_LNKCAP }, { "LnkCtl:", R_LNKCTL },
	{ "LnkSta:", R_LNKSTA }, { "LnkCap2:", R_LNKCAP2 },
	{ "LnkCtl2:", R_LNKCTL2 }, { "LnkSta2:", R_LNKSTA2 },
	{ "ACSCap:", R_ACSCAP }, { "ACSCtl:", R_ACSCTL },
	{ "Control:", R_CONTROL },
};

static const struct {
	unsigned id;
	const char *name;	/* the start of lspci's text */
} std_caps[] = {
	{ 0x01, "Power Management" }, { 0x03, "Vital Product Data" },
	{ 0x05, "MSI:" }, { 0x09, "Vendor Specific Information" },
	{ 0x0d, "Subsystem:" }, { 0x10, "Express" }, { 0x11, "MSI-X:" },
	{ 0x13, "PCI Advanced Features" },
}, ext_caps[] = {
	{ 0x01, "Advanced Error Reporting" }, { 0x02, "Virtual Channel" },
	{ 0x03, "Device Serial Number" }, { 0x04, "Power Budgeting" },
	{ 0x0b, "Vendor Specific Information" },
	{ 0x0d, "Access Control Services" },
	{ 0x0e, "Alternative Routing-ID Interpretation" },
	{ 0x0f, "Address Translation Service" },
	{ 0x10, "Single Root I/O Virtualization" },
	{ 0x15, "Resizable BAR" }, { 0x17, "Transaction Processing Hints" },
	{ 0x18, "Latency Tolerance Reporting" },
	{ 0x19, "Secondary PCI Express" },
	{ 0x1b, "Process Address Space ID" },
	{ 0x1d, "Downstream Port Containment" }, { 0x1e, "L1 PM Substates" },
	{ 0x1f, "Precision Time Measurement" },
	{ 0x23, "Designated Vendor-Specific" }, { 0x25, "Data Link Feature" },
	{ 0x26, "Physical Layer 16.0 GT/s" },
	{ 0x27, "Lane Margining at the Receiver" },
	{ 0x2a, "Physical Layer 32.0 GT/s" },
};

static const char *const port_types[] = {
	"Endpoint", "Legacy Endpoint", NULL, NULL, "Root Port",
	"Upstream Port", "Downstream Port", "PCI-Express to PCI/PCI-X Bridge",
	"PCI/PCI-X to PCI-Express Bridge", "Root Complex Integrated Endpoint",
	"Root Complex Event Collector",
};

/* "2.5GT/s" ... "128GT/s" -> the LnkCap/LnkSta code, -1 if none */
static int speed_code(const char *s, const char **end)
{
	static const char *const t[] = { NULL, "2.5GT/s", "5GT/s", "8GT/s",
		"16GT/s", "32GT/s", "64GT/s", NULL, "128GT/s" };
	size_t i;

	for (i = 1; i < ARRAY_SIZE(t); i++)
		if (t[i] && starts_with(s, t[i])) {
			*end = s + strlen(t[i]);
			return (int)i;
		}
	if (starts_with(s, "unknown")) {
		*end = s + 7;
		return 0;
	}
	return -1;
}

/* the kernel's pci_speed_string() (current kernels) */
static const char *sysfs_speed(int code)
{
	static const char *const t[] = { "Unknown", "2.5 GT/s PCIe",
		"5.0 GT/s PCIe", "8.0 GT/s PCIe", "16.0 GT/s PCIe",
		"32.0 GT/s PCIe", "64.0 GT/s PCIe" };

	return code > 0 && code < (int)ARRAY_SIZE(t) ? t[code] : "Unknown";
}

static int hexval(const char *s, size_t n, long max, long *out)
{
	long v = 0;
	size_t i;

	if (!n || n > 8)
		return -1;
	for (i = 0; i < n; i++) {
		if (!isxdigit((unsigned char)s[i]))
			return -1;
		v = v * 16 + (isdigit((unsigned char)s[i]) ? s[i] - '0' :
			      (tolower((unsigned char)s[i]) - 'a' + 10));
	}
	if (v > max)
		return -1;
	*out = v;
	return 0;
}

/* "[dddd:]bb:dd.f " at the start of a line */
static int parse_bdf(const char *s, struct fn *f, const char **rest)
{
	long d = 0, b, dv, fn;
	const char *p = s;

	if (strlen(s) > 13 && s[4] == ':' && s[7] == ':' && s[10] == '.') {
		if (hexval(s, 4, 0xffff, &d) < 0)
			return -1;
		p = s + 5;
	}
	if (strlen(p) < 8 || p[2] != ':' || p[5] != '.' || p[7] != ' ' ||
	    hexval(p, 2, 0xff, &b) < 0 || hexval(p + 3, 2, 0x1f, &dv) < 0 ||
	    hexval(p + 6, 1, 7, &fn) < 0)
		return -1;
	f->dom = (unsigned)d;
	f->bus = (unsigned)b;
	f->dev = (unsigned)dv;
	f->func = (unsigned)fn;
	snprintf(f->bdf, sizeof(f->bdf), "%04x:%02x:%02x.%x", f->dom, f->bus,
		 f->dev, f->func);
	*rest = p + 8;
	return 0;
}

/* "[vvvv:dddd]" at s (9 hex/colon chars inside brackets) */
static int id_pair(const char *s, long *a, long *b)
{
	return s[0] == '[' && strlen(s) >= 11 && s[5] == ':' && s[10] == ']' &&
	       !hexval(s + 1, 4, 0xffff, a) && !hexval(s + 6, 4, 0xffff, b) ?
	       0 : -1;
}

/* the device line after the address: "Class [cccc]: Vendor Device
 * [vvvv:dddd] (rev rr) (prog-if pp [...])", or -n's "cccc: vvvv:dddd" */
static int device_line(const char *rest, struct fn *f)
{
	char cls[128], ven[512];
	const char *colon = strstr(rest, ": "), *p;
	size_t n;
	unsigned u;
	long a, b;

	if (!colon || (size_t)(colon - rest) >= sizeof(cls) ||
	    strlen(colon + 2) >= sizeof(ven))
		return -1;
	memcpy(cls, rest, (size_t)(colon - rest));
	cls[colon - rest] = 0;
	snprintf(ven, sizeof(ven), "%s", colon + 2);
	n = strlen(cls);
	if (n > 7 && cls[n - 1] == ']' && cls[n - 6] == '[' &&
	    !hexval(cls + n - 5, 4, 0xffff, &a)) {
		f->cls = a;
	} else if (!hexval(cls, n, 0xffff, &a) && n == 4) {
		f->cls = a;
	} else if (starts_with(cls, "Class ") &&
		   !hexval(cls + 6, strlen(cls + 6), 0xffff, &a)) {
		f->cls = a;
	} else if (!pci_class_by_name(cls, &u)) {
		f->cls = (int)u;
	}
	/* trailing "(prog-if 00 [Normal decode])", then "(rev 04)" */
	if ((p = strstr(ven, " (prog-if ")) && !hexval(p + 10, 2, 0xff, &a)) {
		f->progif = a;
		ven[p - ven] = 0;
	}
	n = strlen(ven);
	if (n > 9 && !strcmp(ven + n - 1, ")") && !strncmp(ven + n - 9, " (rev ", 6) &&
	    !hexval(ven + n - 3, 2, 0xff, &a)) {
		f->rev = a;
		ven[n - 9] = 0;
		n -= 9;
	}
	if (n >= 11 && !id_pair(ven + n - 11, &a, &b)) {		/* -nn */
		f->vendor = a;
		f->device = b;
		return 0;
	}
	if (n == 9 && ven[4] == ':' && !hexval(ven, 4, 0xffff, &a) &&
	    !hexval(ven + 5, 4, 0xffff, &b)) {			/* -n */
		f->vendor = a;
		f->device = b;
		return 0;
	}
	if (starts_with(ven, "Device ") && n == 16 && ven[11] == ':' &&
	    !hexval(ven + 7, 4, 0xffff, &a) && !hexval(ven + 12, 4, 0xffff, &b)) {
		f->vendor = a;		/* no pci.ids at all */
		f->device = b;
		return 0;
	}
	/* names without -n: the ones pciids.c knows */
	if ((n = pci_vendor_by_name(ven, &u))) {
		f->vendor = (int)u;
		p = ven + n + 1;
		if (starts_with(p, "Device ") && strlen(p) == 11 &&
		    !hexval(p + 7, 4, 0xffff, &a))
			f->device = a;
		else if (!pci_device_by_name(u, p, &u))
			f->device = (int)u;
	}
	return 0;
}

/* "Name+" / "Name-" tokens of a register's text */
static void parse_flags(enum reg r, const char *s, uint32_t *v)
{
	char tok[64];

	while (*s) {
		size_t n = strcspn(s, " \t,;");
		size_t i;

		if (n > 1 && n < sizeof(tok) && (s[n - 1] == '+' || s[n - 1] == '-')) {
			memcpy(tok, s, n - 1);
			tok[n - 1] = 0;
			for (i = 0; i < ARRAY_SIZE(flags); i++)
				if (flags[i].reg == r && !strcmp(flags[i].name, tok)) {
					if (s[n - 1] == '+')
						*v |= flags[i].bit;
					else
						*v &= ~flags[i].bit;
				}
		}
		s += n;
		s += strspn(s, " \t,;");
	}
}

/* "512 bytes" -> the 3-bit size code of DevCap/DevCtl (128 << code) */
static int size_code(const char *s)
{
	size_t n = strspn(s, "0123456789");
	int code;

	if (!n || n > 4 || strncmp(s + n, " bytes", 6))
		return -1;
	for (code = 0; code < 6; code++)
		if (atoi(s) == 128 << code)
			return code;
	return -1;
}

static int latency_code(const char *s, int l1)
{
	static const char *const l0s[] = { "<64ns", "<128ns", "<256ns",
		"<512ns", "<1us", "<2us", "<4us", "unlimited" };
	static const char *const l1s[] = { "<1us", "<2us", "<4us", "<8us",
		"<16us", "<32us", "<64us", "unlimited" };
	const char *const *t = l1 ? l1s : l0s;
	size_t n = strcspn(s, ", "), i;

	for (i = 0; i < 8; i++)
		if (strlen(t[i]) == n && !strncmp(s, t[i], n))
			return (int)i;
	return -1;
}

static void lnkcap(struct fn *f, const char *s)
{
	const char *p, *e;
	uint32_t v = f->lnkcap;
	int c, w;

	if ((p = strstr(s, "Port #")))
		v = (v & 0x00ffffff) | (uint32_t)(atoi(p + 6) & 0xff) << 24;
	if ((p = strstr(s, "Speed ")) && (c = speed_code(p + 6, &e)) >= 0)
		v = (v & ~0xfu) | (uint32_t)c;
	if ((p = strstr(s, "Width x")) && (w = atoi(p + 7)) > 0 && w <= 32)
		v = (v & ~0x3f0u) | (uint32_t)w << 4;
	if ((p = strstr(s, "ASPM "))) {
		int a = starts_with(p + 5, "L0s L1") ? 3 :
			starts_with(p + 5, "L0s") ? 1 :
			starts_with(p + 5, "L1") ? 2 : 0;

		v = (v & ~0xc00u) | (uint32_t)a << 10;
	}
	if ((e = strstr(s, "Exit Latency "))) {
		if ((p = strstr(e, "L0s ")) && (c = latency_code(p + 4, 0)) >= 0)
			v = (v & ~0x7000u) | (uint32_t)c << 12;
		if ((p = strstr(e, "L1 ")) && (c = latency_code(p + 3, 1)) >= 0)
			v = (v & ~0x38000u) | (uint32_t)c << 15;
	}
	f->lnkcap = v;
	f->has_lnkcap = 1;
}

static void lnksta(struct fn *f, const char *s)
{
	const char *p, *e;
	int c, w;

	if ((p = strstr(s, "Speed ")) && (c = speed_code(p + 6, &e)) >= 0)
		f->lnksta = (uint16_t)((f->lnksta & ~0xfu) | (unsigned)c);
	if ((p = strstr(s, "Width x")) && (w = atoi(p + 7)) >= 0 && w <= 32)
		f->lnksta = (uint16_t)((f->lnksta & ~0x3f0u) | (unsigned)w << 4);
	f->has_lnksta = 1;
}

/* "Supported Link Speeds: 2.5-16GT/s" -> the LnkCap2 vector */
static void lnkcap2(struct fn *f, const char *s)
{
	const char *p = strstr(s, "Supported Link Speeds: "), *e;
	int top;

	if (!p)
		return;
	p += 23;
	if (starts_with(p, "2.5-"))
		p += 4;
	top = speed_code(p, &e);
	if (top > 0)
		f->lnkcap2 = (f->lnkcap2 & ~0xfeu) |
			     (((1u << (top == 8 ? 7 : top)) - 1) << 1);
	f->has_link2 = 1;
}

static void set_size(uint32_t *v, int shift, const char *s, const char *key)
{
	const char *p = strstr(s, key);
	int c;

	if (p && (c = size_code(p + strlen(key))) >= 0)
		*v = (*v & ~(7u << shift)) | (uint32_t)c << shift;
}

static void reg_text(struct fn *f, enum reg r, const char *s)
{
	uint32_t v;
	const char *p, *e;
	int c;

	switch (r) {
	case R_DEVCAP:
		set_size(&f->devcap, 0, s, "MaxPayload ");
		parse_flags(r, s, &f->devcap);
		break;
	case R_DEVCTL:
		v = f->devctl;
		set_size(&v, 5, s, "MaxPayload ");
		set_size(&v, 12, s, "MaxReadReq ");
		parse_flags(r, s, &v);
		f->devctl = (uint16_t)v;
		break;
	case R_LNKCAP:
		lnkcap(f, s);
		parse_flags(r, s, &f->lnkcap);
		break;
	case R_LNKCTL:
		v = f->lnkctl;
		if ((p = strstr(s, "ASPM ")))
			v = (v & ~3u) | (starts_with(p + 5, "L0s L1") ? 3u :
					 starts_with(p + 5, "L0s") ? 1u :
					 starts_with(p + 5, "L1") ? 2u : 0u);
		if (strstr(s, "RCB 128 bytes"))
			v |= 0x8;
		parse_flags(r, s, &v);
		f->lnkctl = (uint16_t)v;
		break;
	case R_LNKSTA:
		lnksta(f, s);
		v = f->lnksta;
		parse_flags(r, s, &v);
		f->lnksta = (uint16_t)v;
		break;
	case R_LNKCAP2:
		lnkcap2(f, s);
		parse_flags(r, s, &f->lnkcap2);
		break;
	case R_LNKCTL2:
		v = f->lnkctl2;
		if ((p = strstr(s, "Target Link Speed: ")) &&
		    (c = speed_code(p + 19, &e)) > 0)
			v = (v & ~0xfu) | (uint32_t)c;
		parse_flags(r, s, &v);
		f->lnkctl2 = (uint16_t)v;
		f->has_link2 = 1;
		break;
	case R_LNKSTA2:
		v = f->lnksta2;
		if (strstr(s, "De-emphasis Level: -3.5dB"))
			v |= 1;
		if ((p = strstr(s, "CrosslinkRes: ")))
			v = (v & ~0x300u) |
			    (starts_with(p + 14, "Upstream Port") ? 0x100u :
			     starts_with(p + 14, "Downstream Port") ? 0x200u :
			     starts_with(p + 14, "incomplete") ? 0x300u : 0u);
		parse_flags(r, s, &v);
		f->lnksta2 = (uint16_t)v;
		f->has_link2 = 1;
		break;
	case R_ACSCAP:
		v = f->acs_cap;
		parse_flags(r, s, &v);
		f->acs_cap = (uint16_t)v;
		break;
	case R_ACSCTL:
		v = f->acs_ctl;
		parse_flags(r, s, &v);
		f->acs_ctl = (uint16_t)v;
		f->acs_shown = 1;
		break;
	case R_CONTROL:
		v = f->command;
		parse_flags(r, s, &v);
		f->command = v;
		break;
	case R_NONE:
		break;
	}
}

/* "Capabilities: [60] Express (v2) Endpoint, ..." and "[148 v1] ..." */
static void capability(struct fn *f, const char *s)
{
	const char *e = strchr(s, ']'), *name;
	size_t n, i;
	long off, ver = 0;

	if (!strcmp(s, "<access denied>")) {
		f->denied = 1;
		return;
	}
	if (*s != '[' || !e)
		return;
	n = strcspn(s + 1, " ]");
	if (hexval(s + 1, n, 0xfff, &off) < 0 || off < 0x40)
		return;
	if (s[1 + n] == ' ' && s[2 + n] == 'v')
		ver = atol(s + 3 + n) & 0xf;
	name = e[1] == ' ' ? e + 2 : e + 1;
	if (n <= 2 && off < 0x100) {
		for (i = 0; i < ARRAY_SIZE(std_caps); i++)
			if (starts_with(name, std_caps[i].name) &&
			    f->nstd < MAX_CAPS) {
				struct cap *c = &f->std[f->nstd++];

				c->off = (unsigned)off;
				c->id = std_caps[i].id;
				if (c->id != 0x10 || f->exp >= 0)
					return;
				f->exp = f->nstd - 1;
				name = ih_skip(name + 7);
				if (starts_with(name, "(v")) {
					f->exp_ver = atoi(name + 2) & 0xf;
					name = strchr(name, ')');
					name = name ? ih_skip(name + 1) : "";
				} else {
					f->exp_ver = 1;
				}
				for (n = 0; n < ARRAY_SIZE(port_types); n++)
					if (port_types[n] &&
					    starts_with(name, port_types[n]) &&
					    strchr(", (", name[strlen(port_types[n])]))
						f->exp_type = (int)n;
				return;
			}
		return;
	}
	if (off < 0x100 || off > 0xffc)
		return;
	for (i = 0; i < ARRAY_SIZE(ext_caps); i++)
		if (starts_with(name, ext_caps[i].name) && f->next_ < MAX_CAPS) {
			struct cap *c = &f->ext[f->next_++];

			c->off = (unsigned)off;
			c->id = ext_caps[i].id;
			c->ver = (unsigned)ver;
			if (c->id == 0x0d && f->acs < 0)
				f->acs = f->next_ - 1;
			return;
		}
}

/* "00: b3 15 1d 10 ..." (lspci -x ... -xxxx); 0 if it is one */
static int hex_line(const char *s, struct fn *f)
{
	long off, b;
	size_t n = strcspn(s, ":"), i;

	if (n < 2 || n > 3 || hexval(s, n, 0xff0, &off) < 0 || off % 16 ||
	    strlen(s) != n + 1 + 16 * 3)
		return -1;
	for (i = 0; i < 16; i++)
		if (s[n + 1 + i * 3] != ' ' ||
		    hexval(s + n + 2 + i * 3, 2, 0xff, &b) < 0)
			return -1;
	if (!f->hex) {
		f->hex = calloc(1, CFG_EXT);
		if (!f->hex)
			return -2;
	}
	if ((size_t)off != f->hexlen)	/* a gap: what follows is not kept */
		return 0;
	for (i = 0; i < 16; i++) {
		hexval(s + n + 2 + i * 3, 2, 0xff, &b);
		f->hex[off + (long)i] = (unsigned char)b;
	}
	f->hexlen += 16;
	return 0;
}

/* the depth of a line: lspci indents with tabs, pastes often with 8
 * spaces a tab */
static int indent(const char *s)
{
	int tabs = 0, spaces = 0;

	for (; *s == '\t' || *s == ' '; s++)
		*s == '\t' ? tabs++ : spaces++;
	return tabs + spaces / 8;
}

/* s: a line below a device line; a register's continuation lines are
 * deeper than its label (three tabs, the label two, attributes one) */
static void attr_line(struct fn *f, const char *line, enum reg *cur)
{
	char word[32];
	const char *s = ih_skip(line);
	size_t n = strcspn(s, " \t");
	int depth = indent(line);
	long a, b;
	size_t i;

	if (depth <= 1)
		*cur = R_NONE;
	if (depth >= 3 && *cur != R_NONE) {		/* a continuation */
		reg_text(f, *cur, s);
		return;
	}
	if (n && n < sizeof(word) && s[n - 1] == ':') {	/* a new label */
		memcpy(word, s, n);
		word[n] = 0;
		*cur = R_NONE;
		for (i = 0; i < ARRAY_SIZE(labels); i++)
			if (!strcmp(word, labels[i].label))
				*cur = labels[i].reg;
		if (*cur != R_NONE) {
			reg_text(f, *cur, ih_skip(s + n));
			return;
		}
	}
	if (starts_with(s, "Capabilities: "))
		capability(f, s + 14);
	else if (starts_with(s, "NUMA node: ")) {
		f->numa = atoi(s + 11);
		f->has_numa = strspn(s + 11, "0123456789") == strlen(s + 11) &&
			      strlen(s + 11) <= 4;
	} else if (starts_with(s, "Kernel driver in use: ") &&
		   strlen(s + 22) < sizeof(f->driver) &&
		   strspn(s + 22, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") ==
		   strlen(s + 22)) {
		snprintf(f->driver, sizeof(f->driver), "%s", s + 22);
	} else if (starts_with(s, "Bus: primary=")) {
		const char *p = strstr(s, "secondary="), *q = strstr(s, "subordinate=");

		if (p && q && !hexval(p + 10, 2, 0xff, &a) &&
		    !hexval(q + 12, 2, 0xff, &b)) {
			f->sec = (int)a;
			f->sub = (int)b;
			f->bridge = 1;
		}
	} else if (starts_with(s, "Status: ")) {
		f->cap_list = strstr(s, "Cap+") != NULL;
	} else if (starts_with(s, "Subsystem: ")) {
		n = strlen(s);
		if (n > 11 + 11 && !id_pair(s + n - 11, &a, &b)) {
			f->svendor = a;
			f->sdevice = b;
		}
	}
}

static void put16(unsigned char *c, unsigned off, unsigned v)
{
	c[off] = (unsigned char)v;
	c[off + 1] = (unsigned char)(v >> 8);
}

static void put32(unsigned char *c, unsigned off, uint32_t v)
{
	put16(c, off, v & 0xffff);
	put16(c, off + 2, v >> 16);
}

/* the configuration space the text describes; returns its length */
static size_t synthesize(const struct fn *f, unsigned char *c)
{
	size_t len = 64;
	int i;

	memset(c, 0, CFG_EXT);
	put16(c, 0, f->vendor >= 0 ? (unsigned)f->vendor : 0xffff);
	put16(c, 2, f->device >= 0 ? (unsigned)f->device : 0xffff);
	put16(c, 4, f->command);
	c[8] = f->rev >= 0 ? (unsigned char)f->rev : 0;
	c[9] = f->progif >= 0 ? (unsigned char)f->progif : 0;
	put16(c, 0x0a, f->cls >= 0 ? (unsigned)f->cls : 0xff00);
	c[0x0e] = f->bridge ? 1 : 0;
	if (f->bridge) {
		c[0x18] = (unsigned char)f->bus;
		c[0x19] = (unsigned char)(f->sec >= 0 ? f->sec : 0);
		c[0x1a] = (unsigned char)(f->sub >= 0 ? f->sub : 0);
	}
	if (f->denied || (!f->nstd && !f->next_))
		return len;
	len = f->next_ || f->exp >= 0 ? CFG_EXT : 256;
	if (f->nstd) {
		c[6] |= 0x10;		/* PCI_STATUS_CAP_LIST */
		c[0x34] = (unsigned char)f->std[0].off;
	}
	for (i = 0; i < f->nstd; i++) {
		c[f->std[i].off] = (unsigned char)f->std[i].id;
		c[f->std[i].off + 1] = i + 1 < f->nstd ?
				       (unsigned char)f->std[i + 1].off : 0;
	}
	if (f->exp >= 0) {
		unsigned o = f->std[f->exp].off;

		if (o <= 0x100 - 0x34) {	/* the registers fit */
			put16(c, o + 2, (unsigned)(f->exp_ver |
						   (f->exp_type << 4)));
			put32(c, o + 0x04, f->devcap);
			put16(c, o + 0x08, f->devctl);
			put32(c, o + 0x0c, f->lnkcap);
			put16(c, o + 0x10, f->lnkctl);
			put16(c, o + 0x12, f->lnksta);
			if (f->exp_ver >= 2) {
				put32(c, o + 0x2c, f->lnkcap2);
				put16(c, o + 0x30, f->lnkctl2);
				put16(c, o + 0x32, f->lnksta2);
			}
		}
	}
	/* the extended chain starts at 0x100: a Null header leads to the
	 * first capability shown when it is elsewhere */
	if (f->next_ && f->ext[0].off != 0x100)
		put32(c, 0x100, (uint32_t)f->ext[0].off << 20);
	for (i = 0; i < f->next_; i++) {
		const struct cap *x = &f->ext[i];
		uint32_t next = i + 1 < f->next_ ? f->ext[i + 1].off : 0;

		/* ACS named without its registers (lspci -v, or cut):
		 * a Null capability, not a control of 0 nobody read */
		if (i == f->acs && !f->acs_shown) {
			put32(c, x->off, next << 20);
			continue;
		}
		put32(c, x->off, x->id | x->ver << 16 | next << 20);
		if (i == f->acs && x->off + 8 <= CFG_EXT) {
			put16(c, x->off + 4, f->acs_cap);
			put16(c, x->off + 6, f->acs_ctl);
		}
	}
	return len;
}

/* a dump is the device's own bytes: its ids win over names read back
 * from the text, and the link registers come from it when the text did
 * not show them (lspci -xxxx alone prints no capabilities) */
static void from_dump(struct fn *f)
{
	const unsigned char *h = f->hex;
	struct pcicfg c;

	if (h && f->hexlen < 64)	/* shorter than the header: not one */
		f->hexlen = 0;
	if (!h || !f->hexlen)
		return;
	f->vendor = h[0] | h[1] << 8;
	f->device = h[2] | h[3] << 8;
	f->cls = h[0x0a] | h[0x0b] << 8;
	f->progif = h[9];
	f->rev = h[8];
	if ((h[0x0e] & 0x7f) == 1 && f->sec < 0) {
		f->bridge = 1;
		f->sec = h[0x19];
		f->sub = h[0x1a];
	}
	pcicfg_parse(h, f->hexlen, &c);
	if (!c.has_exp)
		return;
	if (f->exp < 0 && f->nstd < MAX_CAPS) {
		f->std[f->nstd].off = c.exp_off;
		f->std[f->nstd].id = 0x10;
		f->exp = f->nstd++;
		f->exp_ver = c.exp_version;
		f->exp_type = c.port_type;
	}
	f->lnkcap = c.lnkcap;
	f->lnksta = c.lnksta;
	f->has_lnkcap = f->has_lnksta = 1;
	if (c.has_link2) {
		f->lnkcap2 = c.lnkcap2;
		f->has_link2 = 1;
	}
}

static void fn_init(struct fn *f)
{
	memset(f, 0, sizeof(*f));
	f->vendor = f->device = f->cls = f->rev = f->progif = -1;
	f->svendor = f->sdevice = -1;
	f->sec = f->sub = -1;
	f->parent = -1;
	f->exp = f->acs = -1;
}

/* the bridge each function sits behind (see the file's comment) */
static int tree(struct fn *v, int n)
{
	int i, k, inferred = 0;

	for (i = 0; i < n; i++) {
		if (v[i].bridge || (v[i].cls == 0x0604 && v[i].exp_type >= 4 &&
				    v[i].exp_type <= 6))
			v[i].bridge = 1;
	}
	for (i = 0; i < n; i++) {
		int best = -1;

		for (k = 0; k < n; k++)
			if (k != i && v[k].bridge && v[k].sec >= 0 &&
			    v[k].dom == v[i].dom && (unsigned)v[k].sec == v[i].bus &&
			    (best < 0 || v[k].sub - v[k].sec < v[best].sub - v[best].sec))
				best = k;
		v[i].parent = best;
	}
	/* bridges without a Bus: line, in address order */
	for (k = 0; k < n; k++) {
		int bus = 256;

		if (!v[k].bridge || v[k].sec >= 0 || v[k].exp_type < 4 ||
		    v[k].exp_type > 6)
			continue;
		for (i = 0; i < n; i++)
			if (v[i].parent < 0 && v[i].dom == v[k].dom &&
			    v[i].bus > v[k].bus && (int)v[i].bus < bus) {
				int j, other = 0;

				/* not a bus that is a root bus of its own */
				for (j = 0; j < n; j++)
					if (v[j].bus == v[i].bus &&
					    v[j].exp_type == 4)
						other = 1;
				if (!other)
					bus = (int)v[i].bus;
			}
		if (bus == 256)
			continue;
		v[k].sec = v[k].sub = bus;
		inferred = 1;
		for (i = 0; i < n; i++)
			if (v[i].parent < 0 && v[i].dom == v[k].dom &&
			    (int)v[i].bus == bus && i != k)
				v[i].parent = k;
	}
	/* a loop (hostile Bus: lines) makes everyone a root */
	for (i = 0; i < n; i++) {
		int hops = 0, p = v[i].parent;

		while (p >= 0 && hops++ <= n)
			p = v[p].parent;
		if (p >= 0)
			v[i].parent = -1;
	}
	return inferred;
}

/* "pci0000:16/0000:16:02.0/0000:17:00.0" */
static int fn_path(const struct fn *v, int i, char *out, size_t n)
{
	int chain[64], k = 0, p = i;
	size_t len;

	while (p >= 0 && k < 64) {
		chain[k++] = p;
		p = v[p].parent;
	}
	if (p >= 0)
		return -1;
	p = chain[k - 1];
	if (check_snprintf(out, n, "pci%04x:%02x", v[p].dom, v[p].bus) < 0)
		return -1;
	while (k--) {
		len = strlen(out);
		if (check_snprintf(out + len, n - len, "/%s", v[chain[k]].bdf) < 0)
			return -1;
	}
	return 0;
}

/* width: hex digits after "0x" as sysfs prints them, 0 for decimal */
static int put_attr(struct imp *im, const char *origin, const char *dir,
		    const char *name, int width, long v)
{
	char p[512], val[32];

	if (width)
		snprintf(val, sizeof(val), "0x%0*lx", width, v);
	else
		snprintf(val, sizeof(val), "%ld", v);
	if (check_snprintf(p, sizeof(p), "%s/%s", dir, name) < 0)
		return -1;
	return imp_putf(im, origin, p, "%s\n", val);
}

static int emit_fn(struct imp *im, const struct fn *v, int i,
		   const char *origin, unsigned char *cfg)
{
	const struct fn *f = &v[i];
	char rel[512], dir[600], link[128], tgt[700], p[700];
	const char *s;
	size_t len;
	int rc = 0, depth = 0;

	if (fn_path(v, i, rel, sizeof(rel)) < 0 ||
	    check_snprintf(dir, sizeof(dir), "sys/devices/%s", rel) < 0)
		return -1;
	snprintf(link, sizeof(link), "sys/bus/pci/devices/%s", f->bdf);
	snprintf(tgt, sizeof(tgt), "../../../devices/%s", rel);
	rc = imp_link(im, link, tgt, origin);
	if (f->hex && f->hexlen) {
		memcpy(cfg, f->hex, f->hexlen);
		len = f->hexlen;
	} else {
		len = synthesize(f, cfg);
	}
	snprintf(p, sizeof(p), "%s/config", dir);
	if (!rc)
		rc = imp_put(im, p, (const char *)cfg, len, origin, IMP_DERIVED);
	if (!rc && f->vendor >= 0)
		rc = put_attr(im, origin, dir, "vendor", 4, f->vendor);
	if (!rc && f->device >= 0)
		rc = put_attr(im, origin, dir, "device", 4, f->device);
	if (!rc && f->cls >= 0)
		rc = put_attr(im, origin, dir, "class", 6,
			      f->cls << 8 | (f->progif >= 0 ? f->progif : 0));
	if (!rc && f->rev >= 0)
		rc = put_attr(im, origin, dir, "revision", 2, f->rev);
	if (!rc && f->svendor >= 0)
		rc = put_attr(im, origin, dir, "subsystem_vendor", 4,
			      f->svendor);
	if (!rc && f->sdevice >= 0)
		rc = put_attr(im, origin, dir, "subsystem_device", 4,
			      f->sdevice);
	if (!rc && f->has_numa)
		rc = put_attr(im, origin, dir, "numa_node", 0, f->numa);
	if (!rc && f->exp >= 0 && f->has_lnksta) {
		/* the kernel's strings: current from LnkSta, max from
		 * LnkCap2's vector when it has one (pcie_get_speed_cap) */
		int top = 0, k;

		for (k = 6; k >= 0 && !top; k--)
			if (f->lnkcap2 & (2u << k))
				top = k == 6 ? 8 : k + 1;
		if (!top)
			top = (int)(f->lnkcap & 0xf);
		snprintf(p, sizeof(p), "%s/current_link_speed", dir);
		rc = imp_putf(im, origin, p, "%s\n", sysfs_speed(f->lnksta & 0xf));
		if (!rc)
			rc = put_attr(im, origin, dir, "current_link_width", 0,
				      (f->lnksta >> 4) & 0x3f);
		snprintf(p, sizeof(p), "%s/max_link_speed", dir);
		if (!rc && f->has_lnkcap)
			rc = imp_putf(im, origin, p, "%s\n", sysfs_speed(top));
		if (!rc && f->has_lnkcap)
			rc = put_attr(im, origin, dir, "max_link_width", 0,
				      (f->lnkcap >> 4) & 0x3f);
	}
	if (!rc && f->driver[0]) {
		/* "../../../../bus/pci/drivers/mlx5_core": up to sys/ */
		for (s = dir; *s; s++)
			depth += *s == '/';
		tgt[0] = 0;
		while (depth-- > 0)
			strcat(tgt, "../");
		len = strlen(tgt);
		snprintf(tgt + len, sizeof(tgt) - len, "bus/pci/drivers/%s",
			 f->driver);
		snprintf(p, sizeof(p), "%s/driver", dir);
		rc = imp_link(im, p, tgt, origin);
	}
	return rc;
}

/* ACSCtl lines with no function above them: `lspci -vvv | grep ACSCtl`
 * (a NCCL troubleshooting step).  Each is one function's ACS control, but
 * not which function: kept as lines, in lspci's own words, at
 * rdma-collect/import/acsctl.txt (load-pci.c counts them) */
#define MAX_LOOSE 4096

struct loose {
	uint16_t ctl[MAX_LOOSE];
	int n, lost;
};

static int loose_acs(struct loose *lo, const char *line)
{
	const char *s = ih_skip(line);
	uint32_t v = 0;

	if (!starts_with(s, "ACSCtl:"))
		return 0;
	if (lo->n == MAX_LOOSE) {
		lo->lost++;
		return 1;
	}
	parse_flags(R_ACSCTL, s + 7, &v);
	lo->ctl[lo->n++] = (uint16_t)v;
	return 1;
}

static int emit_loose(struct imp *im, const struct loose *lo,
		      const char *origin)
{
	static const char *const names[] = { "SrcValid", "TransBlk",
		"ReqRedir", "CmpltRedir", "UpstreamFwd", "EgressCtrl",
		"DirectTrans" };
	struct buf b = BUF_INIT;
	int i, k, rc;

	for (i = 0; i < lo->n; i++) {
		buf_addstr(&b, "ACSCtl:");
		for (k = 0; k < (int)ARRAY_SIZE(names); k++)
			buf_addf(&b, "%c%s%c", k ? ' ' : '\t', names[k],
				 lo->ctl[i] & (1u << k) ? '+' : '-');
		buf_addstr(&b, "\n");
	}
	rc = imp_put(im, "rdma-collect/import/acsctl.txt", b.buf, b.len, origin,
		     IMP_DERIVED);
	buf_release(&b);
	if (!rc && lo->lost)
		imp_dropped(im, "%s: %d ACSCtl lines past the first %d left out",
			    origin, lo->lost, MAX_LOOSE);
	if (!rc)
		imp_note(im, "%s: %d ACSCtl lines without their functions "
			 "(lspci -vvv | grep ACSCtl): no function, link or "
			 "topology is known", origin, lo->n);
	if (!rc)
		imp_source(im, SOURCE_PCI,
			   "partial", "lspci's ACSCtl lines only: "
			   "which functions they belong to is not known");
	return rc;
}

static void note_left_out(struct imp *im, const char *origin, int skipped)
{
	if (skipped)
		imp_note(im, "%s: %d lines that are not lspci's left out",
			 origin, skipped);
}

/* lspci -t's "-[0000:00]-+-00.0": a tree, not -vvv (not read) */
static int is_tree(const char *text, size_t len)
{
	size_t i = 0;

	while (i < len && (text[i] == ' ' || text[i] == '+' ||
			   text[i] == '\\' || text[i] == '-'))
		i++;
	return i && i < len && text[i] == '[';
}

int ih_lspci(struct imp *im, const char *text, size_t len,
	     const char *origin, const char *arg)
{
	struct ih_lines it;
	struct ih_line *l = malloc(sizeof(*l));
	struct fn *v = calloc(MAX_FUNCS, sizeof(*v));
	unsigned char *cfg = malloc(CFG_EXT);
	struct loose *lo = calloc(1, sizeof(*lo));
	enum reg cur = R_NONE;
	int n = 0, i, rc = 1, skipped = 0, lead = 0;

	(void)arg;
	if (!l || !v || !cfg || !lo) {
		rc = -1;
		goto out;
	}
	if (is_tree(text, len))
		goto out;
	ih_lines_init(&it, text, len);
	while (ih_next(&it, l)) {
		const char *rest;
		int h;

		if (!l->len)
			continue;
		if (!n && loose_acs(lo, l->s))
			continue;
		if (l->s[0] != ' ' && l->s[0] != '\t') {
			if (n && (h = hex_line(l->s, &v[n - 1])) != -1) {
				if (h == -2) {
					rc = -1;
					goto out;
				}
				/* a cut dump row is not kept */
				if (l->unterminated && v[n - 1].hexlen)
					v[n - 1].hexlen -= 16;
				continue;
			}
			if (n == MAX_FUNCS) {
				skipped++;
				continue;
			}
			fn_init(&v[n]);
			if (parse_bdf(l->s, &v[n], &rest) < 0 ||
			    device_line(rest, &v[n]) < 0) {
				/* lspci's own warnings first ("lspci: Unable
				 * to load libkmod resources"), a prompt or a
				 * heading: a few lines are let go */
				if (!n && !lo->n && ++lead > 5)
					goto out;	/* not lspci */
				if (!n && !lo->n)
					continue;
				skipped++;
				cur = R_NONE;
				continue;
			}
			n++;
			cur = R_NONE;
			continue;
		}
		if (n && !l->cut)
			attr_line(&v[n - 1], l->s, &cur);
	}
	if (!n) {
		if (lo->n)
			rc = emit_loose(im, lo, origin);
		if (lo->n && !rc)
			note_left_out(im, origin, skipped);
		goto out;
	}
	for (i = 0; i < n; i++)
		from_dump(&v[i]);
	if (tree(v, n))
		imp_note(im, "%s: no Bus: lines; the bridges above the "
			 "functions were inferred from the bus numbers", origin);
	rc = 0;
	for (i = 0; i < n && !rc; i++)
		rc = emit_fn(im, v, i, origin, cfg);
	if (!rc)
		note_left_out(im, origin, skipped);
	if (!rc)
		imp_source(im, SOURCE_PCI, "ok", "");
out:
	for (i = 0; v && i < n; i++)
		free(v[i].hex);
	free(lo);
	free(cfg);
	free(v);
	free(l);
	return rc;
}
