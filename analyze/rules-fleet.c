/* rules-fleet: the fleet pass, checks across nodes.
 *
 * They run after the per-bundle rules, over a set of bundles (the report's:
 * the bundles given, or the newest of each node in the database), in the
 * temporary table todo_rule.  Each node is compared with the others of its
 * class (same hardware shape, fingerprint.c), attribute by attribute, or
 * with a baseline when the user gave one (temporary table fleet_baseline,
 * filled by fleet_baseline_bundle/_file).  A majority is a value held by
 * more than half of the class's nodes that have the attribute, and only in
 * a class of at least fleet_min_nodes nodes: with two nodes that disagree
 * nobody can say which one is odd.
 */
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "db.h"
#include "fingerprint.h"
#include "log.h"
#include "rules.h"
#include "util.h"

/* what an attribute is called in a message, and the device it belongs to:
 * "hca.mlx5_0.fw" is "fw" of mlx5_0, "port.mlx5_0.1.mtu" "mtu" of mlx5_0:1 */
static void attr_split(const char *attr, const char *value, char *label,
		       size_t nl, char *dev, size_t nd)
{
	static const struct {
		const char *prefix;
		const char *label;	/* NULL: the part after the device */
		int port;		/* a port number follows the device */
	} forms[] = {
		{ "hca.", NULL, 0 },
		{ "port.", NULL, 1 },
		{ "pcie.", "pcie ", 0 },
		{ "iommu.", "iommu ", 0 },
		{ "acs.", "acs redirect", 0 },
		{ "guid.", "node guid", 0 },
		{ "mac.", "mac", 0 },
	};
	size_t i;

	*dev = 0;
	snprintf(label, nl, "%s", attr);
	if (!strncmp(attr, "ip.", 3) && value) {
		size_t la = strlen(attr), lv = strlen(value);

		/* ip.<netdev>.<address>: a netdev name may hold a dot */
		if (la > 3 + lv + 1 && !strcmp(attr + la - lv, value))
			snprintf(dev, nd, "%.*s", (int)(la - lv - 4), attr + 3);
		snprintf(label, nl, "ip");
		return;
	}
	for (i = 0; i < ARRAY_SIZE(forms); i++) {
		size_t lp = strlen(forms[i].prefix);
		const char *d = attr + lp, *e;

		if (strncmp(attr, forms[i].prefix, lp))
			continue;
		if (!strcmp(forms[i].prefix, "mac.") ||
		    !strcmp(forms[i].prefix, "guid.") ||
		    !strcmp(forms[i].prefix, "acs.")) {
			snprintf(dev, nd, "%s", d);
			snprintf(label, nl, "%s", forms[i].label);
			return;
		}
		e = strchr(d, '.');
		if (!e)
			return;
		if (forms[i].port) {
			const char *p = strchr(e + 1, '.');

			if (!p)
				return;
			snprintf(dev, nd, "%.*s:%.*s", (int)(e - d), d,
				 (int)(p - e - 1), e + 1);
			e = p;
		} else {
			snprintf(dev, nd, "%.*s", (int)(e - d), d);
		}
		snprintf(label, nl, "%s%s", forms[i].label ? forms[i].label : "",
			 e + 1);
		return;
	}
}

/* the nodes compared: todo_rule with node name and class */
static int fleet_nodes(sqlite3 *db)
{
	sqlite3_stmt *st;
	int64_t *ids = NULL;
	size_t n = 0;
	int rc;

	st = db_query(db, "SELECT bundle_id FROM todo_rule", NULL);
	while (sqlite3_step(st) == SQLITE_ROW) {
		ids = xrealloc(ids, (n + 1) * sizeof(*ids));
		ids[n++] = sqlite3_column_int64(st, 0);
	}
	db_done(st);
	rc = n ? fingerprint_update(db, ids, n) : 0;
	free(ids);
	if (rc < 0)
		return -1;
	return db_run(db, "CREATE TEMP TABLE IF NOT EXISTS fleet_nodes "
		      "(bundle_id INTEGER PRIMARY KEY, node TEXT, node_id "
		      "INTEGER, class TEXT); DELETE FROM fleet_nodes; INSERT INTO "
		      "fleet_nodes SELECT t.bundle_id, n.name, n.id, f.class FROM "
		      "todo_rule t JOIN bundles b ON b.id = t.bundle_id JOIN nodes "
		      "n ON n.id = b.node_id JOIN fingerprints f ON f.bundle_id = "
		      "t.bundle_id");
}

/* --- the reference each node is compared with --- */

static int baseline_table(sqlite3 *db)
{
	return db_run(db, "CREATE TEMP TABLE IF NOT EXISTS fleet_baseline (attr "
		      "TEXT NOT NULL, value TEXT, class TEXT, origin TEXT)");
}

int fleet_baseline_bundle(sqlite3 *db, int64_t bundle_id)
{
	char *cls;
	int rc;

	if (baseline_table(db) < 0)
		return -1;
	cls = fingerprint_class(db, bundle_id);
	if (!cls)
		return error("baseline: bundle has no fingerprint");
	/* a known-good node speaks for the nodes of its own class only */
	rc = db_exec(db, "INSERT INTO fleet_baseline SELECT a.attr, a.value, ?, "
		     "'baseline ' || n.name FROM fingerprint_attrs a JOIN bundles "
		     "b ON b.id = a.bundle_id JOIN nodes n ON n.id = b.node_id "
		     "WHERE a.bundle_id = ? AND a.grp IN ('fw', 'driver', "
		     "'config', 'count')", "si", cls, bundle_id);
	free(cls);
	return rc;
}

/* the baseline file: "ATTR VALUE" lines (VALUE the rest of the line,
 * "absent" for a known absence), ATTR a name of DATABASE.md or a glob
 * ("hca.*.fw"); "class CLASS" restricts the lines after it to that class;
 * '#' starts a comment line */
