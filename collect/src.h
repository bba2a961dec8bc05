/* src: the evidence-source plugin interface and the context a source runs in.
 *
 * A source is a descriptor in the registry (registry.c, built from the
 * table of names in include/sources.h).  The runner forks a child per
 * source; in the child, collect() reads the node through the ctx_*
 * functions below, which send every file, link and note to the parent
 * over a pipe.  collect() never prints and never exits: it returns a SRC_* result
 * and may leave a reason with ctx_reason().  If the child blocks (firmware
 * wedged in a sysfs read), the parent kills it at the deadline and keeps all
 * that arrived before.
 *
 * Every path is absolute as on a live node ("/sys/class/infiniband"); under
 * --root DIR the ctx functions resolve it inside DIR (symlinks included, so
 * nothing escapes the tree).  In the bundle a file keeps its path without
 * the leading slash.
 */
#ifndef RDMA_COLLECT_SRC_H
#define RDMA_COLLECT_SRC_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "buf.h"

enum src_result {
	SRC_OK,
	SRC_PARTIAL,
	SRC_ABSENT,
	SRC_DENIED,
	SRC_ERROR,
};

#define SRC_F_STORED	(1u << 0)	/* reads syscalls: --root copies the stored form */
#define SRC_F_OPTIN	(1u << 1)	/* runs only when its option asks (--commands) */
#define SRC_F_SAMPLE	(1u << 2)	/* the second counter pass (--sample) */
#define SRC_F_FABRIC	(1u << 3)	/* opt-in by --fabric, not --commands */

/* the fabric source's deadline beyond its own --fabric-timeout budget, so
 * the runner never has to kill it */
#define SRC_FABRIC_SLACK_MS 10000

struct ctx;

struct source {
	const char *name;
	const char *help;
	unsigned flags;
	int timeout_ms;
	size_t max_bytes;	/* cap on all the source adds */
	int (*collect)(struct ctx *c);
};

extern const struct source *const sources[];
extern const size_t nsources;

struct collect_opts {
	const char *root;	/* NULL: the live node */
	int sample_s;		/* 0: no second pass */
	int deadline_ms;	/* global */
	int source_timeout_ms;	/* 0: each source's own */
	int commands;		/* --commands */
	const char *command_path;
	char **attach;
	int nattach;
	int *pids;
	int npids;
	size_t max_file;	/* per-file cap, tail kept */
	size_t max_bundle;	/* uncompressed cap on everything */
	const char *only;	/* comma list of sources, NULL: all */
	const char *skip;	/* comma list of sources to skip */
	int mad_timeout_ms;	/* --mad-timeout, 0: the mad source's own */
	int fabric;		/* --fabric */
	char fabric_ca[32];	/* --fabric-port IBDEV, "" for the first */
	int fabric_port;	/* --fabric-port IBDEV:PORT, 0 for the first */
	int fabric_timeout_ms;	/* --fabric-timeout */
};

struct ctx {
	const struct collect_opts *opts;
	const struct source *src;
	int rootfd;		/* -1 on the live node */
	int wfd;		/* pipe to the parent */
	int64_t start_us;	/* collector start (monotonic) */
	int64_t counters_us;	/* when the first counter pass ran, 0 if not yet */
	char **quarantine;	/* device keys not to touch */
	size_t nquarantine;
	unsigned long files, denied, missing, errors;
	char reason[512];
};

/* --- reading the node (paths are absolute, resolved inside the root) --- */

/* read a regular file into out (capped at opts->max_file, tail kept);
 * returns 0 or -errno.  Never reads FIFOs or devices. */
int ctx_read(struct ctx *c, const char *path, struct buf *out);
/* read and store the file under its own path; 0 or -errno.
 * EACCES/EPERM count as denied, ENOENT as missing, others as errors,
 * except those listed in quiet (0-terminated, may be NULL). */
int ctx_file(struct ctx *c, const char *path);
int ctx_file_quiet(struct ctx *c, const char *path, const int *quiet);
/* store the file under another bundle path (the sample pass) */
int ctx_file_to(struct ctx *c, const char *path, const char *bpath);
/* store a symlink as a symlink; 0, -EINVAL (not a link) or -errno */
int ctx_link(struct ctx *c, const char *path);
/* resolve path (all symlinks, inside the root) to a root-relative
 * absolute path in out; 0 or -errno */
