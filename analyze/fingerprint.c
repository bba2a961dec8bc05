/* fingerprint: a bundle's configuration, computed from the database.
 *
 * Each attribute family is one INSERT ... SELECT over the temporary table
 * fp_todo(bundle_id), so ten thousand bundles cost a few statements, not
 * ten thousand round trips.  The names written here are the stable ones of
 * schema/DATABASE.md ("Fingerprint attributes"): renaming one is a schema
 * change (bump FINGERPRINT_VERSION).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "db.h"
#include "fingerprint.h"
#include "log.h"
#include "store.h"
#include "util.h"

/* staged, then stored as a row set per bundle (store.c) */
#define INS "INSERT OR REPLACE INTO temp.s_fingerprint_attrs (bundle_id, " \
	"attr, grp, value, path) "

/* the modules whose presence and version make the RDMA driver stack;
 * nvidia_peermem is the 'peermem' attribute */
#define STACK_MODULES "('mlx5_core', 'mlx5_ib', 'ib_core', 'ib_uverbs', " \
	"'ib_umad', 'ib_cm', 'iw_cm', 'rdma_cm', 'rdma_ucm', 'ib_ipoib', " \
	"'mlx_compat', 'nvidia')"
#define STACK_MODULE_ROWS "('mlx5_core'), ('mlx5_ib'), ('ib_core'), " \
	"('ib_uverbs'), ('ib_umad'), ('ib_cm'), ('iw_cm'), ('rdma_cm'), " \
	"('rdma_ucm'), ('ib_ipoib'), ('mlx_compat'), ('nvidia')"

