/* rules-app: layer 6 (NCCL, GPUDirect, limits, huge pages, containers)
 * and the two perftest checks of layer 5, over the tables load-host.c
 * fills (limits, meminfo, environment, attachments, nccl_events,
 * perftest_results, facts) */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "db.h"
#include "nccl.h"
#include "rules.h"

#define COL(st, i) ((const char *)sqlite3_column_text((st), (i)))

/* --- NCCL_IB_HCA_MISMATCH --- */

static const char *env_path(const char *who, char *out, size_t n)
{
	if (!strcmp(who, "self"))
		snprintf(out, n, "rdma-collect/environ/self.env");
	else if (!strncmp(who, "pid:", 4))
		snprintf(out, n, "rdma-collect/environ/%s.env", who + 4);
	else
		snprintf(out, n, "etc/nccl.conf");
	return out;
}

static int check_ib_hca(struct rctx *rc)
{
	sqlite3_stmt *st = db_query(rc->db, "SELECT e.bundle_id, e.who, e.value "
				    "FROM environment e JOIN todo_rule t ON "
				    "t.bundle_id = e.bundle_id WHERE e.name = "
				    "'NCCL_IB_HCA' ORDER BY e.bundle_id, e.rowid",
				    NULL);
	/* collect first: a nested cached query would reuse this statement */
	struct item { int64_t bid; char *who, *val; } *v = NULL;
	size_t n = 0, i;

	while (sqlite3_step(st) == SQLITE_ROW) {
		v = realloc(v, (n + 1) * sizeof(*v));
		if (!v)
			return -1;
		v[n].bid = sqlite3_column_int64(st, 0);
		v[n].who = strdup(COL(st, 1) ? COL(st, 1) : "");
		v[n].val = strdup(COL(st, 2) ? COL(st, 2) : "");
		n++;
	}
	db_done(st);
	for (i = 0; i < n; i++) {
		struct nccl_hca h;
		struct buf sel = BUF_INIT, excl = BUF_INIT, all = BUF_INIT,
			   pfx = BUF_INIT;
		int nsel = 0, nexcl = 0, nports = 0;
		char path[128];
		sqlite3_stmt *p;

		if (!v[i].who || !v[i].val)
			continue;
		nccl_hca_parse(v[i].val, &h);
		p = db_query(rc->db, "SELECT ibdev, port, state, coalesce("
			     "state_text, '') FROM ports WHERE bundle_id = ? "
			     "ORDER BY ibdev, port", "i", v[i].bid);
		while (sqlite3_step(p) == SQLITE_ROW) {
			const char *dev = COL(p, 0);
			int port = sqlite3_column_int(p, 1), entry;
			int active = sqlite3_column_int(p, 2) == 4;

			if (!dev)
				continue;
			nports++;
			buf_addf(&all, "%s%s:%d", all.len ? " " : "", dev, port);
			if (nccl_hca_selects(&h, dev, port, &entry)) {
				nsel++;
				buf_addf(&sel, "%s%s:%d", sel.len ? " " : "", dev,
					 port);
			} else if (active) {
				nexcl++;
				buf_addf(&excl, "%s%s:%d", excl.len ? ", " : "",
					 dev, port);
			}
			if (entry >= 0 && !h.exact &&
			    strcmp(dev, h.e[entry].prefix))
				buf_addf(&pfx, "%s'%s' also matches %s",
					 pfx.len ? ", " : "", h.e[entry].prefix,
					 dev);
		}
		db_done(p);
		env_path(v[i].who, path, sizeof(path));
		if (nports && (nsel == 0 || nexcl > 0)) {
			int64_t fid;

			if (nsel == 0)
				fid = finding_add(rc, v[i].bid, -1, "NCCL_IB_HCA",
					"NCCL_IB_HCA=%s (%s) selects none of the "
					"RDMA ports (%s)%s%s%s: NCCL falls back to "
					"sockets or fails", v[i].val, v[i].who,
					all.buf, pfx.len ? "; prefix match: " : "",
					pfx.len ? pfx.buf : "", "");
			else
				fid = finding_add(rc, v[i].bid, -1, "NCCL_IB_HCA",
					"NCCL_IB_HCA=%s (%s) excludes ACTIVE "
					"port%s %s%s%s", v[i].val, v[i].who,
					nexcl > 1 ? "s" : "", excl.buf,
					pfx.len ? "; prefix match: " : "",
					pfx.len ? pfx.buf : "");
			finding_evidence(rc, fid, path, "NCCL_IB_HCA=%s", v[i].val);
			finding_evidence(rc, fid, "sys/class/infiniband",
					 "ports %s; selected: %s", all.buf,
					 sel.len ? sel.buf : "none");
		}
		buf_release(&sel);
		buf_release(&excl);
		buf_release(&all);
		buf_release(&pfx);
	}
	for (i = 0; i < n; i++) {
		free(v[i].who);
		free(v[i].val);
	}
	free(v);
	return 0;
}

/* --- NCCL_COMPLETION_ERROR --- */

static const char *wc_hint(int status)
{
	switch (status) {
	case 4:
		return "local protection error: a memory registration the HCA "
		       "cannot use, often ACS or the IOMMU breaking GPUDirect RDMA";
	case 5:
		return "flushed: the QP was already in error, look at the first "
		       "error before it";
	case 9: case 10: case 11:
		return "the peer rejected the request: look at the peer's log";
	case 12:
		return "transport retries exhausted: the peer stopped answering "
		       "(link, cable, switch port, PFC on RoCE, or the peer "
		       "process died); NCCL_IB_TIMEOUT may be too short";
	case 13:
		return "RNR retries exhausted: the peer had no receive posted";
	default:
		return NULL;
	}
}

