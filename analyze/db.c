/* db: SQLite access with cached, bound statements */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "db.h"
#include "log.h"
#include "store.h"
#include "util.h"

/* The statement cache: one prepared statement per (connection, SQL text),
 * kept for the process's life (load runs a few hundred statements, each
 * thousands of times).  Keyed by the text, not by its address: a statement
 * built in a buffer and then another built in the same buffer are two
 * statements.  Open addressing over CACHE_SLOTS slots, at most CACHE_MAX
 * of them used so that a probe stays short.
 *
 * A full cache does not evict: a statement db_query() handed out is
 * stepped across other db_* calls (a rule's loop, a report's nested
 * queries), and one that is not yet stepped or already done is not "busy"
 * to SQLite, so no eviction could tell it is still held.  Past CACHE_MAX,
 * a statement is prepared for the one call and finalized after it (by
 * db_done() for db_query()'s): slower, never wrong.  The program's own
 * statements are far fewer than CACHE_MAX. */
#define CACHE_SLOTS 2048
#define CACHE_MAX 1536

struct cached {
	sqlite3 *db;
	char *sql;		/* our copy: the key */
	size_t len;
	uint64_t hash;
	sqlite3_stmt *st;
};

static struct cached cache[CACHE_SLOTS];
static size_t cached_n;

/* statements prepared past CACHE_MAX that db_query() handed out, until
 * db_done() (or db_close()) finalizes them */
static sqlite3_stmt **loose;
static size_t loose_n, loose_alloc;

int db_run(sqlite3 *db, const char *sql)
{
	char *msg = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		error("database: %s", msg ? msg : sqlite3_errmsg(db));
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

int db_version(sqlite3 *db)
{
	sqlite3_stmt *st;
	int v = -1;

	if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL))
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* the step in C after migration n (1-based) applied its SQL: 012 moves
 * the counter rows into their key sets and 18 tables' rows into row
 * sets, 014 klog's, limits' and environment's (store.c) */
static int migrate_c(sqlite3 *db, int n)
{
	return n == 12 || n == 14 ? store_upgrade(db, n) : 0;
}

/* the migrations from version from up, in one write transaction taken
 * before the version is read again: two processes that open a new
 * database at once both saw version 0, and the second ran the first
 * migration over the first's tables ("table nodes already exists") */
static int migrate(sqlite3 *db, int n)
{
	char pragma[64];
	int v, i;

	if (db_run(db, "BEGIN IMMEDIATE") < 0)
		return -1;
	v = db_version(db);
	for (i = v; i >= 0 && i < n; i++) {
		snprintf(pragma, sizeof(pragma), "PRAGMA user_version = %d", i + 1);
		if (db_run(db, db_migrations[i]) < 0 ||
		    migrate_c(db, i + 1) < 0 || db_run(db, pragma) < 0) {
			db_run(db, "ROLLBACK");
			return -1;
		}
	}
	return db_run(db, "COMMIT");
}

/* a schema's objects, sorted, one "\x1etype\x1fname\x1ftable\x1fsql" each
 * (the statistics ANALYZE keeps are data and may be there or not) */
