/* load: parallel readers, one writer (see load.h) */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "db.h"
#include "load.h"
#include "log.h"
#include "util.h"

int load_core(struct ld *l);
int load_rdma(struct ld *l);
int load_pci(struct ld *l);
int load_kernel(struct ld *l);
int load_net(struct ld *l);
int load_host(struct ld *l);
int load_klog(struct ld *l);
int load_phy(struct ld *l);
int load_fabric(struct ld *l);

const struct extractor extractors[] = {
	{ "core", load_core },	/* bundles, nodes, sources: first */
	{ "rdma", load_rdma },
	{ "pci", load_pci },
	{ "kernel", load_kernel },
	{ "net", load_net },
	{ "host", load_host },
	{ "klog", load_klog },
	{ "phy", load_phy },
	{ "fabric", load_fabric },	/* mad and fabric: over MADs */
	{ NULL, NULL },
};

const char *ld_line(struct ld *l, const char *path, char *out, size_t n)
{
	return br_line(l->b, path, out, n);
}

int ld_fact(struct ld *l, const char *key, const char *value,
	    const char *path)
{
	return db_exec(l->db, "INSERT OR REPLACE INTO facts (bundle_id, key, "
		       "value, path) VALUES (?, ?, ?, ?)", "isss", l->bid, key,
		       value, path);
}

/* --- the file list: bundles, and folders holding them --- */

struct files {
	char **v;
	size_t n, alloc;
};

