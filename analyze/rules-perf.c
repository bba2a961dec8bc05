/* rules-perf: layer 5, congestion and losses on the wire: PFC, pause,
 * CNPs, packets lost in flight, buffer drops.
 *
 * Counters read twice (--sample) are judged on their growth over the
 * interval; read once, on their value since boot (a rate over uptime). A
 * loss counter that did not grow while sampled is reported at info: it
 * happened, but not now.  The per-second rates of an imported
 * ethtool_stats.pl (netdev_stats source 'ethtool-rate') are growth seen
 * while it ran: the highest rate of its rounds, judged as a 1 s sample. */
#include "rules.h"

/* growth of a counter row c over its interval; NULL when read once */
#define GREW "(c.value2 IS NOT NULL AND c.value2 > c.value)"
#define STATIC "(c.value2 IS NOT NULL AND c.value2 = c.value)"

const struct rule rules_perf[] = {
	{
		.id = "PFC_DISABLED",
		.layer = LAYER_PERF,
		.severity = SEV_WARNING,
		.title = "a RoCE port's netdev has PFC on no priority",
		.needs = "netdev",
		.evidence = "rdma-collect/dcb/<if>.json pfc.pfc_en",
		.remediation = "Enable PFC on the RoCE priority on the NIC and on every switch port on the path (dcb pfc set dev <if> prio-pfc 3:on, or mlnx_qos -i <if> --pfc 0,0,0,1,0,0,0,0), with trust dscp and the matching DSCP/priority (e.g. NCCL_IB_TC=106 -> DSCP 26 -> prio 3); without PFC (or ECN-only designs tuned for it) RoCE loses packets instead of pausing.",
		.sql = "SELECT p.bundle_id, f.netdev, 'PFC is enabled on no "
		       "priority of ' || f.netdev || ' (RoCE port ' || p.ibdev || "
		       "':' || p.port || ', pfc_cap ' || coalesce(f.pfc_cap, '?') || "
		       "', trust ' || coalesce(f.trust, '?') || ')', "
		       "'rdma-collect/dcb/' || f.netdev || '.json\tpfc_en ' || "
		       "f.pfc_en || ' (prio-pfc all off)', NULL "
		       "FROM ports p JOIN todo_rule t ON t.bundle_id = p.bundle_id "
		       "JOIN pfc f ON f.bundle_id = p.bundle_id AND f.netdev = "
		       "p.netdev WHERE p.link_layer = 'Ethernet' AND p.state = 4 AND "
		       "f.status = 'ok' AND f.pfc_en = 0 "
		       /* a port known only from ibdev2netdev: its netdev has
			* DCB (so Ethernet: IPoIB has none) and carrier (a RoCE
			* port is ACTIVE when its netdev's link is up) */
		       "UNION ALL SELECT n.bundle_id, f.netdev, 'PFC is enabled on "
		       "no priority of ' || f.netdev || ' (RoCE port ' || n.ibdev "
		       "|| ':' || n.port || ' by ibdev2netdev, link up, pfc_cap ' || "
		       "coalesce(f.pfc_cap, '?') || ', trust ' || coalesce(f.trust, "
		       "'?') || ')', 'rdma-collect/dcb/' || f.netdev || '.json\tpfc_en "
		       "' || f.pfc_en || ' (prio-pfc all off)' || char(10) || "
		       "'rdma-collect/ibdev2netdev.json\t' || n.ibdev || ' port ' || "
		       "n.port || ' ==> ' || n.name || ' (Up)', NULL "
		       "FROM netdevs n JOIN todo_rule t ON t.bundle_id = n.bundle_id "
		       "JOIN pfc f ON f.bundle_id = n.bundle_id AND f.netdev = "
		       "n.name WHERE n.ibdev IS NOT NULL AND n.carrier = 1 AND "
		       "f.status = 'ok' AND f.pfc_en = 0 AND NOT EXISTS (SELECT 1 "
		       "FROM ports x WHERE x.bundle_id = n.bundle_id AND x.ibdev = "
		       "n.ibdev AND x.port = n.port) "
		       "ORDER BY 1, 2",
	},
	{
		.id = "PAUSE_STORM",
		.layer = LAYER_PERF,
		.severity = SEV_CRITICAL,
		.title = "pause storm warning or error events",
		.needs = "netdev",
		.mlx5_only = "mlx5e's ethtool counters tx_pause_storm_*",
		.evidence = "rdma-collect/ethtool/<if>.json tx_pause_storm_{warning,error}_events (mlx5 only: skipped on a node without an mlx5 device)",
		.remediation = "A receiver stopped draining and kept sending pause: the NIC's stall watchdog fired. Find the host that pauses (a hung or overloaded receiver, a PCIe or memory bottleneck) and check the switch's PFC watchdog; mlx5 can drop instead of pausing after a storm (ethtool --set-tunable <if> pfc-prevention-tout).",
		/* older drivers (MOFED 4.3-4.6) name the warning counter with a
		 * trailing space */
		.sql = "SELECT c.bundle_id, c.netdev, 'pause storm on ' || "
		       "c.netdev || ': ' || group_concat(rtrim(c.name) || ' ' || "
		       "CASE c.source WHEN 'ethtool-rate' THEN 'growing at up to ' "
		       "|| c.value || '/s' ELSE coalesce(c.value2, c.value) END, ', '), "
		       "group_concat('rdma-collect/ethtool/' || c.netdev || '.json' || "
		       "char(9) || CASE c.source WHEN 'ethtool-rate' THEN 'rates: ' "
		       "|| c.name || ' ' || c.value || '/s (ethtool_stats.pl)' ELSE "
		       "c.name || ' ' || coalesce(c.value2, c.value) END, char(10)), "
		       "NULL FROM netdev_stats c JOIN todo_rule t ON t.bundle_id = "
		       "c.bundle_id WHERE c.source IN ('ethtool', 'ethtool-rate') AND "
		       "c.name IN "
		       "('tx_pause_storm_warning_events', "
		       "'tx_pause_storm_warning_events ', "
		       "'tx_pause_storm_error_events') AND coalesce(c.value2, "
		       "c.value) > 0 GROUP BY c.bundle_id, c.netdev "
		       "ORDER BY c.bundle_id, c.netdev",
	},
	{
		.id = "PAUSE_HEAVY",
		.layer = LAYER_PERF,
		.severity = SEV_WARNING,
		.title = "received pause time high relative to the interval or uptime",
		.needs = "netdev",
		.mlx5_only = "mlx5e's ethtool pause counters (rx_prio<N>_pause_duration, rx_global_pause_duration, rx_pause_ctrl_phy)",
		.evidence = "rdma-collect/ethtool/<if>.json rx_prio<N>_pause_duration (microseconds), rx_global_pause_duration, or rx_pause_ctrl_phy; manifest uptime_s or the --sample interval (mlx5 only: skipped on a node without an mlx5 device)",
		.remediation = "The link partner (switch) is pausing this port a large share of the time: congestion downstream, a slow receiver behind the switch, or PFC without ECN/DCQCN. Check the switch's egress queues and ECN marking, PortXmitWait and CNP counters, and whether one host is the sink (incast).",
		/* the pause time in microseconds: the per-priority durations,
		 * else the global pause duration; without either, the pause
		 * frame count at the largest quanta (65535 x 512 bit times)
		 * is an upper bound */
		.sql = "WITH d AS (SELECT c.bundle_id, c.netdev, 'prio' AS how, "
		       "sum(c.value) AS v, sum(c.value2) AS v2, max(c.interval_ms) AS "
		       "ims, group_concat(c.name || ' ' || c.value || coalesce(' -> ' "
		       "|| c.value2, ''), ', ') AS names FROM netdev_stats c JOIN "
		       "todo_rule t ON t.bundle_id = c.bundle_id WHERE c.source = "
		       "'ethtool' AND c.name GLOB 'rx_prio[0-7]_pause_duration' GROUP "
		       "BY c.bundle_id, c.netdev "
		       "UNION ALL SELECT c.bundle_id, c.netdev, 'global', c.value, "
		       "c.value2, c.interval_ms, c.name || ' ' || c.value || coalesce("
		       "' -> ' || c.value2, '') FROM netdev_stats c JOIN todo_rule t "
		       "ON t.bundle_id = c.bundle_id WHERE c.source = 'ethtool' AND "
		       "c.name = 'rx_global_pause_duration' AND NOT EXISTS (SELECT 1 "
		       "FROM netdev_stats x WHERE x.bundle_id = c.bundle_id AND "
		       "x.netdev = c.netdev AND x.source = 'ethtool' AND x.name GLOB "
		       "'rx_prio[0-7]_pause_duration') "
		       "UNION ALL SELECT c.bundle_id, c.netdev, 'frames', "
		       "CAST(c.value * 65535.0 * 512 / (n.speed * 1.0) AS INTEGER), "
		       "CAST(c.value2 * 65535.0 * 512 / (n.speed * 1.0) AS INTEGER), "
		       "c.interval_ms, c.name || ' ' || c.value || coalesce(' -> ' || "
		       "c.value2, '') || ' at ' || n.speed || ' Mb/s' FROM "
		       "netdev_stats c JOIN todo_rule t ON t.bundle_id = c.bundle_id "
		       "JOIN netdevs n ON n.bundle_id = c.bundle_id AND n.name = "
		       "c.netdev AND n.speed > 0 WHERE c.source = 'ethtool' AND "
		       "c.name = 'rx_pause_ctrl_phy' AND c.value > 0 AND NOT EXISTS "
		       "(SELECT 1 FROM netdev_stats x WHERE x.bundle_id = c.bundle_id "
		       "AND x.netdev = c.netdev AND x.source = 'ethtool' AND (x.name "
		       "GLOB 'rx_prio[0-7]_pause_duration' OR x.name = "
		       "'rx_global_pause_duration')) "
		       /* ethtool_stats.pl: microseconds of pause per second, a
			* 1 s sample from 0 */
		       "UNION ALL SELECT c.bundle_id, c.netdev, 'rate', 0, "
		       "sum(c.value), 1000, group_concat(c.name || ' ' || c.value || "
		       "'/s', ', ') FROM netdev_stats c JOIN todo_rule t ON "
		       "t.bundle_id = c.bundle_id WHERE c.source = 'ethtool-rate' AND "
		       "(c.name GLOB 'rx_prio[0-7]_pause_duration' OR c.name = "
		       "'rx_global_pause_duration') GROUP BY c.bundle_id, c.netdev), "
		       "r AS (SELECT d.*, b.uptime_s, CASE WHEN d.v2 IS NOT NULL AND "
		       "d.ims > 0 AND d.v2 >= d.v THEN (d.v2 - d.v) / (d.ims * 1000.0) "
		       "WHEN b.uptime_s > 0 THEN d.v / (b.uptime_s * 1e6) END AS "
		       "ratio FROM d JOIN bundles b ON b.id = d.bundle_id) "
		       "SELECT r.bundle_id, r.netdev, 'received pause on ' || r.netdev "
		       "|| ' for ' || printf('%.1f', r.ratio * 100) || '% of ' || "
		       "CASE WHEN r.how = 'rate' THEN 'a second at most (ethtool_stats"
		       ".pl rates)' WHEN r.v2 IS NOT NULL AND r.ims > 0 AND r.v2 >= "
		       "r.v THEN "
		       "'the ' || printf('%.1f', r.ims / 1000.0) || ' s sample' ELSE "
		       "'the uptime (' || printf('%.0f', r.uptime_s) || ' s)' END || "
		       "CASE WHEN r.how = 'frames' THEN ' at most (estimated from the "
		       "pause frame count at the largest quanta)' ELSE '' END || "
		       "' (threshold ' || printf('%g', th.value * 100) || '%)', "
		       "'rdma-collect/ethtool/' || r.netdev || '.json' || char(9) || "
		       "r.names || CASE WHEN r.how = 'rate' THEN '' ELSE char(10) || "
		       "'manifest.json' || char(9) || 'uptime_s ' || coalesce("
		       "r.uptime_s, '?') END, NULL "
		       "FROM r JOIN thresholds th ON th.name = 'pause_ratio' "
		       "WHERE r.ratio > th.value ORDER BY r.bundle_id, r.netdev",
	},
	{
		.id = "CNP_HEAVY",
		.layer = LAYER_PERF,
		.severity = SEV_WARNING,
		.title = "CNP rates high (sustained congestion that DCQCN is fighting)",
		.needs = "sysfs|netdev",
		.evidence = "sys/class/infiniband/<dev>/ports/<n>/hw_counters/{np_cnp_sent,rp_cnp_handled}; rx/tx CNP ethtool counters",
		.remediation = "Congestion notifications at this rate mean the fabric is congested for long periods: look for incast (many senders to one receiver), an oversubscribed uplink, or ECN thresholds on the switch set too low; check the traffic pattern and the DCQCN parameters (mlx5 cc_params).",
		/* how: 'rate' for ethtool_stats.pl's rates (a growth per
		 * second already), else NULL */
		.sql = "WITH c AS (SELECT c.bundle_id, c.ibdev || ':' || c.port AS "
		       "comp, 'sys/class/infiniband/' || c.ibdev || '/ports/' || "
		       "c.port || '/hw_counters/' || c.name AS path, c.name, c.value, "
		       "c.value2, c.interval_ms, NULL AS how FROM counters c JOIN "
		       "todo_rule t ON t.bundle_id = c.bundle_id WHERE c.kind = 'hw' "
		       "AND c.name IN ('np_cnp_sent', 'rp_cnp_handled') "
		       "UNION ALL SELECT c.bundle_id, c.netdev, 'rdma-collect/ethtool/' "
		       "|| c.netdev || '.json', c.name, c.value, c.value2, "
		       "c.interval_ms, CASE c.source WHEN 'ethtool-rate' THEN 'rate' "
		       "END FROM netdev_stats c JOIN todo_rule t ON t.bundle_id = "
		       "c.bundle_id WHERE c.source IN ('ethtool', 'ethtool-rate') AND "
		       /* LIKE ignores ASCII case, as lower() GLOB did, without
			 * lower()'s copy of each of a bundle's ~900 names */
		       "(c.name LIKE 'rx\\_%cnp%' ESCAPE '\\' OR c.name LIKE "
		       "'tx\\_%cnp%' ESCAPE '\\') AND c.name NOT LIKE '%ignored%'), "
		       "r AS (SELECT c.*, b.uptime_s, CASE WHEN c.how = 'rate' THEN "
		       "c.value WHEN c.value2 IS NOT NULL AND c.interval_ms > 0 AND "
		       "c.value2 >= c.value THEN (c.value2 - c.value) * 1000.0 / "
		       "c.interval_ms WHEN b.uptime_s > 0 THEN c.value / b.uptime_s "
		       "END AS rate FROM c JOIN bundles b ON b.id = c.bundle_id) "
		       "SELECT r.bundle_id, r.comp, group_concat(r.name || ' ' || "
		       "printf('%.0f', r.rate) || '/s', ', ') || ' on ' || r.comp || "
		       "' over ' || CASE WHEN max(r.how) = 'rate' THEN 'a second at "
		       "most (ethtool_stats.pl rates)' WHEN max(r.value2) IS NOT NULL "
		       "AND max(r.interval_ms) > 0 THEN 'the ' || printf('%.1f', "
		       "max(r.interval_ms) / 1000.0) || ' s sample' ELSE 'the uptime' "
		       "END || ' (threshold ' || printf('%g', th.value) || '/s)', "
		       "group_concat(r.path || char(9) || CASE WHEN r.how = 'rate' "
		       "THEN 'rates: ' || r.name || ' ' || r.value || '/s "
		       "(ethtool_stats.pl)' ELSE r.name || ' ' || r.value || coalesce("
		       "' -> ' || r.value2, '') END, char(10)), NULL "
		       "FROM r JOIN thresholds th ON th.name = 'cnp_per_s' "
		       "WHERE r.rate > th.value GROUP BY r.bundle_id, r.comp "
		       "ORDER BY r.bundle_id, r.comp",
	},
	{
		.id = "DROPS_IN_FLIGHT",
		.layer = LAYER_PERF,
		.severity = SEV_WARNING,
		.title = "packets lost in flight (sequence errors, timeouts)",
		.needs = "sysfs",
		.mlx5_only = "mlx5's hw_counters (out_of_sequence, duplicate_request, packet_seq_err, implied_nak_seq_err, local_ack_timeout_err)",
		.evidence = "sys/class/infiniband/<dev>/ports/<n>/hw_counters/{out_of_sequence,duplicate_request,packet_seq_err,implied_nak_seq_err,local_ack_timeout_err} (mlx5 only: skipped on a node without an mlx5 device)",
		.remediation = "Packets were lost between the QPs. On RoCE this is almost always PFC misconfigured somewhere on the path (priority, trust mode, DSCP mapping, a switch port without PFC) or buffer overflow: check PFC on both NICs and every switch hop. On InfiniBand it points to a bad link: check symbol and receive errors on the HCA and switch ports (perfquery, ibqueryerrors).",
		.sql = "SELECT c.bundle_id, c.ibdev || ':' || c.port, "
		       "'packets lost in flight on ' || c.ibdev || ':' || c.port || ' ("
		       "' || coalesce(p.link_layer, '?') || '): ' || group_concat("
		       "c.name || ' ' || c.value || CASE WHEN " GREW " THEN ' (+' || "
		       "(c.value2 - c.value) || ' in ' || printf('%.1f', c.interval_ms "
		       "/ 1000.0) || ' s)' ELSE '' END, ', ') || CASE WHEN "
		       "p.link_layer = 'Ethernet' THEN '; on RoCE: PFC misconfigured "
		       "or buffers overflowing on the path' ELSE '; on InfiniBand: a "
		       "bad link' END || CASE WHEN min(" STATIC ") = 1 THEN ' (since "
		       "boot; not growing during the sample)' ELSE '' END, "
		       "group_concat('sys/class/infiniband/' || c.ibdev || '/ports/' || "
		       "c.port || '/hw_counters/' || c.name || char(9) || c.value || "
		       "coalesce(' -> ' || c.value2, ''), char(10)), "
		       "CASE WHEN min(" STATIC ") = 1 THEN 0 ELSE NULL END "
		       "FROM counters c JOIN todo_rule t ON t.bundle_id = c.bundle_id "
		       "LEFT JOIN ports p ON p.bundle_id = c.bundle_id AND p.ibdev = "
		       "c.ibdev AND p.port = c.port WHERE c.kind = 'hw' AND c.name IN "
		       "('out_of_sequence', 'duplicate_request', 'packet_seq_err', "
		       "'implied_nak_seq_err', 'local_ack_timeout_err') AND "
		       "(c.value > 0 OR c.value2 > 0) "
		       "GROUP BY c.bundle_id, c.ibdev, c.port "
		       "ORDER BY c.bundle_id, c.ibdev, c.port",
	},
	{
		.id = "RX_BUFFER_DROPS",
		.layer = LAYER_PERF,
		.severity = SEV_WARNING,
		.title = "receive buffer or port discards",
		.needs = "netdev",
		.mlx5_only = "mlx5e's ethtool counters (rx_out_of_buffer, rx_discards_phy, tx_discards_phy)",
		.evidence = "rdma-collect/ethtool/<if>.json rx_out_of_buffer, rx_discards_phy, tx_discards_phy (mlx5 only: skipped on a node without an mlx5 device)",
		.remediation = "rx_discards_phy/tx_discards_phy: the port dropped packets for lack of buffer, which lossless RoCE must not do: enable PFC on the RoCE priority (or fix the trust/DSCP mapping) and check the receive buffer split (mlnx_qos --buffer_size). rx_out_of_buffer: the driver's receive queues ran empty (CPU or interrupt affinity cannot keep up): larger rings (ethtool -G), more channels, IRQ affinity.",
		/* ethtool -S (once, or twice with --sample) and the rates of
		 * an imported ethtool_stats.pl: growing while it watched */
		.sql = "WITH c AS (SELECT c.bundle_id, c.netdev, c.name || ' ' || "
		       "c.value || CASE WHEN " GREW " THEN ' (+' || (c.value2 - "
		       "c.value) || ' in ' || printf('%.1f', c.interval_ms / 1000.0) "
		       "|| ' s)' ELSE '' END AS t, 'rdma-collect/ethtool/' || "
		       "c.netdev || '.json' || char(9) || c.name || ' ' || c.value || "
		       "coalesce(' -> ' || c.value2, '') AS ev, " STATIC " AS st "
		       "FROM netdev_stats c JOIN todo_rule t ON t.bundle_id = "
		       "c.bundle_id WHERE c.source = 'ethtool' AND c.name IN "
		       "('rx_out_of_buffer', 'rx_discards_phy', 'tx_discards_phy') AND "
		       "(c.value > 0 OR c.value2 > 0) "
		       "UNION ALL SELECT c.bundle_id, c.netdev, c.name || ' growing "
		       "at up to ' || c.value || '/s', 'rdma-collect/ethtool/' || "
		       "c.netdev || '.json' || char(9) || 'rates: ' || c.name || ' ' "
		       "|| c.value || '/s (ethtool_stats.pl)', 0 FROM netdev_stats c "
		       "JOIN todo_rule t ON t.bundle_id = c.bundle_id WHERE c.source "
		       "= 'ethtool-rate' AND c.name IN ('rx_out_of_buffer', "
		       "'rx_discards_phy', 'tx_discards_phy') AND c.value > 0) "
		       "SELECT bundle_id, netdev, 'drops on ' || netdev || ': ' || "
		       "group_concat(t, ', ') || CASE WHEN min(st) = 1 THEN ' (since "
		       "boot; not growing during the sample)' ELSE '' END, "
		       "group_concat(ev, char(10)), CASE WHEN min(st) = 1 THEN 0 ELSE "
		       "NULL END FROM c GROUP BY bundle_id, netdev "
		       "ORDER BY bundle_id, netdev",
	},
	{ 0 },
};
