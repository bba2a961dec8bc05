/* history-timeline: `rdma-analyze history --db FILE NODE`, the timeline of a
 * node's snapshots (history.h): when each bundle was collected, in which
 * boot, after how long; what changed since the one before, how its
 * counters moved (deltas and per-hour rates, resets, saturation, wraps),
 * the counters' rates within a --sample window, and the kernel log events
 * that are new.  Text, or JSON with -f json.  Its command line is
 * cmd-history.c.
 *
 * Exit status: 0 the timeline was written; 3 usage error; 4 the database
 * cannot be read, or holds no node of that name.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze.h"
#include "buf.h"
#include "db.h"
#include "history.h"
#include "json.h"
#include "log.h"

#define EVENTS_SHOWN 20		/* per snapshot, in text */

struct out {
	sqlite3 *db;
	int json, all;
	struct json j;
	struct buf buf;		/* JSON */
	const struct hist_snap *prev, *cur;
	int others;		/* counters moved but not printed (text) */
};

/* what is printed from a bundle: printable bytes only */
static const char *clean(const char *in, char *out, size_t n)
{
	size_t i;

	for (i = 0; in && in[i] && i + 1 < n; i++)
		out[i] = (unsigned char)in[i] < 0x20 || in[i] == 0x7f ? ' ' : in[i];
	out[i] = 0;
	return out;
}

static void print_rate(double per_hour)
{
	char r[32];

	hist_fmt_rate(r, sizeof(r), per_hour);
	printf("%s", r);
}

/* --- one snapshot --- */

static int change_row(const struct hist_setting *s, void *arg)
{
	struct out *o = arg;
	char c[128], f[160], t[160];

	if (o->json) {
		json_obj_open(&o->j, NULL);
		json_str(&o->j, "component", s->component);
		json_str(&o->j, "setting", s->name);
		json_str(&o->j, "from", s->from);
		json_str(&o->j, "to", s->to);
		json_str(&o->j, "path", s->path);
		json_obj_close(&o->j);
	} else {
		printf("    changed   %s %s: %s -> %s\n",
		       clean(s->component, c, sizeof(c)), s->name,
		       clean(s->from, f, sizeof(f)), clean(s->to, t, sizeof(t)));
	}
	return 0;
}

/* a figure, or null when unknown (< 0) */
static void json_num(struct json *j, const char *key, double v)
{
	char n[64];

	if (v < 0) {
		json_null(j, key);
		return;
	}
	snprintf(n, sizeof(n), "%.6g", v);
	json_raw(j, key, n);
}

static void counter_json(struct out *o, const struct hist_row *r,
			 const struct hist_counter *c)
{
	json_str(&o->j, "kind", r->kind);
	json_str(&o->j, "object", r->obj);
	json_str(&o->j, "name", r->name);
	json_uint(&o->j, "value", r->cur);
	json_int(&o->j, "bits", c->width);
	json_bool(&o->j, "error", c->error);
}

