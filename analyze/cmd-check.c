/* cmd-check: `rdma-analyze check`, the on-node health check for Slurm's
 * HealthCheckProgram, NHC, a prolog or a monitoring agent.  It runs
 * rdma-collect on this node as a child (the sources that need no fabric
 * access), under a deadline, loads the bundle into a database in memory,
 * runs the node checks and says the verdict as a Nagios plugin does: one
 * status line, one line per finding at warning or above, exit 0 OK, 1
 * WARNING, 2 CRITICAL, 3 UNKNOWN (the check itself could not run).
 *
 * Why here and not `rdma-collect --check`: the rules, SQLite and the
 * thresholds live in the analyzer; the collector stays small and
 * read-only, and a wedged device can only hang the child, which is killed
 * with its process group past the deadline. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "analyze.h"
#include "breader.h"
#include "buf.h"
#include "db.h"
#include "import.h"
#include "jsonp.h"
#include "json.h"
#include "load.h"
#include "log.h"
#include "report.h"
#include "rules.h"
#include "sha256.h"
#include "util.h"
#include "verdict.h"

static const char usage_text[] =
"usage: rdma-analyze check [options]\n"
"\n"
"Collect this node with rdma-collect (no fabric access: no MADs, no\n"
"--fabric), run the node checks on it and print the verdict as a Nagios\n"
"plugin: 'RDMA CRITICAL - host: 1 critical, 0 warning | critical=1\n"
"warning=0', then one line per finding at warning or above.\n"
"  --timeout S        give up after S seconds (1-3600, default 30): the\n"
"                     collector gets 3/4 of it and is killed with its\n"
"                     process group past S; exit 3\n"
"  --reason           print only a drain reason, one line under 200 bytes\n"
"                     ('rdma: PORT_DOWN mlx5_3:1; ...'), nothing when OK\n"
"  --expect FILE      the node's expected values: 'ATTRIBUTE VALUE' lines\n"
"                     (hcas 8, hca.*.fw 28.41.1000, as report --baseline)\n"
"                     or a known-good bundle; differences are findings\n"
"  --save DIR         keep the bundle in DIR, named as rdma-collect names it\n"
"  --keep N|Nd        with --save: rdma-collect's --keep on DIR\n"
"  --root TREE        collect TREE as if it were / (rdma-collect --root)\n"
"  --collector PATH   the rdma-collect to run (default: the one beside\n"
"                     rdma-analyze, ../sbin/rdma-collect, then PATH)\n"
"  --state DIR        keep this run's bundle in DIR (state.json and\n"
"                     previous.rdma) and judge the counters' growth since\n"
"                     the previous run as `history` does: a reboot or a\n"
"                     driver reload is a reset, not a growth\n"
"  --prom FILE        write the node's metrics (as report -f prom, plus\n"
"                     rdma_check_up, _status, _duration_seconds) to FILE,\n"
"                     atomically; when the check could not run, a file\n"
"                     with rdma_check_up 0 only\n"
"  --thresholds FILE  override thresholds ('name value' lines)\n"
"  -f, --format F     text (default) or json (the node verdict)\n"
"  --json             the same as --format json\n"
"\n"
"Exit status (Nagios): 0 OK; 1 warnings; 2 critical findings; 3 UNKNOWN:\n"
"usage error, no collector, the collector failed or timed out, or its\n"
"bundle could not be read.\n";

static const struct option opts[] = {
	{ "timeout", required_argument, NULL, 'T' },
	{ "reason", no_argument, NULL, 'r' },
	{ "expect", required_argument, NULL, 'e' },
	{ "save", required_argument, NULL, 's' },
	{ "keep", required_argument, NULL, 'k' },
	{ "root", required_argument, NULL, 'R' },
	{ "collector", required_argument, NULL, 'c' },
	{ "thresholds", required_argument, NULL, 't' },
	{ "state", required_argument, NULL, 'S' },
	{ "prom", required_argument, NULL, 'P' },
	{ "format", required_argument, NULL, 'f' },
	{ "json", no_argument, NULL, 'j' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* Nagios' UNKNOWN: the check could not run */
#define EXIT_UNKNOWN 3
/* Slurm's node reason field: keep the drain reason under this */
#define REASON_MAX 200

struct check_args {
	const char *expect, *save, *keep, *root, *collector, *thresholds;
	const char *state, *prom;
	int timeout_s, reason, format;
	int64_t start;		/* mono_ms() at the start, for --prom */
};

/* the collector's scratch folder (without --save) and bundle, for the
 * clean-up the deadline's signal handler does too */
static char tmp_dir[PATH_MAX], tmp_bundle[PATH_MAX];
/* --state: the temp copy of the bundle while it is written */
static char state_tmp[PATH_MAX];
static volatile sig_atomic_t child_pgid;

