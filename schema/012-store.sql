-- 012: store what changed (issue 23), the storage; 013 puts the views
-- with the old tables' names over it.  A bundle of an 8-HCA node took
-- 180 KiB, and most of it was the same in every bundle: the counter
-- tables' text keys (ibdev, kind, name, path) repeated in each of 1,400
-- rows, values that are zero, and the rows of what the node is (devices,
-- ports, PCI functions, modules ...), the same as its previous snapshot's.
--
-- The counter tables (counters, netdev_stats):
--   - a bundle's keys are a key set, stored once for every bundle that
--     has the same keys (content-addressed: the SHA-256 of the keys, in
--     key order, in `digest`); `slot` numbers a key within its set;
--   - a bundle's values are stored only where they are not implied: a
--     key's implied row is value 0 and, for a key read twice (`sampled`:
--     its value2 was not NULL), value2 0 and the bundle's interval_ms,
--     else value2 and interval_ms NULL.  NULL (unreadable) is not zero
--     and is stored.
-- analyze/store.c writes these tables (load's rows are staged in temp
-- tables of the old shape, then stored), moves the rows of a database
-- made before into them and drops the old tables (store_upgrade, run
-- right after this file), and removes the shared rows no bundle refers
-- to (evidence_gc).

CREATE TABLE counter_sets (
	id INTEGER PRIMARY KEY,
	digest BLOB NOT NULL UNIQUE	-- SHA-256 of the keys (store.c)
);
CREATE TABLE counter_keys (
	set_id INTEGER NOT NULL REFERENCES counter_sets (id),
	kind TEXT NOT NULL,
	name TEXT NOT NULL,
	ibdev TEXT NOT NULL,
	port INTEGER NOT NULL,
	slot INTEGER NOT NULL,		-- 1.. in key order
	path TEXT,
	sampled INTEGER NOT NULL,	-- 1: value2 was read
	PRIMARY KEY (set_id, kind, name, ibdev, port)
) WITHOUT ROWID;
CREATE TABLE counter_bundles (
	bundle_id INTEGER PRIMARY KEY REFERENCES bundles (id),
	set_id INTEGER NOT NULL REFERENCES counter_sets (id),
	interval_ms INTEGER		-- of the implied rows read twice
);
CREATE TABLE counter_values (
	bundle_id INTEGER NOT NULL REFERENCES bundles (id),
	slot INTEGER NOT NULL,
	value INTEGER,
	value2 INTEGER,
	interval_ms INTEGER,
	PRIMARY KEY (bundle_id, slot)
) WITHOUT ROWID;

CREATE TABLE netdev_stat_sets (
	id INTEGER PRIMARY KEY,
	digest BLOB NOT NULL UNIQUE
);
CREATE TABLE netdev_stat_keys (
	set_id INTEGER NOT NULL REFERENCES netdev_stat_sets (id),
	source TEXT NOT NULL,
	name TEXT NOT NULL,
	netdev TEXT NOT NULL,
	slot INTEGER NOT NULL,
	sampled INTEGER NOT NULL,
	PRIMARY KEY (set_id, source, name, netdev)
) WITHOUT ROWID;
CREATE TABLE netdev_stat_bundles (
	bundle_id INTEGER PRIMARY KEY REFERENCES bundles (id),
	set_id INTEGER NOT NULL REFERENCES netdev_stat_sets (id),
	interval_ms INTEGER
);
CREATE TABLE netdev_stat_values (
	bundle_id INTEGER NOT NULL REFERENCES bundles (id),
	slot INTEGER NOT NULL,
	value INTEGER,
	value2 INTEGER,
	interval_ms INTEGER,
	PRIMARY KEY (bundle_id, slot)
) WITHOUT ROWID;

