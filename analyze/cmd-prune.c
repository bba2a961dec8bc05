/* cmd-prune: `rdma-analyze prune --db FILE --keep N | --keep-days D`, the
 * older bundles of each node deleted with every row of theirs, then the
 * space reclaimed; and prune_db(), which `load --keep` runs after a load
 * (analyze.h).
 *
 * What stays, per node (bundles of one nodes row, in the history's order:
 * collected_at, then id):
 *   - the newest N (--keep), or those collected within D days of the
 *     node's newest bundle (--keep-days; of the newest, not of now: a node
 *     whose timer stopped keeps its last days instead of losing them all),
 *     or both (either keeps a bundle); a bundle whose collected_at is not a
 *     time stays with --keep-days (its age is unknown);
 *   - the bundle a kept bundle's history findings compare it with: the one
 *     before it, and for COUNTER_GROWING (whose "previous interval" rate is
 *     the one before that) the two before it.  One step only: a bundle kept
 *     as a previous does not keep its own previous, or a node whose counter
 *     grows at every snapshot would never lose a bundle;
 *   - the bundles the last pairs run names (its hosts' bundles, its fabric
 *     scan, the bundles of its suspects' findings).
 * The rest goes in one transaction: interrupted at any point, the database
 * is the one before or the one after.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analyze.h"
#include "buf.h"
#include "db.h"
#include "json.h"
#include "log.h"
#include "store.h"
#include "util.h"

static const char usage_text[] =
"usage: rdma-analyze prune --db FILE --keep N | --keep-days D [options]\n"
"\n"
"Delete the older bundles of each node, with every row of theirs, then\n"
"reclaim the space (VACUUM).  Kept: the newest N of each node (--keep), or\n"
"those collected within D days of the node's newest (--keep-days), or\n"
"both; and always the bundle before a kept bundle with history findings\n"
"(two before, for COUNTER_GROWING) and the bundles the last pairs run\n"
"names.  Nodes left without a bundle go too.  One transaction:\n"
"interrupted, the database is the one before or the one after.\n"
"  --db FILE        the database (it must exist)\n"
"  --keep N         the newest N bundles of each node, 1 or more\n"
"  --keep-days D    those within D days (1 or more) of the node's newest\n"
"  -n, --dry-run    list the bundles that would go, change nothing\n"
"  --no-vacuum      leave the freed pages in the file (the next load\n"
"                   reuses them) instead of rewriting it\n"
"  -f, --format F   text (default) or json\n"
"  --json           the same as --format json\n"
"  -q, --quiet      no summary line\n"
"\n"
"Exit status: 0 pruned (or nothing to prune); 3 usage error; 4 the\n"
"database cannot be read or written (nothing was deleted).\n";

static const struct option opts[] = {
	{ "db", required_argument, NULL, 'd' },
	{ "keep", required_argument, NULL, 'k' },
	{ "keep-days", required_argument, NULL, 'D' },
	{ "dry-run", no_argument, NULL, 'n' },
	{ "no-vacuum", no_argument, NULL, 'V' },
	{ "format", required_argument, NULL, 'f' },
	{ "json", no_argument, NULL, 'j' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

int prune_arg(const char *cmd, const char *opt, const char *arg,
	      long long *out)
{
	if (parse_ll(arg, 10, 1, 1000000, out) < 0) {
		usage_error(cmd, "invalid %s '%s' (a whole number from 1 to "
			    "1000000)", opt, arg);
		return -1;
	}
	return 0;
}

/* temp.prune_seq: every bundle, its rank in its node (1 = the newest), the
 * one and two before it, and why it stays (0: it goes; 1 --keep or
 * --keep-days; 2 a kept bundle's history findings compare with it; 3 the
 * last pairs run names it) */
