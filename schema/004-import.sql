-- rdma-analyze database, schema version 4: imports (analyze/import*.c).
-- Documented in schema/DATABASE.md and schema/IMPORT.md.  A sos report, a
-- sysinfo-snapshot, an ibdiagnet folder or a folder of pasted outputs is
-- loaded as a bundle whose manifest names its kind; these tables say which
-- input file each of its bundle paths came from.

-- one row per imported bundle
CREATE TABLE imports (
	bundle_id INTEGER PRIMARY KEY REFERENCES bundles (id),
	kind TEXT NOT NULL,		-- sos sysinfo-snapshot ibdiagnet outputs
	input TEXT,			-- the archive's or folder's own name
	files INTEGER,			-- input files read
	unused INTEGER,			-- ... of which no reader wanted
	notes TEXT			-- the manifest's import.notes, one a line
);

-- a bundle path of an import -> the input file it came from ("raw": a
-- copy of the node's own file; "derived": written from a tool's text)
CREATE TABLE import_origins (
	bundle_id INTEGER NOT NULL REFERENCES bundles (id),
	path TEXT NOT NULL,
	origin TEXT NOT NULL,
	strength TEXT NOT NULL,		-- raw | derived
	PRIMARY KEY (bundle_id, path)
) WITHOUT ROWID;

-- the input file behind each piece of a finding's evidence (NULL for
-- bundles collected by rdma-collect): the longest stored path that is
-- the evidence path or a folder or link above it
CREATE VIEW evidence_origins AS
SELECT e.rowid AS evidence_rowid, e.finding_id, e.path,
	(SELECT o.origin FROM import_origins o WHERE o.bundle_id = f.bundle_id
	 AND o.path <= e.path AND (o.path = e.path OR substr(e.path, 1,
	 length(o.path) + 1) = o.path || '/') ORDER BY o.path DESC LIMIT 1)
	AS origin
FROM finding_evidence e JOIN findings f ON f.id = e.finding_id;
