/* src-devnodes: /dev/infiniband as `ls -la` shows it.  Device nodes cannot
 * live in a bundle (or a git fixture), so this is syscall evidence:
 * rdma-collect/devnodes.json. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "json.h"
#include "log.h"
#include "src.h"
#include "util.h"

/* user or group name from the root's /etc/passwd or /etc/group, read as a
 * file: no NSS, which could block on a network directory */
static void id_name(struct ctx *c, const char *file, unsigned id, char *out,
		    size_t n)
{
	struct buf b = BUF_INIT;
	char *line, *save = NULL;

	out[0] = 0;
	if (id == 0) {
		xsnprintf(out, n, "root");
		return;
	}
	if (ctx_read(c, file, &b) < 0)
		goto out;
	for (line = strtok_r(b.buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *name = line, *f2, *f3;
		long long v;

		f2 = strchr(name, ':');
		if (!f2)
			continue;
		*f2++ = 0;
		f3 = strchr(f2, ':');
		if (!f3)
			continue;
		f3++;
		f2 = strchr(f3, ':');
		if (f2)
			*f2 = 0;
		if (!parse_ll(f3, 10, 0, 0xffffffffLL, &v) && v == id) {
			snprintf(out, n, "%s", name);
			break;
		}
	}
out:
	buf_release(&b);
	if (!out[0])
		snprintf(out, n, "%u", id);
}

static char type_letter(mode_t m)
{
	return S_ISCHR(m) ? 'c' : S_ISBLK(m) ? 'b' : S_ISDIR(m) ? 'd' :
	       S_ISLNK(m) ? 'l' : S_ISFIFO(m) ? 'p' : S_ISSOCK(m) ? 's' : '-';
}

/* one listing line as JSON: an element of "entries" (key NULL) or the
 * folder's own "dot" / its parent's "dotdot" */
static void entry_json(struct ctx *c, struct json *j, const char *key,
		       const char *name, const struct stat *st)
{
	char mode[8], user[64], group[64];

	json_obj_open(j, key);
	json_str(j, "name", name);
	json_strn(j, "type", (char[]){ type_letter(st->st_mode) }, 1);
	xsnprintf(mode, sizeof(mode), "%04o", (unsigned)(st->st_mode & 07777));
	json_str(j, "mode", mode);
	json_uint(j, "nlink", st->st_nlink);
	json_uint(j, "uid", st->st_uid);
	json_uint(j, "gid", st->st_gid);
	id_name(c, "/etc/passwd", st->st_uid, user, sizeof(user));
	id_name(c, "/etc/group", st->st_gid, group, sizeof(group));
	json_str(j, "user", user);
	json_str(j, "group", group);
	if (S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode)) {
		json_uint(j, "major", major(st->st_rdev));
		json_uint(j, "minor", minor(st->st_rdev));
	} else {
		json_uint(j, "size", (uint64_t)st->st_size);
	}
	if (!getenv("SOURCE_DATE_EPOCH"))
		json_int(j, "mtime", (int64_t)st->st_mtime);
	json_obj_close(j);
}

static int collect(struct ctx *c)
{
	const char *dir = "/dev/infiniband";
	struct buf out = BUF_INIT;
	char **names = NULL, p[512];
	struct json j;
	struct stat st;
	int n, i, res = SRC_OK;

	if (ctx_is_root(c)) {
		n = ctx_stored(c, "devnodes.json");
		if (n < 0) {
			ctx_reason(c, "no stored /dev/infiniband listing "
				   "under the root");
			return SRC_ABSENT;
		}
		return SRC_OK;
	}
	json_init(&j, &out, 1);
	json_obj_open(&j, NULL);
	json_str(&j, "path", dir);
	n = ctx_names(c, dir, &names);
	if (n < 0) {
		json_str(&j, "status", n == -ENOENT ? "absent" :
			 n == -EACCES ? "denied" : "error");
		json_str(&j, "errno", strerrorname_np(-n));
		ctx_reason(c, "%s: %s", dir, strerror(-n));
		res = n == -ENOENT ? SRC_ABSENT :
		      n == -EACCES ? SRC_DENIED : SRC_ERROR;
	} else {
		json_str(&j, "status", "ok");
		/* ls -la's "." and ".." lines */
		if (!ctx_lstat(c, dir, &st))
			entry_json(c, &j, "dot", ".", &st);
		if (!ctx_lstat(c, "/dev", &st))
			entry_json(c, &j, "dotdot", "..", &st);
	}
	json_arr_open(&j, "entries");
	for (i = 0; i < n; i++) {
		xsnprintf(p, sizeof(p), "%s/%s", dir, names[i]);
		if (ctx_lstat(c, p, &st) < 0)
			continue;
		entry_json(c, &j, NULL, names[i], &st);
	}
	json_arr_close(&j);
	json_obj_close(&j);
	json_end(&j);
	ctx_emit_buf(c, "devnodes.json", &out);
	if (n > 0)
		ctx_note(c, "entries", "%d", n);
	ctx_names_free(names, n > 0 ? n : 0);
	buf_release(&out);
	return res;
}

const struct source src_devnodes = {
	.name = "devnodes",
	.help = "/dev/infiniband: uverbsN, umadN, issmN, rdma_cm with type, major:minor, mode",
	.flags = SRC_F_STORED,
	.timeout_ms = 3000,
	.max_bytes = 256u << 10,
	.collect = collect,
};
