-- 011: the host's PCIe link as the HCA itself reports it: the text of
-- `mlxlink -d <dev> --port_type PCIE [-c] [-e]` (analyze/mlxlink.c,
-- load-phy.c), at rdma-collect/commands/mlxlink-<name>/stdout or in an
-- attachment.  One row per PCI function and link (mlxlink's "Depth, pcie
-- index, node": 0, 0, 0 is the host's link, and the default when the
-- output does not print it).  dev is the PCI function when mst status,
-- the name mlxlink was run with or the RDMA device's PCI link says which
-- ("0000:01:00.0"), else the name it was run with (an RDMA device or an
-- mst device).  Speeds as printed ("8G-Gen 3") and as the generation and
-- GT/s they are (mlxlink's Gen6 "32G PAM-4 Gen6" is 64 GT/s); widths in
-- lanes; the enabled values are those in brackets ("8G-Gen 3 (16G-Gen
-- 4)": active Gen3, enabled Gen4).  Counters and lanes as in phy (NULL
-- absent, -1 a lane's N/A).
CREATE TABLE phy_pcie (
	bundle_id INTEGER NOT NULL REFERENCES bundles (id),
	dev TEXT NOT NULL,
	depth INTEGER NOT NULL,
	pcie_index INTEGER NOT NULL,
	node INTEGER NOT NULL,
	path TEXT NOT NULL,		-- bundle path of the output
	pci_addr TEXT,			-- NULL: not known
	ibdev TEXT,			-- NULL: not known
	speed TEXT, speed_enabled TEXT,	-- Link Speed Active (Enabled)
	gen INTEGER, gen_enabled INTEGER,
	gts REAL, gts_enabled REAL,
	width INTEGER, width_enabled INTEGER,	-- Link Width Active (Enabled)
	device_status TEXT,		-- "Correctable Error detected, ..."
	dl_down INTEGER,		-- Management PCIe Timers Counters
	rx_errors INTEGER, tx_errors INTEGER,	-- Management PCIe
	crc_dllp INTEGER, crc_tlp INTEGER,	-- Performance Counters
	eye_grade TEXT,			-- Physical Grade per lane
	eye_height TEXT,		-- Height Eye Opening [mV] per lane
	eye_phase TEXT,			-- Phase Eye Opening [psec] per lane
	PRIMARY KEY (bundle_id, dev, depth, pcie_index, node)
);