/* a counter between the previous snapshot and this one */
static int counter_row(const struct hist_row *r, void *arg)
{
	struct out *o = arg;
	struct hist_counter c;
	struct hist_delta d;
	int peer = !strncmp(r->kind, "PortCounters", 12);
	char obj[160], name[96];

	if (!r->has_prev || hist_counter_info(r->kind, r->name, r->cur, &c) < 0)
		return 0;
	/* the switch at the far end did not reboot with this node */
	hist_delta(r->prev, r->cur, c.width,
		   hist_rebooted(o->prev, o->cur) && !peer,
		   hist_interval(o->prev, o->cur), o->cur->uptime_s, &d);
	if (d.status == HIST_DELTA && !d.delta)
		return 0;
	if (d.status == HIST_REBOOT && !d.delta && r->prev == 0)
		return 0;
	if (o->json) {
		json_obj_open(&o->j, NULL);
		counter_json(o, r, &c);
		json_uint(&o->j, "previous", r->prev);
		json_str(&o->j, "status", hist_status_name(d.status));
		if (d.status != HIST_RESET)
			json_uint(&o->j, "delta", d.delta);
		json_num(&o->j, "seconds", d.seconds > 0 ? d.seconds : -1);
		json_num(&o->j, "per_hour", d.per_hour);
		json_obj_close(&o->j);
		return 0;
	}
	if (!c.error && !o->all) {
		o->others++;
		return 0;
	}
	printf("    %-9s %s %s %s: %llu -> %llu", c.error ? "error" : "counter",
	       clean(r->obj, obj, sizeof(obj)), r->kind,
	       clean(r->name, name, sizeof(name)),
	       (unsigned long long)r->prev, (unsigned long long)r->cur);
	switch (d.status) {
	case HIST_RESET:
		printf(" (reset: cleared or driver reloaded, no rate)\n");
		return 0;
	case HIST_SATURATED:
		printf(" (saturated at the %u-bit maximum: at least +%llu, no "
		       "rate)\n", c.width, (unsigned long long)d.delta);
		return 0;
	case HIST_REBOOT:
		printf(" (+%llu since the reboot", (unsigned long long)d.delta);
		break;
	case HIST_WRAP:
		printf(" (+%llu through a 64-bit wrap", (unsigned long long)d.delta);
		break;
	case HIST_DELTA:
		printf(" (+%llu", (unsigned long long)d.delta);
		break;
	}
	if (d.per_hour >= 0) {
		printf(", ");
		print_rate(d.per_hour);
	} else {
		printf(", no rate: time unknown");
	}
	printf(")\n");
	return 0;
}

/* since boot: the error counters of a snapshot over its uptime */
static int since_boot_row(const struct hist_row *r, void *arg)
{
	struct out *o = arg;
	struct hist_counter c;
	char obj[160], name[96];
	double up = o->cur->uptime_s;

	if (!r->cur || hist_counter_info(r->kind, r->name, r->cur, &c) < 0 ||
	    !strncmp(r->kind, "PortCounters", 12))
		return 0;
	if (o->json) {
		json_obj_open(&o->j, NULL);
		counter_json(o, r, &c);
		json_bool(&o->j, "saturated", c.width < 64 &&
			  r->cur >= hist_max(c.width));
		json_num(&o->j, "per_hour", up > 0 && (c.width >= 64 ||
			 r->cur < hist_max(c.width)) ?
			 (double)r->cur * 3600.0 / up : -1);
		json_obj_close(&o->j);
		return 0;
	}
	printf("    since boot %s %s %s: %llu", clean(r->obj, obj, sizeof(obj)),
	       r->kind, clean(r->name, name, sizeof(name)),
	       (unsigned long long)r->cur);
	if (c.width < 64 && r->cur >= hist_max(c.width))
		printf(" (saturated at the %u-bit maximum: no rate)\n", c.width);
	else if (up > 0) {
		printf(" (");
		print_rate((double)r->cur * 3600.0 / up);
		printf(" over the uptime)\n");
	} else {
		printf(" (uptime unknown)\n");
	}
	return 0;
}

/* --sample: the second read of the same bundle */
static int sample_row(const struct hist_row *r, void *arg)
{
	struct out *o = arg;
	struct hist_counter c;
	struct hist_delta d;
	char obj[160], name[96];
	double s = (double)r->interval_ms / 1000.0;

	if (!r->has_v2 || r->v2 == r->cur || r->interval_ms <= 0 ||
	    hist_counter_info(r->kind, r->name, r->v2, &c) < 0)
		return 0;
	hist_delta(r->cur, r->v2, c.width, 0, s, -1, &d);
	if (o->json) {
		json_obj_open(&o->j, NULL);
		counter_json(o, r, &c);
		json_uint(&o->j, "value2", r->v2);
		json_int(&o->j, "interval_ms", r->interval_ms);
		json_str(&o->j, "status", hist_status_name(d.status));
		json_num(&o->j, "per_second", d.per_hour >= 0 ?
			 d.per_hour / 3600.0 : -1);
		json_obj_close(&o->j);
		return 0;
	}
	if (!c.error && !o->all) {
		o->others++;
		return 0;
	}
	printf("    sample    %s %s %s: %llu -> %llu in %.1f s",
	       clean(r->obj, obj, sizeof(obj)), r->kind,
	       clean(r->name, name, sizeof(name)), (unsigned long long)r->cur,
	       (unsigned long long)r->v2, s);
	if (d.per_hour >= 0)
		printf(" (%.3g/s)\n", d.per_hour / 3600.0);
	else
		printf(" (%s, no rate)\n", hist_status_name(d.status));
	return 0;
}