static int check_completion(struct rctx *rc)
{
	sqlite3_stmt *st = db_query(rc->db, "SELECT e.bundle_id, e.hca, e.peer, "
		"e.status, e.vendor_err, count(*), min(e.line), e.attachment, "
		"e.opcode, e.len, e.req, e.local_gid, e.remote_gid, e.text "
		"FROM nccl_events e JOIN todo_rule t ON t.bundle_id = e.bundle_id "
		"WHERE e.kind = 'completion' GROUP BY e.bundle_id, e.attachment, "
		"e.hca, e.peer, e.status, e.vendor_err ORDER BY e.bundle_id, "
		"min(e.line)", NULL);
	struct row { int64_t bid, count, line, ven, op, len; int status;
		     char *hca, *peer, *att, *req, *lg, *rg, *text; } *v = NULL;
	size_t n = 0, i;

	while (sqlite3_step(st) == SQLITE_ROW) {
		struct row *r;

		v = realloc(v, (n + 1) * sizeof(*v));
		if (!v)
			return -1;
		r = &v[n++];
		r->bid = sqlite3_column_int64(st, 0);
		r->hca = COL(st, 1) ? strdup(COL(st, 1)) : NULL;
		r->peer = COL(st, 2) ? strdup(COL(st, 2)) : NULL;
		r->status = sqlite3_column_type(st, 3) == SQLITE_NULL ? -1 :
			    sqlite3_column_int(st, 3);
		r->ven = sqlite3_column_type(st, 4) == SQLITE_NULL ? -1 :
			 sqlite3_column_int64(st, 4);
		r->count = sqlite3_column_int64(st, 5);
		r->line = sqlite3_column_int64(st, 6);
		r->att = strdup(COL(st, 7) ? COL(st, 7) : "");
		r->op = sqlite3_column_type(st, 8) == SQLITE_NULL ? -1 :
			sqlite3_column_int64(st, 8);
		r->len = sqlite3_column_type(st, 9) == SQLITE_NULL ? -1 :
			 sqlite3_column_int64(st, 9);
		r->req = COL(st, 10) ? strdup(COL(st, 10)) : NULL;
		r->lg = COL(st, 11) ? strdup(COL(st, 11)) : NULL;
		r->rg = COL(st, 12) ? strdup(COL(st, 12)) : NULL;
		r->text = strdup(COL(st, 13) ? COL(st, 13) : "");
	}
	db_done(st);
	for (i = 0; i < n; i++) {
		struct row *r = &v[i];
		const char *name = ibv_wc_status_name(r->status);
		char stat[160], ven[64], peer[160];
		int64_t fid;

		if (r->status >= 0)
			snprintf(stat, sizeof(stat), "status %d %s (%s)", r->status,
				 name ? name : "(not an ibv_wc_status)",
				 ibv_wc_status_text(r->status));
		else
			snprintf(stat, sizeof(stat), "status unknown");
		if (r->ven >= 0)
			snprintf(ven, sizeof(ven), "vendor err %" PRId64
				 " (0x%" PRIx64 ")", r->ven, (uint64_t)r->ven);
		else
			snprintf(ven, sizeof(ven), "vendor err not printed");
		if (r->peer)
			snprintf(peer, sizeof(peer), "peer %s%s%s", r->peer,
				 r->rg ? " remote GID " : "", r->rg ? r->rg : "");
		else
			snprintf(peer, sizeof(peer), "peer not printed (NCCL < 2.10)");
		fid = finding_add(rc, r->bid, -1, r->hca ? r->hca : "nccl",
			"NCCL completion error on %s from %s: %s, %s%s%s%s",
			r->hca ? r->hca : "an unnamed HCA (NCCL < 2.22)", peer,
			stat, ven, r->req ? " (" : "", r->req ? r->req : "",
			r->req ? ")" : "");
		if (r->count > 1)
			finding_evidence(rc, fid, r->att, "line %" PRId64 " (and %"
					 PRId64 " more like it): %s", r->line,
					 r->count - 1, r->text);
		else
			finding_evidence(rc, fid, r->att, "line %" PRId64 ": %s",
					 r->line, r->text);
		finding_evidence(rc, fid, r->att, "local HCA %s, %s, local GID "
				 "%s, opcode %" PRId64 ", len %" PRId64
				 " (opcode and len are undefined in an error "
				 "completion)", r->hca ? r->hca : "?", peer,
				 r->lg ? r->lg : "-", r->op, r->len);
		if (wc_hint(r->status))
			finding_evidence(rc, fid, r->att, "%s: %s", name,
					 wc_hint(r->status));
		free(r->hca);
		free(r->peer);
		free(r->att);
		free(r->req);
		free(r->lg);
		free(r->rg);
		free(r->text);
	}
	free(v);
	return 0;
}

/* --- NCCL_IB_ERROR --- */

/* ibv_event_type_str() of the events that report no fault: a port that
 * came up, an SM's reassignments, a QP's normal life */
static int benign_event(const char *ev)
{
	static const char *const ok[] = {
		"port active", "LID change", "P_Key change", "SM change",
		"client reregistration", "communication established",
		"send queue drained", "last WQE reached", "SRQ limit reached",
		"path migration successful", "GID table change",
	};
	size_t i;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		if (!strcmp(ev, ok[i]))
			return 1;
	return 0;
}