static int select_bundles(sqlite3 *db, const struct prune_args *a)
{
	if (db_run(db, "DROP TABLE IF EXISTS temp.prune_seq;"
		   "CREATE TEMP TABLE prune_seq (bundle_id INTEGER PRIMARY KEY, "
		   "node_id INTEGER, rank INTEGER, prev1 INTEGER, prev2 INTEGER, "
		   "keep INTEGER)") < 0)
		return -1;
	/* the history's order (history.c seq_build), newest first */
	if (db_exec(db, "INSERT INTO temp.prune_seq SELECT id, node_id, "
		    "row_number() OVER w, lead(id, 1) OVER w, lead(id, 2) OVER w, "
		    "(?1 > 0 AND row_number() OVER w <= ?1) OR (?2 > 0 AND "
		    "(julianday(collected_at) IS NULL OR julianday(collected_at) "
		    ">= max(julianday(collected_at)) OVER (PARTITION BY node_id) "
		    "- ?2)) FROM main.bundles WINDOW w AS (PARTITION BY node_id "
		    "ORDER BY coalesce(collected_at, '') DESC, id DESC)", "ii",
		    (int64_t)a->keep, (int64_t)a->keep_days) < 0)
		return -1;
	/* one step: only the bundles the policy keeps protect theirs */
	if (db_run(db, "UPDATE temp.prune_seq SET keep = 2 WHERE keep = 0 AND "
		   "bundle_id IN (SELECT s.prev1 FROM temp.prune_seq s WHERE "
		   "s.keep = 1 AND EXISTS (SELECT 1 FROM main.findings f WHERE "
		   "f.bundle_id = s.bundle_id AND f.layer = 'history') UNION "
		   "SELECT s.prev2 FROM temp.prune_seq s WHERE s.keep = 1 AND "
		   "EXISTS (SELECT 1 FROM main.findings f WHERE f.bundle_id = "
		   "s.bundle_id AND f.rule = 'COUNTER_GROWING'))") < 0)
		return -1;
	return db_run(db, "UPDATE temp.prune_seq SET keep = 3 WHERE keep = 0 AND "
		      "bundle_id IN (SELECT bundle_id FROM main.pair_hosts UNION "
		      "SELECT scan_bundle FROM main.pair_runs UNION SELECT "
		      "f.bundle_id FROM main.pair_suspects p JOIN main.findings f "
		      "ON f.id = p.finding_id)");
}

/* the tables with a column pointing at rows of ref ('bundles' or
 * 'findings'): the column named bundle_id / finding_id, or any column with
 * a foreign key to it; "table\x1fcolumn\n" each, from the schema itself */
static int referencing(sqlite3 *db, const char *ref, const char *col,
		       struct buf *out)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db, "SELECT m.name, p.name FROM main.sqlite_master "
			       "m JOIN pragma_table_info(m.name, 'main') p WHERE "
			       "m.type = 'table' AND m.name NOT LIKE 'sqlite\\_%' "
			       "ESCAPE '\\' AND m.name <> ?1 AND (p.name = ?2 OR "
			       "EXISTS (SELECT 1 FROM pragma_foreign_key_list("
			       "m.name, 'main') k WHERE k.\"from\" = p.name AND "
			       "k.\"table\" = ?1)) ORDER BY m.name, p.name", -1,
			       &st, NULL) != SQLITE_OK)
		return error("database: %s", sqlite3_errmsg(db));
	sqlite3_bind_text(st, 1, ref, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, col, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *t = (const char *)sqlite3_column_text(st, 0);
		const char *c = (const char *)sqlite3_column_text(st, 1);

		/* names we quote: none of ours has a quote */
		if (t && c && !strchr(t, '"') && !strchr(c, '"'))
			buf_addf(out, "%s\x1f%s\n", t, c);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : error("database: %s", sqlite3_errmsg(db));
}

/* DELETE FROM each "table\x1fcolumn" of list WHERE column IN (sel) */
static int delete_from(sqlite3 *db, const char *list, const char *sel)
{
	struct buf sql = BUF_INIT;
	const char *p, *us, *nl;
	int rc = 0;

	for (p = list; p && *p && !rc; p = nl + 1) {
		us = strchr(p, 0x1f);
		nl = strchr(p, '\n');
		buf_reset(&sql);
		buf_addf(&sql, "DELETE FROM main.\"%.*s\" WHERE \"%.*s\" IN (%s)",
			 (int)(us - p), p, (int)(nl - us - 1), us + 1, sel);
		rc = db_run(db, sql.buf);
	}
	buf_release(&sql);
	return rc;
}

