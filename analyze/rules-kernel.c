/* rules-kernel: layer checks of CHECKS.md (kernel) */
#include "rules.h"

const struct rule rules_kernel[] = {
	{ 0 },
};