static const char *verbs_hint(const char *call)
{
	if (!strcmp(call, "ibv_create_qp") || !strcmp(call, "mlx5dv_create_qp") ||
	    !strcmp(call, "ibv_create_cq") || !strcmp(call, "ibv_create_srq"))
		return "the HCA refused a queue: the locked-memory limit of the "
		       "job (MEMLOCK_LIMITED; containers: --ulimit memlock=-1), "
		       "or the device's QP/CQ resources (FW_MEM_ALLOC_FAILED)";
	if (!strncmp(call, "ibv_reg_", 8))
		return "memory registration failed: the locked-memory limit "
		       "(MEMLOCK_LIMITED), or GPU memory without nvidia_peermem "
		       "or DMA-BUF (PEERMEM_MISSING)";
	if (!strcmp(call, "ibv_modify_qp"))
		return "the QP could not be connected to the peer: the path "
		       "between the two ports (port state, NCCL_IB_GID_INDEX on "
		       "RoCE, MTU, the peer's address)";
	if (!strcmp(call, "ibv_open_device") || !strcmp(call, "ibv_get_device_list"))
		return "the job cannot open the HCA: /dev/infiniband in the "
		       "container, ib_uverbs loaded";
	return NULL;
}

static int check_ib_error(struct rctx *rc)
{
	sqlite3_stmt *st = db_query(rc->db, "SELECT e.bundle_id, e.attachment, "
		"e.kind, coalesce(e.detail, ''), e.hca, e.port, count(*), "
		"min(e.line), e.text, EXISTS (SELECT 1 FROM nccl_events a WHERE "
		"a.bundle_id = e.bundle_id AND a.attachment = e.attachment AND "
		"a.kind = 'async') FROM nccl_events e JOIN todo_rule t ON "
		"t.bundle_id = e.bundle_id WHERE e.kind IN ('async', 'verbs_fail') "
		"GROUP BY e.bundle_id, e.attachment, e.kind, e.detail, e.hca, "
		"e.port ORDER BY e.bundle_id, min(e.line)", NULL);
	struct row { int64_t bid, port, count, line; int async, any_async;
		     char *att, *what, *hca, *text; } *v = NULL;
	size_t n = 0, i;

	while (sqlite3_step(st) == SQLITE_ROW) {
		struct row *r, *nv = realloc(v, (n + 1) * sizeof(*v));

		if (!nv)
			break;
		v = nv;
		r = &v[n++];
		r->bid = sqlite3_column_int64(st, 0);
		r->att = strdup(COL(st, 1) ? COL(st, 1) : "");
		r->async = COL(st, 2) && !strcmp(COL(st, 2), "async");
		r->what = strdup(COL(st, 3) ? COL(st, 3) : "");
		r->hca = COL(st, 4) ? strdup(COL(st, 4)) : NULL;
		r->port = sqlite3_column_type(st, 5) == SQLITE_NULL ? -1 :
			  sqlite3_column_int64(st, 5);
		r->count = sqlite3_column_int64(st, 6);
		r->line = sqlite3_column_int64(st, 7);
		r->text = strdup(COL(st, 8) ? COL(st, 8) : "");
		r->any_async = sqlite3_column_int(st, 9);
	}
	db_done(st);
	for (i = 0; i < n; i++) {
		struct row *r = &v[i];
		char comp[96], times[32] = "";
		int64_t fid;
		int sev = -1;

		if (r->hca && r->port >= 0)
			snprintf(comp, sizeof(comp), "%s:%" PRId64, r->hca, r->port);
		else
			snprintf(comp, sizeof(comp), "%s", r->hca ? r->hca : "nccl");
		if (r->count > 1)
			snprintf(times, sizeof(times), " (%" PRId64 " times)",
				 r->count);
		if (r->async) {
			int fatal = !strcmp(r->what, "local catastrophic error");

			sev = fatal ? SEV_CRITICAL : benign_event(r->what) ?
			      SEV_INFO : -1;
			fid = finding_add(rc, r->bid, sev, comp,
				"NCCL got the asynchronous event '%s' from %s%s%s",
				r->what, r->hca ? r->hca : "its HCA (not named "
				"before NCCL 2.12)", times, fatal ? ": "
				"IBV_EVENT_DEVICE_FATAL, the HCA is unusable until "
				"it is reset" : "");
		} else {
			/* the async thread's own read fails once the device
			 * is dead: the event above is the incident */
			if (!strcmp(r->what, "ibv_get_async_event") && r->any_async)
				continue;
			fid = finding_add(rc, r->bid, sev, comp,
				"NCCL's call to %s failed%s%s%s", r->what, times,
				verbs_hint(r->what) ? ": " : "",
				verbs_hint(r->what) ? verbs_hint(r->what) : "");
		}
		finding_evidence(rc, fid, r->att, "line %" PRId64 ": %s", r->line,
				 r->text);
	}
	for (i = 0; i < n; i++) {
		free(v[i].att);
		free(v[i].what);
		free(v[i].hca);
		free(v[i].text);
	}
	free(v);
	return 0;
}

/* --- MEMLOCK_LIMITED --- */

static int unlimited(const char *v)
{
	return !strcmp(v, "unlimited") || !strcmp(v, "infinity") ||
	       !strcmp(v, "-1");
}

static void human(const char *bytes, char *out, size_t n)
{
	unsigned long long b = strtoull(bytes, NULL, 10);

	if (b >= 1024ULL * 1024 * 1024)
		snprintf(out, n, "%.1f GiB", b / 1073741824.0);
	else if (b >= 1024ULL * 1024)
		snprintf(out, n, "%.1f MiB", b / 1048576.0);
	else
		snprintf(out, n, "%llu KiB", b / 1024);
}

