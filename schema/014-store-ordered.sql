-- 014: klog, limits and environment stored as row sets too (issue 23).
-- After 012 they were still copied for every bundle: a next snapshot
-- of an unchanged 8-HCA node paid 11 KiB for its kernel log alone.  Their
-- rows have no key: the checks read them in the order written
-- (`ORDER BY rowid`), so a set keeps that order in `pos` (1.., the
-- staged rows' rowid order; the digest is of the rows in that order)
-- and each view gives a column named rowid, (bundle_id << 32) + pos:
-- within a bundle the order written, across bundles the order of their
-- ids, the order they were loaded in, as the tables' rowid was.
-- (`SELECT *` of these views shows that column last.)
--
-- The tables are renamed here; analyze/store.c stores their rows anew
-- (store_upgrade, run right after this file) and drops the old ones.

ALTER TABLE klog RENAME TO klog_before;
ALTER TABLE limits RENAME TO limits_before;
ALTER TABLE environment RENAME TO environment_before;

CREATE TABLE klog_rows (
	set_id INTEGER NOT NULL REFERENCES row_sets (id),
	pos INTEGER NOT NULL,		-- 1.. in the order written
	seq INTEGER,
	ts_us INTEGER,			-- since boot
	prio INTEGER,
	device TEXT,			-- "0000:b1:00.0" from the record or text
	text TEXT NOT NULL,
	category TEXT,
	PRIMARY KEY (set_id, pos)
) WITHOUT ROWID;
CREATE INDEX klog_rows_cat ON klog_rows (set_id, category);

CREATE TABLE limits_rows (
	set_id INTEGER NOT NULL REFERENCES row_sets (id),
	pos INTEGER NOT NULL,
	who TEXT NOT NULL,		-- collector | pid:N | limits.conf path
	item TEXT NOT NULL,		-- memlock, nofile ...
	domain TEXT,			-- limits.conf: user/@group/*
	type TEXT,			-- soft | hard | -
	value TEXT,			-- "unlimited" or bytes (limits.conf: KiB as written)
	path TEXT,
	PRIMARY KEY (set_id, pos)
) WITHOUT ROWID;

CREATE TABLE environment_rows (
	set_id INTEGER NOT NULL REFERENCES row_sets (id),
	pos INTEGER NOT NULL,
	who TEXT NOT NULL,		-- self | pid:N | nccl.conf
	name TEXT NOT NULL,
	value TEXT,
	PRIMARY KEY (set_id, pos)
) WITHOUT ROWID;

CREATE VIEW klog (bundle_id, seq, ts_us, prio, device, text, category,
	rowid) AS
SELECT b.bundle_id, r.seq, r.ts_us, r.prio, r.device, r.text, r.category,
	(b.bundle_id << 32) + r.pos
FROM bundle_sets b JOIN klog_rows r ON r.set_id = b.set_id
WHERE b.tbl = 'klog';

CREATE VIEW limits (bundle_id, who, item, domain, type, value, path, rowid) AS
SELECT b.bundle_id, r.who, r.item, r.domain, r.type, r.value, r.path,
	(b.bundle_id << 32) + r.pos
FROM bundle_sets b JOIN limits_rows r ON r.set_id = b.set_id
WHERE b.tbl = 'limits';

CREATE VIEW environment (bundle_id, who, name, value, rowid) AS
SELECT b.bundle_id, r.who, r.name, r.value, (b.bundle_id << 32) + r.pos
FROM bundle_sets b JOIN environment_rows r ON r.set_id = b.set_id
WHERE b.tbl = 'environment';
