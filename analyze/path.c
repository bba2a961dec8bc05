/* path: `rdma-analyze path --db FILE SRC DST`, the route between two ports
 * of a fabric as the stored forwarding tables send packets (the newest
 * fabric scan in the database: fabric_nodes, fabric_ports, fabric_lft),
 * hop by hop as ibtracert prints it, in both directions (InfiniBand routes
 * need not be symmetric), each hop with its ports' counters.  Its
 * command line is cmd-path.c.
 *
 * Exit status: 0 both routes reach their destination; 1 a route stops (no
 * LFT entry, exit port 255, a port without an active link, or a CA that is
 * not the destination); 2 a route loops; 3 usage error (also an unknown or
 * ambiguous SRC or DST); 4 the database cannot be read or holds no scan.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze.h"
#include "buf.h"
#include "db.h"
#include "json.h"
#include "log.h"
#include "path.h"
#include "util.h"

#define MAX_HOPS 64		/* IB directed routes stop at 64 hops too */

/* one end of a route: a CA port, or a switch (its port 0) */
struct endp {
	char guid[24], port_guid[24], desc[256];
	int64_t type, port, lid, lmc;
};

/* the node and port into e; 0, or -1 when the port is not in the scan */
static int endp_fill(sqlite3 *db, int64_t bid, const char *guid, int64_t port,
		     struct endp *e)
{
	sqlite3_stmt *st = db_query(db,
		"SELECT n.guid, coalesce(n.type, 0), coalesce(n.desc, ''), "
		"p.port, coalesce(p.port_guid, n.guid), CASE WHEN n.type = 2 THEN "
		"coalesce(n.lid, p.lid) ELSE p.lid END, coalesce(p.lmc, 0) "
		"FROM fabric_nodes n JOIN fabric_ports p ON p.bundle_id = "
		"n.bundle_id AND p.guid = n.guid WHERE n.bundle_id = ? AND "
		"n.guid = ? AND p.port = ?", "isi", bid, guid, port);
	int rc = -1;

	if (sqlite3_step(st) == SQLITE_ROW) {
		snprintf(e->guid, sizeof(e->guid), "%s", db_col(st, 0));
		e->type = db_col_int(st, 1);
		snprintf(e->desc, sizeof(e->desc), "%s", db_col(st, 2));
		e->port = db_col_int(st, 3);
		snprintf(e->port_guid, sizeof(e->port_guid), "%s",
			 db_col(st, 4));
		e->lid = db_col_int(st, 5);
		e->lmc = db_col_int(st, 6);
		if (e->lmc < 0 || e->lmc > 7)
			e->lmc = 0;
		rc = 0;
	}
	db_done(st);
	return rc;
}

/* the port a node is reached by: a switch's port 0 (or its lowest), a
 * CA's first port with a LID */
static int endp_node(sqlite3 *db, int64_t bid, const char *guid,
		     struct endp *e)
{
	int64_t port = db_int(db, "SELECT p.port FROM fabric_ports p JOIN "
			      "fabric_nodes n ON n.bundle_id = p.bundle_id AND "
			      "n.guid = p.guid WHERE p.bundle_id = ? AND p.guid = "
			      "? AND (n.type = 2 OR p.lid > 0) ORDER BY p.port "
			      "LIMIT 1", "is", bid, guid);

	if (!db_int(db, "SELECT count(*) FROM fabric_ports p JOIN fabric_nodes "
		    "n ON n.bundle_id = p.bundle_id AND n.guid = p.guid WHERE "
		    "p.bundle_id = ? AND p.guid = ? AND (n.type = 2 OR p.lid > "
		    "0)", "is", bid, guid))
		return -1;
	return endp_fill(db, bid, guid, port, e);
}

