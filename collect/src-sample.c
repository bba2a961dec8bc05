/* src-sample: the second counter pass of --sample SECONDS.
 *
 * The first pass is the sysfs and netdev sources' own reads; this one runs
 * last and waits until SECONDS after the first pass started, then reads
 * every counter again into rdma-collect/sample/, so that one bundle gives
 * rates.  sample.json says when each pass started. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ethtool.h"
#include "json.h"
#include "log.h"
#include "rdmanet.h"
#include "src.h"
#include "util.h"

static void sleep_until(int64_t until_us)
{
	for (;;) {
		int64_t left = until_us - mono_us();
		struct timespec ts;

		if (left <= 0)
			return;
		ts.tv_sec = left / 1000000;
		ts.tv_nsec = (left % 1000000) * 1000;
		nanosleep(&ts, NULL);
	}
}

/* every file of dir, stored under rdma-collect/sample/<dir>/ */
static int copy_dir(struct ctx *c, const char *dir)
{
	char **names, src[512], dst[600];
	int n, i, got = 0;

	n = ctx_names(c, dir, &names);
	for (i = 0; i < n; i++) {
		xsnprintf(src, sizeof(src), "%s/%s", dir, names[i]);
		xsnprintf(dst, sizeof(dst), "rdma-collect/sample%s", src);
		if (!ctx_file_to(c, src, dst))
			got++;
	}
	if (n > 0)
		ctx_names_free(names, n);
	return got;
}

static int ib_counters(struct ctx *c)
{
	char **devs, **ports, p[512];
	int n, i, k, np, got = 0;

	n = ctx_names(c, "/sys/class/infiniband", &devs);
	for (i = 0; i < n; i++) {
		if (ctx_quarantined(c, devs[i]))
			continue;
		xsnprintf(p, sizeof(p), "/sys/class/infiniband/%s/hw_counters",
			  devs[i]);
		got += copy_dir(c, p);
		xsnprintf(p, sizeof(p), "/sys/class/infiniband/%s/ports",
			  devs[i]);
		np = ctx_names(c, p, &ports);
		for (k = 0; k < np; k++) {
			xsnprintf(p, sizeof(p),
				  "/sys/class/infiniband/%s/ports/%s/counters",
				  devs[i], ports[k]);
			got += copy_dir(c, p);
			xsnprintf(p, sizeof(p),
				  "/sys/class/infiniband/%s/ports/%s/hw_counters",
				  devs[i], ports[k]);
			got += copy_dir(c, p);
		}
		if (np > 0)
			ctx_names_free(ports, np);
	}
	if (n > 0)
		ctx_names_free(devs, n);
	return got;
}

static int net_counters(struct ctx *c)
{
	struct buf out = BUF_INIT;
	char **nets, p[512];
	int n, i, got = 0;

	n = rdma_netdevs(c, &nets);
	for (i = 0; i < n; i++) {
		if (ctx_quarantined(c, nets[i]))
			continue;
		xsnprintf(p, sizeof(p), "/sys/class/net/%s/statistics", nets[i]);
		got += copy_dir(c, p);
		if (ctx_is_root(c))
			continue;
		ctx_progress(c, nets[i], "ethtool -S (second pass)");
		buf_reset(&out);
		ethtool_stats_json(nets[i], &out);
		xsnprintf(p, sizeof(p), "sample/ethtool/%s.json", nets[i]);
		ctx_emit_buf(c, p, &out);
		got++;
	}
	if (n > 0)
		ctx_names_free(nets, n);
	buf_release(&out);
	return got;
}

static int collect(struct ctx *c)
{
	int reproducible = getenv("SOURCE_DATE_EPOCH") != NULL;
	int64_t first = c->counters_us ? c->counters_us : mono_us();
	int64_t second;
	struct buf out = BUF_INIT;
	struct json j;
	int got;

	if (ctx_is_root(c)) {
		if (ctx_stored(c, "sample") >= 0)
			return SRC_OK;
		if (!c->opts->sample_s) {
			ctx_reason(c, "not requested, and no stored sample "
				   "under the root");
			return SRC_ABSENT;
		}
	}
	sleep_until(first + (int64_t)c->opts->sample_s * 1000000);
	second = mono_us();
	got = ib_counters(c) + net_counters(c);
	json_init(&j, &out, 1);
	json_obj_open(&j, NULL);
	json_int(&j, "interval_s", c->opts->sample_s);
	json_int(&j, "first_ms", reproducible ? 0 :
		 (first - c->start_us) / 1000);
	json_int(&j, "second_ms", reproducible ? 0 :
		 (second - c->start_us) / 1000);
	json_obj_close(&j);
	json_end(&j);
	ctx_emit_buf(c, "sample/sample.json", &out);
	buf_release(&out);
	if (!got) {
		ctx_reason(c, "no counter to sample (no RDMA device or netdev)");
		return SRC_ABSENT;
	}
	ctx_note(c, "counters", "%d", got);
	return SRC_OK;
}

const struct source src_sample = {
	.name = "sample",
	.help = "--sample SECONDS: every counter read a second time, for rates",
	.flags = SRC_F_SAMPLE | SRC_F_STORED,
	.timeout_ms = 10000,
	.max_bytes = 32u << 20,
	.collect = collect,
};
