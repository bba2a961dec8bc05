/* runner: a child per source, deadlines, quarantine of hung devices.
 *
 * Why a process per source: sysfs counter reads go to firmware, and a
 * wedged firmware blocks the reader in the kernel, often uninterruptibly.
 * A thread could not be abandoned cleanly; a child can be killed and left
 * behind, and everything it sent before it blocked is already ours.  The
 * last progress record names the device it was touching: that device is
 * quarantined and the source runs again without it.
 *
 * Test hook: RDMA_COLLECT_TEST_CRASH=<source name> makes that source's
 * child die by SIGSEGV before collect() (no core dump), so the tests can
 * check that a source killed by a signal ends as "error" with the signal
 * named while the bundle still completes (tests/cli/hang.sh).
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bundle.h"
#include "log.h"
#include "runner.h"
#include "util.h"
#include "wire.h"

#define MAX_ATTEMPTS 4
#define ERRLIST_MAX 20

static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
	got_signal = sig;
}

/* --fabric lengthens the global deadline by its own budget, as --sample
 * does by its interval: a whole-subnet scan is not a node's evidence */
static int64_t fabric_extra_us(const struct collect_opts *o)
{
	if (!o->fabric)
		return 0;
	return ((int64_t)o->fabric_timeout_ms + SRC_FABRIC_SLACK_MS) * 1000;
}

void run_init(struct run *r, const struct collect_opts *opts)
{
	size_t i;

	memset(r, 0, sizeof(*r));
	r->opts = opts;
	store_init(&r->store, opts->max_bundle);
	r->runs = xcalloc(nsources, sizeof(*r->runs));
	for (i = 0; i < nsources; i++) {
		r->runs[i].src = sources[i];
		buf_init(&r->runs[i].errlist, 0);
	}
	r->lock_fd = -1;
	r->start_us = mono_us();
	r->deadline_us = r->start_us + (int64_t)opts->deadline_ms * 1000 +
			 (int64_t)opts->sample_s * 1000000 + fabric_extra_us(opts);
}

void run_release(struct run *r)
{
	size_t i, j;

	for (i = 0; i < nsources; i++) {
		struct src_run *sr = &r->runs[i];

		buf_release(&sr->errlist);
		for (j = 0; j < sr->nnotes; j++) {
			free(sr->notes[j].key);
			free(sr->notes[j].val);
		}
		free(sr->notes);
	}
	free(r->runs);
	for (i = 0; i < r->nquarantine; i++)
		free(r->quarantine[i]);
	free(r->quarantine);
	store_release(&r->store);
}

const char *run_note(const struct src_run *sr, const char *key)
{
	size_t i;

	for (i = 0; i < sr->nnotes; i++)
		if (!strcmp(sr->notes[i].key, key))
			return sr->notes[i].val;
	return NULL;
}

static void add_note(struct src_run *sr, const char *key, size_t klen,
		     const char *val, size_t vlen)
{
	size_t i;

	for (i = 0; i < sr->nnotes; i++) {
		if (strlen(sr->notes[i].key) == klen &&
		    !memcmp(sr->notes[i].key, key, klen)) {
			free(sr->notes[i].val);
			sr->notes[i].val = xstrndup(val, vlen);
			return;
		}
	}
	sr->notes = xrealloc(sr->notes, (sr->nnotes + 1) * sizeof(*sr->notes));
	sr->notes[sr->nnotes].key = xstrndup(key, klen);
	sr->notes[sr->nnotes].val = xstrndup(val, vlen);
	sr->nnotes++;
}

static int is_quarantined(struct run *r, const char *key)
{
	size_t i;

	for (i = 0; i < r->nquarantine; i++)
		if (!strcmp(r->quarantine[i], key))
			return 1;
	return 0;
}

static void quarantine(struct run *r, const char *key)
{
	if (!*key || is_quarantined(r, key))
		return;
	r->quarantine = xrealloc(r->quarantine,
				 (r->nquarantine + 1) * sizeof(char *));
	r->quarantine[r->nquarantine++] = xstrdup(key);
}

/* a hung RDMA device takes its PCI function and netdevs with it: the
 * same firmware answers for all of them.  Links and folder listings only:
 * they never reach the device. */
