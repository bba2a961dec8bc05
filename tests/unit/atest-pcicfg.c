/* atest-pcicfg: the config-space decoder against built spaces and hostile
 * ones: capability pointers that loop, point below 0x40 or past the
 * collected bytes, a 64-byte (non-root) space, extended chains that loop
 * or point back into the standard space, truncated capabilities. */
#include <stdio.h>
#include <string.h>

#include "pcicfg.h"
#include "t.h"

static unsigned char cs[4096];

static void put16(unsigned off, unsigned v)
{
	cs[off] = (unsigned char)v;
	cs[off + 1] = (unsigned char)(v >> 8);
}

static void put32(unsigned off, uint32_t v)
{
	put16(off, v & 0xffff);
	put16(off + 2, v >> 16);
}

/* an endpoint: PM at 0x40 -> PCIe at 0x60 (Gen5 x16 capable, running
 * Gen4 x8), ACS at 0x148 after AER at 0x100 */
static void build(void)
{
	memset(cs, 0, sizeof(cs));
	put16(0x00, 0x15b3);
	put16(0x02, 0x1021);
	put16(0x06, 0x0010);		/* capabilities list */
	cs[0x34] = 0x40;
	cs[0x40] = 0x01;		/* PM */
	cs[0x41] = 0x60;
	cs[0x60] = 0x10;		/* PCI Express */
	cs[0x61] = 0x00;
	put16(0x62, 0x0002);		/* v2, Endpoint */
	put32(0x6c, 0x00400105);	/* LnkCap: 32GT/s x16, AOC */
	put16(0x72, 0x1084);		/* LnkSta: 16GT/s x8, SlotClk */
	put32(0x8c, 0x3e);		/* LnkCap2: 2.5-32GT/s */
	put16(0x90, 5);
	put16(0x92, 0x1e);
	put32(0x100, 0x0001u | 2u << 16 | 0x148u << 20);	/* AER */
	put32(0x148, 0x000d | 1 << 16);			/* ACS, last */
	put16(0x14c, 0x005f);
	put16(0x14e, 0x000d);		/* SV RR CR */
}

struct tcase {
	const char *what;
	void (*mutate)(void);
	size_t len;
	int has_exp, short_space, looped, has_acs;
};

static void none(void) { }
static void loop_std(void) { cs[0x61] = 0x40; }		/* PCIe -> PM */
static void self_std(void) { cs[0x41] = 0x40; cs[0x34] = 0x40; }
static void low_ptr(void) { cs[0x34] = 0x10; }		/* into the header */
static void past_std(void) { cs[0x41] = 0xfc; cs[0xfc] = 0x05; cs[0xfd] = 0; }
static void no_list(void) { put16(0x06, 0); }
static void ext_loop(void) { put32(0x148, 0x000du | 1u << 16 | 0x100u << 20); }
static void ext_back(void) { put32(0x100, 0x0001 | 2 << 16 | 0x040 << 20); }
static void ext_ff(void) { put32(0x100, 0xffffffff); }
static void ext_end(void) { put32(0x148, 0x000d | 1 << 16 | 0xffcu << 20); }
static void ptr_ff(void) { cs[0x34] = 0xff; }	/* 0xfc after masking */

static const struct tcase cases[] = {
	{ "root's 4096 bytes", none, 4096, 1, 0, 0, 1 },
	{ "non-root 64 bytes: no PCIe data, not degraded", none, 64, 0, 1, 0, 0 },
	{ "256 bytes (conventional view): PCIe, no extended", none, 256, 1, 0, 0, 0 },
	{ "cut inside the PCIe capability (0x70)", none, 0x70, 0, 1, 0, 0 },
	{ "cut after LnkSta, before LnkCap2 (0x80)", none, 0x80, 1, 0, 0, 0 },
	{ "cut inside the ACS capability (0x14c)", none, 0x14c, 1, 0, 0, 0 },
	{ "standard chain loops (PCIe -> PM)", loop_std, 4096, 1, 0, 1, 1 },
	{ "capability points at itself", self_std, 4096, 0, 0, 1, 1 },
	{ "pointer into the header (0x10)", low_ptr, 4096, 0, 0, 1, 1 },
	{ "pointer to 0xfc, chain ends", past_std, 4096, 0, 0, 0, 1 },
	{ "no capability list bit", no_list, 4096, 0, 0, 0, 1 },
	{ "extended chain loops back to 0x100", ext_loop, 4096, 1, 0, 1, 1 },
	{ "extended next below 0x100", ext_back, 4096, 1, 0, 1, 0 },
	{ "extended header all ones", ext_ff, 4096, 1, 0, 0, 0 },
	{ "extended next at 0xffc (zero header)", ext_end, 4096, 1, 0, 0, 1 },
	{ "pointer 0xff masked to 0xfc", ptr_ff, 4096, 0, 0, 0, 1 },
	{ "zero bytes", none, 0, 0, 1, 0, 0 },
	{ "three bytes", none, 3, 0, 1, 0, 0 },
};

int main(void)
{
	struct pcicfg c;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct tcase *t = &cases[i];

		build();
		t->mutate();
		pcicfg_parse(cs, t->len, &c);
		T_OK(c.has_exp == t->has_exp && c.short_space == t->short_space &&
		     c.looped == t->looped && c.has_acs == t->has_acs,
		     "%s: exp %d short %d looped %d acs %d", t->what, c.has_exp,
		     c.short_space, c.looped, c.has_acs);
	}
	build();
	pcicfg_parse(cs, sizeof(cs), &c);
	T_OK(c.exp_off == 0x60 && c.port_type == PCIE_TYPE_ENDPOINT &&
	     c.exp_version == 2, "PCIe capability at 0x60, v2 Endpoint");
	T_OK(pcicfg_cap_speed(&c) == 5 && pcicfg_cap_width(&c) == 16,
	     "LnkCap 32GT/s x16");
	T_OK(pcicfg_sta_speed(&c) == 4 && pcicfg_sta_width(&c) == 8,
	     "LnkSta 16GT/s x8");
	T_STREQ(pcicfg_speed_lspci(pcicfg_sta_speed(&c)), "16GT/s",
		"lspci speed text");
	T_OK(pcicfg_speed_gts(1) == 2.5 && pcicfg_speed_gts(8) == 128 &&
	     pcicfg_speed_gts(7) == 0 && pcicfg_speed_gts(15) == 0,
	     "speed codes to GT/s (7 and 15 unknown)");
	T_OK(c.has_link2, "LnkCap2 read");
	T_STREQ(pcicfg_speeds2_lspci(c.lnkcap2), "2.5-32GT/s",
		"LnkCap2 vector text");
	T_STREQ(pcicfg_speeds2_lspci(0), "Unknown", "empty vector");
	T_OK(c.has_acs && c.acs_off == 0x148 && c.acs_cap == 0x5f &&
	     c.acs_ctrl == 0x0d, "ACS at 0x148: cap 0x5f ctrl 0x0d");
	T_STREQ(pcicfg_port_type(6), "Downstream Port", "port type names");
	T_OK(pcicfg_port_type(3) == NULL, "reserved port type has no name");
	pcicfg_parse(NULL, 4096, &c);
	T_OK(!c.has_exp && c.short_space && c.len == 0, "NULL bytes");
	/* PCIe v1: no LnkCap2 */
	build();
	put16(0x62, 0x0001);
	pcicfg_parse(cs, sizeof(cs), &c);
	T_OK(c.has_exp && !c.has_link2, "PCIe v1 capability: no LnkCap2");
	return t_done();
}
