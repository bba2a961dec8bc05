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
#include "runner.h"
#include "util.h"

#define ZSTD_LEVEL 9

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

static int out_path(const char *output, const char *host, time_t t,
		    char *out, size_t n)
{
	size_t ol = strlen(output), sl = strlen(BUNDLE_SUFFIX);
	char stamp[32];
	struct stat st;
	struct tm tm;

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
	return 0;
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

int collect_main(struct collect_opts *o, const struct collect_args *a)
{
	struct manifest_info mi;
	struct buf man = BUF_INIT;
	char path[PATH_MAX], host[80], *hostname;
	struct run r;
	int rc = COLLECT_EXIT_OK;

	memset(&mi, 0, sizeof(mi));
	if (collected_at(&mi.collected_at, &mi.reproducible) < 0)
		return COLLECT_EXIT_USAGE;
	run_init(&r, o);
	if (run_sources(&r) < 0) {
		error("interrupted by signal %d; no bundle written",
		      r.interrupted);
		run_release(&r);
		return COLLECT_EXIT_SIGNAL;
	}
	hostname = manifest_file_line(&r, "proc/sys/kernel/hostname");
	if (!hostname)
		hostname = xstrdup("unknown");
	/* --redact is applied here, before anything is named or written */
	safe_name(hostname, host, sizeof(host));
	if (out_path(a->output, host, mi.collected_at, path, sizeof(path))) {
		rc = COLLECT_EXIT_WRITE;
		goto out;
	}
	mi.argc = a->argc;
	mi.argv = a->argv;
	mi.hostname = hostname;
	store_sort(&r.store);
	manifest_build(&r, &mi, &man);
	if (store_write(&r.store, man.buf, man.len, path, mi.collected_at,
			ZSTD_LEVEL) < 0) {
		rc = COLLECT_EXIT_WRITE;
		goto out;
	}
	if (!a->quiet)
		summary(&r, path);
	printf("%s\n", path);
	rc = collect_close_stdout();
out:
	free(hostname);
	buf_release(&man);
	run_release(&r);
	return rc;
}