static int schema_rows(sqlite3 *db, const char *schema, struct buf *out)
{
	char sql[256];
	sqlite3_stmt *st;
	int rc;

	snprintf(sql, sizeof(sql), "SELECT type, name, tbl_name, "
		 "coalesce(sql, '') FROM \"%s\".sqlite_master WHERE name NOT "
		 "LIKE 'sqlite\\_stat%%' ESCAPE '\\' ORDER BY type, name", schema);
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *c[4];
		int i;

		for (i = 0; i < 4; i++) {
			c[i] = (const char *)sqlite3_column_text(st, i);
			if (!c[i])
				c[i] = "";
		}
		buf_addf(out, "\x1e%s\x1f%s\x1f%s\x1f%s", c[0], c[1], c[2], c[3]);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* row (l bytes from its \x1e) is one of rows, whole */
static int has_row(const char *rows, const char *row, size_t l)
{
	size_t n = strlen(rows);
	const char *p = rows, *hit;

	while ((hit = memmem(p, n - (size_t)(p - rows), row, l))) {
		if (!hit[l] || hit[l] == 0x1e)
			return 1;
		p = hit + 1;
	}
	return 0;
}

/* the schema this rdma-analyze makes at version v (its first v migrations
 * in memory) into out */
static int schema_at(int v, struct buf *out)
{
	sqlite3 *m = NULL;
	int rc;

	rc = sqlite3_open(":memory:", &m) == SQLITE_OK && migrate(m, v) == 0 &&
	     schema_rows(m, "main", out) == 0 ? 0 : -1;
	sqlite3_close(m);
	return rc;
}

/* the schema this rdma-analyze makes, once */
static const char *schema_made(void)
{
	static struct buf ref = BUF_INIT;
	static int done;
	int n;

	if (done)
		return ref.buf;
	for (n = 0; db_migrations[n]; n++)
		;
	if (schema_at(n, &ref) < 0)
		die("cannot make the reference schema");
	done = 1;
	return ref.buf;
}

/* schema of db is ref (from schema_rows()), else an error naming file
 * and the first object that differs, after how */
static int schema_is(sqlite3 *db, const char *schema, const char *ref,
		     const char *file, const char *how)
{
	struct buf have = BUF_INIT;
	const char *p, *e;
	char what[200];
	int rc = 0;

	if (schema_rows(db, schema, &have) < 0) {
		buf_release(&have);
		return error("database '%s': its schema cannot be read", file);
	}
	if (!strcmp(have.buf ? have.buf : "", ref ? ref : ""))
		goto out;
	/* name the first object that is not as made here */
	*what = 0;
	for (p = have.buf; p && *p && !*what; p = e) {
		size_t l;

		e = strchr(p + 1, 0x1e);
		l = e ? (size_t)(e - p) : strlen(p);
		if (!e)
			e = p + l;
		if (!has_row(ref ? ref : "", p, l)) {
			const char *t = p + 1, *nm = strchr(t, 0x1f);

			snprintf(what, sizeof(what), "%.*s '%.*s'",
				 (int)(nm - t), t,
				 (int)strcspn(nm + 1, "\x1f"), nm + 1);
		}
	}
	rc = error("database '%s' is not as rdma-analyze makes it%s (%s): "
		   "refused", file, how, *what ? what : "objects are missing");
out:
	buf_release(&have);
	return rc;
}

int db_schema_check(sqlite3 *db, const char *schema, const char *file)
{
	return schema_is(db, schema, schema_made(), file, "");
}

/* before anything is written to it: a file at version v holds what this
 * rdma-analyze makes at v (v 0: nothing), so that neither a migration nor
 * a pragma touches someone else's SQLite file */
static int ours(sqlite3 *db, int v, int n, const char *file)
{
	struct buf ref = BUF_INIT;
	char how[64];
	int rc;

	if (v == n)
		return db_schema_check(db, "main", file);
	if (schema_at(v, &ref) < 0) {
		buf_release(&ref);
		return error("cannot make the schema of version %d", v);
	}
	snprintf(how, sizeof(how), " at its version %d", v);
	rc = schema_is(db, "main", ref.buf, file, how);
	buf_release(&ref);
	return rc;
}

sqlite3 *db_open(const char *file)
{
	sqlite3 *db = NULL;
	int v, n;

	/* one connection, used by one thread (load's readers never touch
	 * SQLite): its per-call mutexes and the allocator's statistics
	 * (a global mutex around every malloc) were a tenth of a load's
	 * writer time */
	static int configured;

	if (!configured) {
		sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
		configured = 1;
	}
	if (sqlite3_open_v2(file, &db, SQLITE_OPEN_READWRITE |
			    SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
			    NULL) != SQLITE_OK) {
		error("cannot open database '%s': %s", file,
		      db ? sqlite3_errmsg(db) : "out of memory");
		sqlite3_close(db);
		return NULL;
	}
	/* a database file is someone else's: nothing in it runs (no
	 * trigger fires, no function in its schema is trusted) and no
	 * statement may write its schema or pages behind SQLite's back */
	sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, NULL);
	sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
#ifdef SQLITE_DBCONFIG_TRUSTED_SCHEMA
	sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, NULL);
#endif
	/* writers queue (load, merge and diagnosis take BEGIN IMMEDIATE):
	 * another load's batch holds the lock for seconds */
	sqlite3_busy_timeout(db, DB_BUSY_MS);
	v = db_version(db);
	for (n = 0; db_migrations[n]; n++)
		;
	if (v < 0) {
		error("'%s' is not an SQLite database", file);
		goto bad;
	}
	if (v > n) {
		error("database '%s' has schema version %d, newer than this "
		      "rdma-analyze knows (%d): upgrade rdma-analyze", file, v, n);
		goto bad;
	}
	if (strcmp(file, ":memory:") && ours(db, v, n, file) < 0)
		goto bad;
	db_run(db, "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;"
	       "PRAGMA foreign_keys = ON; PRAGMA temp_store = MEMORY;");
	if (v < n && migrate(db, n) < 0)
		goto bad;
	if (v < n && strcmp(file, ":memory:") &&
	    db_schema_check(db, "main", file) < 0)
		goto bad;
	return db;
