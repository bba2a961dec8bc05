/* load: parallel readers, one writer (see load.h) */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "db.h"
#include "import.h"
#include "load.h"
#include "log.h"
#include "store.h"
#include "term.h"
#include "util.h"

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
	{ "import", load_import },	/* provenance of imported evidence */
	{ NULL, NULL },
};

const char *ld_line(struct ld *l, const char *path, char *out, size_t n)
{
	return br_line(l->b, path, out, n);
}

int ld_fact(struct ld *l, const char *key, const char *value,
	    const char *path)
{
	return ld_exec(l, "INSERT OR REPLACE INTO "
		       "temp.s_facts (bundle_id, key, "
		       "value, path) VALUES (?, ?, ?, ?)", "isss", l->bid, key,
		       value, path);
}

/* --- rows recorded by a reader, inserted by the writer --- */

struct row {
	const char *sql, *types;	/* literals: kept until the replay */
	size_t arg;			/* first argument in args */
};

struct rowlog {
	struct row *rows;
	size_t n, alloc;
	union db_arg *args;
	size_t nargs, aargs;
	char *text;			/* the strings, one after another */
	size_t ntext, atext;
};

/* strings are stored as offsets into text (it moves as it grows) and
 * turned into pointers when the rows are replayed */
static size_t log_str(struct rowlog *g, const char *s)
{
	size_t n = strlen(s) + 1, at;

	if (g->ntext + n > g->atext) {
		g->atext = (g->ntext + n) * 2 + 4096;
		g->text = xrealloc(g->text, g->atext);
	}
	at = g->ntext;
	memcpy(g->text + at, s, n);
	g->ntext += n;
	return at;
}

static void log_record(struct rowlog *g, const char *sql, const char *types,
		       va_list ap)
{
	size_t i, need = strlen(types);

	if (g->n == g->alloc) {
		g->alloc = g->alloc ? g->alloc * 2 : 1024;
		g->rows = xrealloc(g->rows, g->alloc * sizeof(*g->rows));
	}
	if (g->nargs + need > g->aargs) {
		g->aargs = (g->nargs + need) * 2 + 1024;
		g->args = xrealloc(g->args, g->aargs * sizeof(*g->args));
	}
	g->rows[g->n].sql = sql;
	g->rows[g->n].types = types;
	g->rows[g->n].arg = g->nargs;
	g->n++;
	for (i = 0; types[i]; i++) {
		union db_arg *a = &g->args[g->nargs];

		switch (types[i]) {
		case 'i':
		case 'N':
			a->i = va_arg(ap, int64_t);
			break;
		case 'd':
		case 'D':
			a->d = va_arg(ap, double);
			break;
		case 's': {
			const char *s = va_arg(ap, const char *);

			/* offset + 1; 0 is NULL */
			a->i = s ? (int64_t)log_str(g, s) + 1 : 0;
			break;
		}
		case 'n':
			continue;
		default:
			die("ld_exec: bad type letter '%c'", types[i]);
		}
		g->nargs++;
	}
}

static void log_release(struct rowlog *g)
{
	free(g->rows);
	free(g->args);
	free(g->text);
	memset(g, 0, sizeof(*g));
}

/* --- several recorded rows in one statement ---
 *
 * A bundle of an 8-HCA node is ~1,900 rows, 1,400 of them port and ethtool
 * counters, recorded one INSERT at a time; the writer, which every row goes
 * through, was the load's critical path.  Consecutive rows of the same
 * "INSERT ... VALUES (tuple)" go in as one "INSERT ... VALUES (tuple),
 * (tuple), ..." of up to MULTI_MAX rows (a power of two, so that each
 * statement has at most 6 forms in SQLite's statement cache): the same rows
 * in the same order, each statement's setup, bindings reset and step paid
 * once a group.  A group's texts are made once and live as long as the
 * process, keyed here by the one-row statement's address (ld_exec() takes
 * literals only). */

#define MULTI_MAX 32
#define MULTI_FORMS 128

struct multi {
	const char *sql, *types;	/* the one-row statement (a literal) */
	const char *tuple;		/* where its "(...)" after VALUES starts */
	char *text[5], *ttypes[5];	/* 2, 4, ... 32 rows, made on demand */
};

static struct multi multis[MULTI_FORMS];

/* the "(...)" of "... VALUES (...)" that ends sql, its parentheses
 * balanced outside quotes; NULL when sql is not one such INSERT */
