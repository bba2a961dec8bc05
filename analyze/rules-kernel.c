/* rules-kernel: layer 2, the kernel side of the RDMA stack: the modules
 * and the /dev/infiniband device nodes userspace needs */
#include <stdio.h>
#include <string.h>

#include "db.h"
#include "rules.h"
#include "util.h"

/* a module is present when /proc/modules lists it or sys/module has it
 * (built in with parameters or a version).  When neither does but the
 * kernel objects only it creates exist (built in without parameters, or
 * a /proc/modules that is not this kernel's), the finding is info and
 * says so. */
struct kmod {
	const char *name;
	int sev;		/* when it is needed */
	const char *consequence;
	const char *proof;	/* SQL: > 0 when its objects exist */
	const char *objects;	/* what proof found, for the message */
	/* "a,b": modules whose symbols it uses, so whose Used-by names it
	 * whenever it is loaded (see known_absent) */
	const char *holders;
};

#define HAS_DEVS "SELECT count(*) FROM devices WHERE bundle_id = ?1"
/* a Soft-RoCE device: named rxeN by default, but `rdma link add NAME
 * type rxe` names it anything; it has a parent netdev and no PCI device
 * (siw has no parent file) */
#define IS_RXE "(ibdev LIKE 'rxe%' OR (pci_addr IS NULL AND parent IS NOT " \
	"NULL AND ibdev NOT LIKE 'siw%'))"
#define HAS_MLX "SELECT count(*) FROM pci_functions WHERE bundle_id = ?1 AND " \
	"vendor = 0x15b3 AND kind = 'hca'"

static const struct kmod kmods[] = {
	{ "mlx5_core", SEV_CRITICAL,
	  "the ConnectX functions have no driver: no netdev, no RDMA device",
	  "SELECT count(*) FROM pci_functions WHERE bundle_id = ?1 AND driver = "
	  "'mlx5_core'",
	  "the ConnectX functions are bound to mlx5_core", NULL },
	{ "mlx5_ib", SEV_CRITICAL,
	  "mlx5_core alone gives netdevs but no RDMA device (no mlx5_N in "
	  "/sys/class/infiniband)",
	  "SELECT count(*) FROM devices WHERE bundle_id = ?1 AND ibdev LIKE "
	  "'mlx5!_%' ESCAPE '!'",
	  "mlx5 RDMA devices exist", "ib_core,mlx5_core" },
	{ "ib_core", SEV_CRITICAL, "there is no RDMA stack at all", HAS_DEVS,
	  "RDMA devices exist", NULL },
	{ "ib_uverbs", SEV_CRITICAL,
	  "no userspace verbs: no /dev/infiniband/uverbsN, ibv_devices lists "
	  "nothing and no RDMA application can open a device",
	  "SELECT count(*) FROM rdma_cdevs WHERE bundle_id = ?1 AND class = "
	  "'verbs'",
	  "uverbs devices exist in sysfs", "ib_core" },
	{ "ib_cm", SEV_CRITICAL,
	  "no InfiniBand connection manager: rdma_cm connections and IPoIB "
	  "connected mode cannot be set up",
	  "SELECT count(*) FROM devnodes WHERE bundle_id = ?1 AND name = "
	  "'rdma_cm'",
	  "/dev/infiniband/rdma_cm exists", "ib_core" },
	{ "rdma_cm", SEV_CRITICAL,
	  "no RDMA connection manager: librdmacm applications (rping, "
	  "MPI/UCX over rdma_cm, NVMe-oF, NCCL's rdma_cm users) cannot resolve "
	  "addresses or connect",
	  "SELECT count(*) FROM devnodes WHERE bundle_id = ?1 AND name = "
	  "'rdma_cm'",
	  "/dev/infiniband/rdma_cm exists", "ib_core,ib_cm" },
	{ "rdma_ucm", SEV_CRITICAL,
	  "rdma_cm users such as NCCL cannot reach /dev/infiniband/rdma_cm",
	  "SELECT count(*) FROM devnodes WHERE bundle_id = ?1 AND name = "
	  "'rdma_cm'",
	  "/dev/infiniband/rdma_cm exists", "rdma_cm" },
	{ "ib_umad", SEV_CRITICAL,
	  "ibstat and MAD tools (perfquery, ibdiagnet, the subnet manager) see "
	  "nothing: no /dev/infiniband/umadN",
	  "SELECT count(*) FROM rdma_cdevs WHERE bundle_id = ?1 AND class = "
	  "'mad'",
	  "umad devices exist in sysfs", "ib_core" },
	{ "ib_ipoib", SEV_INFO,
	  "no IPoIB netdevs (ibN, ibpXsY): IP over the InfiniBand fabric, and "
	  "what uses it (rdma_cm address resolution, NCCL's bootstrap over IB), "
	  "is unavailable",
	  "SELECT count(*) FROM netdevs WHERE bundle_id = ?1 AND type = 32",
	  "IPoIB netdevs exist", "ib_core" },
	{ "rdma_rxe", SEV_CRITICAL,
	  "the Soft-RoCE devices cannot exist without rdma_rxe",
	  "SELECT count(*) FROM devices WHERE bundle_id = ?1 AND " IS_RXE,
	  "rxe devices exist", "ib_core" },
	{ NULL, 0, NULL, NULL, NULL, NULL },
};