static void quarantine_aliases(struct run *r, const char *ibdev)
{
	const char *root = r->opts->root ? r->opts->root : "";
	char p[PATH_MAX], target[PATH_MAX];
	struct dirent *de;
	ssize_t n;
	DIR *d;

	if (check_snprintf(p, sizeof(p), "%s/sys/class/infiniband/%s/device",
			   root, ibdev) < 0)
		return;
	n = readlink(p, target, sizeof(target) - 1);
	if (n > 0) {
		target[n] = 0;
		quarantine(r, strrchr(target, '/') ? strrchr(target, '/') + 1 :
			   target);
	}
	if (check_snprintf(p, sizeof(p), "%s/sys/class/infiniband/%s/device/net",
			   root, ibdev) < 0)
		return;
	d = opendir(p);
	if (!d)
		return;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			quarantine(r, de->d_name);
	closedir(d);
}

/* what the child of one attempt told us */
struct attempt {
	char last_key[256];
	char last_what[1024];
	int done;
	int result;
	char reason[512];
};

static void handle(struct run *r, int si, struct attempt *at,
		   const struct wire_hdr *h, const char *path, char *data)
{
	struct src_run *sr = &r->runs[si];
	char p[WIRE_MAX_PATH + 1];
	int rc, type;

	memcpy(p, path, h->plen);
	p[h->plen] = 0;
	switch (h->type) {
	case W_FILE:
	case W_DIR:
	case W_LINK:
		type = h->type == W_FILE ? ENT_FILE :
		       h->type == W_DIR ? ENT_DIR : ENT_LINK;
		if (type == ENT_LINK) {	/* targets are NUL-terminated */
			data = xrealloc(data, h->dlen + 1);
			data[h->dlen] = 0;
		}
		if (sr->src->max_bytes &&
		    sr->bytes + h->dlen > sr->src->max_bytes) {
			sr->capped++;
			free(data);
			return;
		}
		rc = store_add(&r->store, type, p, data, h->dlen, h->mode,
			       h->flags & WF_TRUNC, si);
		if (!rc) {
			if (type == ENT_FILE) {
				sr->files++;
				sr->bytes += h->dlen;
			}
		} else if (rc == -2) {
			sr->dropped++;
		}
		return;
	case W_BEGIN:
		snprintf(at->last_key, sizeof(at->last_key), "%.255s", p);
		snprintf(at->last_what, sizeof(at->last_what), "%.*s",
			 (int)h->dlen, data ? data : "");
		break;
	case W_NOTE:
		add_note(sr, p, h->plen, data ? data : "", h->dlen);
		break;
	case W_ERR:
		if (h->mode == EACCES || h->mode == EPERM)
			sr->denied++;
		else
			sr->errors++;
		if (sr->denied + sr->errors <= ERRLIST_MAX)
			buf_addf(&sr->errlist, "%s\t%s\n", p,
				 strerrorname_np((int)h->mode) ?
				 strerrorname_np((int)h->mode) : "EIO");
		break;
	case W_DONE:
		at->done = 1;
		at->result = (int)h->mode;
		snprintf(at->reason, sizeof(at->reason), "%.*s", (int)h->dlen,
			 data ? data : "");
		break;
	default:
		break;
	}
	free(data);
}

/* parse complete records from in; keep a partial one for later */
static void parse(struct run *r, int si, struct attempt *at, struct buf *in)
{
	size_t off = 0;

	while (in->len - off >= sizeof(struct wire_hdr)) {
		struct wire_hdr h;
		size_t need;
		char *data = NULL;

		memcpy(&h, in->buf + off, sizeof(h));
		if (h.plen > WIRE_MAX_PATH || h.dlen > WIRE_MAX_DATA) {
			off = in->len;	/* corrupt: drop the rest */
			break;
		}
		need = sizeof(h) + h.plen + h.dlen;
		if (in->len - off < need)
			break;
		if (h.dlen) {
			data = xmalloc(h.dlen);
			memcpy(data, in->buf + off + sizeof(h) + h.plen, h.dlen);
		}
		handle(r, si, at, &h, in->buf + off + sizeof(h), data);
		off += need;
	}
	if (off) {
		memmove(in->buf, in->buf + off, in->len - off);
		buf_setlen(in, in->len - off);
	}
}

/* the test hook of the comment above: die like a crashing source */
static void test_crash(const char *name)
{
	const char *want = getenv("RDMA_COLLECT_TEST_CRASH");
	struct rlimit none = { 0, 0 };

	if (!want || strcmp(want, name))
		return;
	setrlimit(RLIMIT_CORE, &none);
	signal(SIGSEGV, SIG_DFL);	/* past a sanitizer's handler */
	raise(SIGSEGV);
}

