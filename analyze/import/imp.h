/* imp: the import's own header, included by the files of this folder
 * only (the rest of the analyzer uses ../import.h).
 *
 * The pieces:
 *  - import.c: detection of the kind, the builder below, the generic
 *    rule, the synthesized manifest, provenance (which input file each
 *    entry came from), the bundle_r handed over.
 *  - import-read.c: reading the input (archive or folder) into memory
 *    under the bundle limits; import-text.c: pastes made readable and cut
 *    at their prompts; imp-named.c: pastes naming each file they show.
 *  - import-readers.c: the one table of readers, imp_readers[].
 *  - one parser per tool output (imp-ib.c, imp-host*.c, imp-rdma.c,
 *    imp-fabric-text.c, ...), and each kind's own feeder (imp-sysinfo.c,
 *    imp-ibdiag*.c): text in, bundle entries out, through the builder.
 *
 * Strength: an entry copied from a raw file (sos keeps copies of sysfs and
 * /proc) is IMP_RAW; one derived from a tool's text is IMP_DERIVED.  A raw
 * entry always wins over a derived one at the same path, whatever order
 * they arrive in; between two of the same strength the later one wins.
 */
#ifndef RDMA_ANALYZE_IMP_H
#define RDMA_ANALYZE_IMP_H

#include <stddef.h>
#include <stdint.h>

#include "breader.h"
#include "import.h"
#include "sources.h"

struct imp;			/* a bundle under construction */

enum imp_strength { IMP_DERIVED = 0, IMP_RAW = 1 };

/* A parser: text is NUL-terminated (len bytes); origin names the input
 * file ("sos_commands/infiniband/ibstat", "ethtool -S ens1f0np0.txt") for
 * provenance; arg is what the name pattern's '*' matched (the interface of
 * "ethtool -S IFACE", the device of "mlxlink -d DEV"), or NULL.
 * Returns 0 when it added evidence, 1 when the text is not this tool's
 * output (nothing added; the caller records "not recognized"), -1 on a
 * limit or memory failure (the import fails with the builder's error). */
typedef int (*imp_parse_fn)(struct imp *im, const char *text, size_t len,
			    const char *origin, const char *arg);

/* A reader of one tool's output: a row of imp_readers[] (import-
 * readers.c, the one table).  names: '|'-separated patterns matched
 * against the normalized file name, or the normalized command line of a
 * pasted part ("$ ethtool -S ens1 | grep err" reads ethtool_-S_ens1; see
 * imp_normalize); at most one '*', which matches one or more characters
 * and is passed as arg.  A name is a hint: recognize (NULL: by name only)
 * tells the tool's text by its content, so a file named anything, or a
 * part of a pasted ticket, still reaches its reader.  source: the
 * rdma-collect source the evidence belongs to (SOURCE_SYSFS, SOURCE_VERBS,
 * ... of include/sources.h); the import marks it "ok" (or "partial") in
 * the manifest.  fix: what the user would give to have it read ("the
 * output of ibstat"). */
struct imp_reader {
	const char *tool;	/* "ibstat": for messages and docs */
	const char *names;	/* "ibstat|ibstat_*" */
	enum source_id source;
	int (*recognize)(const char *text, size_t len);
	imp_parse_fn parse;
	const char *fix;
};

/* every reader, ended by a row with tool == NULL (import-readers.c) */
extern const struct imp_reader imp_readers[];

/* the parsers of the table (same contract as imp_parse_fn) */
#define IMP_PARSER(name) int name(struct imp *im, const char *text, \
				  size_t len, const char *origin, const char *arg)