/* the RDMA drivers: a device by its kernel name (ib_register_device's
 * "efa_%d", "bnxt_re%d" ...), else by the driver of its netdev; the RDMA
 * driver module and the network or PCI driver it sits on.  mlx5 and rxe
 * are the kmods above (their own proofs and messages). */
struct rdrv {
	const char *prefix;	/* ibdev name */
	const char *netdrv;	/* "ice,i40e": a netdev driver that names it */
	const char *module;	/* the RDMA driver */
	const char *base;	/* the module it needs, or NULL */
	const char *what;
};

static const struct rdrv rdrvs[] = {
	{ "mlx5_", "mlx5_core", "mlx5_ib", "mlx5_core", "NVIDIA ConnectX (mlx5)" },
	{ "mlx4_", "mlx4_en", "mlx4_ib", "mlx4_core", "ConnectX-3 (mlx4)" },
	{ "efa_", NULL, "efa", NULL, "AWS Elastic Fabric Adapter" },
	{ "bnxt_re", "bnxt_en", "bnxt_re", "bnxt_en", "Broadcom NetXtreme-E" },
	{ "irdma", "ice,i40e", "irdma", NULL, "Intel Ethernet 800/X722" },
	{ "ionic_", "ionic", "ionic_rdma", "ionic", "AMD Pensando" },
	{ "mana_", "mana", "mana_ib", "mana", "Microsoft Azure MANA" },
	{ "siw", NULL, "siw", NULL, "Soft-iWARP" },
	{ "hfi1_", NULL, "hfi1", NULL, "Omni-Path (hfi1)" },
	{ "qedr", "qede", "qedr", "qede", "Marvell/QLogic FastLinQ" },
	{ "hns_", "hns3", "hns_roce_hw_v2", "hns3", "HiSilicon" },
	{ "erdma_", NULL, "erdma", NULL, "Alibaba elastic RDMA" },
	{ "cxgb4_", "cxgb4", "iw_cxgb4", "cxgb4", "Chelsio T4+" },
	{ "vmw_pvrdma", "vmxnet3", "vmw_pvrdma", NULL, "VMware paravirtual RDMA" },
	{ "ocrdma", "be2net", "ocrdma", "be2net", "Emulex OneConnect" },
	{ "usnic_", "enic", "usnic_verbs", "enic", "Cisco usNIC" },
	{ NULL, NULL, NULL, NULL, NULL },
};

static int in_list(const char *list, const char *name)
{
	size_t n = strlen(name);

	while (list && *list) {
		size_t l = strcspn(list, ",");

		if (l == n && !strncmp(list, name, n))
			return 1;
		list += l + (list[l] == ',');
	}
	return 0;
}

static const struct rdrv *rdrv_of(const char *ibdev, const char *netdrv)
{
	const struct rdrv *d;

	for (d = rdrvs; d->prefix; d++)
		if (!strncmp(ibdev, d->prefix, strlen(d->prefix)))
			return d;
	for (d = rdrvs; netdrv && d->prefix; d++)
		if (d->netdrv && in_list(d->netdrv, netdrv))
			return d;
	return NULL;
}

