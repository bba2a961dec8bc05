/* imp-ibdiag-log: ibdiagnet's console log (what ibdiagnet prints and keeps
 * as ibdiagnet2.log) into rdma-collect/fabric/ibdiagnet.json.
 *
 * The log is stages, each under a line of dashes and its name
 * ("Discovery", "Nodes Information", "Speed / Width checks" ...), holding
 * "-I- ", "-W- " and "-E- " lines; a warning or error about one object is
 * "<object> - <text>", the object named as ibdiagnet names it:
 * "S<system guid>/N<node guid>[/P<port>]" for a node without a
 * description, "<node description>/<device>[/P<port>]" otherwise
 * ("ufm-10-43-30-16/mlx5_2", "ib-switch-sequoia/U1/N/A").  Each stage
 * lists at most a few (five, by default) and ends with "-I- All other
 * warnings can be found in ibdiagnet2.db_csv"; the "Summary" stage counts
 * them all ("-I- Speed / Width checks   0   15").  What is kept:
 *
 *   version, command    "Running version:", "Running command:"
 *   stages              the Summary's rows (stage, warnings, errors) and
 *                       how many of each the log itself lists
 *   messages            every warning and error: stage, level, object,
 *                       the node GUID the object names (N<guid>), text
 *   fw                  the FW Check's "Node with Devid:54002(0xd2f2),
 *                       PSID:MT_0000000579 has FW version 31.2012.1024
 *                       while the latest FW version for the same
 *                       Devid/PSID on this fabric is 31.2012.1068"
 *   sm                  "Master SM: Port=0 LID=180 GUID=0x... devid=...
 *                       Priority:12 Node_Type=SW Node_Description=..."
 *                       (and a "Standby SM" line that names one); the
 *                       master is also the subnet's SMInfo (SmState 3) in
 *                       rdma-collect/mad/sminfo.json, as a lone sminfo's,
 *                       unless a db_csv's SM_INFO gave it
 *
 * The formats are those of ibdiagnet 2.x logs found in public sources (an
 * NDR fabric's ibdiagnet2.log kept as an exporter's sample data; the
 * Summary table and object names quoted by public parsers of the log).
 * The log holds no ports, links or counters: it makes no fabric scan
 * (rdma-collect/fabric/fabric.json), and the checks that read one stay
 * skipped.  Hostile input: lines are cut at LINE_MAX_LOG bytes, the
 * messages, stages and firmware rows are capped (what went over is
 * counted and the input reported read in part).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "imp.h"
#include "json.h"
#include "log.h"
#include "util.h"

#define DIAG_JSON "rdma-collect/fabric/ibdiagnet.json"
#define FABRIC_JSON "rdma-collect/fabric/fabric.json"
#define SMINFO_JSON "rdma-collect/mad/sminfo.json"

#define LINE_MAX_LOG 1024
#define MAX_STAGES 64
#define MAX_MSGS 20000
#define MAX_FW 20000
#define MAX_SM 64

struct lg_stage {
	char name[64];
	int64_t warnings, errors;	/* the Summary's; -1 when not there */
	int64_t listed_w, listed_e;	/* the lines the log lists */
	int more;			/* "All other warnings can be found" */
};

struct lg_msg {
	int stage, error;
	char obj[128];
	char guid[19];
	char text[512];
};

struct lg_fw {
	char obj[128];
	char guid[19];
	int64_t devid;
	char psid[32], fw[32], latest[32];
};

struct lg_sm {
	const char *role;
	int64_t lid, prio;
	char guid[19], desc[128];
};

struct lg {
	char version[256], command[256];
	struct lg_stage st[MAX_STAGES];
	struct lg_msg *m;
	struct lg_fw *f;
	struct lg_sm sm[MAX_SM];
	size_t nst, nm, nf, nsm, am, af, over;
	int cur;		/* the stage the lines are in, -1 before any */
	int dashes;		/* the line before was a line of dashes */
	int summary;		/* in the "Summary" stage */
};

/* the stage called name, added when new (-1 over the cap) */
static int lg_stage(struct lg *g, const char *name)
{
	size_t i;

	for (i = 0; i < g->nst; i++)
		if (!strcmp(g->st[i].name, name))
			return (int)i;
	if (g->nst == MAX_STAGES) {
		g->over++;
		return -1;
	}
	snprintf(g->st[g->nst].name, sizeof(g->st[0].name), "%s", name);
	g->st[g->nst].warnings = g->st[g->nst].errors = -1;
	return (int)g->nst++;
}

static void *lg_grow(void *v, size_t *alloc, size_t n, size_t size)
{
	if (n < *alloc)
		return v;
	*alloc = *alloc ? *alloc * 2 : 64;
	return xrealloc(v, *alloc * size);
}

