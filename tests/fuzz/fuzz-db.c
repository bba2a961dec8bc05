/* fuzz-db: a database file from someone else, opened as `--db FILE` is
 * (analyze/db.c db_open: its schema must be exactly the one made here, no
 * trigger runs), then every report format over its newest bundles: the
 * text, JSON and HTML writers meet every NULL and every value a crafted
 * file can hold where the schema allows it. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "db.h"
#include "fuzz.h"
#include "report.h"

static void unlink_db(const char *path)
{
	char p[64];

	unlink(path);
	snprintf(p, sizeof(p), "%s-wal", path);
	unlink(p);
	snprintf(p, sizeof(p), "%s-shm", path);
	unlink(p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[] = "/tmp/fuzz-db-XXXXXX";
	struct report_opts o = { NULL, 1 };
	sqlite3 *db;
	FILE *f;
	int fd = mkstemp(path);

	if (fd < 0)
		return 0;
	f = fdopen(fd, "w");
	if (!f || fwrite(data, 1, size, f) != size) {
		if (f)
			fclose(f);
		unlink(path);
		return 0;
	}
	fclose(f);
	db = db_open(path);
	o.out = fopen("/dev/null", "w");
	if (db && o.out && !report_select(db, NULL, 0)) {
		report_text(db, &o);
		report_json(db, &o);
		report_html(db, &o);
		report_worst(db);
	}
	if (o.out)
		fclose(o.out);
	if (db)
		db_close(db);
	unlink_db(path);
	return 0;
}