int fleet_baseline_file(sqlite3 *db, const char *file)
{
	char line[4096], cls[512] = "";
	int lineno = 0, rc = 0;
	FILE *f;

	if (baseline_table(db) < 0)
		return -1;
	f = fopen(file, "r");
	if (!f)
		return error("cannot open baseline '%s': %s", file,
			     strerror(errno));
	while (!rc && fgets(line, sizeof(line), f)) {
		char *a, *v, *e;

		lineno++;
		if (!strchr(line, '\n') && !feof(f)) {
			rc = error("%s:%d: line too long", file, lineno);
			break;
		}
		line[strcspn(line, "\r\n")] = 0;
		a = line + strspn(line, " \t");
		if (!*a || *a == '#')
			continue;
		e = a + strcspn(a, " \t");
		v = e + strspn(e, " \t");
		*e = 0;
		if (!*v) {
			rc = error("%s:%d: expected 'ATTRIBUTE VALUE'", file,
				   lineno);
			break;
		}
		if (!strcmp(a, "class")) {
			snprintf(cls, sizeof(cls), "%s", v);
			continue;
		}
		rc = db_exec(db, "INSERT INTO fleet_baseline VALUES (?, ?, ?, ?)",
			     "ssss", a, strcmp(v, "absent") ? v : NULL,
			     *cls ? cls : NULL, "baseline");
	}
	fclose(f);
	if (!rc && !db_int(db, "SELECT count(*) FROM fleet_baseline", NULL))
		rc = error("%s: no baseline values", file);
	return rc;
}

/* the compared attributes of group grp, each with its class key k: the
 * firmware of a device is compared among devices of the same board
 * (PSID), so the class key gains the board.  CROSS JOIN: the fleet's
 * bundles first (SQLite scanned the row sets of every bundle, 30 of them
 * a node, for those of the newest) */
#define ATTRS_SQL \
	"SELECT f.bundle_id, f.attr, f.value, f.path, n.class || CASE WHEN " \
	"f.grp = 'fw' THEN '/' || coalesce((SELECT b.value FROM " \
	"fingerprint_attrs b WHERE b.bundle_id = f.bundle_id AND b.attr = " \
	"substr(f.attr, 1, length(f.attr) - 3) || '.board_id'), '') ELSE '' " \
	"END AS k FROM fleet_nodes n CROSS JOIN fingerprint_attrs f ON " \
	"f.bundle_id = n.bundle_id WHERE f.grp = ?1"

/* a count of equal (k, attr, value) rows, or of (k, attr) rows */
struct tally {
	struct tally *next;
	uint64_t h;
	size_t len;
	int64_t n;
	unsigned char key[];	/* k, attr, [value]: each its length, bytes */
};

struct tallies {
	struct tally **b;
	size_t nb, n;
};

static void key_put(unsigned char *key, size_t *at, const void *p, size_t n)
{
	memcpy(key + *at, &n, sizeof(n));
	if (n)
		memcpy(key + *at + sizeof(n), p, n);
	*at += sizeof(n) + n;
}

static void tally_grow(struct tallies *t)
{
	size_t nb = t->nb ? t->nb * 4 : 256, i;
	struct tally **b = xcalloc(nb, sizeof(*b)), *x, *next;

	for (i = 0; i < t->nb; i++)
		for (x = t->b[i]; x; x = next) {
			next = x->next;
			x->next = b[x->h % nb];
			b[x->h % nb] = x;
		}
	free(t->b);
	t->b = b;
	t->nb = nb;
}

/* count one (k, attr) or (k, attr, value) key */
static void tally_add(struct tallies *t, const unsigned char *key, size_t len)
{
	uint64_t h = fnv1a(FNV1A_INIT, key, len);
	struct tally *x;

	if (t->nb && t->b[h % t->nb])
		for (x = t->b[h % t->nb]; x; x = x->next)
			if (x->h == h && x->len == len &&
			    !memcmp(x->key, key, len)) {
				x->n++;
				return;
			}
	if (t->n >= t->nb)
		tally_grow(t);
	x = xmalloc(sizeof(*x) + len);
	x->h = h;
	x->len = len;
	x->n = 1;
	memcpy(x->key, key, len);
	x->next = t->b[h % t->nb];
	t->b[h % t->nb] = x;
	t->n++;
}

static struct tally *tally_find(const struct tallies *t,
				const unsigned char *key, size_t len)
{
	uint64_t h = fnv1a(FNV1A_INIT, key, len);
	struct tally *x;

	for (x = t->nb ? t->b[h % t->nb] : NULL; x; x = x->next)
		if (x->h == h && x->len == len && !memcmp(x->key, key, len))
			return x;
	return NULL;
}

static void tallies_free(struct tallies *t)
{
	size_t i;
	struct tally *x, *next;

	for (i = 0; i < t->nb; i++)
		for (x = t->b[i]; x; x = next) {
			next = x->next;
			free(x);
		}
	free(t->b);
}

/* a tally's part i (0 k, 1 attr) */
static const unsigned char *key_part(const struct tally *x, int i, size_t *n)
{
	const unsigned char *p = x->key;

	for (;;) {
		memcpy(n, p, sizeof(*n));
		if (!i--)
			return p + sizeof(*n);
		p += sizeof(*n) + *n;
	}
}

/* fleet_major(k, attr, value, n): the value more than half of the nodes of
 * class key k hold for attr, where k has fleet_min_nodes of them.  Counted
 * in a hash table: SQLite's GROUP BY sorted the 1.1 million config rows
 * of 10,000 nodes (2 s) to find 175 distinct values. */