/* SRC or DST as given: a GUID, a LID, a description or its first word */
static int resolve(sqlite3 *db, int64_t bid, const char *arg, struct endp *e)
{
	unsigned long long g;
	long long lid;
	char guid[24];
	sqlite3_stmt *st;
	struct buf names = BUF_INIT;
	int n = 0, rc = -1;

	if ((!strncmp(arg, "0x", 2) || !strncmp(arg, "0X", 2)) &&
	    strlen(arg) > 6 && !parse_ull(arg, 16, ~0ULL, &g)) {
		snprintf(guid, sizeof(guid), "0x%016llx", g);
		if (!endp_node(db, bid, guid, e))
			return 0;
		st = db_query(db, "SELECT guid, port FROM fabric_ports WHERE "
			      "bundle_id = ? AND port_guid = ? ORDER BY port "
			      "LIMIT 1", "is", bid, guid);
		if (sqlite3_step(st) == SQLITE_ROW) {
			snprintf(guid, sizeof(guid), "%s", db_col(st, 0));
			rc = endp_fill(db, bid, guid, db_col_int(st, 1), e);
		}
		db_done(st);
		if (rc < 0)
			error("path: no node or port with GUID %s in the fabric "
			      "scan", arg);
		return rc;
	}
	if (!parse_ll(arg, 0, 1, 0xffff, &lid)) {
		st = db_query(db, "SELECT guid, port FROM fabric_ports WHERE "
			      "bundle_id = ? AND lid > 0 AND ? BETWEEN lid AND "
			      "lid + (1 << min(max(coalesce(lmc, 0), 0), 7)) - 1 "
			      "ORDER BY port LIMIT 1", "ii", bid, (int64_t)lid);
		if (sqlite3_step(st) == SQLITE_ROW) {
			snprintf(guid, sizeof(guid), "%s", db_col(st, 0));
			rc = endp_fill(db, bid, guid, db_col_int(st, 1), e);
		}
		db_done(st);
		if (rc < 0)
			error("path: no port with LID %s in the fabric scan", arg);
		return rc;
	}
	/* the whole description, else its first word (a hostname) */
	st = db_query(db, "SELECT guid, desc FROM fabric_nodes WHERE bundle_id "
		      "= ? AND (desc = ?2 OR (substr(desc, 1, length(?2) + 1) = "
		      "?2 || ' ' AND NOT EXISTS (SELECT 1 FROM fabric_nodes x "
		      "WHERE x.bundle_id = ?1 AND x.desc = ?2))) ORDER BY desc, "
		      "guid", "is", bid, arg);
	while (sqlite3_step(st) == SQLITE_ROW) {
		if (!n++)
			snprintf(guid, sizeof(guid), "%s", db_col(st, 0));
		if (n <= 8)
			buf_addf(&names, "\n  %s \"%s\"", db_col(st, 0),
				 db_col(st, 1));
	}
	db_done(st);
	if (n == 1 && !endp_node(db, bid, guid, e))
		rc = 0;
	else if (n == 1)
		error("path: '%s' has no port with a LID in the fabric scan", arg);
	else if (n > 1)
		error("path: '%s' names %d nodes; give one by its description "
		      "or GUID:%s%s", arg, n, names.buf, n > 8 ? "\n  ..." : "");
	else
		error("path: no node '%s' in the fabric scan (a description, "
		      "its first word, a LID or a GUID)", arg);
	buf_release(&names);
	return rc;
}

static const char *type_name(int64_t t)
{
	return t == 2 ? "switch" : t == 3 ? "router" : "ca";
}

/* what ibtracert prints of a port: "{guid}[port] lid L-H \"desc\"" */
static void print_port(const struct endp *e, int port_guid)
{
	printf("{%s}[%" PRId64 "] lid %" PRId64 "-%" PRId64 " \"%s\"\n",
	       port_guid && e->type != 2 ? e->port_guid : e->guid, e->port,
	       e->lid, e->lid + (1 << e->lmc) - 1, e->desc);
}

/* the same port as JSON */
static void endp_json(struct json *j, const char *key, const struct endp *e)
{
	json_obj_open(j, key);
	json_str(j, "type", type_name(e->type));
	json_str(j, "guid", e->guid);
	json_str(j, "port_guid", e->type != 2 ? e->port_guid : e->guid);
	json_int(j, "port", e->port);
	json_int(j, "lid", e->lid);
	json_int(j, "lid_last", e->lid + (1 << e->lmc) - 1);
	json_str(j, "desc", e->desc);
	json_obj_close(j);
}

static const char *const error_counters[] = {
	"SymbolErrorCounter", "LinkErrorRecoveryCounter", "LinkDownedCounter",
	"PortRcvErrors", "PortRcvRemotePhysicalErrors",
	"PortRcvSwitchRelayErrors", "PortXmitDiscards",
	"PortXmitConstraintErrors", "PortRcvConstraintErrors",
	"LocalLinkIntegrityErrors", "ExcessiveBufferOverrunErrors",
	"VL15Dropped",
};

