/* lib: the fuzz targets' shared helpers (see fuzz.h) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "bundle.h"
#include "db.h"
#include "fuzz.h"
#include "load.h"
#include "log.h"

#define TBLOCK 512

void fuzz_tar_add(struct buf *tar, const char *path, char type,
		  const void *data, size_t len)
{
	unsigned char h[TBLOCK];
	unsigned sum = 0;
	size_t i, body = type == '0' ? len : 0;

	memset(h, 0, sizeof(h));
	snprintf((char *)h, 100, "%s", path);
	snprintf((char *)h + 100, 8, "%07o", type == '5' ? 0755 : 0644);
	snprintf((char *)h + 108, 8, "%07o", 0);
	snprintf((char *)h + 116, 8, "%07o", 0);
	snprintf((char *)h + 124, 12, "%011llo", (unsigned long long)body);
	snprintf((char *)h + 136, 12, "%011o", 0);
	h[156] = (unsigned char)type;
	if (type == '2')
		snprintf((char *)h + 157, 100, "%.*s", (int)len,
			 (const char *)data);
	memcpy(h + 257, "ustar", 6);
	memcpy(h + 263, "00", 2);
	memset(h + 148, ' ', 8);
	for (i = 0; i < TBLOCK; i++)
		sum += h[i];
	snprintf((char *)h + 148, 8, "%06o", sum);
	buf_add(tar, h, TBLOCK);
	if (!body)
		return;
	buf_add(tar, data, body);
	memset(h, 0, sizeof(h));
	if (body % TBLOCK)
		buf_add(tar, h, TBLOCK - body % TBLOCK);
}

void fuzz_tar_manifest(struct buf *tar)
{
	static const char m[] = "{\"format\": \"" BUNDLE_FORMAT "\", "
		"\"format_version\": 1, \"hostname\": \"fuzz\", "
		"\"collected_at\": \"2025-11-29T21:04:05Z\", \"sources\": []}";

	fuzz_tar_add(tar, BUNDLE_MANIFEST, '0', m, sizeof(m) - 1);
}

struct bundle_r *fuzz_bundle_raw(const void *raw, size_t len)
{
	struct bundle_r *b;
	char err[256];

	if (br_open_mem("fuzz.rdma.tar.zst", raw, len, NULL, &b, err,
			sizeof(err)) < 0)
		return NULL;
	return b;
}

struct bundle_r *fuzz_bundle(struct buf *tar)
{
	static const char end[2 * TBLOCK];
	struct bundle_r *b;
	size_t cap, n;
	void *z;

	buf_add(tar, end, sizeof(end));
	cap = ZSTD_compressBound(tar->len);
	z = xmalloc(cap);
	n = ZSTD_compress(z, cap, tar->buf, tar->len, 1);
	if (ZSTD_isError(n))
		die("zstd: %s", ZSTD_getErrorName(n));
	b = fuzz_bundle_raw(z, n);
	free(z);
	return b;
}

void fuzz_load(const struct bundle_r *b)
{
	static sqlite3 *db;
	struct ld l = { NULL, b, 0, 0, NULL };
	size_t i;

	if (!db) {
		db = db_open(":memory:");
		if (!db)
			die("cannot open an in-memory database");
	}
	l.db = db;
	if (db_run(db, "SAVEPOINT fuzz") < 0)
		die("savepoint: %s", sqlite3_errmsg(db));
	/* as load_one does: core gives the bundle id, then the rest (which
	 * write at once here instead of recording rows) */
	for (i = 0; extractors[i].name; i++)
		if (extractors[i].run(&l) < 0)
			break;
	if (db_run(db, "ROLLBACK TO fuzz; RELEASE fuzz") < 0)
		die("rollback: %s", sqlite3_errmsg(db));
}