/* THE deletion of bundles: those of temp.prune_seq with keep = 0, every
 * row of theirs in every table, inside the caller's transaction.  The
 * tables are read from the schema (every column named bundle_id or
 * finding_id, or with a foreign key to bundles or findings), so a table a
 * later migration adds is never forgotten.  Foreign keys are checked at
 * COMMIT (defer_foreign_keys), so the order of the tables does not
 * matter. */
static int delete_bundles(sqlite3 *db)
{
	struct buf byf = BUF_INIT, byb = BUF_INIT;
	int rc;

	rc = db_run(db, "PRAGMA defer_foreign_keys = ON");
	if (!rc)
		rc = referencing(db, "findings", "finding_id", &byf);
	if (!rc)
		rc = referencing(db, "bundles", "bundle_id", &byb);
	/* rows of the bundles' findings (finding_evidence), then every row
	 * of the bundles (findings among them), then the bundles */
	if (!rc)
		rc = delete_from(db, byf.buf, "SELECT f.id FROM main.findings f "
				 "JOIN temp.prune_seq s ON s.bundle_id = "
				 "f.bundle_id WHERE s.keep = 0");
	if (!rc)
		rc = delete_from(db, byb.buf, "SELECT bundle_id FROM "
				 "temp.prune_seq WHERE keep = 0");
	if (!rc)
		rc = db_run(db, "DELETE FROM main.bundles WHERE id IN (SELECT "
			    "bundle_id FROM temp.prune_seq WHERE keep = 0)");
	/* the key sets and row sets several bundles shared (store.h) that
	 * no bundle left refers to, in this transaction */
	if (!rc && evidence_gc(db) < 0)
		rc = -1;
	if (!rc)
		rc = db_run(db, "DELETE FROM main.nodes WHERE NOT EXISTS (SELECT "
			    "1 FROM main.bundles b WHERE b.node_id = nodes.id)");
	buf_release(&byf);
	buf_release(&byb);
	return rc;
}

static void count(sqlite3 *db, struct prune_stats *st)
{
	st->bundles = db_int(db, "SELECT count(*) FROM temp.prune_seq", NULL);
	st->gone = db_int(db, "SELECT count(*) FROM temp.prune_seq WHERE "
			  "keep = 0", NULL);
	st->kept_prev = db_int(db, "SELECT count(*) FROM temp.prune_seq WHERE "
			       "keep = 2", NULL);
	st->kept_pairs = db_int(db, "SELECT count(*) FROM temp.prune_seq WHERE "
				"keep = 3", NULL);
	/* the nodes with no bundle left: those whose bundles all go, and
	 * any that had none */
	st->nodes_gone = db_int(db, "SELECT count(*) FROM main.nodes n WHERE NOT "
				"EXISTS (SELECT 1 FROM temp.prune_seq s WHERE "
				"s.node_id = n.id AND s.keep > 0)", NULL);
}

static int64_t file_bytes(sqlite3 *db)
{
	return db_int(db, "SELECT page_count * page_size FROM "
		      "pragma_page_count(), pragma_page_size()", NULL);
}

/* s onto out, a newline or tab of a hostile name as '?': one line a
 * bundle ("?" for NULL) */
static void add_field(struct buf *out, const char *s, const char *sep)
{
	for (s = s ? s : "?"; *s; s++)
		buf_addch(out, *s == '\n' || *s == '\t' ? '?' : *s);
	buf_addstr(out, sep);
}

/* the bundles that would go, for --dry-run: "node collected_at file" a
 * line, or the JSON's array "removed_bundles" */
static void list_gone(sqlite3 *db, struct json *j, struct buf *text)
{
	sqlite3_stmt *st;

	st = db_query(db, "SELECT n.name, b.collected_at, b.file, b.sha256 FROM "
		      "temp.prune_seq s JOIN main.bundles b ON b.id = s.bundle_id "
		      "JOIN main.nodes n ON n.id = b.node_id WHERE s.keep = 0 "
		      "ORDER BY n.name, b.node_id, s.rank DESC", NULL);
	while (sqlite3_step(st) == SQLITE_ROW) {
		if (j) {
			json_obj_open(j, NULL);
			json_str(j, "node", db_col_null(st, 0));
			json_str(j, "collected_at", db_col_null(st, 1));
			json_str(j, "file", db_col_null(st, 2));
			json_str(j, "sha256", db_col_null(st, 3));
			json_obj_close(j);
		} else {
			add_field(text, db_col_null(st, 0), " ");
			add_field(text, db_col_null(st, 1), " ");
			add_field(text, db_col_null(st, 2), "\n");
		}
	}
	db_done(st);
}

