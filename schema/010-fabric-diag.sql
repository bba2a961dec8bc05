-- 010: ibdiagnet's console log (ibdiagnet2.log, imported as
-- rdma-collect/fabric/ibdiagnet.json by analyze/imp-ibdiag-log.c): what
-- ibdiagnet itself checked and said, not a fabric scan.
-- fabric_diag_stages: the log's Summary (warnings and errors each stage
-- counted) and how many of them the log lists (a stage lists a few; the
-- rest are only in ibdiagnet2.db_csv).  fabric_diag_messages: each
-- warning and error line, with the object it names as ibdiagnet names it
-- ("S<guid>/N<guid>/P3", "host/mlx5_0") and that object's node GUID when
-- the name carries it.  fabric_diag_fw: its FW Check, one row per node
-- whose firmware is older than the newest for the same Devid/PSID.
CREATE TABLE fabric_diag_stages (
	bundle_id INTEGER NOT NULL REFERENCES bundles (id),
	stage TEXT NOT NULL,
	warnings INTEGER,		-- the Summary's count; NULL: not in it
	errors INTEGER,
	listed_warnings INTEGER,	-- the lines the log lists
	listed_errors INTEGER,
	PRIMARY KEY (bundle_id, stage)
);

CREATE TABLE fabric_diag_messages (
	bundle_id INTEGER NOT NULL REFERENCES bundles (id),
	seq INTEGER NOT NULL,		-- the order in the log
	stage TEXT,
	level TEXT,			-- warning | error
	object TEXT,			-- NULL: a line about the stage
	guid TEXT,			-- the object's node GUID, when named
	text TEXT,
	PRIMARY KEY (bundle_id, seq)
);

CREATE TABLE fabric_diag_fw (
	bundle_id INTEGER NOT NULL REFERENCES bundles (id),
	object TEXT NOT NULL,
	guid TEXT,
	device_id INTEGER,
	psid TEXT,
	fw TEXT,			-- the node's
	latest TEXT,			-- the newest for the same Devid/PSID
	PRIMARY KEY (bundle_id, object)
);
