/* src-commands: the output of a fixed allowlist of read-only vendor tools
 * (--commands, off by default).
 *
 * Nothing but the table below is ever run, and only as written there: the
 * program is looked up in the --command-path folders alone (absolute ones;
 * never the user's PATH), started with fork and execve (no shell), stdin
 * from /dev/null, stdout and stderr into pipes, in a process group of its
 * own, with the environment reduced to PATH=<command path> (its absolute
 * folders) and LC_ALL=C.
 * Each command has 10 s, or what is left of the source's deadline if that
 * is less; then its whole group is killed.  Any exit code is evidence.
 * Output is capped by --max-file, the tail kept.
 *
 * Stored per command, under rdma-collect/commands/<id>/: argv.json (the
 * exact argv given to execve, argv[0] the resolved program), stdout,
 * stderr, status.json.  Per-device commands run for every RDMA device
 * with a PCI function (mlxlink per device, mlxconfig per PCI address),
 * except devices a source hung on (quarantined).
 *
 * Under --root nothing is run: the tree's stored output is copied.
 *
 * Test hook: RDMA_COLLECT_TEST_IBCLASS=DIR lists the RDMA devices from DIR
 * instead of /sys/class/infiniband (a fixture tree; used by
 * tests/cli/commands.sh).  It changes only which device names are passed
 * to the allowlisted commands.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "buf.h"
#include "json.h"
#include "log.h"
#include "src.h"
#include "util.h"

#define CMD_TIMEOUT_MS	10000
#define CMD_MARGIN_MS	500	/* kept to store the last result in time */
#define CMD_MIN_MS	200	/* less than this left: do not start one */
#define CMD_GRACE_MS	300	/* after the exit, for output still in pipes */
#define CMD_REAP_MS	1000	/* after SIGKILL, to collect the status */
#define CMD_MAX_ARGS	8
#define CMD_MAX_DEVS	64
#define CMD_DEV		"@dev"	/* replaced by the device in argv */

enum cmd_each {
	EACH_NONE,
	EACH_IBDEV,	/* once per RDMA device, id "<id>-<ibdev>" */
	EACH_PCI,	/* once per PCI function, id "<id>-<bdf>" */
};

struct cmd {
	const char *id;
	enum cmd_each each;
	const char *const argv[CMD_MAX_ARGS];
};

/*
 * Queries only.  mlxlink: -m module info, -e eye opening, -c counters and
 * BER (shown; clearing them is --pc, which is never passed).  mlxconfig:
 * -e q queries current and default values.
 */
static const struct cmd cmds[] = {
	{ "ofed_info", EACH_NONE, { "ofed_info", "-s" } },
	{ "mst-status", EACH_NONE, { "mst", "status", "-v" } },
	{ "ibdev2netdev", EACH_NONE, { "ibdev2netdev", "-v" } },
	{ "rdma-link", EACH_NONE, { "rdma", "-j", "link", "show" } },
	{ "lldpcli-neighbors", EACH_NONE,
	  { "lldpcli", "-f", "json", "show", "neighbors" } },
	{ "nvidia-smi-topo", EACH_NONE, { "nvidia-smi", "topo", "-m" } },
	{ "nvidia-smi-q", EACH_NONE, { "nvidia-smi", "-q" } },
	{ "mlxlink", EACH_IBDEV,
	  { "mlxlink", "-d", CMD_DEV, "-m", "-e", "-c" } },
	{ "mlxconfig", EACH_PCI, { "mlxconfig", "-d", CMD_DEV, "-e", "q" } },
	{ "mlxfwmanager", EACH_NONE, { "mlxfwmanager", "--query" } },
};

struct dev {
	char ibdev[64];
	char bdf[16];
};

struct devs {
	struct dev v[CMD_MAX_DEVS];
	int n;
};

struct tally {
	int installed, ran, timed_out, skipped, failed;
	struct buf why;		/* what went wrong, for the reason */
	int64_t until_us;	/* the source's own deadline, less a margin */
	int reproducible;
	char **envp;
};

struct result {
	int reaped, status, timed_out;
	int64_t dur_ms;
	const char *error;
};

