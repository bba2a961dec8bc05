/* src-limits: locked-memory limits (the collector's, --pid processes',
 * limits.conf), memory and huge pages.  RDMA pins memory: a memlock limit
 * below "unlimited" is the guides' first cause of "Couldn't allocate MR". */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "environ.h"
#include "json.h"
#include "log.h"
#include "src.h"
#include "util.h"

static void rlim(struct json *j, const char *key, int res)
{
	struct rlimit rl;

	json_obj_open(j, key);
	if (getrlimit(res, &rl) < 0) {
		json_str(j, "error", strerrorname_np(errno));
	} else {
		if (rl.rlim_cur == RLIM_INFINITY)
			json_str(j, "soft", "unlimited");
		else
			json_uint(j, "soft", rl.rlim_cur);
		if (rl.rlim_max == RLIM_INFINITY)
			json_str(j, "hard", "unlimited");
		else
			json_uint(j, "hard", rl.rlim_max);
	}
	json_obj_close(j);
}

static void self(struct ctx *c)
{
	struct buf out = BUF_INIT, lim = BUF_INIT;
	struct json j;
	int fd;

	if (ctx_is_root(c)) {
		ctx_stored(c, "limits");
		return;
	}
	json_init(&j, &out, 1);
	json_obj_open(&j, NULL);
	json_int(&j, "pid", getpid());
	json_int(&j, "euid", geteuid());
	rlim(&j, "memlock", RLIMIT_MEMLOCK);
	rlim(&j, "nofile", RLIMIT_NOFILE);
	rlim(&j, "stack", RLIMIT_STACK);
	json_obj_close(&j);
	json_end(&j);
	ctx_emit_buf(c, "limits/self.json", &out);
	/* /proc/self/limits as a file of the live system, not of a root */
	fd = open("/proc/self/limits", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		char chunk[4096];
		ssize_t n;

		while ((n = read(fd, chunk, sizeof(chunk))) > 0)
			buf_add(&lim, chunk, (size_t)n);
		close(fd);
		ctx_emit_buf(c, "limits/self.limits", &lim);
	}
	buf_release(&lim);
	buf_release(&out);
}

static void pid(struct ctx *c, int p)
{
	static const char *const files[] = { "limits", "status", "comm",
					     "cgroup" };
	struct buf env = BUF_INIT, out = BUF_INIT;
	char path[128];
	size_t i;
	int rc;

	for (i = 0; i < ARRAY_SIZE(files); i++) {
		xsnprintf(path, sizeof(path), "/proc/%d/%s", p, files[i]);
		ctx_file(c, path);
	}
	xsnprintf(path, sizeof(path), "/proc/%d/environ", p);
	rc = ctx_read(c, path, &env);
	if (rc < 0) {
		char sub[64];

		/* an unpacked bundle holds the filtered form instead */
		xsnprintf(sub, sizeof(sub), "environ/%d.env", p);
		if (ctx_stored(c, sub) < 0 && rc != -ENOENT) {
			c->denied += rc == -EACCES || rc == -EPERM;
			ctx_note(c, sub, "%s", strerrorname_np(-rc));
		}
	} else {
		environ_filter(env.buf, env.len, &out);
		xsnprintf(path, sizeof(path), "environ/%d.env", p);
		ctx_emit_buf(c, path, &out);
	}
	buf_release(&env);
	buf_release(&out);
}

static int collect(struct ctx *c)
{
	static const char *const files[] = {
		"/etc/security/limits.conf",
		"/proc/meminfo",
		"/sys/kernel/mm/transparent_hugepage/enabled",
		"/sys/kernel/mm/transparent_hugepage/defrag",
		"/proc/sys/vm/nr_hugepages",
		"/proc/sys/kernel/numa_balancing",
	};
	const struct tree_opts all = { .max_depth = 3 };
	char **names, p[256];
	int n, i, missing = 0;
	size_t k;

	for (k = 0; k < ARRAY_SIZE(files); k++)
		ctx_file(c, files[k]);
	ctx_tree(c, "/etc/security/limits.d", &all);
	ctx_tree(c, "/sys/kernel/mm/hugepages", &all);
	n = ctx_names(c, "/sys/devices/system/node", &names);
	for (i = 0; i < n; i++) {
		if (strncmp(names[i], "node", 4) ||
		    !strchr("0123456789", names[i][4]))
			continue;
		xsnprintf(p, sizeof(p), "/sys/devices/system/node/%s/hugepages",
			  names[i]);
		ctx_tree(c, p, &all);
	}
	if (n > 0)
		ctx_names_free(names, n);
	self(c);
	for (i = 0; i < c->opts->npids; i++) {
		struct stat st;

		xsnprintf(p, sizeof(p), "/proc/%d", c->opts->pids[i]);
		if (ctx_lstat(c, p, &st) < 0) {
			missing++;
			ctx_note(c, p + 1, "no such process");
			continue;
		}
		pid(c, c->opts->pids[i]);
	}
	if (missing) {
		ctx_reason(c, "%d of %d --pid processes not found", missing,
			   c->opts->npids);
		return SRC_PARTIAL;
	}
	if (c->denied) {
		ctx_reason(c, "%lu files not readable without privileges",
			   c->denied);
		return SRC_PARTIAL;
	}
	return SRC_OK;
}

const struct source src_limits = {
	.name = "limits",
	.help = "memlock limits (collector, --pid processes, limits.conf/limits.d), meminfo, huge pages",
	.timeout_ms = 5000,
	.max_bytes = 2u << 20,
	.collect = collect,
};
