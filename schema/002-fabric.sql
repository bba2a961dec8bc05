-- rdma-analyze database, schema version 2: fabric evidence over MADs
-- (analyze/load-fabric.c).  Documented in schema/DATABASE.md.
--
-- The mad source (rdma-collect/mad/<ibdev>.<port>.json): what one node's
-- InfiniBand port sees over SMPs and the PMA, for itself ('local') and for
-- the node at the far end of its cable ('peer').  The fabric source
-- (rdma-collect/fabric/fabric.json): a whole-subnet discovery.
--
-- PortInfo values are stored raw, as the MADs carry them (libibmad field
-- names, shortened): state 1 Down 2 Init 3 Armed 4 Active; phys_state 5
-- LinkUp; widths a bit mask (1 1X, 2 4X, 4 8X, 8 12X, 16 2X); speeds a bit
-- mask (1 SDR, 2 DDR, 4 QDR), ext speeds a bit mask (1 FDR, 2 EDR, 4 HDR,
-- 8 NDR); an active ext speed overrides the active speed.  GUIDs as
-- "0x" + 16 lower-case hex digits.

-- one row per IB port of the node with a mad document
CREATE TABLE mad_ports (
	bundle_id INTEGER NOT NULL REFERENCES bundles (id),
	ibdev TEXT NOT NULL,
	port INTEGER NOT NULL,
	status TEXT,			-- ok | partial | error
	errors TEXT,			-- "sminfo: timeout; peer_pma: ..." (NULL: none)
	path TEXT,			-- rdma-collect/mad/<ibdev>.<port>.json
	PRIMARY KEY (bundle_id, ibdev, port)
);

-- NodeInfo, NodeDescription and PortInfo of both ends of the port's cable:
-- side 'local' (the port itself) and 'peer' (directed route 0,<port>: the
-- switch port, or the HCA port of a back-to-back cable)
CREATE TABLE mad_portinfo (
	bundle_id INTEGER NOT NULL REFERENCES bundles (id),
	ibdev TEXT NOT NULL,
	port INTEGER NOT NULL,		-- the local port this row belongs to
	side TEXT NOT NULL,		-- local | peer
	node_guid TEXT,
	port_guid TEXT,
	system_guid TEXT,
	node_type INTEGER,		-- 1 CA, 2 switch, 3 router
	num_ports INTEGER,
	node_desc TEXT,
	vendor_id INTEGER,
	device_id INTEGER,
	dr_path TEXT,			-- peer: "0,1"
	port_num INTEGER,		-- NodeInfo LocalPort: the port number on that node
	lid INTEGER,			-- a switch's: its port 0's
	sm_lid INTEGER,
	lmc INTEGER,
	state INTEGER,
	phys_state INTEGER,
	width_enabled INTEGER,
	width_supported INTEGER,
	width_active INTEGER,
	speed_enabled INTEGER,
	speed_supported INTEGER,
	speed_active INTEGER,
	speed_ext_enabled INTEGER,
	speed_ext_supported INTEGER,
	speed_ext_active INTEGER,
	mtu_cap INTEGER,		-- 1 256 ... 5 4096
	neighbor_mtu INTEGER,
	cap_mask INTEGER,
	PRIMARY KEY (bundle_id, ibdev, port, side)
);

-- SMInfo of the SM the port's PortInfo names; one row per port that has a
-- mad document: state NULL with error set when there was no answer or no
-- SM LID
CREATE TABLE mad_sminfo (
	bundle_id INTEGER NOT NULL REFERENCES bundles (id),
	ibdev TEXT NOT NULL,
	port INTEGER NOT NULL,
	sm_lid INTEGER,			-- where SMInfo was sent
	guid TEXT,			-- SmInfoGuid
	activity INTEGER,
	priority INTEGER,
	state INTEGER,			-- 0 NOTACTIVE 1 DISCOVERING 2 STANDBY 3 MASTER
	error TEXT,			-- errors.sminfo: "no SM LID", "timeout" ...
	PRIMARY KEY (bundle_id, ibdev, port)
);

