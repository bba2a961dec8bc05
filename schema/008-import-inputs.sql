-- 008: what became of each input file of an import (analyze/import.c),
-- so that every report can name the files no reader took, or took only
-- in part (INPUT_UNREAD), and count what was read.  A pasted ticket cut
-- at its prompt lines has a row per part (line: where the part starts).
-- A sos report's many files that no reader is meant for are not rows:
-- imports.unused counts them.
CREATE TABLE import_inputs (
	bundle_id INTEGER NOT NULL REFERENCES bundles (id),
	file TEXT NOT NULL,		-- relative to the input's top folder
	line INTEGER NOT NULL,		-- the part's first line; 0: whole file
	command TEXT,			-- the part's prompt command line
	reader TEXT,			-- the tool whose reader took it
	status TEXT NOT NULL,		-- read | partial | unread | failed |
					-- ignored (failed: the tool printed
					-- only its error;
					-- ignored: a ticket's prose between
					-- its outputs)
	reason TEXT,			-- why not (all of) it
	PRIMARY KEY (bundle_id, file, line)
) WITHOUT ROWID;