static int fact_is(sqlite3 *db, int64_t bid, const char *key, const char *v)
{
	return db_int(db, "SELECT count(*) FROM facts WHERE bundle_id = ? AND "
		      "key = ? AND value = ?", "iss", bid, key, v) > 0;
}

static int check_memlock(struct rctx *rc)
{
	sqlite3_stmt *st = db_query(rc->db, "SELECT l.bundle_id, l.who, "
		"coalesce(l.domain, ''), l.type, l.value, l.path FROM limits l "
		"JOIN todo_rule t ON t.bundle_id = l.bundle_id WHERE l.item = "
		"'memlock' ORDER BY l.bundle_id, l.rowid", NULL);
	struct row { int64_t bid; char *who, *dom, *type, *val, *path;
		     int dead; } *v = NULL;
	size_t n = 0, i, j;

	while (sqlite3_step(st) == SQLITE_ROW) {
		v = realloc(v, (n + 1) * sizeof(*v));
		if (!v)
			return -1;
		v[n].bid = sqlite3_column_int64(st, 0);
		v[n].who = strdup(COL(st, 1) ? COL(st, 1) : "");
		v[n].dom = strdup(COL(st, 2) ? COL(st, 2) : "");
		v[n].type = strdup(COL(st, 3) ? COL(st, 3) : "");
		v[n].val = strdup(COL(st, 4) ? COL(st, 4) : "");
		v[n].path = strdup(COL(st, 5) ? COL(st, 5) : "");
		v[n].dead = 0;
		n++;
	}
	db_done(st);
	/* limits.conf then limits.d: a later line for the same domain and
	 * type replaces an earlier one ('-' sets both) */
	for (i = 0; i < n; i++) {
		if (!strcmp(v[i].who, "collector") || !strncmp(v[i].who, "pid:", 4))
			continue;
		for (j = i + 1; j < n; j++) {
			if (v[j].bid != v[i].bid || !strcmp(v[j].who, "collector") ||
			    !strncmp(v[j].who, "pid:", 4) ||
			    strcmp(v[j].dom, v[i].dom))
				continue;
			if (!strcmp(v[j].type, "-") || !strcmp(v[j].type, v[i].type))
				v[i].dead = 1;
		}
	}
	for (i = 0; i < n; i++) {
		struct row *r = &v[i];
		char hb[32], key[80];
		int64_t fid;

		if (r->dead || unlimited(r->val))
			continue;
		if (!strcmp(r->who, "collector")) {
			int root;

			if (strcmp(r->type, "soft"))
				continue;
			root = fact_is(rc->db, r->bid, "collector_euid", "0");
			human(r->val, hb, sizeof(hb));
			fid = finding_add(rc, r->bid, root ? SEV_INFO : -1,
				"memlock", "the collector's locked-memory limit is "
				"%s bytes (%s, ulimit -l %llu), not unlimited%s",
				r->val, hb, strtoull(r->val, NULL, 10) / 1024,
				root ? "; it ran as root, which CAP_IPC_LOCK exempts: "
				"jobs of other users get the limits.conf values" :
				": RDMA memory registration fails past it (ENOMEM)");
			finding_evidence(rc, fid, r->path, "memlock soft %s",
					 r->val);
		} else if (!strncmp(r->who, "pid:", 4)) {
			int cap;

			if (strcmp(r->type, "soft"))
				continue;
			snprintf(key, sizeof(key), "%s:cap_ipc_lock", r->who);
			cap = fact_is(rc->db, r->bid, key, "1");
			human(r->val, hb, sizeof(hb));
			fid = finding_add(rc, r->bid, cap ? SEV_INFO : -1, "memlock",
				"process %s has a locked-memory limit of %s bytes "
				"(%s), not unlimited%s", r->who + 4, r->val, hb,
				cap ? "; it has CAP_IPC_LOCK, which lifts the limit" :
				": its RDMA memory registrations fail past it");
			finding_evidence(rc, fid, r->path, "Max locked memory "
					 "soft %s", r->val);
		} else {
			fid = finding_add(rc, r->bid, -1, "memlock",
				"%s sets memlock %s %s KiB for '%s', not unlimited",
				r->path, r->type, r->val, r->dom);
			finding_evidence(rc, fid, r->path, "%s %s memlock %s",
					 r->dom, r->type, r->val);
		}
	}
	for (i = 0; i < n; i++) {
		free(v[i].who);
		free(v[i].dom);
		free(v[i].type);
		free(v[i].val);
		free(v[i].path);
	}
	free(v);
	return 0;
}

/* --- BW_BELOW_LINE_RATE, GDR_BW_LOW --- */

struct pt { int64_t bid, run, rows; char *att, *test, *dev, *unit;
	    int bidir, cuda, failed; double avg, gbps; };

