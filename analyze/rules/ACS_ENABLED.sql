-- ACS_ENABLED: ACS redirect or source validation on a PCIe bridge between a GPU and an HCA
-- (analyze/rules-pci.c; one row per finding: bundle_id, component, summary,
-- evidence, severity: rules.h)
-- the ancestors of every HCA and GPU; for each pair below a
-- common bridge, the bridges strictly below that bridge on
-- both sides are the ones P2P traffic crosses.  Only in
-- bundles where some function redirects at all: the walk
-- is most of the rule's time, and most nodes have ACS off
-- an import's ACSCtl lines without their functions
-- (lspci -vvv | grep ACSCtl): redirect is on
-- somewhere, where is not known: a warning
-- the ACSCtl line as lspci -vvv prints it, from pci_acs x
WITH RECURSIVE anc(bundle_id, dev, kind, addr, depth) AS (SELECT f.bundle_id,
		f.addr, f.kind, f.parent_addr, 1
	FROM pci_functions f
	JOIN todo_rule t ON t.bundle_id = f.bundle_id
	WHERE f.kind IN ('hca', 'gpu') AND f.parent_addr IS NOT NULL AND EXISTS
		(SELECT 1
		FROM pci_acs x
		WHERE x.bundle_id = f.bundle_id AND x.ctrl & 13 <> 0)
	UNION
	SELECT a.bundle_id, a.dev, a.kind, f.parent_addr, a.depth + 1
	FROM anc a
	JOIN pci_functions f ON f.bundle_id = a.bundle_id AND f.addr = a.addr
	WHERE f.parent_addr IS NOT NULL AND a.depth < 32), pair AS (SELECT
		h.bundle_id, h.dev AS hca, g.dev AS gpu, min(h.depth) AS hd,
		min(g.depth) AS gd
	FROM anc h
	JOIN anc g ON g.bundle_id = h.bundle_id AND g.addr = h.addr AND g.kind
		= 'gpu'
	WHERE h.kind = 'hca'
	GROUP BY h.bundle_id, h.dev, g.dev), btw AS (SELECT DISTINCT
		p.bundle_id, a.addr, p.hca, p.gpu
	FROM pair p
	JOIN anc a ON a.bundle_id = p.bundle_id AND ((a.dev = p.hca AND a.depth
				< p.hd) OR (a.dev = p.gpu AND a.depth < p.gd)))
SELECT b.bundle_id, b.addr, 'ACS ' || trim(CASE WHEN x.ctrl & 4 THEN
		'ReqRedir+ ' ELSE '' END || CASE WHEN x.ctrl & 8 THEN
		'CmpltRedir+ ' ELSE '' END || CASE WHEN x.ctrl & 1 THEN
		'SrcValid+' ELSE '' END) || ' on PCIe ' || coalesce(
		f.pcie_port_type, 'bridge') || ' ' || b.addr || ' between HCA '
	|| group_concat(DISTINCT b.hca || coalesce(' (' || (SELECT h.ibdev
			FROM pci_functions h
			WHERE h.bundle_id = b.bundle_id AND h.addr = b.hca) ||
			')', '')) || ' and GPU ' || group_concat(DISTINCT b.gpu
		) ||
	': peer-to-peer (GPUDirect RDMA) traffic is redirected through the root complex'
	, f.path || '/config' || char(9) || printf('[%03x] ', x.offset) ||
	'ACSCtl:' || char(9) || 'SrcValid' || CASE WHEN x.ctrl & 1 THEN '+'
	ELSE '-' END || ' TransBlk' || CASE WHEN x.ctrl & 2 THEN '+' ELSE '-'
	END || ' ReqRedir' || CASE WHEN x.ctrl & 4 THEN '+' ELSE '-' END ||
	' CmpltRedir' || CASE WHEN x.ctrl & 8 THEN '+' ELSE '-' END ||
	' UpstreamFwd' || CASE WHEN x.ctrl & 16 THEN '+' ELSE '-' END ||
	' EgressCtrl' || CASE WHEN x.ctrl & 32 THEN '+' ELSE '-' END ||
	' DirectTrans' || CASE WHEN x.ctrl & 64 THEN '+' ELSE '-' END, NULL
FROM btw b
JOIN pci_acs x ON x.bundle_id = b.bundle_id AND x.addr = b.addr
JOIN pci_functions f ON f.bundle_id = b.bundle_id AND f.addr = b.addr
WHERE x.ctrl & 13 <> 0
GROUP BY b.bundle_id, b.addr
UNION ALL
SELECT o.bundle_id, 'pci', o.value || ' of ' || n.value ||
	' ACSCtl lines redirect or validate (SrcValid+, ReqRedir+ or CmpltRedir+), but lspci was filtered to those lines: which bridges they are, and whether one lies between a GPU and an HCA, is not known'
	, o.path || char(9) || o.value || ' of ' || n.value ||
	' ACSCtl lines with SrcValid+, ReqRedir+ or CmpltRedir+', 1
FROM facts o
JOIN todo_rule t ON t.bundle_id = o.bundle_id
JOIN facts n ON n.bundle_id = o.bundle_id AND n.key = 'acsctl_unplaced'
WHERE o.key = 'acsctl_unplaced_on' AND CAST(o.value AS INTEGER) > 0