static int fleet_majority(sqlite3 *db, const char *grp)
{
	struct tallies vals = { 0 }, tot = { 0 };
	unsigned char *key = NULL;
	size_t keymax = 0, i;
	double min = threshold(db, "fleet_min_nodes");
	sqlite3_stmt *st, *ins;
	int rc;

	if (db_run(db, "CREATE TEMP TABLE IF NOT EXISTS fleet_major (k TEXT, "
		   "attr TEXT, value TEXT, n INTEGER); DELETE FROM "
		   "fleet_major") < 0)
		return -1;
	st = db_query(db, ATTRS_SQL, "s", grp);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		size_t kn, an, vn, at = 0;
		const void *k, *at_, *v;

		if (sqlite3_column_type(st, 4) == SQLITE_NULL)
			continue;	/* no class: compared with nobody */
		k = sqlite3_column_text(st, 4);
		kn = (size_t)sqlite3_column_bytes(st, 4);
		at_ = sqlite3_column_text(st, 1);
		an = (size_t)sqlite3_column_bytes(st, 1);
		v = sqlite3_column_text(st, 2);
		vn = (size_t)sqlite3_column_bytes(st, 2);
		if (3 * sizeof(size_t) + kn + an + vn + 1 > keymax) {
			keymax = 2 * (3 * sizeof(size_t) + kn + an + vn + 1);
			key = xrealloc(key, keymax);
		}
		key_put(key, &at, k, kn);
		key_put(key, &at, at_, an);
		tally_add(&tot, key, at);
		/* NULL (known absent) is a value of its own */
		key[at++] = v ? 1 : 0;
		key_put(key, &at, v, v ? vn : 0);
		tally_add(&vals, key, at);
	}
	db_done(st);
	ins = db_query(db, "INSERT INTO fleet_major VALUES (?1, ?2, ?3, ?4)",
		       NULL);
	for (i = 0; rc == SQLITE_DONE && i < vals.nb; i++) {
		struct tally *x;

		for (x = vals.b[i]; x && rc == SQLITE_DONE; x = x->next) {
			size_t kn, an, vn;
			const unsigned char *k = key_part(x, 0, &kn);
			const unsigned char *a = key_part(x, 1, &an);
			const unsigned char *v = a + an;	/* its flag */
			struct tally *t;

			/* the (k, attr) key is x's without its value */
			t = tally_find(&tot, x->key, (size_t)(a + an - x->key));
			if (!t || x->n * 2 <= t->n || (double)t->n < min)
				continue;
			sqlite3_reset(ins);
			sqlite3_bind_text(ins, 1, (const char *)k, (int)kn,
					  SQLITE_TRANSIENT);
			sqlite3_bind_text(ins, 2, (const char *)a, (int)an,
					  SQLITE_TRANSIENT);
			/* the value: a flag byte (0 for NULL), its length, it */
			memcpy(&vn, v + 1, sizeof(vn));
			if (*v)
				sqlite3_bind_text(ins, 3, (const char *)v + 1 +
						  sizeof(vn), (int)vn,
						  SQLITE_TRANSIENT);
			else
				sqlite3_bind_null(ins, 3);
			sqlite3_bind_int64(ins, 4, x->n);
			if (sqlite3_step(ins) != SQLITE_DONE)
				rc = error("database: %s", sqlite3_errmsg(db));
		}
	}
	db_done(ins);
	tallies_free(&vals);
	tallies_free(&tot);
	free(key);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* fleet_ref(bundle_id, attr, value, n, origin, v, path): the compared
 * attributes of the nodes that may differ from the value they should
 * have, that value and how many nodes hold it (0 for a baseline), the
 * node's own value and where it came from.  A baseline line for the
 * node's class (or for any class) wins over the majority; globs match
 * attribute names.  Of the majority's attributes only those that differ
 * are kept: every attribute of 10,000 nodes (1.1 million config rows)
 * written here and joined with fingerprint_attrs again took 7 s of a
 * fleet report. */
static int fleet_reference(sqlite3 *db, const char *grp)
{
	if (db_run(db, "CREATE TEMP TABLE IF NOT EXISTS fleet_ref (bundle_id "
		   "INTEGER, attr TEXT, value TEXT, n INTEGER, origin TEXT, v "
		   "TEXT, path TEXT); DELETE FROM fleet_ref") < 0 ||
	    baseline_table(db) < 0 || fleet_majority(db, grp) < 0)
		return -1;
	if (db_exec(db, "INSERT INTO fleet_ref SELECT a.bundle_id, a.attr, "
		    "m.value, m.n, NULL, a.value, a.path FROM (" ATTRS_SQL ") a "
		    "JOIN fleet_major m ON m.k = a.k AND m.attr = a.attr WHERE "
		    "a.value IS NOT m.value", "s", grp) < 0)
		return -1;
	if (!db_int(db, "SELECT count(*) FROM fleet_baseline", NULL))
		return 0;
	/* the newest matching baseline line wins (a later, more specific
	 * line overrides an earlier glob) */
	if (db_exec(db, "DELETE FROM fleet_ref WHERE EXISTS (SELECT 1 FROM "
		    "fleet_baseline x JOIN fleet_nodes n ON n.bundle_id = "
		    "fleet_ref.bundle_id WHERE fleet_ref.attr GLOB x.attr AND "
		    "(x.class IS NULL OR x.class = n.class))", NULL) < 0)
		return -1;
	return db_exec(db, "INSERT INTO fleet_ref SELECT f.bundle_id, f.attr, "
		       "(SELECT x.value FROM fleet_baseline x WHERE f.attr GLOB "
		       "x.attr AND (x.class IS NULL OR x.class = n.class) ORDER "
		       "BY x.rowid DESC LIMIT 1), 0, (SELECT x.origin FROM "
		       "fleet_baseline x WHERE f.attr GLOB x.attr AND (x.class "
		       "IS NULL OR x.class = n.class) ORDER BY x.rowid DESC LIMIT "
		       "1), f.value, f.path FROM fingerprint_attrs f JOIN "
		       "fleet_nodes n ON n.bundle_id = f.bundle_id WHERE f.grp = "
		       "?1 AND EXISTS (SELECT 1 FROM fleet_baseline x WHERE "
		       "f.attr GLOB x.attr AND (x.class IS NULL OR x.class = "
		       "n.class))", "s", grp);
}

/* --- outliers: one finding per node and rule --- */

struct odd {
	char label[128], dev[128];
	char *value, *ref, *origin, *path;
	int64_t n;
};

static void odd_release(struct odd *o, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(o[i].value);
		free(o[i].ref);
		free(o[i].origin);
		free(o[i].path);
	}
}

static const char *shown(const char *v)
{
	return v ? v : "absent";
}

static void ref_text(struct buf *b, const struct odd *o)
{
	if (o->origin)
		buf_addf(b, "%s: %s", o->origin, shown(o->ref));
	else
		buf_addf(b, "%lld other node%s: %s", (long long)o->n,
			 o->n == 1 ? "" : "s", shown(o->ref));
}

/* "gpu-a07: fw 28.39.1002 on mlx5_0, mlx5_1; 11 other nodes: 28.41.1000"
 * -- differences with the same label, value and reference are one item */
static void odd_summary(struct buf *b, const char *node, struct odd *o,
			size_t n)
{
	size_t i, j;
	char *done = calloc(n ? n : 1, 1);

	if (!done)
		die("out of memory");
	buf_addf(b, "%s: ", node);
	for (i = 0; i < n; i++) {
		int devs = 0;

		if (done[i])
			continue;
		if (b->len > strlen(node) + 2)
			buf_addstr(b, "; ");
		buf_addf(b, "%s %s", o[i].label, shown(o[i].value));
		for (j = i; j < n; j++) {
			if (done[j] || strcmp(o[i].label, o[j].label) ||
			    strcmp(shown(o[i].value), shown(o[j].value)) ||
			    strcmp(shown(o[i].ref), shown(o[j].ref)) ||
			    o[i].n != o[j].n)
				continue;
			done[j] = 1;
			if (o[j].dev[0])
				buf_addf(b, "%s%s", devs++ ? ", " : " on ",
					 o[j].dev);
		}
		buf_addstr(b, " (");
		ref_text(b, &o[i]);
		buf_addstr(b, ")");
	}
	free(done);
}