static int64_t count(sqlite3 *db, const char *sql, int64_t bid)
{
	return db_int(db, sql, "i", bid);
}

/* module m is loaded: it has its line, or (a filtered lsmod: lines the
 * filter dropped) a line names it as a user.  A whole /proc/modules is
 * judged by its lines alone. */
static int loaded(sqlite3 *db, int64_t bid, const char *m, int partial)
{
	return db_int(db, "SELECT count(*) FROM modules WHERE bundle_id = ?1 "
		      "AND (name = ?2 OR (?3 AND instr(',' || coalesce(used_by, "
		      "'') || ',', ',' || ?2 || ',') > 0))", "isi", bid, m,
		      (int64_t)partial) > 0;
}

/* h's Used-by if h has its line: 1, the list in out; 0 if no line */
static int users_of(sqlite3 *db, int64_t bid, const char *h, char *out,
		    size_t n)
{
	sqlite3_stmt *st = db_query(db, "SELECT coalesce(used_by, '') FROM "
				    "modules WHERE bundle_id = ? AND name = ?",
				    "is", bid, h);
	int found = 0;

	if (sqlite3_step(st) == SQLITE_ROW) {
		snprintf(out, n, "%s", (const char *)sqlite3_column_text(st, 0));
		found = 1;
	}
	db_done(st);
	return found;
}

/* a filtered lsmod (`lsmod | grep smc`) lists only what its filter kept,
 * so a module not in it may be loaded.  Yet every line's Used-by is
 * complete (kmod prints /sys/module/<m>/holders, /proc/modules all of a
 * module's users): m is known not loaded when a module it needs (holders)
 * has its line and does not name it, or is itself known not loaded.  A
 * module needed by a loadable module is no built-in either.  why: the
 * proof, for the evidence. */
static int known_absent(sqlite3 *db, int64_t bid, const char *m,
			const char *holders, char *why, size_t n, int depth)
{
	const struct kmod *k;
	char h[64], users[2048], sub[1024];

	while (holders && *holders && depth < 4) {
		size_t l = strcspn(holders, ",");

		snprintf(h, sizeof(h), "%.*s", (int)(l < 63 ? l : 63), holders);
		holders += l + (holders[l] == ',');
		if (users_of(db, bid, h, users, sizeof(users))) {
			snprintf(why, n, "%s is loaded and its Used-by (%s) does "
				 "not name %s", h, *users ? users : "none", m);
			return 1;
		}
		if (loaded(db, bid, h, 1))
			continue;	/* named as a user, without its line */
		for (k = kmods; k->name && strcmp(k->name, h); k++)
			;
		if (k->name && known_absent(db, bid, h, k->holders, sub,
					    sizeof(sub), depth + 1)) {
			snprintf(why, n, "%s, which %s needs, is not loaded: %s",
				 h, m, sub);
			return 1;
		}
	}
	return 0;
}

static void unjudged_add(char *list, size_t n, const char *m)
{
	size_t l = strlen(list);

	snprintf(list + l, n - l, "%s%s", l ? ", " : "", m);
}

/* what a filtered lsmod leaves unknown: skipped (in part), with why */
static void skip_partial(struct rctx *rc, int64_t bid, const char *mods)
{
	db_exec(rc->db, "INSERT OR IGNORE INTO skipped (bundle_id, rule, "
		"reason) VALUES (?, 'MODULE_MISSING', ?)", "is", bid, *mods ?
		"in part: a filtered lsmod (no header line) lists only what its "
		"filter kept, and no Used-by it shows proves these absent: not "
		"judged" : "a filtered lsmod (no header line) lists only what its "
		"filter kept, and nothing shows an RDMA device or driver");
	if (*mods)
		db_exec(rc->db, "UPDATE skipped SET reason = reason || ': ' || ? "
			"WHERE bundle_id = ? AND rule = 'MODULE_MISSING'", "si",
			mods, bid);
}

