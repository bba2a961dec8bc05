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

const struct rule rules_perf[] = {
	{
		.id = "PFC_DISABLED",
		.layer = LAYER_PERF,
		.severity = SEV_WARNING,
		.title = "a RoCE port's netdev has PFC on no priority",
		.needs = "netdev",
		.imp_needs = IMP_NEEDS(&need_pfc),
		.evidence = "rdma-collect/dcb/<if>.json pfc.pfc_en",
		.remediation = "Enable PFC on the RoCE priority on the NIC and on every switch port on the path (dcb pfc set dev <if> prio-pfc 3:on, or mlnx_qos -i <if> --pfc 0,0,0,1,0,0,0,0), with trust dscp and the matching DSCP/priority (e.g. NCCL_IB_TC=106 -> DSCP 26 -> prio 3); without PFC (or ECN-only designs tuned for it) RoCE loses packets instead of pausing.",
		.sql = 1,
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
		.sql = 1,
	},
	{
		.id = "PAUSE_HEAVY",
		.layer = LAYER_PERF,
		.severity = SEV_WARNING,
		.title = "received pause time high relative to the interval or uptime",
		.needs = "netdev",
		.imp_needs = IMP_NEEDS(&need_uptime),
		.thresholds = "pause_ratio",
		.mlx5_only = "mlx5e's ethtool pause counters (rx_prio<N>_pause_duration, rx_global_pause_duration, rx_pause_ctrl_phy)",
		.evidence = "rdma-collect/ethtool/<if>.json rx_prio<N>_pause_duration (microseconds), rx_global_pause_duration, or rx_pause_ctrl_phy; manifest uptime_s or the --sample interval (mlx5 only: skipped on a node without an mlx5 device)",
		.remediation = "The link partner (switch) is pausing this port a large share of the time: congestion downstream, a slow receiver behind the switch, or PFC without ECN/DCQCN. Check the switch's egress queues and ECN marking, PortXmitWait and CNP counters, and whether one host is the sink (incast).",
		.sql = 1,
	},
	{
		.id = "CNP_HEAVY",
		.layer = LAYER_PERF,
		.severity = SEV_WARNING,
		.title = "CNP rates high (sustained congestion that DCQCN is fighting)",
		.needs = "sysfs|netdev",
		.imp_needs = IMP_NEEDS(&need_hw_counters, &need_uptime),
		.thresholds = "cnp_per_s",
		.evidence = "sys/class/infiniband/<dev>/ports/<n>/hw_counters/{np_cnp_sent,rp_cnp_handled}; rx/tx CNP ethtool counters",
		.remediation = "Congestion notifications at this rate mean the fabric is congested for long periods: look for incast (many senders to one receiver), an oversubscribed uplink, or ECN thresholds on the switch set too low; check the traffic pattern and the DCQCN parameters (mlx5 cc_params).",
		.sql = 1,
	},
	{
		.id = "DROPS_IN_FLIGHT",
		.layer = LAYER_PERF,
		.severity = SEV_WARNING,
		.title = "packets lost in flight (sequence errors, timeouts)",
		.needs = "sysfs",
		.imp_needs = IMP_NEEDS(&need_hw_counters),
		.mlx5_only = "mlx5's hw_counters (out_of_sequence, duplicate_request, packet_seq_err, implied_nak_seq_err, local_ack_timeout_err)",
		.evidence = "sys/class/infiniband/<dev>/ports/<n>/hw_counters/{out_of_sequence,duplicate_request,packet_seq_err,implied_nak_seq_err,local_ack_timeout_err} (mlx5 only: skipped on a node without an mlx5 device)",
		.remediation = "Packets were lost between the QPs. On RoCE this is almost always PFC misconfigured somewhere on the path (priority, trust mode, DSCP mapping, a switch port without PFC) or buffer overflow: check PFC on both NICs and every switch hop. On InfiniBand it points to a bad link: check symbol and receive errors on the HCA and switch ports (perfquery, ibqueryerrors).",
		.sql = 1,
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
		.sql = 1,
	},
	{ 0 },
};