/* the component: the one device all differences are on, else "node" */
static const char *odd_component(const struct odd *o, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!o[i].dev[0] || strcmp(o[i].dev, o[0].dev))
			return "node";
	return n ? o[0].dev : "node";
}

static void odd_report(struct rctx *rc, int64_t bid, const char *node,
		       const char *comp, struct odd *o, size_t n)
{
	struct buf s = BUF_INIT;
	int64_t fid;
	size_t i;

	if (!n)
		return;
	odd_summary(&s, node, o, n);
	fid = finding_add(rc, bid, -1, comp ? comp : odd_component(o, n), "%s",
			  s.buf);
	for (i = 0; i < n; i++) {
		struct buf e = BUF_INIT;

		buf_addf(&e, "%s%s%s %s (", o[i].label, o[i].dev[0] ? " " : "",
			 o[i].dev, shown(o[i].value));
		ref_text(&e, &o[i]);
		buf_addstr(&e, ")");
		finding_evidence(rc, fid, o[i].path, "%s", e.buf);
		buf_release(&e);
	}
	buf_release(&s);
}

/* numeric values below the reference only (count attributes) */
static int fewer(const char *v, const char *ref)
{
	long long a, b;

	if (!v || !ref || parse_ll(v, 10, 0, 1LL << 40, &a) < 0 ||
	    parse_ll(ref, 10, 0, 1LL << 40, &b) < 0)
		return 0;
	return a < b;
}

/* compare every node's attributes of group grp (and, when only is not
 * NULL, of those names) with the reference; count: only lower is odd;
 * comp: the findings' component (NULL: the device of the differences) */
static int outliers(struct rctx *rc, const char *grp, const char *only,
		    int count, const char *comp)
{
	sqlite3 *db = rc->db;
	sqlite3_stmt *st;
	struct odd *o = NULL;
	size_t n = 0;
	int64_t cur = -1;
	char *node = NULL;

	if (fleet_nodes(db) < 0 || fleet_reference(db, grp) < 0)
		return -1;
	st = db_query(db, "SELECT r.bundle_id, n.node, r.attr, r.v, r.value, "
		      "r.n, r.origin, r.path FROM fleet_ref r JOIN fleet_nodes "
		      "n ON n.bundle_id = r.bundle_id WHERE r.v IS NOT r.value "
		      "AND (?1 IS NULL OR r.attr GLOB ?1) ORDER BY r.bundle_id, "
		      "r.attr", "s", only);
	for (;;) {
		int row = sqlite3_step(st) == SQLITE_ROW;
		int64_t bid = row ? sqlite3_column_int64(st, 0) : -1;
		const char *v, *ref;
		struct odd *x;

		if (!row || bid != cur) {
			odd_report(rc, cur, node, comp, o, n);
			odd_release(o, n);
			n = 0;
			free(node);
			node = NULL;
			if (!row)
				break;
			cur = bid;
			node = xstrdup((const char *)sqlite3_column_text(st, 1));
		}
		v = (const char *)sqlite3_column_text(st, 3);
		ref = (const char *)sqlite3_column_text(st, 4);
		if (count && !fewer(v, ref))
			continue;
		o = xrealloc(o, (n + 1) * sizeof(*o));
		x = &o[n++];
		memset(x, 0, sizeof(*x));
		attr_split((const char *)sqlite3_column_text(st, 2), v, x->label,
			   sizeof(x->label), x->dev, sizeof(x->dev));
		x->value = v ? xstrdup(v) : NULL;
		x->ref = ref ? xstrdup(ref) : NULL;
		x->n = sqlite3_column_int64(st, 5);
		x->origin = sqlite3_column_text(st, 6) ?
			xstrdup((const char *)sqlite3_column_text(st, 6)) : NULL;
		x->path = sqlite3_column_text(st, 7) ?
			xstrdup((const char *)sqlite3_column_text(st, 7)) :
			xstrdup("fingerprint_attrs");
	}
	db_done(st);
	free(o);
	return 0;
}

/* ibdiagnet's import: its console log's FW Check */
#define DIAG_JSON "rdma-collect/fabric/ibdiagnet.json"

/* FW_VERSION_OUTLIER on each node the FW Check named: its firmware is not
 * the newest the fabric runs for the same board (Devid/PSID).  ibdiagnet
 * names the older ones; a node is named by its node GUID when ibdiagnet's
 * name for it carries one ("S<guid>/N<guid>"), else by that name
 * ("host/mlx5_0").  The stage's own count says when the log lists only
 * some of them (the rest are in ibdiagnet2.db_csv). */
static int fabric_fw_mixed(struct rctx *rc)
{
	sqlite3_stmt *st = db_query(rc->db,
		"SELECT f.bundle_id, coalesce(f.guid, f.object), f.object, "
		"coalesce(f.device_id, '?'), coalesce(f.psid, '?'), f.fw, "
		"f.latest, (SELECT count(*) FROM fabric_diag_fw x WHERE "
		"x.bundle_id = f.bundle_id AND x.psid IS f.psid AND "
		"x.device_id IS f.device_id), coalesce((SELECT warnings FROM "
		"fabric_diag_stages s WHERE s.bundle_id = f.bundle_id AND "
		"s.stage = 'Nodes Information'), -1) "
		"FROM fabric_diag_fw f JOIN todo_rule t ON t.bundle_id = "
		"f.bundle_id WHERE f.fw <> f.latest ORDER BY f.bundle_id, 2", "");

	while (sqlite3_step(st) == SQLITE_ROW) {
		int64_t fid = finding_add(
			rc, sqlite3_column_int64(st, 0), -1, db_col(st, 1),
			"%s runs firmware %s while "
			"the newest on this fabric for the same "
			"board (Devid %s, PSID %s) is %s "
			"(ibdiagnet's FW Check: %" PRId64 " "
			"node(s) of that board named behind)",
			db_col(st, 2), db_col(st, 5), db_col(st, 3),
			db_col(st, 4), db_col(st, 6), db_col_int(st, 7));

		finding_evidence(
			rc, fid, DIAG_JSON,
			"fw %s: Devid %s, PSID %s, "
			"FW %s, latest %s%s",
			db_col(st, 2), db_col(st, 3), db_col(st, 4),
			db_col(st, 5), db_col(st, 6),
			db_col_int(st, 8) > db_col_int(st, 7)
				? " (the log lists "
				  "only some of the stage's warnings: the rest "
				  "are in ibdiagnet2.db_csv)"
				: "");
	}
	db_done(st);
	return 0;
}