IMP_PARSER(ib_devinfo);		/* imp-ib.c */
IMP_PARSER(ib_ibstat);
IMP_PARSER(ib_ibstatus);
IMP_PARSER(ib_show_gids);
IMP_PARSER(ib_ibv_devices);
IMP_PARSER(ib_ibdev2netdev);
IMP_PARSER(ib_ls_infiniband);
IMP_PARSER(ib_sminfo);
IMP_PARSER(ib_perfquery);
IMP_PARSER(ib_iblinkinfo);
IMP_PARSER(fab_ibnetdiscover);	/* imp-fabric-text.c */
IMP_PARSER(fab_ibswitches);
IMP_PARSER(fab_ibqueryerrors);
IMP_PARSER(rdma_link);		/* imp-rdma.c */
IMP_PARSER(rdma_dev);
IMP_PARSER(rdma_statistic);
IMP_PARSER(rdma_res);
IMP_PARSER(rdma_fi_info);
IMP_PARSER(ih_lspci);		/* imp-host-pci.c */
IMP_PARSER(ih_lsmod);		/* imp-host.c */
IMP_PARSER(ih_dmesg);
IMP_PARSER(ih_ulimit_soft);
IMP_PARSER(ih_ulimit_hard);
IMP_PARSER(ih_meminfo);
IMP_PARSER(ih_cmdline);
IMP_PARSER(ih_limits_conf);
IMP_PARSER(ih_mlxlink);
IMP_PARSER(ih_mst_status);
IMP_PARSER(ih_nccl_conf);
IMP_PARSER(ih_attachment);
IMP_PARSER(ih_ethtool_stats);	/* imp-host-net.c */
IMP_PARSER(ih_ethtool_rates);
IMP_PARSER(ih_ethtool_drvinfo);
IMP_PARSER(ih_ethtool_pause);
IMP_PARSER(ih_ethtool_link);
IMP_PARSER(ih_dcb_pfc);
IMP_PARSER(ih_mlnx_qos);
IMP_PARSER(ih_ip);
IMP_PARSER(ibdiag_dbcsv);	/* imp-ibdiag.c */
IMP_PARSER(ibdiag_log);		/* imp-ibdiag-log.c */
IMP_PARSER(imp_rd_hostname);	/* import.c */
IMP_PARSER(imp_rd_uname);
IMP_PARSER(imp_rd_uptime);
#undef IMP_PARSER
/* imp-ib.c: is s[0..n) the name of a /dev/infiniband node (uverbsN,
 * umadN, issmN, ucmN, rdma_cm)? */
int ib_devnode_name(const char *s, size_t n);

/* A parser that takes a text but leaves part of it out says why: the
 * input is then reported as read in part (INPUT_UNREAD names it, with
 * the reason), never as read whole.  Also kept in the manifest's notes. */
