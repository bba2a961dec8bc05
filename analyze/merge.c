/* merge: copy every bundle of other databases into one (rdma-analyze merge
 * --db OUT DB...), for fleets loaded on several machines (a database per
 * rack) and analyzed together.
 *
 * A bundle is known by its SHA-256: one already in OUT is skipped, so
 * merging twice changes nothing.  Nodes are matched by (name, machine_id),
 * bundles get new ids in OUT, and every table with a bundle_id column is
 * copied with the ids remapped; the tables are read from OUT's own schema,
 * so a table added by a later migration is merged without code here.
 * The shared sets of schema/012 (key sets, row sets) are found in OUT or
 * added by their digest, and the bundles' references to them remapped
 * (store_merge(), store.c).
 * Findings are not copied: the merged bundles are diagnosed again in OUT,
 * as `load` does, because fleet and history checks compare a bundle with
 * the others of its node and fleet, which only OUT holds together.
 * Inputs must have OUT's schema version (load them with this rdma-analyze
 * first, which migrates them).  Its command line is cmd-merge.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze.h"
#include "buf.h"
#include "db.h"
#include "log.h"
#include "merge.h"
#include "rules.h"
#include "store.h"
#include "util.h"

/* rows made by diagnosing, not by loading: recomputed in OUT */
static const char *const derived[] = {
	"findings", "finding_evidence", "skipped", NULL,
};

struct merge_stats {
	unsigned merged, duplicate, failed;
	int64_t *ids;		/* OUT's ids of the bundles merged */
	size_t n;
};

static int is_derived(const char *t)
{
	const char *const *d;

	for (d = derived; *d; d++)
		if (!strcmp(*d, t))
			return 1;
	return 0;
}

/* '"a","b",...': the columns of one of OUT's tables, as SQL; their count
 * (names with a quote are left out: none of ours has one) */
static int columns(sqlite3 *db, const char *table, struct buf *cols,
		   int *has_bundle_id)
{
	sqlite3_stmt *st;
	int n = 0;

	*has_bundle_id = 0;
	if (sqlite3_prepare_v2(db, "SELECT name FROM pragma_table_info(?, 'main')", -1,
			       &st, NULL) != SQLITE_OK)
		return error("database: %s", sqlite3_errmsg(db));
	sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *c = (const char *)sqlite3_column_text(st, 0);

		if (!c || strchr(c, '"'))
			continue;
		if (!strcmp(c, "bundle_id"))
			*has_bundle_id = 1;
		buf_addf(cols, "%s\"%s\"", n++ ? "," : "", c);
	}
	sqlite3_finalize(st);
	return n;
}

/* OUT's node for the source's node (name, machine_id), made if new */
static int64_t node_for(sqlite3 *db, int64_t src_node)
{
	int64_t id;

	id = db_int(db, "SELECT m.id FROM main.nodes m, src.nodes s WHERE "
		    "s.id = ? AND m.name = s.name AND m.machine_id IS "
		    "s.machine_id", "i", src_node);
	if (id)
		return id;
	if (db_exec(db, "INSERT INTO main.nodes (name, machine_id) SELECT "
		    "name, machine_id FROM src.nodes WHERE id = ?", "i",
		    src_node) < 0)
		return -1;
	return sqlite3_last_insert_rowid(db);
}

/* the bundles of src not in OUT yet: rows in bundles, ids in temp.bmap */
static int merge_bundles(sqlite3 *db, const char *bcols,
			 struct merge_stats *ms)
{
	sqlite3_stmt *st, *ins = NULL;
	struct buf sql = BUF_INIT;
	int rc = 0;

	/* bcols without id and node_id, which are remapped */
	buf_addf(&sql, "INSERT INTO main.bundles (node_id, %s) SELECT ?, %s "
		 "FROM src.bundles WHERE id = ?", bcols, bcols);
	if (sqlite3_prepare_v2(db, sql.buf, -1, &ins, NULL) != SQLITE_OK) {
		rc = error("database: %s", sqlite3_errmsg(db));
		goto out;
	}
	if (sqlite3_prepare_v2(db, "SELECT s.id, s.node_id, (SELECT m.id FROM "
			       "main.bundles m WHERE m.sha256 = s.sha256) FROM "
			       "src.bundles s ORDER BY s.id", -1, &st,
			       NULL) != SQLITE_OK) {
		rc = error("database: %s", sqlite3_errmsg(db));
		goto out;
	}
	while (sqlite3_step(st) == SQLITE_ROW) {
		int64_t old = sqlite3_column_int64(st, 0), node, id;

		if (sqlite3_column_type(st, 2) != SQLITE_NULL) {
			ms->duplicate++;
			continue;
		}
		node = node_for(db, sqlite3_column_int64(st, 1));
		if (node < 0) {
			rc = -1;
			break;
		}
		sqlite3_reset(ins);
		sqlite3_bind_int64(ins, 1, node);
		sqlite3_bind_int64(ins, 2, old);
		if (sqlite3_step(ins) != SQLITE_DONE) {
			rc = error("database: %s", sqlite3_errmsg(db));
			break;
		}
		id = sqlite3_last_insert_rowid(db);
		db_exec(db, "INSERT INTO temp.bmap VALUES (?, ?)", "ii", old, id);
		ms->ids = xrealloc(ms->ids, (ms->n + 1) * sizeof(*ms->ids));
		ms->ids[ms->n++] = id;
		ms->merged++;
	}
	sqlite3_finalize(st);
out:
	sqlite3_finalize(ins);
	buf_release(&sql);
	return rc;
}