static int prune_run(sqlite3 *db, const struct prune_args *a,
		     struct prune_stats *st, struct json *j, struct buf *text)
{
	int64_t t0 = mono_ms();

	memset(st, 0, sizeof(*st));
	st->bytes_before = file_bytes(db);
	/* the write lock first: what is selected is what is deleted */
	if (db_run(db, a->dry_run ? "BEGIN" : "BEGIN IMMEDIATE") < 0)
		return -1;
	if (select_bundles(db, a) < 0)
		goto fail;
	count(db, st);
	if (a->dry_run) {
		if (j)
			json_arr_open(j, "removed_bundles");
		list_gone(db, j, text);
		if (j)
			json_arr_close(j);
		db_run(db, "ROLLBACK");
		st->bytes_after = st->bytes_before;
		return 0;
	}
	if ((st->gone || st->nodes_gone) && delete_bundles(db) < 0)
		goto fail;
	if (db_run(db, "COMMIT") < 0)
		goto fail;
	/* the history caches each bundle's place (history.c hist_seq, by
	 * the bundle count): no longer true */
	db_run(db, "DROP TABLE IF EXISTS temp.hist_seq; DROP TABLE temp.prune_seq");
	st->delete_ms = mono_ms() - t0;
	if (st->gone && a->vacuum) {
		t0 = mono_ms();
		/* atomic too: killed in the middle, the file is the one
		 * before; the WAL it wrote is folded in and truncated.  It
		 * needs free disk space for a copy of what stays: failing,
		 * the deletion stands and later loads reuse the pages */
		if (sqlite3_exec(db, "VACUUM; PRAGMA wal_checkpoint(TRUNCATE)",
				 NULL, NULL, NULL) != SQLITE_OK)
			warning("the bundles are deleted, but VACUUM failed (%s): "
				"the space stays in the file, for later loads",
				sqlite3_errmsg(db));
		else
			st->vacuum_ms = mono_ms() - t0;
	}
	st->bytes_after = file_bytes(db);
	return 0;
fail:
	/* SQLite rolls back by itself on some errors (a full disk) */
	if (!sqlite3_get_autocommit(db))
		db_run(db, "ROLLBACK");
	return -1;
}

/* What SQLite keeps aside goes to temporary files (SQLITE_TMPDIR, else
 * /var/tmp or /tmp) for the prune, not to memory as db_open()'s
 * temp_store has it: the statement journals of the deletion (179 MiB of
 * RSS to delete 4,494 of 9,000 bundles) and VACUUM's copy of what stays
 * (736 MiB for a 674 MiB result) grow with the database */
int prune_db(sqlite3 *db, const struct prune_args *a, struct prune_stats *st,
	     struct json *j, struct buf *text)
{
	int rc;

	if (db_run(db, "PRAGMA temp_store = FILE") < 0)
		return -1;
	rc = prune_run(db, a, st, j, text);
	db_run(db, "PRAGMA temp_store = MEMORY");
	return rc;
}

/* the --db of prune is looked at read-only before db_open(), which makes a
 * missing file and migrates a foreign one: nothing is made or changed in a
 * file that is not an rdma-analyze database */
