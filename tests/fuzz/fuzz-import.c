/* fuzz-import: the import parsers (analyze/import/imp-*.c), every row of
 * imp_readers[] (import/imp.h) and the sysinfo-snapshot page.  The first
 * input byte picks the row; the rest is written, under a name the row's
 * pattern matches, into a folder that imp_open() then reads as a folder
 * of pasted outputs (or a sysinfo-snapshot), as `rdma-analyze load DIR`
 * does; a bundle that comes out goes through the loader too. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "import/imp.h"
#include "log.h"

#define MAX_ROWS 64

static char dir[64], file[512];
static char names[MAX_ROWS][128];
static int nrows;

/* a file name the row's first pattern matches: its '*' becomes a device
 * or interface name, as a user's paste would carry */
static void add_row(const struct imp_reader *p)
{
	const char *bar = strchr(p->names, '|');
	size_t n = bar ? (size_t)(bar - p->names) : strlen(p->names);
	const char *arg = strstr(p->tool, "ethtool") || strstr(p->tool, "dcb") ||
			  !strcmp(p->tool, "ip") ? "eth0" : "mlx5_0";
	char pat[128], *star;

	if (nrows == MAX_ROWS || n >= sizeof(pat))
		return;
	memcpy(pat, p->names, n);
	pat[n] = 0;
	star = strchr(pat, '*');
	if (star)
		snprintf(names[nrows++], sizeof(names[0]), "%.*s%s%s",
			 (int)(star - pat), pat, arg, star + 1);
	else
		snprintf(names[nrows++], sizeof(names[0]), "%s", pat);
}

static void setup(void)
{
	const struct imp_reader *p;

	snprintf(dir, sizeof(dir), "%s/fuzz-import.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir))
		die("cannot make a folder for the import target");
	for (p = imp_readers; p->tool; p++)
		if (p->names)
			add_row(p);
	/* and one named after nothing: read by its content */
	snprintf(names[nrows++], sizeof(names[0]), "output.txt");
	snprintf(names[nrows++], sizeof(names[0]),
		 "sysinfo-snapshot-v3.7.4-node01-20251129-210405.html");
}

static void cleanup(void)
{
	if (file[0])
		unlink(file);
	rmdir(dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bundle_r *b;
	char err[256];
	FILE *fp;

	if (!nrows) {
		setup();
		atexit(cleanup);
	}
	if (!size)
		return 0;
	if (file[0])
		unlink(file);
	snprintf(file, sizeof(file), "%s/%s", dir, names[data[0] % nrows]);
	fp = fopen(file, "w");
	if (!fp)
		die("cannot write '%s'", file);
	fwrite(data + 1, 1, size - 1, fp);
	fclose(fp);
	if (imp_open(dir, NULL, &b, err, sizeof(err)) == 0) {
		fuzz_load(b);
		br_free(b);
	}
	return 0;
}