/* every other table with a bundle_id: the rows of the mapped bundles */
static int merge_tables(sqlite3 *db)
{
	sqlite3_stmt *st;
	int rc = 0;

	if (sqlite3_prepare_v2(db, "SELECT m.name FROM main.sqlite_master m "
			       "WHERE m.type = 'table' AND m.name NOT LIKE "
			       "'sqlite_%' AND m.name NOT IN ('nodes', "
			       "'bundles') AND EXISTS (SELECT 1 FROM "
			       "src.sqlite_master s WHERE s.type = 'table' AND "
			       "s.name = m.name) ORDER BY m.name", -1, &st,
			       NULL) != SQLITE_OK)
		return error("database: %s", sqlite3_errmsg(db));
	while (rc == 0 && sqlite3_step(st) == SQLITE_ROW) {
		const char *t = (const char *)sqlite3_column_text(st, 0);
		struct buf cols = BUF_INIT, sel = BUF_INIT, sql = BUF_INIT;
		int has_bid, n;

		if (!t || strchr(t, '"') || is_derived(t) || store_is_shared(t))
			continue;
		n = columns(db, t, &cols, &has_bid);
		if (n < 0)
			rc = -1;
		if (n <= 0 || !has_bid)
			goto next;
		/* the same columns, bundle_id taken from the map */
		buf_addstr(&sel, cols.buf);
		buf_addf(&sql, "INSERT INTO main.\"%s\" (%s) SELECT ", t, cols.buf);
		{
			char *p = strstr(sel.buf, "\"bundle_id\"");
			size_t at = (size_t)(p - sel.buf);

			buf_add(&sql, sel.buf, at);
			buf_addstr(&sql, "temp.bmap.new");
			buf_addstr(&sql, p + strlen("\"bundle_id\""));
		}
		buf_addf(&sql, " FROM (SELECT * FROM src.\"%s\") AS s JOIN "
			 "temp.bmap ON s.bundle_id = temp.bmap.old", t);
		if (db_run(db, sql.buf) < 0)
			rc = -1;
next:
		buf_release(&cols);
		buf_release(&sel);
		buf_release(&sql);
	}
	sqlite3_finalize(st);
	return rc;
}

static int merge_one(sqlite3 *db, const char *file, struct merge_stats *ms)
{
	struct buf bcols = BUF_INIT;
	int64_t v, mine = db_version(db);
	int rc = -1, has_bid;

	if (access(file, R_OK) < 0)
		return error("cannot read '%s': %s", file, strerror(errno));
	if (db_exec(db, "ATTACH DATABASE ? AS src", "s", file) < 0)
		return error("'%s' cannot be attached", file);
	v = db_int(db, "PRAGMA src.user_version", NULL);
	if (v != mine || !db_int(db, "SELECT count(*) FROM src.sqlite_master "
				 "WHERE name = 'bundles'", NULL)) {
		error("'%s' is not an rdma-analyze database of schema %lld "
		      "(it has %lld): load it with this rdma-analyze first",
		      file, (long long)mine, (long long)v);
		goto detach;
	}
	/* its rows are copied by names this rdma-analyze knows: no object
	 * of anyone else's may answer to them */
	if (db_schema_check(db, "src", file) < 0)
		goto detach;
	/* the bundles' columns but id and node_id */
	if (columns(db, "bundles", &bcols, &has_bid) <= 0)
		goto detach;
	{
		struct buf b = BUF_INIT;
		char *s = bcols.buf, *e;

		while (*s) {
			e = strchr(s, ',');
			if (strncmp(s, "\"id\"", 4) && strncmp(s, "\"node_id\"", 9))
				buf_addf(&b, "%s%.*s", b.len ? "," : "",
					 (int)(e ? (size_t)(e - s) : strlen(s)), s);
			s = e ? e + 1 : s + strlen(s);
		}
		buf_release(&bcols);
		bcols = b;
	}
	if (db_run(db, "BEGIN IMMEDIATE") < 0)
		goto detach;
	if (db_run(db, "CREATE TEMP TABLE IF NOT EXISTS bmap (old INTEGER "
		   "PRIMARY KEY, new INTEGER); DELETE FROM temp.bmap") < 0 ||
	    merge_bundles(db, bcols.buf, ms) < 0 || merge_tables(db) < 0 ||
	    store_merge(db) < 0) {
		db_run(db, "ROLLBACK");
		goto detach;
	}
	rc = db_run(db, "COMMIT");
detach:
	if (db_run(db, "DETACH DATABASE src") < 0)
		rc = -1;
	buf_release(&bcols);
	return rc;
}

int merge_dbs(const char *out, char *const *dbs, int n)
{
	struct merge_stats ms = { 0 };
	sqlite3 *db;
	int i, rc = EXIT_OK;

	db = db_open(out);
	if (!db)
		return EXIT_INPUT;
	if (thresholds_load(db, NULL) < 0) {
		db_close(db);
		return EXIT_INPUT;
	}
	for (i = 0; i < n; i++) {
		if (merge_one(db, dbs[i], &ms) < 0) {
			ms.failed++;
			rc = EXIT_INPUT;
		}
	}
	if (ms.n && rules_run(db, ms.ids, ms.n) < 0)
		rc = EXIT_INPUT;
	fprintf(stderr, "rdma-analyze: %u bundles merged, %u already in %s, %u "
		"databases failed; %lld nodes, %lld bundles in the database\n",
		ms.merged, ms.duplicate, out, ms.failed,
		(long long)db_int(db, "SELECT count(*) FROM nodes", NULL),
		(long long)db_int(db, "SELECT count(*) FROM bundles", NULL));
	free(ms.ids);
	db_close(db);
	return rc;
}