static int safe_dev_name(const char *s)
{
	size_t n = strlen(s);

	if (!n || n >= sizeof(((struct dev *)0)->ibdev) || *s == '-' ||
	    *s == '.')
		return 0;
	return strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			 "0123456789_.:-") == n;
}

static int is_bdf(const char *s)
{
	static const char shape[] = "xxxx:xx:xx.x";
	size_t i;

	if (strlen(s) != sizeof(shape) - 1)
		return 0;
	for (i = 0; shape[i]; i++)
		if (shape[i] == 'x' ? !strchr("0123456789abcdef", s[i]) :
				      s[i] != shape[i])
			return 0;
	return 1;
}

/* RDMA devices whose "device" link leads to a PCI function */
static void list_devs(struct ctx *c, struct devs *d)
{
	const char *class = getenv("RDMA_COLLECT_TEST_IBCLASS");
	char **names, p[PATH_MAX], real[PATH_MAX];
	const char *bdf;
	int n, i;

	d->n = 0;
	if (!class || !*class)
		class = "/sys/class/infiniband";
	n = ctx_names(c, class, &names);
	for (i = 0; i < n && d->n < CMD_MAX_DEVS; i++) {
		if (!safe_dev_name(names[i]) ||
		    check_snprintf(p, sizeof(p), "%s/%s/device", class,
				   names[i]) < 0 ||
		    ctx_resolve(c, p, real, sizeof(real)) < 0)
			continue;
		bdf = strrchr(real, '/');
		if (!bdf || !strstr(real, "/devices/pci") || !is_bdf(bdf + 1))
			continue;
		xsnprintf(d->v[d->n].ibdev, sizeof(d->v[d->n].ibdev), "%s",
			  names[i]);
		xsnprintf(d->v[d->n].bdf, sizeof(d->v[d->n].bdf), "%s", bdf + 1);
		d->n++;
	}
	if (n > 0)
		ctx_names_free(names, n);
}

/* the program in one of the (absolute) --command-path folders */
static int find_prog(const char *dirs, const char *prog, char *out, size_t n)
{
	const char *p = dirs, *e;
	struct stat st;

	for (; *p; p = *e ? e + 1 : e) {
		e = strchrnul(p, ':');
		if (e == p || *p != '/')
			continue;
		if (check_snprintf(out, n, "%.*s/%s", (int)(e - p), p, prog) < 0)
			continue;
		if (!stat(out, &st) && S_ISREG(st.st_mode) &&
		    (st.st_mode & 0111) && !access(out, X_OK))
			return 0;
	}
	return -ENOENT;
}

static void close_from(int lowfd)
{
	int fd;

	if (!close_range((unsigned)lowfd, ~0U, 0))
		return;
	for (fd = lowfd; fd < 1024; fd++)
		close(fd);
}

/* in the forked child: only async-signal-safe calls */
static void __attribute__((noreturn))
exec_child(pid_t parent, int in, int out, int err, char *const argv[],
	   char *const envp[])
{
	static const char msg[] = "rdma-collect: cannot execute the command\n";
	sigset_t all;
	int sig;

	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(127);
	if (dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
		_exit(127);
	close_from(3);
	for (sig = 1; sig < NSIG; sig++)
		signal(sig, SIG_DFL);
	sigemptyset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);
	execve(argv[0], argv, envp);
	if (write(2, msg, sizeof(msg) - 1) < 0)
		_exit(127);
	_exit(127);
}

static int drain(int *fd, struct buf *b)
{
	char chunk[16384];
	ssize_t r;

	while (*fd >= 0) {
		r = read(*fd, chunk, sizeof(chunk));
		if (r > 0) {
			buf_add_tail(b, chunk, (size_t)r);
			continue;
		}
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 && errno == EAGAIN)
			return 0;
		close(*fd);
		*fd = -1;
	}
	return 0;
}

/* run argv until until_us; output into out and err */
static int run(char *const argv[], char *const envp[], int64_t until_us,
	       struct buf *out, struct buf *err, struct result *res)
{
	int po[2] = { -1, -1 }, pe[2] = { -1, -1 }, nullfd = -1, rc = 0;
	int64_t start = mono_us(), grace_us = 0;
	int exited = 0, status = 0;
	pid_t pid, self = getpid();