/* the nodes' HCAs against each other; then the fabric's own firmware
 * check, ibdiagnet's (fabric_fw_mixed above) */
static int fleet_fw(struct rctx *rc)
{
	int r = outliers(rc, "fw", NULL, 0, NULL);

	return r < 0 ? r : fabric_fw_mixed(rc);
}

static int fleet_driver(struct rctx *rc)
{
	return outliers(rc, "driver", NULL, 0, NULL);
}

static int fleet_config(struct rctx *rc)
{
	return outliers(rc, "config", NULL, 0, NULL);
}

static int fleet_hca_count(struct rctx *rc)
{
	int r = outliers(rc, "count", "hcas", 1, NULL);

	return r < 0 ? r : outliers(rc, "count", "ports_active", 1, NULL);
}

/* the fleet part of HCA_MISSING (rules-pci.c): fewer HCA PCI functions
 * than the class's majority or the baseline.  Its findings have the
 * component "fleet", so the fleet pass can replace them. */
static int fleet_hca_missing(struct rctx *fleet_rc)
{
	struct rctx rc = { fleet_rc->db, rule_find("HCA_MISSING") };

	if (!rc.rule)
		return 0;
	return outliers(&rc, "count", "hca_functions", 1, "fleet");
}

/* --- duplicates of what must be unique --- */

/* the names of up to five other nodes, "..." when there are more */
/* "gpu-a02, gpu-a03": up to five of the other nodes sharing the value
 * (column 5: every node holding it, sorted, 0x1f between names; column 6:
 * this row's node) */
static char *xstrfmt_others(sqlite3_stmt *st, int64_t n)
{
	struct buf b = BUF_INIT;
	const char *names = (const char *)sqlite3_column_text(st, 5);
	const char *self = (const char *)sqlite3_column_text(st, 6);
	const char *p = names;
	int k = 0;

	while (p && *p && k < 5) {
		size_t l = strcspn(p, "\x1f");

		if (!self || strlen(self) != l || strncmp(p, self, l)) {
			buf_addf(&b, "%s%.*s", k ? ", " : "", (int)l, p);
			k++;
		}
		p += l;
		if (*p)
			p++;
	}
	buf_addf(&b, "%s", n > 5 ? ", ..." : "");
	return buf_detach(&b, NULL);
}

struct dup {
	char label[128], dev[128];
	char *value, *path, *others;
	int64_t n;
};

/* one finding per node: "node guid 9c63:c003:00e1:7a00 of mlx5_0 is also
 * on 2 other nodes: gpu-a02, gpu-a03", further items after a ';' (the
 * first three in the summary, all in the evidence) */
static void dup_report(struct rctx *rc, int64_t bid, struct dup *d, size_t n)
{
	struct buf s = BUF_INIT;
	size_t i;
	int64_t fid;

	if (!n)
		return;
	for (i = 0; i < n && i < 3; i++)
		buf_addf(&s, "%s%s %s%s%s is also on %lld other node%s: %s",
			 i ? "; " : "", d[i].label, d[i].value,
			 d[i].dev[0] ? " of " : "", d[i].dev, (long long)d[i].n,
			 d[i].n == 1 ? "" : "s", d[i].others);
	if (n > 3)
		buf_addf(&s, "; and %zu more", n - 3);
	fid = finding_add(rc, bid, -1, n == 1 && d[0].dev[0] ? d[0].dev : "node",
			  "%s", s.buf);
	for (i = 0; i < n; i++)
		finding_evidence(rc, fid, d[i].path, "%s (also on %s)",
				 d[i].value, d[i].others);
	buf_release(&s);
}

static void dup_release(struct dup *d, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(d[i].value);
		free(d[i].path);
		free(d[i].others);
	}
}

static int duplicates(struct rctx *rc, const char *glob)
{
	sqlite3_stmt *st;
	struct dup *d = NULL;
	size_t n = 0;
	int64_t cur = -1;

	if (fleet_nodes(rc->db) < 0)
		return -1;
	/* per value, not per row: in a fleet cloned from one image every
	 * node shares every GUID, and a correlated count per row was
	 * quadratic (most of a 400-node report's time) */
	st = db_query(rc->db, "WITH u AS MATERIALIZED (SELECT a.bundle_id, "
		      "n.node, n.node_id, a.attr, a.value, a.path FROM "
		      "fingerprint_attrs a JOIN fleet_nodes n ON n.bundle_id = "
		      "a.bundle_id WHERE a.grp = 'unique' AND a.attr GLOB ?1 AND "
		      "a.value IS NOT NULL), d AS MATERIALIZED (SELECT value, "
		      "count(DISTINCT node_id) AS nn FROM u GROUP BY value HAVING "
		      "nn > 1), nm AS MATERIALIZED (SELECT value, group_concat(node, "
		      "char(31)) AS names FROM (SELECT DISTINCT u.value, u.node FROM "
		      "u JOIN d ON d.value = u.value ORDER BY u.value, u.node) GROUP "
		      "BY value) SELECT u.bundle_id, u.attr, u.value, u.path, "
		      "d.nn - 1, nm.names, u.node FROM u JOIN d ON d.value = u.value "
		      "JOIN nm ON nm.value = u.value ORDER BY u.bundle_id, u.attr",
		      "s", glob);
	for (;;) {
		int row = sqlite3_step(st) == SQLITE_ROW;
		int64_t bid = row ? sqlite3_column_int64(st, 0) : -1;
		const char *v;
		struct dup *x;

		if (!row || bid != cur) {
			dup_report(rc, cur, d, n);
			dup_release(d, n);
			n = 0;
			if (!row)
				break;
			cur = bid;
		}
		v = (const char *)sqlite3_column_text(st, 2);
		d = xrealloc(d, (n + 1) * sizeof(*d));
		x = &d[n++];
		attr_split((const char *)sqlite3_column_text(st, 1), v, x->label,
			   sizeof(x->label), x->dev, sizeof(x->dev));
		x->value = xstrdup(v);
		x->path = xstrdup((const char *)sqlite3_column_text(st, 3));
		x->n = sqlite3_column_int64(st, 4);
		x->others = xstrfmt_others(st, x->n);
	}
	db_done(st);
	free(d);
	return 0;
}

