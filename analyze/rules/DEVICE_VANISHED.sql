-- DEVICE_VANISHED: a device disappeared while it was being listed
-- (analyze/rules-evidence.c; one row per finding: bundle_id, component, summary,
-- evidence, severity: rules.h)
-- what an import recorded (imp-ib.c): the device is the last
-- part of the path, the input file its origin
SELECT o.bundle_id, substr(o.path, 30), substr(o.path, 30) ||
	' disappeared while ' || o.origin ||
	' listed it: listed, then it could not be read; the devices after it were never printed'
	, o.path || char(9) || 'stat of IB device ''' || substr(o.path, 30) ||
	''' failed (' || o.origin || ')', NULL
FROM import_origins o
JOIN todo_rule t ON t.bundle_id = o.bundle_id
WHERE o.path > 'rdma-collect/import/vanished/' AND o.path <
	'rdma-collect/import/vanished0'
ORDER BY o.bundle_id, o.path