-- The tables whose rows seldom change (what the node is: devices, ports,
-- GIDs, PCI functions, modules, netdevs ...): a bundle's rows of table T
-- are a row set, stored once in T_rows for every bundle whose rows of T
-- are the same (the same node's next snapshot; the digest is the SHA-256
-- of the rows in the order they were written); bundle_sets says which set
-- of each table a bundle has (none: it has no row there).  The view T
-- (013) gives the rows of old, with the bundle's id.
CREATE TABLE row_sets (
	id INTEGER PRIMARY KEY,
	tbl TEXT NOT NULL,		-- the table (its view's name)
	digest BLOB NOT NULL,
	UNIQUE (tbl, digest)
);
CREATE TABLE bundle_sets (
	bundle_id INTEGER NOT NULL REFERENCES bundles (id),
	tbl TEXT NOT NULL,
	set_id INTEGER NOT NULL REFERENCES row_sets (id),
	PRIMARY KEY (bundle_id, tbl)
) WITHOUT ROWID;

CREATE TABLE addresses_rows (
	set_id INTEGER NOT NULL REFERENCES row_sets (id),
	netdev TEXT NOT NULL,
	family TEXT,			-- inet | inet6
	address TEXT NOT NULL,
	prefixlen INTEGER
);
CREATE INDEX addresses_rows_set ON addresses_rows (set_id);

CREATE TABLE devices_rows (
	set_id INTEGER NOT NULL REFERENCES row_sets (id),
	ibdev TEXT NOT NULL,
	node_type TEXT,			-- "1: CA"
	node_guid TEXT,			-- xxxx:xxxx:xxxx:xxxx
	sys_image_guid TEXT,
	fw_ver TEXT,
	hca_type TEXT,			-- MT4129
	board_id TEXT,			-- PSID
	hw_rev TEXT,
	node_desc TEXT,
	pci_addr TEXT,			-- NULL for software devices (rxe)
	parent TEXT,			-- rxe: its netdev
	vendor_id INTEGER,		-- verbs (IB OUI, 0x02c9)
	vendor_part_id INTEGER,
	phys_port_cnt INTEGER,
	PRIMARY KEY (set_id, ibdev)
);

CREATE TABLE devnodes_rows (
	set_id INTEGER NOT NULL REFERENCES row_sets (id),
	name TEXT NOT NULL,
	type TEXT,
	mode TEXT,
	uid INTEGER, gid INTEGER,
	user TEXT, "group" TEXT,
	major INTEGER, minor INTEGER,
	PRIMARY KEY (set_id, name)
);

CREATE TABLE facts_rows (
	set_id INTEGER NOT NULL REFERENCES row_sets (id),
	key TEXT NOT NULL,
	value TEXT,
	path TEXT,
	PRIMARY KEY (set_id, key)
);

CREATE TABLE gids_rows (
	set_id INTEGER NOT NULL REFERENCES row_sets (id),
	ibdev TEXT NOT NULL,
	port INTEGER NOT NULL,
	idx INTEGER NOT NULL,
	gid TEXT NOT NULL,		-- 8 groups, as sysfs prints it
	type TEXT,			-- "IB/RoCE v1" | "RoCE v2"
	ndev TEXT,
	ipv4 TEXT,			-- the IPv4 of an IPv4-mapped GID
	PRIMARY KEY (set_id, ibdev, port, idx)
);

CREATE TABLE ibdev_pci_rows (
	set_id INTEGER NOT NULL REFERENCES row_sets (id),
	ibdev TEXT NOT NULL,
	pci_addr TEXT NOT NULL,
	PRIMARY KEY (set_id, ibdev)
);

CREATE TABLE iommu_groups_rows (
	set_id INTEGER NOT NULL REFERENCES row_sets (id),
	grp INTEGER NOT NULL,
	type TEXT,
	path TEXT,			-- bundle path of the type file
	PRIMARY KEY (set_id, grp)
);

CREATE TABLE link_active_rows (
	set_id INTEGER NOT NULL REFERENCES row_sets (id),
	ibdev TEXT NOT NULL,
	port INTEGER NOT NULL,
	active_width INTEGER,
	active_speed INTEGER,
	active_speed_ex INTEGER,
	PRIMARY KEY (set_id, ibdev, port)
);

CREATE TABLE meminfo_rows (
	set_id INTEGER NOT NULL REFERENCES row_sets (id),
	name TEXT NOT NULL,		-- MemTotal, HugePages_Total, Hugepagesize ...
	value INTEGER,			-- kB, or a count
	PRIMARY KEY (set_id, name)
);

CREATE TABLE module_params_rows (
	set_id INTEGER NOT NULL REFERENCES row_sets (id),
	module TEXT NOT NULL,
	name TEXT NOT NULL,
	value TEXT,
	PRIMARY KEY (set_id, module, name)
);

CREATE TABLE modules_rows (
	set_id INTEGER NOT NULL REFERENCES row_sets (id),
	name TEXT NOT NULL,
	size INTEGER,
	refcnt INTEGER,
	used_by TEXT,
	state TEXT,
	version TEXT,
	srcversion TEXT,
	PRIMARY KEY (set_id, name)
);

CREATE TABLE netdevs_rows (
	set_id INTEGER NOT NULL REFERENCES row_sets (id),
	name TEXT NOT NULL,
	ibdev TEXT, port INTEGER,	-- the RDMA port behind it, if any
	mtu INTEGER,
	operstate TEXT,
	carrier INTEGER,
	speed INTEGER,			-- Mb/s
	address TEXT,
	type INTEGER,			-- 1 Ethernet, 32 InfiniBand
	driver TEXT, driver_version TEXT, fw_version TEXT, bus_info TEXT,
	master TEXT,
	PRIMARY KEY (set_id, name)
);

CREATE TABLE pci_acs_rows (
	set_id INTEGER NOT NULL REFERENCES row_sets (id),
	addr TEXT NOT NULL,
	cap INTEGER,
	ctrl INTEGER,
	src_valid INTEGER, trans_blk INTEGER, req_redir INTEGER,
	cmplt_redir INTEGER, upstream_fwd INTEGER, egress_ctrl INTEGER,
	direct_trans INTEGER, offset INTEGER,
	PRIMARY KEY (set_id, addr)
);

CREATE TABLE pci_functions_rows (
	set_id INTEGER NOT NULL REFERENCES row_sets (id),
	addr TEXT NOT NULL,		-- 0000:b1:00.0
	vendor INTEGER,
	device INTEGER,
	class INTEGER,
	subsys_vendor INTEGER,
	subsys_device INTEGER,
	kind TEXT,			-- hca | gpu | bridge | other
	parent_addr TEXT,		-- the upstream bridge, NULL at a root port
	driver TEXT,
	numa_node INTEGER,
	iommu_group INTEGER,
	cur_link_speed TEXT,		-- sysfs strings
	cur_link_width INTEGER,
	max_link_speed TEXT,
	max_link_width INTEGER,
	config_bytes INTEGER,		-- 4096 as root, 64 otherwise
	lnkcap_speed REAL,		-- GT/s, decoded from config space
	lnkcap_width INTEGER,
	lnksta_speed REAL,
	lnksta_width INTEGER,
	pcie_port_type TEXT,		-- Endpoint, Root Port, Upstream Port, Downstream Port ...
	path TEXT, lnkcap2 INTEGER, ibdev TEXT,			-- bundle path of the function's folder
	PRIMARY KEY (set_id, addr)
);

CREATE TABLE pfc_rows (
	set_id INTEGER NOT NULL REFERENCES row_sets (id),
	netdev TEXT NOT NULL,
	status TEXT,			-- ok | absent (no DCB) | error
	pfc_cap INTEGER,
	pfc_en INTEGER,			-- bit mask of priorities
	delay INTEGER,
	mbc INTEGER,
	dcbx INTEGER,
	trust TEXT,			-- dscp | pcp | NULL
	PRIMARY KEY (set_id, netdev)
);

CREATE TABLE ports_rows (
	set_id INTEGER NOT NULL REFERENCES row_sets (id),
	ibdev TEXT NOT NULL,
	port INTEGER NOT NULL,
	state INTEGER,			-- 4 = ACTIVE
	state_text TEXT,		-- "4: ACTIVE"
	phys_state INTEGER,		-- 5 = LinkUp
	phys_state_text TEXT,
	link_layer TEXT,		-- InfiniBand | Ethernet
	rate TEXT,			-- "400 Gb/sec (4X NDR)"
	rate_gbps REAL,
	width INTEGER,			-- lanes: 1 2 4 8 12
	speed TEXT,			-- SDR ... NDR XDR
	lid INTEGER,
	sm_lid INTEGER,
	lmc INTEGER,
	sm_sl INTEGER,
	cap_mask TEXT,
	max_mtu INTEGER,		-- bytes (verbs)
	active_mtu INTEGER,
	gid_tbl_len INTEGER,
	netdev TEXT,			-- ibdev2netdev
	PRIMARY KEY (set_id, ibdev, port)
);

CREATE TABLE rdma_cdevs_rows (
	set_id INTEGER NOT NULL REFERENCES row_sets (id),
	name TEXT NOT NULL,		-- uverbs0, umad0, issm0
	class TEXT NOT NULL,		-- verbs | mad
	ibdev TEXT,
	port INTEGER,			-- mad only
	dev TEXT,			-- "231:192"
	path TEXT,			-- bundle path of the ibdev file
	PRIMARY KEY (set_id, name)
);

-- (schema/003) computed by fingerprint.c after load, stored the same way
CREATE TABLE fingerprint_attrs_rows (
	set_id INTEGER NOT NULL REFERENCES row_sets (id),
	attr TEXT NOT NULL,
	grp TEXT NOT NULL,		-- class fw driver config count: compared
					-- with the class; unique: must differ
					-- between nodes (GUIDs, addresses)
	value TEXT,			-- NULL: known to be absent
	path TEXT,			-- bundle path (or table) it came from
	PRIMARY KEY (set_id, attr)
) WITHOUT ROWID;
CREATE INDEX fingerprint_attrs_rows_unique ON fingerprint_attrs_rows (value)
	WHERE grp = 'unique';
