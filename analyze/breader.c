/* breader: read and index a bundle (see breader.h) */
#include <archive.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "breader.h"
#include "buf.h"
#include "bundle.h"
#include "log.h"
#include "sha256.h"
#include "util.h"

const struct br_limits br_default_limits = {
	.max_file = 512u << 20,
	.max_entries = 200000,
	.max_entry = 64u << 20,
	.max_total = 1024u << 20,
	.max_path = 4096,
};

#define MAX_MANIFEST (4u << 20)
#define MAX_HOPS 40

/* a control character (below 0x20, or DEL) in p[0, n): eight bytes at a
 * time (a byte below n in a word w: (w - n x ones) & ~w & high, exact for
 * n <= 0x80; DEL is a zero byte of w ^ 0x7f...).  Every entry name of a
 * bundle, about 100 bytes each, passes here: a loop a byte was 3% of a
 * load. */
static int has_control(const char *p, size_t n)
{
	const uint64_t ones = 0x0101010101010101ull, high = ones << 7;
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		uint64_t w, d;

		memcpy(&w, p + i, 8);
		d = w ^ (0x7f * ones);
		if (((w - 0x20 * ones) & ~w & high) || ((d - ones) & ~d & high))
			return 1;
	}
	for (; i < n; i++)
		if ((unsigned char)p[i] < 0x20 || p[i] == 0x7f)
			return 1;
	return 0;
}

/* a path we accept: relative, no "." or ".." parts, no empty parts, no
 * control characters; a trailing '/' (directories) is dropped */
static int clean_span(const char *p, size_t max, size_t *off, size_t *len)
{
	size_t n = strlen(p), o = 0;
	const char *s, *e, *end;

	while (n && p[n - 1] == '/')
		n--;
	while (n - o >= 2 && p[o] == '.' && p[o + 1] == '/')
		o += 2;
	n -= o;
	p += o;
	if (!n || n >= max || p[0] == '/')
		return -1;
	end = p + n;
	for (s = p; s < end; s = e + 1) {
		e = memchr(s, '/', (size_t)(end - s));
		if (!e)
			e = end;
		if (e == s || (e - s == 1 && s[0] == '.') ||
		    (e - s == 2 && s[0] == '.' && s[1] == '.'))
			return -1;
	}
	if (has_control(p, n))
		return -1;
	*off = o;
	*len = n;
	return 0;
}

/* by path, then in tar order: every path points into its own header in
 * the one decompressed tar, so a later entry has a higher address */
static int cmp_entry(const void *a, const void *b)
{
	const char *pa = ((const struct br_entry *)a)->path;
	const char *pb = ((const struct br_entry *)b)->path;
	int c = strcmp(pa, pb);

	return c ? c : (pa > pb) - (pa < pb);
}

/* rdma-collect writes the manifest first and every other entry sorted:
 * then only the manifest moves to its place; anything else is sorted */
