-- rdma-analyze database, schema version 3: fleet comparison
-- (analyze/fingerprint.c, analyze/rules-fleet.c).  Documented in
-- schema/DATABASE.md, which lists every attribute name.
--
-- A bundle's configuration fingerprint is computed from the other tables
-- after load (fingerprint_update()), never from the bundle itself: what the
-- node is (hardware shape, firmware, drivers, settings), apart from what it
-- is doing (counters, logs, states that change by the minute).

-- one row per bundle whose fingerprint was computed
CREATE TABLE fingerprints (
	bundle_id INTEGER PRIMARY KEY REFERENCES bundles (id),
	version INTEGER NOT NULL,	-- of the attribute set: older rows are recomputed
	class TEXT NOT NULL,		-- hardware shape: "MT4129/InfiniBand" ...
	digest TEXT NOT NULL		-- of the compared attributes (grp fw driver
					-- config count): equal digests, equal config
);

-- one row per attribute: names are stable (DATABASE.md), per device or
-- port ones carry its name ("hca.mlx5_0.fw", "port.mlx5_0.1.mtu")
CREATE TABLE fingerprint_attrs (
	bundle_id INTEGER NOT NULL REFERENCES bundles (id),
	attr TEXT NOT NULL,
	grp TEXT NOT NULL,		-- class fw driver config count: compared
					-- with the class; unique: must differ
					-- between nodes (GUIDs, addresses)
	value TEXT,			-- NULL: known to be absent
	path TEXT,			-- bundle path (or table) it came from
	PRIMARY KEY (bundle_id, attr)
) WITHOUT ROWID;

-- duplicates of the 'unique' attributes across nodes
CREATE INDEX fingerprint_attrs_value ON fingerprint_attrs (grp, value);
