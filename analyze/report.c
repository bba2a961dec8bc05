/* report: which bundles, how bad, the table of formats and the atomic
 * write of a report file */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "db.h"
#include "log.h"
#include "report.h"

const struct report_format report_formats[] = {
	{ "text", report_text },
	{ "json", report_json },
	{ "html", report_html },
	{ "prom", report_prom },
	{ NULL, NULL },
};

int report_select(sqlite3 *db, const int64_t *ids, size_t n)
{
	size_t i;

	if (db_run(db, "CREATE TEMP TABLE IF NOT EXISTS report_bundles "
		   "(bundle_id INTEGER PRIMARY KEY); DELETE FROM report_bundles") < 0)
		return -1;
	if (ids) {
		for (i = 0; i < n; i++)
			db_exec(db, "INSERT OR IGNORE INTO report_bundles VALUES (?)",
				"i", ids[i]);
		return 0;
	}
	return db_run(db, "INSERT INTO report_bundles SELECT (SELECT b.id FROM "
		      "bundles b WHERE b.node_id = n.id ORDER BY b.collected_at "
		      "DESC, b.id DESC LIMIT 1) FROM nodes n WHERE EXISTS (SELECT "
		      "1 FROM bundles b WHERE b.node_id = n.id)");
}

int report_worst(sqlite3 *db)
{
	return (int)db_int(db, "SELECT coalesce(max(severity), 0) FROM findings "
			   "WHERE bundle_id IN (SELECT bundle_id FROM "
			   "report_bundles)", NULL);
}

void report_inputs_counts(sqlite3 *db, int64_t *files, int64_t *read,
			  int64_t *unread)
{
	static const char q[] = "SELECT count(DISTINCT i.bundle_id || '/' || "
		"i.file) FROM import_inputs i JOIN report_bundles r ON "
		"r.bundle_id = i.bundle_id";

	*files = db_int(db, q, NULL);
	*read = db_int(db, "SELECT count(DISTINCT i.bundle_id || '/' || i.file) "
		       "FROM import_inputs i JOIN report_bundles r ON r.bundle_id "
		       "= i.bundle_id WHERE i.status IN ('read', 'partial')", NULL);
	*unread = db_int(db, "SELECT count(DISTINCT i.bundle_id || '/' || "
			 "i.file) FROM import_inputs i JOIN report_bundles r ON "
			 "r.bundle_id = i.bundle_id WHERE i.status IN ('unread', "
			 "'partial')", NULL);
}

void report_inputs_line(sqlite3 *db, FILE *out)
{
	int64_t files, read, unread;

	report_inputs_counts(db, &files, &read, &unread);
	if (files)
		fprintf(out, "rdma-analyze: %lld input file(s) imported: %lld "
			"read, %lld not (wholly) understood (INPUT_UNREAD)\n",
			(long long)files, (long long)read, (long long)unread);
}

/* the folder of path, for its temp file and its fsync */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *d;

	if (!slash)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	d = xmalloc((size_t)(slash - path) + 1);
	memcpy(d, path, (size_t)(slash - path));
	d[slash - path] = '\0';
	return d;
}

/* the rename on disk too (a failure here loses nothing: the file is
 * whole under either name) */
static void sync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

/* a device, FIFO or the like (/dev/stdout): written in place */
static int write_special(const char *path, int (*fn)(void *arg, FILE *out),
			 void *arg)
{
	FILE *out = fopen(path, "w");
	int rc;

	if (!out)
		return error("cannot write '%s': %s", path, strerror(errno));
	errno = 0;
	rc = fn(arg, out);
	if (fclose(out) || rc < 0)
		return error("cannot write '%s': %s", path,
			     strerror(errno ? errno : EIO));
	return 0;
}

int report_write_file(const char *path, int (*fn)(void *arg, FILE *out),
		      void *arg)
{
	const char *base = strrchr(path, '/');
	char *dir = dir_of(path), *tmp;
	FILE *out = NULL;
	mode_t mask;
	int fd, rc = -1, err = 0;
	struct stat st;

	if (!stat(path, &st) && !S_ISREG(st.st_mode)) {
		free(dir);
		return write_special(path, fn, arg);
	}
	base = base ? base + 1 : path;
	/* a hidden name without path's suffix: nothing that reads the
	 * folder by suffix sees it half-written */
	tmp = xmalloc(strlen(dir) + strlen(base) + 10);
	sprintf(tmp, "%s/.%s.XXXXXX", dir, base);
	fd = mkstemp(tmp);
	if (fd < 0) {
		err = errno;
		goto out;
	}
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) < 0 || !(out = fdopen(fd, "w"))) {
		err = errno;
		close(fd);
		goto fail;
	}
	errno = 0;
	if (fn(arg, out) < 0 || fflush(out) || fsync(fileno(out)) < 0) {
		err = errno ? errno : EIO;
		fclose(out);
		goto fail;
	}
	if (fclose(out) || rename(tmp, path) < 0) {
		err = errno;
		goto fail;
	}
	sync_dir(dir);
	rc = 0;
	goto out;
fail:
	unlink(tmp);
out:
	if (rc < 0)
		error("cannot write '%s': %s", path, strerror(err ? err : EIO));
	free(tmp);
	free(dir);
	return rc;
}