static const char *values_tuple(const char *sql)
{
	const char *v = NULL, *q, *t;
	int depth = 0;
	char quote = 0;

	if (strncmp(sql, "INSERT", 6))
		return NULL;
	for (q = sql; (q = strstr(q, " VALUES (")); q++)
		v = q;
	if (!v)
		return NULL;
	t = v + 8;
	for (q = t; *q; q++) {
		if (quote) {
			if (*q == quote)
				quote = 0;
		} else if (*q == '\'' || *q == '"') {
			quote = *q;
		} else if (*q == '(') {
			depth++;
		} else if (*q == ')' && --depth == 0) {
			return q[1] ? NULL : t;
		}
	}
	return NULL;
}

static struct multi *multi_of(const char *sql, const char *types)
{
	size_t h = ((uintptr_t)sql >> 3) % MULTI_FORMS, i;

	for (i = 0; i < MULTI_FORMS; i++) {
		struct multi *m = &multis[(h + i) % MULTI_FORMS];

		if (m->sql == sql && m->types == types)
			return m->tuple ? m : NULL;
		if (!m->sql) {
			m->sql = sql;
			m->types = types;
			m->tuple = values_tuple(sql);
			return m->tuple ? m : NULL;
		}
	}
	return NULL;	/* more statements than forms: one row at a time */
}

/* the statement and type letters for 2^k rows (k >= 1) */
static void multi_form(struct multi *m, unsigned k, const char **sql,
		       const char **types)
{
	if (!m->text[k - 1]) {
		size_t rows = (size_t)1 << k, pl = (size_t)(m->tuple - m->sql),
		       tl = strlen(m->tuple), yl = strlen(m->types), r;
		char *t = xmalloc(pl + rows * (tl + 2)), *y = xmalloc(rows * yl + 1);

		memcpy(t, m->sql, pl);
		for (r = 0; r < rows; r++) {
			memcpy(t + pl + r * (tl + 2), m->tuple, tl);
			memcpy(t + pl + r * (tl + 2) + tl, ", ", 2);
			memcpy(y + r * yl, m->types, yl);
		}
		t[pl + rows * (tl + 2) - 2] = 0;
		y[rows * yl] = 0;
		m->text[k - 1] = t;
		m->ttypes[k - 1] = y;
	}
	*sql = m->text[k - 1];
	*types = m->ttypes[k - 1];
}

/* insert the recorded rows of a bundle whose id is now known */
static int log_replay(sqlite3 *db, struct rowlog *g, int64_t bid)
{
	size_t r, i;

	/* the arguments as the statements take them */
	for (r = 0; r < g->n; r++) {
		const struct row *w = &g->rows[r];
		union db_arg *a = &g->args[w->arg];

		for (i = 0; w->types[i]; i++) {
			switch (w->types[i]) {
			case 'i':
				if (a->i == LD_BID)
					a->i = bid;
				break;
			case 's':
				a->s = a->i ? g->text + (a->i - 1) : NULL;
				break;
			case 'n':
				continue;
			}
			a++;
		}
	}
	/* a row's arguments follow the previous row's: a run of rows of one
	 * statement is one array of arguments */
	for (r = 0; r < g->n;) {
		const struct row *w = &g->rows[r];
		struct multi *m = multi_of(w->sql, w->types);
		size_t run = 1, take = 1;
		const char *sql = w->sql, *types = w->types;
		unsigned k = 0;

		while (m && r + run < g->n && run < MULTI_MAX &&
		       g->rows[r + run].sql == w->sql &&
		       g->rows[r + run].types == w->types)
			run++;
		while (((size_t)2 << k) <= run)
			k++;
		if (k) {
			take = (size_t)1 << k;
			multi_form(m, k, &sql, &types);
		}
		if (db_exec_args(db, sql, types, &g->args[w->arg]) < 0)
			return -1;
		r += take;
	}
	return 0;
}

int ld_exec(struct ld *l, const char *sql, const char *types, ...)
{
	va_list ap;
	int rc = 0;

	va_start(ap, types);
	if (l->log)
		log_record(l->log, sql, types, ap);
	else
		rc = db_vexec(l->db, sql, types, ap);
	va_end(ap);
	return rc;
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
	if (f->n > start)
		qsort(f->v + start, f->n - start, sizeof(*f->v), cmp_str);
}

/* --- readers --- */

struct slot {
	struct bundle_r *b;
	struct rowlog log;
	const char *failed;	/* the extractor that gave up, if any */
	char err[512];
	size_t bytes;		/* what it holds, while read and not taken */
	int done;
};

