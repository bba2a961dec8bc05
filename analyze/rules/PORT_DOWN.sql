-- PORT_DOWN: port not ACTIVE or physical state not LinkUp
-- (analyze/rules-verbs.c; one row per finding: bundle_id, component, summary,
-- evidence, severity: rules.h)
-- the judgement of port.sql (port_facts) per port, then the VF's: it
-- follows its PF (a non-VF port on the same bus)
WITH d AS (SELECT p.*, j.module, j.moderr, j.sib, j.fleet, j.vf, j.pci, j.rdis,
		j.cls, (SELECT x.hca_type
		FROM devices x
		WHERE x.bundle_id = p.bundle_id AND x.ibdev = p.ibdev) AS hca
	FROM ports p
	JOIN todo_rule t ON t.bundle_id = p.bundle_id
	JOIN port_facts j ON j.bundle_id = p.bundle_id AND j.ibdev = p.ibdev
		AND j.port = p.port
	WHERE p.state <> 4 OR p.phys_state <> 5), e AS (SELECT d.*, CASE WHEN
		d.state = 2 THEN 2 WHEN d.phys_state = 3 AND NOT d.rdis THEN 0
		WHEN d.module IS 'unplugged' THEN 0 WHEN d.rdis THEN CASE WHEN
		d.moderr OR d.cls IS NOT NULL OR d.fleet IS NOT NULL THEN 1
		ELSE 0 END WHEN d.phys_state = 2 AND d.state = 1 THEN CASE WHEN
		d.module IS 'plugged' THEN 2 WHEN d.moderr OR d.sib > 0 OR
		d.fleet IS NOT NULL THEN 1 ELSE 0 END ELSE 2 END AS base, CASE
		WHEN d.vf THEN (SELECT group_concat(q.ibdev || ':' || q.port ||
				CASE WHEN q.state = 4 AND q.phys_state = 5 THEN
				' up' ELSE ' down' END, ', ')
		FROM port_facts q
		WHERE q.bundle_id = d.bundle_id AND q.ibdev <> d.ibdev AND
			substr(q.pci, 1, 7) = substr(d.pci, 1, 7) AND NOT q.vf)
		END AS pf
	FROM d)
SELECT e.bundle_id, e.ibdev || ':' || e.port, 'port ' || e.ibdev || ':' ||
	e.port || ' is ' || coalesce(e.state_text, '?') || ', physical state '
	|| coalesce(e.phys_state_text, '?') || CASE WHEN e.state = 2 THEN
	' (link up but not configured: no subnet manager?)' WHEN e.phys_state =
	3 AND NOT e.rdis THEN ' (disabled: down on purpose)' WHEN e.module IS
	'unplugged' THEN
	' (no cable or module: the kernel log says Cable unplugged and no plug since: down on purpose)'
	WHEN e.rdis THEN
	' (disabled: what a RoCE port reports when its netdev is down or has no carrier'
	|| CASE WHEN e.moderr THEN
	'; after a module error event (CABLE_MODULE_ERROR): it should be up'
	WHEN e.cls IS NOT NULL THEN '; ' || e.cls || ' of the node''s other '
	|| coalesce(e.hca || ' ', '') ||
	'Ethernet ports Active: it should be up' WHEN e.fleet IS NOT NULL THEN
	'; the same port is Active on ' || e.fleet ||
	' other nodes of its class: it should be up' ELSE
	'; nothing says it should be up: set down, or no cable or peer' END ||
	')' WHEN e.phys_state = 2 AND e.state = 1 THEN
	' (polling: no link partner' || CASE WHEN e.module IS 'plugged' THEN
	'; a cable is plugged (kernel log): the cable, the peer port or the switch'
	WHEN e.moderr THEN
	'; after a module error event (CABLE_MODULE_ERROR): it should be up'
	WHEN e.sib > 0 THEN '; ' || e.sib || ' other port' || CASE WHEN e.sib >
	1 THEN 's' ELSE '' END || ' of the node Active: it should be up' WHEN
	e.fleet IS NOT NULL THEN '; the same port is Active on ' || e.fleet ||
	' other nodes of its class: it should be up' ELSE
	'; nothing says it should be up: no cable, or the peer port is down'
	END || ')' ELSE '' END || CASE WHEN e.vf THEN
	'; an SR-IOV VF: its port follows its PF''s' || coalesce(' (' || e.pf
		|| ')', ' (PF not in the bundle)') ELSE '' END,
	'sys/class/infiniband/' || e.ibdev || '/ports/' || e.port ||
	'/state	' || coalesce(e.state_text, '') || char(10) ||
	'sys/class/infiniband/' || e.ibdev || '/ports/' || e.port ||
	'/phys_state	' || coalesce(e.phys_state_text, '') || CASE WHEN
	e.module IS NOT NULL THEN char(10) || CASE WHEN EXISTS (SELECT 1
	FROM klog k
	WHERE k.bundle_id = e.bundle_id AND k.seq IS NOT NULL) THEN
	'rdma-collect/klog/kmsg.txt' ELSE 'rdma-collect/klog/syslog.txt' END ||
	char(9) || 'last module event of ' || e.pci || ': Cable ' || e.module
	ELSE '' END, CASE WHEN e.vf AND e.pf LIKE '% down%' THEN 0 WHEN e.vf
	THEN min(e.base, 1) ELSE e.base END
FROM e
ORDER BY e.bundle_id, e.ibdev, e.port
