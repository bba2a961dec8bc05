/* rules-perf: layer checks of CHECKS.md (perf) */
#include "rules.h"

const struct rule rules_perf[] = {
	{ 0 },
};
