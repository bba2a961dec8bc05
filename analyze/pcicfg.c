/* pcicfg: PCI configuration space decoding (see pcicfg.h) */
#include <string.h>

#include "pcicfg.h"

#define PCI_STATUS		0x06
#define PCI_STATUS_CAP_LIST	0x10
#define PCI_HEADER_TYPE		0x0e
#define PCI_CAPABILITY_LIST	0x34
#define PCI_CAP_ID_EXP		0x10
#define PCI_EXT_CAP_ID_ACS	0x000d
#define PCI_CFG_STD		0x100	/* end of the standard space */
#define PCI_CFG_EXT		0x1000	/* end of the extended space */

static unsigned rd8(const unsigned char *c, size_t len, size_t off, int *ok)
{
	if (off + 1 > len) {
		*ok = 0;
		return 0;
	}
	return c[off];
}

static unsigned rd16(const unsigned char *c, size_t len, size_t off, int *ok)
{
	if (off + 2 > len) {
		*ok = 0;
		return 0;
	}
	return (unsigned)c[off] | (unsigned)c[off + 1] << 8;
}

static uint32_t rd32(const unsigned char *c, size_t len, size_t off, int *ok)
{
	if (off + 4 > len) {
		*ok = 0;
		return 0;
	}
	return (uint32_t)c[off] | (uint32_t)c[off + 1] << 8 |
	       (uint32_t)c[off + 2] << 16 | (uint32_t)c[off + 3] << 24;
}

/* the PCI Express capability at off: the link registers, each only when
 * the space collected holds it */
static void exp_cap(const unsigned char *c, size_t len, unsigned off,
		    struct pcicfg *o)
{
	int ok = 1;
	unsigned flags = rd16(c, len, off + 0x02, &ok);
	uint32_t lnkcap = rd32(c, len, off + 0x0c, &ok);
	unsigned lnkctl = rd16(c, len, off + 0x10, &ok);
	unsigned lnksta = rd16(c, len, off + 0x12, &ok);

	if (!ok) {		/* cut by the bytes collected */
		o->short_space = 1;
		return;
	}
	o->has_exp = 1;
	o->exp_off = off;
	o->exp_version = (int)(flags & 0xf);
	o->port_type = (int)((flags >> 4) & 0xf);
	o->lnkcap = lnkcap;
	o->lnkctl = (uint16_t)lnkctl;
	o->lnksta = (uint16_t)lnksta;
	if (o->exp_version >= 2) {
		uint32_t cap2 = rd32(c, len, off + 0x2c, &ok);
		unsigned ctl2 = rd16(c, len, off + 0x30, &ok);
		unsigned sta2 = rd16(c, len, off + 0x32, &ok);

		if (ok) {
			o->has_link2 = 1;
			o->lnkcap2 = cap2;
			o->lnkctl2 = (uint16_t)ctl2;
			o->lnksta2 = (uint16_t)sta2;
		}
	}
}

static void std_caps(const unsigned char *c, size_t len, struct pcicfg *o)
{
	unsigned char seen[PCI_CFG_STD / 4];
	int ok = 1, n;
	unsigned where;

	if (!(rd16(c, len, PCI_STATUS, &ok) & PCI_STATUS_CAP_LIST) || !ok)
		return;
	where = rd8(c, len, PCI_CAPABILITY_LIST, &ok) & ~3u;
	if (!ok)
		return;
	memset(seen, 0, sizeof(seen));
	/* at most 48 capabilities fit between 0x40 and 0x100 */
	for (n = 0; where && n < 48; n++) {
		unsigned id, next;

		if (where < 0x40 || where >= PCI_CFG_STD || seen[where / 4]++) {
			o->looped = 1;
			return;
		}
		if (where + 2 > len) {	/* not collected (non-root) */
			o->short_space = 1;
			return;
		}
		id = c[where];
		next = c[where + 1] & ~3u;
		if (id == 0xff)
			return;
		if (id == PCI_CAP_ID_EXP && !o->has_exp)
			exp_cap(c, len, where, o);
		where = next;
	}
	if (where)
		o->looped = 1;
}