static int db_check(const char *file, int write)
{
	struct stat sb;
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	int ours = -1;

	if (stat(file, &sb) < 0)
		return error("cannot open database '%s': %s", file, strerror(errno));
	if (!S_ISREG(sb.st_mode))
		return error("database '%s' is not a regular file", file);
	if (write && access(file, W_OK) < 0)
		return error("database '%s' is read-only: %s", file, strerror(errno));
	if (sqlite3_open_v2(file, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
	    sqlite3_prepare_v2(db, "SELECT count(*) FROM sqlite_master WHERE "
			       "type = 'table' AND name IN ('bundles', 'nodes')",
			       -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		ours = sqlite3_column_int(st, 0) == 2;
	sqlite3_finalize(st);
	sqlite3_close(db);
	if (ours < 0)
		return error("'%s' is not an SQLite database", file);
	if (!ours)
		return error("'%s' is not an rdma-analyze database (no bundles "
			     "table): nothing pruned", file);
	return 0;
}

void prune_summary(const char *file, const struct prune_args *a,
		   const struct prune_stats *st)
{
	fprintf(stderr, "rdma-analyze: %s %lld of %lld bundles (%lld kept as "
		"a finding's previous, %lld for the pairs run), %lld nodes left "
		"with none", a->dry_run ? "would remove" : "removed",
		st->gone, st->bundles, st->kept_prev, st->kept_pairs,
		st->nodes_gone);
	if (!a->dry_run && a->vacuum && st->gone)
		fprintf(stderr, ", in %lld ms; %s %.1f MiB -> %.1f MiB (VACUUM: "
			"%lld ms)", st->delete_ms, file,
			st->bytes_before / 1048576.0,
			st->bytes_after / 1048576.0, st->vacuum_ms);
	else if (!a->dry_run && st->gone)
		fprintf(stderr, ", in %lld ms; %s %.1f MiB, not vacuumed (later "
			"loads reuse the freed pages)", st->delete_ms, file,
			st->bytes_after / 1048576.0);
	fputc('\n', stderr);
}

int cmd_prune(int argc, char **argv)
{
	struct prune_args a = { .vacuum = 1 };
	struct prune_stats st;
	struct buf out = BUF_INIT;
	struct json j;
	const char *file = NULL;
	sqlite3 *db;
	int c, rc, fmt = FORMAT_TEXT, quiet = 0;

	optind = 1;
	while ((c = cmd_getopt("prune", argc, argv, "+:nf:qh", opts)) != -1) {
		switch (c) {
		case 'd': file = optarg; break;
		case 'k':
			if (prune_arg("prune", "--keep", optarg, &a.keep) < 0)
				return EXIT_USAGE;
			break;
		case 'D':
			if (prune_arg("prune", "--keep-days", optarg,
				      &a.keep_days) < 0)
				return EXIT_USAGE;
			break;
		case 'n': a.dry_run = 1; break;
		case 'V': a.vacuum = 0; break;
		case 'f':
			if ((fmt = format_arg("prune", optarg,
					      text_json_formats)) < 0)
				return EXIT_USAGE;
			break;
		case 'j': fmt = FORMAT_JSON; break;
		case 'q': quiet = 1; break;
		case 'h':
			fputs(usage_text, stdout);
			return EXIT_OK;
		default:
			return EXIT_USAGE;
		}
	}
	if (!file)
		return usage_error("prune", "--db FILE is required");
	if (!a.keep && !a.keep_days)
		return usage_error("prune", "--keep N or --keep-days D is required");
	if (optind < argc)
		return usage_error("prune", "unexpected argument '%s'", argv[optind]);
	if (db_check(file, !a.dry_run) < 0)
		return EXIT_INPUT;
	db = db_open(file);
	if (!db)
		return EXIT_INPUT;
	if (fmt == FORMAT_JSON) {
		json_init(&j, &out, 1);
		json_obj_open(&j, NULL);
		json_str(&j, "database", file);
		json_bool(&j, "dry_run", a.dry_run);
	}
	rc = prune_db(db, &a, &st, fmt == FORMAT_JSON ? &j : NULL, &out);
	if (rc == 0 && fmt == FORMAT_JSON) {
		json_int(&j, "bundles", st.bundles);
		json_int(&j, "removed", st.gone);
		json_int(&j, "kept_as_previous", st.kept_prev);
		json_int(&j, "kept_for_pairs", st.kept_pairs);
		json_int(&j, "nodes_removed", st.nodes_gone);
		json_int(&j, "bytes_before", st.bytes_before);
		json_int(&j, "bytes_after", st.bytes_after);
		json_obj_close(&j);
		json_end(&j);
	}
	if (rc == 0) {
		fwrite(out.buf ? out.buf : "", 1, out.len, stdout);
		if (!quiet)
			prune_summary(file, &a, &st);
	}
	buf_release(&out);
	db_close(db);
	return rc < 0 ? EXIT_INPUT : EXIT_OK;
}