static int fleet_dup_guid(struct rctx *rc)
{
	return duplicates(rc, "guid.*");
}

static int fleet_dup_address(struct rctx *rc)
{
	int r = duplicates(rc, "mac.*");

	return r < 0 ? r : duplicates(rc, "ip.*");
}

/* --- counters far above their peers' --- */

/* error, discard and pause counters, per hour of uptime: the same counter
 * of the same port (mlx5_3:1, ens1f0np0) on every node of a class are
 * peers.  Not pooled over a node's ports: two ports of one node may carry
 * different traffic (a storage and a compute rail) on every node alike.
 *
 * Most of them are zero, and a zero is stored as implied (a key of the
 * bundle's key set with no value row; schema/DATABASE.md "Storage"), so a
 * peer group is read as its count and its stored values: the count from
 * the key sets of the fleet's bundles (a bundle has a key once, so a
 * group holds a bundle at most once), the values from the rows stored;
 * a NULL value (unreadable) is no sample.  Reading every implied zero
 * through the views took 12 s of a 10,000-node report. */
#define PMA_NAMES \
	"('symbol_error', 'link_error_recovery', 'link_downed', " \
	"'port_rcv_errors', 'port_rcv_remote_physical_errors', " \
	"'port_rcv_switch_relay_errors', 'port_xmit_discards', " \
	"'port_xmit_constraint_errors', 'port_rcv_constraint_errors', " \
	"'local_link_integrity_errors', 'excessive_buffer_overrun_errors', " \
	"'VL15_dropped')"
#define HW_NAMES \
	"('out_of_sequence', 'duplicate_request', 'packet_seq_err', " \
	"'implied_nak_seq_err', 'local_ack_timeout_err', 'rnr_nak_retry_err', " \
	"'req_cqe_error', 'resp_cqe_error', 'out_of_buffer')"
#define ETHTOOL_NAMES \
	"(k.name IN ('rx_pause_ctrl_phy', 'tx_pause_ctrl_phy', " \
	"'rx_discards_phy', 'tx_discards_phy', 'rx_symbol_err_phy', " \
	"'rx_crc_errors_phy', 'rx_pcs_symbol_err_phy', 'tx_errors_phy') OR " \
	"k.name GLOB 'rx_prio[0-7]_pause' OR k.name GLOB 'tx_prio[0-7]_pause' " \
	"OR k.name GLOB 'rx_prio[0-7]_discards')"

/* fleet_ckeys(src, set_id, slot, comp, m, path): the compared keys of the
 * key sets the fleet's bundles use; src 0 counters, 1 netdev_stats */
static int counter_keys(sqlite3 *db)
{
	return db_run(db, "CREATE TEMP TABLE IF NOT EXISTS fleet_ckeys (src "
		"INTEGER, set_id INTEGER, slot INTEGER, comp TEXT, m TEXT, "
		"path TEXT, PRIMARY KEY (src, set_id, slot)) WITHOUT ROWID; "
		"DELETE FROM fleet_ckeys; "
		"INSERT INTO fleet_ckeys SELECT 0, k.set_id, k.slot, k.ibdev || "
		"':' || k.port, k.kind || ' ' || k.name, k.path || '/' || k.name "
		"FROM counter_keys k WHERE k.set_id IN (SELECT c.set_id FROM "
		"fleet_nodes n JOIN counter_bundles c ON c.bundle_id = "
		"n.bundle_id) AND ((k.kind = 'pma' AND k.name IN " PMA_NAMES ") "
		"OR (k.kind = 'hw' AND k.name IN " HW_NAMES ")); "
		"INSERT INTO fleet_ckeys SELECT 1, k.set_id, k.slot, k.netdev, "
		"'ethtool ' || k.name, 'rdma-collect/ethtool/' || k.netdev || "
		"'.json' FROM netdev_stat_keys k WHERE k.set_id IN (SELECT "
		"s.set_id FROM fleet_nodes n JOIN netdev_stat_bundles s ON "
		"s.bundle_id = n.bundle_id) AND k.source = 'ethtool' AND "
		ETHTOOL_NAMES);
}

/* the peer groups and how many bundles each holds */
#define GROUP_SQL \
	"WITH x AS (SELECT coalesce(n.class, '') AS class, 0 AS src, " \
	"c.set_id, count(*) AS nb FROM fleet_nodes n JOIN bundles b ON b.id " \
	"= n.bundle_id JOIN counter_bundles c ON c.bundle_id = n.bundle_id " \
	"WHERE b.uptime_s > 0 GROUP BY 1, 3 UNION ALL SELECT " \
	"coalesce(n.class, ''), 1, s.set_id, count(*) FROM fleet_nodes n " \
	"JOIN bundles b ON b.id = n.bundle_id JOIN netdev_stat_bundles s ON " \
	"s.bundle_id = n.bundle_id WHERE b.uptime_s > 0 GROUP BY 1, 3) " \
	"SELECT x.class, k.comp, k.m, sum(x.nb) FROM x JOIN fleet_ckeys k ON " \
	"k.src = x.src AND k.set_id = x.set_id GROUP BY 1, 2, 3 ORDER BY 1, 2, 3"

/* the values stored, in the groups' order, NULL first, then by rate;
 * CROSS JOIN: the fleet's bundles first, then their rows (SQLite scanned
 * every stored value of every bundle: 4 s at 10,000 x 30) */