static void ext_caps(const unsigned char *c, size_t len, struct pcicfg *o)
{
	unsigned char seen[PCI_CFG_EXT / 4];
	unsigned where = PCI_CFG_STD;
	int n;

	if (len < PCI_CFG_STD + 4)
		return;
	memset(seen, 0, sizeof(seen));
	for (n = 0; n < (PCI_CFG_EXT - PCI_CFG_STD) / 4; n++) {
		int ok = 1;
		uint32_t h = rd32(c, len, where, &ok);
		unsigned next;

		if (!ok || !h || h == 0xffffffff)
			return;
		if (seen[where / 4]++) {
			o->looped = 1;
			return;
		}
		if ((h & 0xffff) == PCI_EXT_CAP_ID_ACS && !o->has_acs) {
			unsigned cap = rd16(c, len, where + 4, &ok);
			unsigned ctl = rd16(c, len, where + 6, &ok);

			if (ok) {
				o->has_acs = 1;
				o->acs_off = where;
				o->acs_cap = (uint16_t)cap;
				o->acs_ctrl = (uint16_t)ctl;
			}
		}
		next = (h >> 20) & 0xffc;
		if (!next)
			return;
		if (next < PCI_CFG_STD) {
			o->looped = 1;
			return;
		}
		where = next;
	}
	o->looped = 1;
}

void pcicfg_parse(const unsigned char *cfg, size_t len, struct pcicfg *o)
{
	int ok = 1;

	memset(o, 0, sizeof(*o));
	o->port_type = -1;
	if (!cfg)
		len = 0;
	o->len = len;
	o->vendor = (uint16_t)rd16(cfg, len, 0x00, &ok);
	o->device = (uint16_t)rd16(cfg, len, 0x02, &ok);
	o->header_type = (uint8_t)(rd8(cfg, len, PCI_HEADER_TYPE, &ok) & 0x7f);
	if (len < 0x40) {
		o->short_space = 1;
		return;
	}
	std_caps(cfg, len, o);
	ext_caps(cfg, len, o);
}

double pcicfg_speed_gts(int code)
{
	static const double gts[] = { 0, 2.5, 5, 8, 16, 32, 64, 0, 128 };

	return code >= 0 && code < (int)(sizeof(gts) / sizeof(gts[0])) ?
	       gts[code] : 0;
}

const char *pcicfg_speed_lspci(int code)
{
	switch (code) {
	case 1: return "2.5GT/s";
	case 2: return "5GT/s";
	case 3: return "8GT/s";
	case 4: return "16GT/s";
	case 5: return "32GT/s";
	case 6: return "64GT/s";
	case 8: return "128GT/s";
	default: return "unknown";
	}
}

const char *pcicfg_speeds2_lspci(uint32_t lnkcap2)
{
	unsigned v = (lnkcap2 >> 1) & 0x7f;

	if (v & 0x40)
		return "2.5-128GT/s";
	if (v & 0x20)
		return "2.5-64GT/s";
	if (v & 0x10)
		return "2.5-32GT/s";
	if (v & 0x08)
		return "2.5-16GT/s";
	if (v & 0x04)
		return "2.5-8GT/s";
	if (v & 0x02)
		return "2.5-5GT/s";
	if (v & 0x01)
		return "2.5GT/s";
	return "Unknown";
}

const char *pcicfg_port_type(int type)
{
	switch (type) {
	case 0: return "Endpoint";
	case 1: return "Legacy Endpoint";
	case 4: return "Root Port";
	case 5: return "Upstream Port";
	case 6: return "Downstream Port";
	case 7: return "PCI-Express to PCI/PCI-X Bridge";
	case 8: return "PCI/PCI-X to PCI-Express Bridge";
	case 9: return "Root Complex Integrated Endpoint";
	case 10: return "Root Complex Event Collector";
	default: return NULL;
	}
}
