/* atest-db: the statement cache of db.c, keyed by the SQL text: texts
 * built one after another in the same buffer are each their own statement,
 * and a cache that overflows keeps every call right (statements past it
 * are prepared for one use) */
#include <stdint.h>
#include <stdio.h>

#include "db.h"
#include "t.h"

/* more distinct texts than the cache holds (db.c: CACHE_MAX) */
#define MANY 4000

/* the same buffer, one text after another */
static void same_buffer(sqlite3 *db)
{
	char sql[64];
	int i, bad = 0;

	snprintf(sql, sizeof(sql), "SELECT 1");
	T_OK(db_int(db, sql, NULL) == 1, "a text in a buffer runs");
	snprintf(sql, sizeof(sql), "SELECT 2");
	T_OK(db_int(db, sql, NULL) == 2,
	     "another text in the same buffer is its own statement");
	snprintf(sql, sizeof(sql), "SELECT 1");
	T_OK(db_int(db, sql, NULL) == 1, "the first text again, its statement");
	for (i = 0; i < 50; i++) {
		snprintf(sql, sizeof(sql), "SELECT %d + ?", i);
		if (db_int(db, sql, "i", (int64_t)1000) != 1000 + i)
			bad++;
	}
	T_OK(!bad, "50 texts in one buffer, each its own result");
}

/* a held statement stays valid while others are prepared past a full
 * cache, and one prepared past it is given back by db_done() */
static void overflow(sqlite3 *db)
{
	char sql[64];
	sqlite3_stmt *outer, *inner;
	int i, bad = 0, rows = 0;

	T_OK(!db_exec(db, "CREATE TABLE t (k INTEGER PRIMARY KEY, v INTEGER)",
		      NULL), "a table");
	outer = db_query(db, "SELECT 10 UNION ALL SELECT 20 UNION ALL "
			 "SELECT 30", NULL);
	while (sqlite3_step(outer) == SQLITE_ROW) {
		int64_t o = sqlite3_column_int64(outer, 0);

		for (i = 0; i < MANY; i++) {
			snprintf(sql, sizeof(sql), "SELECT %d + ? + %d", i,
				 (int)o);
			if (db_int(db, sql, "i", (int64_t)o) != i + 2 * o)
				bad++;
		}
		rows++;
	}
	db_done(outer);
	T_OK(rows == 3 && !bad, "%d distinct texts three times over, each "
	     "right, around a statement held by its caller", MANY);
	for (i = 0; i < MANY; i++) {
		snprintf(sql, sizeof(sql), "INSERT INTO t VALUES (%d, ?)", i);
		if (db_exec(db, sql, "i", (int64_t)i * 3) < 0)
			bad++;
	}
	T_OK(!bad && db_int(db, "SELECT count(*) FROM t WHERE v = 3 * k",
			    NULL) == MANY, "%d inserts, each its own text", MANY);
	snprintf(sql, sizeof(sql), "SELECT v FROM t WHERE k = ? -- %d", MANY);
	inner = db_query(db, sql, "i", (int64_t)7);
	T_OK(sqlite3_step(inner) == SQLITE_ROW &&
	     sqlite3_column_int64(inner, 0) == 21,
	     "a query prepared past the full cache reads its row");
	db_done(inner);
	T_OK(db_int(db, "SELECT 1", NULL) == 1 &&
	     db_int(db, "SELECT 2", NULL) == 2,
	     "the statements cached first still answer");
}

int main(void)
{
	sqlite3 *db = db_open(":memory:"), *db2;

	T_OK(db != NULL, "an in-memory database");
	if (!db)
		return t_done();
	same_buffer(db);
	overflow(db);
	db2 = db_open(":memory:");
	T_OK(db2 && db_int(db2, "SELECT count(*) FROM sqlite_master WHERE "
			   "name = 't'", NULL) == 0,
	     "a second connection has its own statements");
	db_close(db);
	db_close(db2);
	/* a new connection may have the address of a closed one */
	db = db_open(":memory:");
	T_OK(db && db_int(db, "SELECT 3", NULL) == 3 &&
	     db_int(db, "SELECT 1", NULL) == 1,
	     "after db_close, a new connection prepares its own");
	db_close(db);
	return t_done();
}
