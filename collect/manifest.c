/* manifest: describes a bundle and how each source fared */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bundle.h"
#include "json.h"
#include "log.h"
#include "manifest.h"
#include "util.h"

#ifndef VERSION
#define VERSION "0.0.0"
#endif

char *manifest_file_line(struct run *r, const char *path)
{
	struct entry *e = store_find(&r->store, path);
	size_t n = 0;

	if (!e || e->type != ENT_FILE)
		return NULL;
	while (n < e->len && e->data[n] != '\n' && e->data[n])
		n++;
	while (n && (e->data[n - 1] == ' ' || e->data[n - 1] == '\r'))
		n--;
	return xstrndup(e->data, n);
}

static void str_or_null(struct json *j, const char *key, char *val)
{
	json_str(j, key, val);
	free(val);
}

/* container evidence from the collected marker files */
static void container(struct run *r, struct json *j)
{
	static const struct {
		const char *path;
		const char *needle;	/* NULL: the file existing is enough */
		const char *kind;
	} marks[] = {
		{ "run/systemd/container", NULL, NULL },
		{ ".dockerenv", NULL, "docker" },
		{ "run/.containerenv", NULL, "podman" },
		{ "proc/1/cgroup", "kubepods", "kubernetes" },
		{ "proc/self/cgroup", "kubepods", "kubernetes" },
		{ "proc/1/cgroup", "docker", "docker" },
		{ "proc/self/cgroup", "docker", "docker" },
		{ "proc/1/cgroup", "libpod", "podman" },
		{ "proc/1/cgroup", "lxc", "lxc" },
		{ "proc/self/cgroup", "lxc", "lxc" },
	};
	const char *kind = NULL;
	char *sysd = NULL;
	size_t i;

	json_obj_open(j, "container");
	json_arr_open(j, "evidence");
	for (i = 0; i < ARRAY_SIZE(marks); i++) {
		struct entry *e = store_find(&r->store, marks[i].path);

		if (!e || e->type != ENT_FILE)
			continue;
		/* an empty file has no data at all (memmem wants a buffer) */
		if (marks[i].needle &&
		    (!e->len || !memmem(e->data, e->len, marks[i].needle,
					strlen(marks[i].needle))))
			continue;
		if (!marks[i].kind) {
			sysd = manifest_file_line(r, marks[i].path);
			if (!sysd || !*sysd) {
				free(sysd);
				sysd = NULL;
				continue;
			}
		}
		json_str(j, NULL, marks[i].path);
		if (!kind)
			kind = marks[i].kind ? marks[i].kind : sysd;
	}
	json_arr_close(j);
	json_bool(j, "detected", kind != NULL);
	json_str(j, "kind", kind);
	json_obj_close(j);
	free(sysd);
}

static void source(struct run *r, struct json *j, struct src_run *sr,
		   int reproducible, int si)
{
	const char *p, *e;
	size_t i;

	json_obj_open(j, NULL);
	json_str(j, "name", sr->src->name);
	json_str(j, "status", bundle_status_name(sr->status));
	json_str(j, "reason", sr->reason);
	json_int(j, "duration_ms", reproducible ? 0 : sr->dur_ms);
	json_uint(j, "bytes", sr->bytes);
	json_uint(j, "files", sr->files);
	json_uint(j, "denied", sr->denied);
	json_uint(j, "errors", sr->errors);
	json_int(j, "attempts", sr->attempts);
	json_arr_open(j, "error_list");
	for (p = sr->errlist.buf; *p; p = e + 1) {
		const char *tab = strchr(p, '\t');

		e = strchrnul(p, '\n');
		if (!tab || tab > e)
			break;
		json_obj_open(j, NULL);
		json_strn(j, "path", p, (size_t)(tab - p));
		json_strn(j, "errno", tab + 1, (size_t)(e - tab - 1));
		json_obj_close(j);
		if (!*e)
			break;
	}
	json_arr_close(j);
	json_arr_open(j, "truncated");
	for (i = 0; i < r->store.n; i++)
		if (r->store.v[i].src == si && r->store.v[i].truncated)
			json_str(j, NULL, r->store.v[i].path);
	json_arr_close(j);
	json_obj_open(j, "notes");
	for (i = 0; i < sr->nnotes; i++)
		json_str(j, sr->notes[i].key, sr->notes[i].val);
	json_obj_close(j);
	json_obj_close(j);
}

