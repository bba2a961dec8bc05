/* rules-klog-extra: the kernel-log faults of an RDMA node that the
 * layer 1-2 rules do not read: an mlx5 function that failed to probe
 * (DRIVER_PROBE_FAILED), firmware commands that failed or timed out on a
 * function that did probe (FW_CMD_FAILED), and a kernel oops, BUG, panic
 * or WARNING whose report runs through RDMA code (KERNEL_OOPS).
 *
 * They read the klog table as FW_RESET does (load-klog.c's categories
 * probe_fail and mlx5_cmd); one device, one finding: a command failure
 * that made the probe fail is evidence of the probe failure, not a
 * finding of its own.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "log.h"
#include "rules.h"
#include "util.h"

#define MAX_BUNDLES 4096
#define MAX_EVIDENCE 8
#define OOPS_RECORDS 120	/* an oops report's lines after its first */

/* mlx5 command failures that load-klog.c has no category for */
#define CMD_EXTRA "text LIKE 'mlx5_core %failed to allocate command entry%'"

/* a record's device; a line naming none ("mlx5_core.eth: probe of
 * mlx5_core.eth.2 failed") belongs to the device of the driver's last
 * line before it */
#define DEV_OF(k) "coalesce(" k ".device, (SELECT k2.device FROM klog k2 " \
	"WHERE k2.bundle_id = " k ".bundle_id AND k2.rowid < " k ".rowid " \
	"AND k2.device IS NOT NULL AND substr(k2.text, 1, 4) = 'mlx5' ORDER BY " \
	"k2.rowid DESC LIMIT 1), '')"

static size_t todo(struct rctx *rc, int64_t *ids, size_t max)
{
	sqlite3_stmt *st = db_query(rc->db, "SELECT bundle_id FROM todo_rule "
				    "ORDER BY bundle_id", "");
	size_t n = 0;

	while (sqlite3_step(st) == SQLITE_ROW && n < max)
		ids[n++] = sqlite3_column_int64(st, 0);
	db_done(st);
	return n;
}

/* the stored kernel log's path: kmsg records have a sequence number */
static const char *klog_path(sqlite3 *db, int64_t bid)
{
	return db_int(db, "SELECT count(*) FROM klog WHERE bundle_id = ? AND "
		      "seq IS NOT NULL", "i", bid) ?
		       "rdma-collect/klog/kmsg.txt" :
		       "rdma-collect/klog/syslog.txt";
}

static void fmt_line(char *out, size_t n, sqlite3_stmt *st, int ts_col,
		     int text_col)
{
	const char *t = (const char *)sqlite3_column_text(st, text_col);

	if (sqlite3_column_type(st, ts_col) != SQLITE_NULL) {
		int64_t ts = sqlite3_column_int64(st, ts_col);

		snprintf(out, n, "[%5" PRId64 ".%06" PRId64 "] %s", ts / 1000000,
			 ts % 1000000, t ? t : "");
	} else {
		snprintf(out, n, "%s", t ? t : "");
	}
}

/* the RDMA device on a PCI function, else the address itself */
static void component_of(sqlite3 *db, int64_t bid, const char *pci,
			 char *out, size_t n)
{
	sqlite3_stmt *st = db_query(db, "SELECT ibdev FROM devices WHERE "
				    "bundle_id = ? AND pci_addr = ? ORDER BY "
				    "ibdev LIMIT 1", "is", bid, pci);

	if (*pci && sqlite3_step(st) == SQLITE_ROW &&
	    sqlite3_column_text(st, 0))
		snprintf(out, n, "%s", (const char *)sqlite3_column_text(st, 0));
	else
		snprintf(out, n, "%s", *pci ? pci : "mlx5_core");
	db_done(st);
}

#define PROBE_FAIL "k.category = 'probe_fail'"
#define CMD_FAIL "k.category = 'mlx5_cmd' OR k." CMD_EXTRA
#define DEVS(sel) "SELECT DISTINCT " DEV_OF("k") " FROM klog k WHERE " \
	"k.bundle_id = ? AND ((" sel "))"
