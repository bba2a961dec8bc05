/* src-identity: who and what the node is, and whether we are in a container */
#include <errno.h>
#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>
#include <string.h>

#include "src.h"
#include "util.h"

static const char *const files[] = {
	"/proc/sys/kernel/hostname",
	"/proc/sys/kernel/osrelease",
	"/proc/sys/kernel/version",
	"/proc/sys/kernel/random/boot_id",
	"/proc/sys/kernel/tainted",
	"/etc/machine-id",
	"/etc/os-release",
	"/etc/hostname",
	"/proc/cmdline",
	"/proc/uptime",
	"/proc/stat",
	"/proc/cpuinfo",
	"/proc/version",
	"/sys/devices/system/node/online",
	"/sys/devices/system/node/possible",
	"/sys/devices/system/cpu/online",
	/* container markers */
	"/.dockerenv",
	"/run/.containerenv",
	"/run/systemd/container",
	"/proc/1/cgroup",
	"/proc/self/cgroup",
	"/proc/self/mountinfo",
};

static int collect(struct ctx *c)
{
	char **names, p[256];
	struct stat st;
	size_t i;
	int n, k;

	/* /etc/os-release is often a link to /usr/lib/os-release */
	if (!ctx_lstat(c, "/etc/os-release", &st) && S_ISLNK(st.st_mode)) {
		ctx_link(c, "/etc/os-release");
		ctx_file(c, "/usr/lib/os-release");
	}
	for (i = 0; i < ARRAY_SIZE(files); i++)
		ctx_file(c, files[i]);
	n = ctx_names(c, "/sys/devices/system/node", &names);
	for (k = 0; k < n; k++) {
		if (strncmp(names[k], "node", 4) ||
		    !strchr("0123456789", names[k][4]))
			continue;
		xsnprintf(p, sizeof(p), "/sys/devices/system/node/%s/cpulist",
			  names[k]);
		ctx_file(c, p);
		xsnprintf(p, sizeof(p), "/sys/devices/system/node/%s/meminfo",
			  names[k]);
		ctx_file(c, p);
	}
	if (n > 0)
		ctx_names_free(names, n);
	if (!c->files && c->rootfd >= 0 && !c->denied) {
		/* a partial tree (a copy of sys/class/infiniband alone) has
		 * none: absent from it, not a failure of the node */
		ctx_reason(c, "no identity file in this tree");
		return SRC_ABSENT;
	}
	if (!c->files) {
		ctx_reason(c, "no identity file could be read");
		return SRC_ERROR;
	}
	if (c->denied) {
		ctx_reason(c, "%lu files not readable without privileges",
			   c->denied);
		return SRC_PARTIAL;
	}
	return SRC_OK;
}

const struct source src_identity = {
	.name = "identity",
	.help = "hostname, OS, kernel, cmdline, uptime, boot and machine id, CPUs, NUMA, container",
	.timeout_ms = 5000,
	.max_bytes = 2u << 20,
	.collect = collect,
};