-- PMA counters of both ends (grp PortCounters | PortCountersExtended, name
-- as libibmad/perfquery print it: SymbolErrorCounter, PortXmitWait ...)
CREATE TABLE mad_counters (
	bundle_id INTEGER NOT NULL REFERENCES bundles (id),
	ibdev TEXT NOT NULL,
	port INTEGER NOT NULL,
	side TEXT NOT NULL,		-- local | peer
	grp TEXT NOT NULL,
	name TEXT NOT NULL,
	value INTEGER,
	PRIMARY KEY (bundle_id, ibdev, port, side, grp, name)
) WITHOUT ROWID;

-- one row per fabric scan (a bundle made with --fabric)
CREATE TABLE fabric_scans (
	bundle_id INTEGER PRIMARY KEY REFERENCES bundles (id),
	status TEXT,			-- ok | partial
	reason TEXT,			-- why partial
	from_ibdev TEXT,		-- the port the scan ran from
	from_port INTEGER,
	duration_ms INTEGER,
	nodes INTEGER,			-- rows loaded into fabric_nodes
	switches INTEGER,
	ports INTEGER,			-- rows loaded into fabric_ports
	links INTEGER,			-- cables (each counted once)
	lft_entries INTEGER,
	errors INTEGER,			-- per-node/port MAD failures listed
	error_text TEXT,		-- the first of them, one per line
	dropped INTEGER			-- nodes, ports or entries over the loader's caps
);

CREATE TABLE fabric_nodes (
	bundle_id INTEGER NOT NULL REFERENCES bundles (id),
	guid TEXT NOT NULL,		-- node GUID
	type INTEGER,			-- 1 CA, 2 switch, 3 router
	desc TEXT,			-- NodeDescription
	num_ports INTEGER,
	lid INTEGER,			-- a switch's (port 0); a CA's ports have their own
	system_guid TEXT,
	vendor_id INTEGER,
	device_id INTEGER,
	dr_path TEXT,			-- directed route from the scanning port
	lft_top INTEGER,		-- switches: LIDs in the forwarding table (LinearFDBTop + 1)
	PRIMARY KEY (bundle_id, guid)
);

CREATE TABLE fabric_ports (
	bundle_id INTEGER NOT NULL REFERENCES bundles (id),
	guid TEXT NOT NULL,		-- the node's GUID
	port INTEGER NOT NULL,		-- 0 = a switch's management port
	port_guid TEXT,
	lid INTEGER,
	lmc INTEGER,
	state INTEGER,
	phys_state INTEGER,
	width_enabled INTEGER,
	width_supported INTEGER,
	width_active INTEGER,
	speed_enabled INTEGER,
	speed_supported INTEGER,
	speed_active INTEGER,
	speed_ext_enabled INTEGER,
	speed_ext_supported INTEGER,
	speed_ext_active INTEGER,
	remote_guid TEXT,		-- the node at the far end; NULL: no link
	remote_port INTEGER,
	PRIMARY KEY (bundle_id, guid, port)
);

CREATE TABLE fabric_counters (
	bundle_id INTEGER NOT NULL REFERENCES bundles (id),
	guid TEXT NOT NULL,
	port INTEGER NOT NULL,
	grp TEXT NOT NULL,		-- PortCounters | PortCountersExtended
	name TEXT NOT NULL,
	value INTEGER,
	PRIMARY KEY (bundle_id, guid, port, grp, name)
) WITHOUT ROWID;

-- the switches' linear forwarding tables: entries with a route only (an
-- exit port of 255, or a LID past the table, means no route)
CREATE TABLE fabric_lft (
	bundle_id INTEGER NOT NULL REFERENCES bundles (id),
	guid TEXT NOT NULL,		-- the switch's node GUID
	lid INTEGER NOT NULL,		-- destination LID
	port INTEGER NOT NULL,		-- exit port
	PRIMARY KEY (bundle_id, guid, lid)
) WITHOUT ROWID;

CREATE INDEX fabric_ports_lid ON fabric_ports (bundle_id, lid);