#define ROWS(sel) "SELECT k.ts_us, k.text FROM klog k WHERE k.bundle_id = " \
	"? AND ((" sel ")) AND " DEV_OF("k") " = ? ORDER BY k.rowid"

/* one finding per device: the devices (one column) and each device's
 * lines (ts_us, text), literal queries (db.h caches them by pointer) */
struct kind {
	const char *devs, *rows;
	const char *what;
};

static int device_findings(struct rctx *rc, const struct kind *k)
{
	static int64_t ids[MAX_BUNDLES];
	size_t n = todo(rc, ids, MAX_BUNDLES), i;

	for (i = 0; i < n; i++) {
		const char *path = klog_path(rc->db, ids[i]);
		sqlite3_stmt *st;
		char **devs = NULL;
		size_t nd = 0, d;

		/* the devices first: the inner query reuses no statement */
		st = db_query(rc->db, k->devs, "i", ids[i]);
		while (sqlite3_step(st) == SQLITE_ROW) {
			devs = xrealloc(devs, (nd + 1) * sizeof(*devs));
			devs[nd++] = xstrdup((const char *)sqlite3_column_text(st, 0));
		}
		db_done(st);
		for (d = 0; d < nd; d++) {
			char comp[64], line[1200];
			const char *pci = devs[d];
			int64_t lines = 0, fid;
			char *ev[MAX_EVIDENCE];
			size_t ne = 0, e;
			int named;

			st = db_query(rc->db, k->rows, "is", ids[i], pci);
			while (sqlite3_step(st) == SQLITE_ROW) {
				lines++;
				if (ne < MAX_EVIDENCE) {
					fmt_line(line, sizeof(line), st, 0, 1);
					ev[ne++] = xstrdup(line);
				}
			}
			db_done(st);
			component_of(rc->db, ids[i], pci, comp, sizeof(comp));
			named = *pci && strcmp(pci, comp);
			fid = finding_add(rc, ids[i], -1, comp, "%s on %s%s%s%s "
					  "(%" PRId64 " kernel log line%s)", k->what,
					  comp, named ? " (" : "", named ? pci : "",
					  named ? ")" : "", lines,
					  lines == 1 ? "" : "s");
			for (e = 0; e < ne; e++) {
				finding_evidence(rc, fid, path, "%s", ev[e]);
				free(ev[e]);
			}
			if (lines > (int64_t)ne)
				finding_evidence(rc, fid, path, "... %" PRId64
						 " more lines", lines - (int64_t)ne);
			free(devs[d]);
		}
		free(devs);
	}
	return 0;
}

static int probe_failed(struct rctx *rc)
{
	static const struct kind k = {
		DEVS(PROBE_FAIL) " ORDER BY 1",
		ROWS(PROBE_FAIL ") OR (" CMD_FAIL),
		"the driver failed to probe the function" };

	return device_findings(rc, &k);
}

static int cmd_failed(struct rctx *rc)
{
	static const struct kind k = {
		DEVS(CMD_FAIL) " AND " DEV_OF("k") " NOT IN (SELECT "
		DEV_OF("p") " FROM klog p WHERE p.bundle_id = k.bundle_id AND "
		"p.category = 'probe_fail') ORDER BY 1",
		ROWS(CMD_FAIL),
		"firmware commands failed or timed out" };

	return device_findings(rc, &k);
}

/* --- KERNEL_OOPS --- */

/* the first line of an oops, BUG, panic or WARNING report */
#define OOPS_START "(k.text LIKE 'BUG: %' OR k.text LIKE 'kernel BUG at %' " \
	"OR k.text LIKE 'general protection fault%' OR k.text LIKE " \
	"'Oops: %' OR k.text LIKE 'Kernel panic - not syncing%' OR k.text " \
	"LIKE 'WARNING: CPU: %' OR k.text LIKE 'WARNING: at %')"

