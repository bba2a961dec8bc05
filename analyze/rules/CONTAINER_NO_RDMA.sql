-- CONTAINER_NO_RDMA: snapshot taken in a container that cannot see /dev/infiniband
-- (analyze/rules-app.c; one row per finding: bundle_id, component, summary,
-- evidence, severity: rules.h)
SELECT c.bundle_id, 'container', 'the snapshot was taken in a container (' ||
	c.value || ') that does not see /dev/infiniband', 'manifest.json' ||
	char(9) || 'container detected: ' || c.value || char(10) || v.path ||
	char(9) || '/dev/infiniband not visible (absent or empty)', NULL
FROM facts c
JOIN todo_rule t ON t.bundle_id = c.bundle_id
JOIN facts v ON v.bundle_id = c.bundle_id AND v.key = 'devinfiniband_visible'
WHERE c.key = 'container' AND c.value <> 'no' AND v.value = '0'
