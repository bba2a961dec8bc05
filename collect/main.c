/* rdma-collect: command line; everything else lives elsewhere */
#include <errno.h>
#include <getopt.h>
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
#include "src.h"
#include "term.h"
#include "util.h"
#include "version.h"

#ifndef VERSION
#define VERSION "0.0.0"
#endif

static const char usage_text[] =
"usage: rdma-collect [options]\n"
"\n"
"Snapshot a node's RDMA evidence (PCI, modules, /dev/infiniband, sysfs,\n"
"verbs, netdevs and PFC, kernel log, limits, IOMMU, NCCL settings) into\n"
"one <host>-<UTC time>.rdma.tar.zst.  Read-only; never hangs.\n"
"\n"
"  -o, --output PATH       folder for the bundle (default: .), or a file\n"
"                          name ending in .rdma.tar.zst\n"
"  -r, --root DIR          read DIR as if it were / (a fixture tree or an\n"
"                          unpacked bundle) instead of the live node\n"
"  -s, --sample SECONDS    read every counter a second time after SECONDS\n"
"                          (1-3600), so one bundle yields rates\n"
"  -p, --pid PID           also collect the limits and the NCCL/UCX/MPI\n"
"                          environment of process PID (repeatable)\n"
"  -a, --attach FILE       add FILE (NCCL log, perftest output, ...) under\n"
"                          rdma-collect/attach/ (repeatable)\n"
"      --commands          also run the allowlisted external commands\n"
"                          (mlxlink, mlxconfig -q, nvidia-smi topo -m, ...)\n"
"      --command-path DIRS where to look for them, colon-separated\n"
"                          (default: " COLLECT_COMMAND_PATH ")\n"
"      --fabric            also scan the whole InfiniBand subnet: nodes,\n"
"                          links, forwarding tables, every port's counters\n"
"                          (one node per fabric is enough)\n"
"      --fabric-port IBDEV[:PORT]  scan from this port (default: the first\n"
"                          active InfiniBand port); implies --fabric\n"
"      --fabric-timeout SECONDS  time budget of the scan (0.001-3600,\n"
"                          default 120); what was found by then is kept,\n"
"                          marked partial; implies --fabric\n"
"      --keep N|Nd         after the bundle is written, remove this host's\n"
"                          older bundles in the -o folder beyond the newest\n"
"                          N (the new one counts), or those collected more\n"
"                          than N days before it; only files named as the\n"
"                          collector names them (and their .key); one\n"
"                          collector at a time: see exit status 5\n"
"      --redact            replace hostnames, addresses, GUIDs, node\n"
"                          descriptions, user names and environment values\n"
"                          with keyed pseudonyms\n"
"      --redact-key FILE   the key for --redact (created with a random key\n"
"                          if FILE does not exist); default: a new key\n"
"                          written beside the bundle as <bundle>.key\n"
"      --deadline SECONDS  finish within SECONDS plus the --sample interval\n"
"                          and the --fabric budget (default 30)\n"
"      --timeout SECONDS   deadline of each source (default: the source's own;\n"
"                          the fabric scan has --fabric-timeout instead)\n"
"      --mad-timeout MS    timeout of each MAD of the mad source (1-60000,\n"
"                          default 300; each is sent at most twice)\n"
"      --max-file BYTES    keep at most the last BYTES of a file (default 4M)\n"
"      --max-bundle BYTES  cap on all evidence, uncompressed (default 256M)\n"
"      --only LIST         run only these sources (comma-separated)\n"
"      --skip LIST         do not run these sources\n"
"      --list-sources      print the sources and exit\n"
"  -q, --quiet             print only errors\n"
"  -v, --verbose           say what each source did\n"
"  -h, --help              print this help\n"
"  -V, --version           print the version, the commit and the linkage\n"
"\n"
"Exit status: 0 bundle written (a source that failed is recorded in the\n"
"manifest, it does not fail the bundle); 2 usage error; 3 the bundle could\n"
"not be written; 4 interrupted by a signal (no bundle is left behind);\n"
"5 another rdma-collect is writing into the --keep folder (its lock).\n"
"SOURCE_DATE_EPOCH fixes the timestamps for byte-identical bundles.\n";

