-- rdma-analyze database, schema version 1 (PRAGMA user_version = 1).
-- Documented in schema/DATABASE.md.  One row per bundle in `bundles`; every
-- evidence table carries bundle_id, so a node's history is its bundles.

CREATE TABLE nodes (
	id INTEGER PRIMARY KEY,
	name TEXT NOT NULL,		-- hostname as collected (or its pseudonym)
	machine_id TEXT,		-- /etc/machine-id, NULL if absent
	UNIQUE (name, machine_id)
);

CREATE TABLE bundles (
	id INTEGER PRIMARY KEY,
	sha256 TEXT NOT NULL UNIQUE,	-- of the compressed file: loading twice is a no-op
	file TEXT,			-- where it was loaded from
	node_id INTEGER NOT NULL REFERENCES nodes (id),
	format_version INTEGER,
	tool_version TEXT,
	hostname TEXT,
	machine_id TEXT,
	boot_id TEXT,
	collected_at TEXT,		-- RFC 3339 UTC
	uptime_s REAL,
	kernel_release TEXT,
	as_root INTEGER,
	container TEXT,			-- NULL: not in a container
	redacted INTEGER,
	sample_s INTEGER,
	root TEXT,			-- the --root it was collected from, NULL if live
	loaded_at TEXT
);

CREATE TABLE sources (
	bundle_id INTEGER NOT NULL REFERENCES bundles (id),
	name TEXT NOT NULL,
	status TEXT NOT NULL,		-- ok partial absent denied timeout error
	reason TEXT,
	duration_ms INTEGER,
	bytes INTEGER,
	files INTEGER,
	errors INTEGER,
	PRIMARY KEY (bundle_id, name)
);

-- RDMA devices (sysfs /sys/class/infiniband/<ibdev>, verbs)
CREATE TABLE devices (
	bundle_id INTEGER NOT NULL REFERENCES bundles (id),
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
	PRIMARY KEY (bundle_id, ibdev)
);

CREATE TABLE ports (
	bundle_id INTEGER NOT NULL REFERENCES bundles (id),
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
	PRIMARY KEY (bundle_id, ibdev, port)
);

CREATE TABLE gids (
	bundle_id INTEGER NOT NULL REFERENCES bundles (id),
	ibdev TEXT NOT NULL,
	port INTEGER NOT NULL,
	idx INTEGER NOT NULL,
	gid TEXT NOT NULL,		-- 8 groups, as sysfs prints it
	type TEXT,			-- "IB/RoCE v1" | "RoCE v2"
	ndev TEXT,
	ipv4 TEXT,			-- the IPv4 of an IPv4-mapped GID
	PRIMARY KEY (bundle_id, ibdev, port, idx)
);

-- port counters: kind 'pma' (counters/), 'hw' (port hw_counters/), 'hw_dev'
-- (device hw_counters/, port 0); value2 is the --sample second read
CREATE TABLE counters (
	bundle_id INTEGER NOT NULL REFERENCES bundles (id),
	ibdev TEXT NOT NULL,
	port INTEGER NOT NULL,
	kind TEXT NOT NULL,
	name TEXT NOT NULL,
	value INTEGER,
	value2 INTEGER,
	interval_ms INTEGER,		-- between the two reads
	path TEXT,			-- bundle path of the first read
	PRIMARY KEY (bundle_id, ibdev, port, kind, name)
) WITHOUT ROWID;	-- one b-tree: the many counter rows load twice as fast

CREATE TABLE pci_functions (
	bundle_id INTEGER NOT NULL REFERENCES bundles (id),
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
	path TEXT,			-- bundle path of the function's folder
	PRIMARY KEY (bundle_id, addr)
);

CREATE TABLE pci_acs (
	bundle_id INTEGER NOT NULL REFERENCES bundles (id),
	addr TEXT NOT NULL,
	cap INTEGER,
	ctrl INTEGER,
	src_valid INTEGER, trans_blk INTEGER, req_redir INTEGER,
	cmplt_redir INTEGER, upstream_fwd INTEGER, egress_ctrl INTEGER,
	direct_trans INTEGER,
	PRIMARY KEY (bundle_id, addr)
);

