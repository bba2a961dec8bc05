/* rules-pci: PCIe links and ACS between GPUs and HCAs */
#include "rules.h"

const struct rule rules_pci[] = {
	{ 0 },
};