enum {
	OPT_COMMANDS = 256,
	OPT_COMMAND_PATH,
	OPT_REDACT,
	OPT_REDACT_KEY,
	OPT_DEADLINE,
	OPT_TIMEOUT,
	OPT_MAD_TIMEOUT,
	OPT_MAX_FILE,
	OPT_MAX_BUNDLE,
	OPT_ONLY,
	OPT_SKIP,
	OPT_LIST,
	OPT_FABRIC,
	OPT_FABRIC_PORT,
	OPT_FABRIC_TIMEOUT,
	OPT_KEEP,
};

static const struct option longopts[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "root", required_argument, NULL, 'r' },
	{ "sample", required_argument, NULL, 's' },
	{ "pid", required_argument, NULL, 'p' },
	{ "attach", required_argument, NULL, 'a' },
	{ "commands", no_argument, NULL, OPT_COMMANDS },
	{ "command-path", required_argument, NULL, OPT_COMMAND_PATH },
	{ "redact", no_argument, NULL, OPT_REDACT },
	{ "redact-key", required_argument, NULL, OPT_REDACT_KEY },
	{ "deadline", required_argument, NULL, OPT_DEADLINE },
	{ "timeout", required_argument, NULL, OPT_TIMEOUT },
	{ "mad-timeout", required_argument, NULL, OPT_MAD_TIMEOUT },
	{ "max-file", required_argument, NULL, OPT_MAX_FILE },
	{ "max-bundle", required_argument, NULL, OPT_MAX_BUNDLE },
	{ "only", required_argument, NULL, OPT_ONLY },
	{ "skip", required_argument, NULL, OPT_SKIP },
	{ "list-sources", no_argument, NULL, OPT_LIST },
	{ "fabric", no_argument, NULL, OPT_FABRIC },
	{ "fabric-port", required_argument, NULL, OPT_FABRIC_PORT },
	{ "fabric-timeout", required_argument, NULL, OPT_FABRIC_TIMEOUT },
	{ "keep", required_argument, NULL, OPT_KEEP },
	{ "quiet", no_argument, NULL, 'q' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

static int usage_error(const char *fmt, const char *arg)
	__attribute__((format(printf, 1, 0)));

static int usage_error(const char *fmt, const char *arg)
{
	char msg[512];

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	snprintf(msg, sizeof(msg), fmt, arg);
#pragma GCC diagnostic pop
	fprintf(stderr, "rdma-collect: %s\n"
		"Try 'rdma-collect --help' for more information.\n", msg);
	return COLLECT_EXIT_USAGE;
}

/* "4M", "512k", "1048576" */
static int parse_size(const char *s, size_t *out)
{
	char num[32];
	size_t n = strlen(s), mult = 1;
	unsigned long long v;

	if (!n || n >= sizeof(num))
		return -1;
	memcpy(num, s, n + 1);
	switch (num[n - 1]) {
	case 'k': case 'K': mult = 1024; break;
	case 'm': case 'M': mult = 1024 * 1024; break;
	case 'g': case 'G': mult = 1024 * 1024 * 1024; break;
	default: break;
	}
	if (mult > 1)
		num[n - 1] = 0;
	if (parse_ull(num, 10, (1ull << 40) / mult, &v) < 0 || !v)
		return -1;
	*out = (size_t)v * mult;
	return 0;
}

/* "120", "0.5": seconds with up to three decimals, in ms (not 0) */
static int parse_ms(const char *s, int max_s, int *ms)
{
	const char *dot = strchr(s, '.');
	char whole[16];
	size_t n = dot ? (size_t)(dot - s) : strlen(s);
	long long sec, frac = 0;
	int i, digits = 0;

	if (!n || n >= sizeof(whole))
		return -1;
	memcpy(whole, s, n);
	whole[n] = 0;
	if (parse_ll(whole, 10, 0, max_s, &sec) < 0)
		return -1;
	if (dot) {
		for (i = 1; dot[i]; i++) {
			if (dot[i] < '0' || dot[i] > '9' || ++digits > 3)
				return -1;
			frac = frac * 10 + (dot[i] - '0');
		}
		if (!digits)
			return -1;
		for (; digits < 3; digits++)
			frac *= 10;
	}
	if ((!sec && !frac) || sec * 1000 + frac > (long long)max_s * 1000)
		return -1;
	*ms = (int)(sec * 1000 + frac);
	return 0;
}

/* --fabric-port IBDEV[:PORT]: a device name as in /sys/class/infiniband
 * and an optional port number (1-255) */
static int parse_fabric_port(const char *s, struct collect_opts *o)
{
	const char *colon = strchr(s, ':');
	size_t n = colon ? (size_t)(colon - s) : strlen(s);
	long long v = 0;

	if (!n || n >= sizeof(o->fabric_ca) || memchr(s, '/', n))
		return -1;
	if (colon && parse_ll(colon + 1, 10, 1, 255, &v) < 0)
		return -1;
	memcpy(o->fabric_ca, s, n);
	o->fabric_ca[n] = 0;
	o->fabric_port = (int)v;
	return 0;
}

static int check_sources(const char *list)
{
	const char *p = list;
	size_t i;

	while (*p) {
		const char *e = strchrnul(p, ',');
		int found = 0;

		for (i = 0; i < nsources; i++)
			if (strlen(sources[i]->name) == (size_t)(e - p) &&
			    !strncmp(sources[i]->name, p, (size_t)(e - p)))
				found = 1;
		if (!found) {
			fprintf(stderr, "rdma-collect: unknown source '%.*s' "
				"(see --list-sources)\n", (int)(e - p), p);
			return -1;
		}
		p = *e ? e + 1 : e;
	}
	return 0;
}

/* --keep needs a folder, and a host name that stays the same run after
 * run: --redact with a new key each run names the host anew each time */
static int keep_conflict(const struct collect_args *a)
{
	size_t ol = strlen(a->output), sl = strlen(BUNDLE_SUFFIX);

	if (ol > sl && !strcmp(a->output + ol - sl, BUNDLE_SUFFIX))
		return usage_error("--keep needs -o to name a folder, not "
				   "'%s'", a->output);
	if (a->redact && !a->redact_key)
		return usage_error("%s", "--keep with --redact needs "
				   "--redact-key (a new key names the host anew "
				   "each run)");
	return 0;
}

int main(int argc, char **argv)
{
	/* static: the option arrays live as long as the process */
	static struct collect_opts o;
	struct collect_args a;
	long long v;
	size_t i;
	int c;

	log_prog = "rdma-collect";
	term_guard_stdio();
	memset(&o, 0, sizeof(o));
	memset(&a, 0, sizeof(a));
	o.deadline_ms = 30000;
	o.max_file = 4u << 20;
	o.max_bundle = 256u << 20;
	o.command_path = COLLECT_COMMAND_PATH;
	o.fabric_timeout_ms = 120000;
	a.output = ".";
	a.argc = argc;
	a.argv = argv;

	while ((c = getopt_long(argc, argv, "o:r:s:p:a:qvhV", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'o':
			a.output = optarg;
			break;
		case 'r':
			o.root = optarg;
			break;
		case 's':
			if (parse_ll(optarg, 10, 1, 3600, &v) < 0)
				return usage_error("invalid --sample '%s' "
						   "(1-3600 seconds)", optarg);
			o.sample_s = (int)v;
			break;
		case 'p':
			if (parse_ll(optarg, 10, 1, INT_MAX, &v) < 0)
				return usage_error("invalid --pid '%s'", optarg);
			o.pids = xrealloc(o.pids, (size_t)(o.npids + 1) *
					  sizeof(*o.pids));
			o.pids[o.npids++] = (int)v;
			break;
		case 'a':
			o.attach = xrealloc(o.attach, (size_t)(o.nattach + 1) *
					    sizeof(*o.attach));
			o.attach[o.nattach++] = optarg;
			break;
		case OPT_COMMANDS:
			o.commands = 1;
			break;
		case OPT_COMMAND_PATH:
			o.command_path = optarg;
			break;
		case OPT_REDACT:
			a.redact = 1;
			break;
		case OPT_REDACT_KEY:
			a.redact = 1;
			a.redact_key = optarg;
			break;
		case OPT_DEADLINE:
			if (parse_ll(optarg, 10, 1, 3600, &v) < 0)
				return usage_error("invalid --deadline '%s' "
						   "(1-3600 seconds)", optarg);
			o.deadline_ms = (int)v * 1000;
			break;
		case OPT_TIMEOUT:
			if (parse_ll(optarg, 10, 1, 3600, &v) < 0)
				return usage_error("invalid --timeout '%s' "
						   "(1-3600 seconds)", optarg);
			o.source_timeout_ms = (int)v * 1000;
			break;
		case OPT_MAD_TIMEOUT:
			if (parse_ll(optarg, 10, 1, 60000, &v) < 0)
				return usage_error("invalid --mad-timeout '%s' "
						   "(1-60000 ms)", optarg);
			o.mad_timeout_ms = (int)v;
			break;
		case OPT_MAX_FILE:
			if (parse_size(optarg, &o.max_file) < 0)
				return usage_error("invalid --max-file '%s'",
						   optarg);
			break;
		case OPT_MAX_BUNDLE:
			if (parse_size(optarg, &o.max_bundle) < 0)
				return usage_error("invalid --max-bundle '%s'",
						   optarg);
			break;
		case OPT_ONLY:
			o.only = optarg;
			break;
		case OPT_SKIP:
			o.skip = optarg;
			break;
		case OPT_LIST:
			a.list = 1;
			break;
		case OPT_FABRIC:
			o.fabric = 1;
			break;
		case OPT_FABRIC_PORT:
			if (parse_fabric_port(optarg, &o) < 0)
				return usage_error("invalid --fabric-port '%s' "
						   "(IBDEV or IBDEV:PORT)", optarg);
			o.fabric = 1;
			break;
		case OPT_FABRIC_TIMEOUT:
			if (parse_ms(optarg, 3600, &o.fabric_timeout_ms) < 0)
				return usage_error("invalid --fabric-timeout '%s' "
						   "(0.001-3600 seconds)", optarg);
			o.fabric = 1;
			break;
		case OPT_KEEP:
			if (spool_parse_keep(optarg, &a.keep) < 0)
				return usage_error("invalid --keep '%s' (1-100000 "
						   "bundles, or 1d-36500d)", optarg);
			break;
		case 'q':
			a.quiet = 1;
			break;
		case 'v':
			log_verbose++;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return collect_close_stdout();
		case 'V':
			printf("rdma-collect %s (bundle format %d; commit %s, "
			       "%s)\n", VERSION, BUNDLE_FORMAT_VERSION,
			       build_commit, build_linkage);
			return collect_close_stdout();
		default:
			fprintf(stderr, "Try 'rdma-collect --help' for more "
				"information.\n");
			return COLLECT_EXIT_USAGE;
		}
	}
	if (optind < argc)
		return usage_error("unexpected argument '%s'", argv[optind]);
	if ((o.only && check_sources(o.only) < 0) ||
	    (o.skip && check_sources(o.skip) < 0))
		return COLLECT_EXIT_USAGE;
	if (a.list) {
		for (i = 0; i < nsources; i++)
			printf("%-10s %s\n", sources[i]->name, sources[i]->help);
		return collect_close_stdout();
	}
	if ((a.keep.count || a.keep.days) && keep_conflict(&a))
		return COLLECT_EXIT_USAGE;
	if (o.root) {
		struct stat st;

		if (stat(o.root, &st) < 0 || !S_ISDIR(st.st_mode))
			return usage_error("--root '%s' is not a folder",
					   o.root);
	}
	return collect_main(&o, &a);
}