static size_t load_pt(sqlite3 *db, struct pt **out)
{
	sqlite3_stmt *st = db_query(db, "SELECT p.bundle_id, p.attachment, "
		"p.run, p.test, p.device, p.bidir, p.cuda, p.failed, p.rows, "
		"coalesce(p.bw_avg, -1), coalesce(p.avg_gbps, -1), coalesce(p.unit, "
		"'') FROM perftest_results p JOIN todo_rule t ON t.bundle_id = "
		"p.bundle_id WHERE p.bw = 1 ORDER BY p.bundle_id, p.attachment, "
		"p.run", NULL);
	struct pt *v = NULL;
	size_t n = 0;

	while (sqlite3_step(st) == SQLITE_ROW) {
		struct pt *p;
		struct pt *nv = realloc(v, (n + 1) * sizeof(*v));

		if (!nv)
			break;
		v = nv;
		p = &v[n++];
		p->bid = sqlite3_column_int64(st, 0);
		p->att = strdup(COL(st, 1) ? COL(st, 1) : "");
		p->run = sqlite3_column_int64(st, 2);
		p->test = strdup(COL(st, 3) ? COL(st, 3) : "");
		p->dev = COL(st, 4) ? strdup(COL(st, 4)) : NULL;
		p->bidir = sqlite3_column_int(st, 5);
		p->cuda = sqlite3_column_int(st, 6);
		p->failed = sqlite3_column_int(st, 7);
		p->rows = sqlite3_column_int64(st, 8);
		p->avg = sqlite3_column_double(st, 9);
		p->gbps = sqlite3_column_double(st, 10);
		p->unit = strdup(COL(st, 11) ? COL(st, 11) : "");
	}
	db_done(st);
	*out = v;
	return n;
}

static void free_pt(struct pt *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(v[i].att);
		free(v[i].test);
		free(v[i].dev);
		free(v[i].unit);
	}
	free(v);
}

static int check_bw(struct rctx *rc)
{
	double ratio = threshold(rc->db, "bw_ratio");
	struct pt *v;
	size_t n = load_pt(rc->db, &v), i;

	for (i = 0; i < n; i++) {
		struct pt *p = &v[i];
		sqlite3_stmt *st;
		char comp[96] = "", rate[64] = "";
		double line = -1;

		if (!p->rows || p->gbps < 0)
			continue;
		/* the device's fastest ACTIVE port, else the node's */
		st = db_query(rc->db, "SELECT ibdev, port, rate_gbps, "
			      "coalesce(rate, '') FROM ports WHERE bundle_id = ? "
			      "AND state = 4 AND rate_gbps > 0 ORDER BY (ibdev = ?) "
			      "DESC, rate_gbps DESC, ibdev, port LIMIT 1", "is",
			      p->bid, p->dev ? p->dev : "");
		if (sqlite3_step(st) == SQLITE_ROW) {
			snprintf(comp, sizeof(comp), "%s:%d", COL(st, 0),
				 sqlite3_column_int(st, 1));
			line = sqlite3_column_double(st, 2);
			snprintf(rate, sizeof(rate), "%s", COL(st, 3));
		}
		db_done(st);
		if (line <= 0)
			continue;
		if (p->bidir)
			line *= 2;
		if (p->gbps < ratio * line) {
			char rp[160];
			int64_t fid;

			fid = finding_add(rc, p->bid, -1, comp,
				"%s%s on %s: %.2f Gb/s average, %.1f%% of the %g "
				"Gb/s line rate%s (below %.0f%%)", p->test,
				p->cuda ? " (GPU memory)" : "", comp, p->gbps,
				100.0 * p->gbps / line, line,
				p->bidir ? " of both directions" : "", ratio * 100);
			finding_evidence(rc, fid, p->att, "run %" PRId64 " %s: BW "
					 "average %.2f %s = %.2f Gb/s", p->run,
					 p->test, p->avg, p->unit, p->gbps);
			snprintf(rp, sizeof(rp), "sys/class/infiniband/%.*s/ports/%s/rate",
				 (int)strcspn(comp, ":"), comp,
				 strchr(comp, ':') ? strchr(comp, ':') + 1 : "1");
			finding_evidence(rc, fid, rp, "%s", rate);
		}
	}
	free_pt(v, n);
	return 0;
}

static int same_dev(const struct pt *a, const struct pt *b)
{
	return !a->dev || !b->dev || !strcmp(a->dev, b->dev);
}

static int check_gdr_bw(struct rctx *rc)
{
	double ratio = threshold(rc->db, "gdr_ratio");
	struct pt *v;
	size_t n = load_pt(rc->db, &v), i, j;

	for (i = 0; i < n; i++) {
		struct pt *g = &v[i], *h = NULL;
		int64_t fid;

		if (!g->cuda)
			continue;
		for (j = 0; j < n; j++)
			if (v[j].bid == g->bid && !v[j].cuda && v[j].rows &&
			    !v[j].failed && v[j].gbps > 0 &&
			    !strcmp(v[j].test, g->test) && v[j].bidir == g->bidir &&
			    same_dev(&v[j], g) && (!h || v[j].gbps > h->gbps))
				h = &v[j];
		if (!h)
			continue;
		if (g->failed || !g->rows || g->gbps < 0) {
			fid = finding_add(rc, g->bid, -1, g->dev ? g->dev : "perftest",
				"%s with GPU memory (--use_cuda) failed on %s while "
				"host memory reached %.2f Gb/s", g->test,
				g->dev ? g->dev : "the HCA", h->gbps);
		} else if (g->gbps < ratio * h->gbps) {
			fid = finding_add(rc, g->bid, -1, g->dev ? g->dev : "perftest",
				"%s with GPU memory (--use_cuda) on %s: %.2f Gb/s, "
				"%.0f%% of the %.2f Gb/s host-memory result (below "
				"%.0f%%)", g->test, g->dev ? g->dev : "the HCA",
				g->gbps, 100.0 * g->gbps / h->gbps, h->gbps,
				ratio * 100);
		} else {
			continue;
		}
		finding_evidence(rc, fid, g->att, "run %" PRId64 " (CUDA): %s",
				 g->run, g->rows && !g->failed ? "measured" :
				 "no result (failed)");
		if (g->rows && g->gbps >= 0)
			finding_evidence(rc, fid, g->att, "BW average %.2f %s = "
					 "%.2f Gb/s", g->avg, g->unit, g->gbps);
		finding_evidence(rc, fid, h->att, "run %" PRId64 " (host): BW "
				 "average %.2f %s = %.2f Gb/s", h->run, h->avg,
				 h->unit, h->gbps);
	}
	free_pt(v, n);
	return 0;
}