static int parse(int argc, char **argv, struct check_args *a)
{
	const char *format = "text";
	long long n;
	int c;

	memset(a, 0, sizeof(*a));
	a->timeout_s = 30;
	optind = 1;
	while ((c = cmd_getopt("check", argc, argv, "+:f:h", opts)) != -1) {
		switch (c) {
		case 'T':
			if (parse_ll(optarg, 10, 1, 3600, &n) < 0)
				return -usage_error("check", "invalid --timeout "
						    "'%s' (1-3600 seconds)", optarg);
			a->timeout_s = (int)n;
			break;
		case 'r': a->reason = 1; break;
		case 'e': a->expect = optarg; break;
		case 's': a->save = optarg; break;
		case 'k': a->keep = optarg; break;
		case 'R': a->root = optarg; break;
		case 'c': a->collector = optarg; break;
		case 't': a->thresholds = optarg; break;
		case 'S': a->state = optarg; break;
		case 'P': a->prom = optarg; break;
		case 'f': format = optarg; break;
		case 'j': format = "json"; break;
		case 'h':
			fputs(usage_text, stdout);
			return 1;
		default:
			return -EXIT_USAGE;
		}
	}
	if (optind < argc)
		return -usage_error("check", "unexpected argument '%s'",
				    argv[optind]);
	if (a->keep && !a->save)
		return -usage_error("check", "--keep needs --save DIR");
	if ((a->format = format_arg("check", format, text_json_formats)) < 0)
		return -EXIT_USAGE;
	return 0;
}

/* ------------------------------------------------------------ the verdict */

/* a finding's text on one line: control bytes and non-ASCII as '?' (the
 * components and summaries quote what the node reported) */
static void clean(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f)
			*s = '?';
}

/* the check's findings of a bundle: the node's own checks (pairs need
 * other bundles; fleet ones exist only against --expect), and with
 * --state the history's against the previous run's bundle */
#define NODE_FINDINGS "findings WHERE bundle_id = ? AND layer != 'pairs' " \
	"AND (layer != 'history' OR ?)"

/* --state: the history findings are the check's */
static int with_history;

/* those at warning or above, worst first */
static sqlite3_stmt *findings(sqlite3 *db, int64_t bid)
{
	return db_query(db, "SELECT severity, rule, component, summary FROM "
			NODE_FINDINGS " AND severity >= 1 ORDER BY severity "
			"DESC, " LAYER_ORDER ", rule, component", "ii", bid,
			(int64_t)with_history);
}

static int64_t count_sev(sqlite3 *db, int64_t bid, int sev)
{
	return db_int(db, "SELECT count(*) FROM " NODE_FINDINGS " AND "
		      "severity = ?", "iii", bid, (int64_t)with_history,
		      (int64_t)sev);
}

/* the Nagios output: status line with performance data, then a line per
 * finding; the exit status */
static int print_text(sqlite3 *db, int64_t bid, const char *saved)
{
	int64_t crit = count_sev(db, bid, SEV_CRITICAL);
	int64_t warn = count_sev(db, bid, SEV_WARNING);
	sqlite3_stmt *s = db_query(db, "SELECT hostname FROM bundles WHERE "
				   "id = ?", "i", bid);
	char host[128] = "";

	if (sqlite3_step(s) == SQLITE_ROW)
		snprintf(host, sizeof(host), "%s", db_col(s, 0));
	db_done(s);
	clean(host);
	if (!crit && !warn)
		printf("RDMA OK - %s: no finding at warning or above | "
		       "critical=0 warning=0\n", host);
	else
		printf("RDMA %s - %s: %lld critical, %lld warning | critical="
		       "%lld warning=%lld\n", crit ? "CRITICAL" : "WARNING",
		       host, (long long)crit, (long long)warn, (long long)crit,
		       (long long)warn);
	s = findings(db, bid);
	while (sqlite3_step(s) == SQLITE_ROW) {
		char *comp = xstrdup(db_col(s, 2)), *sum = xstrdup(db_col(s, 3));

		clean(comp);
		clean(sum);
		printf("%s %s %s %s\n", sqlite3_column_int(s, 0) == SEV_CRITICAL ?
		       "CRITICAL" : "WARNING", db_col(s, 1), comp, sum);
		free(comp);
		free(sum);
	}
	db_done(s);
	if (saved)
		printf("bundle %s\n", saved);
	return crit ? EXIT_CRITICAL : warn ? EXIT_WARNING : EXIT_OK;
}

/* append s to the reason r (len n so far) within REASON_MAX; 0, or -1
 * once it is full (then it ends with "...") */
static int reason_add(char *r, size_t *n, const char *s)
{
	size_t len = strlen(s);

	if (*n + len < REASON_MAX - 3) {
		memcpy(r + *n, s, len + 1);
		*n += len;
		return 0;
	}
	len = REASON_MAX - 4 - *n;
	memcpy(r + *n, s, len);
	memcpy(r + *n + len, "...", 4);
	*n += len + 3;
	return -1;
}

/* "rdma: PORT_DOWN mlx5_3:1,mlx5_4:1; PCIE_LINK_DEGRADED 0000:3c:00.0":
 * a rule once, its components after it (each once), worst first;
 * nothing when OK */
