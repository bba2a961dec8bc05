/* analyze.h: the commands of rdma-analyze, as git's builtin.h.  Each
 * command is a cmd-<name>.c with its own option table and --help text; it
 * returns an exit status and never checks standard output itself: main.c
 * does that once, after the command returns. */
#ifndef ANALYZE_H
#define ANALYZE_H

#include <getopt.h>

/* the exit status of every command (rdma-analyze.1, EXIT STATUS) */
enum ra_exit {
	EXIT_OK = 0,		/* nothing at warning or above */
	EXIT_WARNING = 1,	/* warnings */
	EXIT_CRITICAL = 2,	/* critical findings */
	EXIT_USAGE = 3,		/* the command line is wrong */
	EXIT_INPUT = 4,		/* an input or the output cannot be used */

	EXIT_DIFFERENT = 1,	/* diff: A and B differ */
	EXIT_STOPPED = 1,	/* path: a route stops */
	EXIT_LOOP = 2,		/* path: a route loops */
};

/* "rdma-analyze: CMD: what is wrong; see 'rdma-analyze CMD --help'", one
 * line on standard error (CMD NULL: the command line as a whole); returns
 * EXIT_USAGE */
int usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* getopt_long for command CMD, with SHORTOPTS starting "+:" or ":": an
 * option not in its table, or without its argument, is refused here in one
 * line naming it and the command, and '?' returned (then EXIT_USAGE) */
int cmd_getopt(const char *cmd, int argc, char **argv, const char *shortopts,
	       const struct option *longopts);

/* -f/--format ARG of command CMD: its index in NAMES (NULL-terminated;
 * every command that prints has "text" first and "json" second, and takes
 * --json for -f json), or -1 after a usage error */
int format_arg(const char *cmd, const char *arg, const char *const *names);
enum { FORMAT_TEXT, FORMAT_JSON };
/* NAMES of the commands that print text or JSON, nothing else */
extern const char *const text_json_formats[];

/* what load and report read (cmd-load.c): the thresholds first, then
 * standard input ("-" among the files), then the bundles, diagnosed as
 * they arrive */
struct sqlite3;
struct load_stats;
struct load_args {
	const char *db, *thresholds, *expect_hcas;
	char **files;
	int nfiles;
};
int load_and_diagnose(struct sqlite3 *db, const struct load_args *a,
		      struct load_stats *st, int progress);

/* prune (cmd-prune.c): the older bundles of each node deleted with every
 * row of theirs, in one transaction, then VACUUM unless !vacuum; load
 * --keep runs it after the load.  j (JSON) or text get the bundles that
 * would go with dry_run.  0, or -1 with a message and nothing deleted */
struct json;
struct buf;
struct prune_args {
	long long keep, keep_days;	/* 0: not given */
	int dry_run, vacuum;
};
struct prune_stats {
	long long bundles, gone, kept_prev, kept_pairs, nodes_gone;
	long long bytes_before, bytes_after, delete_ms, vacuum_ms;
};
int prune_db(struct sqlite3 *db, const struct prune_args *a,
	     struct prune_stats *st, struct json *j, struct buf *text);
/* the one line on standard error that says what prune_db() did */
void prune_summary(const char *file, const struct prune_args *a,
		   const struct prune_stats *st);
/* ARG of --keep or --keep-days (OPT) of command CMD: 1 to 1,000,000, or
 * -1 after a usage error */
int prune_arg(const char *cmd, const char *opt, const char *arg,
	      long long *out);

int cmd_report(int argc, char **argv);
int cmd_load(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_rules(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_path(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_history(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_pairs(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_prune(int argc, char **argv);

#endif