/* the end of a hop's counters in JSON: the errors object (open when some
 * were non-zero), then the figures, null when not in the scan */
static void counters_json(struct json *j, int any, int errors, int64_t wait,
			  int64_t data)
{
	if (errors)
		json_obj_close(j);
	else
		json_null(j, "errors");
	if (wait >= 0)
		json_int(j, "PortXmitWait", wait);
	else
		json_null(j, "PortXmitWait");
	if (data >= 0)
		json_int(j, "PortXmitData", data);
	else
		json_null(j, "PortXmitData");
	json_bool(j, "in_scan", any);
	json_obj_close(j);
}

/* "    out [3]: no errors, PortXmitWait 0, PortXmitData 1234"; in JSON an
 * object WHAT: port, errors (the non-zero error counters, or null),
 * PortXmitWait, PortXmitData, in_scan (false: the scan has none) */
static void print_counters(sqlite3 *db, int64_t bid, const char *what,
			   const struct endp *e, struct json *j)
{
	struct buf b = BUF_INIT;
	sqlite3_stmt *st;
	int64_t wait = -1, data = -1, datax = -1;
	size_t i;
	int errors = 0, any = 0;

	if (j) {
		json_obj_open(j, what);
		json_int(j, "port", e->port);
	}
	st = db_query(db, "SELECT grp, name, value FROM fabric_counters WHERE "
		      "bundle_id = ? AND guid = ? AND port = ? ORDER BY grp, "
		      "name", "isi", bid, e->guid, e->port);
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *grp = db_col(st, 0), *name = db_col(st, 1);
		int64_t v = db_col_int(st, 2);
		int ext = !strcmp(grp, "PortCountersExtended");

		any = 1;
		if (!strcmp(name, "PortXmitData")) {
			if (ext)
				datax = v;
			else
				data = v;
		} else if (!ext && !strcmp(name, "PortXmitWait")) {
			wait = v;
		}
		for (i = 0; !ext && i < ARRAY_SIZE(error_counters); i++) {
			if (v > 0 && !strcmp(name, error_counters[i])) {
				buf_addf(&b, "%s%s %" PRId64, errors++ ? ", " :
					 "", name, v);
				if (j && errors == 1)
					json_obj_open(j, "errors");
				if (j)
					json_int(j, name, v);
			}
		}
	}
	db_done(st);
	if (j) {
		counters_json(j, any, errors, wait, datax >= 0 ? datax : data);
		buf_release(&b);
		return;
	}
	printf("    %s [%" PRId64 "]: ", what, e->port);
	if (!any) {
		printf("no counters in the scan\n");
	} else {
		printf("%s", errors ? b.buf : "no errors");
		if (wait >= 0)
			printf(", PortXmitWait %" PRId64, wait);
		if (datax >= 0 || data >= 0)
			printf(", PortXmitData %" PRId64, datax >= 0 ? datax :
			       data);
		printf("\n");
	}
	buf_release(&b);
}

/* the far end of a port's cable, when the link is up */
static int far_end(sqlite3 *db, int64_t bid, const struct endp *from,
		   int64_t port, struct endp *to, char *why, size_t n)
{
	sqlite3_stmt *st = db_query(db, "SELECT remote_guid, remote_port, state "
				    "FROM fabric_ports WHERE bundle_id = ? AND "
				    "guid = ? AND port = ?", "isi", bid,
				    from->guid, port);
	char rg[24] = "";
	int64_t rp = -1, state = -1;
	int found = 0;

	if (sqlite3_step(st) == SQLITE_ROW) {
		found = 1;
		snprintf(rg, sizeof(rg), "%s", db_col(st, 0));
		rp = db_col_int(st, 1);
		state = db_col_int(st, 2);
	}
	db_done(st);
	if (!found) {
		snprintf(why, n, "port %" PRId64 " of \"%s\" {%s} is "
			 "not in the scan", port, from->desc, from->guid);
		return -1;
	}
	if (!rg[0] || rp < 0) {
		snprintf(why, n, "port %" PRId64 " of \"%s\" {%s} has no link",
			 port, from->desc, from->guid);
		return -1;
	}
	if (state >= 0 && state != 4) {
		snprintf(why, n, "port %" PRId64 " of \"%s\" {%s} is not "
			 "Active (state %" PRId64 ")", port, from->desc,
			 from->guid, state);
		return -1;
	}
	if (endp_fill(db, bid, rg, rp, to) < 0) {
		snprintf(why, n, "port %" PRId64 " of \"%s\" {%s} leads to "
			 "{%s}[%" PRId64 "], which is not in the scan", port,
			 from->desc, from->guid, rg, rp);
		return -1;
	}
	return 0;
}