static const char *const attr_sql[] = {
	/* class: the hardware shape, what nodes are grouped by.  Counts are
	 * left out on purpose: a node that lost an HCA stays in its class
	 * and is compared (HCA_COUNT_OUTLIER) */
	INS "SELECT t.bundle_id, 'class.hca_models', 'class', coalesce((SELECT "
	"group_concat(m, ',') FROM (SELECT DISTINCT coalesce(d.hca_type, "
	"'unknown') AS m FROM devices d WHERE d.bundle_id = t.bundle_id ORDER "
	"BY m)), 'none'), 'devices' FROM fp_todo t",
	INS "SELECT t.bundle_id, 'class.link_layers', 'class', coalesce((SELECT "
	"group_concat(m, ',') FROM (SELECT DISTINCT coalesce(p.link_layer, "
	"'unknown') AS m FROM ports p WHERE p.bundle_id = t.bundle_id ORDER BY "
	"m)), 'none'), 'ports' FROM fp_todo t",

	/* count */
	INS "SELECT t.bundle_id, 'hcas', 'count', (SELECT count(*) FROM devices "
	"d WHERE d.bundle_id = t.bundle_id), 'sys/class/infiniband' FROM "
	"fp_todo t",
	INS "SELECT t.bundle_id, 'hca_functions', 'count', (SELECT count(*) FROM "
	"pci_functions f WHERE f.bundle_id = t.bundle_id AND f.kind = 'hca'), "
	"'sys/bus/pci/devices' FROM fp_todo t",
	INS "SELECT t.bundle_id, 'ports_active', 'count', (SELECT count(*) FROM "
	"ports p WHERE p.bundle_id = t.bundle_id AND p.state = 4), "
	"'sys/class/infiniband' FROM fp_todo t",

	/* fw and the device's identity */
	INS "SELECT d.bundle_id, 'hca.' || d.ibdev || '.fw', 'fw', d.fw_ver, "
	"'sys/class/infiniband/' || d.ibdev || '/fw_ver' FROM devices d JOIN "
	"fp_todo t ON t.bundle_id = d.bundle_id",
	INS "SELECT d.bundle_id, 'hca.' || d.ibdev || '.model', 'config', "
	"d.hca_type, 'sys/class/infiniband/' || d.ibdev || '/hca_type' FROM "
	"devices d JOIN fp_todo t ON t.bundle_id = d.bundle_id",
	INS "SELECT d.bundle_id, 'hca.' || d.ibdev || '.board_id', 'config', "
	"d.board_id, 'sys/class/infiniband/' || d.ibdev || '/board_id' FROM "
	"devices d JOIN fp_todo t ON t.bundle_id = d.bundle_id",

	/* driver: kernel, stack kind, the stack's modules (NULL: not loaded) */
	INS "SELECT b.id, 'kernel', 'driver', b.kernel_release, 'manifest.json' "
	"FROM bundles b JOIN fp_todo t ON t.bundle_id = b.id",
	/* MLNX_OFED and DOCA-OFED load mlx_compat; the inbox stack has none */
	INS "SELECT t.bundle_id, 'driver.stack', 'driver', CASE WHEN EXISTS "
	"(SELECT 1 FROM modules m WHERE m.bundle_id = t.bundle_id AND m.name = "
	"'mlx_compat') THEN 'ofed' WHEN EXISTS (SELECT 1 FROM modules m WHERE "
	"m.bundle_id = t.bundle_id) THEN 'inbox' END, 'proc/modules' FROM "
	"fp_todo t",
	INS "SELECT m.bundle_id, 'module.' || m.name, 'driver', coalesce("
	"m.version, 'loaded'), 'sys/module/' || m.name || '/version' FROM "
	"modules m JOIN fp_todo t ON t.bundle_id = m.bundle_id WHERE m.name IN "
	STACK_MODULES,
	/* a stack module the node does not load must compare as absent
	 * (NULL) where its peers load it, rather than not at all; known only
	 * when the bundle has a module list */
	INS "WITH s (name) AS (VALUES " STACK_MODULE_ROWS ") SELECT t.bundle_id, "
	"'module.' || s.name, 'driver', NULL, 'proc/modules' FROM fp_todo t "
	"JOIN s WHERE EXISTS (SELECT 1 FROM modules m WHERE m.bundle_id = "
	"t.bundle_id) AND NOT EXISTS (SELECT 1 FROM modules m WHERE "
	"m.bundle_id = t.bundle_id AND m.name = s.name)",

	/* config: ports */
	INS "SELECT p.bundle_id, printf('port.%s.%d.link_layer', p.ibdev, "
	"p.port), 'config', p.link_layer, printf('sys/class/infiniband/%s/"
	"ports/%d/link_layer', p.ibdev, p.port) FROM ports p JOIN fp_todo t ON "
	"t.bundle_id = p.bundle_id",
	INS "SELECT p.bundle_id, printf('port.%s.%d.rate', p.ibdev, p.port), "
	"'config', p.rate, printf('sys/class/infiniband/%s/ports/%d/rate', "
	"p.ibdev, p.port) FROM ports p JOIN fp_todo t ON t.bundle_id = "
	"p.bundle_id",
	INS "SELECT p.bundle_id, printf('port.%s.%d.width', p.ibdev, p.port), "
	"'config', CASE WHEN p.width IS NOT NULL THEN p.width || 'X' END, "
	"printf('sys/class/infiniband/%s/ports/%d/rate', p.ibdev, p.port) FROM "
	"ports p JOIN fp_todo t ON t.bundle_id = p.bundle_id",
	INS "SELECT p.bundle_id, printf('port.%s.%d.mtu', p.ibdev, p.port), "
	"'config', p.active_mtu, printf('rdma-collect/verbs/%s.json', p.ibdev) "
	"FROM ports p JOIN fp_todo t ON t.bundle_id = p.bundle_id",
	/* the GID table's shape: how many of each type, not the GIDs */
	INS "SELECT p.bundle_id, printf('port.%s.%d.gids', p.ibdev, p.port), "
	"'config', coalesce((SELECT group_concat(n || ' ' || ty, ', ') FROM "
	"(SELECT count(*) AS n, coalesce(g.type, 'unknown') AS ty FROM gids g "
	"WHERE g.bundle_id = p.bundle_id AND g.ibdev = p.ibdev AND g.port = "
	"p.port GROUP BY ty ORDER BY ty)), 'none'), printf('sys/class/"
	"infiniband/%s/ports/%d/gids', p.ibdev, p.port) FROM ports p JOIN "
	"fp_todo t ON t.bundle_id = p.bundle_id",
	INS "SELECT n.bundle_id, printf('port.%s.%d.netdev_mtu', n.ibdev, "
	"n.port), 'config', n.mtu, 'sys/class/net/' || n.name || '/mtu' FROM "
	"netdevs n JOIN fp_todo t ON t.bundle_id = n.bundle_id WHERE n.ibdev IS "
	"NOT NULL AND n.port IS NOT NULL",
	/* PFC as the list of enabled priorities, and the trust mode */
	INS "SELECT n.bundle_id, printf('port.%s.%d.pfc', n.ibdev, n.port), "
	"'config', CASE WHEN f.status <> 'ok' THEN f.status WHEN f.pfc_en = 0 "
	"THEN 'none' ELSE trim((CASE WHEN f.pfc_en & 1 THEN ' 0' ELSE '' END) "
	"|| (CASE WHEN f.pfc_en & 2 THEN ' 1' ELSE '' END) || (CASE WHEN "
	"f.pfc_en & 4 THEN ' 2' ELSE '' END) || (CASE WHEN f.pfc_en & 8 THEN "
	"' 3' ELSE '' END) || (CASE WHEN f.pfc_en & 16 THEN ' 4' ELSE '' END) "
	"|| (CASE WHEN f.pfc_en & 32 THEN ' 5' ELSE '' END) || (CASE WHEN "
	"f.pfc_en & 64 THEN ' 6' ELSE '' END) || (CASE WHEN f.pfc_en & 128 "
	"THEN ' 7' ELSE '' END)) END, 'rdma-collect/dcb/' || n.name || '.json' "
	"FROM netdevs n JOIN fp_todo t ON t.bundle_id = n.bundle_id JOIN pfc f "
	"ON f.bundle_id = n.bundle_id AND f.netdev = n.name WHERE n.ibdev IS "
	"NOT NULL AND n.port IS NOT NULL",
	INS "SELECT n.bundle_id, printf('port.%s.%d.trust', n.ibdev, n.port), "
	"'config', f.trust, 'rdma-collect/dcb/' || n.name || '.json' FROM "
	"netdevs n JOIN fp_todo t ON t.bundle_id = n.bundle_id JOIN pfc f ON "
	"f.bundle_id = n.bundle_id AND f.netdev = n.name WHERE n.ibdev IS NOT "
	"NULL AND n.port IS NOT NULL AND f.status = 'ok'",

	/* config: the HCA's PCIe link as trained (LnkSta, else sysfs) */
	INS "SELECT f.bundle_id, 'pcie.' || f.ibdev || '.speed', 'config', "
	"CASE WHEN f.lnksta_speed IS NOT NULL THEN printf('%g GT/s', "
	"f.lnksta_speed) ELSE f.cur_link_speed END, f.path FROM pci_functions "
	"f JOIN fp_todo t ON t.bundle_id = f.bundle_id WHERE f.ibdev IS NOT "
	"NULL",
	INS "SELECT f.bundle_id, 'pcie.' || f.ibdev || '.width', 'config', "
	"'x' || coalesce(f.lnksta_width, f.cur_link_width), f.path FROM "
	"pci_functions f JOIN fp_todo t ON t.bundle_id = f.bundle_id WHERE "
	"f.ibdev IS NOT NULL",
	/* ACS: the bridges between the HCA and its root port that redirect
	 * peer-to-peer requests or completions up to the root (what breaks
	 * GPUDirect RDMA) */
	INS "WITH RECURSIVE up (bundle_id, ibdev, addr) AS (SELECT f.bundle_id, "
	"f.ibdev, f.parent_addr FROM pci_functions f JOIN fp_todo t ON "
	"t.bundle_id = f.bundle_id WHERE f.ibdev IS NOT NULL UNION SELECT "
	"u.bundle_id, u.ibdev, p.parent_addr FROM up u JOIN pci_functions p ON "
	"p.bundle_id = u.bundle_id AND p.addr = u.addr WHERE p.parent_addr IS "
	"NOT NULL) SELECT f.bundle_id, 'acs.' || f.ibdev, 'config', "
	"coalesce((SELECT group_concat(a.addr, ',') FROM (SELECT a.addr FROM "
	"up u JOIN pci_acs a ON a.bundle_id = u.bundle_id AND a.addr = u.addr "
	"WHERE u.bundle_id = f.bundle_id AND u.ibdev = f.ibdev AND "
	"(a.req_redir OR a.cmplt_redir) ORDER BY a.addr) a), 'none'), "
	"'sys/bus/pci/devices' FROM pci_functions f JOIN fp_todo t ON "
	"t.bundle_id = f.bundle_id WHERE f.ibdev IS NOT NULL",
	/* IOMMU: passthrough on the command line, the HCA group's domain */
	INS "SELECT f.bundle_id, 'iommu.passthrough', 'config', f.value, f.path "
	"FROM facts f JOIN fp_todo t ON t.bundle_id = f.bundle_id WHERE f.key "
	"= 'iommu_passthrough'",
	INS "SELECT f.bundle_id, 'iommu.' || f.ibdev || '.domain', 'config', "
	"g.type, g.path FROM pci_functions f JOIN fp_todo t ON t.bundle_id = "
	"f.bundle_id JOIN iommu_groups g ON g.bundle_id = f.bundle_id AND g.grp "
	"= f.iommu_group WHERE f.ibdev IS NOT NULL",

	/* config: host */
	INS "SELECT f.bundle_id, 'peermem', 'config', f.value, f.path FROM facts "
	"f JOIN fp_todo t ON t.bundle_id = f.bundle_id WHERE f.key = "
	"'peermem_loaded'",
	INS "SELECT l.bundle_id, 'memlock', 'config', l.value, l.path FROM "
	"limits l JOIN fp_todo t ON t.bundle_id = l.bundle_id WHERE l.who = "
	"'collector' AND l.item = 'memlock' AND l.type = 'soft'",
	INS "SELECT m.bundle_id, CASE m.name WHEN 'HugePages_Total' THEN "
	"'hugepages.total' ELSE 'hugepages.size_kb' END, 'config', m.value, "
	"'proc/meminfo' FROM meminfo m JOIN fp_todo t ON t.bundle_id = "
	"m.bundle_id WHERE m.name IN ('HugePages_Total', 'Hugepagesize')",
	/* NCCL settings: the collector's environment and nccl.conf */
	INS "SELECT e.bundle_id, 'env.' || e.name, 'config', e.value, "
	"'rdma-collect/environ/self.json' FROM environment e JOIN fp_todo t ON "
	"t.bundle_id = e.bundle_id WHERE e.who = 'self' AND e.name GLOB "
	"'NCCL_*'",
	INS "SELECT e.bundle_id, 'nccl.conf.' || e.name, 'config', e.value, "
	"'etc/nccl.conf' FROM environment e JOIN fp_todo t ON t.bundle_id = "
	"e.bundle_id WHERE e.who = 'nccl.conf'",
	INS "SELECT p.bundle_id, 'param.' || p.module || '.' || p.name, "
	"'config', p.value, 'sys/module/' || p.module || '/parameters/' || "
	"p.name FROM module_params p JOIN fp_todo t ON t.bundle_id = "
	"p.bundle_id",

	/* unique: what two nodes must never share */
	INS "SELECT d.bundle_id, 'guid.' || d.ibdev, 'unique', d.node_guid, "
	"'sys/class/infiniband/' || d.ibdev || '/node_guid' FROM devices d "
	"JOIN fp_todo t ON t.bundle_id = d.bundle_id WHERE d.node_guid IS NOT "
	"NULL AND d.node_guid <> '0000:0000:0000:0000'",
	/* Ethernet MACs (an IPoIB hardware address is QPN + GID: its GUID is
	 * already compared) */
	INS "SELECT n.bundle_id, 'mac.' || n.name, 'unique', lower(n.address), "
	"'sys/class/net/' || n.name || '/address' FROM netdevs n JOIN fp_todo "
	"t ON t.bundle_id = n.bundle_id WHERE n.type = 1 AND length(n.address) "
	"= 17 AND n.address <> '00:00:00:00:00:00'",
	/* global addresses; loopback and link-local ones may repeat */
	INS "SELECT a.bundle_id, 'ip.' || a.netdev || '.' || a.address, "
	"'unique', a.address, 'rdma-collect/net/addresses.json' FROM addresses "
	"a JOIN fp_todo t ON t.bundle_id = a.bundle_id WHERE a.netdev <> 'lo' "
	"AND a.address NOT GLOB '127.*' AND a.address <> '::1' AND "
	"lower(a.address) NOT GLOB 'fe[89ab]?:*' AND a.address NOT GLOB "
	"'169.254.*'",
};

