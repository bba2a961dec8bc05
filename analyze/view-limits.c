/* view-limits: `ulimit -l` of the collector (KiB or "unlimited", as bash
 * prints it) and `limits`: the "Max locked memory" row of every process
 * collected (the collector, each --pid), in the /proc/PID/limits layout */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "view.h"

#define SELF "rdma-collect/limits/self.json"
#define ROW "%-25s %-20s %-20s %-10s\n"

static const char *jtext(const struct jv *v)
{
	return v && (v->t == J_STR || v->t == J_NUM) ? v->s : NULL;
}

static int limit_value(const char *s)
{
	return s && (!strcmp(s, "unlimited") ||
		     (*s && strspn(s, "0123456789") == strlen(s) &&
		      strlen(s) <= 20));
}

static int show_ulimit(const struct bundle_r *b, int argc, char **argv,
		       FILE *out)
{
	struct jv *j;
	const char *soft;
	int hard = 0;

	if (argc > 1 || (argc == 1 && strcmp(argv[0], "-l") &&
			 strcmp(argv[0], "-Hl") && strcmp(argv[0], "-Sl")))
		return error("ulimit: only -l, -Sl and -Hl (locked memory)");
	hard = argc == 1 && !strcmp(argv[0], "-Hl");
	j = br_json(b, SELF);
	if (!j)
		return error("%s: no %s (the limits source did not run)",
			     b->file, SELF);
	soft = jtext(jget(jget(j, "memlock"), hard ? "hard" : "soft"));
	if (!limit_value(soft)) {
		jfree(j);
		return error("%s: %s has no memlock value", b->file, SELF);
	}
	if (!strcmp(soft, "unlimited"))
		fprintf(out, "unlimited\n");
	else
		fprintf(out, "%llu\n", strtoull(soft, NULL, 10) / 1024);
	jfree(j);
	return 0;
}

/* the row of a /proc/PID/limits text; 0 if none */
static int memlock_row(const char *data, char *soft, char *hard)
{
	const char *p = data;

	while (p && *p) {
		if (!strncmp(p, "Max locked memory", 17) &&
		    sscanf(p + 17, "%31s %31s", soft, hard) == 2 &&
		    limit_value(soft) && limit_value(hard))
			return 1;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return 0;
}

static int show_limits(const struct bundle_r *b, int argc, char **argv,
		       FILE *out)
{
	const char *names[1];
	size_t i;
	struct jv *j;
	char soft[32], hard[32];
	int shown = 0;

	(void)argv;
	if (argc > 0)
		return error("limits takes no arguments");
	j = br_json(b, SELF);
	if (j) {
		const char *s = jtext(jget(jget(j, "memlock"), "soft"));
		const char *h = jtext(jget(jget(j, "memlock"), "hard"));

		if (limit_value(s) && limit_value(h)) {
			fprintf(out, "==> collector (pid %lld, euid %lld) <==\n",
				(long long)jint(j, "pid", -1),
				(long long)jint(j, "euid", -1));
			fprintf(out, ROW, "Limit", "Soft Limit", "Hard Limit",
				"Units");
			fprintf(out, ROW, "Max locked memory", s, h, "bytes");
			shown++;
		}
		jfree(j);
	}
	/* proc/<PID>/limits: no folder entries, so no br_list */
	for (i = 0; i < b->n; i++) {
		char p[64], comm[64], pid[12];
		const char *data, *path = b->v[i].path;
		size_t k;

		if (strncmp(path, "proc/", 5))
			continue;
		k = strspn(path + 5, "0123456789");
		if (!k || k >= sizeof(pid) || strcmp(path + 5 + k, "/limits"))
			continue;
		memcpy(pid, path + 5, k);
		pid[k] = 0;
		names[0] = pid;
		snprintf(p, sizeof(p), "proc/%s/limits", names[0]);
		data = br_data(b, p, NULL);
		if (!data || !memlock_row(data, soft, hard))
			continue;
		snprintf(p, sizeof(p), "proc/%s/comm", names[0]);
		if (!br_line(b, p, comm, sizeof(comm)))
			snprintf(comm, sizeof(comm), "?");
		fprintf(out, "%s==> pid %s (%s) <==\n", shown ? "\n" : "",
			names[0], comm);
		fprintf(out, ROW, "Limit", "Soft Limit", "Hard Limit", "Units");
		fprintf(out, ROW, "Max locked memory", soft, hard, "bytes");
		shown++;
	}
	if (!shown)
		return error("%s: no process limits collected", b->file);
	return 0;
}

const struct view view_ulimit = {
	.name = "ulimit",
	.usage = "[-l|-Sl|-Hl]",
	.help = "the collector's locked-memory limit as ulimit -l (KiB)",
	.show = show_ulimit,
};

const struct view view_limits = {
	.name = "limits",
	.usage = "",
	.help = "Max locked memory of every process collected, as /proc/PID/limits",
	.show = show_limits,
};
