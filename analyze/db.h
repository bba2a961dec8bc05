/* db: the SQLite database (schema/NNN-name.sql, migrated by PRAGMA user_version)
 * and one way to run a statement with bound parameters.
 *
 * db_exec(db, sql, types, ...) prepares sql once per connection (the
 * cache is keyed by the text: sql may be built in a buffer), binds one
 * argument per letter of types and steps to the end:
 *   i  int64_t        (pass (int64_t) casts: varargs)
 *   N  int64_t, a negative value binds NULL (absent)
 *   d  double
 *   D  double, a negative value binds NULL
 *   s  const char *   (NULL binds NULL)
 *   n  no argument: NULL
 * All SQL goes through bound parameters; nothing from a bundle is ever
 * pasted into SQL text.
 */
#ifndef RDMA_ANALYZE_DB_H
#define RDMA_ANALYZE_DB_H

#include <sqlite3.h>
#include <stdarg.h>
#include <stdint.h>

/* how long a writer waits for another's transaction (ms) */
#define DB_BUSY_MS 120000

/* Open (":memory:" or a file, made if missing), migrate it to this
 * rdma-analyze's schema and refuse it unless its schema is exactly the one made here (no trigger,
 * view or table of anyone else's); triggers never fire on it.  NULL with
 * a message */
sqlite3 *db_open(const char *file);
/* 0 when the schema named (main, or an attached one) is exactly the one
 * this rdma-analyze makes; else -1 with one line naming file and the first
 * object that differs */
int db_schema_check(sqlite3 *db, const char *schema, const char *file);
void db_close(sqlite3 *db);
int db_exec(sqlite3 *db, const char *sql, const char *types, ...);
int db_vexec(sqlite3 *db, const char *sql, const char *types, va_list ap);
/* the same with the arguments in an array, one per letter except 'n'
 * (rows recorded by the loader's readers; strings must outlive the call) */
union db_arg {
	int64_t i;
	double d;
	const char *s;
};
int db_exec_args(sqlite3 *db, const char *sql, const char *types,
		 const union db_arg *a);
/* a statement with the parameters bound, ready for sqlite3_step; give it
 * back with db_done() when finished (it resets a cached statement and
 * finalizes one prepared past a full cache) */
sqlite3_stmt *db_query(sqlite3 *db, const char *sql, const char *types, ...);
void db_done(sqlite3_stmt *st);
/* run plain SQL (no parameters): schema, BEGIN/COMMIT */
int db_run(sqlite3 *db, const char *sql);
int64_t db_int(sqlite3 *db, const char *sql, const char *types, ...);
/* column i of the current row as text, valid until the next step: "" for
 * NULL (db_col), NULL for NULL (db_col_null), or a copy the caller frees
 * (db_col_dup, NULL for NULL) */
const char *db_col(sqlite3_stmt *st, int i);
const char *db_col_null(sqlite3_stmt *st, int i);
char *db_col_dup(sqlite3_stmt *st, int i);
/* column i as an integer, -1 for NULL */
int64_t db_col_int(sqlite3_stmt *st, int i);
int db_version(sqlite3 *db);

extern const char *const db_migrations[];	/* generated from schema/ */

#endif