static int print_reason(sqlite3 *db, int64_t bid)
{
	sqlite3_stmt *s = findings(db, bid);
	char r[REASON_MAX + 1] = "rdma:", rule[128] = "", comp[128] = "";
	size_t n = strlen(r);
	int rc = EXIT_OK, full = 0;

	while (!full && sqlite3_step(s) == SQLITE_ROW) {
		char c[128];

		/* the worst finding comes first: it gives the status */
		if (rc == EXIT_OK)
			rc = sqlite3_column_int(s, 0) == SEV_CRITICAL ?
			     EXIT_CRITICAL : EXIT_WARNING;
		snprintf(c, sizeof(c), "%s", db_col(s, 2));
		clean(c);
		if (strcmp(rule, db_col(s, 1))) {
			snprintf(rule, sizeof(rule), "%s", db_col(s, 1));
			clean(rule);
			full = reason_add(r, &n, n > 5 ? "; " : " ") ||
			       reason_add(r, &n, rule) ||
			       (*c && reason_add(r, &n, " "));
		} else if (!*c || !strcmp(c, comp)) {
			continue;
		} else {
			full = reason_add(r, &n, ",");
		}
		snprintf(comp, sizeof(comp), "%s", c);
		if (!full && *c)
			full = reason_add(r, &n, c);
	}
	db_done(s);
	if (rc != EXIT_OK)
		puts(r);
	return rc;
}

/* the node verdict (verdict.h, schema/node-verdict.schema.json) */
static int print_json(sqlite3 *db, int64_t bid)
{
	if (verdict_write(db, bid, stdout) < 0)
		return EXIT_UNKNOWN;
	return count_sev(db, bid, SEV_CRITICAL) ? EXIT_CRITICAL :
	       count_sev(db, bid, SEV_WARNING) ? EXIT_WARNING : EXIT_OK;
}

static void check_prom(const struct check_args *a, sqlite3 *db, int64_t bid,
		       int status);

/* the check could not run: one status line (a reason line with --reason,
 * an object with -f json), and --prom's file says so */
static int unknown(const struct check_args *a, const char *why)
{
	char w[256];

	if (a->prom)
		check_prom(a, NULL, 0, EXIT_UNKNOWN);

	snprintf(w, sizeof(w), "%s", why);
	clean(w);
	if (a->format == FORMAT_JSON) {
		struct buf out = BUF_INIT;
		struct json j;

		json_init(&j, &out, 1);
		json_obj_open(&j, NULL);
		json_str(&j, "tool", "rdma-analyze");
		json_str(&j, "status", "UNKNOWN");
		json_str(&j, "error", w);
		json_obj_close(&j);
		json_end(&j);
		fwrite(out.buf, 1, out.len, stdout);
		buf_release(&out);
	} else if (a->reason) {
		printf("rdma: check failed: %s\n", w);
	} else {
		printf("RDMA UNKNOWN - %s\n", w);
	}
	return EXIT_UNKNOWN;
}

/* ----------------------------------------------------------- the collector */

static int executable(const char *p)
{
	struct stat sb;

	return !stat(p, &sb) && S_ISREG(sb.st_mode) && !access(p, X_OK);
}

/* --collector, beside this program, ../sbin (the packages' layout), then
 * each folder of PATH and the usual sbin folders */
static int find_collector(const char *given, char *out, size_t n)
{
	static const char *const extra[] = { "/usr/sbin", "/usr/local/sbin",
					     "/sbin" };
	char self[PATH_MAX], *slash, *path, *dir, *save;
	ssize_t len;
	size_t i;

	if (given) {
		if (check_snprintf(out, n, "%s", given) < 0 || !executable(out))
			return -1;
		return 0;
	}
	len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (len > 0) {
		self[len] = 0;
		if ((slash = strrchr(self, '/'))) {
			*slash = 0;
			if (check_snprintf(out, n, "%s/rdma-collect", self) >= 0 &&
			    executable(out))
				return 0;
			if (check_snprintf(out, n, "%s/../sbin/rdma-collect",
					   self) >= 0 && executable(out))
				return 0;
		}
	}
	path = strdup(getenv("PATH") ? getenv("PATH") : "");
	for (dir = strtok_r(path, ":", &save); dir;
	     dir = strtok_r(NULL, ":", &save))
		if (*dir && check_snprintf(out, n, "%s/rdma-collect", dir) >= 0 &&
		    executable(out)) {
			free(path);
			return 0;
		}
	free(path);
	for (i = 0; i < ARRAY_SIZE(extra); i++)
		if (check_snprintf(out, n, "%s/rdma-collect", extra[i]) >= 0 &&
		    executable(out))
			return 0;
	return -1;
}

/* the scratch folder and what the collector left there */
static void tmp_remove(void)
{
	DIR *d;
	struct dirent *e;
	char p[PATH_MAX];

	if (!*tmp_dir)
		return;
	if ((d = opendir(tmp_dir))) {
		while ((e = readdir(d)))
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
			    check_snprintf(p, sizeof(p), "%s/%s", tmp_dir,
					   e->d_name) >= 0)
				unlink(p);
		closedir(d);
	}
	rmdir(tmp_dir);
	*tmp_dir = 0;
}

/* path is a file right in the scratch folder */
static int in_tmp(const char *path)
{
	size_t n = strlen(tmp_dir);

	return n && !strncmp(path, tmp_dir, n) && path[n] == '/' &&
	       path[n + 1] && path[n + 1] != '.' && !strchr(path + n + 1, '/');
}