bad:
	sqlite3_close(db);
	return NULL;
}

/* where the text's probe starts: FNV-1a's multiply a word (8 bytes) at a
 * time, the high half folded back each step, the connection and length
 * mixed in.  A byte at a time, hashing the load's multi-row INSERTs
 * (up to a few KiB of text, once a call) was 1% of its instructions and
 * more of its time (a multiply's latency per byte) */
static uint64_t sql_hash(const sqlite3 *db, const char *sql, size_t len)
{
	uint64_t h = FNV1A_INIT ^ (uint64_t)(uintptr_t)db ^ len;
	uint64_t w;
	size_t i;

	for (i = 0; i + 8 <= len; i += 8) {
		memcpy(&w, sql + i, 8);
		h = fnv1a_word(h, w);
		h ^= h >> 32;
	}
	w = 0;
	memcpy(&w, sql + i, len - i);
	h = fnv1a_word(h, w);
	return h ^ (h >> 32);
}

static struct cached *slot_of(const sqlite3 *db, const char *sql, size_t len,
			      uint64_t h)
{
	size_t i = (size_t)(h % CACHE_SLOTS);
	struct cached *c;

	for (c = &cache[i]; c->db; c = &cache[i]) {
		if (c->db == db && c->hash == h && c->len == len &&
		    !memcmp(c->sql, sql, len))
			break;
		i = (i + 1) % CACHE_SLOTS;
	}
	return c;
}

/* drop the connection's statements; the others are put back in their
 * slots (a hole would cut the probe of an entry that moved past it) */
static void cache_drop(sqlite3 *db)
{
	struct cached *keep = xmalloc((cached_n + 1) * sizeof(*keep));
	size_t i, n = 0;

	for (i = 0; i < CACHE_SLOTS; i++) {
		if (!cache[i].db)
			continue;
		if (cache[i].db == db) {
			sqlite3_finalize(cache[i].st);
			free(cache[i].sql);
		} else {
			keep[n++] = cache[i];
		}
		memset(&cache[i], 0, sizeof(cache[i]));
	}
	for (i = 0; i < n; i++)
		*slot_of(keep[i].db, keep[i].sql, keep[i].len,
			 keep[i].hash) = keep[i];
	cached_n = n;
	free(keep);
}

void db_close(sqlite3 *db)
{
	size_t i = 0;

	cache_drop(db);
	while (i < loose_n) {
		if (sqlite3_db_handle(loose[i]) == db) {
			sqlite3_finalize(loose[i]);
			loose[i] = loose[--loose_n];
		} else {
			i++;
		}
	}
	sqlite3_close(db);
}

/* the statement of sql on db; *once is set when it is not cached (the
 * cache is full) and must be finalized after this use */
static sqlite3_stmt *prepare(sqlite3 *db, const char *sql, int *once)
{
	struct cached *c;
	sqlite3_stmt *st;
	uint64_t h;
	size_t len;

	len = strlen(sql);
	h = sql_hash(db, sql, len);
	c = slot_of(db, sql, len, h);
	if (c->db) {
		*once = 0;
		return c->st;
	}
	*once = cached_n >= CACHE_MAX;
	if (sqlite3_prepare_v3(db, sql, -1, *once ? 0 :
			       SQLITE_PREPARE_PERSISTENT, &st, NULL) != SQLITE_OK)
		die("SQL error: %s in: %.200s", sqlite3_errmsg(db), sql);
	if (*once)
		return st;
	c->db = db;
	c->sql = xstrdup(sql);
	c->len = len;
	c->hash = h;
	c->st = st;
	cached_n++;
	return st;
}

/* bind one argument per type letter ('n' takes none); text is copied
 * by SQLite unless the caller keeps it alive until the statement is reset
 * (keep = SQLITE_STATIC) */
