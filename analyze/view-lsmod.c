/* view-lsmod: /proc/modules as lsmod (kmod) prints it: "Module Size Used
 * by", "%-19s %8lu  %d" and the users.  kmod lists the users from
 * sys/module/<m>/holders in directory order; the bundle keeps holders only
 * for the RDMA modules, so the users come from /proc/modules' own column,
 * in its order (as module-init-tools' lsmod printed them). */
#include <stdio.h>
#include <string.h>

#include "log.h"
#include "view.h"

int view_lsmod(const struct bundle_r *b, int argc, char **argv, FILE *out);

int view_lsmod(const struct bundle_r *b, int argc, char **argv, FILE *out)
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
		char line[4096], name[64], size[24], ref[24], deps[2048];
		size_t ll;

		e = memchr(d, '\n', len);
		e = e ? e + 1 : d + len;
		ll = (size_t)(e - d);
		len -= ll;
		if (ll >= sizeof(line))
			continue;
		memcpy(line, d, ll);
		line[ll] = 0;
		if (sscanf(line, "%63s %23s %23s %2047s", name, size, ref,
			   deps) != 4 ||
		    strspn(size, "0123456789") != strlen(size))
			continue;
		if (!strcmp(deps, "-"))
			deps[0] = 0;
		else if (deps[0] && deps[strlen(deps) - 1] == ',')
			deps[strlen(deps) - 1] = 0;
		fprintf(out, "%-19s %8s  %s%s%s\n", name, size, ref,
			deps[0] ? " " : "", deps);
	}
	return 0;
}