/* in a reader: every extractor but the first ("core", the writer's) */
static void extract(struct slot *s)
{
	struct ld l = { NULL, s->b, LD_BID, 0, &s->log };
	size_t i;

	for (i = 1; extractors[i].name; i++) {
		if (extractors[i].run(&l) < 0) {
			s->failed = extractors[i].name;
			return;
		}
	}
}

struct pool {
	struct files *files;
	struct slot *slots;
	size_t next;		/* next file to read */
	size_t consumed;	/* slots the writer has taken */
	size_t window;		/* how far readers may run ahead */
	size_t held, budget;	/* bytes of read slots not yet taken */
	pthread_mutex_t mu;
	pthread_cond_t cv;
};

static void *reader(void *arg)
{
	struct pool *p = arg;

	/* the writer is the critical path (every row, then the rules, go
	 * through its one connection): where readers and writer share the
	 * CPUs, the readers yield to it (Linux gives a thread its own nice
	 * value).  2,000 bundles on 2 CPUs: 10.6 s at nice 5, 9.8 at 10,
	 * 9.9 at 19, 11.6 without; with the readers' work cut by a quarter
	 * since, the writer busy 85% of the load: 8.36-8.58 s at nice 10,
	 * 8.17-8.27 at 19 (the writer's share of a CPU it shares with a
	 * reader: 90% and 98.5%) */
	setpriority(PRIO_PROCESS, (id_t)gettid(), 19);

	for (;;) {
		size_t i;
		struct slot *s;

		pthread_mutex_lock(&p->mu);
		while (p->next < p->files->n &&
		       (p->next >= p->consumed + p->window ||
			p->held > p->budget))
			pthread_cond_wait(&p->cv, &p->mu);
		if (p->next >= p->files->n) {
			pthread_mutex_unlock(&p->mu);
			return NULL;
		}
		i = p->next++;
		pthread_mutex_unlock(&p->mu);
		s = &p->slots[i % p->window];
		if (imp_or_br_open(p->files->v[i], NULL, &s->b, s->err,
				   sizeof(s->err)) < 0)
			s->b = NULL;
		else
			extract(s);
		if (s->b)
			s->bytes = s->b->tarlen + s->log.atext +
				   s->log.aargs * sizeof(*s->log.args) +
				   s->log.alloc * sizeof(*s->log.rows);
		pthread_mutex_lock(&p->mu);
		p->held += s->bytes;
		s->done = 1;
		pthread_cond_broadcast(&p->cv);
		pthread_mutex_unlock(&p->mu);
	}
}