static int is_dest(const struct endp *e, const struct endp *dst)
{
	return !strcmp(e->guid, dst->guid) &&
	       (e->type == 2 || e->port == dst->port);
}

/* the exit port of a switch towards a LID, 255 when it has none */
static int64_t lft_port(sqlite3 *db, int64_t bid, const struct endp *sw,
			int64_t lid)
{
	return db_int(db, "SELECT coalesce((SELECT port FROM fabric_lft WHERE "
		      "bundle_id = ? AND guid = ? AND lid = ?), 255)", "isi", bid,
		      sw->guid, lid);
}

/* the end of a route that does not arrive: one line "loop: ..." or
 * "unreachable: ...", or in JSON its result and reason */
static int route_stop(struct json *j, int rc, const char *why)
{
	const char *result = rc == EXIT_LOOP ? "loop" : "stopped";

	if (!j) {
		printf("%s: %s\n", rc == EXIT_LOOP ? "loop" : "unreachable", why);
		return rc;
	}
	json_arr_close(j);
	json_str(j, "result", result);
	json_str(j, "reason", why);
	json_obj_close(j);
	return rc;
}

/* one hop: leaving CUR by port OUT, entering NEXT */
static void hop(sqlite3 *db, int64_t bid, const struct endp *cur,
		const struct endp *next, int64_t out, struct json *j)
{
	if (j) {
		json_obj_open(j, NULL);
		json_int(j, "out_port", out);
		endp_json(j, "next", next);
	} else {
		printf("[%" PRId64 "] -> %s port ", out, type_name(next->type));
		print_port(next, 1);
	}
	print_counters(db, bid, "out", cur, j);
	print_counters(db, bid, "in", next, j);
	if (j)
		json_obj_close(j);
}

static void route_start(const struct endp *src, const struct endp *dst,
			struct json *j)
{
	if (!j) {
		printf("From %s {%s} portnum %" PRId64 " lid %" PRId64 "-%"
		       PRId64 " \"%s\"\n", type_name(src->type), src->guid,
		       src->port, src->lid, src->lid + (1 << src->lmc) - 1,
		       src->desc);
		return;
	}
	json_obj_open(j, NULL);
	endp_json(j, "from", src);
	endp_json(j, "to", dst);
	json_arr_open(j, "hops");
}

static int route_arrive(const struct endp *dst, struct json *j)
{
	if (!j) {
		printf("To %s {%s} portnum %" PRId64 " lid %" PRId64 "-%" PRId64
		       " \"%s\"\n", type_name(dst->type), dst->guid, dst->port,
		       dst->lid, dst->lid + (1 << dst->lmc) - 1, dst->desc);
		return EXIT_OK;
	}
	json_arr_close(j);
	json_str(j, "result", "arrived");
	json_null(j, "reason");
	json_obj_close(j);
	return EXIT_OK;
}

/* one direction, from src's port (a CA's) or LFT (a switch's), hop by
 * hop; EXIT_OK arrived, EXIT_STOPPED or EXIT_LOOP, with a line (in JSON a
 * reason) saying where and why */
