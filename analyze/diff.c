/* diff: `rdma-analyze diff A B`, two bundles or nodes side by side: the
 * fingerprint attributes that differ (fingerprint.c) and the error,
 * discard and pause counters that differ, as text or JSON.  The diff of a
 * bundle with itself is empty. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analyze.h"
#include "buf.h"
#include "db.h"
#include "diff.h"
#include "fingerprint.h"
#include "json.h"
#include "import.h"
#include "load.h"
#include "log.h"
#include "util.h"

struct side {
	int64_t bid;
	char *node, *file, *collected_at, *cls;
	double uptime_s;
};

/* A: a bundle file or an import (a sos report, a sysinfo-snapshot, a
 * folder of pasted outputs: loaded), else a node name of the database (any
 * other folder of that name is not evidence: node trees often carry node
 * names) */
static int resolve(sqlite3 *db, const char *arg, int have_db, struct side *s)
{
	sqlite3_stmt *st;
	struct stat sb;

	memset(s, 0, sizeof(*s));
	s->bid = -1;
	if (!stat(arg, &sb) && (S_ISREG(sb.st_mode) ||
				(S_ISDIR(sb.st_mode) && imp_detect(arg)))) {
		struct load_stats ls;
		char *files[1] = { (char *)arg };

		memset(&ls, 0, sizeof(ls));
		load_files(db, files, 1, 0, NULL, &ls);
		if (ls.nall == 1)
			s->bid = ls.all_ids[0];
		load_stats_release(&ls);
		if (s->bid < 0)
			return -1;	/* load_files said why */
	} else if (have_db) {
		st = db_query(db, "SELECT b.id FROM bundles b JOIN nodes n ON n.id "
			      "= b.node_id WHERE n.name = ? ORDER BY b.collected_at "
			      "DESC, b.id DESC LIMIT 1", "s", arg);
		if (sqlite3_step(st) == SQLITE_ROW)
			s->bid = sqlite3_column_int64(st, 0);
		db_done(st);
		if (s->bid < 0)
			return error("no bundle or node '%s'", arg);
	} else {
		return error("cannot open '%s': no such file (a node name needs "
			     "--db)", arg);
	}
	st = db_query(db, "SELECT n.name, b.file, b.collected_at, b.uptime_s "
		      "FROM bundles b JOIN nodes n ON n.id = b.node_id WHERE b.id "
		      "= ?", "i", s->bid);
	if (sqlite3_step(st) == SQLITE_ROW) {
		s->node = db_col_dup(st, 0);
		s->file = db_col_dup(st, 1);
		s->collected_at = db_col_dup(st, 2);
		s->uptime_s = sqlite3_column_double(st, 3);
	}
	db_done(st);
	s->cls = fingerprint_class(db, s->bid);
	return s->cls ? 0 : -1;
}

static void side_release(struct side *s)
{
	free(s->node);
	free(s->file);
	free(s->collected_at);
	free(s->cls);
}

/* --- attributes --- */

struct out {
	struct json *j;		/* NULL: text */
	int n;
};

static const char *val(const char *v, int present)
{
	return !present ? "-" : v ? v : "absent";
}

static int attr_row(const struct fp_diff *d, void *arg)
{
	struct out *o = arg;

	o->n++;
	if (!o->j) {
		printf("%-7s %-32s %s -> %s\n", d->grp, d->attr,
		       val(d->a, d->present_a), val(d->b, d->present_b));
		return 0;
	}
	json_obj_open(o->j, NULL);
	json_str(o->j, "attribute", d->attr);
	json_str(o->j, "group", d->grp);
	json_bool(o->j, "a_present", d->present_a);
	json_str(o->j, "a", d->a);
	json_bool(o->j, "b_present", d->present_b);
	json_str(o->j, "b", d->b);
	json_obj_close(o->j);
	return 0;
}

/* --- counters --- */

/* the counters compared (--all: every one): the error, discard and pause
 * counters of the fleet and history checks */
#define DIFF_COUNTERS \
	"WITH c AS (SELECT bundle_id, ibdev || ':' || port AS comp, kind || ' ' " \
	"|| name AS name, value, ((kind = 'pma' AND name IN ('symbol_error', " \
	"'link_error_recovery', 'link_downed', 'port_rcv_errors', " \
	"'port_rcv_remote_physical_errors', 'port_rcv_switch_relay_errors', " \
	"'port_xmit_discards', 'port_xmit_constraint_errors', " \
	"'port_rcv_constraint_errors', 'local_link_integrity_errors', " \
	"'excessive_buffer_overrun_errors', 'VL15_dropped')) OR (kind = 'hw' " \
	"AND name IN ('out_of_sequence', 'duplicate_request', " \
	"'packet_seq_err', 'implied_nak_seq_err', 'local_ack_timeout_err', " \
	"'rnr_nak_retry_err', 'req_cqe_error', 'resp_cqe_error', " \
	"'out_of_buffer'))) AS err FROM counters WHERE bundle_id IN (?1, ?2) " \
	"UNION ALL SELECT bundle_id, netdev, source || ' ' || name, value, " \
	"source = 'ethtool' AND (name IN ('rx_pause_ctrl_phy', " \
	"'tx_pause_ctrl_phy', 'rx_discards_phy', 'tx_discards_phy', " \
	"'rx_symbol_err_phy', 'rx_crc_errors_phy', 'rx_pcs_symbol_err_phy', " \
	"'tx_errors_phy') OR name GLOB 'rx_prio[0-7]_pause' OR name GLOB " \
	"'tx_prio[0-7]_pause' OR name GLOB 'rx_prio[0-7]_discards') FROM " \
	"netdev_stats WHERE bundle_id IN (?1, ?2)), k AS (SELECT comp, name " \
	"FROM c WHERE err OR ?3 GROUP BY comp, name) SELECT k.comp, k.name, " \
	"x.value, y.value, x.comp IS NOT NULL, y.comp IS NOT NULL FROM k LEFT " \
	"JOIN c x ON x.bundle_id = ?1 AND x.comp = k.comp AND x.name = k.name " \
	"LEFT JOIN c y ON y.bundle_id = ?2 AND y.comp = k.comp AND y.name = " \
	"k.name WHERE x.value IS NOT y.value ORDER BY k.comp, k.name"

