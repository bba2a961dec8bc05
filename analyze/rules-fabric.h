/* rules-fabric: check functions over MAD evidence (mad_* and fabric_*
 * tables), used by rules of rules-hca.c and rules-sm.c next to their sysfs
 * queries; each adds findings over todo_rule and returns 0 */
#ifndef RDMA_ANALYZE_RULES_FABRIC_H
#define RDMA_ANALYZE_RULES_FABRIC_H

#include "rules.h"

int fabric_sm_absent(struct rctx *rc);
int fabric_sm_not_master(struct rctx *rc);
int fabric_link_degraded(struct rctx *rc);
int fabric_symbol_errors(struct rctx *rc);
int fabric_rcv_errors(struct rctx *rc);
int fabric_link_downed(struct rctx *rc);
int fabric_xmit_discards(struct rctx *rc);
int fabric_xmit_wait(struct rctx *rc);
/* FW_VERSION_OUTLIER's fabric part (rules-fleet.c): ibdiagnet's FW Check */
int fabric_fw_mixed(struct rctx *rc);

#endif