static void sort_entries(struct bundle_r *b)
{
	size_t i, lo = 1, hi = b->n;
	struct br_entry m;

	for (i = 2; i < b->n && cmp_entry(&b->v[i - 1], &b->v[i]) < 0; i++)
		;
	if (i < b->n) {
		qsort(b->v, b->n, sizeof(*b->v), cmp_entry);
		return;
	}
	if (b->n < 2)
		return;
	m = b->v[0];
	while (lo < hi) {	/* the first entry after the manifest */
		size_t mid = (lo + hi) / 2;

		if (cmp_entry(&b->v[mid], &m) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	memmove(&b->v[0], &b->v[1], (lo - 1) * sizeof(*b->v));
	b->v[lo - 1] = m;
}

/* a path given twice keeps its last entry, as tar -x leaves it on disk;
 * the earlier ones are counted as ignored */
static void drop_duplicates(struct bundle_r *b)
{
	size_t i, n = 0;

	for (i = 0; i < b->n; i++) {
		if (i + 1 < b->n && !strcmp(b->v[i].path, b->v[i + 1].path))
			b->ignored++;
		else
			b->v[n++] = b->v[i];
	}
	b->n = n;
}

static const struct br_entry *find(const struct bundle_r *b, const char *path)
{
	size_t lo = 0, hi = b->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(b->v[mid].path, path);

		if (!c)
			return &b->v[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static int check_manifest(struct bundle_r *b, const char *text, size_t len,
			  char *err, size_t errlen)
{
	char jerr[160];
	int64_t ver;

	b->manifest = jparse(text, len, jerr, sizeof(jerr));
	if (!b->manifest) {
		snprintf(err, errlen, "manifest.json is not valid JSON: %s", jerr);
		return -1;
	}
	if (!jstr(b->manifest, "format") ||
	    strcmp(jstr(b->manifest, "format"), BUNDLE_FORMAT)) {
		snprintf(err, errlen, "manifest does not name the format '%s'",
			 BUNDLE_FORMAT);
		return -1;
	}
	ver = jint(b->manifest, "format_version", -1);
	if (ver < 1) {
		snprintf(err, errlen, "manifest has no valid format_version");
		return -1;
	}
	if (ver > BUNDLE_FORMAT_VERSION) {
		snprintf(err, errlen, "bundle format %lld is newer than this "
			 "rdma-analyze reads (%d): upgrade rdma-analyze",
			 (long long)ver, BUNDLE_FORMAT_VERSION);
		return -1;
	}
	b->format_version = (int)ver;
	return 0;
}

/* a copy that lives as long as the bundle (entries whose bytes cannot be
 * NUL-terminated in place) */
static char *arena_dup(struct bundle_r *b, const char *p, size_t n)
{
	char *d = xmalloc(n + 1);

	memcpy(d, p, n);
	d[n] = 0;
	b->arena = xrealloc(b->arena, (b->narena + 1) * sizeof(*b->arena));
	b->arena[b->narena++] = d;
	return d;
}

/* --- the tar stream ---
 *
 * libarchive streams and decompresses the bundle (its zstd filter, "raw"
 * format); the tar inside is read here, in place, over the decompressed
 * bytes: entries point into that buffer, so a bundle of 4,000 entries is
 * one allocation, not 8,000.  (libarchive's own tar reader converts every
 * name to a wide string and back, which was a quarter of the load time.)
 * Read: POSIX ustar and pax ('x' per entry: path, linkpath, size; 'g' is
 * skipped), GNU long names ('L', 'K'); regular files, directories,
 * symlinks.  Hard links, devices, FIFOs and unknown types are counted in
 * `ignored`.  Every field is bounds-checked; a bad header checksum, a
 * size past the end or a malformed pax record is an error. */

#define TBLOCK 512

static int64_t tnum(const unsigned char *f, size_t n);
static int tsum_ok(const unsigned char *h);
static int zero_block(const unsigned char *h);

/* The headers, walked while the tar is being decompressed, so that a bomb
 * costs what its headers declare and no more: an entry over the size
 * limit, too many entries or too many bytes declared stop decompression
 * with the error read_tar() would give; the end-of-archive mark (or a
 * header that is not one: read_tar() names it) ends the useful part, and
 * after it only the few blocks of padding are read, to reach the end of
 * the zstd frame and its checksum.  At a pax or GNU extended header the
 * walk gives up (it may rename or resize what follows: read_tar() knows). */
struct walk {
	const struct br_limits *lim;
	size_t next;		/* the next header's offset */
	size_t entries, total;
	int stop;		/* end mark or bad header seen */
	int lost;		/* an extended header: no more guessing */
};

#define TAIL_MAX (64u << 10)	/* read after the end mark, at most */

static int walk(struct walk *w, const unsigned char *t, size_t len,
		char *err, size_t errlen)
{
	while (!w->stop && !w->lost && w->next <= len &&
	       len - w->next >= TBLOCK) {
		const unsigned char *h = t + w->next;
		int64_t size = tnum(h + 124, 12);
		char type = (char)h[156];
		size_t nl = strnlen((const char *)h, 100);

		if (zero_block(h) || !tsum_ok(h) || memcmp(h + 257, "ustar", 5) ||
		    size < 0) {
			w->stop = 1;
			break;
		}
		/* extended headers may rename or resize the next entry */
		if (type == 'x' || type == 'g' || type == 'L' || type == 'K' ||
		    (uint64_t)size > SIZE_MAX / 2) {
			w->lost = 1;
			break;
		}
		if (++w->entries > w->lim->max_entries) {
			snprintf(err, errlen, "more than %zu entries",
				 w->lim->max_entries);
			return -1;
		}
		/* what read_tar() takes as data: none for links, devices,
		 * folders and a file named like a folder */
		if ((type >= '1' && type <= '6') ||
		    ((type == '0' || type == '\0' || type == '7') && nl &&
		     h[nl - 1] == '/'))
			size = 0;
		if (type == '0' || type == '\0' || type == '7') {
			if ((uint64_t)size > w->lim->max_entry) {
				snprintf(err, errlen, "entry '%.*s' declares %lld "
					 "bytes, more than the %zu MiB limit",
					 (int)(nl < 80 ? nl : 80), (const char *)h,
					 (long long)size, w->lim->max_entry >> 20);
				return -1;
			}
			w->total += (size_t)size;
			if (w->total > w->lim->max_total) {
				snprintf(err, errlen, "uncompressed size over the "
					 "limit (%zu MiB in all): a decompression "
					 "bomb?", w->lim->max_total >> 20);
				return -1;
			}
		}
		w->next += TBLOCK + ((size_t)size + TBLOCK - 1) / TBLOCK * TBLOCK;
	}
	return 0;
}

/* the decompressed bytes, at most max; over it, a bomb: the message names
 * the data limit (`limit`), which is what a user can relate to */
static int inflate(const char *raw, size_t rawlen, size_t max, size_t limit,
		   const struct br_limits *lim, char **out, size_t *outlen,
		   size_t *checked, char *err, size_t errlen)
{
	struct walk w = { lim, 0, 0, 0, 0, 0 };
	size_t end = 0;		/* where the tail after the end mark stops */
	struct archive *a = archive_read_new();
	struct archive_entry *ae;
	/* A bundle's tar is mostly headers and short sysfs values: 80x its
	 * compressed size is usual.  Growing by doubling copied the whole
	 * tar four times; a generous first guess costs only address space
	 * (pages never written are never touched). */
	size_t len = 0, alloc = rawlen > SIZE_MAX / 256 ? SIZE_MAX / 2 :
				rawlen * 128 + (64u << 10);
	char *p = NULL;
	int rc = -1;

	archive_read_support_filter_zstd(a);
	archive_read_support_format_raw(a);
	if (archive_read_open_memory(a, raw, rawlen) != ARCHIVE_OK ||
	    archive_read_next_header(a, &ae) != ARCHIVE_OK) {
		const char *why = archive_error_string(a);

		if (archive_filter_code(a, 0) == ARCHIVE_FILTER_ZSTD)
			snprintf(err, errlen, "truncated or corrupt: %s",
				 why ? why : "no data");
		else if (!rawlen)
			snprintf(err, errlen, "empty file");
		else
			snprintf(err, errlen, "not a zstd-compressed tar%s%s",
				 why ? ": " : "", why ? why : "");
		goto out;
	}
	if (archive_filter_code(a, 0) != ARCHIVE_FILTER_ZSTD) {
		snprintf(err, errlen, "not a zstd-compressed tar");
		goto out;
	}
	if (alloc > max)
		alloc = max;
	p = xmalloc(alloc);
	/* libarchive's own blocks, copied once: archive_read_data() would
	 * copy each into our buffer through one of its own (a bundle's tar
	 * is a header and padding per entry: ~4 MiB for 4,000 entries, and
	 * the copies were a third of a reader's time) */
	for (;;) {
		const void *blk;
		size_t got;
		la_int64_t off;
		int r = archive_read_data_block(a, &blk, &got, &off);

		if (r == ARCHIVE_EOF)
			break;
		if (r != ARCHIVE_OK || off < 0 || (uint64_t)off != len) {
			snprintf(err, errlen, "truncated or corrupt: %s",
				 r != ARCHIVE_OK && archive_error_string(a) ?
				 archive_error_string(a) : "bad block");
			goto out;
		}
		if (got > max - len) {
			snprintf(err, errlen, "uncompressed size over the limit "
				 "(%zu MiB in all): a decompression bomb?",
				 limit >> 20);
			goto out;
		}
		while (len + got > alloc) {
			alloc = alloc > max / 2 ? max : alloc * 2;
			p = xrealloc(p, alloc);
		}
		memcpy(p + len, blk, got);
		len += got;
		if (walk(&w, (const unsigned char *)p, len, err, errlen) < 0)
			goto out;
		if (w.stop && !end)
			end = w.next + TAIL_MAX;
		if (end && len > end)
			break;	/* the archive ended long ago: the rest is junk */
	}
	*out = p;
	*outlen = len;
	/* the headers before w.next passed their checksum in walk() */
	*checked = w.next;
	p = NULL;
	rc = 0;
out:
	free(p);
	archive_read_free(a);
	return rc;
}

/* an octal field (spaces and NULs around it), or base-256 when the high
 * bit of the first byte is set; -1 if malformed or beyond 2^53 */
static int64_t tnum(const unsigned char *f, size_t n)
{
	uint64_t v = 0;
	size_t i = 0;

	if (f[0] & 0x80) {
		if (f[0] & 0x40)
			return -1;	/* negative */
		v = f[0] & 0x3f;
		for (i = 1; i < n; i++) {
			if (v >> 45)
				return -1;
			v = v << 8 | f[i];
		}
		return (int64_t)v;
	}
	while (i < n && f[i] == ' ')
		i++;
	for (; i < n && f[i] >= '0' && f[i] <= '7'; i++) {
		if (v >> 50)
			return -1;
		v = v << 3 | (uint64_t)(f[i] - '0');
	}
	for (; i < n; i++)
		if (f[i] != ' ' && f[i])
			return -1;
	return (int64_t)v;
}

/* the header checksum: the sum of its bytes with the checksum field as
 * spaces, unsigned (POSIX) or, failing that, signed (old tars); and the
 * all-zero end block.  Eight bytes at a time: a header per entry, 4,000
 * per bundle. */
static int tsum_ok(const unsigned char *h)
{
	const uint64_t lo = 0x00ff00ff00ff00ffull;
	int64_t want = tnum(h + 148, 8);
	uint64_t lanes = 0, u = 0;
	int64_t sg = 0;
	size_t i;

	if (want < 0)
		return 0;
	for (i = 0; i < TBLOCK; i += 8) {
		uint64_t w;

		memcpy(&w, h + i, 8);
		lanes += (w & lo) + ((w >> 8) & lo);	/* 4 lanes of 16 bits */
	}
	for (i = 0; i < 4; i++)
		u += (lanes >> (16 * i)) & 0xffff;
	for (i = 148; i < 156; i++)
		u += (uint64_t)' ' - h[i];
	if ((uint64_t)want == u)
		return 1;
	for (i = 0; i < TBLOCK; i++)
		sg += (signed char)(i >= 148 && i < 156 ? ' ' : h[i]);
	return want == sg;
}

static int zero_block(const unsigned char *h)
{
	static const unsigned char zero[TBLOCK];

	return !memcmp(h, zero, TBLOCK);
}

/* pax records "LEN key=value\n" in [p, p + n): path, linkpath and size are
 * used (values NUL-terminated in place); -1 if malformed */
static int pax_parse(char *p, size_t n, char **path, char **link,
		     int64_t *size)
{
	size_t off = 0;

	while (off < n) {
		size_t len = 0, k = off;
		char *key, *eq, *val, *end;

		while (k < n && p[k] >= '0' && p[k] <= '9' && len < n)
			len = len * 10 + (size_t)(p[k++] - '0');
		if (k == off || k >= n || p[k] != ' ' || len > n - off ||
		    len < (k - off) + 3 || p[off + len - 1] != '\n')
			return p[off] == 0 ? 0 : -1;	/* NUL padding ends it */
		key = p + k + 1;
		end = p + off + len - 1;
		eq = memchr(key, '=', (size_t)(end - key));
		if (!eq)
			return -1;
		*eq = 0;
		*end = 0;
		val = eq + 1;
		/* a name cut at a NUL would be another name */
		if ((!strcmp(key, "path") || !strcmp(key, "linkpath")) &&
		    memchr(val, 0, (size_t)(end - val)))
			return -1;
		if (!strcmp(key, "path"))
			*path = val;
		else if (!strcmp(key, "linkpath"))
			*link = val;
		else if (!strcmp(key, "size")) {
			char *e;
			unsigned long long v = strtoull(val, &e, 10);

			if (*e || e == val || v > (1ull << 53))
				return -1;
			*size = (int64_t)v;
		}
		off += len;
	}
	return 0;
}

static struct br_entry *new_entry(struct bundle_r *b, size_t *alloc)
{
	struct br_entry *e;

	if (b->n == *alloc) {
		*alloc = *alloc ? *alloc * 2 : 1024;
		b->v = xrealloc(b->v, *alloc * sizeof(*b->v));
	}
	e = &b->v[b->n++];
	memset(e, 0, sizeof(*e));
	return e;
}

/* the path of a header, in its own (already parsed) 512 bytes: cleaned
 * and moved to the header's start; NULL when unsafe.  name may point into
 * h or elsewhere (a pax record, a GNU long name). */
static char *place_path(unsigned char *h, const char *name, size_t max)
{
	size_t o, n;

	if (clean_span(name, max < TBLOCK ? max : TBLOCK, &o, &n) < 0)
		return NULL;
	memmove(h, name + o, n);
	h[n] = 0;
	return (char *)h;
}

static int read_tar(struct bundle_r *b, const struct br_limits *lim,
		    size_t checked, char *err, size_t errlen)
{
	unsigned char *t = (unsigned char *)b->tar;
	size_t off = 0, alloc = 0, len = b->tarlen;
	char *xpath = NULL, *xlink = NULL, *gname = NULL, *glink = NULL;
	int64_t xsize = -1;
	int first = 1;

	while (off + TBLOCK <= len) {
		unsigned char *h = t + off;
		char name[TBLOCK], lname[101], magic_posix;
		const char *nm, *ln;
		int64_t size;
		size_t dlen, dpad;
		char type;
		struct br_entry *e;
		char *path;

		if (zero_block(h))
			break;		/* end of archive */
		if ((off >= checked && !tsum_ok(h)) ||
		    memcmp(h + 257, "ustar", 5)) {
			snprintf(err, errlen, "corrupt tar header after %zu "
				 "entries (offset %zu)", b->n, off);
			return -1;
		}
		magic_posix = !memcmp(h + 257, "ustar\0", 6);
		type = (char)h[156];
		size = tnum(h + 124, 12);
		if (xsize >= 0)
			size = xsize;
		if (size < 0 || (uint64_t)size > len - off - TBLOCK) {
			snprintf(err, errlen, "truncated or corrupt: an entry "
				 "of %lld bytes after %zu entries", (long long)size,
				 b->n);
			return -1;
		}
		dlen = (size_t)size;
		dpad = (dlen + TBLOCK - 1) / TBLOCK * TBLOCK;
		if (dpad > len - off - TBLOCK)
			dpad = len - off - TBLOCK;
		if (type == 'x' || type == 'g' || type == 'L' || type == 'K') {
			char *d = (char *)h + TBLOCK;

			if (type == 'x' && pax_parse(d, dlen, &xpath, &xlink,
						     &xsize) < 0) {
				snprintf(err, errlen, "malformed pax header after "
					 "%zu entries", b->n);
				return -1;
			}
			if ((type == 'L' || type == 'K') && dlen) {
				d[dlen - 1] = 0;	/* GNU: NUL-terminated */
				if (type == 'L')
					gname = d;
				else
					glink = d;
			}
			off += TBLOCK + dpad;
			continue;
		}
		/* the names, before the header's bytes are reused */
		if (xpath || gname) {
			nm = xpath ? xpath : gname;
		} else {
			size_t pl = magic_posix ? strnlen((char *)h + 345, 155) : 0;
			size_t nl = strnlen((char *)h, 100), k = 0;

			/* no snprintf: 4,000 headers a bundle */
			memcpy(name, h + 345, pl);
			k = pl;
			if (pl)
				name[k++] = '/';
			memcpy(name + k, h, nl);
			name[k + nl] = 0;
			nm = name;
		}
		if (xlink || glink) {
			ln = xlink ? xlink : glink;
		} else {
			size_t ll = strnlen((char *)h + 157, 100);

			memcpy(lname, h + 157, ll);
			lname[ll] = 0;
			ln = lname;
		}
		if (type == '\0' || type == '7')
			type = '0';
		if (type == '0' && *nm && nm[strlen(nm) - 1] == '/')
			type = '5';
		if (type != '0')
			dpad = type == '5' || (type >= '1' && type <= '6') ? 0 : dpad;
		if (first) {
			first = 0;
			if (strcmp(nm, BUNDLE_MANIFEST)) {
				snprintf(err, errlen, "not an rdma-collect bundle "
					 "(first entry is '%.80s', not %s)", nm,
					 BUNDLE_MANIFEST);
				return -1;
			}
		}
		if (b->n >= lim->max_entries) {
			snprintf(err, errlen, "more than %zu entries",
				 lim->max_entries);
			return -1;
		}
		if (type == '0' && dlen > lim->max_entry) {
			snprintf(err, errlen, "entry '%.80s' declares %zu bytes, "
				 "more than the %zu MiB limit", nm, dlen,
				 lim->max_entry >> 20);
			return -1;
		}
		if (type == '0' && b->total + dlen > lim->max_total) {
			snprintf(err, errlen, "uncompressed size over the limit "
				 "(%zu MiB in all): a decompression bomb?",
				 lim->max_total >> 20);
			return -1;
		}
		/* the link target goes where the name field was read from:
		 * into the header's linkname area, after the path */
		path = (type == '0' || type == '5' || type == '2') ?
			place_path(h, nm, lim->max_path) : NULL;
		if (!path) {
			b->ignored++;
		} else {
			e = new_entry(b, &alloc);
			e->path = path;
			if (type == '5') {
				e->type = BR_DIR;
				e->data = (char *)h + strlen(path);	/* "" */
			} else if (type == '2') {
				size_t pl = strlen(path) + 1, ll = strlen(ln);

				e->type = BR_LINK;
				if (pl + ll + 1 <= TBLOCK) {
					memmove(h + pl, ln, ll + 1);
					e->data = (char *)h + pl;
				} else {
					e->data = arena_dup(b, ln, ll);
				}
				e->len = ll;
			} else {
				char *d = (char *)h + TBLOCK;

				e->type = BR_FILE;
				e->len = dlen;
				if (dlen % TBLOCK && dlen < dpad) {
					d[dlen] = 0;	/* into the padding */
					e->data = d;
				} else {
					e->data = arena_dup(b, d, dlen);
				}
				b->total += dlen;
			}
		}
		xpath = xlink = gname = glink = NULL;
		xsize = -1;
		off += TBLOCK + dpad;
	}
	if (first) {
		snprintf(err, errlen, "empty archive");
		return -1;
	}
	return 0;
}

void br_pack(struct bundle_r *b)
{
	size_t i, need = 0, off = 0;
	char *t;

	for (i = 0; i < b->n; i++)
		need += strlen(b->v[i].path) + 1 + b->v[i].len + 1;
	t = xmalloc(need ? need : 1);
	for (i = 0; i < b->n; i++) {
		struct br_entry *e = &b->v[i];
		size_t pl = strlen(e->path) + 1;

		e->path = memcpy(t + off, e->path, pl);
		off += pl;
		if (e->len)
			memcpy(t + off, e->data, e->len);
		t[off + e->len] = 0;
		e->data = t + off;
		off += e->len + 1;
	}
	for (i = 0; i < b->narena; i++)
		free(b->arena[i]);
	free(b->arena);
	b->arena = NULL;
	b->narena = 0;
	free(b->tar);
	b->tar = t;
	b->tarlen = need;
}

int br_open(const char *file, const struct br_limits *lim,
	    struct bundle_r **out, char *err, size_t errlen)
{
	char *raw = NULL;
	size_t rawlen;
	int rc;

	if (!lim)
		lim = &br_default_limits;
	*out = NULL;
	if (read_named_file(file, lim->max_file, &raw, &rawlen, err, errlen) < 0)
		return -1;
	rc = br_open_mem(file, raw, rawlen, lim, out, err, errlen);
	free(raw);
	return rc;
}

int br_open_mem(const char *name, const void *raw, size_t rawlen,
		const struct br_limits *lim, struct bundle_r **out, char *err,
		size_t errlen)
{
	struct bundle_r *b;
	unsigned char sum[32];
	size_t i, cap, checked;
	int rc = -1;

	if (!lim)
		lim = &br_default_limits;
	*out = NULL;
	if (rawlen > lim->max_file) {
		snprintf(err, errlen, "larger than %zu MiB", lim->max_file >> 20);
		return -1;
	}
	b = xcalloc(1, sizeof(*b));
	b->file = xstrdup(name);
	b->size = rawlen;
	b->cache = xcalloc(1, sizeof(*b->cache));
	sha256(raw, rawlen, sum);
	for (i = 0; i < 32; i++)
		snprintf(b->sha256 + 2 * i, 3, "%02x", sum[i]);
	/* the tar around the data: a header and padding per entry, pax
	 * headers, the end blocks */
	cap = lim->max_total + (lim->max_entries + 2) * 3 * TBLOCK;
	if (inflate(raw, rawlen, cap, lim->max_total, lim, &b->tar, &b->tarlen,
		    &checked, err, errlen) < 0 ||
	    read_tar(b, lim, checked, err, errlen) < 0)
		goto out;
	sort_entries(b);
	drop_duplicates(b);
	/* the tar's headers and padding are six times what the entries
	 * hold (4.2 MiB against 0.7 for 4,000 entries), and a load keeps
	 * dozens of bundles in memory while they wait for the writer */
	br_pack(b);
	{
		const struct br_entry *m = find(b, BUNDLE_MANIFEST);

		if (!m || m->type != BR_FILE || m->len > MAX_MANIFEST) {
			snprintf(err, errlen, "manifest.json missing or too large");
			goto out;
		}
		if (check_manifest(b, m->data, m->len, err, errlen) < 0)
			goto out;
	}
	rc = 0;
out:
	if (rc) {
		br_free(b);
		return -1;
	}
	*out = b;
	return 0;
}

void br_free(struct bundle_r *b)
{
	size_t i;

	if (!b)
		return;
	for (i = 0; i < b->narena; i++)
		free(b->arena[i]);
	free(b->arena);
	free(b->tar);
	free(b->v);
	jfree(b->manifest);
	free(b->cache);
	free(b->file);
	free(b);
}

/* normalise "a/b/../c" and "a//./b" in place, one pass (a write end that
 * never passes the read end); -1 if it climbs out of the bundle */
static int normalise(char *p)
{
	char *w = p;
	const char *r = p;
	size_t depth = 0;

	for (;;) {
		const char *c;
		size_t len;

		while (*r == '/')
			r++;
		if (!*r)
			break;
		for (c = r; *r && *r != '/'; r++)
			;
		len = (size_t)(r - c);
		if (len == 1 && c[0] == '.')
			continue;
		if (len == 2 && c[0] == '.' && c[1] == '.') {
			if (!depth)
				return -1;
			depth--;
			while (w > p && w[-1] != '/')
				w--;
			if (w > p)
				w--;	/* and the slash before it */
			continue;
		}
		if (depth)
			*w++ = '/';
		memmove(w, c, len);
		w += len;
		depth++;
	}
	*w = 0;
	return 0;
}

const char *br_resolve(const struct bundle_r *b, const char *path, char *out,
		       size_t n)
{
	char cur[PATH_MAX], next[PATH_MAX];
	int hops = 0;
	size_t i;

	if (pjoin(cur, sizeof(cur), path, NULL) < 0 || normalise(cur))
		return NULL;
restart:
	/* find the first prefix of cur that is a link */
	for (i = 0; cur[i]; i++) {
		const struct br_entry *e;
		char save;

		if (cur[i + 1] && cur[i + 1] != '/')
			continue;
		save = cur[i + 1];
		cur[i + 1] = 0;
		e = find(b, cur);
		cur[i + 1] = save;
		if (!e || e->type != BR_LINK)
			continue;
		if (++hops > MAX_HOPS || e->data[0] == '/')
			return NULL;
		{
			/* target relative to the link's folder */
			const char *slash = NULL;
			size_t k, dl;

			for (k = 0; k <= i; k++)
				if (cur[k] == '/')
					slash = cur + k;
			dl = slash ? (size_t)(slash - cur) : 0;
			memcpy(next, cur, dl);
			if (pjoin(next + dl, sizeof(next) - dl, slash ? "/" : "",
				  e->data, cur + i + 1, NULL) < 0)
				return NULL;
		}
		if (normalise(next))
			return NULL;
		strcpy(cur, next);
		goto restart;
	}
	if (pjoin(out, n, cur, NULL) < 0)
		return NULL;
	return out;
}

const struct br_entry *br_get(const struct bundle_r *b, const char *path)
{
	const struct br_entry *e = find(b, path);
	char real[PATH_MAX];

	/* most lookups name an entry as it is stored: take it without
	 * walking the path for links (an entry below a linked folder exists
	 * only in a malformed bundle, and either answer is inside it) */
	if (e && e->type != BR_LINK)
		return e;
	/* then through the resolved folder, remembered: a class path
	 * ("sys/class/infiniband/mlx5_0/ports/1/counters/...") is read file
	 * after file from the same linked folder */
	if (!e && b->cache) {
		const char *slash = strrchr(path, '/');
		size_t dl = slash ? (size_t)(slash - path) : 0, k;

		if (slash && dl < sizeof(b->cache->slot[0].dir)) {
			struct br_dirslot *c = NULL;

			for (k = 0; k < BR_CACHE_SLOTS; k++) {
				c = &b->cache->slot[k];
				if (c->ok && !memcmp(c->dir, path, dl) &&
				    !c->dir[dl])
					break;
			}
			if (k == BR_CACHE_SLOTS) {
				c = &b->cache->slot[b->cache->next++ %
						    BR_CACHE_SLOTS];
				memcpy(c->dir, path, dl);
				c->dir[dl] = 0;
				c->ok = 1;
				if (!br_resolve(b, c->dir, c->real, sizeof(c->real)))
					c->real[0] = 0;
			}
			if (!c->real[0])
				return NULL;
			if (pjoin(real, sizeof(real), c->real, "/", slash + 1,
				  NULL) < 0)
				return NULL;
			e = find(b, real);
			if (!e || e->type != BR_LINK)
				return e;
		}
	}
	if (!br_resolve(b, path, real, sizeof(real)))
		return NULL;
	return find(b, real);
}

const struct br_entry *br_lget(const struct bundle_r *b, const char *path)
{
	char dir[PATH_MAX], real[PATH_MAX], full[PATH_MAX];
	const char *slash = strrchr(path, '/');

	if (!slash)
		return find(b, path);
	if ((size_t)(slash - path) >= sizeof(dir))
		return NULL;
	memcpy(dir, path, (size_t)(slash - path));
	dir[slash - path] = 0;
	if (!br_resolve(b, dir, real, sizeof(real)) ||
	    pjoin(full, sizeof(full), real, "/", slash + 1, NULL) < 0)
		return NULL;
	return find(b, full);
}

const char *br_link_base(const struct bundle_r *b, const char *path)
{
	const struct br_entry *e = br_lget(b, path);
	const char *s;

	if (!e || e->type != BR_LINK || !e->len)
		return NULL;
	s = strrchr(e->data, '/');
	return s ? s + 1 : e->data;
}

const char *br_data(const struct bundle_r *b, const char *path, size_t *len)
{
	const struct br_entry *e = br_get(b, path);

	if (!e || e->type != BR_FILE)
		return NULL;
	if (len)
		*len = e->len;
	return e->data;
}

const char *br_line(const struct bundle_r *b, const char *path, char *out,
		   size_t n)
{
	const char *d = br_data(b, path, NULL);
	size_t k = 0;

	if (!d || !n)
		return NULL;
	while (d[k] && d[k] != '\n' && k + 1 < n) {
		out[k] = d[k];
		k++;
	}
	while (k && (out[k - 1] == ' ' || out[k - 1] == '\r' ||
		     out[k - 1] == '\t'))
		k--;
	out[k] = 0;
	return out;
}

size_t br_list(const struct bundle_r *b, const char *dir, const char ***names)
{
	char real[PATH_MAX], prefix[PATH_MAX];
	const char **v = NULL;
	size_t lo = 0, hi = b->n, cnt = 0, alloc = 0, pl;

	*names = NULL;
	if (!br_resolve(b, dir, real, sizeof(real)) ||
	    pjoin(prefix, sizeof(prefix), real, "/", NULL) < 0)
		return 0;
	pl = strlen(prefix);
	while (lo < hi) {	/* first entry >= prefix */
		size_t mid = (lo + hi) / 2;

		if (strcmp(b->v[mid].path, prefix) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < b->n && !strncmp(b->v[lo].path, prefix, pl); lo++) {
		const char *rest = b->v[lo].path + pl;

		if (strchr(rest, '/'))
			continue;
		if (cnt == alloc) {
			alloc = alloc ? alloc * 2 : 16;
			v = xrealloc(v, alloc * sizeof(*v));
		}
		v[cnt++] = rest;
	}
	*names = v;
	return cnt;
}

struct jv *br_json(const struct bundle_r *b, const char *path)
{
	size_t len, left, start;
	const char *d = br_data(b, path, &len);
	char err[160];
	struct jv *v;

	if (!d)
		return NULL;
	if (!b->cache)
		return jparse(d, len, NULL, 0);
	/* a document within its own limit and what is left of the bundle's:
	 * past either it is not read, and said so */
	left = BR_JSON_VALUES - b->cache->json_used;
	if (left > JSON_PARSE_MAX_VALUES)
		left = JSON_PARSE_MAX_VALUES;
	start = left;
	*err = 0;
	v = jparse_budget(d, len, &left, err, sizeof(err));
	b->cache->json_used += start - left;
	if (!v && strstr(err, "values allowed"))
		error("%s: %s: not read: %s", b->file, path, err);
	return v;
}