	memset(res, 0, sizeof(*res));
	nullfd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (nullfd < 0 || pipe2(po, O_CLOEXEC) < 0 ||
	    pipe2(pe, O_CLOEXEC) < 0) {
		rc = -errno;
		goto out;
	}
	pid = fork();
	if (pid < 0) {
		rc = -errno;
		goto out;
	}
	if (!pid)
		exec_child(self, nullfd, po[1], pe[1], argv, envp);
	setpgid(pid, pid);	/* also here: no race with the kill below */
	close(po[1]);
	close(pe[1]);
	po[1] = pe[1] = -1;
	fcntl(po[0], F_SETFL, O_NONBLOCK);
	fcntl(pe[0], F_SETFL, O_NONBLOCK);
	for (;;) {
		struct pollfd pfd[2] = {
			{ .fd = po[0], .events = POLLIN },
			{ .fd = pe[0], .events = POLLIN },
		};
		int64_t now = mono_us(), end;
		int ms;

		if (!exited && waitpid(pid, &status, WNOHANG) == pid) {
			exited = 1;
			res->reaped = 1;
			grace_us = now + CMD_GRACE_MS * 1000;
		}
		if (exited && po[0] < 0 && pe[0] < 0)
			break;
		end = exited ? grace_us : until_us;
		if (now >= end) {
			res->timed_out = !exited;
			break;
		}
		ms = (int)((end - now) / 1000) + 1;
		if (ms > 50)
			ms = 50;
		if (poll(pfd, 2, ms) > 0) {
			drain(&po[0], out);
			drain(&pe[0], err);
		}
	}
	/* timed out, or a leftover of its group still holds the pipes */
	if (res->timed_out || po[0] >= 0 || pe[0] >= 0)
		kill(-pid, SIGKILL);
	if (!exited) {
		int64_t t = mono_us() + CMD_REAP_MS * 1000;

		while (mono_us() < t) {
			if (waitpid(pid, &status, WNOHANG) == pid) {
				res->reaped = 1;
				break;
			}
			usleep(5000);
		}
		if (!res->reaped)
			res->error = "did not end after SIGKILL "
				     "(stuck in the kernel?)";
	}
	drain(&po[0], out);
	drain(&pe[0], err);
	res->status = status;
	res->dur_ms = (mono_us() - start) / 1000;
out:
	if (nullfd >= 0)
		close(nullfd);
	if (po[0] >= 0)
		close(po[0]);
	if (po[1] >= 0)
		close(po[1]);
	if (pe[0] >= 0)
		close(pe[0]);
	if (pe[1] >= 0)
		close(pe[1]);
	return rc;
}

static void emit_argv(struct ctx *c, const char *id, char *const argv[])
{
	struct buf b = BUF_INIT;
	char p[256];
	struct json j;
	int i;

	json_init(&j, &b, 0);
	json_arr_open(&j, NULL);
	for (i = 0; argv[i]; i++)
		json_str(&j, NULL, argv[i]);
	json_arr_close(&j);
	json_end(&j);
	xsnprintf(p, sizeof(p), "commands/%s/argv.json", id);
	ctx_emit_buf(c, p, &b);
	buf_release(&b);
}

static void emit_status(struct ctx *c, const char *id,
			const struct result *res, int reproducible)
{
	struct buf b = BUF_INIT;
	char p[256];
	struct json j;
	int st = res->status;

	json_init(&j, &b, 0);
	json_obj_open(&j, NULL);
	if (res->reaped && WIFEXITED(st))
		json_int(&j, "exit", WEXITSTATUS(st));
	else
		json_null(&j, "exit");
	if (res->reaped && WIFSIGNALED(st)) {
		const char *abbr = sigabbrev_np(WTERMSIG(st));
		char sig[32];

		if (abbr)
			xsnprintf(sig, sizeof(sig), "SIG%s", abbr);
		else
			xsnprintf(sig, sizeof(sig), "%d", WTERMSIG(st));
		json_str(&j, "signal", sig);
	} else
		json_null(&j, "signal");
	json_bool(&j, "timed_out", res->timed_out);
	json_int(&j, "duration_ms", reproducible ? 0 : res->dur_ms);
	json_str(&j, "error", res->error);
	json_obj_close(&j);
	json_end(&j);
	xsnprintf(p, sizeof(p), "commands/%s/status.json", id);
	ctx_emit_buf(c, p, &b);
	buf_release(&b);
}