/* a line of the report that runs through RDMA code: the faulting
 * function, a trace frame, the work queue ("Modules linked in" lists the
 * loaded modules, not the code that ran); the RDMA drivers, the core and
 * the upper layers over verbs (ib_srp, ib_iser, ipoib, nvme_rdma,
 * nvmet_rdma, rds_rdma, rpcrdma) */
#define RDMA_CODE(t) "(" t " NOT LIKE 'Modules linked in:%' AND (" t \
	" LIKE '%mlx5\\_%' ESCAPE '\\' OR " t " LIKE '%mlx4\\_%' ESCAPE '\\' " \
	"OR " t " LIKE '% ib\\_%' ESCAPE '\\' OR " t " LIKE '%[ib\\_%' " \
	"ESCAPE '\\' OR " t " LIKE '% rdma\\_%' ESCAPE '\\' OR " t " LIKE " \
	"'%[rdma\\_%' ESCAPE '\\' OR " t " LIKE '%ipoib%' OR " t " LIKE " \
	"'%irdma%' OR " t " LIKE '%bnxt\\_re%' ESCAPE '\\' OR " t " LIKE " \
	"'%rxe\\_%' ESCAPE '\\' OR " t " LIKE '%\\_rdma%' ESCAPE '\\' OR " \
	t " LIKE '%rpcrdma%'))"

static int kernel_oops(struct rctx *rc)
{
	static int64_t ids[MAX_BUNDLES];
	size_t n = todo(rc, ids, MAX_BUNDLES), i;

	for (i = 0; i < n; i++) {
		const char *path = klog_path(rc->db, ids[i]);
		sqlite3_stmt *st, *t;
		int64_t last_end = -1;

		st = db_query(rc->db, "SELECT k.rowid, k.ts_us, k.text FROM klog "
			      "k WHERE k.bundle_id = ? AND " OOPS_START
			      " ORDER BY k.rowid", "i", ids[i]);
		while (sqlite3_step(st) == SQLITE_ROW) {
			int64_t row = sqlite3_column_int64(st, 0), fid, hits = 0;
			const char *text = (const char *)sqlite3_column_text(st, 2);
			int warn = !strncmp(text, "WARNING:", 8);
			char first[1200], dev[16] = "", line[1200];
			char *ev[MAX_EVIDENCE];
			size_t ne = 0, e;

			if (row <= last_end)
				continue;	/* a line of the report before */
			fmt_line(first, sizeof(first), st, 1, 2);
			/* the report: up to its end marker or the next one */
			t = db_query(rc->db, "SELECT k.rowid, k.ts_us, k.text, "
				     "coalesce(k.device, '') FROM klog k WHERE "
				     "k.bundle_id = ? AND k.rowid > ? AND k.rowid "
				     "<= ? ORDER BY k.rowid", "iii", ids[i], row,
				     row + OOPS_RECORDS);
			last_end = row;
			while (sqlite3_step(t) == SQLITE_ROW) {
				const char *x = (const char *)sqlite3_column_text(t, 2);

				last_end = sqlite3_column_int64(t, 0);
				if (x && (strstr(x, "---[ end trace") ||
					  strstr(x, "---[ end Kernel panic")))
					break;
				if (x && db_int(rc->db, "SELECT " RDMA_CODE("?1"),
						"s", x) > 0) {
					hits++;
					if (!dev[0] && *(const char *)
					    sqlite3_column_text(t, 3))
						snprintf(dev, sizeof(dev), "%s",
							 (const char *)
							 sqlite3_column_text(t, 3));
					if (ne < MAX_EVIDENCE - 1) {
						fmt_line(line, sizeof(line), t, 1, 2);
						ev[ne++] = xstrdup(line);
					}
				}
			}
			db_done(t);
			if (!hits) {
				for (e = 0; e < ne; e++)
					free(ev[e]);
				continue;
			}
			fid = finding_add(rc, ids[i], warn ? SEV_WARNING : -1,
					  dev[0] ? dev : "kernel", "kernel %s in "
					  "RDMA code: %.160s", warn ? "WARNING" :
					  "oops", text);
			finding_evidence(rc, fid, path, "%s", first);
			for (e = 0; e < ne; e++) {
				finding_evidence(rc, fid, path, "%s", ev[e]);
				free(ev[e]);
			}
			if (hits > (int64_t)ne)
				finding_evidence(rc, fid, path, "... %" PRId64
						 " more lines in RDMA code",
						 hits - (int64_t)ne);
		}
		db_done(st);
	}
	return 0;
}

