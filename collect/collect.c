/* collect: run the sources, name, describe and write the bundle */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bundle.h"
#include "collect.h"
#include "log.h"
#include "manifest.h"
#include "redact.h"
#include "runner.h"
#include "scrub.h"
#include "util.h"

#define ZSTD_LEVEL 6	/* level 9 doubles peak memory (24 MiB) for 8% less */

int collect_close_stdout(void)
{
	if (fflush(stdout) || ferror(stdout) || fclose(stdout)) {
		error("cannot write to standard output: %s", strerror(errno));
		return COLLECT_EXIT_WRITE;
	}
	return COLLECT_EXIT_OK;
}

/* a hostname as it may appear in a file name */
static void safe_name(const char *in, char *out, size_t n)
{
	size_t i;

	for (i = 0; in[i] && i + 1 < n && i < 64; i++) {
		char ch = in[i];

		out[i] = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
			 (ch >= '0' && ch <= '9') || ch == '.' || ch == '-' ||
			 ch == '_' ? ch : '_';
	}
	out[i] = 0;
	if (!i || out[0] == '.')
		xsnprintf(out, n, "unknown");
}

static int collected_at(time_t *t, int *reproducible)
{
	const char *sde = getenv("SOURCE_DATE_EPOCH");
	long long v;

	*reproducible = 0;
	if (sde && *sde) {
		if (parse_ll(sde, 10, 0, 253402300799LL, &v) < 0)
			return error("invalid SOURCE_DATE_EPOCH '%s'", sde);
		*t = (time_t)v;
		*reproducible = 1;
		return 0;
	}
	*t = time(NULL);
	return 0;
}

/* the bundle's path; *unique: the name is the collector's own, so a
 * taken one is followed by -2, -3 ... (a name the user gave is not) */
