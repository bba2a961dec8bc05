-- 013: the tables 012 replaced, as views over its storage: the same
-- names, columns, rows and values (implied zeros made again), so every
-- query of them (the rules, history, diff, the reports, DATABASE.md's
-- examples) reads them as it read the tables.  SQLite flattens them: a
-- read by bundle_id is a seek into the bundle's set, then into its rows.
-- Writing goes through analyze/store.c, never through these.

CREATE VIEW counters (bundle_id, ibdev, port, kind, name, value, value2,
	interval_ms, path) AS
SELECT b.bundle_id, k.ibdev, k.port, k.kind, k.name,
	CASE WHEN v.slot IS NULL THEN 0 ELSE v.value END,
	CASE WHEN v.slot IS NOT NULL THEN v.value2 WHEN k.sampled THEN 0 END,
	CASE WHEN v.slot IS NOT NULL THEN v.interval_ms
	     WHEN k.sampled THEN b.interval_ms END,
	k.path
FROM counter_bundles b JOIN counter_keys k ON k.set_id = b.set_id
LEFT JOIN counter_values v ON v.bundle_id = b.bundle_id AND v.slot = k.slot;

CREATE VIEW netdev_stats (bundle_id, netdev, source, name, value, value2,
	interval_ms) AS
SELECT b.bundle_id, k.netdev, k.source, k.name,
	CASE WHEN v.slot IS NULL THEN 0 ELSE v.value END,
	CASE WHEN v.slot IS NOT NULL THEN v.value2 WHEN k.sampled THEN 0 END,
	CASE WHEN v.slot IS NOT NULL THEN v.interval_ms
	     WHEN k.sampled THEN b.interval_ms END
FROM netdev_stat_bundles b JOIN netdev_stat_keys k ON k.set_id = b.set_id
LEFT JOIN netdev_stat_values v ON v.bundle_id = b.bundle_id AND
	v.slot = k.slot;

CREATE VIEW addresses (bundle_id, netdev, family, address, prefixlen) AS
SELECT b.bundle_id, r.netdev, r.family, r.address, r.prefixlen
FROM bundle_sets b JOIN addresses_rows r ON r.set_id = b.set_id
WHERE b.tbl = 'addresses';

CREATE VIEW devices (bundle_id, ibdev, node_type, node_guid, sys_image_guid,
	fw_ver, hca_type, board_id, hw_rev, node_desc, pci_addr, parent, vendor_id,
	vendor_part_id, phys_port_cnt) AS
SELECT b.bundle_id, r.ibdev, r.node_type, r.node_guid, r.sys_image_guid,
	r.fw_ver, r.hca_type, r.board_id, r.hw_rev, r.node_desc, r.pci_addr,
	r.parent, r.vendor_id, r.vendor_part_id, r.phys_port_cnt
FROM bundle_sets b JOIN devices_rows r ON r.set_id = b.set_id
WHERE b.tbl = 'devices';

CREATE VIEW devnodes (bundle_id, name, type, mode, uid, gid, user, "group",
	major, minor) AS
SELECT b.bundle_id, r.name, r.type, r.mode, r.uid, r.gid, r.user, r."group",
	r.major, r.minor
FROM bundle_sets b JOIN devnodes_rows r ON r.set_id = b.set_id
WHERE b.tbl = 'devnodes';

CREATE VIEW facts (bundle_id, key, value, path) AS
SELECT b.bundle_id, r.key, r.value, r.path
FROM bundle_sets b JOIN facts_rows r ON r.set_id = b.set_id
WHERE b.tbl = 'facts';

CREATE VIEW gids (bundle_id, ibdev, port, idx, gid, type, ndev, ipv4) AS
SELECT b.bundle_id, r.ibdev, r.port, r.idx, r.gid, r.type, r.ndev, r.ipv4
FROM bundle_sets b JOIN gids_rows r ON r.set_id = b.set_id
WHERE b.tbl = 'gids';

CREATE VIEW ibdev_pci (bundle_id, ibdev, pci_addr) AS
SELECT b.bundle_id, r.ibdev, r.pci_addr
FROM bundle_sets b JOIN ibdev_pci_rows r ON r.set_id = b.set_id
WHERE b.tbl = 'ibdev_pci';

CREATE VIEW iommu_groups (bundle_id, grp, type, path) AS
SELECT b.bundle_id, r.grp, r.type, r.path
FROM bundle_sets b JOIN iommu_groups_rows r ON r.set_id = b.set_id
WHERE b.tbl = 'iommu_groups';

CREATE VIEW link_active (bundle_id, ibdev, port, active_width, active_speed,
	active_speed_ex) AS
SELECT b.bundle_id, r.ibdev, r.port, r.active_width, r.active_speed,
	r.active_speed_ex
FROM bundle_sets b JOIN link_active_rows r ON r.set_id = b.set_id
WHERE b.tbl = 'link_active';