void imp_dropped(struct imp *im, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* A parser that took a text which shows nothing, and that nothing is
 * the fact (show_gids' "n_gids_found=0"), says so: an import of only
 * such inputs is still evidence read, not "nothing was read". */
void imp_empty(struct imp *im);

/* A kind's own feeder (ibdiagnet's folder) reading one of its files
 * with a reader: listed as that reader's input like a folder's file.
 * imp_reading before the parse (drops while it reads make the input
 * partial), imp_read_done after: rc 0 read, > 0 not read (why says
 * why), < 0 failed (the import fails anyway). */
void imp_reading(struct imp *im, const char *file, const char *tool);
void imp_read_done(struct imp *im, int rc, const char *why);

/* A file name as the parser tables see it: the last path part, without a
 * trailing ".txt", ".out" or ".log", every run of spaces and underscores
 * made one '_', so "ethtool -S ens1f0np0.txt", "ethtool_-S_ens1f0np0" and
 * sos's "ethtool_-S_ens1f0np0" all read "ethtool_-S_ens1f0np0".  out has
 * room for n bytes; returns out. */
char *imp_normalize(const char *name, char *out, size_t n);

/* --- the builder (import.c) --- */

/* add a file at a bundle path ("sys/class/infiniband/mlx5_0/fw_ver"); the
 * bytes are copied.  0, or -1 when a limit is reached (then the import
 * fails with one line). */
int imp_put(struct imp *im, const char *path, const char *data, size_t len,
	    const char *origin, enum imp_strength s);
/* the same with the content printf-formatted (derived) */
int imp_putf(struct imp *im, const char *origin, const char *path,
	     const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* a folder at path, empty unless entries go below it: what a tool
 * showed empty ("ibstatus: device '*': sys files not found" is an empty
 * sys/class/infiniband), or a thing known to exist and nothing more
 * about it (an RDMA device that fi_info or rdma res names) */
int imp_dir(struct imp *im, const char *path, const char *origin);
/* a symlink at path with target text (as the kernel would give it) */
int imp_link(struct imp *im, const char *path, const char *target,
	     const char *origin);
/* what is at path so far (a file's bytes, NUL-terminated), or NULL */
const char *imp_get(const struct imp *im, const char *path, size_t *len);
/* the input an entry came from ("" if none) */
const char *imp_get_origin(const struct imp *im, const char *path);
/* the names directly under dir so far, sorted; returns the count and a
 * malloc'ed array (the strings belong to the builder) */
size_t imp_list(const struct imp *im, const char *dir, const char ***names);

/* The PCI function of a device: makes sys/bus/pci/devices/<bdf> a link
 * to the function's folder and returns that folder's bundle path
 * ("sys/devices/pci0000:b0/0000:b1:00.0") in out.  imp_ibdev_pci() also
 * links sys/class/infiniband/<ibdev>/device to it, as the kernel does. */
const char *imp_pci_dir(struct imp *im, const char *bdf, char *out, size_t n);
int imp_ibdev_pci(struct imp *im, const char *ibdev, const char *bdf,
		  const char *origin);

/* The manifest: a source's status ("ok", "partial", "absent") and reason.
 * Every source starts "absent" with the reason "not in this <kind>". */
void imp_source(struct imp *im, enum source_id source, const char *status,
		const char *reason);
/* identity facts: "hostname", "kernel_release", "boot_id", "machine_id",
 * "collected_at" (ISO 8601 UTC), "uptime_s"; the first value given wins */
void imp_ident(struct imp *im, const char *key, const char *value);
/* a remark kept in the manifest's import.notes ("ibstat: port 3: no
 * Rate line") */
void imp_note(struct imp *im, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* What a fabric tool's text proves about the subnet (imp-fabric-text.c):
 * nodes, a JSON array of rdma-collect/fabric/fabric.json nodes, merged
 * into the stored document -- the same node (GUID, else a LID in common)
 * member by member and port by port, the newer text winning.  A node
 * known only by a LID has no "guid".  0, or -1 on a limit. */
struct jv;
int imp_fabric_merge(struct imp *im, const char *origin, const struct jv *nodes);

/* --- input files, and the kinds' own feeders --- */

/* one input file: its name relative to the input's top folder (an
 * archive's single top folder is dropped), its bytes (NUL-terminated) */
struct imp_in {
	const char *name;
	const char *data;
	size_t len;
};

/* One input file through the generic rule (import.c): a raw copy of a
 * node file (a name under sys/, proc/, etc/, dev/ as sos keeps them) goes
 * in as IMP_RAW at that path; any other name is normalized and given to
 * the first parser whose pattern matches.  Kinds that cut their own files
 * out of bigger ones (a sysinfo-snapshot HTML page) feed the pieces here
 * under the command's name.  0 parsed or copied, 1 nobody knew it (noted),
 * -1 failure. */
int imp_feed(struct imp *im, const char *name, const char *data, size_t len);

/* Kind handlers, called by imp_open with every input file (sorted by
 * name) when imp_detect found that kind; each feeds what it recognizes
 * (through imp_feed or the builder) and returns 0, or -1 on failure.
 * "sos" and "outputs" use imp_feed on every file and need no handler. */
int imp_kind_sysinfo(struct imp *im, const struct imp_in *v, size_t n);
int imp_kind_ibdiag(struct imp *im, const struct imp_in *v, size_t n);

/* --- inputs (import-read.c), pastes (import-text.c, imp-named.c) --- */

/* an input read whole (import-read.c) */
struct imp_input {
	char *top;		/* the dropped top folder, or NULL */
	struct imp_in *v;	/* regular files, sorted by name */
	size_t n;
	struct imp_in *links;	/* symlinks: data is the target text */
	size_t nlinks;
	size_t bytes;		/* of all files */
	size_t ignored;		/* unsafe names, devices, FIFOs, hard links */
	long long mtime;	/* the newest file's, 0 if unknown */
};

/* import-text.c: a paste made readable (CR, ANSI escapes, U+00A0, mail
 * quoting undone: what says which), as a malloc'ed copy */
#define IMP_CLEAN_CR 1
#define IMP_CLEAN_ANSI 2
#define IMP_CLEAN_NBSP 4
#define IMP_CLEAN_QUOTED 8
char *imp_clean(const char *data, size_t len, size_t *outlen, unsigned *what);
/* s past its '>' quoting marks and the blanks after each ("> > x" -> "x"):
 * for a reader whose lines were quoted when the rest of the text was not
 * (a README's output quoted under its bare command line) */
const char *imp_unquoted(const char *s);
/* ... cut at prompt lines and markdown fences: a part's text is in the
 * cleaned text; command is its prompt's command line (malloc'ed) or NULL */
struct imp_part {
	const char *text;
	size_t len;
	unsigned line;		/* its first line in the file, from 1 */
	char *command;
};
size_t imp_split(const char *text, size_t len, struct imp_part **parts);
void imp_parts_free(struct imp_part *v, size_t n);
/* the name a command line gives its output ("sudo ethtool -S ens1 | grep
 * err" -> "ethtool -S ens1"; "cat /proc/modules" -> "/proc/modules"):
 * 0, or -1 when there is none */
int imp_command_name(const char *cmd, char *out, size_t n);
/* is what cmd prints evidence of the kind rdma-analyze checks? */
int imp_command_relevant(const char *cmd);
/* is cmd a relevant tool's command whose output no check reads ("ethtool
 * -g IF": ring sizes)? */
int imp_command_unchecked(const char *cmd);

/* imp-named.c: a paste naming each file it shows (grep's "path:line",
 * head's "==> path <==", a loop's "=== name ===" under the folder its
 * prompt shows; above, alen: the prompt's line, or NULL), cut into
 * those files: 0 with *out (n; path without its leading '/', data the
 * file's text; free with imp_named_free) and *failed the files grep
 * said it could not read, 1 when the text is no such paste */
struct imp_named {
	char *path;
	char *data;
	size_t len;
};
int imp_named_files(const char *text, size_t len, const char *above,
		    size_t alen, struct imp_named **out, size_t *n,
		    unsigned *failed);
void imp_named_free(struct imp_named *v, size_t n);

/* read a folder or an archive under the limits; names_only: no bytes
 * (detection; every data is then "").  0, or -1 with a reason in err. */
int imp_read(const char *path, const struct br_limits *lim, int names_only,
	     struct imp_input *in, char *err, size_t errlen);
void imp_input_release(struct imp_input *in);

/* --- the host parsers' helpers (imp-host.c; imp-host*.c, imp-rdma.c and
 * import-readers.c use them) --- */

#define IH_LINE_MAX 4096	/* longer lines are cut (and never numbers) */

/* a text walked line by line; a last line without its newline is
 * "unterminated": a cut paste, whose numbers cannot be trusted */
struct ih_lines {
	const char *p, *end;
};

struct ih_line {
	char s[IH_LINE_MAX];	/* without the newline and a trailing '\r' */
	size_t len;
	int cut;		/* longer than IH_LINE_MAX - 1 */
	int unterminated;
};

void ih_lines_init(struct ih_lines *it, const char *text, size_t len);
/* the next line: 1, or 0 at the end */
int ih_next(struct ih_lines *it, struct ih_line *l);

/* s without its leading blanks */
const char *ih_skip(const char *s);
/* a whole unsigned decimal number, at most max; 0 or -1 */
int ih_u64(const char *s, uint64_t max, uint64_t *out);
/* does the text hold needle? */
int ih_has(const char *text, size_t len, const char *needle);

/* Rewrite the JSON object at path with member key set to value (JSON
 * text); the other members are kept.  A missing or foreign document is
 * started as { "ifname": ifname, "status": "ok" } when ifname is given,
 * else {}. */
int ih_json_set(struct imp *im, const char *path, const char *origin,
		const char *ifname, const char *key, const char *value);

/* is the line a kernel log record in one of the forms ih_dmesg reads
 * (dmesg, dmesg -r/-x/-T, journalctl -k, syslog, pstore)? */
int ih_is_klog_record(const char *s);

/* does the text hold a line NCCL's parser knows? */
int ih_is_nccl(const char *text, size_t len);

#endif