struct pending {
	int64_t bid;
	uint64_t h;
	struct buf models, layers;
};

static int pending_flush(sqlite3 *db, struct pending *p)
{
	struct buf cls = BUF_INIT;
	char digest[20];
	int rc;

	if (p->bid < 0)
		return 0;
	snprintf(digest, sizeof(digest), "%016" PRIx64, p->h);
	buf_addf(&cls, "%s/%s", p->models.len ? p->models.buf : "none",
		 p->layers.len ? p->layers.buf : "none");
	rc = db_exec(db, "INSERT OR REPLACE INTO fingerprints (bundle_id, "
		     "version, class, digest) VALUES (?, ?, ?, ?)", "iiss", p->bid,
		     (int64_t)FINGERPRINT_VERSION, cls.buf, digest);
	buf_release(&cls);
	buf_reset(&p->models);
	buf_reset(&p->layers);
	return rc;
}

/* class and digest of the bundles in fp_todo, from their attributes */
static int summarize(sqlite3 *db)
{
	struct pending p = { -1, 0, BUF_INIT, BUF_INIT };
	sqlite3_stmt *st;
	int rc = 0;

	st = db_query(db, "SELECT a.bundle_id, a.attr, a.grp, a.value FROM "
		      "fingerprint_attrs a JOIN fp_todo t ON t.bundle_id = "
		      "a.bundle_id ORDER BY a.bundle_id, a.attr", NULL);
	while (!rc && sqlite3_step(st) == SQLITE_ROW) {
		int64_t bid = sqlite3_column_int64(st, 0);
		const char *attr = (const char *)sqlite3_column_text(st, 1);
		const char *grp = (const char *)sqlite3_column_text(st, 2);
		const char *v = (const char *)sqlite3_column_text(st, 3);

		if (bid != p.bid) {
			rc = pending_flush(db, &p);
			p.bid = bid;
			p.h = FNV1A_INIT;
		}
		if (!strcmp(attr, "class.hca_models"))
			buf_addstr(&p.models, v ? v : "none");
		else if (!strcmp(attr, "class.link_layers"))
			buf_addstr(&p.layers, v ? v : "none");
		if (!strcmp(grp, "unique"))
			continue;
		p.h = fnv1a_str(fnv1a_str(fnv1a_str(p.h, attr), "="),
				 v ? v : "\x01");
		p.h = fnv1a_str(p.h, "\n");
	}
	db_done(st);
	if (!rc)
		rc = pending_flush(db, &p);
	buf_release(&p.models);
	buf_release(&p.layers);
	return rc;
}