const struct rule rules_klog_extra[] = {
	{
		.id = "DRIVER_PROBE_FAILED",
		.layer = LAYER_KERNEL,
		.severity = SEV_CRITICAL,
		.title = "the mlx5 driver failed to probe a function (no device)",
		.needs = "klog",
		.evidence = "rdma-collect/klog/kmsg.txt (or syslog.txt): \"mlx5_load_one failed\", \"handle_hca_cap failed\", \"probe of <bdf> failed with error N\" (mlx5_core and its auxiliary drivers), shown with the function's failed firmware commands",
		.remediation = "The function has no RDMA device or netdev. Read the failed command and syndrome in the evidence: a bad parameter at CREATE_EQ or handle_hca_cap usually means driver and firmware disagree (update the firmware for the board with mlxfwmanager, or use the driver the firmware release notes name); check the kernel command line (maxcpus, pci=, iommu), SR-IOV and mlxconfig settings the driver cannot honour, then reload mlx5_core.",
		.check = probe_failed,
	},
	{
		.id = "FW_CMD_FAILED",
		.layer = LAYER_HCA,
		.severity = SEV_WARNING,
		.title = "mlx5 firmware commands failed or timed out",
		.needs = "klog",
		.evidence = "rdma-collect/klog/kmsg.txt (or syslog.txt): \"<CMD>(0x..) op_mod(0x..) failed, status <s>(0x..), syndrome (0x..)\", command timeouts (\"recovered after timeout\", \"timeout. Will cause a leak\", \"No done completion\"), \"failed to allocate command entry\"; not on a function whose probe failed (DRIVER_PROBE_FAILED shows them)",
		.remediation = "The driver's commands to the firmware fail or complete only by timeout recovery. Read the command and syndrome: timeouts recovered from the command EQ mean missing interrupts (MSI-X vectors: maxcpus=, irqbalance, the IOMMU/interrupt remapping); failed allocations of command entries mean the command queue is exhausted (driver load under memory pressure); a status with a syndrome goes to the firmware release notes or NVIDIA support with fw_ver.",
		.check = cmd_failed,
	},
	{
		.id = "KERNEL_OOPS",
		.layer = LAYER_KERNEL,
		.severity = SEV_CRITICAL,
		.title = "kernel oops, BUG or panic (WARNING: warning) in RDMA code",
		.needs = "klog",
		.evidence = "rdma-collect/klog/kmsg.txt (or syslog.txt): \"BUG: ...\", \"general protection fault\", \"Oops: ...\", \"Kernel panic - not syncing\", \"WARNING: CPU: ...\" whose report (up to \"---[ end trace\") names mlx5_/mlx4_/ib_/rdma_/ipoib/irdma/bnxt_re/rxe code or an RDMA upper layer (*_rdma: nvme_rdma, nvmet_rdma, rds_rdma; rpcrdma) in RIP, the call trace or the work queue",
		.remediation = "The kernel crashed or warned inside the RDMA stack: save the whole report (and the pstore/kdump dump), find the driver version (modinfo mlx5_core, ofed_info -s) and search the distribution's and the driver's fixes for the faulting function; update the kernel or MLNX_OFED; a crash at driver unload or PCI remove points at the teardown order (stop RDMA users first).",
		.check = kernel_oops,
	},
	{ .id = NULL },
};
