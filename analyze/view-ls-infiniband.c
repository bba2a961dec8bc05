/* view-ls-infiniband: `ls -la /dev/infiniband` from
 * rdma-collect/devnodes.json (GNU ls column layout: widths from the
 * widest entry, "major, minor" for device nodes).  "." and ".." come from
 * the JSON's "dot" and "dotdot" (older bundles have neither, and no link
 * counts: 1 is printed); "total 0" heads the list (/dev is a devtmpfs,
 * where nothing takes blocks).  The date is the entry's mtime in UTC, "%b %e %H:%M"
 * within six months of the bundle's collected_at, else "%b %e  %Y"; a
 * bundle without mtimes (SOURCE_DATE_EPOCH) prints no date column at all. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "log.h"
#include "view.h"

static int cmp_ent(const void *x, const void *y)
{
	const char *a = jstr(*(const struct jv *const *)x, "name");
	const char *c = jstr(*(const struct jv *const *)y, "name");

	return strcmp(a ? a : "", c ? c : "");
}

static void mode_str(const struct jv *e, char *m)
{
	const char *t = jstr(e, "type"), *ms = jstr(e, "mode");
	unsigned long v = ms ? strtoul(ms, NULL, 8) : 0;
	static const char rwx[] = "rwxrwxrwx";
	int i;

	m[0] = t && strchr("cbdl-ps", t[0]) && t[0] ? t[0] : '?';
	for (i = 0; i < 9; i++)
		m[1 + i] = (v >> (8 - i)) & 1 ? rwx[i] : '-';
	if (v & 04000)
		m[3] = m[3] == 'x' ? 's' : 'S';
	if (v & 02000)
		m[6] = m[6] == 'x' ? 's' : 'S';
	if (v & 01000)
		m[9] = m[9] == 'x' ? 't' : 'T';
	m[10] = 0;
}

static time_t parse_rfc3339(const char *s)
{
	struct tm tm;

	memset(&tm, 0, sizeof(tm));
	if (!s || !strptime(s, "%Y-%m-%dT%H:%M:%SZ", &tm))
		return 0;
	return timegm(&tm);
}

static int show(const struct bundle_r *b, int argc, char **argv, FILE *out)
{
	struct jv *j = br_json(b, "rdma-collect/devnodes.json");
	const struct jv *ents = jget(j, "entries");
	const struct jv **v = NULL;
	size_t n = jlen(ents), i, k = 0;
	int uw = 0, gw = 0, majw = 0, minw = 0, sizew = 0, lw = 0, dates = 1;
	int rc = 0;
	time_t now = parse_rfc3339(jstr(b->manifest, "collected_at"));
	char buf[64];

	(void)argv;
	if (argc > 0) {
		rc = error("ls-infiniband takes no arguments");
		goto out;
	}
	if (!j) {
		rc = error("%s: no rdma-collect/devnodes.json (the devnodes "
			   "source did not run)", b->file);
		goto out;
	}
	if (jstr(j, "status") && strcmp(jstr(j, "status"), "ok")) {
		rc = error("%s: /dev/infiniband: %s", b->file, jstr(j, "status"));
		goto out;
	}
	v = calloc(n + 2, sizeof(*v));
	if (!v) {
		rc = error("out of memory");
		goto out;
	}
	for (i = 0; i < n + 2; i++) {
		const struct jv *e = i < 2 ? jget(j, i ? "dotdot" : "dot") :
				     jat(ents, i - 2);
		int dev;

		if (!e || !jstr(e, "name"))
			continue;
		v[k++] = e;
		if (!jget(e, "mtime"))
			dates = 0;
		dev = jstr(e, "type") && strchr("cb", jstr(e, "type")[0]) &&
		      jstr(e, "type")[0];
#define W(w, fmt, val) do { int l_ = snprintf(buf, sizeof(buf), fmt, val); \
			     if (l_ > (w)) (w) = l_; } while (0)
		W(lw, "%lld", (long long)jint(e, "nlink", 1));
		W(uw, "%s", jstr(e, "user") ? jstr(e, "user") : "?");
		W(gw, "%s", jstr(e, "group") ? jstr(e, "group") : "?");
		if (dev) {
			W(majw, "%lld", (long long)jint(e, "major", 0));
			W(minw, "%lld", (long long)jint(e, "minor", 0));
		} else {
			W(sizew, "%lld", (long long)jint(e, "size", 0));
		}
#undef W
	}
	if (majw && majw + 2 + minw > sizew)
		sizew = majw + 2 + minw;
	qsort(v, k, sizeof(*v), cmp_ent);
	fputs("total 0\n", out);
	for (i = 0; i < k; i++) {
		const struct jv *e = v[i];
		const char *t = jstr(e, "type");
		char m[11], sz[64];

		mode_str(e, m);
		if (t && (t[0] == 'c' || t[0] == 'b'))
			snprintf(sz, sizeof(sz), "%*lld, %*lld", majw,
				 (long long)jint(e, "major", 0), minw,
				 (long long)jint(e, "minor", 0));
		else
			snprintf(sz, sizeof(sz), "%lld",
				 (long long)jint(e, "size", 0));
		fprintf(out, "%s %*lld %-*s %-*s %*s", m, lw,
			(long long)jint(e, "nlink", 1), uw,
			jstr(e, "user") ? jstr(e, "user") : "?", gw,
			jstr(e, "group") ? jstr(e, "group") : "?", sizew, sz);
		if (dates) {
			time_t mt = (time_t)jint(e, "mtime", 0);
			struct tm tm;
			char d[32];
			/* GNU ls: recent = within six months before now */
			int recent = now && mt <= now + 60 &&
				     mt > now - 31556952 / 2;

			gmtime_r(&mt, &tm);
			strftime(d, sizeof(d), recent ? "%b %e %H:%M" :
				 "%b %e  %Y", &tm);
			fprintf(out, " %s", d);
		}
		fprintf(out, " %s\n", jstr(e, "name"));
	}
out:
	free(v);
	jfree(j);
	return rc;
}

const struct view view_ls_infiniband = {
	.name = "ls-infiniband",
	.usage = "",
	.help = "/dev/infiniband as ls -la /dev/infiniband",
	.show = show,
};