static int compute(sqlite3 *db)
{
	size_t i;

	/* the bundles' attributes are recomputed: the old ones go first
	 * (a write before any read: a deferred transaction that read first
	 * could not write after another writer's commit) */
	if (store_unset(db, "fingerprint_attrs", "temp.fp_todo") < 0 ||
	    store_stage(db) < 0)
		return -1;
	for (i = 0; i < ARRAY_SIZE(attr_sql); i++)
		if (db_exec(db, attr_sql[i], NULL) < 0)
			return -1;
	if (store_staged(db, "fingerprint_attrs") < 0)
		return -1;
	/* bundles with no attribute at all still get a row (class none) */
	if (db_run(db, "INSERT OR REPLACE INTO fingerprints (bundle_id, "
		   "version, class, digest) SELECT bundle_id, 0, 'none/none', '' "
		   "FROM fp_todo") < 0)
		return -1;
	return summarize(db);
}

int fingerprint_update(sqlite3 *db, const int64_t *ids, size_t n)
{
	int own = sqlite3_get_autocommit(db), rc = -1;
	size_t i;

	if (db_run(db, "CREATE TEMP TABLE IF NOT EXISTS fp_todo (bundle_id "
		   "INTEGER PRIMARY KEY)") < 0)
		return -1;
	if (own && db_run(db, "BEGIN") < 0)
		return -1;
	if (db_run(db, "DELETE FROM fp_todo") < 0)
		goto out;
	if (!ids) {
		if (db_exec(db, "INSERT INTO fp_todo SELECT b.id FROM bundles b "
			    "LEFT JOIN fingerprints f ON f.bundle_id = b.id WHERE "
			    "f.version IS NULL OR f.version <> ?", "i",
			    (int64_t)FINGERPRINT_VERSION) < 0)
			goto out;
	}
	for (i = 0; ids && i < n; i++)
		if (db_exec(db, "INSERT OR IGNORE INTO fp_todo SELECT b.id FROM "
			    "bundles b LEFT JOIN fingerprints f ON f.bundle_id = "
			    "b.id WHERE b.id = ? AND (f.version IS NULL OR "
			    "f.version <> ?)", "ii", ids[i],
			    (int64_t)FINGERPRINT_VERSION) < 0)
			goto out;
	/* its size for the planner (rules.c says why) */
	if (db_run(db, "ANALYZE temp.fp_todo") < 0)
		goto out;
	rc = db_int(db, "SELECT count(*) FROM fp_todo", NULL) ? compute(db) : 0;
out:
	if (own)
		db_run(db, rc < 0 ? "ROLLBACK" : "COMMIT");
	return rc;
}