static void null_stdio(void)
{
	int fd = open("/dev/null", O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return;
	dup2(fd, STDIN_FILENO);
	dup2(fd, STDOUT_FILENO);
	close(fd);
}

static void child(struct run *r, const struct source *src, int wfd,
		  pid_t parent)
{
	struct ctx c;
	int res;

	/* a collector killed by SIGKILL takes its sources with it: nothing
	 * of it goes on reading the node after it is gone */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(0);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	/* a child stuck in the kernel must not hold the caller's stdout open
	 * (b=$(rdma-collect) would wait for it); stderr stays, for sanitizer
	 * reports (sources never print) */
	null_stdio();
	/* nor the spool's lock: the next day's run would find it held */
	if (r->lock_fd >= 0)
		close(r->lock_fd);
	memset(&c, 0, sizeof(c));
	c.opts = r->opts;
	c.src = src;
	c.wfd = wfd;
	c.start_us = r->start_us;
	c.counters_us = r->counters_us;
	c.quarantine = r->quarantine;
	c.nquarantine = r->nquarantine;
	c.rootfd = -1;
	if (r->opts->root) {
		c.rootfd = open(r->opts->root, O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (c.rootfd < 0) {
			ctx_reason(&c, "cannot open root '%s': %s",
				   r->opts->root, strerror(errno));
			res = SRC_ERROR;
			goto done;
		}
	}
	test_crash(src->name);
	res = src->collect(&c);
done:
	wire_send(wfd, W_DONE, 0, (uint32_t)res, "", 0, c.reason,
		  strlen(c.reason));
	_exit(0);
}

static int result_status(int res)
{
	switch (res) {
	case SRC_OK: return BST_OK;
	case SRC_PARTIAL: return BST_PARTIAL;
	case SRC_ABSENT: return BST_ABSENT;
	case SRC_DENIED: return BST_DENIED;
	default: return BST_ERROR;
	}
}

/* one attempt: returns 1 if it ended by the deadline */
static int attempt(struct run *r, int si, int64_t until, struct attempt *at)
{
	struct buf in = BUF_INIT;
	char chunk[65536];
	int fds[2], status = 0, timed_out = 0;
	pid_t pid, self = getpid();

	memset(at, 0, sizeof(*at));
	if (pipe2(fds, O_CLOEXEC) < 0)
		die("pipe: %s", strerror(errno));
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (!pid) {
		close(fds[0]);
		child(r, r->runs[si].src, fds[1], self);
	}
	close(fds[1]);
	fcntl(fds[0], F_SETFL, O_NONBLOCK);
	for (;;) {
		struct pollfd pfd = { .fd = fds[0], .events = POLLIN };
		int64_t left = (until - mono_us()) / 1000;
		ssize_t n;
		int pr;

		if (got_signal)
			break;
		if (left <= 0) {
			timed_out = 1;
			break;
		}
		pr = poll(&pfd, 1, left > 1000 ? 1000 : (int)left + 1);
		if (pr < 0 && errno != EINTR)
			die("poll: %s", strerror(errno));
		if (pr <= 0)
			continue;
		n = read(fds[0], chunk, sizeof(chunk));
		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			break;
		}
		if (!n)
			break;
		buf_add(&in, chunk, (size_t)n);
		parse(r, si, at, &in);
	}
	close(fds[0]);
	buf_release(&in);
	if (timed_out || got_signal || !at->done)
		kill(pid, SIGKILL);
	/* reap if it can be reaped; a child stuck in the kernel is left */
	if (timed_out) {
		waitpid(pid, &status, WNOHANG);
	} else {
		int64_t t = mono_us() + 200000;

		while (waitpid(pid, &status, WNOHANG) == 0 && mono_us() < t)
			usleep(1000);
		if (!at->done && WIFSIGNALED(status))
			snprintf(at->reason, sizeof(at->reason),
				 "source process killed by signal %d (%s)",
				 WTERMSIG(status), strsignal(WTERMSIG(status)));
	}
	return timed_out;
}

static int wanted(const char *list, const char *name)
{
	const char *p = list;
	size_t n = strlen(name);

	while (p && *p) {
		const char *e = strchrnul(p, ',');

		if ((size_t)(e - p) == n && !strncmp(p, name, n))
			return 1;
		p = *e ? e + 1 : e;
	}
	return 0;
}

static void run_one(struct run *r, int si)
{
	struct src_run *sr = &r->runs[si];
	const struct source *src = sr->src;
	const struct collect_opts *o = r->opts;
	struct buf hung = BUF_INIT;
	struct attempt at;
	int64_t budget_us, now;
	int tmo;

	if ((o->only && !wanted(o->only, src->name)) ||
	    (o->skip && wanted(o->skip, src->name))) {
		sr->status = BST_ABSENT;
		snprintf(sr->reason, sizeof(sr->reason),
			 "not selected (--only/--skip)");
		return;
	}
	if ((src->flags & SRC_F_FABRIC) && !o->fabric && !o->root) {
		/* under --root the stored scan is copied, as --sample's is */
		sr->status = BST_ABSENT;
		snprintf(sr->reason, sizeof(sr->reason),
			 "off by default; enable with --fabric");
		return;
	}
	if ((src->flags & SRC_F_OPTIN) && !(src->flags & SRC_F_FABRIC) &&
	    !o->commands) {
		sr->status = BST_ABSENT;
		snprintf(sr->reason, sizeof(sr->reason),
			 "off by default; enable with --commands");
		return;
	}
	if ((src->flags & SRC_F_SAMPLE) && !o->sample_s && !o->root) {
		sr->status = BST_ABSENT;
		snprintf(sr->reason, sizeof(sr->reason),
			 "not requested; enable with --sample SECONDS");
		return;
	}
	tmo = o->source_timeout_ms ? o->source_timeout_ms : src->timeout_ms;
	if (src->flags & SRC_F_FABRIC)	/* its budget is --fabric-timeout */
		tmo = o->fabric_timeout_ms + SRC_FABRIC_SLACK_MS;
	budget_us = (int64_t)tmo * 1000;
	if (src->flags & SRC_F_SAMPLE)
		budget_us += (int64_t)o->sample_s * 1000000;
	sr->start_us = mono_us();
	sr->ran = 1;
	for (;;) {
		int64_t until;

		now = mono_us();
		until = now + budget_us;
		if (until > r->deadline_us)
			until = r->deadline_us;
		if (until <= now) {
			sr->status = BST_TIMEOUT;
			snprintf(sr->reason, sizeof(sr->reason), "%s%s",
				 hung.len ? hung.buf : "",
				 "global deadline reached");
			break;
		}
		sr->attempts++;
		if (!attempt(r, si, until, &at)) {
			if (got_signal)
				break;
			if (hung.len) {
				sr->status = BST_TIMEOUT;
				snprintf(sr->reason, sizeof(sr->reason), "%.*s",
					 (int)hung.len - 2, hung.buf);
			} else if (at.done) {
				sr->status = result_status(at.result);
				snprintf(sr->reason, sizeof(sr->reason), "%s",
					 at.reason);
			} else {
				sr->status = BST_ERROR;
				snprintf(sr->reason, sizeof(sr->reason), "%s",
					 at.reason[0] ? at.reason :
					 "source process ended without a result");
			}
			break;
		}
		/* timed out: quarantine what it was touching, try again */
		buf_addf(&hung, "no answer within %d ms reading %s", tmo,
			 at.last_what[0] ? at.last_what : "(unknown)");
		if (at.last_key[0] && !is_quarantined(r, at.last_key)) {
			buf_addf(&hung, "; %s quarantined", at.last_key);
			quarantine(r, at.last_key);
			quarantine_aliases(r, at.last_key);
		} else {
			buf_addstr(&hung, "; ");
			sr->status = BST_TIMEOUT;
			snprintf(sr->reason, sizeof(sr->reason), "%.*s",
				 (int)hung.len - 2, hung.buf);
			break;
		}
		buf_addstr(&hung, "; ");
		if (sr->attempts >= MAX_ATTEMPTS) {
			sr->status = BST_TIMEOUT;
			snprintf(sr->reason, sizeof(sr->reason), "%.*s",
				 (int)hung.len - 2, hung.buf);
			break;
		}
	}
	if (sr->capped && sr->status <= BST_PARTIAL) {
		sr->status = BST_PARTIAL;
		snprintf(sr->reason + strlen(sr->reason),
			 sizeof(sr->reason) - strlen(sr->reason),
			 "%s%lu entries dropped: the source's size cap (%zu "
			 "bytes) was reached", sr->reason[0] ? "; " : "",
			 sr->capped, sr->src->max_bytes);
	}
	if (sr->dropped && sr->status <= BST_PARTIAL) {
		sr->status = BST_PARTIAL;
		snprintf(sr->reason + strlen(sr->reason),
			 sizeof(sr->reason) - strlen(sr->reason),
			 "%s%lu entries dropped: bundle size cap reached",
			 sr->reason[0] ? "; " : "", sr->dropped);
	}
	sr->dur_ms = (mono_us() - sr->start_us) / 1000;
	buf_release(&hung);
}

int run_sources(struct run *r)
{
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	for (i = 0; i < nsources && !got_signal; i++) {
		run_one(r, (int)i);
		/* the second counter pass is timed from the first */
		if (!strcmp(sources[i]->name, "sysfs") && r->runs[i].ran)
			r->counters_us = r->runs[i].start_us;
	}
	if (got_signal) {
		r->interrupted = got_signal;
		return -1;
	}
	return 0;
}