CREATE TABLE modules (
	bundle_id INTEGER NOT NULL REFERENCES bundles (id),
	name TEXT NOT NULL,
	size INTEGER,
	refcnt INTEGER,
	used_by TEXT,
	state TEXT,
	version TEXT,
	srcversion TEXT,
	PRIMARY KEY (bundle_id, name)
);

CREATE TABLE module_params (
	bundle_id INTEGER NOT NULL REFERENCES bundles (id),
	module TEXT NOT NULL,
	name TEXT NOT NULL,
	value TEXT,
	PRIMARY KEY (bundle_id, module, name)
);

CREATE TABLE devnodes (
	bundle_id INTEGER NOT NULL REFERENCES bundles (id),
	name TEXT NOT NULL,
	type TEXT,
	mode TEXT,
	uid INTEGER, gid INTEGER,
	user TEXT, "group" TEXT,
	major INTEGER, minor INTEGER,
	PRIMARY KEY (bundle_id, name)
);

CREATE TABLE netdevs (
	bundle_id INTEGER NOT NULL REFERENCES bundles (id),
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
	PRIMARY KEY (bundle_id, name)
);

-- netdev counters: source 'ethtool' (ethtool -S names, exact) or 'sysfs'
-- (/sys/class/net/<if>/statistics); value2 the --sample second read
CREATE TABLE netdev_stats (
	bundle_id INTEGER NOT NULL REFERENCES bundles (id),
	netdev TEXT NOT NULL,
	source TEXT NOT NULL,
	name TEXT NOT NULL,
	value INTEGER,
	value2 INTEGER,
	interval_ms INTEGER,
	PRIMARY KEY (bundle_id, netdev, source, name)
) WITHOUT ROWID;

CREATE TABLE addresses (
	bundle_id INTEGER NOT NULL REFERENCES bundles (id),
	netdev TEXT NOT NULL,
	family TEXT,			-- inet | inet6
	address TEXT NOT NULL,
	prefixlen INTEGER
);

CREATE TABLE pfc (
	bundle_id INTEGER NOT NULL REFERENCES bundles (id),
	netdev TEXT NOT NULL,
	status TEXT,			-- ok | absent (no DCB) | error
	pfc_cap INTEGER,
	pfc_en INTEGER,			-- bit mask of priorities
	delay INTEGER,
	mbc INTEGER,
	dcbx INTEGER,
	trust TEXT,			-- dscp | pcp | NULL
	PRIMARY KEY (bundle_id, netdev)
);

-- the kernel log, one row per record; category names what RDMA checks
-- read it for (NULL: not RDMA-relevant)
CREATE TABLE klog (
	bundle_id INTEGER NOT NULL REFERENCES bundles (id),
	seq INTEGER,
	ts_us INTEGER,			-- since boot
	prio INTEGER,
	device TEXT,			-- "0000:b1:00.0" from the record or text
	text TEXT NOT NULL,
	category TEXT
);