int fingerprint_diff(sqlite3 *db, int64_t a, int64_t b, int with_unique,
		     int (*fn)(const struct fp_diff *d, void *arg), void *arg)
{
	int64_t ids[2] = { a, b };
	sqlite3_stmt *st;
	int n = 0, rc = 0;

	if (fingerprint_update(db, ids, 2) < 0)
		return -1;
	/* a full outer join of the two attribute lists, written as a union
	 * (SQLite before 3.39 has no FULL JOIN); rows are copied out before
	 * fn runs, since fn may query the database itself */
	st = db_query(db, "SELECT k.attr, coalesce(x.grp, y.grp), x.attr IS NOT "
		      "NULL, x.value, x.path, y.attr IS NOT NULL, y.value, y.path "
		      "FROM (SELECT attr FROM fingerprint_attrs WHERE bundle_id "
		      "IN (?1, ?2) GROUP BY attr) k LEFT JOIN fingerprint_attrs x "
		      "ON x.bundle_id = ?1 AND x.attr = k.attr LEFT JOIN "
		      "fingerprint_attrs y ON y.bundle_id = ?2 AND y.attr = "
		      "k.attr WHERE (x.attr IS NULL) <> (y.attr IS NULL) OR "
		      "x.value IS NOT y.value ORDER BY k.attr", "ii", a, b);
	while (rc == 0 && sqlite3_step(st) == SQLITE_ROW) {
		struct fp_diff d;
		char *s[6];
		int i;

		s[0] = db_col_dup(st, 0);
		s[1] = db_col_dup(st, 1);
		s[2] = db_col_dup(st, 3);
		s[3] = db_col_dup(st, 4);
		s[4] = db_col_dup(st, 6);
		s[5] = db_col_dup(st, 7);
		d.present_a = sqlite3_column_int(st, 2);
		d.present_b = sqlite3_column_int(st, 5);
		d.attr = s[0];
		d.grp = s[1];
		d.a = s[2];
		d.path_a = s[3];
		d.b = s[4];
		d.path_b = s[5];
		if (with_unique || strcmp(d.grp, "unique")) {
			n++;
			if (fn)
				rc = fn(&d, arg);
		}
		for (i = 0; i < 6; i++)
			free(s[i]);
	}
	db_done(st);
	return rc ? rc : n;
}

char *fingerprint_class(sqlite3 *db, int64_t bundle_id)
{
	sqlite3_stmt *st;
	char *c = NULL;

	if (fingerprint_update(db, &bundle_id, 1) < 0)
		return NULL;
	st = db_query(db, "SELECT class FROM fingerprints WHERE bundle_id = ?",
		      "i", bundle_id);
	if (sqlite3_step(st) == SQLITE_ROW)
		c = db_col_dup(st, 0);
	db_done(st);
	return c;
}
