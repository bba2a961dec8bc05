/* rules-port: whether a port that is not ACTIVE is down on purpose or
 * should be up, as SQL over a ports row; shared by PORT_DOWN (rules-verbs.c)
 * and the physical-layer rules that never judge a port down on purpose
 * (rules-hca.c).  The conventions (schema/REPORT.md):
 *
 *   down on purpose   Disabled on InfiniBand (administratively down), or
 *                     no cable or module: the last "Port module event:
 *                     module N, ..." line of the port's PCI function says
 *                     "Cable unplugged" (at boot, a cage without a module
 *                     logs it and no plug follows)
 *   RoCE Disabled     the RoCE drivers (mlx4, mlx5, bnxt_re, irdma,
 *                     ocrdma, qedr, mana: their query_port) report
 *                     DOWN/Disabled whenever the netdev is not running
 *                     with carrier: set down and unplugged alike, so
 *                     Disabled on Ethernet proves nothing.  It should be up
 *                     after a module error event, while most of the node's
 *                     other ports of the same HCA type are Active (identical
 *                     rails), or while the class's majority has it Active;
 *                     else, as Polling with nothing saying, info
 *   should be up      Polling (enabled, no link partner) with a cable
 *                     plugged (the last module line says so), after a
 *                     module error event (cable_module), while the other
 *                     ports of the node with the same link layer are
 *                     Active, or while the same port is Active on the
 *                     majority of the other nodes of its class (same
 *                     device name and port, HCA type and link layer; at
 *                     least fleet_min_nodes nodes, among the bundles in
 *                     the database)
 *   nothing says      Polling and none of the above: info, as if on
 *                     purpose (a port nobody cabled)
 *
 * P is the alias of a ports row.  Each macro is a parenthesised SQL
 * expression.
 */
#ifndef RDMA_ANALYZE_RULES_PORT_H
#define RDMA_ANALYZE_RULES_PORT_H

/* the PCI function of the port's device (NULL for rxe, siw) */
#define PORT_PCI(P)                                                           \
	"(SELECT x.pci_addr FROM devices x WHERE x.bundle_id = " P            \
	".bundle_id AND x.ibdev = " P ".ibdev AND x.pci_addr IS NOT NULL "    \
	"UNION ALL SELECT y.pci_addr FROM ibdev_pci y WHERE y.bundle_id = "   \
	P ".bundle_id AND y.ibdev = " P ".ibdev LIMIT 1)"

/* 'plugged' or 'unplugged': the last module plug line of the port's
 * function; NULL when the log has none */
#define PORT_MODULE(P)                                                        \
	"(SELECT CASE WHEN k.text LIKE '%Cable unplugged%' THEN 'unplugged' " \
	"ELSE 'plugged' END FROM klog k WHERE k.bundle_id = " P ".bundle_id " \
	"AND k.category IN ('probe', 'link_flap') AND k.device = "            \
	PORT_PCI(P) " AND k.text LIKE '%Port module event%' AND (k.text "     \
	"LIKE '%Cable plugged%' OR k.text LIKE '%Cable unplugged%') ORDER BY " \
	"k.rowid DESC LIMIT 1)"

/* a module error event (CABLE_MODULE_ERROR's lines) on the function */
#define PORT_MODULE_ERROR(P)                                                  \
	"EXISTS (SELECT 1 FROM klog k WHERE k.bundle_id = " P ".bundle_id "   \
	"AND k.category = 'cable_module' AND k.device = " PORT_PCI(P) ")"

/* how many other ports of the node with the same link layer are Active */
#define PORT_SIBLINGS_UP(P)                                                   \
	"(SELECT count(*) FROM ports s WHERE s.bundle_id = " P ".bundle_id "  \
	"AND NOT (s.ibdev = " P ".ibdev AND s.port = " P ".port) AND "        \
	"s.state = 4 AND s.link_layer IS " P ".link_layer)"

/* "active/others": the node's other ports of the same HCA type and link
 * layer, when more than half of them are Active, else NULL */
