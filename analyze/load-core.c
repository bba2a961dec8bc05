/* load-core: the bundle itself: its node, manifest facts, source statuses */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "db.h"
#include "load.h"
#include "util.h"

int load_core(struct ld *l)
{
	const struct jv *m = l->b->manifest, *srcs, *cont;
	const char *host = jstr(m, "hostname"), *mid = jstr(m, "machine_id");
	char now[32];
	time_t t = time(NULL);
	struct tm tm;
	size_t i;

	if (!host || !*host)
		host = "unknown";
	gmtime_r(&t, &tm);
	strftime(now, sizeof(now), "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (db_exec(l->db, "INSERT OR IGNORE INTO nodes (name, machine_id) "
		    "VALUES (?, ?)", "ss", host, mid) < 0)
		return -1;
	l->node_id = db_int(l->db, "SELECT id FROM nodes WHERE name = ? AND "
			    "machine_id IS ?", "ss", host, mid);
	cont = jget(m, "container");
	if (db_exec(l->db, "INSERT INTO bundles (sha256, file, node_id, "
		    "format_version, tool_version, hostname, machine_id, boot_id, "
		    "collected_at, uptime_s, kernel_release, as_root, container, "
		    "redacted, sample_s, root, loaded_at) VALUES (?, ?, ?, ?, ?, ?, "
		    "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", "ssiisssssDsisiiss",
		    l->b->sha256, l->b->file, l->node_id,
		    (int64_t)l->b->format_version, jstr(m, "tool_version"), host,
		    mid, jstr(m, "boot_id"), jstr(m, "collected_at"),
		    jnum(m, "uptime_s", -1), jstr(m, "kernel_release"),
		    (int64_t)jbool(m, "as_root", 0),
		    jbool(cont, "detected", 0) ? (jstr(cont, "kind") ?
						  jstr(cont, "kind") : "yes") : NULL,
		    (int64_t)jbool(jget(m, "redaction"), "enabled", 0),
		    jint(m, "sample_s", 0), jstr(m, "root"), now) < 0)
		return -1;
	l->bid = sqlite3_last_insert_rowid(l->db);
	srcs = jget(m, "sources");
	for (i = 0; i < jlen(srcs); i++) {
		const struct jv *s = jat(srcs, i);

		if (!jstr(s, "name") || !jstr(s, "status"))
			continue;
		if (db_exec(l->db, "INSERT OR REPLACE INTO sources (bundle_id, "
			    "name, status, reason, duration_ms, bytes, files, "
			    "errors) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", "isssiiii",
			    l->bid, jstr(s, "name"), jstr(s, "status"),
			    jstr(s, "reason"), jint(s, "duration_ms", 0),
			    jint(s, "bytes", 0), jint(s, "files", 0),
			    jint(s, "errors", 0)) < 0)
			return -1;
	}
	return 0;
}