static int event_row(const char *cat, int64_t ts_us, const char *device,
		     const char *text, void *arg)
{
	struct out *o = arg;
	char t[400];

	if (o->json) {
		json_obj_open(&o->j, NULL);
		json_str(&o->j, "category", cat);
		json_int(&o->j, "ts_us", ts_us);
		json_str(&o->j, "device", device);
		json_str(&o->j, "text", text);
		json_obj_close(&o->j);
	} else if (o->others++ < EVENTS_SHOWN) {
		printf("    klog      [%5lld.%06lld] %s: %s\n",
		       (long long)(ts_us / 1000000),
		       (long long)(ts_us % 1000000 < 0 ? 0 : ts_us % 1000000),
		       cat, clean(text, t, sizeof(t)));
	}
	return 0;
}

static void others(struct out *o, const char *what)
{
	if (!o->json && o->others)
		printf("    (%d other counter%s %s: --all shows them)\n",
		       o->others, o->others == 1 ? "" : "s", what);
	o->others = 0;
}

static int snapshot(struct out *o, const struct hist_node *h, size_t i)
{
	const struct hist_snap *s = &h->v[i], *p = i ? &h->v[i - 1] : NULL;
	double iv = p ? hist_interval(p, s) : -1;
	char span[32], boot[16], file[300];
	int rc = 0, n;

	o->prev = p;
	o->cur = s;
	clean(s->boot_id ? s->boot_id : "?", boot, 9);
	if (o->json) {
		json_obj_open(&o->j, NULL);
		json_int(&o->j, "bundle_id", s->bundle_id);
		json_str(&o->j, "file", s->file);
		json_str(&o->j, "collected_at", s->collected_at);
		json_str(&o->j, "boot_id", s->boot_id);
		json_num(&o->j, "uptime_s", s->uptime_s);
		json_str(&o->j, "kernel", s->kernel);
		json_bool(&o->j, "reboot", p && hist_rebooted(p, s));
		if (p)
			json_num(&o->j, "interval_s", iv);
		else
			json_null(&o->j, "interval_s");
	} else {
		printf("\n%s  boot %s", s->collected_at ? s->collected_at : "?",
		       boot);
		hist_fmt_span(span, sizeof(span), s->uptime_s);
		printf("  up %s", s->uptime_s >= 0 ? span : "?");
		if (p) {
			hist_fmt_span(span, sizeof(span), iv);
			printf("  %s after the previous%s", span,
			       hist_rebooted(p, s) ? ", rebooted" : "");
		}
		printf("  %s\n", clean(s->file ? s->file : "?", file,
					sizeof(file)));
	}
	if (p) {
		if (o->json)
			json_arr_open(&o->j, "changes");
		rc |= hist_settings_changed(o->db, p->bundle_id, s->bundle_id,
					    change_row, o);
		if (o->json) {
			json_arr_close(&o->j);
			json_arr_open(&o->j, "counters");
		}
		rc |= hist_counters(o->db, s->bundle_id, p->bundle_id, 0, 0,
				    counter_row, o);
		if (o->json)
			json_arr_close(&o->j);
		others(o, "moved");
	}
	/* the first snapshot has nothing before it: its rates are over the
	 * uptime */
	if (!p || o->json) {
		if (o->json)
			json_arr_open(&o->j, "since_boot");
		rc |= hist_counters(o->db, s->bundle_id, 0, 0, 1, since_boot_row,
				    o);
		if (o->json)
			json_arr_close(&o->j);
	}
	if (o->json)
		json_arr_open(&o->j, "sample");
	rc |= hist_counters(o->db, s->bundle_id, 0, 0, 0, sample_row, o);
	if (o->json)
		json_arr_close(&o->j);
	others(o, "moved during --sample");
	if (p) {
		if (o->json)
			json_arr_open(&o->j, "kernel_events");
		n = hist_new_klog(o->db, s, event_row, o);
		if (o->json)
			json_arr_close(&o->j);
		else if (n > EVENTS_SHOWN)
			printf("    (%d more new kernel log events)\n",
			       n - EVENTS_SHOWN);
		o->others = 0;
		rc |= n < 0;
	}
	if (o->json)
		json_obj_close(&o->j);
	return rc ? -1 : 0;
}

