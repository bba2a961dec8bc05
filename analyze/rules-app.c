/* rules-app: layer checks of CHECKS.md (app) */
#include "rules.h"

const struct rule rules_app[] = {
	{ 0 },
};
