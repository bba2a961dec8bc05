/* rules-sm: layer checks of CHECKS.md (sm) */
#include "rules.h"

const struct rule rules_sm[] = {
	{ 0 },
};