/* the node GUID of an object: its "N" + 16 hex digits part */
static void obj_guid(const char *obj, char out[19])
{
	const char *p = obj;

	out[0] = 0;
	for (;;) {
		if (p[0] == 'N' && strspn(p + 1, "0123456789abcdefABCDEF") == 16 &&
		    (p[17] == '/' || !p[17])) {
			snprintf(out, 19, "0x%.16s", p + 1);
			return;
		}
		p = strchr(p, '/');
		if (!p)
			return;
		p++;
	}
}

/* "Node with Devid:54002(0xd2f2),PSID:MT_0000000579 has FW version X
 * while the latest FW version for the same Devid/PSID on this fabric is Y" */
static void lg_fw_line(struct lg *g, const struct lg_msg *m)
{
	struct lg_fw f;
	long long devid;

	memset(&f, 0, sizeof(f));
	if (sscanf(m->text, "Node with Devid:%lld(%*[^)]),PSID:%31[^ ] has FW "
		   "version %31s while the latest FW version for the same "
		   "Devid/PSID on this fabric is %31s", &devid, f.psid, f.fw,
		   f.latest) != 4 || devid < 0 || devid > 0xffff)
		return;
	if (g->nf == MAX_FW) {
		g->over++;
		return;
	}
	f.devid = devid;
	memcpy(f.obj, m->obj, sizeof(f.obj));
	memcpy(f.guid, m->guid, sizeof(f.guid));
	g->f = lg_grow(g->f, &g->af, g->nf, sizeof(*g->f));
	g->f[g->nf++] = f;
}

/* "-W- <object> - <text>" or "-E- <text>" */
static void lg_msg(struct lg *g, const char *s, int error)
{
	struct lg_msg m;
	const char *dash = strstr(s, " - ");
	size_t k = dash ? (size_t)(dash - s) : 0;

	memset(&m, 0, sizeof(m));
	m.stage = g->cur;
	m.error = error;
	if (dash && k && k < sizeof(m.obj) && !memchr(s, ' ', k)) {
		memcpy(m.obj, s, k);
		obj_guid(m.obj, m.guid);
		s = dash + 3;
	}
	snprintf(m.text, sizeof(m.text), "%s", s);
	if (g->cur >= 0) {
		if (error)
			g->st[g->cur].listed_e++;
		else
			g->st[g->cur].listed_w++;
	}
	if (g->nm == MAX_MSGS) {
		g->over++;
		return;
	}
	g->m = lg_grow(g->m, &g->am, g->nm, sizeof(*g->m));
	g->m[g->nm++] = m;
	if (m.obj[0])
		lg_fw_line(g, &m);
}

static int all_digits(const char *s, size_t n)
{
	return n && n <= 9 && strspn(s, "0123456789") >= n;
}

/* a Summary row: "Speed / Width checks   0   15  [comment]": the name is
 * the words before the first two numbers */
static void lg_summary_row(struct lg *g, const char *s)
{
	const char *p = s, *q;
	size_t k, k2, n;
	char name[64];
	int i;

	for (p += strspn(p, " \t"); *p; p = q + strspn(q, " \t")) {
		k = strcspn(p, " \t");
		q = p + k + strspn(p + k, " \t");
		k2 = strcspn(q, " \t");
		if (p > s && all_digits(p, k) && all_digits(q, k2))
			break;
		q = p + k;
	}
	if (!*p)
		return;
	for (n = (size_t)(p - s); n && (s[n - 1] == ' ' || s[n - 1] == '\t'); n--)
		;
	if (!n || n >= sizeof(name))
		return;
	memcpy(name, s, n);
	name[n] = 0;
	if ((i = lg_stage(g, name)) < 0)
		return;
	g->st[i].warnings = strtoll(p, NULL, 10);
	g->st[i].errors = strtoll(q, NULL, 10);
}

/* "Master SM: Port=0 LID=180 GUID=0x... devid=54002 Priority:12 ..." */
static void lg_sm_line(struct lg *g, const char *s, const char *role)
{
	struct lg_sm *x;
	const char *p;
	long long v;

	if (!strstr(s, "LID=") || !strstr(s, "GUID=") || g->nsm == MAX_SM)
		return;
	x = &g->sm[g->nsm];
	memset(x, 0, sizeof(*x));
	x->role = role;
	x->lid = x->prio = -1;
	if (sscanf(strstr(s, "LID="), "LID=%lld", &v) == 1 && v >= 0 &&
	    v <= 0xffff)
		x->lid = v;
	if ((p = strstr(s, "Priority:")) && sscanf(p, "Priority:%lld", &v) == 1 &&
	    v >= 0 && v <= 15)
		x->prio = v;
	p = strstr(s, "GUID=") + 5;
	if (starts_with(p, "0x") && strspn(p + 2, "0123456789abcdefABCDEF") == 16)
		snprintf(x->guid, sizeof(x->guid), "%.18s", p);
	if ((p = strstr(s, "Node_Description=")))
		snprintf(x->desc, sizeof(x->desc), "%s", p + 17);
	g->nsm++;
}

