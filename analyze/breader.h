/* breader: one bundle, read whole into memory with libarchive (never
 * extracted to disk), checked against hostile input, indexed by path.
 *
 * Limits (struct br_limits) bound the file size, entry count, entry size,
 * total uncompressed size and path length; entries with absolute paths or
 * ".." parts, and device/FIFO entries, are ignored and counted.  A
 * truncated, corrupt, foreign or newer-format bundle fails with one line
 * in err.  Ownership: br_free() releases the bundle and all it returned.
 */
#ifndef RDMA_ANALYZE_BREADER_H
#define RDMA_ANALYZE_BREADER_H

#include <stddef.h>
#include <stdint.h>

#include "jsonp.h"

struct br_limits {
	size_t max_file;	/* compressed bundle size */
	size_t max_entries;
	size_t max_entry;	/* one entry's size */
	size_t max_total;	/* all entries, uncompressed */
	size_t max_path;
};

extern const struct br_limits br_default_limits;

enum br_type { BR_FILE, BR_DIR, BR_LINK };

struct br_entry {
	char *path;
	char *data;		/* file bytes (NUL-terminated) or link target */
	size_t len;
	int type;
};

/* the last folders br_get resolved (one bundle is read by one thread):
 * the loaders read file after file from a few linked folders in turn */
#define BR_CACHE_SLOTS 8
/* JSON values br_json() may parse from one bundle's documents, all told
 * (jsonp.h: JSON_PARSE_MAX_VALUES each): a normal bundle's load parses
 * under a million; this bounds the time a hostile one takes, as the
 * per-document limit bounds the memory */
#define BR_JSON_VALUES (4 * JSON_PARSE_MAX_VALUES)
struct br_dirslot {
	int ok;
	char dir[1024];
	char real[1024];
};
struct br_cache {
	size_t json_used;	/* JSON values br_json() parsed (zero: new) */
	unsigned next;
	struct br_dirslot slot[BR_CACHE_SLOTS];
};

struct bundle_r {
	char *file;		/* as given */
	char sha256[65];	/* of the compressed bytes: the bundle's identity */
	size_t size;		/* compressed bytes */
	struct jv *manifest;
	int format_version;
	struct br_entry *v;	/* sorted by path */
	size_t n;
	size_t total;
	size_t ignored;		/* unsafe or unsupported entries skipped */
	char *tar;		/* the entries' names and bytes (br_pack) */
	size_t tarlen;
	struct br_cache *cache;
	char **arena;		/* entries that needed their own copy */
	size_t narena;
};

/* 0, or -1 with a one-line reason (without the file name) in err */
int br_open(const char *file, const struct br_limits *lim,
	    struct bundle_r **out, char *err, size_t errlen);
/* the same over rawlen bytes in memory (the caller keeps them); name is
 * what b->file says */
int br_open_mem(const char *name, const void *raw, size_t rawlen,
		const struct br_limits *lim, struct bundle_r **out, char *err,
		size_t errlen);
void br_free(struct bundle_r *b);
/* b->v's names and bytes (data may be NULL where len is 0) laid out in
 * one block of their own size, NUL-terminated, which becomes b->tar; the
 * block before and the arena are freed */
void br_pack(struct bundle_r *b);
/* the entry at path, following symlinks inside the bundle (at most 40);
 * NULL if absent */
const struct br_entry *br_get(const struct bundle_r *b, const char *path);
/* the entry at path itself, following links only in its folders (like
 * lstat); NULL if absent */
const struct br_entry *br_lget(const struct bundle_r *b, const char *path);
/* the last part of a symlink's target ("0000:b1:00.0" for a device
 * link), or NULL if path is not a link */
const char *br_link_base(const struct bundle_r *b, const char *path);
/* a file's bytes (NUL-terminated), NULL if absent or not a file */
const char *br_data(const struct bundle_r *b, const char *path, size_t *len);
/* the first line of a file, trimmed, in out; NULL if absent */
const char *br_line(const struct bundle_r *b, const char *path, char *out,
		   size_t n);
/* the names directly under dir (after resolving links in dir), sorted;
 * returns the count; *names is malloc'ed (strings point into the bundle) */
size_t br_list(const struct bundle_r *b, const char *dir, const char ***names);
/* parse a JSON entry; NULL if absent or invalid (jfree the result) */
struct jv *br_json(const struct bundle_r *b, const char *path);
/* the resolved (link-free) form of path, in out; NULL if it leaves the
 * bundle or loops */
const char *br_resolve(const struct bundle_r *b, const char *path, char *out,
		       size_t n);

#endif