CREATE VIEW meminfo (bundle_id, name, value) AS
SELECT b.bundle_id, r.name, r.value
FROM bundle_sets b JOIN meminfo_rows r ON r.set_id = b.set_id
WHERE b.tbl = 'meminfo';

CREATE VIEW module_params (bundle_id, module, name, value) AS
SELECT b.bundle_id, r.module, r.name, r.value
FROM bundle_sets b JOIN module_params_rows r ON r.set_id = b.set_id
WHERE b.tbl = 'module_params';

CREATE VIEW modules (bundle_id, name, size, refcnt, used_by, state, version,
	srcversion) AS
SELECT b.bundle_id, r.name, r.size, r.refcnt, r.used_by, r.state, r.version,
	r.srcversion
FROM bundle_sets b JOIN modules_rows r ON r.set_id = b.set_id
WHERE b.tbl = 'modules';

CREATE VIEW netdevs (bundle_id, name, ibdev, port, mtu, operstate, carrier,
	speed, address, type, driver, driver_version, fw_version, bus_info, master)
	AS
SELECT b.bundle_id, r.name, r.ibdev, r.port, r.mtu, r.operstate, r.carrier,
	r.speed, r.address, r.type, r.driver, r.driver_version, r.fw_version,
	r.bus_info, r.master
FROM bundle_sets b JOIN netdevs_rows r ON r.set_id = b.set_id
WHERE b.tbl = 'netdevs';

CREATE VIEW pci_acs (bundle_id, addr, cap, ctrl, src_valid, trans_blk,
	req_redir, cmplt_redir, upstream_fwd, egress_ctrl, direct_trans, offset) AS
SELECT b.bundle_id, r.addr, r.cap, r.ctrl, r.src_valid, r.trans_blk,
	r.req_redir, r.cmplt_redir, r.upstream_fwd, r.egress_ctrl, r.direct_trans,
	r.offset
FROM bundle_sets b JOIN pci_acs_rows r ON r.set_id = b.set_id
WHERE b.tbl = 'pci_acs';

CREATE VIEW pci_functions (bundle_id, addr, vendor, device, class,
	subsys_vendor, subsys_device, kind, parent_addr, driver, numa_node,
	iommu_group, cur_link_speed, cur_link_width, max_link_speed,
	max_link_width, config_bytes, lnkcap_speed, lnkcap_width, lnksta_speed,
	lnksta_width, pcie_port_type, path, lnkcap2, ibdev) AS
SELECT b.bundle_id, r.addr, r.vendor, r.device, r.class, r.subsys_vendor,
	r.subsys_device, r.kind, r.parent_addr, r.driver, r.numa_node,
	r.iommu_group, r.cur_link_speed, r.cur_link_width, r.max_link_speed,
	r.max_link_width, r.config_bytes, r.lnkcap_speed, r.lnkcap_width,
	r.lnksta_speed, r.lnksta_width, r.pcie_port_type, r.path, r.lnkcap2,
	r.ibdev
FROM bundle_sets b JOIN pci_functions_rows r ON r.set_id = b.set_id
WHERE b.tbl = 'pci_functions';

CREATE VIEW pfc (bundle_id, netdev, status, pfc_cap, pfc_en, delay, mbc,
	dcbx, trust) AS
SELECT b.bundle_id, r.netdev, r.status, r.pfc_cap, r.pfc_en, r.delay, r.mbc,
	r.dcbx, r.trust
FROM bundle_sets b JOIN pfc_rows r ON r.set_id = b.set_id
WHERE b.tbl = 'pfc';

CREATE VIEW ports (bundle_id, ibdev, port, state, state_text, phys_state,
	phys_state_text, link_layer, rate, rate_gbps, width, speed, lid, sm_lid,
	lmc, sm_sl, cap_mask, max_mtu, active_mtu, gid_tbl_len, netdev) AS
SELECT b.bundle_id, r.ibdev, r.port, r.state, r.state_text, r.phys_state,
	r.phys_state_text, r.link_layer, r.rate, r.rate_gbps, r.width, r.speed,
	r.lid, r.sm_lid, r.lmc, r.sm_sl, r.cap_mask, r.max_mtu, r.active_mtu,
	r.gid_tbl_len, r.netdev
FROM bundle_sets b JOIN ports_rows r ON r.set_id = b.set_id
WHERE b.tbl = 'ports';

CREATE VIEW rdma_cdevs (bundle_id, name, class, ibdev, port, dev, path) AS
SELECT b.bundle_id, r.name, r.class, r.ibdev, r.port, r.dev, r.path
FROM bundle_sets b JOIN rdma_cdevs_rows r ON r.set_id = b.set_id
WHERE b.tbl = 'rdma_cdevs';

CREATE VIEW fingerprint_attrs (bundle_id, attr, grp, value, path) AS
SELECT b.bundle_id, r.attr, r.grp, r.value, r.path
FROM bundle_sets b JOIN fingerprint_attrs_rows r ON r.set_id = b.set_id
WHERE b.tbl = 'fingerprint_attrs';