static int module_missing(struct rctx *rc)
{
	sqlite3_stmt *st = db_query(rc->db, "SELECT bundle_id FROM todo_rule",
				    "");
	int64_t ids[4096];
	size_t n = 0, i;

	while (sqlite3_step(st) == SQLITE_ROW && n < sizeof(ids) / sizeof(*ids))
		ids[n++] = sqlite3_column_int64(st, 0);
	db_done(st);
	for (i = 0; i < n; i++) {
		int64_t bid = ids[i];
		int64_t ndev = count(rc->db, HAS_DEVS, bid);
		int64_t mlx = count(rc->db, HAS_MLX, bid) + count(rc->db,
			"SELECT count(*) FROM devices WHERE bundle_id = ?1 AND "
			"(ibdev LIKE 'mlx5!_%' ESCAPE '!' OR hca_type LIKE 'MT4%')",
			bid);
		int64_t rxe = count(rc->db, "SELECT count(*) FROM devices WHERE "
				    "bundle_id = ?1 AND " IS_RXE, bid);
		int64_t ib = count(rc->db, "SELECT count(*) FROM ports WHERE "
				   "bundle_id = ?1 AND link_layer = 'InfiniBand'",
				   bid);
		int64_t nmods = count(rc->db, "SELECT count(*) FROM modules "
				      "WHERE bundle_id = ?1", bid);
		int partial = count(rc->db, "SELECT count(*) FROM sources WHERE "
				    "bundle_id = ?1 AND name = 'modules' AND "
				    "status = 'partial'", bid) > 0;
		const struct kmod *k;
		const struct rdrv *other[16], *dv;
		char others[256], unjudged[512] = "";
		size_t no = 0, o, nmlx5 = 0, nknown = 0;
		int drv = loaded(rc->db, bid, "rdma_rxe", partial);

		/* a loaded RDMA driver is an RDMA device, where no device
		 * list came (a pasted lsmod alone) */
		for (dv = rdrvs; dv->prefix && !drv; dv++)
			drv = loaded(rc->db, bid, dv->module, partial);
		if (loaded(rc->db, bid, "mlx5_ib", partial))
			mlx = 1;
		/* no RDMA hardware and no RDMA device: nothing to load */
		if (!ndev && !mlx && !drv) {
			if (partial)
				skip_partial(rc, bid, "");
			continue;
		}
		/* each RDMA device's driver: its name, else its netdev's */
		others[0] = 0;
		st = db_query(rc->db, "SELECT d.ibdev, (SELECT n.driver FROM "
			      "ports p JOIN netdevs n ON n.bundle_id = p.bundle_id "
			      "AND n.name = p.netdev WHERE p.bundle_id = d.bundle_id "
			      "AND p.ibdev = d.ibdev AND n.driver IS NOT NULL LIMIT 1), "
			      "d.pci_addr IS NULL AND (d.ibdev LIKE 'rxe%' OR "
			      "(d.parent IS NOT NULL AND d.ibdev NOT LIKE 'siw%')) "
			      "FROM devices d WHERE d.bundle_id = ? ORDER BY "
			      "d.ibdev", "i", bid);
		while (sqlite3_step(st) == SQLITE_ROW) {
			const char *name = (const char *)sqlite3_column_text(st, 0);
			const char *nd = (const char *)sqlite3_column_text(st, 1);

			dv = rdrv_of(name, nd);
			if (!dv && sqlite3_column_int(st, 2)) {
				nknown++;	/* rxe: rdma_rxe, a kmod */
				continue;
			}
			if (!dv)
				continue;
			nknown++;
			if (!strcmp(dv->module, "mlx5_ib")) {
				nmlx5++;
				continue;
			}
			for (o = 0; o < no && other[o] != dv; o++)
				;
			if (o == no && no < ARRAY_SIZE(other)) {
				size_t l = strlen(others);

				other[no++] = dv;
				snprintf(others + l, sizeof(others) - l, "%s%s (%s)",
					 l ? ", " : "", dv->module, dv->what);
			}
		}
		db_done(st);
		/* every RDMA device is of another driver: the ConnectX
		 * functions here (if any) are Ethernet NICs, the mlx5 RDMA
		 * modules are not this node's RDMA */
		if (ndev && !nmlx5 && nknown == (size_t)ndev)
			mlx = 0;
		/* the other drivers' own modules, as the kmods' are */
		for (o = 0; o < no; o++) {
			const char *mods[2] = { other[o]->module, other[o]->base };
			size_t m;

			for (m = 0; m < 2 && mods[m]; m++) {
				int64_t fid;

				if (loaded(rc->db, bid, mods[m], partial))
					continue;
				/* a filtered lsmod: not listed proves nothing */
				if (partial) {
					unjudged_add(unjudged, sizeof(unjudged),
						     mods[m]);
					continue;
				}
				/* its devices exist: built in, or a container */
				fid = finding_add(rc, bid, SEV_INFO, mods[m],
						  "module %s is not in /proc/modules "
						  "but the %s RDMA devices it drives "
						  "exist: built into the kernel, or "
						  "/proc/modules is not this kernel's "
						  "(a container)", mods[m],
						  other[o]->what);
				finding_evidence(rc, fid, "proc/modules",
						 "no line for %s (%lld modules "
						 "listed)", mods[m], (long long)nmods);
			}
		}
		for (k = kmods; k->name; k++) {
			int sev = k->sev;
			const char *why = "";
			char proof[1200];
			int64_t fid;

			if (!strncmp(k->name, "mlx5_", 5) && !mlx)
				continue;	/* no ConnectX: e.g. Soft-RoCE */
			if (!strcmp(k->name, "rdma_rxe") && !rxe)
				continue;
			if (!strcmp(k->name, "ib_ipoib") && !ib)
				continue;	/* IPoIB is InfiniBand only */
			if (loaded(rc->db, bid, k->name, partial))
				continue;
			if (partial && !known_absent(rc->db, bid, k->name,
						     k->holders, proof,
						     sizeof(proof), 0)) {
				unjudged_add(unjudged, sizeof(unjudged), k->name);
				continue;
			}
			if (count(rc->db, k->proof, bid)) {
				fid = finding_add(rc, bid, SEV_INFO, k->name,
						  "module %s is not in /proc/modules "
						  "but %s: built into the kernel, or "
						  "/proc/modules is not this kernel's "
						  "(a container)", k->name, k->objects);
				finding_evidence(rc, fid, "proc/modules",
						 "no line for %s (%lld modules "
						 "listed)", k->name, (long long)nmods);
				continue;
			}
			if (!strcmp(k->name, "ib_umad") && !ib) {
				/* only InfiniBand management needs it */
				sev = SEV_INFO;
				why = "; this node has no InfiniBand port, so only "
				      "the InfiniBand management tools miss it";
			}
			fid = finding_add(rc, bid, sev, k->name,
					  "module %s is not loaded: %s%s%s%s%s",
					  k->name, k->consequence, why, mlx ? "" :
					  rxe ? " (no ConnectX on this node: the "
					  "mlx5 modules are not needed, Soft-RoCE "
					  "needs rdma_rxe)" : no ? " (this node's "
					  "RDMA devices are driven by " : " (no "
					  "ConnectX on this node: the mlx5 modules "
					  "are not needed)", !mlx && !rxe && no ?
					  others : "", !mlx && !rxe && no ? ": the "
					  "mlx5 modules are not needed)" : "");
			if (partial) {
				finding_evidence(rc, fid, "proc/modules", "no line "
						 "for %s in a filtered lsmod (%lld "
						 "lines), but %s", k->name,
						 (long long)nmods, proof);
				continue;
			}
			finding_evidence(rc, fid, "proc/modules",
					 "no line for %s (%lld modules listed)",
					 k->name, (long long)nmods);
			finding_evidence(rc, fid, "sys/module", "no %s folder (not "
					 "built in)", k->name);
		}
		if (partial && unjudged[0])
			skip_partial(rc, bid, unjudged);
	}
	return 0;
}