static int all_dashes(const char *s)
{
	return strlen(s) >= 5 && strspn(s, "-") == strlen(s);
}

static void lg_line(struct lg *g, const char *s)
{
	int was_dashes = g->dashes;

	g->dashes = all_dashes(s);
	if (g->dashes || !*s)
		return;
	if (was_dashes && !starts_with(s, "-I- ") && !starts_with(s, "-W- ") &&
	    !starts_with(s, "-E- ")) {
		g->cur = lg_stage(g, s);
		g->summary = !strcmp(s, "Summary");
		return;
	}
	if (starts_with(s, "Running version:") && !g->version[0])
		snprintf(g->version, sizeof(g->version), "%s", s + 16 +
			 strspn(s + 16, " "));
	else if (starts_with(s, "Running command:") && !g->command[0])
		snprintf(g->command, sizeof(g->command), "%s", s + 16 +
			 strspn(s + 16, " "));
	else if (starts_with(s, "-W- "))
		lg_msg(g, s + 4, 0);
	else if (starts_with(s, "-E- "))
		lg_msg(g, s + 4, 1);
	else if (starts_with(s, "-I- All other warnings") ||
		 starts_with(s, "-I- All other errors")) {
		if (g->cur >= 0)
			g->st[g->cur].more = 1;
	} else if (g->summary && starts_with(s, "-I- "))
		lg_summary_row(g, s + 4);
	else if (starts_with(s, "Master SM:"))
		lg_sm_line(g, s, "master");
	else if (starts_with(s, "Standby SM"))
		lg_sm_line(g, s, "standby");
}

static void lg_json(const struct lg *g, struct buf *out)
{
	struct json j;
	size_t i;

	json_init(&j, out, 1);
	json_obj_open(&j, NULL);
	json_str(&j, "tool", "ibdiagnet");
	json_str(&j, "version", g->version[0] ? g->version : NULL);
	json_str(&j, "command", g->command[0] ? g->command : NULL);
	json_arr_open(&j, "stages");
	for (i = 0; i < g->nst; i++) {
		const struct lg_stage *s = &g->st[i];

		json_obj_open(&j, NULL);
		json_str(&j, "stage", s->name);
		if (s->warnings >= 0) {
			json_int(&j, "warnings", s->warnings);
			json_int(&j, "errors", s->errors);
		}
		json_int(&j, "listed_warnings", s->listed_w);
		json_int(&j, "listed_errors", s->listed_e);
		json_bool(&j, "more_in_db_csv", s->more);
		json_obj_close(&j);
	}
	json_arr_close(&j);
	json_arr_open(&j, "messages");
	for (i = 0; i < g->nm; i++) {
		const struct lg_msg *m = &g->m[i];

		json_obj_open(&j, NULL);
		json_str(&j, "stage", m->stage >= 0 ? g->st[m->stage].name : NULL);
		json_str(&j, "level", m->error ? "error" : "warning");
		json_str(&j, "object", m->obj[0] ? m->obj : NULL);
		json_str(&j, "guid", m->guid[0] ? m->guid : NULL);
		json_str(&j, "text", m->text);
		json_obj_close(&j);
	}
	json_arr_close(&j);
	json_arr_open(&j, "fw");
	for (i = 0; i < g->nf; i++) {
		const struct lg_fw *f = &g->f[i];

		json_obj_open(&j, NULL);
		json_str(&j, "object", f->obj);
		json_str(&j, "guid", f->guid[0] ? f->guid : NULL);
		json_int(&j, "device_id", f->devid);
		json_str(&j, "psid", f->psid);
		json_str(&j, "fw", f->fw);
		json_str(&j, "latest", f->latest);
		json_obj_close(&j);
	}
	json_arr_close(&j);
	json_arr_open(&j, "sm");
	for (i = 0; i < g->nsm; i++) {
		const struct lg_sm *x = &g->sm[i];

		json_obj_open(&j, NULL);
		json_str(&j, "role", x->role);
		if (x->lid >= 0)
			json_int(&j, "lid", x->lid);
		json_str(&j, "guid", x->guid[0] ? x->guid : NULL);
		if (x->prio >= 0)
			json_int(&j, "priority", x->prio);
		json_str(&j, "desc", x->desc[0] ? x->desc : NULL);
		json_obj_close(&j);
	}
	json_arr_close(&j);
	json_obj_close(&j);
	json_end(&j);
}

