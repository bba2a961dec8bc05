-- 007: the two largest tables keyed for the checks' reads.  A check reads
-- a few counters by name in every bundle it judges ("symbol_error" of
-- every port, the pause durations of every netdev); keyed by port or
-- netdev first, each such read scanned all of a bundle's counters (about
-- 500 port counters and 900 ethtool counters on an 8-HCA node), and the
-- planner, with no cheaper way in, scanned the whole table.  Keyed by
-- name after the bundle, the same read is a few seeks.  Reads by port or
-- netdev (the views, history) still start with bundle_id.
CREATE TABLE counters_new (
	bundle_id INTEGER NOT NULL REFERENCES bundles (id),
	ibdev TEXT NOT NULL,
	port INTEGER NOT NULL,
	kind TEXT NOT NULL,
	name TEXT NOT NULL,
	value INTEGER,
	value2 INTEGER,
	interval_ms INTEGER,		-- between the two reads
	path TEXT,			-- bundle path of the first read
	PRIMARY KEY (bundle_id, kind, name, ibdev, port)
) WITHOUT ROWID;
INSERT INTO counters_new SELECT bundle_id, ibdev, port, kind, name, value,
	value2, interval_ms, path FROM counters;
DROP TABLE counters;
ALTER TABLE counters_new RENAME TO counters;

CREATE TABLE netdev_stats_new (
	bundle_id INTEGER NOT NULL REFERENCES bundles (id),
	netdev TEXT NOT NULL,
	source TEXT NOT NULL,
	name TEXT NOT NULL,
	value INTEGER,
	value2 INTEGER,
	interval_ms INTEGER,
	PRIMARY KEY (bundle_id, source, name, netdev)
) WITHOUT ROWID;
INSERT INTO netdev_stats_new SELECT bundle_id, netdev, source, name, value,
	value2, interval_ms FROM netdev_stats;
DROP TABLE netdev_stats;
ALTER TABLE netdev_stats_new RENAME TO netdev_stats;

-- the index for duplicate GUIDs and addresses covers only what is
-- compared for duplicates: every one of a bundle's ~170 configuration
-- attributes went into it (the fingerprints' insert time, 20% less)
DROP INDEX fingerprint_attrs_value;
CREATE INDEX fingerprint_attrs_unique ON fingerprint_attrs (value)
	WHERE grp = 'unique';
