/* rdma-analyze: command line.  Until the analyzer lands (loading into
 * SQLite, diagnosis, reports), it can list bundles and check their
 * manifests; every other command says it is not there yet. */
#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "bundle.h"
#include "log.h"
#include "util.h"

#define EXIT_BAD_BUNDLE 1
#define EXIT_USAGE 2

/* bundles are hostile input: bounds on what we accept */
#define MAX_ENTRIES 200000
#define MAX_PATH 4096
#define MAX_MANIFEST (1u << 20)

static const char usage_text[] =
"usage: rdma-analyze list BUNDLE...\n"
"       rdma-analyze --version\n"
"\n"
"  list    check each bundle's manifest and print its sources and entries\n"
"\n"
"Loading into SQLite, diagnosis and reports are not implemented yet.\n"
"Exit status: 0 all bundles read; 1 a bundle was unreadable (the others\n"
"are still listed); 2 usage error.\n";

/* the integer after "key": in a JSON text; -1 if absent */
static long long json_int_field(const char *json, const char *key)
{
	char pat[64];
	const char *p;
	long long v = 0;
	int digits = 0;

	xsnprintf(pat, sizeof(pat), "\"%s\"", key);
	p = strstr(json, pat);
	if (!p)
		return -1;
	p += strlen(pat);
	while (*p == ' ' || *p == '\n' || *p == '\t')
		p++;
	if (*p++ != ':')
		return -1;
	while (*p == ' ' || *p == '\n' || *p == '\t')
		p++;
	for (; *p >= '0' && *p <= '9' && digits < 9; p++, digits++)
		v = v * 10 + (*p - '0');
	return digits ? v : -1;
}

static int list_one(const char *path)
{
	struct archive *a = archive_read_new();
	struct archive_entry *ae;
	struct buf man = BUF_INIT;
	long n = 0;
	long long ver;
	int rc = -1, r;

	archive_read_support_filter_zstd(a);
	archive_read_support_format_tar(a);
	if (archive_read_open_filename(a, path, 65536) != ARCHIVE_OK) {
		error("%s: cannot open: %s", path, archive_error_string(a));
		goto out;
	}
	while ((r = archive_read_next_header(a, &ae)) == ARCHIVE_OK) {
		const char *name = archive_entry_pathname(ae);
		la_int64_t size = archive_entry_size(ae);
		char type;

		if (!name || strlen(name) >= MAX_PATH) {
			error("%s: entry %ld: path missing or too long", path, n);
			goto out;
		}
		if (++n > MAX_ENTRIES) {
			error("%s: more than %d entries", path, MAX_ENTRIES);
			goto out;
		}
		if (n == 1) {
			char chunk[8192];
			la_ssize_t got;

			if (strcmp(name, BUNDLE_MANIFEST)) {
				error("%s: not an rdma-collect bundle (first "
				      "entry is '%s', not %s)", path, name,
				      BUNDLE_MANIFEST);
				goto out;
			}
			if (size < 0 || size > MAX_MANIFEST) {
				error("%s: manifest too large", path);
				goto out;
			}
			while ((got = archive_read_data(a, chunk,
							sizeof(chunk))) > 0)
				buf_add(&man, chunk, (size_t)got);
			if (got < 0) {
				error("%s: truncated or corrupt: %s", path,
				      archive_error_string(a));
				goto out;
			}
			if (!strstr(man.buf, "\"" BUNDLE_FORMAT "\"")) {
				error("%s: manifest does not name the format "
				      "'%s'", path, BUNDLE_FORMAT);
				goto out;
			}
			ver = json_int_field(man.buf, "format_version");
			if (ver < 1) {
				error("%s: manifest has no format_version", path);
				goto out;
			}
			if (ver > BUNDLE_FORMAT_VERSION) {
				error("%s: bundle format %lld is newer than "
				      "this rdma-analyze reads (%d): upgrade",
				      path, ver, BUNDLE_FORMAT_VERSION);
				goto out;
			}
			printf("%s: bundle format %lld\n", path, ver);
		}
		switch (archive_entry_filetype(ae)) {
		case AE_IFDIR: type = 'd'; break;
		case AE_IFLNK: type = 'l'; break;
		case AE_IFREG: type = '-'; break;
		default: type = '?'; break;
		}
		if (type == 'l')
			printf("  %c %10s  %s -> %s\n", type, "", name,
			       archive_entry_symlink(ae) ?
			       archive_entry_symlink(ae) : "");
		else
			printf("  %c %10lld  %s\n", type, (long long)size, name);
	}
	if (r != ARCHIVE_EOF) {
		error("%s: truncated or corrupt after %ld entries: %s", path,
		      n, archive_error_string(a));
		goto out;
	}
	if (!n) {
		error("%s: empty archive", path);
		goto out;
	}
	printf("%s: %ld entries\n", path, n);
	rc = 0;
out:
	archive_read_free(a);
	buf_release(&man);
	return rc;
}

int main(int argc, char **argv)
{
	int i, rc = 0;

	log_prog = "rdma-analyze";
	if (argc < 2) {
		fputs(usage_text, stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version")) {
		printf("rdma-analyze %s (reads bundle format up to %d)\n",
		       VERSION, BUNDLE_FORMAT_VERSION);
		return 0;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fputs(usage_text, stdout);
		return 0;
	}
	if (strcmp(argv[1], "list")) {
		fprintf(stderr, "rdma-analyze: '%s' is not a command here yet "
			"(only 'list'); see --help\n", argv[1]);
		return EXIT_USAGE;
	}
	if (argc < 3) {
		fputs(usage_text, stderr);
		return EXIT_USAGE;
	}
	for (i = 2; i < argc; i++)
		if (list_one(argv[i]) < 0)
			rc = EXIT_BAD_BUNDLE;
	if (fflush(stdout) || ferror(stdout))
		return error("cannot write to standard output"), EXIT_BAD_BUNDLE;
	return rc;
}
