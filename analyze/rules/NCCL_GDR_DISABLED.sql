-- NCCL_GDR_DISABLED: an NCCL log reports GPUDirect RDMA disabled on a node with GPUs
-- (analyze/rules-app.c; one row per finding: bundle_id, component, summary,
-- evidence, severity: rules.h)
-- GPUs: the PCI functions (sysfs, lspci) or, when none were
-- given, the communicators' own "cudaDev N ... busId X" (or
-- the cudaDev of the lines' prefix, load-host.c)
WITH g AS (SELECT t.bundle_id, coalesce((SELECT CAST(value AS INTEGER)
			FROM facts f
			WHERE f.bundle_id = t.bundle_id AND f.key = 'gpus'), 0)
		AS pci, (SELECT count(DISTINCT n.detail)
		FROM nccl_events n
		WHERE n.bundle_id = t.bundle_id AND n.kind = 'gpu') AS nccl, (
			SELECT n.attachment || char(9) || 'line ' || n.line ||
			': ' || n.text
		FROM nccl_events n
		WHERE n.bundle_id = t.bundle_id AND n.kind = 'gpu'
		ORDER BY n.attachment, n.line
		LIMIT 1) AS nline
	FROM todo_rule t)
SELECT e.bundle_id, coalesce(e.hca, 'nccl'),
	'NCCL reports GPUDirect RDMA disabled for ' || coalesce('HCA ' || e.hca
		, 'an HCA') || ' on a node with ' || max(g.pci, g.nccl) ||
	' NVIDIA GPU(s)', e.attachment || char(9) || 'line ' || min(e.line) ||
	': ' || e.text || char(10) || CASE WHEN g.pci > 0 THEN
	'sys/bus/pci/devices' || char(9) || g.pci ||
	' NVIDIA GPU function(s) (class 0x03)' ELSE g.nline || ' (' || g.nccl
	|| ' GPU(s) in the NCCL log)' END, NULL
FROM nccl_events e
JOIN g ON g.bundle_id = e.bundle_id
WHERE e.kind = 'gdr' AND e.enabled = 0 AND max(g.pci, g.nccl) > 0 AND NOT
	EXISTS (SELECT 1
	FROM nccl_events o
	WHERE o.bundle_id = e.bundle_id AND o.attachment = e.attachment AND
		o.kind = 'gdr' AND o.enabled = 1 AND o.hca IS e.hca AND o.line
		> e.line)
GROUP BY e.bundle_id, e.hca