/* --- PERFTEST_FAILED --- */

static int check_pt_failed(struct rctx *rc)
{
	/* a GPU-memory run that fails where the same test with host memory
	 * worked is GDR_BW_LOW's */
	sqlite3_stmt *st = db_query(rc->db, "SELECT p.bundle_id, p.attachment, "
		"p.run, coalesce(p.test, ''), p.device, p.cuda, coalesce(p.error, "
		"''), p.wc_status, p.vendor_err, coalesce(p.link_type, '') FROM "
		"perftest_results p JOIN todo_rule t ON t.bundle_id = p.bundle_id "
		"WHERE p.failed = 1 AND NOT (p.cuda = 1 AND EXISTS (SELECT 1 FROM "
		"perftest_results h WHERE h.bundle_id = p.bundle_id AND h.cuda = 0 "
		"AND h.failed = 0 AND h.rows > 0 AND h.test IS p.test AND h.bw = 1 "
		"AND (h.device IS NULL OR p.device IS NULL OR h.device = "
		"p.device))) ORDER BY p.bundle_id, p.attachment, p.run", NULL);
	struct row { int64_t bid, run; int cuda, wc; unsigned ven;
		     char *att, *test, *dev, *err, *link; } *v = NULL;
	size_t n = 0, i;

	while (sqlite3_step(st) == SQLITE_ROW) {
		struct row *r, *nv = realloc(v, (n + 1) * sizeof(*v));

		if (!nv)
			break;
		v = nv;
		r = &v[n++];
		r->bid = sqlite3_column_int64(st, 0);
		r->att = strdup(COL(st, 1) ? COL(st, 1) : "");
		r->run = sqlite3_column_int64(st, 2);
		r->test = strdup(COL(st, 3) ? COL(st, 3) : "");
		r->dev = COL(st, 4) ? strdup(COL(st, 4)) : NULL;
		r->cuda = sqlite3_column_int(st, 5);
		r->err = strdup(COL(st, 6) ? COL(st, 6) : "");
		r->wc = sqlite3_column_type(st, 7) == SQLITE_NULL ? -1 :
			sqlite3_column_int(st, 7);
		r->ven = (unsigned)sqlite3_column_int64(st, 8);
		r->link = strdup(COL(st, 9) ? COL(st, 9) : "");
	}
	db_done(st);
	for (i = 0; i < n; i++) {
		struct row *r = &v[i];
		const char *why, *e = r->err;
		char test[96], wc[160] = "";
		int sev = -1;
		int64_t fid;

		snprintf(test, sizeof(test), "%s%s", *r->test ? r->test :
			 "a perftest run", *r->test ? " test" : "");
		if (!strncmp(e, "Couldn't connect to", 19) ||
		    strstr(e, "socket connection")) {
			/* the out-of-band TCP exchange: nothing about RDMA */
			sev = SEV_INFO;
			why = "the TCP connection to the server failed before any "
			      "RDMA: no server listening on the port (18515 by "
			      "default), a firewall, or a wrong address; the HCA "
			      "was not tested";
		} else if (strstr(e, "allocate MR") || strstr(e, "create mr") ||
			   strstr(e, "create MR")) {
			why = r->cuda ? "the GPU buffer could not be "
			      "registered: GPUDirect RDMA does not work on this "
			      "node (nvidia_peermem not loaded, or run with "
			      "--use_cuda_dmabuf); no host-memory run of the same "
			      "test is in the evidence to compare it with" :
			      "the host buffer could not be registered: the "
			      "locked-memory limit (ulimit -l; MEMLOCK_LIMITED) or "
			      "the device's memory registration";
		} else if (strstr(e, "modify QP")) {
			why = !strcmp(r->link, "Ethernet") ? "the QP could not be "
			      "connected to the peer: on RoCE the GID index (-x) "
			      "must name a RoCE v2 GID with an address the peer "
			      "can reach (show_gids), and the MTU must fit" :
			      "the QP could not be connected to the peer: its "
			      "LID/GID, the port state or the MTU";
		} else if (strstr(e, "get context") || strstr(e, "find the "
							      "Infiniband")) {
			why = "the device could not be opened: its name (-d), "
			      "/dev/infiniband (containers), ib_uverbs";
		} else if (r->wc >= 0) {
			const char *name = ibv_wc_status_name(r->wc);

			snprintf(wc, sizeof(wc), "completion with error %d %s (%s), "
				 "vendor syndrome 0x%x", r->wc, name ? name :
				 "(not an ibv_wc_status)",
				 ibv_wc_status_text(r->wc), r->ven);
			why = wc;
		} else {
			why = *e ? "see the error line" : "no result table in "
			      "the output (cut, or the run died)";
		}
		fid = finding_add(rc, r->bid, sev, r->dev ? r->dev : "perftest",
			"%s%s%s%s failed%s%s: %s", test, r->cuda ?
			" with GPU memory (--use_cuda)" : "", r->dev ? " on " : "",
			r->dev ? r->dev : "", *e ? ": " : "", e, why);
		finding_evidence(rc, fid, r->att, "run %" PRId64 ": %s", r->run,
				 *e ? e : "no result row");
	}
	for (i = 0; i < n; i++) {
		free(v[i].att);
		free(v[i].test);
		free(v[i].dev);
		free(v[i].err);
		free(v[i].link);
	}
	free(v);
	return 0;
}