static sqlite3_stmt *bind(sqlite3 *db, const char *sql, const char *types,
			  const union db_arg *a, sqlite3_destructor_type keep,
			  int *once)
{
	sqlite3_stmt *st = prepare(db, sql, once);
	int i;

	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	for (i = 0; types && types[i]; i++) {
		int k = i + 1;

		switch (types[i]) {
		case 'i':
			sqlite3_bind_int64(st, k, (a++)->i);
			break;
		case 'N':
			if (a->i < 0)
				sqlite3_bind_null(st, k);
			else
				sqlite3_bind_int64(st, k, a->i);
			a++;
			break;
		case 'd':
			sqlite3_bind_double(st, k, (a++)->d);
			break;
		case 'D':
			if (a->d < 0)
				sqlite3_bind_null(st, k);
			else
				sqlite3_bind_double(st, k, a->d);
			a++;
			break;
		case 's':
			if (a->s)
				sqlite3_bind_text(st, k, a->s, -1, keep);
			else
				sqlite3_bind_null(st, k);
			a++;
			break;
		case 'n':
			sqlite3_bind_null(st, k);
			break;
		default:
			die("db: bad type letter '%c'", types[i]);
		}
	}
	return st;
}

#define MAX_ARGS 64

static sqlite3_stmt *vbind(sqlite3 *db, const char *sql, const char *types,
			   va_list ap, int *once)
{
	union db_arg a[MAX_ARGS];
	size_t i, n = 0;

	for (i = 0; types && types[i]; i++) {
		if (n == MAX_ARGS)
			die("db: more than %d arguments", MAX_ARGS);
		switch (types[i]) {
		case 'i':
		case 'N':
			a[n++].i = va_arg(ap, int64_t);
			break;
		case 'd':
		case 'D':
			a[n++].d = va_arg(ap, double);
			break;
		case 's':
			a[n++].s = va_arg(ap, const char *);
			break;
		}
	}
	return bind(db, sql, types, a, SQLITE_TRANSIENT, once);
}

/* the end of a statement's use: reset for the next, or finalized when
 * it was prepared for this one use */
static void release(sqlite3_stmt *st, int once)
{
	if (once)
		sqlite3_finalize(st);
	else
		sqlite3_reset(st);
}

static int step_done(sqlite3 *db, sqlite3_stmt *st, int once)
{
	int rc;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		;
	if (rc != SQLITE_DONE)
		error("database: %s", sqlite3_errmsg(db));
	release(st, once);
	return rc == SQLITE_DONE ? 0 : -1;
}
int db_exec_args(sqlite3 *db, const char *sql, const char *types,
		 const union db_arg *a)
{
	sqlite3_stmt *st;
	int once;

	st = bind(db, sql, types, a, SQLITE_STATIC, &once);
	return step_done(db, st, once);
}

int db_vexec(sqlite3 *db, const char *sql, const char *types, va_list ap)
{
	sqlite3_stmt *st;
	int once;

	st = vbind(db, sql, types, ap, &once);
	return step_done(db, st, once);
}

int db_exec(sqlite3 *db, const char *sql, const char *types, ...)
{
	va_list ap;
	int rc;

	va_start(ap, types);
	rc = db_vexec(db, sql, types, ap);
	va_end(ap);
	return rc;
}

sqlite3_stmt *db_query(sqlite3 *db, const char *sql, const char *types, ...)
{
	sqlite3_stmt *st;
	va_list ap;
	int once;

	va_start(ap, types);
	st = vbind(db, sql, types, ap, &once);
	va_end(ap);
	if (once) {
		if (loose_n == loose_alloc) {
			loose_alloc = loose_alloc ? 2 * loose_alloc : 16;
			loose = xrealloc(loose, loose_alloc * sizeof(*loose));
		}
		loose[loose_n++] = st;
	}
	return st;
}

void db_done(sqlite3_stmt *st)
{
	size_t i;

	for (i = 0; i < loose_n; i++) {
		if (loose[i] == st) {
			loose[i] = loose[--loose_n];
			sqlite3_finalize(st);
			return;
		}
	}
	sqlite3_reset(st);
}

int64_t db_int(sqlite3 *db, const char *sql, const char *types, ...)
{
	sqlite3_stmt *st;
	int64_t v = 0;
	va_list ap;
	int once;

	va_start(ap, types);
	st = vbind(db, sql, types, ap, &once);
	va_end(ap);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	release(st, once);
	return v;
}

const char *db_col(sqlite3_stmt *st, int i)
{
	const char *s = (const char *)sqlite3_column_text(st, i);

	return s ? s : "";
}

const char *db_col_null(sqlite3_stmt *st, int i)
{
	return (const char *)sqlite3_column_text(st, i);
}

int64_t db_col_int(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? -1 :
	       sqlite3_column_int64(st, i);
}

char *db_col_dup(sqlite3_stmt *st, int i)
{
	const char *s = (const char *)sqlite3_column_text(st, i);

	return s ? xstrdup(s) : NULL;
}