static void rate(char *out, size_t n, sqlite3_stmt *st, int i, int present,
		 double uptime_s)
{
	if (!present || sqlite3_column_type(st, i) == SQLITE_NULL)
		snprintf(out, n, "-");
	else if (uptime_s > 0)
		snprintf(out, n, "%lld (%.3g/h)",
			 (long long)sqlite3_column_int64(st, i),
			 sqlite3_column_int64(st, i) * 3600.0 / uptime_s);
	else
		snprintf(out, n, "%lld", (long long)sqlite3_column_int64(st, i));
}

static void counter_rows(sqlite3 *db, const struct side *a,
			 const struct side *b, int all, struct out *o)
{
	sqlite3_stmt *st = db_query(db, DIFF_COUNTERS, "iii", a->bid, b->bid,
				    (int64_t)all);

	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *comp = (const char *)sqlite3_column_text(st, 0);
		const char *name = (const char *)sqlite3_column_text(st, 1);
		int pa = sqlite3_column_int(st, 4), pb = sqlite3_column_int(st, 5);
		char ra[64], rb[64];

		o->n++;
		if (!o->j) {
			rate(ra, sizeof(ra), st, 2, pa, a->uptime_s);
			rate(rb, sizeof(rb), st, 3, pb, b->uptime_s);
			printf("counter %s %s: %s -> %s\n", comp, name, ra, rb);
			continue;
		}
		json_obj_open(o->j, NULL);
		json_str(o->j, "component", comp);
		json_str(o->j, "counter", name);
		if (pa && sqlite3_column_type(st, 2) != SQLITE_NULL)
			json_int(o->j, "a", sqlite3_column_int64(st, 2));
		else
			json_null(o->j, "a");
		if (pb && sqlite3_column_type(st, 3) != SQLITE_NULL)
			json_int(o->j, "b", sqlite3_column_int64(st, 3));
		else
			json_null(o->j, "b");
		json_obj_close(o->j);
	}
	db_done(st);
}

static void side_json(struct json *j, const char *key, const struct side *s)
{
	json_obj_open(j, key);
	json_str(j, "node", s->node);
	json_str(j, "bundle", s->file);
	json_str(j, "collected_at", s->collected_at);
	json_str(j, "class", s->cls);
	if (s->uptime_s > 0)
		json_int(j, "uptime_s", (int64_t)s->uptime_s);
	else
		json_null(j, "uptime_s");
	json_obj_close(j);
}

int diff_two(const char *dbfile, const char *arg_a, const char *arg_b,
	     int json, int all)
{
	struct side a, b;
	struct out o = { NULL, 0 };
	struct buf jb = BUF_INIT;
	struct json j;
	sqlite3 *db;
	int rc = EXIT_INPUT;

	db = db_open(dbfile ? dbfile : ":memory:");
	if (!db)
		return EXIT_INPUT;
	memset(&b, 0, sizeof(b));
	if (resolve(db, arg_a, !!dbfile, &a) < 0) {
		side_release(&a);
		goto out;
	}
	if (resolve(db, arg_b, !!dbfile, &b) < 0)
		goto out_sides;
	if (json) {
		json_init(&j, &jb, 1);
		json_obj_open(&j, NULL);
		side_json(&j, "a", &a);
		side_json(&j, "b", &b);
		o.j = &j;
		json_arr_open(&j, "attributes");
	} else {
		printf("--- a: %s  %s  %s  class %s\n+++ b: %s  %s  %s  class %s\n",
		       a.node, a.file ? a.file : "-", a.collected_at ? a.collected_at :
		       "-", a.cls, b.node, b.file ? b.file : "-", b.collected_at ?
		       b.collected_at : "-", b.cls);
	}
	if (fingerprint_diff(db, a.bid, b.bid, all, attr_row, &o) < 0)
		goto out_sides;
	if (json) {
		json_arr_close(&j);
		json_arr_open(&j, "counters");
	}
	counter_rows(db, &a, &b, all, &o);
	if (json) {
		json_arr_close(&j);
		json_int(&j, "differences", o.n);
		json_obj_close(&j);
		json_end(&j);
		fwrite(jb.buf, 1, jb.len, stdout);
	} else {
		printf("%d difference%s\n", o.n, o.n == 1 ? "" : "s");
	}
	rc = o.n ? EXIT_DIFFERENT : EXIT_OK;
out_sides:
	side_release(&a);
	side_release(&b);
out:
	buf_release(&jb);
	db_close(db);
	return rc;
}
