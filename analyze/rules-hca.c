/* rules-hca: layer checks of CHECKS.md (hca) */
#include "rules.h"

const struct rule rules_hca[] = {
	{ 0 },
};
