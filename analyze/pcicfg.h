/* pcicfg: decode a PCI function's configuration space as collected
 * (sysfs `config`: 4096 bytes as root, 64 otherwise), the way lspci's
 * ls-caps.c / ls-ecaps.c read it: the capability list (PCI Express
 * capability 0x10: port type, LnkCap, LnkSta, LnkCap2, LnkCtl2, LnkSta2)
 * and the extended capabilities from 0x100 (ACS 0x000d).
 *
 * The bytes are hostile: every read is bounded by the length actually
 * collected, capability chains that loop or point outside the space stop
 * the walk.  A 64-byte space (non-root) simply has no PCIe data: has_exp
 * is 0 and short is 1, which is "not collected", not "degraded".
 */
#ifndef RDMA_ANALYZE_PCICFG_H
#define RDMA_ANALYZE_PCICFG_H

#include <stddef.h>
#include <stdint.h>

/* PCI Express port types (PCI_EXP_FLAGS_TYPE) */
enum {
	PCIE_TYPE_ENDPOINT = 0,
	PCIE_TYPE_LEG_END = 1,
	PCIE_TYPE_ROOT_PORT = 4,
	PCIE_TYPE_UPSTREAM = 5,
	PCIE_TYPE_DOWNSTREAM = 6,
	PCIE_TYPE_PCI_BRIDGE = 7,
	PCIE_TYPE_PCIE_BRIDGE = 8,
};

/* ACS capability / control bits (same positions in both registers) */
#define PCI_ACS_SV	0x0001	/* SrcValid */
#define PCI_ACS_TB	0x0002	/* TransBlk */
#define PCI_ACS_RR	0x0004	/* ReqRedir */
#define PCI_ACS_CR	0x0008	/* CmpltRedir */
#define PCI_ACS_UF	0x0010	/* UpstreamFwd */
#define PCI_ACS_EC	0x0020	/* EgressCtrl */
#define PCI_ACS_DT	0x0040	/* DirectTrans */

struct pcicfg {
	size_t len;		/* bytes collected */
	int short_space;	/* too short for capabilities (64 bytes) */
	int looped;		/* a capability chain looped or left the space */
	uint16_t vendor, device;
	uint8_t header_type;	/* without the multi-function bit */

	int has_exp;		/* PCI Express capability found and readable */
	unsigned exp_off;
	int exp_version;
	int port_type;		/* PCIE_TYPE_*, -1 without has_exp */
	uint32_t lnkcap;
	uint16_t lnkctl, lnksta;
	int has_link2;		/* LnkCap2..LnkSta2 readable (version >= 2) */
	uint32_t lnkcap2;
	uint16_t lnkctl2, lnksta2;

	int has_acs;
	unsigned acs_off;
	uint16_t acs_cap, acs_ctrl;
};

/* decode len bytes (any length, NULL ok); never fails: what cannot be
 * read is flagged absent in out */
void pcicfg_parse(const unsigned char *cfg, size_t len, struct pcicfg *out);

/* LnkCap/LnkSta field helpers */
static inline int pcicfg_cap_speed(const struct pcicfg *c)
{
	return (int)(c->lnkcap & 0xf);
}
static inline int pcicfg_cap_width(const struct pcicfg *c)
{
	return (int)((c->lnkcap >> 4) & 0x3f);
}
static inline int pcicfg_sta_speed(const struct pcicfg *c)
{
	return c->lnksta & 0xf;
}
static inline int pcicfg_sta_width(const struct pcicfg *c)
{
	return (c->lnksta >> 4) & 0x3f;
}

/* speed code -> GT/s (2.5 ... 128), 0 if unknown */
double pcicfg_speed_gts(int code);
/* speed code -> lspci's link_speed() text ("32GT/s", "unknown") */
const char *pcicfg_speed_lspci(int code);
/* LnkCap2 supported-speeds vector -> "2.5-32GT/s" (lspci) */
const char *pcicfg_speeds2_lspci(uint32_t lnkcap2);
/* port type -> "Endpoint", "Root Port", ... (lspci's words) */
const char *pcicfg_port_type(int type);

#endif