/* /dev/infiniband against what sysfs says should be there */
static int devnode_missing(struct rctx *rc)
{
	sqlite3_stmt *st;

	/* uverbsN and umadN that sysfs has and /dev/infiniband lacks */
	st = db_query(rc->db, "SELECT c.bundle_id, c.name, c.class, c.ibdev, "
		      "c.port, c.path, c.dev FROM rdma_cdevs c JOIN todo_rule t ON "
		      "t.bundle_id = c.bundle_id WHERE (c.name LIKE 'uverbs%' OR "
		      "c.name LIKE 'umad%') AND NOT EXISTS (SELECT 1 FROM "
		      "devnodes d WHERE d.bundle_id = c.bundle_id AND d.name = "
		      "c.name) ORDER BY c.bundle_id, c.name", "");
	while (sqlite3_step(st) == SQLITE_ROW) {
		int64_t bid = sqlite3_column_int64(st, 0), fid;
		const char *name = (const char *)sqlite3_column_text(st, 1);
		const char *cls = (const char *)sqlite3_column_text(st, 2);
		const char *ibdev = (const char *)sqlite3_column_text(st, 3);
		int64_t port = sqlite3_column_int64(st, 4);
		const char *path = (const char *)sqlite3_column_text(st, 5);
		const char *dev = (const char *)sqlite3_column_text(st, 6);
		char comp[96];
		int verbs = !strcmp(cls, "verbs");

		if (verbs)
			snprintf(comp, sizeof(comp), "%s", ibdev);
		else
			snprintf(comp, sizeof(comp), "%s:%lld", ibdev,
				 (long long)port);
		fid = finding_add(rc, bid, -1, comp, "/dev/infiniband/%s is "
				  "missing for %s: %s", name, comp, verbs ?
				  "no userspace verbs on this device (ibv_open_device "
				  "fails; NCCL and perftest cannot use it)" :
				  "MAD tools (ibstat, perfquery) cannot reach this "
				  "port");
		finding_evidence(rc, fid, path, "%s (dev %s)", ibdev,
				 dev ? dev : "?");
		finding_evidence(rc, fid, "rdma-collect/devnodes.json",
				 "no entry %s", name);
	}
	db_done(st);
	/* no sysfs infiniband_verbs to say which uverbsN is whose (a pasted
	 * `ls /dev/infiniband` beside `ls /sys/class/infiniband`): every
	 * RDMA device has one, so fewer of them than devices is a gap, even
	 * if which device lacks it is not known */
	st = db_query(rc->db, "SELECT t.bundle_id, (SELECT count(*) FROM "
		      "devices v WHERE v.bundle_id = t.bundle_id) AS nd, (SELECT "
		      "count(*) FROM devnodes d WHERE d.bundle_id = t.bundle_id "
		      "AND d.name GLOB 'uverbs[0-9]*') AS nu, (SELECT "
		      "group_concat(ibdev, ' ') FROM devices v WHERE v.bundle_id "
		      "= t.bundle_id), (SELECT group_concat(name, ' ') FROM "
		      "devnodes d WHERE d.bundle_id = t.bundle_id AND d.name GLOB "
		      "'uverbs[0-9]*') FROM todo_rule t WHERE NOT EXISTS (SELECT "
		      "1 FROM rdma_cdevs c WHERE c.bundle_id = t.bundle_id AND "
		      "c.class = 'verbs') AND EXISTS (SELECT 1 FROM devnodes d "
		      "WHERE d.bundle_id = t.bundle_id) AND nu < nd", "");
	while (sqlite3_step(st) == SQLITE_ROW) {
		int64_t bid = sqlite3_column_int64(st, 0), fid;
		int64_t nd = sqlite3_column_int64(st, 1);
		int64_t nu = sqlite3_column_int64(st, 2);
		const char *devs = (const char *)sqlite3_column_text(st, 3);
		const char *uv = (const char *)sqlite3_column_text(st, 4);

		fid = finding_add(rc, bid, -1, "uverbs", "/dev/infiniband has "
				  "%lld uverbs node(s) for %lld RDMA devices (%s): "
				  "%lld device(s) have no userspace verbs here "
				  "(ibv_get_device_list leaves them out; NCCL and "
				  "perftest cannot use them)", (long long)nu,
				  (long long)nd, devs ? devs : "?",
				  (long long)(nd - nu));
		finding_evidence(rc, fid, "sys/class/infiniband", "%s",
				 devs ? devs : "");
		finding_evidence(rc, fid, "rdma-collect/devnodes.json",
				 "%s", uv ? uv : "no uverbs entry");
	}
	db_done(st);
	/* rdma_cm: needed wherever there is an RDMA device */
	st = db_query(rc->db, "SELECT t.bundle_id, (SELECT count(*) FROM "
		      "devnodes d WHERE d.bundle_id = t.bundle_id), (SELECT "
		      "group_concat(ibdev, ' ') FROM devices v WHERE v.bundle_id = "
		      "t.bundle_id) FROM todo_rule t WHERE EXISTS (SELECT 1 FROM "
		      "devices v WHERE v.bundle_id = t.bundle_id) AND NOT EXISTS "
		      "(SELECT 1 FROM devnodes d WHERE d.bundle_id = t.bundle_id "
		      "AND d.name = 'rdma_cm')", "");
	while (sqlite3_step(st) == SQLITE_ROW) {
		int64_t bid = sqlite3_column_int64(st, 0), fid;
		const char *devs = (const char *)sqlite3_column_text(st, 2);

		fid = finding_add(rc, bid, -1, "rdma_cm", "/dev/infiniband/"
				  "rdma_cm is missing: rdma_cm users (librdmacm, "
				  "NCCL, UCX, MPI) cannot connect over %s",
				  devs ? devs : "the RDMA devices");
		finding_evidence(rc, fid, "rdma-collect/devnodes.json",
				 "no entry rdma_cm (%lld entries)",
				 (long long)sqlite3_column_int64(st, 1));
	}
	db_done(st);
	return 0;
}

