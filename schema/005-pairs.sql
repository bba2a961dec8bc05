-- rdma-analyze database, schema version 5: the last `rdma-analyze pairs`
-- run (analyze/pairs-run.c), kept for the HTML report's pair heatmap and
-- fabric picture.  Documented in schema/PAIRS.md.  Its findings (layer
-- pairs) are rows of `findings`, on the bundle named there.  Each run
-- replaces the one before.

-- what the run was given and found (one row)
CREATE TABLE pair_runs (
	id INTEGER PRIMARY KEY,
	method TEXT NOT NULL,		-- best | tomography
	topology TEXT NOT NULL,		-- fabric | mad | none
	scan_bundle INTEGER,		-- the fabric scan of the routes, NULL
	results INTEGER NOT NULL,	-- pair results used
	failing INTEGER NOT NULL,	-- of them failing (degraded included)
	degraded INTEGER NOT NULL,
	noise REAL			-- the noise rate the method used
);

-- the hosts of the results: the leaf switch of their first HCA port
-- (a label, NULL when no topology names it) and their newest bundle
CREATE TABLE pair_hosts (
	name TEXT PRIMARY KEY,
	leaf TEXT,
	bundle_id INTEGER		-- NULL: no bundle of that host
) WITHOUT ROWID;

-- one row per pair of hosts tested (a < b): the results of all their HCA
-- pairs, both directions
CREATE TABLE pair_cells (
	a TEXT NOT NULL,
	b TEXT NOT NULL,
	ok INTEGER NOT NULL,
	fail INTEGER NOT NULL,		-- failed (not degraded)
	degraded INTEGER NOT NULL,
	suspect INTEGER,		-- pair_suspects.rank explaining the first
					-- of its failing results; NULL: none
	PRIMARY KEY (a, b)
) WITHOUT ROWID;

-- the suspects in report order, as `pairs --json` lists them
CREATE TABLE pair_suspects (
	rank INTEGER PRIMARY KEY,
	rule TEXT NOT NULL,
	severity INTEGER NOT NULL,
	kind TEXT NOT NULL,		-- cable link half hca node switch
	key TEXT NOT NULL,
	component TEXT NOT NULL,
	host TEXT,			-- node, cable, hca: its host
	guid0 TEXT,			-- the physical ends (NULL: none)
	port0 INTEGER,
	guid1 TEXT,
	port1 INTEGER,
	failing INTEGER NOT NULL,	-- failing / passing results through it
	passing INTEGER NOT NULL,
	weak INTEGER NOT NULL,
	finding_id INTEGER		-- its row of findings; NULL: no bundle holds it
);