/* the master SM of the Fabric Summary as the subnet's SMInfo
 * (rdma-collect/mad/sminfo.json, as a lone sminfo's), unless a db_csv's
 * SM_INFO gave it already: ibdiagnet names it "Master SM" */
static int lg_sminfo(struct imp *im, const struct lg *g, const char *origin)
{
	const struct lg_sm *x = NULL;
	struct buf out = BUF_INIT;
	struct json j;
	size_t i;
	int rc;

	for (i = 0; i < g->nsm && !x; i++)
		if (!strcmp(g->sm[i].role, "master"))
			x = &g->sm[i];
	if (!x || imp_get(im, SMINFO_JSON, NULL))
		return 0;
	json_init(&j, &out, 0);
	json_obj_open(&j, NULL);
	json_str(&j, "status", "ok");
	json_obj_open(&j, "sminfo");
	if (x->lid > 0)
		json_int(&j, "lid", x->lid);
	if (x->guid[0])
		json_str(&j, "SmInfoGuid", x->guid);
	if (x->prio >= 0)
		json_int(&j, "SmPriority", x->prio);
	json_int(&j, "SmState", 3);
	json_obj_close(&j);
	json_obj_close(&j);
	json_end(&j);
	rc = imp_put(im, SMINFO_JSON, out.buf, out.len, origin, IMP_DERIVED);
	if (!rc)
		imp_source(im, SOURCE_MAD,
			   "partial", "ibdiagnet's Master SM line: "
			   "the subnet manager's SMInfo, no port of this node");
	buf_release(&out);
	return rc;
}

/* what the import says of the log: the stages that list fewer lines than
 * they counted (the rest are in ibdiagnet2.db_csv, not given) */
static void lg_notes(struct imp *im, const struct lg *g, const char *origin)
{
	size_t i;

	for (i = 0; i < g->nst; i++) {
		const struct lg_stage *s = &g->st[i];

		if (s->warnings > s->listed_w || s->errors > s->listed_e)
			imp_note(im, "%s: stage '%s' counted %" PRId64 " warning(s) "
				 "and %" PRId64 " error(s), the log lists %" PRId64
				 " and %" PRId64 " (the rest are in "
				 "ibdiagnet2.db_csv)", origin, s->name,
				 s->warnings, s->errors, s->listed_w, s->listed_e);
	}
	if (g->over)
		imp_dropped(im, "%s: %zu ibdiagnet line(s) over the reader's caps: "
			    "not kept", origin, g->over);
}

int ibdiag_log(struct imp *im, const char *text, size_t len,
	       const char *origin, const char *arg)
{
	struct lg g;
	struct buf out = BUF_INIT;
	const char *p = text, *end = text + len;
	char line[LINE_MAX_LOG];
	int rc;

	(void)arg;
	memset(&g, 0, sizeof(g));
	g.cur = -1;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p);

		if (n >= sizeof(line))
			n = sizeof(line) - 1;
		memcpy(line, p, n);
		line[n] = 0;
		while (n && (line[n - 1] == '\r' || line[n - 1] == ' ' ||
			     line[n - 1] == '\t'))
			line[--n] = 0;
		lg_line(&g, line + strspn(line, " \t"));
		p = nl ? nl + 1 : end;
	}
	/* no stage and no message: not ibdiagnet's log */
	if (!g.nst && !g.nm) {
		rc = 1;
		goto out;
	}
	lg_json(&g, &out);
	rc = imp_put(im, DIAG_JSON, out.buf, out.len, origin, IMP_DERIVED);
	/* the reader's source is the fabric's: a log alone is no scan, and
	 * the checks of the fabric's ports and counters stay skipped */
	if (!rc && !imp_get(im, FABRIC_JSON, NULL))
		imp_source(im, SOURCE_FABRIC,
			   "absent", "ibdiagnet's console log "
			   "only: its checks' summary, warnings and errors, no "
			   "nodes, ports or counters");
	if (!rc)
		rc = lg_sminfo(im, &g, origin);
	if (!rc) {
		imp_note(im, "%s: ibdiagnet's console log: %zu stage(s), %zu "
			 "warning/error line(s), %zu firmware check line(s); no "
			 "nodes, ports or counters (no fabric scan)", origin,
			 g.nst, g.nm, g.nf);
		lg_notes(im, &g, origin);
	}
out:
	buf_release(&out);
	free(g.m);
	free(g.f);
	return rc;
}
