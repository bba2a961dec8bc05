-- MTU_BELOW_MAX: active_mtu below max_mtu
-- (analyze/rules-verbs.c; one row per finding: bundle_id, component, summary,
-- evidence, severity: rules.h)
-- RoCE at a netdev MTU the port follows: info.  The
-- kernel's active_mtu of a RoCE port is iboe_get_mtu()
-- of the netdev MTU, so 1024 at the Ethernet default
-- 1500 is the netdev's setting working as designed (a
-- choice: many RoCE fabrics run at 1500), not a fault;
-- the finding still says what jumbo frames would give.
-- A warning stays where something is off: the netdev
-- would allow more than active_mtu (the port did not
-- follow it), a netdev MTU below the Ethernet default,
-- an unknown netdev MTU, and InfiniBand (the SM's
-- partition MTU)
-- The RDMA MTU a RoCE netdev MTU allows: the kernel's iboe_get_mtu()
-- (include/rdma/ib_addr.h) takes off the largest RoCE v2 headers, GRH 40 +
-- UDP 8 + BTH 12 + XRC ext 4 + AtomicETH 28 + ICRC 4 = 96 bytes (88 on
-- kernels before RoCE v2 added the UDP header), and rounds down to an IB
-- MTU; mlx5 reports min(max_mtu, that) as active_mtu.
WITH q AS (SELECT p.*, n.mtu AS nmtu, CASE WHEN n.mtu IS NULL OR n.mtu <= 0
		THEN NULL WHEN n.mtu - 96 >= 4096 THEN 4096 WHEN n.mtu - 96 >=
		2048 THEN 2048 WHEN n.mtu - 96 >= 1024 THEN 1024 WHEN n.mtu -
		96 >= 512 THEN 512 WHEN n.mtu - 96 >= 256 THEN 256 ELSE 0 END
		AS allowed
	FROM ports p
	JOIN todo_rule t ON t.bundle_id = p.bundle_id
	LEFT JOIN netdevs n ON n.bundle_id = p.bundle_id AND n.name = p.netdev
	WHERE p.state = 4 AND p.active_mtu > 0 AND p.active_mtu < p.max_mtu)
SELECT bundle_id, ibdev || ':' || port, CASE WHEN link_layer = 'Ethernet' AND
	allowed IS NOT NULL AND active_mtu >= allowed THEN 'netdev ' || netdev
	|| ' MTU ' || nmtu || ' limits the RDMA MTU of ' || ibdev || ':' ||
	port || ' to ' || active_mtu || ' (max_mtu ' || max_mtu ||
	'): RoCE moves the largest IB MTU that fits the netdev MTU less its 96 bytes of headers'
	|| CASE WHEN nmtu < 1500 THEN
	'; the netdev MTU is below the Ethernet default 1500' ELSE
	', as configured' END ||
	'; jumbo frames (netdev and switch MTU >= 4192, e.g. 9000) allow 4096'
	WHEN link_layer = 'Ethernet' AND allowed IS NOT NULL THEN 'active_mtu '
	|| active_mtu || ' on ' || ibdev || ':' || port || ' is below the ' ||
	allowed || ' that netdev ' || netdev || ' MTU ' || nmtu ||
	' allows (max_mtu ' || max_mtu || ')' ELSE 'active_mtu ' || active_mtu
	|| ' below max_mtu ' || max_mtu || ' on ' || ibdev || ':' || port END,
	'rdma-collect/verbs/' || ibdev || '.json	active_mtu ' ||
	active_mtu || ', max_mtu ' || max_mtu || CASE WHEN nmtu IS NOT NULL AND
	link_layer = 'Ethernet' THEN char(10) || 'sys/class/net/' || netdev ||
	'/mtu	' || nmtu ELSE '' END, CASE WHEN link_layer = 'Ethernet' AND
	allowed IS NOT NULL AND active_mtu >= allowed AND nmtu >= 1500 THEN 0
	END
FROM q
ORDER BY bundle_id, ibdev, port