#define PORT_CLASS_UP(P)                                                      \
	"(SELECT CASE WHEN 2 * sum(s.state = 4) > count(*) THEN "            \
	"sum(s.state = 4) || '/' || count(*) END FROM ports s LEFT JOIN "     \
	"devices sd ON sd.bundle_id = s.bundle_id AND sd.ibdev = s.ibdev "    \
	"WHERE s.bundle_id = " P ".bundle_id AND NOT (s.ibdev = " P ".ibdev " \
	"AND s.port = " P ".port) AND s.link_layer IS " P ".link_layer AND "  \
	"sd.hca_type IS (SELECT hca_type FROM devices WHERE bundle_id = " P   \
	".bundle_id AND ibdev = " P ".ibdev))"

/* Disabled on an Ethernet (RoCE) port: the netdev down or without
 * carrier, not a port disabled on purpose */
#define PORT_ROCE_DISABLED(P)                                                 \
	"(" P ".phys_state = 3 AND " P ".link_layer IS 'Ethernet')"

/* "active/nodes" of the same port on the other nodes of its class when
 * their majority has it Active, else NULL */
#define PORT_FLEET_UP(P)                                                      \
	"(SELECT CASE WHEN count(DISTINCT b2.node_id) >= coalesce((SELECT "   \
	"value FROM thresholds WHERE name = 'fleet_min_nodes'), 3) AND "      \
	"2 * count(DISTINCT CASE WHEN o.state = 4 THEN b2.node_id END) > "    \
	"count(DISTINCT b2.node_id) THEN count(DISTINCT CASE WHEN o.state = " \
	"4 THEN b2.node_id END) || '/' || count(DISTINCT b2.node_id) END "    \
	"FROM ports o JOIN bundles b2 ON b2.id = o.bundle_id JOIN devices od " \
	"ON od.bundle_id = o.bundle_id AND od.ibdev = o.ibdev WHERE o.ibdev " \
	"= " P ".ibdev AND o.port = " P ".port AND o.link_layer IS " P        \
	".link_layer AND od.hca_type IS (SELECT hca_type FROM devices WHERE " \
	"bundle_id = " P ".bundle_id AND ibdev = " P ".ibdev) AND "           \
	"b2.node_id <> (SELECT node_id FROM bundles WHERE id = " P            \
	".bundle_id))"

/* the port is down on purpose (or nothing says it should be up): 1; an
 * ACTIVE port, a port in INIT, one that should be up, no port row: 0 */
#define PORT_ON_PURPOSE(P)                                                    \
	"(CASE WHEN " P ".ibdev IS NULL OR (" P ".state = 4 AND " P           \
	".phys_state = 5) OR " P ".state = 2 THEN 0 WHEN " P ".phys_state = " \
	"3 AND NOT " PORT_ROCE_DISABLED(P) " THEN 1 WHEN " PORT_MODULE(P)     \
	" IS 'unplugged' THEN 1 WHEN " PORT_ROCE_DISABLED(P) " THEN CASE "    \
	"WHEN " PORT_MODULE_ERROR(P) " OR " PORT_CLASS_UP(P) " IS NOT NULL "  \
	"OR " PORT_FLEET_UP(P) " IS NOT NULL THEN 0 ELSE 1 END WHEN " P       \
	".phys_state = 2 AND " P ".state = 1 THEN CASE WHEN " PORT_MODULE(P)  \
	" IS 'plugged' OR " PORT_MODULE_ERROR(P) " OR " PORT_SIBLINGS_UP(P)   \
	" > 0 OR " PORT_FLEET_UP(P) " IS NOT NULL THEN 0 ELSE 1 END ELSE 0 END)"

/* an SR-IOV virtual function's port (Mellanox VF device ids, or the HCA
 * types of VFs: MT + the device id in decimal) */
#define MLX_VF_IDS "0x1012, 0x1014, 0x1016, 0x1018, 0x101a, 0x101c, 0x101e"
#define MLX_VF_TYPES "'MT4114', 'MT4116', 'MT4118', 'MT4120', 'MT4122', " \
	"'MT4124', 'MT4126'"
#define PORT_IS_VF(P)                                                         \
	"(EXISTS (SELECT 1 FROM pci_functions f WHERE f.bundle_id = " P       \
	".bundle_id AND f.addr = " PORT_PCI(P) " AND f.vendor = 0x15b3 AND "  \
	"f.device IN (" MLX_VF_IDS ")) OR EXISTS (SELECT 1 FROM devices v "   \
	"WHERE v.bundle_id = " P ".bundle_id AND v.ibdev = " P ".ibdev AND "  \
	"v.hca_type IN (" MLX_VF_TYPES ")))"

#endif
