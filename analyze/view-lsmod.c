/* view-lsmod: /proc/modules as lsmod (kmod) prints it: "Module Size Used
 * by", "%-19s %8lu  %d" and the users.  kmod lists the users from
 * sys/module/<m>/holders in directory order; the bundle keeps holders only
 * for the RDMA modules, so the users come from /proc/modules' own column,
 * put in the order sysfs lists them (see kernfs_order). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "modules.h"
#include "view.h"

/* kernfs (sysfs) keeps a folder's entries ordered by this hash of the
 * name, then by name, and readdir walks them in that order: the kernel's
 * kernfs_name_hash() with no namespace (partial_name_hash, then hash_long
 * to 31 bits, 0, 1 and INT_MAX reserved).  A Soft-RoCE guest's lsmod
 * (tests/cli/vm.sh) proves the order. */
static uint32_t kernfs_hash(const char *name)
{
	uint64_t h = 0;
	const unsigned char *c;

	for (c = (const unsigned char *)name; *c; c++)
		h = (h + ((uint64_t)*c << 4) + (*c >> 4)) * 11;
	h = (h * 0x61c8864680b583ebULL) >> 32;
	h &= 0x7fffffffU;
	if (h < 2)
		h += 2;
	if (h >= 0x7fffffffU)
		h = 0x7fffffffU - 1;
	return (uint32_t)h;
}

static int kernfs_cmp(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	uint32_t hx = kernfs_hash(x), hy = kernfs_hash(y);

	if (hx != hy)
		return hx < hy ? -1 : 1;
	return strcmp(x, y);
}

/* users: "a,b,c" (no trailing comma), rewritten in place in holders/
 * order */
static void kernfs_order(char *users, size_t size)
{
	char *name[256], copy[2048], *p, *save = NULL;
	size_t n = 0, i, len = 0;

	if (strlen(users) >= sizeof(copy))
		return;
	strcpy(copy, users);
	for (p = strtok_r(copy, ",", &save); p && n < 256;
	     p = strtok_r(NULL, ",", &save))
		name[n++] = p;
	qsort(name, n, sizeof(*name), kernfs_cmp);
	for (i = 0; i < n; i++)
		len += (size_t)snprintf(users + len, size - len, "%s%s",
					i ? "," : "", name[i]);
}

static int show(const struct bundle_r *b, int argc, char **argv, FILE *out)
{
	size_t len = 0;
	const char *d = br_data(b, "proc/modules", &len), *e;

	(void)argv;
	if (argc > 0)
		return error("lsmod takes no arguments");
	if (!d)
		return error("%s: no proc/modules (the modules source did not "
			     "run)", b->file);
	fputs("Module                  Size  Used by\n", out);
	for (; len; d = e) {
		char line[4096];
		struct proc_module m;
		size_t ll;

		e = memchr(d, '\n', len);
		e = e ? e + 1 : d + len;
		ll = (size_t)(e - d);
		len -= ll;
		if (ll >= sizeof(line))
			continue;
		memcpy(line, d, ll);
		line[ll] = 0;
		if (proc_module_parse(line, &m) < 4 ||
		    m.size[strspn(m.size, "0123456789")])
			continue;
		kernfs_order(m.deps, sizeof(m.deps));
		fprintf(out, "%-19s %8s  %s%s%s\n", m.name, m.size, m.refcnt,
			m.deps[0] ? " " : "", m.deps);
	}
	return 0;
}

const struct view view_lsmod = {
	.name = "lsmod",
	.usage = "",
	.help = "loaded modules as lsmod (users from /proc/modules)",
	.show = show,
};