#define VALUE_SQL \
	"SELECT coalesce(n.class, ''), k.comp, k.m, v.value * 3600.0 / " \
	"b.uptime_s, v.value, n.bundle_id, n.node, k.path FROM fleet_nodes n " \
	"CROSS JOIN bundles b ON b.id = n.bundle_id CROSS JOIN " \
	"counter_bundles c ON c.bundle_id = n.bundle_id CROSS JOIN " \
	"counter_values v ON v.bundle_id = n.bundle_id JOIN fleet_ckeys k ON " \
	"k.src = 0 AND k.set_id = c.set_id AND k.slot = v.slot WHERE " \
	"b.uptime_s > 0 UNION ALL SELECT coalesce(n.class, ''), k.comp, k.m, " \
	"v.value * 3600.0 / b.uptime_s, v.value, n.bundle_id, n.node, k.path " \
	"FROM fleet_nodes n CROSS JOIN bundles b ON b.id = n.bundle_id CROSS " \
	"JOIN netdev_stat_bundles s ON s.bundle_id = n.bundle_id CROSS JOIN " \
	"netdev_stat_values v ON v.bundle_id = n.bundle_id JOIN fleet_ckeys k " \
	"ON k.src = 1 AND k.set_id = s.set_id AND k.slot = v.slot WHERE " \
	"b.uptime_s > 0 ORDER BY 1, 2, 3, 4, 6"

/* a stored value other than zero (the zeros are only counted) */
struct sample {
	int64_t bid, raw;
	double rate;
	char *node, *comp, *path;
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* the k-th smallest (from 0) of sorted v[] and z copies of c, of which
 * below values of v[] are smaller than c */
static double kth(const double *v, size_t below, double c, size_t z, size_t k)
{
	if (k < below)
		return v[k];
	if (k < below + z)
		return c;
	return v[k - z];
}

/* the median of v[0..n), sorted, and z copies of c */
static double median_with(const double *v, size_t n, double c, size_t z)
{
	size_t all = n + z, below = 0;

	while (below < n && v[below] < c)
		below++;
	if (all % 2)
		return kth(v, below, c, z, all / 2);
	return (kth(v, below, c, z, all / 2 - 1) +
		kth(v, below, c, z, all / 2)) / 2;
}

/* a group of peers (one counter of one port, one class): n samples, the
 * ns of s[] (sorted by rate) and n - ns zeros.  Flag the rates above
 * median + k * 1.4826 * MAD that exceed the median by at least
 * counter_min_per_hour */
static void counter_group(struct rctx *rc, const char *cls, const char *name,
			  const struct sample *s, size_t ns, size_t n)
{
	double k = threshold(rc->db, "counter_mad_k");
	double floor = threshold(rc->db, "counter_min_per_hour");
	double *v, med, mad, limit;
	size_t i;
	/* every sample is another bundle (a key once a bundle) */
	size_t enough = (size_t)threshold(rc->db, "fleet_min_nodes");

	if (n < 2 || n < enough)
		return;
	v = xrealloc(NULL, (ns ? ns : 1) * sizeof(*v));
	for (i = 0; i < ns; i++)
		v[i] = s[i].rate;
	med = median_with(v, ns, 0.0, n - ns);
	for (i = 0; i < ns; i++)
		v[i] = fabs(s[i].rate - med);
	qsort(v, ns, sizeof(*v), cmp_double);
	mad = median_with(v, ns, fabs(0.0 - med), n - ns);
	free(v);
	limit = med + k * 1.4826 * mad;
	if (limit < med + floor)
		limit = med + floor;
	for (i = 0; i < ns; i++) {
		int64_t fid;

		if (s[i].rate <= limit || !s[i].comp)
			continue;
		fid = finding_add(rc, s[i].bid, -1, s[i].comp, "%s %s: %.3g per "
				  "hour of uptime; class %s median %.3g, MAD %.3g "
				  "over %zu nodes (limit %.3g)", s[i].comp, name,
				  s[i].rate, cls, med, mad, n, limit);
		finding_evidence(rc, fid, s[i].path, "%s %lld", name,
				 (long long)s[i].raw);
	}
}

static void samples_release(struct sample *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(s[i].node);
		free(s[i].comp);
		free(s[i].path);
	}
}

/* VALUE_SQL's row against the group (class, comp, m): <0 before it */
static int value_cmp(sqlite3_stmt *v, const char *cls, const char *comp,
		     const char *m)
{
	int c = strcmp(db_col(v, 0), cls);

	if (!c)
		c = strcmp(db_col(v, 1), comp);
	return c ? c : strcmp(db_col(v, 2), m);
}

static int fleet_counters(struct rctx *rc)
{
	struct sample *s = NULL;
	sqlite3_stmt *g, *v;
	size_t ns = 0, alloc = 0;
	int vrow;

	if (fleet_nodes(rc->db) < 0 || counter_keys(rc->db) < 0)
		return -1;
	g = db_query(rc->db, GROUP_SQL, NULL);
	v = db_query(rc->db, VALUE_SQL, NULL);
	vrow = sqlite3_step(v) == SQLITE_ROW;
	while (sqlite3_step(g) == SQLITE_ROW) {
		const char *cls = db_col(g, 0), *comp = db_col(g, 1);
		const char *m = db_col(g, 2);
		int64_t n = sqlite3_column_int64(g, 3);
		int c;

		for (; vrow && (c = value_cmp(v, cls, comp, m)) <= 0;
		     vrow = sqlite3_step(v) == SQLITE_ROW) {
			struct sample *x;
			double rate = sqlite3_column_double(v, 3);

			if (c < 0)	/* no group: not a fleet bundle's key */
				continue;
			if (sqlite3_column_type(v, 4) == SQLITE_NULL) {
				n--;
				continue;
			}
			if (rate == 0)
				continue;
			if (ns == alloc) {
				alloc = alloc ? alloc * 2 : 256;
				s = xrealloc(s, alloc * sizeof(*s));
			}
			x = &s[ns++];
			memset(x, 0, sizeof(*x));
			x->bid = sqlite3_column_int64(v, 5);
			x->rate = rate;
			x->raw = sqlite3_column_int64(v, 4);
			/* a negative rate (a hostile value) is a sample, never
			 * above the limit: its names are not needed */
			if (rate > 0) {
				x->node = xstrdup(db_col(v, 6));
				x->comp = xstrdup(comp);
				x->path = xstrdup(db_col(v, 7));
			}
		}
		if (n > 0)
			counter_group(rc, cls, m, s, ns, (size_t)n);
		samples_release(s, ns);
		ns = 0;
	}
	db_done(v);
	db_done(g);
	free(s);
	return 0;
}