static int trace(sqlite3 *db, int64_t bid, const struct endp *src,
		 const struct endp *dst, struct json *j)
{
	char seen[MAX_HOPS][24], why[768];
	struct endp cur = *src, next;
	int hops, i;
	int64_t out;

	route_start(src, dst, j);
	for (hops = 0; !is_dest(&cur, dst); hops++) {
		if (hops == MAX_HOPS) {
			snprintf(why, sizeof(why), "no arrival after %d hops",
				 MAX_HOPS);
			return route_stop(j, EXIT_LOOP, why);
		}
		if (cur.type == 2) {
			for (i = 0; i < hops; i++) {
				if (strcmp(seen[i], cur.guid))
					continue;
				snprintf(why, sizeof(why), "the route to LID %"
					 PRId64 " comes back to \"%s\" {%s} "
					 "after %d hops", dst->lid, cur.desc,
					 cur.guid, hops);
				return route_stop(j, EXIT_LOOP, why);
			}
			out = lft_port(db, bid, &cur, dst->lid);
			if (out == 255 || out == 0) {
				snprintf(why, sizeof(why), "\"%s\" {%s} has no "
					 "route to LID %" PRId64 " (%s)",
					 cur.desc, cur.guid, dst->lid, out ?
					 "no LFT entry, or port 255" :
					 "port 0: itself");
				return route_stop(j, EXIT_STOPPED, why);
			}
		} else if (hops) {
			snprintf(why, sizeof(why), "the route to LID %" PRId64
				 " ends at \"%s\" port %" PRId64 " (lid %"
				 PRId64 "), not the destination", dst->lid,
				 cur.desc, cur.port, cur.lid);
			return route_stop(j, EXIT_STOPPED, why);
		} else {
			out = cur.port;	/* a CA sends out of its own port */
		}
		snprintf(seen[hops], sizeof(seen[hops]), "%s",
			 cur.type == 2 ? cur.guid : "");
		cur.port = out;
		if (far_end(db, bid, &cur, out, &next, why, sizeof(why)) < 0)
			return route_stop(j, EXIT_STOPPED, why);
		hop(db, bid, &cur, &next, out, j);
		cur = next;
	}
	return route_arrive(dst, j);
}

/* the scan the routes are read from, opening the document */
static void scan_json(struct json *j, sqlite3_stmt *st)
{
	json_obj_open(j, NULL);
	json_obj_open(j, "scan");
	json_str(j, "host", db_col(st, 1));
	json_str(j, "collected_at", db_col(st, 2));
	json_int(j, "nodes", db_col_int(st, 5));
	json_str(j, "status", db_col(st, 3));
	json_str(j, "reason", *db_col(st, 4) ? db_col(st, 4) : NULL);
	json_obj_close(j);
}

int path_trace(const char *file, const char *from, const char *to, int json)
{
	struct buf out = BUF_INIT;
	struct json j;
	struct endp src, dst;
	sqlite3_stmt *st;
	sqlite3 *db;
	int64_t bid;
	int r1, r2;

	/* db_open would create a missing file */
	if (access(file, R_OK)) {
		error("cannot open database '%s': %s", file, strerror(errno));
		return EXIT_INPUT;
	}
	db = db_open(file);
	if (!db)
		return EXIT_INPUT;
	st = db_query(db, "SELECT s.bundle_id, coalesce(b.hostname, '?'), "
		      "coalesce(b.collected_at, '?'), coalesce(s.status, '?'), "
		      "coalesce(s.reason, ''), s.nodes FROM fabric_scans s JOIN "
		      "bundles b ON b.id = s.bundle_id ORDER BY b.collected_at "
		      "DESC, b.id DESC LIMIT 1", "");
	if (sqlite3_step(st) != SQLITE_ROW) {
		db_done(st);
		db_close(db);
		error("no fabric scan in '%s': load a bundle made with "
		      "rdma-collect --fabric", file);
		return EXIT_INPUT;
	}
	bid = sqlite3_column_int64(st, 0);
	if (json) {
		json_init(&j, &out, 1);
		scan_json(&j, st);
		json_arr_open(&j, "routes");
	} else {
		printf("# fabric scan of %s collected %s: %" PRId64 " nodes, "
		       "%s%s%s\n",
		       db_col(st, 1), db_col(st, 2), db_col_int(st, 5),
		       db_col(st, 3), *db_col(st, 4) ? ": " : "",
		       db_col(st, 4));
	}
	db_done(st);
	if (resolve(db, bid, from, &src) < 0 ||
	    resolve(db, bid, to, &dst) < 0) {
		buf_release(&out);
		db_close(db);
		return EXIT_USAGE;
	}
	if (!json)
		printf("# %s -> %s\n", src.desc, dst.desc);
	r1 = trace(db, bid, &src, &dst, json ? &j : NULL);
	if (!json)
		printf("\n# %s -> %s\n", dst.desc, src.desc);
	r2 = trace(db, bid, &dst, &src, json ? &j : NULL);
	db_close(db);
	if (json) {
		json_arr_close(&j);
		json_obj_close(&j);
		json_end(&j);
		fwrite(out.buf, 1, out.len, stdout);
		buf_release(&out);
	}
	return r1 > r2 ? r1 : r2;
}