static int out_path(const char *output, const char *host, time_t t,
		    char *out, size_t n, int *unique)
{
	size_t ol = strlen(output), sl = strlen(BUNDLE_SUFFIX);
	char stamp[32];
	struct stat st;
	struct tm tm;

	*unique = 0;
	if (ol > sl && !strcmp(output + ol - sl, BUNDLE_SUFFIX)) {
		if (check_snprintf(out, n, "%s", output) < 0)
			return error("output path too long: '%s'", output);
		return 0;
	}
	if (stat(output, &st) < 0 || !S_ISDIR(st.st_mode))
		return error("output folder '%s' does not exist (a file name "
			     "must end in %s)", output, BUNDLE_SUFFIX);
	gmtime_r(&t, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	if (check_snprintf(out, n, "%s/%s-%s%s", output, host, stamp,
			   BUNDLE_SUFFIX) < 0)
		return error("output path too long: '%s'", output);
	*unique = 1;
	return 0;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

static void summary(struct run *r, const char *path)
{
	unsigned counts[BST_NR] = { 0 };
	struct buf b = BUF_INIT;
	struct stat st;
	size_t i;

	for (i = 0; i < nsources; i++)
		counts[r->runs[i].status]++;
	for (i = 0; i < BST_NR; i++)
		if (counts[i])
			buf_addf(&b, "%s%u %s", b.len ? ", " : "", counts[i],
				 bundle_status_name((int)i));
	if (stat(path, &st) < 0)
		st.st_size = 0;
	fprintf(stderr, "rdma-collect: wrote %s (%lld KiB, %zu entries; "
		"sources: %s)\n", path, (long long)(st.st_size + 1023) / 1024,
		r->store.n + 1, b.buf);
	for (i = 0; i < nsources; i++) {
		struct src_run *sr = &r->runs[i];

		if (sr->status == BST_TIMEOUT || sr->status == BST_ERROR ||
		    log_verbose)
			fprintf(stderr, "rdma-collect: %s: %s%s%s\n",
				sr->src->name, bundle_status_name(sr->status),
				sr->reason[0] ? ": " : "", sr->reason);
	}
	buf_release(&b);
}

/* --redact: the key, the hostname literals, the store and the run's text,
 * the manifest's hostname, command line and root.  A key made here (no
 * --redact-key) is only in memory: it names nothing, so the bundle can be
 * named from the pseudonymized hostname first and the key written to
 * "<bundle>.key" afterwards, before the bundle itself. */
struct redaction {
	struct redact *r;
	unsigned char key[REDACT_KEY_LEN];
	char key_id[17];
	int key_pending;	/* write the key beside the bundle */
	int key_created;	/* a key file was created (notice) */
	char keyfile[PATH_MAX + 8];
	char **argv;
	char *root;
};

static char *redact_str(struct redact *r, const char *s)
{
	struct buf b = BUF_INIT;

	redact_text(r, s, strlen(s), &b);
	return buf_detach(&b, NULL);
}

/* the key first: a bad key file fails before anything is collected */
static int redaction_key(struct redaction *rd, const struct collect_args *a)
{
	if (a->redact_key) {
		if (scrub_load_key(a->redact_key, rd->key, &rd->key_created))
			return -1;
		xsnprintf(rd->keyfile, sizeof(rd->keyfile), "%s",
			  a->redact_key);
	} else {
		if (scrub_new_key(rd->key) < 0)
			return -1;
		rd->key_pending = 1;
	}
	return 0;
}

static void redaction_apply(struct redaction *rd, struct run *r,
			    struct collect_opts *o,
			    const struct collect_args *a,
			    struct manifest_info *mi, char **hostname)
{
	char pseudo[128], *etc;
	int k;

	rd->r = redact_new(rd->key, sizeof(rd->key));
	scrub_add_hostname(rd->r, *hostname);
	etc = manifest_file_line(r, "etc/hostname");
	if (etc)
		scrub_add_hostname(rd->r, etc);
	free(etc);
	scrub_store(rd->r, &r->store);
	scrub_run(rd->r, r);
	if (strcmp(*hostname, "unknown")) {
		redact_value(rd->r, "host", *hostname, pseudo, sizeof(pseudo));
		free(*hostname);
		*hostname = xstrdup(pseudo);
	}
	redact_key_id(rd->r, rd->key_id);
	mi->redact_key_id = rd->key_id;
	rd->argv = xcalloc((size_t)a->argc + 1, sizeof(*rd->argv));
	for (k = 0; k < a->argc; k++)
		rd->argv[k] = redact_str(rd->r, a->argv[k]);
	if (o->root) {
		rd->root = redact_str(rd->r, o->root);
		o->root = rd->root;
	}
}

static void redaction_release(struct redaction *rd, int argc)
{
	int k;

	redact_free(rd->r);
	if (rd->argv)
		for (k = 0; k < argc; k++)
			free(rd->argv[k]);
	free(rd->argv);
	free(rd->root);
	memset(rd->key, 0, sizeof(rd->key));
}

int collect_main(struct collect_opts *o, const struct collect_args *a)
{
	struct manifest_info mi;
	struct redaction rd;
	struct buf man = BUF_INIT;
	char path[PATH_MAX], host[80], *hostname;
	int unique;
	const char *root = o->root;
	struct run r;
	int rc = COLLECT_EXIT_OK, lock = -1;

	memset(&mi, 0, sizeof(mi));
	memset(&rd, 0, sizeof(rd));
	if (collected_at(&mi.collected_at, &mi.reproducible) < 0)
		return COLLECT_EXIT_USAGE;
	if (a->redact && redaction_key(&rd, a) < 0)
		return COLLECT_EXIT_USAGE;
	/* a spool takes one collector at a time, and refuses the second
	 * before it collects anything */
	if (a->keep.count || a->keep.days) {
		lock = spool_lock(a->output);
		if (lock < 0) {
			memset(rd.key, 0, sizeof(rd.key));
			return lock == -2 ? COLLECT_EXIT_BUSY :
					    COLLECT_EXIT_WRITE;
		}
	}
	run_init(&r, o);
	r.lock_fd = lock;
	if (run_sources(&r) < 0) {
		error("interrupted by signal %d; no bundle written",
		      r.interrupted);
		run_release(&r);
		memset(rd.key, 0, sizeof(rd.key));
		if (lock >= 0)
			close(lock);
		return COLLECT_EXIT_SIGNAL;
	}
	hostname = manifest_file_line(&r, "proc/sys/kernel/hostname");
	if (!hostname)
		hostname = xstrdup("unknown");
	mi.argc = a->argc;
	mi.argv = a->argv;
	/* --redact is applied here, before anything is named or written */
	if (a->redact) {
		redaction_apply(&rd, &r, o, a, &mi, &hostname);
		mi.argv = rd.argv;
	}
	safe_name(hostname, host, sizeof(host));
	if (out_path(a->output, host, mi.collected_at, path, sizeof(path),
		     &unique)) {
		rc = COLLECT_EXIT_WRITE;
		goto out;
	}
	mi.hostname = hostname;
	store_sort(&r.store);
	manifest_build(&r, &mi, &man);
	if (store_write(&r.store, man.buf, man.len, path, sizeof(path),
			unique, mi.collected_at, ZSTD_LEVEL) < 0) {
		rc = COLLECT_EXIT_WRITE;
		goto out;
	}
	/* the key is named after the bundle, whose name is known only now;
	 * a bundle whose key could not be kept is not kept either */
	if (rd.key_pending) {
		if (check_snprintf(rd.keyfile, sizeof(rd.keyfile), "%s.key",
				   path) < 0 ||
		    scrub_save_key(rd.keyfile, rd.key) < 0) {
			unlink(path);
			rc = COLLECT_EXIT_WRITE;
			goto out;
		}
		rd.key_created = 1;
	}
	if (!a->quiet)
		summary(&r, path);
	if (rd.key_created)
		fprintf(stderr, "rdma-collect: redaction key written to %s "
			"(keep it to compare bundles; do not attach it to the "
			"ticket)\n", rd.keyfile);
	/* only now: the new bundle is whole and in place */
	if (a->keep.count || a->keep.days)
		spool_prune(a->output, host, base_name(path), mi.collected_at,
			    &a->keep);
	printf("%s\n", path);
	rc = collect_close_stdout();
out:
	o->root = root;
	free(hostname);
	redaction_release(&rd, a->argc);
	buf_release(&man);
	run_release(&r);
	if (lock >= 0)
		close(lock);
	return rc;
}
