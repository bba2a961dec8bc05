/* fuzz-pcicfg: a PCI function's configuration space (analyze/pcicfg.c),
 * of any length, and the lspci words for what it decodes */
#include "fuzz.h"
#include "pcicfg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pcicfg c;

	pcicfg_parse(data, size, &c);
	pcicfg_speed_gts(pcicfg_cap_speed(&c));
	pcicfg_speed_lspci(pcicfg_sta_speed(&c));
	pcicfg_speeds2_lspci(c.lnkcap2);
	pcicfg_port_type(c.port_type);
	if (c.has_exp && c.exp_off + 0x14 > size)
		__builtin_trap();	/* claimed a capability it cannot read */
	return 0;
}
