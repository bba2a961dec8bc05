/* db: SQLite access with cached, bound statements */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "log.h"

#define CACHE_SIZE 1024

struct cached {
	sqlite3 *db;
	const char *sql;
	sqlite3_stmt *st;
};

static struct cached cache[CACHE_SIZE];

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

sqlite3 *db_open(const char *file)
{
	sqlite3 *db = NULL;
	int v, n, i;
	char pragma[64];

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
	sqlite3_busy_timeout(db, 5000);
	db_run(db, "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;"
	       "PRAGMA foreign_keys = ON; PRAGMA temp_store = MEMORY;");
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
	for (i = v; i < n; i++) {
		if (db_run(db, "BEGIN") < 0 || db_run(db, db_migrations[i]) < 0)
			goto bad;
		snprintf(pragma, sizeof(pragma), "PRAGMA user_version = %d", i + 1);
		if (db_run(db, pragma) < 0 || db_run(db, "COMMIT") < 0)
			goto bad;
	}
	return db;
bad:
	sqlite3_close(db);
	return NULL;
}

void db_close(sqlite3 *db)
{
	size_t i;

	for (i = 0; i < CACHE_SIZE; i++) {
		if (cache[i].db == db) {
			sqlite3_finalize(cache[i].st);
			memset(&cache[i], 0, sizeof(cache[i]));
		}
	}
	sqlite3_close(db);
}

static sqlite3_stmt *prepare(sqlite3 *db, const char *sql)
{
	size_t h = ((uintptr_t)sql >> 3) % CACHE_SIZE, i;
	sqlite3_stmt *st;

	for (i = 0; i < CACHE_SIZE; i++) {
		struct cached *c = &cache[(h + i) % CACHE_SIZE];

		if (c->db == db && c->sql == sql)
			return c->st;
		if (!c->db) {
			if (sqlite3_prepare_v3(db, sql, -1,
					       SQLITE_PREPARE_PERSISTENT, &st,
					       NULL) != SQLITE_OK)
				die("SQL error: %s in: %.200s", sqlite3_errmsg(db),
				    sql);
			c->db = db;
			c->sql = sql;
			c->st = st;
			return st;
		}
	}
	die("statement cache full");
}

/* bind one argument per type letter ('n' takes none); text is copied
 * by SQLite unless the caller keeps it alive until the statement is reset
 * (keep = SQLITE_STATIC) */
static sqlite3_stmt *bind(sqlite3 *db, const char *sql, const char *types,
			  const union db_arg *a, sqlite3_destructor_type keep)
{
	sqlite3_stmt *st = prepare(db, sql);
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
			   va_list ap)
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
	return bind(db, sql, types, a, SQLITE_TRANSIENT);
}

static int step_done(sqlite3 *db, sqlite3_stmt *st)
{
	int rc;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		;
	sqlite3_reset(st);
	if (rc != SQLITE_DONE) {
		error("database: %s", sqlite3_errmsg(db));
		return -1;
	}
	return 0;
}

int db_exec_args(sqlite3 *db, const char *sql, const char *types,
		 const union db_arg *a)
{
	return step_done(db, bind(db, sql, types, a, SQLITE_STATIC));
}

int db_vexec(sqlite3 *db, const char *sql, const char *types, va_list ap)
{
	return step_done(db, vbind(db, sql, types, ap));
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

	va_start(ap, types);
	st = vbind(db, sql, types, ap);
	va_end(ap);
	return st;
}

void db_done(sqlite3_stmt *st)
{
	sqlite3_reset(st);
}

int64_t db_int(sqlite3 *db, const char *sql, const char *types, ...)
{
	sqlite3_stmt *st;
	int64_t v = 0;
	va_list ap;

	va_start(ap, types);
	st = vbind(db, sql, types, ap);
	va_end(ap);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	return v;
}