int ctx_resolve(struct ctx *c, const char *path, char *out, size_t n);
int ctx_lstat(struct ctx *c, const char *path, struct stat *st);
/* sorted names of a directory (no . and ..), *names freed with
 * ctx_names_free; returns the count or -errno */
int ctx_names(struct ctx *c, const char *path, char ***names);
void ctx_names_free(char **names, int n);
/* open inside the root (O_RDONLY|O_CLOEXEC are added) */
int ctx_open(struct ctx *c, const char *path, int flags);

/* mirror a tree: directories as directories, files as files, symlinks as
 * symlinks (never followed; if path itself is a link, its target is mirrored
 * too).  skip(name, relpath, isdir) returns 1 to leave an entry out. */
struct tree_opts {
	int max_depth;
	int (*skip)(const char *name, const char *rel, int isdir);
	const int *quiet;	/* errnos that are not errors (EINVAL for GIDs) */
};
int ctx_tree(struct ctx *c, const char *path, const struct tree_opts *o);

/* store bytes obtained another way (a library read) under the node path
 * they came from; 0 or -errno */
int ctx_put(struct ctx *c, const char *path, const void *data, size_t len,
	    unsigned mode);

/* --- evidence that is not a file (under the reserved folder) --- */

/* bpath is relative, under "rdma-collect/" */
int ctx_emit(struct ctx *c, const char *bpath, const void *data, size_t len);
int ctx_emit_buf(struct ctx *c, const char *bpath, const struct buf *b);
/* like ctx_emit_buf, and the entry is listed as truncated when the cap of
 * b cut it (b->truncated): for capped output such as a command's stdout */
int ctx_emit_capped(struct ctx *c, const char *bpath, const struct buf *b);
/* read a file of the machine running the collector, never inside --root
 * (the user's own --attach files), capped at opts->max_file keeping the
 * tail: the file's last bytes when it has a size (a log on disk), else as
 * ctx_read; 0 or -errno; only regular files (-EISDIR, -ENXIO otherwise) */
int ctx_read_host(struct ctx *c, const char *path, struct buf *out);
/* under --root: copy DIR/rdma-collect/<sub> (file or tree) into the bundle;
 * returns files copied, or -ENOENT when the root has no stored form */
int ctx_stored(struct ctx *c, const char *sub);

/* --- a library's messages --- */

/* what a library prints on stderr (libibverbs' driver warnings, libibmad's
 * failed MADs) goes into a memory file while q is open, so the collector
 * itself prints nothing; the messages become a note or evidence.  A
 * struct ctx_quiet starts with fd = saved = -1. */
struct ctx_quiet {
	int fd, saved;
};
void ctx_quiet_begin(struct ctx_quiet *q, const char *name);
/* what came so far, appended to out, while out holds less than max bytes */
void ctx_quiet_read(struct ctx_quiet *q, struct buf *out, size_t max);
void ctx_quiet_end(struct ctx_quiet *q);
/* ctx_quiet_end, and what came (its first max bytes, trailing newlines
 * and spaces cut) as the note key, if anything came */
void ctx_quiet_note(struct ctx *c, struct ctx_quiet *q, const char *key,
		    size_t max);

/* --- talking to the runner --- */

/* what the source is about to touch: key names a device ("mlx5_3",
 * "0000:b1:00.0", "eth2") so the runner can quarantine it if this hangs */
void ctx_progress(struct ctx *c, const char *key, const char *what);
int ctx_quarantined(struct ctx *c, const char *key);
/* a key/value for the manifest's entry of this source */
void ctx_note(struct ctx *c, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void ctx_reason(struct ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* 1 when running on a --root tree */
static inline int ctx_is_root(const struct ctx *c) { return c->rootfd >= 0; }

/* device key of a sysfs path: ibdev, PCI address or netdev, or NULL */
const char *path_device_key(const char *path, char *out, size_t n);

#endif