const struct rule rules_kernel[] = {
	{
		.id = "MODULE_MISSING",
		.layer = LAYER_KERNEL,
		.severity = SEV_CRITICAL,
		.title = "an RDMA kernel module is not loaded",
		.needs = "modules",
		.imp_needs = IMP_NEEDS(&need_module_list),
		.evidence = "proc/modules, sys/module/<m>; the devices, PCI functions, sys/class/infiniband_{verbs,mad} and /dev/infiniband entries that prove a built-in module. Demanded: the generic stack (ib_core, ib_uverbs, ib_cm, rdma_cm, rdma_ucm; ib_umad, critical only with an InfiniBand port; ib_ipoib on InfiniBand, info) and each RDMA device's own driver, found by the device's kernel name or its netdev's driver (mlx5_ib/mlx5_core, mlx4_ib, efa, bnxt_re/bnxt_en, irdma, ionic_rdma, mana_ib, rdma_rxe, siw, hfi1, qedr, hns_roce_hw_v2, erdma, iw_cxgb4, vmw_pvrdma ...); mlx5_core and mlx5_ib are not demanded where every RDMA device is another driver's (a ConnectX there is an Ethernet NIC). A filtered lsmod (no header line) proves a module absent only through a module it needs: that one's line is listed and its Used-by (complete in any lsmod) does not name it (ib_core for ib_uverbs, ib_cm, rdma_cm, ib_umad, ib_ipoib, mlx5_ib and the RDMA drivers; rdma_cm for rdma_ucm; the driver's own core module); the modules it proves nothing about are skipped, named; a loaded RDMA driver counts as an RDMA device",
		.remediation = "Load it (`modprobe <module>`) and make it persistent (rdma-core's /etc/rdma/modules/*.conf or /etc/modules-load.d/rdma.conf; with MLNX_OFED `/etc/init.d/openibd restart`); if it fails, dmesg names why (unknown symbols after a kernel update: reinstall the OFED / DKMS packages for the running kernel).",
		.check = module_missing,
	},
	{
		.id = "DEVNODE_MISSING",
		.layer = LAYER_KERNEL,
		.severity = SEV_CRITICAL,
		.title = "/dev/infiniband lacks a uverbs, umad or rdma_cm node",
		.needs = "devnodes,sysfs",
		.evidence = "rdma-collect/devnodes.json against sys/class/infiniband_verbs/*/ibdev, sys/class/infiniband_mad/*/{ibdev,port}; without those, the count of uverbs nodes against sys/class/infiniband/*",
		.remediation = "The kernel has the device but userspace has no node: check that udev runs (`udevadm trigger --subsystem-match=infiniband_verbs --subsystem-match=infiniband_mad --subsystem-match=misc`), that rdma_ucm is loaded for rdma_cm, and in a container that /dev/infiniband is passed in (`--device=/dev/infiniband` or the RDMA device plugin).",
		.check = devnode_missing,
	},
	{ 0 },
};
