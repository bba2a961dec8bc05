-- PEERMEM_MISSING: GPUs and HCAs without nvidia_peermem (or it fails to load)
-- (analyze/rules-app.c; one row per finding: bundle_id, component, summary,
-- evidence, severity: rules.h)
-- GPUs: the PCI functions, else the NCCL log's "cudaDev N
-- ... busId X"; HCAs: the RDMA devices or HCA functions, else
-- the NCCL log's "NET/IB : Using [0]mlx5_0:1/IB".  A module
-- list is evidence of absence only when whole (a grep keeps
-- what it matched), or a grep that printed nothing for both
-- peer-memory modules (facts module_absent/<name>,
-- load-kernel.c); GPUDirect RDMA that NCCL enabled shows a
-- peer-memory client (or DMA-BUF) at work
WITH b AS (SELECT t.bundle_id, coalesce((SELECT CAST(value AS INTEGER)
			FROM facts f
			WHERE f.bundle_id = t.bundle_id AND f.key = 'gpus'), 0)
		AS pgpus, (SELECT count(DISTINCT n.detail)
		FROM nccl_events n
		WHERE n.bundle_id = t.bundle_id AND n.kind = 'gpu') AS ngpus,
		max((SELECT count(*)
			FROM devices d
			WHERE d.bundle_id = t.bundle_id AND d.pci_addr IS NOT
				NULL), (SELECT count(*)
			FROM pci_functions h
			WHERE h.bundle_id = t.bundle_id AND h.kind = 'hca')) AS
		phcas, (SELECT count(DISTINCT n.hca)
		FROM nccl_events n
		WHERE n.bundle_id = t.bundle_id AND n.kind = 'ib_using') AS
		nhcas, (SELECT value
		FROM facts f
		WHERE f.bundle_id = t.bundle_id AND f.key = 'peermem_loaded')
		AS peer, (SELECT count(*)
		FROM facts f
		WHERE f.bundle_id = t.bundle_id AND f.key IN (
				'module_absent/nvidia_peermem',
				'module_absent/nv_peer_mem')) AS greps, (SELECT
			group_concat(v, ' and ')
		FROM (SELECT DISTINCT '''' || f.value || '''' AS v
			FROM facts f
			WHERE f.bundle_id = t.bundle_id AND f.key GLOB
				'module_absent/*'
			ORDER BY v DESC)) AS gtext, EXISTS (SELECT 1
		FROM sources s
		WHERE s.bundle_id = t.bundle_id AND s.name = 'modules' AND
			s.status = 'ok') AS whole, (SELECT count(*)
		FROM klog k
		WHERE k.bundle_id = t.bundle_id AND k.category = 'peermem' AND
			(k.prio <= 4 OR k.text LIKE '%fail%' OR k.text LIKE
				'%error%' OR k.text LIKE '%Unknown symbol%'))
		AS klog, (SELECT k.text
		FROM klog k
		WHERE k.bundle_id = t.bundle_id AND k.category = 'peermem' AND
			(k.prio <= 4 OR k.text LIKE '%fail%' OR k.text LIKE
				'%error%' OR k.text LIKE '%Unknown symbol%')
		ORDER BY k.seq
		LIMIT 1) AS ktext, (SELECT n.attachment || char(9) || 'line '
			|| n.line || ': ' || n.text
		FROM nccl_events n
		WHERE n.bundle_id = t.bundle_id AND n.kind = 'gpu'
		ORDER BY n.attachment, n.line
		LIMIT 1) AS gline, (SELECT n.attachment || char(9) || 'line '
			|| n.line || ': ' || n.text
		FROM nccl_events n
		WHERE n.bundle_id = t.bundle_id AND n.kind = 'ib_using'
		ORDER BY n.attachment, n.line
		LIMIT 1) AS hline
	FROM todo_rule t)
SELECT b.bundle_id, 'nvidia_peermem', CASE WHEN b.klog > 0 THEN
	'nvidia_peermem fails in the kernel log' ELSE
	'neither nvidia_peermem nor nv_peer_mem is loaded' END ||
	' on a node with ' || max(b.pgpus, b.ngpus) || ' NVIDIA GPU(s) and ' ||
	max(b.phcas, b.nhcas) || ' HCA(s): no GPUDirect RDMA', coalesce(
		'proc/modules' || char(9) || CASE WHEN b.peer = '1' THEN
		'nvidia_peermem or nv_peer_mem loaded' WHEN b.whole THEN
		'no nvidia_peermem, no nv_peer_mem' END || char(10), '') ||
	CASE WHEN b.greps = 2 THEN 'rdma-collect/import/printed-nothing.txt' ||
	char(9) || b.gtext || ' printed nothing' || char(10) ELSE '' END ||
	CASE WHEN b.pgpus > 0 THEN 'sys/bus/pci/devices' || char(9) || b.pgpus
	|| ' NVIDIA GPU function(s)' ELSE b.gline || ' (' || b.ngpus ||
	' GPU(s) in the NCCL log)' END || char(10) || CASE WHEN b.phcas > 0
	THEN 'sys/class/infiniband' || char(9) || b.phcas || ' HCA(s)' ELSE
	b.hline || ' (' || b.nhcas || ' HCA(s) NCCL uses)' END || coalesce(char
		(10) || 'rdma-collect/klog' || char(9) || b.ktext, ''), NULL
FROM b
WHERE max(b.pgpus, b.ngpus) > 0 AND max(b.phcas, b.nhcas) > 0 AND ((b.peer =
			'0' AND b.whole) OR b.klog > 0 OR (b.greps = 2 AND
			b.peer IS NOT '1')) AND NOT EXISTS (SELECT 1
	FROM nccl_events g
	WHERE g.bundle_id = b.bundle_id AND g.kind = 'gdr' AND g.enabled = 1)