static int load_one(sqlite3 *db, struct slot *s, struct load_stats *st)
{
	struct bundle_r *b = s->b;
	struct ld l = { db, b, 0, 0, NULL };

	int64_t have = db_int(db, "SELECT id FROM bundles WHERE sha256 = ?",
			      "s", b->sha256);

	if (have) {
		st->duplicate++;
		st->all_ids = xrealloc(st->all_ids, (st->nall + 1) *
				       sizeof(int64_t));
		st->all_ids[st->nall++] = have;
		return 0;
	}
	if (s->failed) {
		error("%s: cannot load (%s)", b->file, s->failed);
		st->failed++;
		return -1;
	}
	if (db_run(db, "SAVEPOINT bundle") < 0)
		return -1;
	/* the counter rows went to the staging tables: stored now */
	if (extractors[0].run(&l) < 0 || log_replay(db, &s->log, l.bid) < 0 ||
	    store_bundle(db, l.bid) < 0) {
		error("%s: cannot load (%s)", b->file, l.bid ? "rows" :
		      extractors[0].name);
		db_run(db, "ROLLBACK TO bundle; RELEASE bundle");
		st->failed++;
		return -1;
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

	term_own(stderr, "\r");
	fprintf(stderr, "loading [%.*s%*s] %zu/%zu", k,
		"########################################", w - k, "", done,
		total);
	if (done == total)
		fputc('\n', stderr);
}

/* the bundles loaded since the last call, committed, to diagnose */
static void diagnose_since(sqlite3 *db, load_diagnose_fn *diagnose,
			   struct load_stats *st, size_t *from)
{
	if (diagnose && st->nnew > *from &&
	    diagnose(db, st->new_ids + *from, st->nnew - *from) < 0)
		st->diagnose_failed = 1;
	*from = st->nnew;
}

int load_files(sqlite3 *db, char **argv, int argc, int progress,
	       load_diagnose_fn *diagnose, struct load_stats *st)
{
	struct files f = { NULL, 0, 0 };
	char err[256];
	pthread_t th[64];
	struct pool p;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int nth, i, rc = 0, tail, locked;
	size_t k, batch = 0, diagnosed = 0;

	memset(st, 0, sizeof(*st));
	for (i = 0; i < argc; i++) {
		struct stat sb;

		if (!strcmp(argv[i], "-")) {
			add_file(&f, argv[i]);	/* standard input (main.c) */
		} else if (stat(argv[i], &sb) < 0) {
			error("%s: %s", argv[i], strerror(errno));
			st->failed++;
		} else if (S_ISDIR(sb.st_mode) &&
			   !imp_detect_err(argv[i], err, sizeof(err))) {
			size_t before = f.n;

			/* a folder of bundles; one that holds none, whose
			 * import was refused (a file over the size limit),
			 * is a failed input, not an empty one */
			scan_dir(&f, argv[i], 0);
			if (f.n == before && *err) {
				error("%s: %s", argv[i], err);
				st->failed++;
			}
		} else {
			add_file(&f, argv[i]);
		}
	}
	memset(&p, 0, sizeof(p));
	p.files = &f;
	nth = ncpu < 1 ? 1 : ncpu > 64 ? 64 : (int)ncpu;
	if ((size_t)nth > f.n)
		nth = (int)f.n;
	/* far enough ahead to keep reading while the writer diagnoses a
	 * batch (a tenth of a second or more), within a memory budget: the
	 * count alone would let 64 hostile bundles near the size limits pile
	 * up.  The slots are a ring of that many: file k's is k % window,
	 * free again once the writer took file k - window (a slot for every
	 * file was 616 bytes each, 179 MiB resident for 290,000 bundles) */
	p.window = (size_t)nth * 128;
	p.slots = xcalloc(p.window ? p.window : 1, sizeof(*p.slots));
	p.budget = (size_t)128 << 20;
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
	/* a batch of 64 bundles dirties ~13 MiB of pages: with SQLite's
	 * default 2 MiB cache they spilled to the WAL mid-transaction and
	 * were read back */
	db_run(db, "PRAGMA cache_size = -65536");
	if (store_stage(db) < 0)
		rc = -1;
	/* IMMEDIATE: the write lock now, waiting (DB_BUSY_MS) for another
	 * writer's batch; a deferred BEGIN that read first gets "database is
	 * locked" at its first write, without waiting, and lost its bundles */
	locked = !db_run(db, "BEGIN IMMEDIATE");
	if (!locked)
		rc = -1;
	for (k = 0; k < f.n; k++) {
		struct slot *s = &p.slots[k % p.window];

		pthread_mutex_lock(&p.mu);
		while (!s->done)
			pthread_cond_wait(&p.cv, &p.mu);
		pthread_mutex_unlock(&p.mu);
		if (!s->b) {
			error("%s: %s", f.v[k], s->err);
			st->failed++;
		} else if (!locked) {
			/* the readers go on to the end: they are waited for */
			st->failed++;
			br_free(s->b);
			s->b = NULL;
		} else {
			load_one(db, s, st);
			br_free(s->b);
			s->b = NULL;
		}
		log_release(&s->log);
		pthread_mutex_lock(&p.mu);
		p.held -= s->bytes;
		/* the slot is file k + window's now */
		memset(s, 0, sizeof(*s));
		p.consumed = k + 1;
		pthread_cond_broadcast(&p.cv);
		pthread_mutex_unlock(&p.mu);
		/* commit in batches: one transaction per bundle is slow; and
		 * diagnose in batches while the readers go on, instead of all
		 * at the end with one CPU busy.  The rules have a fixed cost a
		 * call (~36 M instructions, against ~11 M a bundle), so the
		 * batches are 256 bundles; but what is left when the readers
		 * are done runs alone, so the last 512 go in batches of 32
		 * (2,000 bundles: the final batch was 208 bundles, a second on
		 * one CPU with the other idle) */
		tail = f.n - k <= 512;
		if (locked && ++batch == (tail ? 32 : 64)) {
			if (db_run(db, "COMMIT") < 0)
				rc = -1;
			if (st->nnew - diagnosed >= (tail ? 32u : 256u))
				diagnose_since(db, diagnose, st, &diagnosed);
			locked = !db_run(db, "BEGIN IMMEDIATE");
			if (!locked)
				rc = -1;
			batch = 0;
		}
		if (progress)
			bar(k + 1, f.n);
	}
	if (locked && db_run(db, "COMMIT") < 0)
		rc = -1;
	diagnose_since(db, diagnose, st, &diagnosed);
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