static void note_result(struct ctx *c, const char *id, const struct result *r)
{
	if (r->timed_out)
		ctx_note(c, id, "timed out after %lld ms, killed",
			 (long long)r->dur_ms);
	else if (r->reaped && WIFEXITED(r->status))
		ctx_note(c, id, "exit %d", WEXITSTATUS(r->status));
	else if (r->reaped && WIFSIGNALED(r->status))
		ctx_note(c, id, "killed by SIG%s",
			 sigabbrev_np(WTERMSIG(r->status)) ?
			 sigabbrev_np(WTERMSIG(r->status)) : "?");
}

static void why_add(struct tally *t, const char *id, const char *what)
{
	buf_addf(&t->why, "%s%s %s", t->why.len ? "; " : "", id, what);
}

/* one command line: key is the device ("" for none), dev replaces @dev */
static void run_one(struct ctx *c, struct tally *t, const struct cmd *cmd,
		    const char *path, const char *key, const char *dev)
{
	char id[128], what[512], *argv[CMD_MAX_ARGS + 1];
	struct buf out, err, line = BUF_INIT;
	struct result res;
	int64_t now, left, until;
	int i, rc;

	if (dev)
		xsnprintf(id, sizeof(id), "%s-%s", cmd->id, dev);
	else
		xsnprintf(id, sizeof(id), "%s", cmd->id);
	if (*key && ctx_quarantined(c, key)) {
		ctx_note(c, id, "skipped: %s is quarantined", key);
		why_add(t, id, "skipped (device quarantined)");
		t->skipped++;
		return;
	}
	now = mono_us();
	left = t->until_us - now;
	if (left < CMD_MIN_MS * 1000) {
		ctx_note(c, id, "skipped: the source's deadline is reached");
		why_add(t, id, "skipped (deadline)");
		t->skipped++;
		return;
	}
	until = now + (left < CMD_TIMEOUT_MS * 1000 ? left :
		       CMD_TIMEOUT_MS * 1000);
	argv[0] = (char *)path;
	buf_addstr(&line, cmd->argv[0]);
	for (i = 1; i < CMD_MAX_ARGS && cmd->argv[i]; i++) {
		argv[i] = (char *)(strcmp(cmd->argv[i], CMD_DEV) ?
				   cmd->argv[i] : dev);
		buf_addf(&line, " %s", argv[i]);
	}
	argv[i] = NULL;
	xsnprintf(what, sizeof(what), "%s", line.buf);
	buf_release(&line);

	emit_argv(c, id, argv);
	ctx_progress(c, key, what);
	buf_init(&out, c->opts->max_file);
	buf_init(&err, c->opts->max_file);
	rc = run(argv, t->envp, until, &out, &err, &res);
	if (rc < 0) {
		ctx_note(c, id, "cannot start: %s", strerror(-rc));
		why_add(t, id, "could not be started");
		t->failed++;
		goto out;
	}
	t->ran++;
	xsnprintf(what, sizeof(what), "commands/%s/stdout", id);
	ctx_emit_capped(c, what, &out);
	xsnprintf(what, sizeof(what), "commands/%s/stderr", id);
	ctx_emit_capped(c, what, &err);
	emit_status(c, id, &res, t->reproducible);
	note_result(c, id, &res);
	if (res.timed_out) {
		t->timed_out++;
		xsnprintf(what, sizeof(what), "timed out after %lld ms",
			  (long long)res.dur_ms);
		why_add(t, id, what);
	}
out:
	buf_release(&out);
	buf_release(&err);
}