static void add_file(struct files *f, const char *p)
{
	if (f->n == f->alloc) {
		f->alloc = f->alloc ? f->alloc * 2 : 64;
		f->v = xrealloc(f->v, f->alloc * sizeof(*f->v));
	}
	f->v[f->n++] = xstrdup(p);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void scan_dir(struct files *f, const char *dir, int depth)
{
	struct dirent *de;
	char p[PATH_MAX];
	size_t start = f->n;
	DIR *d = opendir(dir);

	if (!d) {
		error("cannot open folder '%s': %s", dir, strerror(errno));
		return;
	}
	while ((de = readdir(d))) {
		struct stat st;
		size_t l = strlen(de->d_name);

		if (de->d_name[0] == '.' ||
		    check_snprintf(p, sizeof(p), "%s/%s", dir, de->d_name) < 0 ||
		    stat(p, &st) < 0)
			continue;
		if (S_ISDIR(st.st_mode) && depth < 8)
			scan_dir(f, p, depth + 1);
		else if (S_ISREG(st.st_mode) && l > 13 &&
			 !strcmp(de->d_name + l - 13, ".rdma.tar.zst"))
			add_file(f, p);
	}
	closedir(d);
	qsort(f->v + start, f->n - start, sizeof(*f->v), cmp_str);
}

/* --- readers --- */

struct slot {
	struct bundle_r *b;
	char err[512];
	int done;
};

struct pool {
	struct files *files;
	struct slot *slots;
	size_t next;		/* next file to read */
	size_t consumed;	/* slots the writer has taken */
	size_t window;		/* how far readers may run ahead */
	pthread_mutex_t mu;
	pthread_cond_t cv;
};

static void *reader(void *arg)
{
	struct pool *p = arg;

	for (;;) {
		size_t i;
		struct slot *s;

		pthread_mutex_lock(&p->mu);
		while (p->next < p->files->n &&
		       p->next >= p->consumed + p->window)
			pthread_cond_wait(&p->cv, &p->mu);
		if (p->next >= p->files->n) {
			pthread_mutex_unlock(&p->mu);
			return NULL;
		}
		i = p->next++;
		pthread_mutex_unlock(&p->mu);
		s = &p->slots[i];
		if (br_open(p->files->v[i], NULL, &s->b, s->err,
			    sizeof(s->err)) < 0)
			s->b = NULL;
		pthread_mutex_lock(&p->mu);
		s->done = 1;
		pthread_cond_broadcast(&p->cv);
		pthread_mutex_unlock(&p->mu);
	}
}

static int load_one(sqlite3 *db, struct bundle_r *b, struct load_stats *st)
{
	struct ld l = { db, b, 0, 0 };
	size_t i;

	int64_t have = db_int(db, "SELECT id FROM bundles WHERE sha256 = ?",
			      "s", b->sha256);

	if (have) {
		st->duplicate++;
		st->all_ids = xrealloc(st->all_ids, (st->nall + 1) *
				       sizeof(int64_t));
		st->all_ids[st->nall++] = have;
		return 0;
	}
	if (db_run(db, "SAVEPOINT bundle") < 0)
		return -1;
	for (i = 0; extractors[i].name; i++) {
		if (extractors[i].run(&l) < 0) {
			error("%s: cannot load (%s)", b->file,
			      extractors[i].name);
			db_run(db, "ROLLBACK TO bundle; RELEASE bundle");
			st->failed++;
			return -1;
		}
	}
	db_run(db, "RELEASE bundle");
	st->loaded++;
	st->new_ids = xrealloc(st->new_ids, (st->nnew + 1) * sizeof(int64_t));
	st->new_ids[st->nnew++] = l.bid;
	st->all_ids = xrealloc(st->all_ids, (st->nall + 1) * sizeof(int64_t));
	st->all_ids[st->nall++] = l.bid;
	return 0;
}

static void bar(size_t done, size_t total)
{
	int w = 40, k = total ? (int)(done * (size_t)w / total) : w;

	fprintf(stderr, "\rloading [%.*s%*s] %zu/%zu", k,
		"########################################", w - k, "", done,
		total);
	if (done == total)
		fputc('\n', stderr);
}

int load_files(sqlite3 *db, char **argv, int argc, int progress,
	       struct load_stats *st)
{
	struct files f = { NULL, 0, 0 };
	pthread_t th[64];
	struct pool p;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int nth, i, rc = 0;
	size_t k, batch = 0;

	memset(st, 0, sizeof(*st));
	for (i = 0; i < argc; i++) {
		struct stat sb;

		if (stat(argv[i], &sb) < 0) {
			error("%s: %s", argv[i], strerror(errno));
			st->failed++;
		} else if (S_ISDIR(sb.st_mode)) {
			scan_dir(&f, argv[i], 0);
		} else {
			add_file(&f, argv[i]);
		}
	}
	memset(&p, 0, sizeof(p));
	p.files = &f;
	p.slots = xcalloc(f.n ? f.n : 1, sizeof(*p.slots));
	nth = ncpu < 1 ? 1 : ncpu > 64 ? 64 : (int)ncpu;
	if ((size_t)nth > f.n)
		nth = (int)f.n;
	p.window = (size_t)nth * 4;
	pthread_mutex_init(&p.mu, NULL);
	pthread_cond_init(&p.cv, NULL);
	for (i = 0; i < nth; i++)
		if (pthread_create(&th[i], NULL, reader, &p))
			die("cannot start a reader thread");
	/* the writer makes every reference itself (bundle ids come from the
	 * row it just inserted): checking each of the ~1,500 rows of a
	 * bundle against its parent, and the statement journals that checking
	 * needs inside the per-bundle savepoint, took half the load time */
	db_run(db, "PRAGMA foreign_keys = OFF");
	db_run(db, "BEGIN");
	for (k = 0; k < f.n; k++) {
		struct slot *s = &p.slots[k];

		pthread_mutex_lock(&p.mu);
		while (!s->done)
			pthread_cond_wait(&p.cv, &p.mu);
		pthread_mutex_unlock(&p.mu);
		if (!s->b) {
			error("%s: %s", f.v[k], s->err);
			st->failed++;
		} else {
			load_one(db, s->b, st);
			br_free(s->b);
			s->b = NULL;
		}
		pthread_mutex_lock(&p.mu);
		p.consumed = k + 1;
		pthread_cond_broadcast(&p.cv);
		pthread_mutex_unlock(&p.mu);
		/* commit in batches: one transaction per bundle is slow */
		if (++batch == 64) {
			db_run(db, "COMMIT; BEGIN");
			batch = 0;
		}
		if (progress)
			bar(k + 1, f.n);
	}
	if (db_run(db, "COMMIT") < 0)
		rc = -1;
	db_run(db, "PRAGMA foreign_keys = ON");
	for (i = 0; i < nth; i++)
		pthread_join(th[i], NULL);
	pthread_mutex_destroy(&p.mu);
	pthread_cond_destroy(&p.cv);
	free(p.slots);
	for (k = 0; k < f.n; k++)
		free(f.v[k]);
	free(f.v);
	return rc;
}

void load_stats_release(struct load_stats *st)
{
	free(st->new_ids);
	free(st->all_ids);
	memset(st, 0, sizeof(*st));
}