CREATE TABLE limits (
	bundle_id INTEGER NOT NULL REFERENCES bundles (id),
	who TEXT NOT NULL,		-- collector | pid:N | limits.conf path
	item TEXT NOT NULL,		-- memlock, nofile ...
	domain TEXT,			-- limits.conf: user/@group/*
	type TEXT,			-- soft | hard | -
	value TEXT,			-- "unlimited" or bytes (limits.conf: KiB as written)
	path TEXT
);

CREATE TABLE meminfo (
	bundle_id INTEGER NOT NULL REFERENCES bundles (id),
	name TEXT NOT NULL,		-- MemTotal, HugePages_Total, Hugepagesize ...
	value INTEGER,			-- kB, or a count
	PRIMARY KEY (bundle_id, name)
);

CREATE TABLE environment (
	bundle_id INTEGER NOT NULL REFERENCES bundles (id),
	who TEXT NOT NULL,		-- self | pid:N | nccl.conf
	name TEXT NOT NULL,
	value TEXT
);

CREATE TABLE attachments (
	bundle_id INTEGER NOT NULL REFERENCES bundles (id),
	name TEXT NOT NULL,
	size INTEGER,
	kind TEXT,			-- nccl | perftest | mlxlink | other
	PRIMARY KEY (bundle_id, name)
);

-- node facts that fit no table: cmdline, iommu state, peermem ... (key/value)
CREATE TABLE facts (
	bundle_id INTEGER NOT NULL REFERENCES bundles (id),
	key TEXT NOT NULL,
	value TEXT,
	path TEXT,
	PRIMARY KEY (bundle_id, key)
);

CREATE TABLE findings (
	id INTEGER PRIMARY KEY,
	bundle_id INTEGER NOT NULL REFERENCES bundles (id),
	rule TEXT NOT NULL,		-- CHECKS.md id
	layer TEXT NOT NULL,		-- hca kernel sm verbs perf app fleet history pairs evidence
	severity INTEGER NOT NULL,	-- 0 info, 1 warning, 2 critical
	component TEXT NOT NULL,
	summary TEXT NOT NULL,
	remediation TEXT
);

CREATE TABLE finding_evidence (
	finding_id INTEGER NOT NULL REFERENCES findings (id),
	path TEXT,			-- bundle path the value came from
	value TEXT
);

-- checks that could not run on a bundle, and why
CREATE TABLE skipped (
	bundle_id INTEGER NOT NULL REFERENCES bundles (id),
	rule TEXT NOT NULL,
	reason TEXT NOT NULL,
	PRIMARY KEY (bundle_id, rule)
);

CREATE INDEX klog_cat ON klog (bundle_id, category);
CREATE INDEX findings_bundle ON findings (bundle_id, severity);
CREATE INDEX evidence_finding ON finding_evidence (finding_id);

-- ---------------------------------------------------------------- PCI and kernel
-- (area P: analyze/load-pci.c, analyze/load-kernel.c)

-- the IOMMU groups of the collected PCI functions: type is the default
-- domain as sysfs prints it (identity = passthrough, DMA / DMA-FQ =
-- translated, blocked, unmanaged)
CREATE TABLE iommu_groups (
	bundle_id INTEGER NOT NULL REFERENCES bundles (id),
	grp INTEGER NOT NULL,
	type TEXT,
	path TEXT,			-- bundle path of the type file
	PRIMARY KEY (bundle_id, grp)
);

-- RDMA character devices as sysfs names them: class 'verbs'
-- (infiniband_verbs/uverbsN: per device) or 'mad' (infiniband_mad/umadN,
-- issmN: per port); the /dev/infiniband node of the same name is in devnodes
CREATE TABLE rdma_cdevs (
	bundle_id INTEGER NOT NULL REFERENCES bundles (id),
	name TEXT NOT NULL,		-- uverbs0, umad0, issm0
	class TEXT NOT NULL,		-- verbs | mad
	ibdev TEXT,
	port INTEGER,			-- mad only
	dev TEXT,			-- "231:192"
	path TEXT,			-- bundle path of the ibdev file
	PRIMARY KEY (bundle_id, name)
);

-- pci_functions.lnkcap2: the raw Link Capabilities 2 register (supported
-- speeds vector), NULL when not in the collected bytes; pci_acs.offset:
-- where the ACS extended capability is (lspci's "Capabilities: [148 v1]")
ALTER TABLE pci_functions ADD COLUMN lnkcap2 INTEGER;
ALTER TABLE pci_acs ADD COLUMN offset INTEGER;		-- of the ACS capability
-- the RDMA device of the function (its infiniband/<ibdev> folder), if any
ALTER TABLE pci_functions ADD COLUMN ibdev TEXT;

-- A: host and application layer (load-host.c) ------------------------------
-- NCCL log lines of the attachments (nccl.c): kind ib_using | ib_nodev |
-- net_using | socket_using | gdr | dmabuf | completion
CREATE TABLE nccl_events (
	bundle_id INTEGER NOT NULL REFERENCES bundles (id),
	attachment TEXT NOT NULL,	-- rdma-collect/attach/<name>
	line INTEGER NOT NULL,		-- 1-based
	kind TEXT NOT NULL,
	warn INTEGER,			-- NCCL WARN
	net TEXT,			-- IB, Socket, IBext (net_using, gdr)
	hca TEXT,			-- local HCA (gdr, completion, ib_using)
	port INTEGER,			-- ib_using
	link_layer TEXT,		-- ib_using: IB | RoCE
	enabled INTEGER,		-- gdr
	dmabuf INTEGER,			-- gdr through DMA-BUF
	peer TEXT,			-- completion: "10.0.0.2<4321>"
	status INTEGER,			-- completion: ibv_wc_status
	opcode INTEGER,
	len INTEGER,
	vendor_err INTEGER,		-- as printed (decimal)
	req TEXT,			-- Send | Recv | Flush
	local_gid TEXT,
	remote_gid TEXT,
	text TEXT			-- the line, capped
);
CREATE INDEX nccl_events_kind ON nccl_events (bundle_id, kind);

-- perftest runs found in the attachments (perftest.c); BW in Gb/s
CREATE TABLE perftest_results (
	bundle_id INTEGER NOT NULL REFERENCES bundles (id),
	attachment TEXT NOT NULL,
	run INTEGER NOT NULL,		-- 0-based within the attachment
	test TEXT,			-- "RDMA_Write BW", "Send Latency"
	bw INTEGER,			-- 1 bandwidth test, 0 latency
	bidir INTEGER,
	device TEXT,
	transport TEXT,
	connection TEXT,
	link_type TEXT,
	cuda INTEGER,			-- --use_cuda
	unit TEXT,			-- MB/sec | MiB/sec | Gb/sec as printed
	rows INTEGER,
	bytes INTEGER,			-- message size of the best row
	bw_avg REAL, bw_peak REAL,	-- as printed
	avg_gbps REAL, peak_gbps REAL,
	t_avg REAL,			-- latency, usec
	failed INTEGER,
	wc_status INTEGER,
	vendor_err INTEGER,
	PRIMARY KEY (bundle_id, attachment, run)
);

-- K: kernel log and physical layer (load-klog.c, load-phy.c, mlxlink.c) ----
-- klog.category values are listed at the top of analyze/load-klog.c: fw_reset,
-- fw_mem_alloc, mlx5_cmd, cable_module, link_flap, pcie_bw, pcie_power,
-- peermem, iommu, probe_fail, cqe_error (events), probe (normal state lines,
-- not events); klog.prio holds the syslog level 0-7 (facility removed).

-- mlxlink text outputs (`mlxlink -d <dev> -m -e -c`), one row per output:
-- rdma-collect/commands/mlxlink-<ibdev>/stdout and the attachments that are
-- mlxlink output; per-lane values as comma lists ("25,26,25,26", -1 = N/A)
CREATE TABLE phy (
	bundle_id INTEGER NOT NULL REFERENCES bundles (id),
	path TEXT NOT NULL,		-- bundle path of the output
	ibdev TEXT,			-- from the path or the file name; NULL unknown
	port INTEGER,
	state TEXT, phys_state TEXT, speed TEXT, width TEXT, fec TEXT,
	enabled_speeds TEXT,		-- "0x000007e0 (NDR,HDR,...)" as printed
	cable_speeds TEXT,
	eff_errors INTEGER,		-- Effective Physical Errors; NULL absent
	eff_ber REAL, eff_ber_text TEXT,	-- Effective Physical BER "15E-255"
	raw_ber REAL, raw_ber_text TEXT,	-- Raw Physical BER (pre-FEC)
	raw_errors TEXT,		-- Raw Physical Errors Per Lane
	eye_height TEXT,		-- Height Eye Opening [mV] per lane
	eye_phase TEXT,			-- Phase Eye Opening [psec] per lane
	PRIMARY KEY (bundle_id, path)
);

-- the verbs view of a port's link (rdma-collect/verbs/<dev>.json): enums as
-- libibverbs gives them (active_width 1 1X, 2 4X, 4 8X, 8 12X, 16 2X;
-- active_speed 1 SDR ... 64 HDR, 128 NDR; active_speed_ex for XDR)
CREATE TABLE link_active (
	bundle_id INTEGER NOT NULL REFERENCES bundles (id),
	ibdev TEXT NOT NULL,
	port INTEGER NOT NULL,
	active_width INTEGER,
	active_speed INTEGER,
	active_speed_ex INTEGER,
	PRIMARY KEY (bundle_id, ibdev, port)
);

-- the PCI function of each RDMA device, resolved from the
-- sys/class/infiniband/<dev>/device link alone (the bundle stores no entry
-- for the function's folder itself, only the files in it)
CREATE TABLE ibdev_pci (
	bundle_id INTEGER NOT NULL REFERENCES bundles (id),
	ibdev TEXT NOT NULL,
	pci_addr TEXT NOT NULL,
	PRIMARY KEY (bundle_id, ibdev)
);
