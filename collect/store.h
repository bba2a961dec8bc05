/* store: the bundle being built, in memory, and its writer.
 *
 * Entries arrive from sources in any order; the store keeps one per path
 * (the first wins), and writes them sorted after manifest.json, so the same
 * evidence always gives the same archive.  The store owns every entry.
 */
#ifndef RDMA_COLLECT_STORE_H
#define RDMA_COLLECT_STORE_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

enum entry_type { ENT_FILE, ENT_DIR, ENT_LINK };

struct entry {
	char *path;		/* relative, no leading '/' */
	char *data;		/* file bytes or link target; NULL for dirs */
	size_t len;
	uint32_t mode;
	uint8_t type;
	uint8_t truncated;
	int src;		/* index of the source that added it */
};

struct store {
	struct entry *v;
	size_t n, alloc;
	size_t *hash;		/* index + 1, 0 = empty */
	size_t hsize;
	size_t bytes;		/* data bytes held */
	size_t cap;		/* refuse data beyond this */
};

void store_init(struct store *s, size_t cap);
void store_release(struct store *s);
/* takes ownership of data (malloc'ed) on success and failure alike;
 * returns 0 added, 1 duplicate path, -1 invalid path, -2 over the cap */
int store_add(struct store *s, int type, const char *path, char *data,
	      size_t len, uint32_t mode, int truncated, int src);
struct entry *store_find(struct store *s, const char *path);
/* replace an entry's data (redaction); takes ownership */
void store_set_data(struct store *s, struct entry *e, char *data, size_t len);
void store_sort(struct store *s);
/* write manifest + entries to a temp file beside out, then move it to out
 * without replacing any file there: when unique (a name the collector
 * made), out becomes the first free of out, out-2, out-3 ... (size outsz);
 * else an existing out is an error.  0 or -1 with a message printed */
int store_write(struct store *s, const char *manifest, size_t mlen,
		char *out, size_t outsz, int unique, time_t mtime, int level);
/* 1 if path is acceptable in a bundle: relative, no "." or ".." parts,
 * no empty parts, no control characters */
int bundle_path_ok(const char *path);

#endif