const struct rule rules_fleet[] = {
	{
		.id = "FW_VERSION_OUTLIER",
		.layer = LAYER_FLEET,
		.severity = SEV_WARNING,
		.title = "a node's HCA firmware differs from the majority of its class for the same board (PSID), or from the baseline; or ibdiagnet's FW Check names a fabric node (switch or HCA) older than the newest firmware for its Devid/PSID",
		.thresholds = "fleet_min_nodes",
		.evidence = "fingerprint attributes hca.<dev>.fw, grouped by class and hca.<dev>.board_id (sys/class/infiniband/<dev>/fw_ver, board_id); an imported ibdiagnet console log's FW Check lines (rdma-collect/fabric/ibdiagnet.json fw: Devid, PSID, FW, the newest on the fabric), one finding per node it names",
		.remediation = "Bring the odd HCAs to the fleet's firmware for their PSID (mlxfwmanager --query, then mlxfwmanager -u or flint -d <dev> -i <image> burn, and a firmware reset: mlxfwreset or a cold reboot); mixed firmware in one job gives uneven performance and behaviour.",
		.check = fleet_fw,
	},
	{
		.id = "DRIVER_OUTLIER",
		.layer = LAYER_FLEET,
		.severity = SEV_WARNING,
		.title = "a node's driver stack (kernel, inbox or OFED, RDMA module versions, a stack module not loaded) differs from the majority of its class or the baseline",
		.thresholds = "fleet_min_nodes",
		.evidence = "fingerprint attributes kernel, driver.stack, module.<name> (manifest.json, proc/modules, sys/module/<name>/version)",
		.remediation = "Install the fleet's kernel and driver stack on the odd node (the same MLNX_OFED/DOCA or inbox rdma-core and kernel), load the missing modules, reboot; one node with another stack is a frequent cause of a job that is slower or fails on that node only.",
		.check = fleet_driver,
	},
	{
		.id = "CONFIG_OUTLIER",
		.layer = LAYER_FLEET,
		.severity = SEV_WARNING,
		.title = "any other compared setting differs from the majority of the class or the baseline: MTU, rate, width, PFC, trust, GID table, PCIe link, ACS, IOMMU, peermem, memlock, huge pages, NCCL environment, module parameters",
		.thresholds = "fleet_min_nodes",
		.evidence = "fingerprint attributes of group config (schema/DATABASE.md, Fingerprint attributes), each with the bundle path it came from",
		.remediation = "Make the odd node's setting equal to its peers' (or the baseline's), through the configuration management that set the others; the per-node checks of the same report say which value is the wrong one when it is wrong by itself.",
		.check = fleet_config,
	},
	{
		.id = "HCA_COUNT_OUTLIER",
		.layer = LAYER_FLEET,
		.severity = SEV_CRITICAL,
		.title = "a node has fewer RDMA devices or active ports than the majority of its class or the baseline",
		.thresholds = "fleet_min_nodes",
		.evidence = "fingerprint attributes hcas (sys/class/infiniband/*) and ports_active (ports in state ACTIVE)",
		.remediation = "Find the missing device or the port that is not active (rdma link, ibstat); a node with fewer rails slows every collective it is part of.",
		.check = fleet_hca_count,
	},
	{
		.id = "DUPLICATE_GUID",
		.layer = LAYER_FLEET,
		.severity = SEV_CRITICAL,
		.title = "an RDMA device's node GUID is also that of another node",
		.evidence = "fingerprint attributes guid.<dev> (sys/class/infiniband/<dev>/node_guid) of every compared node",
		.remediation = "Two nodes with one GUID confuse the subnet manager and every path query: a cloned VM's virtual function or a firmware burnt with another card's GUIDs (flint -d <dev> query; set the GUIDs back with the card's own values, or give the VFs unique ones).",
		.check = fleet_dup_guid,
	},
	{
		.id = "DUPLICATE_ADDRESS",
		.layer = LAYER_FLEET,
		.severity = SEV_CRITICAL,
		.title = "a MAC address of an RDMA netdev, or a global IP address, is also on another node",
		.evidence = "fingerprint attributes mac.<netdev> (sys/class/net/<netdev>/address, Ethernet only) and ip.<netdev>.<address> (rdma-collect/net/addresses.json; loopback and link-local left out)",
		.remediation = "Give each node its own address (DHCP reservation, netplan/ifcfg of the cloned image); with RoCE a duplicate IP is a duplicate GID, and connections reach the wrong node.",
		.check = fleet_dup_address,
	},
	{
		.id = "COUNTER_OUTLIER",
		.layer = LAYER_FLEET,
		.severity = SEV_WARNING,
		.title = "a port's error, discard or pause counter per hour of uptime is far above the same port's on the other nodes of its class (median absolute deviation)",
		.thresholds = "counter_mad_k counter_min_per_hour fleet_min_nodes",
		.evidence = "counters (pma error counters, hw_counters retransmission and CQE errors) and ethtool pause, discard and PHY error counters, divided by manifest.json uptime_s; peers are the same counter of the same port (device:port or netdev) on every node of the class",
		.remediation = "Look at that port first: its cable or transceiver (mlxlink -m -e -c, swap the cable), its switch port, or for pause the receiver that cannot drain; the same counter on its peers shows what normal is.",
		.check = fleet_counters,
	},
	{ 0 },
};

int rules_run_fleet(sqlite3 *db, const int64_t *ids, size_t n)
{
	const struct rule *r;
	size_t i;
	int rc = 0;

	if (db_run(db, "CREATE TEMP TABLE IF NOT EXISTS todo_rule (bundle_id "
		   "INTEGER PRIMARY KEY); DELETE FROM todo_rule") < 0 ||
	    db_run(db, "BEGIN") < 0)
		return -1;
	for (i = 0; i < n; i++) {
		db_exec(db, "INSERT OR IGNORE INTO todo_rule VALUES (?)", "i",
			ids[i]);
		db_exec(db, "DELETE FROM finding_evidence WHERE finding_id IN "
			"(SELECT id FROM findings WHERE bundle_id = ? AND (layer = "
			"'fleet' OR (rule = 'HCA_MISSING' AND component = "
			"'fleet')))", "i", ids[i]);
		db_exec(db, "DELETE FROM findings WHERE bundle_id = ? AND (layer "
			"= 'fleet' OR (rule = 'HCA_MISSING' AND component = "
			"'fleet'))", "i", ids[i]);
	}
	for (r = rules_fleet; r->id && !rc; r++) {
		struct rctx c = { db, r };

		rc = r->check(&c);
	}
	if (!rc)
		rc = fleet_hca_missing(&(struct rctx){ db, rules_fleet });
	db_run(db, rc ? "ROLLBACK" : "COMMIT");
	return rc;
}