/* past the deadline while the bundle is analysed (it never should be):
 * UNKNOWN at once; only what a signal handler may call */
static void on_alarm(int sig)
{
	static const char msg[] = "RDMA UNKNOWN - deadline passed while "
				  "analysing the bundle\n";
	ssize_t w;

	(void)sig;
	if (child_pgid > 0)
		kill(-child_pgid, SIGKILL);
	if (*tmp_bundle)
		unlink(tmp_bundle);
	if (*state_tmp)
		unlink(state_tmp);
	if (*tmp_dir)
		rmdir(tmp_dir);
	w = write(STDOUT_FILENO, msg, sizeof(msg) - 1);
	(void)w;
	_exit(EXIT_UNKNOWN);
}

static int64_t left_ms(int64_t end)
{
	int64_t l = end - mono_ms();

	return l > 0 ? l : 0;
}

/* wait for pid until end (monotonic ms); its status, or -1 past end */
static int wait_until(pid_t pid, int64_t end, int *status)
{
	for (;;) {
		pid_t r = waitpid(pid, status, WNOHANG);

		if (r == pid)
			return 0;
		if (r < 0 && errno != EINTR)
			return -1;
		if (!left_ms(end))
			return -1;
		poll(NULL, 0, 10);
	}
}

/* past the deadline: TERM to the group (the collector removes its
 * partial bundle on a signal), then KILL; never waits long on a child
 * stuck in the kernel (uninterruptible sleep on a wedged device) */
static void stop_child(pid_t pid)
{
	int status;

	kill(-pid, SIGTERM);
	if (!wait_until(pid, mono_ms() + 300, &status))
		return;
	kill(-pid, SIGKILL);
	wait_until(pid, mono_ms() + 300, &status);
}

/* child side: stdin /dev/null, stdout the pipe, its own process group */
static void exec_collector(const char *path, char **argv, int out)
{
	int fd = open("/dev/null", O_RDONLY);

	setpgid(0, 0);
	if (fd >= 0 && fd != STDIN_FILENO) {
		dup2(fd, STDIN_FILENO);
		close(fd);
	}
	dup2(out, STDOUT_FILENO);
	if (out != STDOUT_FILENO)
		close(out);
	signal(SIGPIPE, SIG_DFL);
	execv(path, argv);
	_exit(127);
}

/* run the collector into dir; the bundle's path (its standard output) in
 * bundle; 0, or -1 with why */