static int node(struct out *o, int64_t node_id)
{
	struct hist_node h;
	size_t i, boots = 1;
	int rc = 0;
	char name[128];

	if (hist_node_load(o->db, node_id, 0, 0, &h) < 0)
		return -1;
	for (i = 1; i < h.n; i++)
		boots += hist_rebooted(&h.v[i - 1], &h.v[i]);
	if (o->json) {
		json_obj_open(&o->j, NULL);
		json_str(&o->j, "node", h.name);
		json_str(&o->j, "machine_id", h.machine_id);
		json_int(&o->j, "boots", (int64_t)boots);
		json_arr_open(&o->j, "snapshots");
	} else {
		printf("%s (machine-id %s): %zu snapshot%s, %zu boot%s\n",
		       clean(h.name, name, sizeof(name)),
		       h.machine_id ? h.machine_id : "unknown", h.n,
		       h.n == 1 ? "" : "s", boots, boots == 1 ? "" : "s");
	}
	for (i = 0; i < h.n && !rc; i++)
		rc = snapshot(o, &h, i);
	if (o->json) {
		json_arr_close(&o->j);
		json_obj_close(&o->j);
	}
	hist_node_release(&h);
	return rc;
}

int history_print(const char *file, const char *node_name, int json, int all)
{
	struct out o;
	sqlite3_stmt *st;
	int64_t *ids = NULL;
	size_t n = 0, i;
	int rc = 0;

	memset(&o, 0, sizeof(o));
	o.json = json;
	o.all = all;
	/* db_open would create a missing file */
	if (access(file, R_OK)) {
		error("cannot open database '%s': %s", file, strerror(errno));
		return EXIT_INPUT;
	}
	o.db = db_open(file);
	if (!o.db)
		return EXIT_INPUT;
	st = db_query(o.db, "SELECT id FROM nodes WHERE name = ? ORDER BY "
		      "coalesce(machine_id, ''), id", "s", node_name);
	while (sqlite3_step(st) == SQLITE_ROW) {
		ids = xrealloc(ids, (n + 1) * sizeof(*ids));
		ids[n++] = sqlite3_column_int64(st, 0);
	}
	db_done(st);
	if (!n) {
		char name[128];

		error("no node '%s' in %s", clean(node_name, name,
						  sizeof(name)), file);
		db_close(o.db);
		return EXIT_INPUT;
	}
	if (o.json) {
		buf_init(&o.buf, 0);
		json_init(&o.j, &o.buf, 1);
		json_arr_open(&o.j, NULL);
	}
	for (i = 0; i < n && !rc; i++) {
		if (i && !o.json)
			printf("\n");
		rc = node(&o, ids[i]);
	}
	if (o.json) {
		json_arr_close(&o.j);
		json_end(&o.j);
		fwrite(o.buf.buf, 1, o.buf.len, stdout);
		buf_release(&o.buf);
	}
	free(ids);
	db_close(o.db);
	return rc ? EXIT_INPUT : EXIT_OK;
}