static void run_cmd(struct ctx *c, struct tally *t, const struct cmd *cmd,
		    const struct devs *d)
{
	char path[PATH_MAX];
	int i, k;

	if (find_prog(c->opts->command_path, cmd->argv[0], path,
		      sizeof(path)) < 0) {
		ctx_note(c, cmd->id, "not installed");
		return;
	}
	t->installed++;
	switch (cmd->each) {
	case EACH_NONE:
		run_one(c, t, cmd, path, "", NULL);
		break;
	case EACH_IBDEV:
		for (i = 0; i < d->n; i++) {
			/* the PCI function of a quarantined device too */
			if (ctx_quarantined(c, d->v[i].bdf))
				run_one(c, t, cmd, path, d->v[i].bdf,
					d->v[i].ibdev);
			else
				run_one(c, t, cmd, path, d->v[i].ibdev,
					d->v[i].ibdev);
		}
		break;
	case EACH_PCI:
		for (i = 0; i < d->n; i++) {
			for (k = 0; k < i; k++)
				if (!strcmp(d->v[k].bdf, d->v[i].bdf))
					break;
			if (k < i)
				continue;
			run_one(c, t, cmd, path,
				ctx_quarantined(c, d->v[i].ibdev) ?
				d->v[i].ibdev : d->v[i].bdf, d->v[i].bdf);
		}
		break;
	}
	if (cmd->each != EACH_NONE && !d->n)
		ctx_note(c, cmd->id, "no RDMA device with a PCI function");
}

/* "PATH=" and the absolute folders of the command path (a relative one
 * would depend on the current folder: never searched, never passed on) */
static char *path_env(const char *dirs)
{
	struct buf b = BUF_INIT;
	const char *p = dirs, *e;

	buf_addstr(&b, "PATH=");
	for (; *p; p = *e ? e + 1 : e) {
		e = strchrnul(p, ':');
		if (e == p || *p != '/')
			continue;
		if (b.len > 5)
			buf_addch(&b, ':');
		buf_add(&b, p, (size_t)(e - p));
	}
	return buf_detach(&b, NULL);
}

static int from_root(struct ctx *c)
{
	int n = ctx_stored(c, "commands");

	if (n < 0) {
		ctx_reason(c, "no stored command output in the root (commands "
			   "run only on a live node)");
		return SRC_ABSENT;
	}
	ctx_note(c, "stored", "%d files copied from the root", n);
	return SRC_OK;
}

static int collect(struct ctx *c)
{
	const struct collect_opts *o = c->opts;
	const char *sde = getenv("SOURCE_DATE_EPOCH");
	struct tally t;
	struct devs d;
	char *pathenv;
	int64_t tmo_us, global_us;
	size_t i;
	int res;

	if (ctx_is_root(c))
		return from_root(c);
	memset(&t, 0, sizeof(t));
	buf_init(&t.why, 0);
	tmo_us = (int64_t)(o->source_timeout_ms ? o->source_timeout_ms :
			   c->src->timeout_ms) * 1000;
	global_us = c->start_us + (int64_t)o->deadline_ms * 1000 +
		    (int64_t)o->sample_s * 1000000;
	t.until_us = mono_us() + tmo_us;
	if (t.until_us > global_us)
		t.until_us = global_us;
	t.until_us -= CMD_MARGIN_MS * 1000;
	t.reproducible = sde && *sde;
	pathenv = path_env(o->command_path);
	t.envp = (char *[]){ pathenv, (char *)"LC_ALL=C", NULL };

	list_devs(c, &d);
	for (i = 0; i < ARRAY_SIZE(cmds); i++)
		run_cmd(c, &t, &cmds[i], &d);

	if (!t.installed) {
		ctx_reason(c, "none of the allowlisted commands is installed "
			   "in %s", o->command_path);
		res = SRC_ABSENT;
	} else if (t.timed_out || t.skipped || t.failed) {
		ctx_reason(c, "%s", t.why.buf);
		res = SRC_PARTIAL;
	} else if (!t.ran) {
		ctx_reason(c, "nothing to run: the installed commands are "
			   "per RDMA device, and there is none");
		res = SRC_ABSENT;
	} else {
		res = SRC_OK;
	}
	ctx_note(c, "ran", "%d", t.ran);
	free(pathenv);
	buf_release(&t.why);
	return res;
}

const struct source src_commands = {
	.name = "commands",
	.help = "allowlisted read-only tools (ofed_info, mlxlink, mlxconfig q, nvidia-smi, ...), --commands",
	.flags = SRC_F_OPTIN | SRC_F_STORED,
	.timeout_ms = 60000,
	.max_bytes = 64u << 20,
	.collect = collect,
};