static void libraries(struct run *r, struct json *j)
{
	static const char *const libs[] = {
		"libibverbs", "libibumad", "libibmad", "libibnetdisc",
	};
	size_t i, s;

	json_obj_open(j, "libraries");
	for (i = 0; i < ARRAY_SIZE(libs); i++) {
		char key[64];
		const char *st = NULL, *file = NULL;

		xsnprintf(key, sizeof(key), "%s", libs[i]);
		for (s = 0; s < nsources && !st; s++)
			st = run_note(&r->runs[s], key);
		xsnprintf(key, sizeof(key), "%s.file", libs[i]);
		for (s = 0; s < nsources && !file; s++)
			file = run_note(&r->runs[s], key);
		json_obj_open(j, libs[i]);
		json_str(j, "status", st ? st : "not probed");
		json_str(j, "file", file);
		json_obj_close(j);
	}
	json_obj_close(j);
}

void manifest_build(struct run *r, const struct manifest_info *mi,
		    struct buf *out)
{
	const struct collect_opts *o = r->opts;
	char when[32], *up;
	struct json j;
	struct tm tm;
	size_t i;
	int k;

	gmtime_r(&mi->collected_at, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	json_init(&j, out, 1);
	json_obj_open(&j, NULL);
	json_str(&j, "format", BUNDLE_FORMAT);
	json_int(&j, "format_version", BUNDLE_FORMAT_VERSION);
	json_str(&j, "tool", "rdma-collect");
	json_str(&j, "tool_version", VERSION);
	json_str(&j, "hostname", mi->hostname);
	str_or_null(&j, "boot_id",
		    manifest_file_line(r, "proc/sys/kernel/random/boot_id"));
	str_or_null(&j, "machine_id", manifest_file_line(r, "etc/machine-id"));
	json_str(&j, "collected_at", when);
	up = manifest_file_line(r, "proc/uptime");
	if (up) {
		/* "12345.67 2345.12": the first number, as written */
		char *sp = strchr(up, ' ');
		double d;

		if (sp)
			*sp = 0;
		if (sscanf(up, "%lf", &d) == 1 &&
		    strspn(up, "0123456789.") == strlen(up)) {
			json_raw(&j, "uptime_s", up);
		} else {
			json_null(&j, "uptime_s");
		}
		free(up);
	} else {
		json_null(&j, "uptime_s");
	}
	str_or_null(&j, "kernel_release",
		    manifest_file_line(r, "proc/sys/kernel/osrelease"));
	json_arr_open(&j, "command_line");
	for (k = 0; k < mi->argc; k++)
		json_str(&j, NULL, mi->argv[k]);
	json_arr_close(&j);
	json_str(&j, "root", o->root);
	json_bool(&j, "as_root", geteuid() == 0);
	json_int(&j, "euid", (int64_t)geteuid());
	container(r, &j);
	json_obj_open(&j, "redaction");
	json_bool(&j, "enabled", mi->redact_key_id != NULL);
	if (mi->redact_key_id)
		json_str(&j, "key_id", mi->redact_key_id);
	json_obj_close(&j);
	json_int(&j, "sample_s", o->sample_s);
	json_int(&j, "deadline_ms", o->deadline_ms);
	libraries(r, &j);
	json_arr_open(&j, "quarantined");
	for (i = 0; i < r->nquarantine; i++)
		json_str(&j, NULL, r->quarantine[i]);
	json_arr_close(&j);
	json_arr_open(&j, "sources");
	for (i = 0; i < nsources; i++)
		source(r, &j, &r->runs[i], mi->reproducible, (int)i);
	json_arr_close(&j);
	json_obj_close(&j);
	json_end(&j);
}