const struct rule rules_app[] = {
	{
		.id = "NCCL_NO_IB",
		.layer = LAYER_APP,
		.severity = SEV_CRITICAL,
		.title = "NCCL found no IB device or fell back to sockets while RDMA ports are ACTIVE",
		.needs = "attach",
		.imp_needs = IMP_NEEDS(&need_port_state),
		.evidence = "attached NCCL log: 'NET/IB : No device found.', 'Using network Socket', 'NET/Socket : Using'; ports.state",
		.remediation = "NCCL could not open the HCAs: check that the job sees /dev/infiniband (containers: --device /dev/infiniband or the RDMA device plugin), that rdma_ucm/ib_uverbs are loaded, that NCCL_IB_DISABLE is not set and NCCL_IB_HCA names existing devices; with NCCL_DEBUG=INFO NCCL then prints 'NET/IB : Using [0]mlx5_0:1/IB'.",
		.sql = 1,
	},
	{
		.id = "NCCL_IB_HCA_MISMATCH",
		.layer = LAYER_APP,
		.severity = SEV_CRITICAL,
		.title = "NCCL_IB_HCA matches no device or excludes ACTIVE devices",
		.needs = "sysfs",
		.imp_needs = IMP_NEEDS(&need_nccl_env),
		.evidence = "NCCL_IB_HCA in rdma-collect/environ/*.env and etc/nccl.conf; ports and their state",
		.remediation = "Set NCCL_IB_HCA to the HCAs the job should use, as NCCL reads it: entries are name prefixes (mlx5_1 also selects mlx5_10..mlx5_19; a leading '=' makes names exact), ':port' limits a port, a leading '^' excludes. List the devices with ibdev2netdev or ibv_devices.",
		.check = check_ib_hca,
	},
	{
		.id = "NCCL_GDR_DISABLED",
		.layer = LAYER_APP,
		.severity = SEV_WARNING,
		.title = "an NCCL log reports GPUDirect RDMA disabled on a node with GPUs",
		.needs = "attach",
		.imp_needs = IMP_NEEDS(&need_gpus),
		.evidence = "attached NCCL log: 'NET/IB : GPU Direct RDMA Disabled for HCA ...'; GPUs from sys/bus/pci/devices (or lspci), else the log's 'cudaDev N ... busId X' lines, else the cudaDev of its 'host:pid:tid [N]' prefix",
		.remediation = "Load nvidia_peermem (modprobe nvidia_peermem; nv_peer_mem on old stacks) or use DMA-BUF (kernel 5.12+, open GPU kernel modules, NCCL_DMABUF_ENABLE=1); check NCCL_NET_GDR_LEVEL and the PCIe distance between GPU and HCA (nvidia-smi topo -m). NCCL 2.22.3 and older find the module only through the MLNX_OFED peer-memory file /sys/kernel/mm/memory_peers/nv_mem/version and disable GPUDirect RDMA where the stack creates none although nvidia_peermem is loaded (DGX OS 25.01): NCCL 2.23 also looks at /sys/module/nvidia_peermem.",
		.sql = 1,
	},
	{
		.id = "NCCL_COMPLETION_ERROR",
		.layer = LAYER_APP,
		.severity = SEV_CRITICAL,
		.title = "NCCL completion errors (decoded)",
		.needs = "attach",
		.evidence = "attached NCCL log: 'NET/IB : Got completion from peer ... with error|status=... vendor err ...'",
		.remediation = "Decode the status: 12 (IBV_WC_RETRY_EXC_ERR) means the peer stopped answering: check the link between this HCA and the peer (cable, switch port counters, PFC on RoCE) and whether the peer process died first; 4 (LOC_PROT_ERR) points at ACS or the IOMMU breaking GPUDirect; 5 (WR_FLUSH_ERR) follows an earlier error. Give the vendor error (hex) to NVIDIA support.",
		.check = check_completion,
	},
	{
		.id = "NCCL_IB_ERROR",
		.layer = LAYER_APP,
		.severity = SEV_WARNING,
		.title = "an NCCL log shows the HCA's asynchronous error events or failing verbs calls",
		.needs = "attach",
		.evidence = "attached NCCL log: 'NET/IB : Got async event : local catastrophic error' (2.4-2.11), 'NET/IB : mlx5_0:1 async fatal event: ...', 'Got non-fatal async event: port error(10)', 'Call to ibv_create_qp failed', 'Call to ibv_modify_qp failed with ...', 'Call to ibv_reg_mr failed ...'",
		.remediation = "A 'local catastrophic error' (IBV_EVENT_DEVICE_FATAL) is critical: the HCA stopped; read the kernel log for its mlx5 health syndrome (FW_RESET) and reset it (reboot, or mlxfwreset). A failing ibv_create_qp or ibv_reg_mr is usually the job's locked-memory limit (ulimit -l unlimited; containers --ulimit memlock=-1) or, for GPU buffers, GPUDirect RDMA missing (nvidia_peermem or DMA-BUF); a failing ibv_modify_qp is the path to the peer (port state, NCCL_IB_GID_INDEX on RoCE, MTU). Events that report no fault (port active, LID or SM change) are info.",
		.check = check_ib_error,
	},
	{
		.id = "PEERMEM_MISSING",
		.layer = LAYER_APP,
		.severity = SEV_CRITICAL,
		.title = "GPUs and HCAs without nvidia_peermem (or it fails to load)",
		.needs = "modules",
		.imp_needs = IMP_NEEDS(&need_peermem),
		.evidence = "proc/modules whole (nvidia_peermem, nv_peer_mem), or an import's filters of it that printed nothing for both (lsmod | grep nvidia_peermem, | grep nv_peer_mem: rdma-collect/import/printed-nothing.txt), sys/bus/pci/devices or the NCCL log's 'cudaDev N ... busId' lines (GPUs), devices or the NCCL log's 'NET/IB : Using [0]mlx5_0:1/IB' (HCAs), kernel log category peermem, NCCL 'GPU Direct RDMA Enabled' lines",
		.remediation = "modprobe nvidia_peermem (shipped with the NVIDIA driver; load it after the OFED stack, and persist it in /etc/modules-load.d); on old stacks nv_peer_mem. Or use DMA-BUF instead (open GPU kernel modules, kernel 5.12+, NCCL 2.13+).",
		.sql = 1,
	},
	{
		.id = "MEMLOCK_LIMITED",
		.layer = LAYER_APP,
		.severity = SEV_CRITICAL,
		.title = "locked-memory limit (collector, --pid process, limits.conf/limits.d) not unlimited",
		.needs = "limits",
		.imp_needs = IMP_NEEDS(&need_memlock),
		.evidence = "rdma-collect/limits/self.json, proc/<pid>/limits 'Max locked memory', etc/security/limits.conf and limits.d/*.conf memlock lines",
		.remediation = "Set memlock unlimited: '* soft memlock unlimited' and '* hard memlock unlimited' in /etc/security/limits.d/, LimitMEMLOCK=infinity for systemd services (and the container runtime: --ulimit memlock=-1), then log in again or restart the job; 'ulimit -l' must print unlimited.",
		.check = check_memlock,
	},
	{
		.id = "HUGEPAGES_NONE",
		.layer = LAYER_APP,
		.severity = SEV_INFO,
		.title = "no huge pages configured",
		.needs = "limits",
		.imp_needs = IMP_NEEDS(&need_hugepages),
		.evidence = "proc/meminfo HugePages_Total, sys/kernel/mm/hugepages/*/nr_hugepages",
		.remediation = "Only some stacks want huge pages (UCX, DPDK, large MPI jobs): set vm.nr_hugepages or hugepages= on the kernel command line if the application asks for them.",
		.sql = 1,
	},
	{
		.id = "CONTAINER_NO_RDMA",
		.layer = LAYER_APP,
		.severity = SEV_WARNING,
		.title = "snapshot taken in a container that cannot see /dev/infiniband",
		.needs = "",
		.imp_needs = IMP_NEEDS(&need_container),
		.evidence = "manifest.json container; rdma-collect/devnodes.json",
		.remediation = "Give the container the RDMA devices: docker/podman --device=/dev/infiniband (plus --cap-add=IPC_LOCK and --ulimit memlock=-1), or on Kubernetes the RDMA shared device plugin or SR-IOV network operator resources.",
		.sql = 1,
	},
	{
		.id = "BW_BELOW_LINE_RATE",
		.layer = LAYER_PERF,
		.severity = SEV_WARNING,
		.title = "an attached perftest result is below bw_ratio of the port's line rate",
		.needs = "attach",
		.thresholds = "bw_ratio",
		.evidence = "attached perftest output (BW average, MB/sec, MiB/sec or Gb/sec), ports.rate",
		.remediation = "Re-run with large messages and several QPs (ib_write_bw -s 1048576 -q 4 --report_gbits) pinned to the HCA's NUMA node; if it stays low check the PCIe link (PCIE_LINK_DEGRADED), the port's width/speed, congestion counters and the peer.",
		.check = check_bw,
	},
	{
		.id = "GDR_BW_LOW",
		.layer = LAYER_PERF,
		.severity = SEV_WARNING,
		.title = "a GPU-memory perftest result far below the host-memory result, or failing",
		.needs = "attach",
		.thresholds = "gdr_ratio",
		.evidence = "attached perftest outputs of the same test with and without --use_cuda",
		.remediation = "GPUDirect RDMA is slow or broken between this GPU and HCA: check nvidia_peermem (PEERMEM_MISSING), ACS on the bridges between them (ACS_ENABLED), the IOMMU (IOMMU_TRANSLATING) and that GPU and HCA share a PCIe switch (nvidia-smi topo -m: PIX/PXB).",
		.check = check_gdr_bw,
	},
	{
		.id = "PERFTEST_FAILED",
		.layer = LAYER_PERF,
		.severity = SEV_WARNING,
		.title = "an attached perftest run failed (no result): memory registration, QP connection, device, completion error",
		.needs = "attach",
		.evidence = "attached perftest output: 'Couldn't allocate MR', 'Failed to modify QP N to RTR', 'Couldn't get context for the device', 'Failed status ... syndrom 0x..', 'Couldn't connect to HOST:18515' (info: the TCP exchange, not RDMA)",
		.remediation = "Read the first error: 'Couldn't allocate MR' is the locked-memory limit (ulimit -l) for host memory, and GPUDirect RDMA missing (nvidia_peermem, or --use_cuda_dmabuf) for a --use_cuda run (run the same test without --use_cuda: if that works, it is GDR_BW_LOW); 'Failed to modify QP ... to RTR' is the addressing between the two ports (on RoCE the -x GID index must be a RoCE v2 GID with a reachable address); 'Couldn't connect to' means no server was listening on the TCP port or a firewall blocked it.",
		.check = check_pt_failed,
	},
	{ 0 },
};