static int run_collector(const struct check_args *a, const char *path,
			 const char *dir, int64_t end, char *bundle, size_t n,
			 char *why, size_t wn)
{
	char deadline[16], *argv[16];
	int p[2], k = 0, status;
	size_t got = 0;
	pid_t pid;

	/* 3/4 of the time to the collector's own deadline: the rest is the
	 * analysis's and the margin of a collector that overruns it */
	snprintf(deadline, sizeof(deadline), "%d",
		 a->timeout_s * 3 / 4 > 0 ? a->timeout_s * 3 / 4 : 1);
	argv[k++] = (char *)path;
	argv[k++] = (char *)"-q";
	argv[k++] = (char *)"--skip";
	argv[k++] = (char *)"mad";
	argv[k++] = (char *)"--deadline";
	argv[k++] = deadline;
	argv[k++] = (char *)"-o";
	argv[k++] = (char *)dir;
	if (a->keep) {
		argv[k++] = (char *)"--keep";
		argv[k++] = (char *)a->keep;
	}
	if (a->root) {
		argv[k++] = (char *)"--root";
		argv[k++] = (char *)a->root;
	}
	argv[k] = NULL;
	if (pipe(p) < 0) {
		snprintf(why, wn, "pipe: %s", strerror(errno));
		return -1;
	}
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		snprintf(why, wn, "fork: %s", strerror(errno));
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (!pid) {
		close(p[0]);
		exec_collector(path, argv, p[1]);
	}
	setpgid(pid, pid);	/* either side may run first */
	child_pgid = pid;
	close(p[1]);
	/* its standard output: the bundle's path, until EOF or the end */
	for (;;) {
		struct pollfd pf = { p[0], POLLIN, 0 };
		ssize_t r;
		int pr = poll(&pf, 1, (int)left_ms(end));

		if (pr < 0 && errno == EINTR)
			continue;
		if (pr <= 0)
			break;
		r = read(p[0], bundle + got, n - 1 - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
		if (got == n - 1)
			break;
	}
	close(p[0]);
	bundle[got] = 0;
	if (wait_until(pid, end, &status) < 0) {
		stop_child(pid);
		child_pgid = 0;
		snprintf(why, wn, "rdma-collect did not finish within the %d s "
			 "deadline (killed)", a->timeout_s);
		return -1;
	}
	child_pgid = 0;
	if (WIFSIGNALED(status)) {
		snprintf(why, wn, "rdma-collect killed by signal %d",
			 WTERMSIG(status));
		return -1;
	}
	if (WEXITSTATUS(status)) {
		snprintf(why, wn, WEXITSTATUS(status) == 127 ? "cannot run %s" :
			 "%s exited with status %d", path, WEXITSTATUS(status));
		return -1;
	}
	bundle[strcspn(bundle, "\n")] = 0;
	if (!*bundle) {
		snprintf(why, wn, "rdma-collect named no bundle");
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------ the analysis */

/* --prom */

/* what check_prom_to writes: the bundle's metrics (db NULL: none, the
 * check could not run), then the check's own */
struct check_prom {
	sqlite3 *db;
	int64_t bid;
	int status;		/* Nagios' exit status */
	double seconds;
	const char *node;
};

/* a label value in the text format: \\, \" and \n escaped */
static void prom_label(FILE *out, const char *s)
{
	for (; *s; s++)
		if (*s == '\\' || *s == '"')
			fprintf(out, "\\%c", *s);
		else if (*s == '\n')
			fputs("\\n", out);
		else
			fputc(*s, out);
}

static void prom_gauge(FILE *out, const char *name, const char *help,
		       const char *node, const char *value)
{
	fprintf(out, "# HELP %s %s\n# TYPE %s gauge\n%s{node=\"", name, help,
		name, name);
	prom_label(out, node);
	fprintf(out, "\"} %s\n", value);
}

static int check_prom_to(void *arg, FILE *out)
{
	struct check_prom *p = arg;
	char v[32], *node = NULL;
	sqlite3_stmt *s;

	if (p->db) {
		if (report_prom_write(p->db, &p->bid, 1, out) < 0)
			return -1;
		/* the node label report_prom_write gave the bundle */
		s = db_query(p->db, "SELECT node FROM prom_bundles WHERE "
			     "bundle_id = ?", "i", p->bid);
		if (sqlite3_step(s) == SQLITE_ROW)
			node = xstrdup(db_col(s, 0));
		db_done(s);
	}
	if (!node)
		node = xstrdup(p->node);
	prom_gauge(out, "rdma_check_up", "1 if rdma-analyze check collected "
		   "and judged the node, 0 if it could not (status UNKNOWN: "
		   "no other metric of the node then).", node,
		   p->db ? "1" : "0");
	snprintf(v, sizeof(v), "%d", p->status);
	prom_gauge(out, "rdma_check_status", "Exit status of rdma-analyze "
		   "check, Nagios': 0 OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN.",
		   node, v);
	snprintf(v, sizeof(v), "%.3f", p->seconds);
	prom_gauge(out, "rdma_check_duration_seconds", "How long rdma-analyze "
		   "check took, the collection included.", node, v);
	free(node);
	return ferror(out) ? -1 : 0;
}

/* --prom FILE, replaced whole; the verdict stands if it cannot be written
 * (one message on stderr).  db NULL: the check could not run, and the node
 * label is this host's name */
static void check_prom(const struct check_args *a, sqlite3 *db, int64_t bid,
		       int status)
{
	struct check_prom p = { db, bid, status, 0, "" };
	char host[256] = "";

	p.seconds = (double)(mono_ms() - a->start) / 1000.0;
	if (!db) {
		if (gethostname(host, sizeof(host) - 1) < 0)
			*host = 0;
		clean(host);
		p.node = host;
	}
	report_write_file(a->prom, check_prom_to, &p);
}

/* ---------------------------------------------------------------- --state */

/* DIR/state.json says which run DIR/previous.rdma is (the node, its boot
 * and uptime, its RDMA drivers and HCAs) and pins the bundle by size and
 * SHA-256.  The bundle itself is kept rather than its counters: loaded
 * beside this run's bundle, the history's rules judge the growth as
 * `history` does (a new boot_id, a counter that went down or a reloaded
 * driver is a reset; 32-bit PMA counters saturate). */
#define STATE_JSON "state.json"
#define STATE_BUNDLE "previous.rdma"
#define STATE_VERSION 1
/* state.json is a few KiB; a bundle without fabric data some 50 KiB
 * (gpu-ndr8's): larger ones are not kept */
#define STATE_JSON_MAX (256 * 1024)
#define STATE_BUNDLE_MAX (16 * 1024 * 1024)
/* what state.json lists of a bundle, and its strings' length */
#define STATE_ROWS 64
#define STATE_STR 256

/* the one note of a state that cannot be used: the check goes on */
static int state_note(const char *dir, const char *why)
{
	warning("check: --state %s: %s: ignored", dir, why);
	return -1;
}

/* open a regular file at most max bytes long for reading, never blocking
 * on a FIFO nor following a symbolic link; its size in *size */
static int open_regular(const char *path, off_t max, off_t *size)
{
	struct stat sb;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return -1;
	if (fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode) || sb.st_size > max) {
		*size = fstat(fd, &sb) < 0 ? -1 : sb.st_size;
		close(fd);
		errno = EFBIG;
		return -1;
	}
	*size = sb.st_size;
	return fd;
}

/* the SHA-256 of path (a regular file, at most STATE_BUNDLE_MAX bytes) in
 * hex; -1 (errno EFBIG: too large or not a file) */
static int file_sha256(const char *path, char hex[65], off_t *size)
{
	struct sha256_ctx c;
	unsigned char md[32], b[65536];
	ssize_t r;
	off_t got = 0;
	int fd = open_regular(path, STATE_BUNDLE_MAX, size), i;

	if (fd < 0)
		return -1;
	sha256_init(&c);
	while ((r = read(fd, b, sizeof(b))) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 || (got += r) > STATE_BUNDLE_MAX) {
			close(fd);
			return -1;
		}
		sha256_update(&c, b, (size_t)r);
	}
	close(fd);
	sha256_final(&c, md);
	for (i = 0; i < 32; i++)
		snprintf(hex + 2 * i, 3, "%02x", md[i]);
	*size = got;
	return 0;
}

/* DIR/state.json and the bundle it names: 0 and its path in prev and hash
 * in sha; 1 when there is none (the first run); -1 after one note */
static int state_read(const char *dir, char *prev, size_t n, char sha[65])
{
	char path[PATH_MAX], err[256], got[65], *text;
	struct jv *j, *b;
	const char *h;
	off_t size, bsize;
	ssize_t r;
	int fd, rc = -1;

	if (check_snprintf(path, sizeof(path), "%s/" STATE_JSON, dir) < 0 ||
	    check_snprintf(prev, n, "%s/" STATE_BUNDLE, dir) < 0)
		return state_note(dir, "path too long");
	if ((fd = open_regular(path, STATE_JSON_MAX, &size)) < 0) {
		if (errno == ENOENT)
			return 1;
		snprintf(err, sizeof(err), STATE_JSON ": %s", errno == EFBIG ?
			 "not a regular file of at most 256 KiB" : strerror(errno));
		return state_note(dir, err);
	}
	text = xmalloc((size_t)size + 1);
	do
		r = read(fd, text, (size_t)size);
	while (r < 0 && errno == EINTR);
	close(fd);
	if (r != size) {
		free(text);
		return state_note(dir, STATE_JSON ": short read");
	}
	j = jparse(text, (size_t)size, err, sizeof(err));
	free(text);
	if (!j)
		return state_note(dir, STATE_JSON ": not JSON");
	b = jget(j, "bundle");
	h = jstr(b, "sha256");
	bsize = (off_t)jint(b, "bytes", -1);
	if (j->t != J_OBJ || jint(j, "state_version", 0) != STATE_VERSION ||
	    !h || strlen(h) != 64 || strspn(h, "0123456789abcdef") != 64)
		state_note(dir, STATE_JSON ": not a state file of version 1");
	else if (file_sha256(prev, got, &size) < 0)
		state_note(dir, STATE_BUNDLE ": unreadable, not a file or too "
			   "large");
	else if (size != bsize || strcmp(got, h))
		state_note(dir, STATE_BUNDLE ": not the bundle " STATE_JSON
			   " names");
	else {
		memcpy(sha, h, 65);
		rc = 0;
	}
	jfree(j);
	return rc;
}

/* a string of the bundle, bounded */
static void state_str(struct json *j, const char *key, sqlite3_stmt *s, int i)
{
	const char *v = db_col_null(s, i);

	if (v)
		json_strn(j, key, v, strnlen(v, STATE_STR));
	else
		json_null(j, key);
}

struct state_doc {
	sqlite3 *db;
	int64_t bid;
	const char *sha;
	off_t size;
};

static int state_to(void *arg, FILE *out)
{
	struct state_doc *d = arg;
	struct buf b = BUF_INIT;
	struct json j;
	sqlite3_stmt *s;

	json_init(&j, &b, 1);
	json_obj_open(&j, NULL);
	json_int(&j, "state_version", STATE_VERSION);
	json_str(&j, "tool", "rdma-analyze check");
	s = db_query(d->db, "SELECT hostname, machine_id, boot_id, "
		     "collected_at, CAST(uptime_s AS INTEGER), kernel_release "
		     "FROM bundles WHERE id = ?", "i", d->bid);
	if (sqlite3_step(s) == SQLITE_ROW) {
		state_str(&j, "node", s, 0);
		state_str(&j, "machine_id", s, 1);
		state_str(&j, "boot_id", s, 2);
		state_str(&j, "collected_at", s, 3);
		json_int(&j, "uptime_s", sqlite3_column_int64(s, 4));
		state_str(&j, "kernel", s, 5);
	}
	db_done(s);
	/* the driver's identity: a reload shows as a new srcversion or
	 * version, or as counters that went down */
	json_arr_open(&j, "drivers");
	s = db_query(d->db, "SELECT name, version, srcversion FROM modules "
		     "WHERE bundle_id = ? AND (name LIKE 'mlx%' OR name LIKE "
		     "'ib\\_%' ESCAPE '\\' OR name IN ('rdma_cm', 'rdma_ucm', "
		     "'rdma_rxe', 'siw', 'irdma', 'efa', 'bnxt_re', 'bnxt_en', "
		     "'hns_roce_hw_v2', 'qedr', 'ionic_rdma', 'mana_ib', "
		     "'nvidia_peermem')) ORDER BY name LIMIT " "64", "i", d->bid);
	while (sqlite3_step(s) == SQLITE_ROW) {
		json_obj_open(&j, NULL);
		state_str(&j, "module", s, 0);
		state_str(&j, "version", s, 1);
		state_str(&j, "srcversion", s, 2);
		json_obj_close(&j);
	}
	db_done(s);
	json_arr_close(&j);
	json_arr_open(&j, "hcas");
	s = db_query(d->db, "SELECT ibdev, fw_ver, hca_type, board_id, "
		     "pci_addr, node_guid FROM devices WHERE bundle_id = ? "
		     "ORDER BY ibdev LIMIT 64", "i", d->bid);
	while (sqlite3_step(s) == SQLITE_ROW) {
		json_obj_open(&j, NULL);
		state_str(&j, "device", s, 0);
		state_str(&j, "fw", s, 1);
		state_str(&j, "hca_type", s, 2);
		state_str(&j, "board_id", s, 3);
		state_str(&j, "pci", s, 4);
		state_str(&j, "node_guid", s, 5);
		json_obj_close(&j);
	}
	db_done(s);
	json_arr_close(&j);
	json_obj_open(&j, "bundle");
	json_str(&j, "file", STATE_BUNDLE);
	json_int(&j, "bytes", (int64_t)d->size);
	json_str(&j, "sha256", d->sha);
	json_obj_close(&j);
	json_obj_close(&j);
	json_end(&j);
	fwrite(b.buf, 1, b.len, out);
	buf_release(&b);
	return ferror(out) ? -1 : 0;
}

/* copy bundle to DIR/previous.rdma through a temp file: whole or not */
static int state_copy(const char *dir, const char *bundle)
{
	char tmp[PATH_MAX], dst[PATH_MAX], b[65536];
	off_t size;
	ssize_t r;
	int in, out, ok = 1;

	if (check_snprintf(tmp, sizeof(tmp), "%s/." STATE_BUNDLE ".XXXXXX",
			   dir) < 0 ||
	    check_snprintf(dst, sizeof(dst), "%s/" STATE_BUNDLE, dir) < 0)
		return -1;
	if ((in = open_regular(bundle, STATE_BUNDLE_MAX, &size)) < 0)
		return -1;
	if ((out = mkstemp(tmp)) < 0) {
		close(in);
		return -1;
	}
	memcpy(state_tmp, tmp, sizeof(tmp));	/* for on_alarm */
	while (ok && (r = read(in, b, sizeof(b))) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		ok = r > 0 && write(out, b, (size_t)r) == r;
	}
	close(in);
	ok = ok && fsync(out) == 0;
	ok = close(out) == 0 && ok;
	ok = ok && rename(tmp, dst) == 0;
	if (!ok) {
		int e = errno;

		unlink(tmp);
		errno = e;
	}
	*state_tmp = 0;
	return ok ? 0 : -1;
}

/* keep this run's bundle (its hash sha, "" when it is too large to keep)
 * and its state.json; a bundle too large to keep removes the state (the
 * next run compares with nothing rather than with an older run) */
static void state_save(const char *dir, const char *bundle, sqlite3 *db,
		       int64_t bid, const char *sha, off_t size)
{
	struct state_doc d = { db, bid, sha, size };
	char path[PATH_MAX];
	struct stat sb;

	if (check_snprintf(path, sizeof(path), "%s/" STATE_JSON, dir) < 0)
		return;
	if (!*sha) {
		warning("check: --state %s: the bundle is not a file of at "
			"most 16 MiB: not kept", dir);
		unlink(path);
		return;
	}
	/* report_write_file writes in place what is not a regular file */
	if (!lstat(path, &sb) && !S_ISREG(sb.st_mode) && unlink(path) < 0) {
		warning("check: --state %s: cannot remove " STATE_JSON ": %s",
			dir, strerror(errno));
		return;
	}
	if (state_copy(dir, bundle) < 0) {
		warning("check: --state %s: cannot keep the bundle: %s", dir,
			strerror(errno));
		return;
	}
	report_write_file(path, state_to, &d);
}


/* --expect: a bundle (loaded, not diagnosed) or a file of expected values;
 * then the fleet checks compare the node with it */
static int expect_pass(sqlite3 *db, const char *path, int64_t bid)
{
	struct bundle_r *b = NULL;
	char err[512];
	int rc;

	if (imp_or_br_open(path, NULL, &b, err, sizeof(err)) < 0) {
		rc = fleet_baseline_file(db, path);
	} else {
		struct load_stats st;
		char *files[1] = { (char *)path };

		br_free(b);
		memset(&st, 0, sizeof(st));
		load_files(db, files, 1, 0, NULL, &st);
		rc = st.nall == 1 ? fleet_baseline_bundle(db, st.all_ids[0]) :
				    error("--expect '%s' could not be loaded", path);
		load_stats_release(&st);
	}
	if (rc < 0)
		return -1;
	return rules_run_fleet(db, &bid, 1);
}

static int analyse(const struct check_args *a, const char *bundle,
		   const char *saved)
{
	struct load_args l;
	struct load_stats st;
	char prev[PATH_MAX], prev_sha[65] = "", sha[65] = "";
	char *files[2] = { prev, (char *)bundle };
	off_t size = 0;
	sqlite3 *db;
	int64_t bid, prev_id = 0;
	size_t nall;
	int rc;

	memset(&l, 0, sizeof(l));
	memset(&st, 0, sizeof(st));
	l.thresholds = a->thresholds;
	l.files = files + 1;
	l.nfiles = 1;
	if (!(db = db_open(":memory:")))
		return unknown(a, "cannot open a database in memory");
	/* --state: the previous run's bundle too, diagnosed as `history`
	 * diagnoses a node's bundles (the same bundle again is no past) */
	if (a->state) {
		with_history = 1;
		if (file_sha256(bundle, sha, &size) < 0)
			*sha = 0;
		if (*sha && !state_read(a->state, prev, sizeof(prev), prev_sha) &&
		    strcmp(prev_sha, sha)) {
			l.files = files;
			l.nfiles = 2;
		}
	}
	if (load_and_diagnose(db, &l, &st, 0) < 0 || !st.nall) {
		load_stats_release(&st);
		db_close(db);
		return unknown(a, "the collector's bundle could not be read");
	}
	bid = st.all_ids[st.nall - 1];
	nall = st.nall;
	load_stats_release(&st);
	if (l.nfiles == 2) {
		bid = db_int(db, "SELECT id FROM bundles WHERE sha256 = ?", "s",
			     sha);
		prev_id = db_int(db, "SELECT id FROM bundles WHERE sha256 = ?",
				 "s", prev_sha);
		if (bid <= 0) {
			db_close(db);
			return unknown(a, "the collector's bundle could not be "
				       "read");
		}
		if (prev_id <= 0)
			state_note(a->state, STATE_BUNDLE ": not a bundle");
		else if (db_int(db, "SELECT count(DISTINCT node_id) FROM "
				"bundles WHERE id IN (?, ?)", "ii", prev_id,
				bid) != 1)
			state_note(a->state, "the previous run is another "
				   "node's");
	} else if (nall != 1) {
		db_close(db);
		return unknown(a, "the collector's bundle could not be read");
	}
	if (a->expect && expect_pass(db, a->expect, bid) < 0) {
		db_close(db);
		return unknown(a, "--expect could not be used");
	}
	if (a->format == FORMAT_JSON)
		rc = print_json(db, bid);
	else if (a->reason)
		rc = print_reason(db, bid);
	else
		rc = print_text(db, bid, saved);
	fflush(stdout);
	if (a->prom)
		check_prom(a, db, bid, rc);
	if (a->state && rc != EXIT_UNKNOWN)
		state_save(a->state, bundle, db, bid, sha, size);
	db_close(db);
	return rc;
}

/* the scratch folder for the bundle: $TMPDIR or /tmp, private */
static int make_tmp(char *why, size_t wn)
{
	const char *t = getenv("TMPDIR");

	if (!t || !*t)
		t = "/tmp";
	if (check_snprintf(tmp_dir, sizeof(tmp_dir), "%s/rdma-check.XXXXXX",
			   t) < 0 || !mkdtemp(tmp_dir)) {
		snprintf(why, wn, "cannot make a folder in %s: %s", t,
			 strerror(errno));
		*tmp_dir = 0;
		return -1;
	}
	return 0;
}

int cmd_check(int argc, char **argv)
{
	struct check_args a;
	char collector[PATH_MAX], bundle[PATH_MAX], why[PATH_MAX + 64];
	struct stat sb;
	int64_t end;
	int rc;

	if ((rc = parse(argc, argv, &a)))
		return rc > 0 ? EXIT_OK : -rc;
	a.start = mono_ms();
	end = a.start + (int64_t)a.timeout_s * 1000;
	if (find_collector(a.collector, collector, sizeof(collector)) < 0) {
		snprintf(why, sizeof(why), "rdma-collect not found%s%s",
			 a.collector ? ": " : " (install it, or --collector PATH)",
			 a.collector ? a.collector : "");
		return unknown(&a, why);
	}
	if (a.save && mkdir(a.save, 0750) < 0 && errno != EEXIST) {
		snprintf(why, sizeof(why), "cannot make %s: %s", a.save,
			 strerror(errno));
		return unknown(&a, why);
	}
	/* a state folder that cannot be had is a note: the check goes on */
	if (a.state && (mkdir(a.state, 0700) < 0 && errno != EEXIST)) {
		state_note(a.state, strerror(errno));
		a.state = NULL;
	} else if (a.state && (stat(a.state, &sb) < 0 || !S_ISDIR(sb.st_mode))) {
		state_note(a.state, "not a folder");
		a.state = NULL;
	}
	if (!a.save && make_tmp(why, sizeof(why)) < 0)
		return unknown(&a, why);
	if (run_collector(&a, collector, a.save ? a.save : tmp_dir, end, bundle,
			  sizeof(bundle), why, sizeof(why)) < 0) {
		tmp_remove();
		return unknown(&a, why);
	}
	/* what the signal handler may remove: a file of the scratch folder
	 * only, whatever the collector named */
	if (!a.save && in_tmp(bundle))
		snprintf(tmp_bundle, sizeof(tmp_bundle), "%s", bundle);
	/* the analysis is bounded too: a second past the deadline at most */
	signal(SIGALRM, on_alarm);
	alarm((unsigned)(left_ms(end) / 1000 + 1));
	rc = analyse(&a, bundle, a.save ? bundle : NULL);
	alarm(0);
	*tmp_bundle = 0;
	tmp_remove();
	return rc;
}
