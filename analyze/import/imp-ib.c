/* imp-ib: the InfiniBand tools' text turned into the bundle entries
 * rdma-collect writes for the same facts (schema/BUNDLE.md), so an import
 * of pasted outputs, a sos report or a sysinfo-snapshot reads like a
 * bundle.  Each parser knows one tool in the forms its source prints
 * (rdma-core libibverbs/examples/devinfo.c, infiniband-diags/ibstat.c,
 * sminfo.c, perfquery.c with libibmad/dump.c's dot padding, iblinkinfo.c;
 * mlnx-tools' show_gids; MLNX_OFED's ofed_scripts/ibdev2netdev), the
 * sysfs strings as the kernel's drivers/infiniband/core/sysfs.c writes
 * them, and the real pastes of tests/real/ib-*.
 *
 * File names, as imp_normalize() leaves them (spaces and underscores one
 * '_', .txt/.out/.log dropped; '*' is one or more characters, given to the
 * parser):
 *
 *   tool            pasted / sysinfo-snapshot    sos 4.x (sos_commands/infiniband/)
 *   ibv_devinfo     ibv_devinfo, ibv_devinfo_-v  ibv_devinfo, ibv_devinfo_-v
 *   ibstat          ibstat, ibstat_*             ibstat
 *   ibstatus        ibstatus                     ibstatus
 *   show_gids       show_gids, show_gids_*       -
 *   ibv_devices     ibv_devices                  -
 *   ibdev2netdev    ibdev2netdev, ibdev2netdev_-v
 *   ls /dev/inf..   ls_-la_dev_infiniband, ls_-l_dev_infiniband,
 *                   ls_-la_.dev.infiniband (sos's spelling of '/'),
 *                   ls-infiniband (rdma-analyze show's name)
 *   sminfo          sminfo                       sminfo_-C_<ca>_-P_<port>
 *   perfquery       perfquery, perfquery_-x      perfquery_-C_<ca>_-P_<port>
 *                   perfquery_-x_-C_<ca>_-P_<port>
 *   iblinkinfo      iblinkinfo                   iblinkinfo_-C_<ca>_-P_<port>
 *
 * What each gives:
 *  - ibv_devinfo [-v]: rdma-collect/verbs/<ibdev>.json and devices.json,
 *    the enums from the "(N)" the tool prints; board_id into sysfs; a
 *    sysfs rate without its "(4X NDR)" (from ibstat) is completed from
 *    active_width and active_speed.
 *    Each port's state, phys_state and link_layer also into sysfs, in
 *    the kernel's words (the port checks read sysfs).
 *  - ibstat, ibstatus: sys/class/infiniband/<dev>/ attributes and
 *    ports/<n>/ in the kernel's strings ("4: ACTIVE", "5: LinkUp",
 *    "0x4a1"); ibstat's "Rate: 400" carries no width: "400 Gb/sec".
 *    ibstat's "ibpanic: ... stat of IB device 'X' failed": X kept at
 *    rdma-collect/import/vanished/X; ibstatus' "device '*': sys files
 *    not found": an empty sys/class/infiniband.
 *  - show_gids: ports/<n>/gids/<i>, gid_attrs/types/<i>, gid_attrs/ndevs/<i>;
 *    a row a mail client wrapped (its IPv4, version or netdev alone on the
 *    next line) is joined; a GID with a netdev or of type v2 makes its
 *    port's link_layer Ethernet (RoCE) when no earlier file gave it.
 *  - ibv_devices: each device's node_guid; an empty list (libibverbs
 *    opened nothing) is read and writes nothing.
 *  - ibdev2netdev: rdma-collect/ibdev2netdev.json ("how": "ibdev2netdev"),
 *    the netdev's operstate and carrier from "(Up)"; -v also the PCI
 *    function (imp_ibdev_pci), fw_ver, hca_type and the port state.
 *  - ls -la /dev/infiniband: rdma-collect/devnodes.json; a date without a
 *    year ("Nov 29 21:04") gives no mtime; plain ls gives the names only.
 *  - sminfo, perfquery, iblinkinfo: rdma-collect/mad/<ibdev>.<port>.json,
 *    merged with what an earlier one wrote; the port comes from the sos
 *    name, else from the LID perfquery prints, else (sminfo) the first
 *    Active IB port the import knows.  What is no local port's is the
 *    fabric's, kept as such: a perfquery block of any other LID goes to
 *    rdma-collect/fabric/fabric.json as that LID's port counters
 *    (imp-fabric-text.c merges it with what iblinkinfo tells of the
 *    node), a sminfo with no local port known to mad/sminfo.json.
 *    iblinkinfo also gives
 *    rdma-collect/fabric/fabric.json: nodes in the printed order, a CA's
 *    node GUID from sysfs when the port is local, else its first port's
 *    GUID (iblinkinfo prints none); supported widths and speeds are only
 *    what the line proves: the active one and a "Could be" one.  Port
 *    lines under no header (`iblinkinfo | grep Up`) are what they prove:
 *    a CA port by its GUID, a switch by its LID alone.
 *
 * Text that is not the tool's returns 1 and adds nothing; a truncated
 * output keeps what was complete; every number is bounded by its field.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "buf.h"
#include "imp.h"
#include "json.h"
#include "jsonp.h"
#include "log.h"
#include "util.h"

#define LINE_MAX_IB 1024	/* no line of these tools is longer */
#define MAX_DEVS 256		/* RDMA devices in one output */
#define MAX_GID_INDEX 65535
#define MAX_NODES 65536		/* iblinkinfo: a subnet's LIDs */
#define SYS_IB "sys/class/infiniband"
#define MAD_DIR "rdma-collect/mad"
#define VANISHED "rdma-collect/import/vanished"

/* --- text helpers --- */

struct lines {
	const char *p, *end;
};

/* the next line without its newline (and a \r), cut at n - 1 bytes */
static int line_next(struct lines *r, char *out, size_t n)
{
	const char *e;
	size_t l;

	if (r->p >= r->end)
		return 0;
	e = memchr(r->p, '\n', (size_t)(r->end - r->p));
	if (!e)
		e = r->end;
	l = (size_t)(e - r->p);
	if (l && r->p[l - 1] == '\r')
		l--;
	if (l >= n)
		l = n - 1;
	memcpy(out, r->p, l);
	out[l] = 0;
	r->p = e < r->end ? e + 1 : e;
	return 1;
}

static char *trim(char *s)
{
	size_t l;

	while (*s == ' ' || *s == '\t')
		s++;
	l = strlen(s);
	while (l && (s[l - 1] == ' ' || s[l - 1] == '\t'))
		s[--l] = 0;
	return s;
}

/* "key:" and blanks: what follows, or NULL */
static const char *field(const char *s, const char *key)
{
	size_t k = strlen(key);

	if (strncmp(s, key, k) || s[k] != ':')
		return NULL;
	s += k + 1;
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

static int num(const char *s, int base, unsigned long long max,
	       unsigned long long *v)
{
	return *s == '-' || *s == '+' || isspace((unsigned char)*s) ? -1 :
	       parse_ull(s, base, max, v);
}

/* "PORT_ACTIVE (4)", "4X (2)": the number in the closing parentheses */
static int paren_num(const char *s, unsigned long long max,
		     unsigned long long *v)
{
	const char *o = strrchr(s, '(');
	char t[32];
	size_t l;

	if (!o)
		return -1;
	l = strlen(o + 1);
	if (!l || o[l] != ')' || l > sizeof(t))
		return -1;
	memcpy(t, o + 1, l - 1);
	t[l - 1] = 0;
	return num(t, 10, max, v);
}

/* device and netdev names: what sysfs and a bundle path can hold */
static int good_name(const char *s)
{
	size_t i;

	if (!*s || !strcmp(s, ".") || !strcmp(s, ".."))
		return 0;
	for (i = 0; s[i]; i++)
		if (i >= 63 || !(isalnum((unsigned char)s[i]) ||
				 strchr("_.-:@", s[i])))
			return 0;
	return 1;
}

/* "0x9c63c003005548ae" */
static int hex_guid(const char *s, uint64_t *g)
{
	unsigned long long v;

	if (strncmp(s, "0x", 2) || strlen(s) > 18 || num(s, 16, UINT64_MAX, &v))
		return -1;
	*g = v;
	return 0;
}

/* "9c63:c003:0055:48ae", as sysfs and ibv_devinfo print it */
static int colon_guid(const char *s, uint64_t *g)
{
	unsigned v[4];
	int i, n = 0;

	if (strlen(s) != 19 || sscanf(s, "%4x:%4x:%4x:%4x%n", &v[0], &v[1],
				      &v[2], &v[3], &n) != 4 || n != 19)
		return -1;
	for (*g = 0, i = 0; i < 4; i++) {
		if (!isxdigit((unsigned char)s[i * 5]))
			return -1;
		*g = *g << 16 | v[i];
	}
	return 0;
}

static void guid_colon(uint64_t g, char out[20])
{
	snprintf(out, 20, "%04x:%04x:%04x:%04x", (unsigned)(g >> 48) & 0xffff,
		 (unsigned)(g >> 32) & 0xffff, (unsigned)(g >> 16) & 0xffff,
		 (unsigned)g & 0xffff);
}

/* a GID in the kernel's form from any IPv6 spelling */
static int gid_full(const char *s, char out[40])
{
	unsigned char r[16];
	int i;

	if (inet_pton(AF_INET6, s, r) != 1)
		return -1;
	for (i = 0; i < 16; i += 2)
		snprintf(out + i / 2 * 5, 6, "%02x%02x%s", r[i], r[i + 1],
			 i < 14 ? ":" : "");
	return 0;
}

static int put_str(struct imp *im, const char *origin, const char *path,
		   const char *val)
{
	return imp_putf(im, origin, path, "%s\n", val);
}

/* --- JSON documents merged with what an earlier file wrote --- */

/* objects member by member (the newer value wins), anything else whole */
static void merge(struct json *j, const char *key, const struct jv *old,
		  const struct jv *new)
{
	size_t i;

	if (!old || old->t != J_OBJ || new->t != J_OBJ) {
		json_jv(j, key, new);
		return;
	}
	json_obj_open(j, key);
	for (i = 0; i < old->n; i++) {
		const struct jv *n = jget(new, old->k[i]);

		if (n)
			merge(j, old->k[i], &old->v[i], n);
		else
			json_jv(j, old->k[i], &old->v[i]);
	}
	for (i = 0; i < new->n; i++)
		if (!jget(old, new->k[i]))
			json_jv(j, new->k[i], &new->v[i]);
	json_obj_close(j);
}

/* a mad document: frag merged into the stored one; "status" follows
 * "errors".  ibdev NULL: the SMInfo of a port the input does not name
 * (a lone sminfo), rdma-collect/mad/sminfo.json, without ibdev and port */
static int mad_put(struct imp *im, const char *origin, const char *ibdev,
		   unsigned port, const struct buf *frag)
{
	char path[160], err[128];
	const char *prev;
	struct jv *old = NULL, *new;
	struct buf out = BUF_INIT;
	struct json j;
	size_t plen, i;
	int rc;

	if (ibdev)
		snprintf(path, sizeof(path), MAD_DIR "/%s.%u.json", ibdev, port);
	else
		snprintf(path, sizeof(path), MAD_DIR "/sminfo.json");
	new = jparse(frag->buf, frag->len, err, sizeof(err));
	if (!new)
		return error("imp-ib: %s", err);	/* our own text: a bug */
	prev = imp_get(im, path, &plen);
	if (prev)
		old = jparse(prev, plen, NULL, 0);
	json_init(&j, &out, 0);
	json_obj_open(&j, NULL);
	if (ibdev) {
		json_str(&j, "ibdev", ibdev);
		json_int(&j, "port", port);
	}
	json_str(&j, "status", jlen(jget(new, "errors")) ||
		 jlen(jget(old, "errors")) ? "partial" : "ok");
	for (i = 0; old && old->t == J_OBJ && i < old->n; i++) {
		const char *k = old->k[i];

		if (strcmp(k, "ibdev") && strcmp(k, "port") && strcmp(k, "status"))
			merge(&j, k, &old->v[i], jget(new, k) ? jget(new, k) :
			      &old->v[i]);
	}
	for (i = 0; i < new->n; i++)
		if (!jget(old, new->k[i]))
			json_jv(&j, new->k[i], &new->v[i]);
	json_obj_close(&j);
	json_end(&j);
	rc = imp_put(im, path, out.buf, out.len, origin, IMP_DERIVED);
	buf_release(&out);
	jfree(old);
	jfree(new);
	return rc;
}

/* --- which local port a MAD tool's output belongs to --- */

/* "mlx5_0_-P_1" (what sos's "-C mlx5_0 -P 1" leaves after the pattern) */
static int arg_port(const char *arg, char *dev, size_t n, unsigned *port)
{
	const char *p = arg ? strstr(arg, "_-P_") : NULL;
	unsigned long long v;

	if (!p || (size_t)(p - arg) >= n || num(p + 4, 10, 255, &v) || !v)
		return -1;
	memcpy(dev, arg, (size_t)(p - arg));
	dev[p - arg] = 0;
	*port = (unsigned)v;
	return good_name(dev) ? 0 : -1;
}

static const char *sys_line(const struct imp *im, const char *path, char *out,
			    size_t n)
{
	const char *d = imp_get(im, path, NULL);
	size_t l;

	if (!d)
		return NULL;
	l = strcspn(d, "\n");
	snprintf(out, n, "%.*s", (int)(l < n ? l : n - 1), d);
	return out;
}

/* the local IB port with that LID (0: the first Active one, as libibumad
 * picks) among the ports the import knows */
static int known_port(const struct imp *im, unsigned lid, char *dev, size_t n,
		      unsigned *port)
{
	const char **devs, **ports;
	char p[256], v[64];
	size_t nd = imp_list(im, SYS_IB, &devs), np, i, k;
	int found = 0;

	for (i = 0; i < nd && !found; i++) {
		snprintf(p, sizeof(p), SYS_IB "/%s/ports", devs[i]);
		np = imp_list(im, p, &ports);
		for (k = 0; k < np && !found; k++) {
			snprintf(p, sizeof(p), SYS_IB "/%s/ports/%s/link_layer",
				 devs[i], ports[k]);
			if (sys_line(im, p, v, sizeof(v)) &&
			    strcmp(v, "InfiniBand"))
				continue;
			snprintf(p, sizeof(p), SYS_IB "/%s/ports/%s/%s", devs[i],
				 ports[k], lid ? "lid" : "state");
			if (!sys_line(im, p, v, sizeof(v)) ||
			    (lid ? strtoul(v, NULL, 0) != lid : strcmp(v, "4: ACTIVE")))
				continue;
			snprintf(dev, n, "%s", devs[i]);
			*port = (unsigned)strtoul(ports[k], NULL, 10);
			found = *port > 0 && *port < 256;
		}
		free(ports);
	}
	free(devs);
	return found ? 0 : -1;
}

static int li_stored(struct imp *im, const char *origin);

/* --- ibstat --- */

static const char *const ibstat_state[] = {
	"???", "Down", "Initializing", "Armed", "Active"
};
static const char *const kern_state[] = {
	"NOP", "DOWN", "INIT", "ARMED", "ACTIVE", "ACTIVE_DEFER"
};
static const char *const ibstat_phys[] = {
	"No state change", "Sleep", "Polling", "Disabled",
	"PortConfigurationTraining", "LinkUp", "LinkErrorRecovery", "PhyTest"
};
static const char *const kern_phys[] = {
	"<unknown>", "Sleep", "Polling", "Disabled", "PortConfigurationTraining",
	"LinkUp", "LinkErrorRecovery", "Phy Test"
};

static int lookup(const char *const *t, int n, const char *s)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(t[i], s))
			return i;
	return -1;
}

/* "CA 'mlx5_0'" (or "CA: 'mlx5_0'" for one port alone) */
static int ca_header(const char *s, char *dev, size_t n, int *type)
{
	static const char *const types[] = { "CA", "Switch", "Router", "iWARP RNIC" };
	const char *q = strchr(s, '\''), *e;
	size_t tl;
	int i;

	if (!q || !(e = strchr(q + 1, '\'')) || e[1] || (size_t)(e - q - 1) >= n)
		return -1;
	tl = (size_t)(q - s);
	while (tl && (s[tl - 1] == ' ' || s[tl - 1] == ':'))
		tl--;
	for (i = 0; i < 4; i++)
		if (strlen(types[i]) == tl && !strncmp(s, types[i], tl))
			break;
	if (i == 4)
		return -1;
	memcpy(dev, q + 1, (size_t)(e - q - 1));
	dev[e - q - 1] = 0;
	*type = i + 1;
	return good_name(dev) ? 0 : -1;
}

static int ibstat_port_field(struct imp *im, const char *origin,
			     const char *pdir, const char *s, char guid[20])
{
	char path[256], buf[64];
	unsigned long long v;
	uint64_t g;
	const char *x;
	int i;

#define P(f) (snprintf(path, sizeof(path), "%s/%s", pdir, f), path)
	if ((x = field(s, "State"))) {
		if ((i = lookup(ibstat_state, 5, x)) < 1)
			return 1;
		snprintf(buf, sizeof(buf), "%d: %s", i, kern_state[i]);
		return put_str(im, origin, P("state"), buf);
	}
	if ((x = field(s, "Physical state"))) {
		if ((i = lookup(ibstat_phys, 8, x)) < 0)
			return 1;
		snprintf(buf, sizeof(buf), "%d: %s", i, kern_phys[i]);
		return put_str(im, origin, P("phys_state"), buf);
	}
	if ((x = field(s, "Rate"))) {
		char *end;
		unsigned long r = strtoul(x, &end, 10);

		if (end == x || r > 10000)
			return 1;
		if (!strcmp(end, ".5") || !strcmp(end, ".5 "))
			return imp_putf(im, origin, P("rate"), "%lu.5 Gb/sec\n", r);
		if (!strcmp(end, " (FDR10)") && r % 10 == 0 && r)
			/* FDR10 runs 10 Gb/s a lane: the width follows */
			return imp_putf(im, origin, P("rate"),
					"%lu Gb/sec (%luX FDR10)\n", r, r / 10);
		if (*end)
			return 1;
		return imp_putf(im, origin, P("rate"), "%lu Gb/sec\n", r);
	}
	if ((x = field(s, "Base lid")))
		return num(x, 10, 0xffff, &v) ? 1 :
		       imp_putf(im, origin, P("lid"), "0x%llx\n", v);
	if ((x = field(s, "SM lid")))
		return num(x, 10, 0xffff, &v) ? 1 :
		       imp_putf(im, origin, P("sm_lid"), "0x%llx\n", v);
	if ((x = field(s, "LMC")))
		return num(x, 10, 7, &v) ? 1 :
		       imp_putf(im, origin, P("lid_mask_count"), "%llu\n", v);
	if ((x = field(s, "Capability mask")))
		return num(x, 16, UINT32_MAX, &v) ? 1 :
		       imp_putf(im, origin, P("cap_mask"), "0x%08llx\n", v);
	if ((x = field(s, "Port GUID"))) {
		char c[20];

		if (hex_guid(x, &g))
			return 1;
		/* an InfiniBand port's GID 0 is its subnet prefix and port
		 * GUID (IBA 4.1.1): kept for the Link layer line to say so;
		 * a RoCE port's GID 0 is made of its MAC, not of this */
		guid_colon(g, c);
		snprintf(guid, 20, "%s", g ? c : "");
		return 0;
	}
	if ((x = field(s, "Link layer"))) {
		/* ibsim's umad2sim says "IB" */
		if (!strcmp(x, "IB"))
			x = "InfiniBand";
		if (strcmp(x, "InfiniBand") && strcmp(x, "Ethernet"))
			return 1;
		if (!strcmp(x, "InfiniBand") && guid[0]) {
			snprintf(buf, sizeof(buf), "fe80:0000:0000:0000:%s", guid);
			if (put_str(im, origin, P("gids/0"), buf) < 0)
				return -1;
		}
		guid[0] = 0;
		return put_str(im, origin, P("link_layer"), x);
	}
#undef P
	return 1;	/* Effective speed, and what a newer ibstat adds */
}

/* a port block ended without a Link layer line: an ibstat older than
 * RoCE (rdma-core added the line with it), so InfiniBand */
static int ibstat_port_end(struct imp *im, const char *origin,
			   const char *pdir, char guid[20])
{
	char path[256], buf[64];

	if (!pdir[0] || !guid[0])
		return 0;
	snprintf(path, sizeof(path), "%s/gids/0", pdir);
	snprintf(buf, sizeof(buf), "fe80:0000:0000:0000:%s", guid);
	guid[0] = 0;
	return put_str(im, origin, path, buf);
}

static int ibstat_ca_field(struct imp *im, const char *origin, const char *dir,
			   const char *s)
{
	char path[256], c[20];
	const char *x;
	uint64_t g;

#define P(f) (snprintf(path, sizeof(path), "%s/%s", dir, f), path)
	if ((x = field(s, "CA type")) || (x = field(s, "Switch type")) ||
	    (x = field(s, "Router type")) || (x = field(s, "iWARP RNIC type")))
		return *x ? put_str(im, origin, P("hca_type"), x) : 0;
	if ((x = field(s, "Firmware version")))
		return *x ? put_str(im, origin, P("fw_ver"), x) : 0;
	if ((x = field(s, "Hardware version")))
		return *x ? put_str(im, origin, P("hw_rev"), x) : 0;
	if ((x = field(s, "Node GUID")) || (x = field(s, "System image GUID"))) {
		if (hex_guid(x, &g))
			return 1;
		guid_colon(g, c);
		return put_str(im, origin, P(s[0] == 'N' ? "node_guid" :
					     "sys_image_guid"), c);
	}
	if (field(s, "Number of ports"))
		return 0;	/* the ports/ folder says it */
#undef P
	return 1;
}

/* "ibpanic: [1323906] main: stat of IB device 'mlx5_8' failed: No such
 * file or directory": ibstat listed the device (umad_get_cas_names, from
 * sys/class/infiniband) and could not read it a moment later; it stops
 * there.  The device that vanished is kept at VANISHED/<dev> with the
 * line (schema/IMPORT.md; DEVICE_VANISHED reads it).  0 taken, 1 not
 * such a line, -1 failure. */
static int ibstat_panic(struct imp *im, const char *origin, const char *s)
{
	static const char stat[] = "stat of IB device '";
	char dev[64], path[128];
	const char *q, *e;

	if (strncmp(s, "ibpanic:", 8) || !(q = strstr(s, stat)))
		return 1;
	q += sizeof(stat) - 1;
	if (!(e = strchr(q, '\'')) || (size_t)(e - q) >= sizeof(dev) ||
	    strncmp(e, "' failed", 8))
		return 1;
	memcpy(dev, q, (size_t)(e - q));
	dev[e - q] = 0;
	if (!good_name(dev))
		return 1;
	snprintf(path, sizeof(path), VANISHED "/%s", dev);
	return put_str(im, origin, path, s) < 0 ? -1 : 0;
}

int ib_ibstat(struct imp *im, const char *text, size_t len,
			const char *origin, const char *arg)
{
	static const char *const node_type[] = { "", "CA", "switch", "router", "RNIC" };
	struct lines r = { text, text + len };
	char line[LINE_MAX_IB], dev[64] = "", dir[128], pdir[160] = "";
	char guid[20] = "";
	unsigned long long pn;
	int type, cas = 0, gone = 0, rc;
	char *s, *x;

	(void)arg;
	while (line_next(&r, line, sizeof(line))) {
		s = trim(line);
		if (!*s)
			continue;
		if ((rc = ibstat_panic(im, origin, s)) <= 0) {
			if (rc < 0)
				return -1;
			gone++;
			continue;
		}
		if (!ca_header(s, dev, sizeof(dev), &type)) {
			if (ibstat_port_end(im, origin, pdir, guid) < 0)
				return -1;
			if (++cas > MAX_DEVS)
				break;
			snprintf(dir, sizeof(dir), SYS_IB "/%s", dev);
			snprintf(pdir, sizeof(pdir), "%s/node_type", dir);
			if (imp_putf(im, origin, pdir, "%d: %s\n", type,
				     node_type[type]) < 0)
				return -1;
			pdir[0] = 0;
			continue;
		}
		if (!cas)
			continue;	/* "$ ibstat", a shell prompt */
		if (!strncmp(s, "Port ", 5) && (x = strchr(s, ':')) && !x[1]) {
			*x = 0;
			if (num(s + 5, 10, 255, &pn) || !pn)
				return cas ? 0 : 1;
			if (ibstat_port_end(im, origin, pdir, guid) < 0)
				return -1;
			snprintf(pdir, sizeof(pdir), "%s/ports/%llu", dir, pn);
			continue;
		}
		rc = pdir[0] ? ibstat_port_field(im, origin, pdir, s, guid) :
			       ibstat_ca_field(im, origin, dir, s);
		if (rc < 0)
			return -1;
		if (rc > 0)
			imp_note(im, "%s: line not understood: %.80s", origin, s);
	}
	if (ibstat_port_end(im, origin, pdir, guid) < 0)
		return -1;
	/* an iblinkinfo read before (its name sorts first) finds its local
	 * CA port now */
	return !cas ? (gone ? 0 : 1) : li_stored(im, origin);
}

/* ibstatus: "Infiniband device 'mlx5_0' port 1 status:" and sysfs as is */
int ib_ibstatus(struct imp *im, const char *text, size_t len,
			  const char *origin, const char *arg)
{
	static const struct {
		const char *label, *file;
	} f[] = {
		{ "default gid", "gids/0" }, { "base lid", "lid" },
		{ "sm lid", "sm_lid" }, { "state", "state" },
		{ "phys state", "phys_state" }, { "rate", "rate" },
		{ "link_layer", "link_layer" },
	};
	struct lines r = { text, text + len };
	char line[LINE_MAX_IB], dev[64], pdir[192] = "", path[256];
	unsigned long long pn;
	int ports = 0, empty = 0;
	size_t i;
	char *s;

	(void)arg;
	while (line_next(&r, line, sizeof(line))) {
		s = trim(line);
		/* the script's glob matched no device: sys/class/infiniband
		 * is empty ("device 'mlx5_0': ..." names one not there) */
		if (!strncmp(s, "Fatal error:", 12) &&
		    strstr(s, "device '*': sys files not found")) {
			if (imp_dir(im, SYS_IB, origin) < 0)
				return -1;
			empty = 1;
			continue;
		}
		if (sscanf(s, "Infiniband device '%63[^']' port %llu status:", dev,
			   &pn) == 2) {
			if (!good_name(dev) || !pn || pn > 255 || ++ports > 4096)
				return ports ? 0 : 1;
			snprintf(pdir, sizeof(pdir), SYS_IB "/%s/ports/%llu", dev, pn);
			continue;
		}
		for (i = 0; pdir[0] && i < ARRAY_SIZE(f); i++) {
			const char *x = field(s, f[i].label);

			if (!x || !*x)
				continue;
			/* "default gid: unknown" (no gids/0 to read) is none */
			if (!strcmp(f[i].file, "gids/0") && (strlen(x) != 39 ||
							     x[4] != ':'))
				break;
			snprintf(path, sizeof(path), "%s/%s", pdir, f[i].file);
			if (put_str(im, origin, path, x) < 0)
				return -1;
			break;
		}
	}
	return ports || empty ? 0 : 1;
}

/* --- ibv_devinfo --- */

/* a flag list printed one name a line under its hex or label */
struct flags {
	const char *key;	/* device_ex member, or NULL: names ignored */
	const char *const *names;
	int n;
	int shift;		/* bit of names[0] */
	uint64_t v;
	int open;
};

static const char *const odp_general[] = { "ODP_SUPPORT", "ODP_SUPPORT_IMPLICIT" };
static const char *const odp_transport[] = {
	"SUPPORT_SEND", "SUPPORT_RECV", "SUPPORT_WRITE", "SUPPORT_READ",
	"SUPPORT_ATOMIC", "SUPPORT_SRQ",
};
static const char *const raw_caps[] = {
	"C-VLAN stripping offload", "Scatter FCS offload", "IP csum offload",
	"Delay drop",
};
static const char *const qpts[] = {
	"", "", "", "", "SUPPORT_UD", "", "", "", "SUPPORT_RAW_PACKET"
};
static const char *const tm_caps[] = { "IBV_TM_CAP_RC" };

/* device members printed "%d" (the -v block), "0x%llx" or "%s (%d)" */
static const char *const dev_dec[] = {
	"vendor_part_id", "phys_port_cnt", "max_qp", "max_qp_wr", "max_sge",
	"max_sge_rd", "max_cq", "max_cqe", "max_mr", "max_pd", "max_qp_rd_atom",
	"max_ee_rd_atom", "max_res_rd_atom", "max_qp_init_rd_atom",
	"max_ee_init_rd_atom", "max_ee", "max_rdd", "max_mw", "max_raw_ipv6_qp",
	"max_raw_ethy_qp", "max_mcast_grp", "max_mcast_qp_attach",
	"max_total_mcast_qp_attach", "max_ah", "max_fmr", "max_map_per_fmr",
	"max_srq", "max_srq_wr", "max_srq_sge", "max_pkeys", "local_ca_ack_delay",
};
static const char *const dev_hex[] = {
	"vendor_id", "hw_ver", "max_mr_size", "page_size_cap", "device_cap_flags",
};
static const char *const port_dec[] = {
	"sm_lid", "sm_sl", "pkey_tbl_len", "gid_tbl_len", "subnet_timeout",
	"init_type_reply",
};
static const char *const port_hex[] = {
	"max_msg_sz", "port_cap_flags", "port_cap_flags2", "bad_pkey_cntr",
	"qkey_viol_cntr",
};
static const char *const port_paren[] = {
	"state", "max_mtu", "active_mtu", "max_vl_num", "active_width",
	"active_speed", "phys_state",
};

struct devinfo {
	struct imp *im;
	const char *origin;
	char dev[64];
	struct buf out;
	struct json j;
	int part;		/* 0 none, 1 device, 2 device_ex, 3 ports */
	int in_port, in_gids;
	int link_layer;		/* of the port being read: 1 IB, 2 Ethernet */
	int sysfs;		/* a port's sysfs files written */
	unsigned port;
	long width, speed;	/* of the port, for the sysfs rate */
	struct flags fl;
	const char *qpt_key;	/* "supported_qp:" of tso, rss or pacing */
	uint64_t ex[32];	/* device_ex flag accumulators */
};

static const char *const ex_flag_keys[] = {
	"odp_general_caps", "odp_rc_caps", "odp_uc_caps", "odp_ud_caps",
	"xrc_odp_caps", "raw_packet_caps", "tso_supported_qpts",
	"rss_supported_qpts", "pp_supported_qpts", "tm_flags",
};

static int in_list(const char *const *t, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(t[i], s))
			return 1;
	return 0;
}

static void flags_close(struct devinfo *d)
{
	size_t i;

	if (!d->fl.open)
		return;
	d->fl.open = 0;
	if (!d->fl.key)
		return;
	for (i = 0; i < ARRAY_SIZE(ex_flag_keys); i++)
		if (!strcmp(ex_flag_keys[i], d->fl.key))
			d->ex[i] |= d->fl.v;
}

static void flags_open(struct devinfo *d, const char *key,
		       const char *const *names, int n, int shift)
{
	flags_close(d);
	d->fl.key = key;
	d->fl.names = names;
	d->fl.n = n;
	d->fl.shift = shift;
	d->fl.v = 0;
	d->fl.open = 1;
}

/* a name line of the open flag list: 1 taken, 0 not one */
static int flags_line(struct devinfo *d, const char *s)
{
	unsigned long long v;
	const char *x;
	int i;

	if (!d->fl.open)
		return 0;
	if ((x = field(s, "Unknown flags"))) {
		if (!num(x, 16, UINT64_MAX, &v))
			d->fl.v |= v;
		return 1;
	}
	if (!strcmp(s, "NO SUPPORT"))
		return 1;
	for (i = 0; i < d->fl.n; i++)
		if (d->fl.names[i][0] && !strcmp(d->fl.names[i], s)) {
			d->fl.v |= 1ULL << (i + d->fl.shift);
			return 1;
		}
	/* device_cap_flags' own names (and MLNX_OFED 4's device_cap_exp
	 * flags): upper case words, the hex said it all */
	if (!d->fl.key) {
		for (x = s; *x; x++)
			if (!isupper((unsigned char)*x) && !isdigit((unsigned char)*x) &&
			    !strchr("_ ", *x))
				return 0;
		return 1;
	}
	return 0;
}

static void part(struct devinfo *d, int p)
{
	flags_close(d);
	while (d->part < p) {
		if (d->part == 1 || d->part == 2)
			json_obj_close(&d->j);
		d->part++;
		if (d->part == 1)
			json_obj_open(&d->j, "device");
		else if (d->part == 2)
			json_obj_open(&d->j, "device_ex");
		else
			json_arr_open(&d->j, "ports");
	}
}

static void ex_flush(struct devinfo *d)
{
	size_t i;

	flags_close(d);
	for (i = 0; i < ARRAY_SIZE(ex_flag_keys); i++)
		if (d->ex[i])
			json_uint(&d->j, ex_flag_keys[i], d->ex[i]);
	memset(d->ex, 0, sizeof(d->ex));
}

/* the kernel's rate string from the verbs width and speed enums */
static int rate_str(long width, long speed, char *out, size_t n)
{
	static const struct {
		long speed;
		int deci;
		const char *name;
	} sp[] = {
		{ 1, 25, " SDR" }, { 2, 50, " DDR" }, { 4, 100, " QDR" },
		{ 8, 100, " FDR10" }, { 16, 140, " FDR" }, { 32, 250, " EDR" },
		{ 64, 500, " HDR" }, { 128, 1000, " NDR" }, { 256, 2000, " XDR" },
	};
	static const long w[][2] = { { 1, 1 }, { 2, 4 }, { 4, 8 }, { 8, 12 },
				     { 16, 2 } };
	size_t i, k;
	int rate;

	for (i = 0; i < ARRAY_SIZE(sp) && sp[i].speed != speed; i++)
		;
	for (k = 0; k < ARRAY_SIZE(w) && w[k][0] != width; k++)
		;
	if (i == ARRAY_SIZE(sp) || k == ARRAY_SIZE(w))
		return -1;
	rate = sp[i].deci * (int)w[k][1];
	snprintf(out, n, "%d%s Gb/sec (%ldX%s)", rate / 10, rate % 10 ? ".5" : "",
		 w[k][1], sp[i].name);
	return 0;
}

static int port_end(struct devinfo *d)
{
	char path[192], rate[64];
	const char *old;

	if (!d->in_port)
		return 0;
	flags_close(d);
	if (d->in_gids)
		json_arr_close(&d->j);
	json_obj_close(&d->j);
	d->in_port = d->in_gids = 0;
	/* ibstat's "Rate: 400" left the width out: verbs knows it */
	snprintf(path, sizeof(path), SYS_IB "/%s/ports/%u/rate", d->dev, d->port);
	old = imp_get(d->im, path, NULL);
	if (old && !strchr(old, '(') && d->width > 0 && d->speed > 0 &&
	    !rate_str(d->width, d->speed, rate, sizeof(rate)) &&
	    strtoul(old, NULL, 10) == strtoul(rate, NULL, 10))
		return put_str(d->im, d->origin, path, rate);
	return 0;
}

static int dev_end(struct devinfo *d)
{
	char path[160];
	int rc;

	if (!d->dev[0])
		return 0;
	if (port_end(d) < 0)
		return -1;
	if (d->part == 2)
		ex_flush(d);
	part(d, 3);
	json_arr_close(&d->j);
	json_obj_close(&d->j);
	json_end(&d->j);
	snprintf(path, sizeof(path), "rdma-collect/verbs/%s.json", d->dev);
	rc = imp_put(d->im, path, d->out.buf, d->out.len, d->origin, IMP_DERIVED);
	buf_release(&d->out);
	d->dev[0] = 0;
	return rc;
}

static int gid_line(struct devinfo *d, const char *s)
{
	unsigned long long idx;
	char addr[64], full[40], *c;
	const char *type = NULL;

	if (sscanf(s, "GID[%llu]:", &idx) != 1 || idx > MAX_GID_INDEX)
		return 1;
	s = strchr(s, ':') + 1;
	while (*s == ' ' || *s == '\t')
		s++;
	snprintf(addr, sizeof(addr), "%s", s);
	if ((c = strchr(addr, ','))) {
		*c = 0;
		type = trim(c + 1);
		if (strcmp(type, "RoCE v1") && strcmp(type, "RoCE v2"))
			return 1;
	} else if (d->link_layer == 1) {
		type = "IB";
	}
	if (gid_full(trim(addr), full))
		return 1;
	if (!d->in_gids) {
		json_arr_open(&d->j, "gids");
		d->in_gids = 1;
	}
	json_obj_open(&d->j, NULL);
	json_uint(&d->j, "index", idx);
	json_str(&d->j, "gid", full);
	/* rdma-core before 2020 printed no type: it stays unknown */
	if (type)
		json_str(&d->j, "type", type);
	json_obj_close(&d->j);
	return 0;
}

/* the port's state in sysfs as the kernel words it, from the verbs enum
 * ibv_devinfo prints ("PORT_DOWN (1)" -> "1: DOWN", "LINK_UP (5)" -> "5:
 * LinkUp"): the port checks read sysfs */
static int port_sysfs(struct devinfo *d, const char *file, const char *val)
{
	char path[192];

	snprintf(path, sizeof(path), SYS_IB "/%s/ports/%u/%s", d->dev, d->port,
		 file);
	d->sysfs = 1;
	return put_str(d->im, d->origin, path, val);
}

static int port_line(struct devinfo *d, const char *k, const char *x)
{
	unsigned long long v;
	char buf[64];

	if (d->in_gids)
		return 1;
	if (in_list(port_paren, ARRAY_SIZE(port_paren), k)) {
		if (paren_num(x, UINT32_MAX, &v))
			return 1;
		if (!strcmp(k, "state") && v < ARRAY_SIZE(kern_state)) {
			snprintf(buf, sizeof(buf), "%llu: %s", v, kern_state[v]);
			if (port_sysfs(d, "state", buf) < 0)
				return -1;
		}
		if (!strcmp(k, "phys_state") && v < ARRAY_SIZE(kern_phys)) {
			snprintf(buf, sizeof(buf), "%llu: %s", v, kern_phys[v]);
			if (port_sysfs(d, "phys_state", buf) < 0)
				return -1;
		}
		if (!strcmp(k, "active_width"))
			d->width = (long)v;
		if (!strcmp(k, "active_speed")) {
			d->speed = (long)v;
			json_uint(&d->j, v > 255 ? "active_speed_ex" : k, v);
			return 0;
		}
		json_uint(&d->j, k, v);
		return 0;
	}
	if (in_list(port_dec, ARRAY_SIZE(port_dec), k) || !strcmp(k, "port_lid")) {
		if (num(x, 10, 0xffff, &v))
			return 1;
		json_uint(&d->j, strcmp(k, "port_lid") ? k : "lid", v);
		return 0;
	}
	if (in_list(port_hex, ARRAY_SIZE(port_hex), k) || !strcmp(k, "port_lmc")) {
		if (num(x, 16, UINT32_MAX, &v))
			return 1;
		json_uint(&d->j, strcmp(k, "port_lmc") ? k : "lmc", v);
		return 0;
	}
	if (!strcmp(k, "link_layer")) {
		d->link_layer = !strcmp(x, "InfiniBand") ? 1 :
				!strcmp(x, "Ethernet") ? 2 :
				!strcmp(x, "Unspecified") ? 0 : -1;
		if (d->link_layer >= 0)
			json_uint(&d->j, k, (unsigned)d->link_layer);
		if (d->link_layer > 0 && port_sysfs(d, "link_layer", x) < 0)
			return -1;
		return d->link_layer < 0;
	}
	return !strcmp(k, "effective_speed") ? 0 : 1;
}

/* device_ex: "label:" lines that open flag lists, and the values */
static int ex_line(struct devinfo *d, const char *k, const char *x)
{
	static const struct {
		const char *label, *key;
		int base;
	} v[] = {
		{ "completion timestamp_mask", "completion_timestamp_mask", 16 },
		{ "hca_core_clock", "hca_core_clock", 10 },
		{ "device_cap_flags_ex", "device_cap_flags_ex", 16 },
		{ "max_tso", "tso_max_tso", 10 },
		{ "max_rwq_indirection_tables", "rss_max_rwq_indirection_tables", 10 },
		{ "max_rwq_indirection_table_size", "rss_max_rwq_indirection_table_size", 10 },
		{ "rx_hash_function", "rss_rx_hash_function", 16 },
		{ "rx_hash_fields_mask", "rss_rx_hash_fields_mask", 16 },
		{ "max_wq_type_rq", "max_wq_type_rq", 10 },
		{ "qp_rate_limit_min", "pp_qp_rate_limit_min", 10 },
		{ "qp_rate_limit_max", "pp_qp_rate_limit_max", 10 },
		{ "max_rndv_hdr_size", "tm_max_rndv_hdr_size", 10 },
		{ "max_num_tags", "tm_max_num_tags", 10 },
		{ "max_ops", "tm_max_ops", 10 },
		{ "max_sge", "tm_max_sge", 10 },
		{ "max_cq_count", "cq_mod_max_cq_count", 10 },
		{ "max_cq_period", "cq_mod_max_cq_period", 10 },
		{ "maximum available device memory", "max_dm_size", 10 },
		{ "num_comp_vectors", "num_comp_vectors", 10 },
	};
	char t[64], *e;
	unsigned long long n;
	size_t i;

	if (!strcmp(k, "general_odp_caps"))
		flags_open(d, "odp_general_caps", odp_general, 2, 0);
	else if (!strcmp(k, "rc_odp_caps") || !strcmp(k, "uc_odp_caps") ||
		 !strcmp(k, "ud_odp_caps"))
		flags_open(d, !strcmp(k, "rc_odp_caps") ? "odp_rc_caps" :
			   !strcmp(k, "uc_odp_caps") ? "odp_uc_caps" :
			   "odp_ud_caps", odp_transport, 6, 0);
	else if (!strcmp(k, "xrc_odp_caps"))
		flags_open(d, "xrc_odp_caps", odp_transport, 6, 0);
	else if (!strcmp(k, "raw packet caps"))
		flags_open(d, "raw_packet_caps", raw_caps, 4, 0);
	else if (!strcmp(k, "tso_caps") || !strcmp(k, "rss_caps") ||
		 !strcmp(k, "packet_pacing_caps"))
		d->qpt_key = k[0] == 't' ? "tso_supported_qpts" :
			     k[0] == 'r' ? "rss_supported_qpts" : "pp_supported_qpts";
	else if (!strcmp(k, "supported_qp") && d->qpt_key)
		flags_open(d, d->qpt_key, qpts, 9, 0);
	else if (!strcmp(k, "flags"))
		flags_open(d, "tm_flags", tm_caps, 1, 0);
	else if (!strcmp(k, "cq moderation caps"))
		;
	else
		goto value;
	return 0;
value:
	for (i = 0; i < ARRAY_SIZE(v) && strcmp(v[i].label, k); i++)
		;
	if (i == ARRAY_SIZE(v))
		return 1;
	flags_close(d);
	snprintf(t, sizeof(t), "%s", x);
	/* units glued to the number: 1000kHZ, 100kbps, 10 us, 1024Bytes */
	for (e = t + (v[i].base == 16 ? 2 : 0); *e && isxdigit((unsigned char)*e) &&
	     (v[i].base == 16 || isdigit((unsigned char)*e)); e++)
		;
	*e = 0;
	if (num(t, v[i].base, UINT64_MAX, &n))
		return 1;
	json_uint(&d->j, v[i].key, n);
	if (!strcmp(k, "device_cap_flags_ex"))
		flags_open(d, NULL, NULL, 0, 0);
	return 0;
}

static int dev_line(struct devinfo *d, const char *k, const char *x)
{
	unsigned long long v;
	uint64_t g;
	char path[160];

	if (in_list(dev_dec, ARRAY_SIZE(dev_dec), k)) {
		if (num(x, 10, INT32_MAX, &v))
			return 1;
		json_uint(&d->j, k, v);
		return 0;
	}
	if (in_list(dev_hex, ARRAY_SIZE(dev_hex), k)) {
		if (num(x, 16, UINT64_MAX, &v))
			return 1;
		json_uint(&d->j, k, v);
		if (!strcmp(k, "device_cap_flags"))
			flags_open(d, NULL, NULL, 0, 0);
		return 0;
	}
	if (!strcmp(k, "transport") || !strcmp(k, "atomic_cap")) {
		if (paren_num(x, 255, &v))
			return 1;
		json_uint(&d->j, strcmp(k, "transport") ? k : "transport_type", v);
		return 0;
	}
	if (!strcmp(k, "node_guid") || !strcmp(k, "sys_image_guid")) {
		if (colon_guid(x, &g))
			return 1;
		json_str(&d->j, k, x);
		return 0;
	}
	if (!strcmp(k, "fw_ver")) {
		json_str(&d->j, k, x);
		return 0;
	}
	if (!strcmp(k, "board_id")) {
		snprintf(path, sizeof(path), SYS_IB "/%s/board_id", d->dev);
		return put_str(d->im, d->origin, path, x) < 0 ? -1 : 0;
	}
	if (!strcmp(k, "device_cap_exp_flags")) {
		flags_open(d, NULL, NULL, 0, 0);	/* MLNX_OFED 4 */
		return 0;
	}
	return 1;
}

static int devinfo_line(struct devinfo *d, char *s)
{
	char *c, *k;
	const char *x;
	unsigned long long v;

	if (flags_line(d, s))
		return 0;
	flags_close(d);
	if (!strcmp(s, "Device ports:"))
		return 0;	/* MLNX_OFED 4's heading of the port blocks */
	if (!strncmp(s, "GID[", 4))
		return d->in_port ? gid_line(d, s) : 1;
	if ((x = field(s, "port"))) {
		if (port_end(d) < 0)
			return -1;
		if (num(x, 10, 255, &v) || !v)
			return 1;
		if (d->part == 2)
			ex_flush(d);
		part(d, 3);
		json_obj_open(&d->j, NULL);
		json_uint(&d->j, "port", v);
		d->in_port = 1;
		d->port = (unsigned)v;
		d->link_layer = -1;
		d->width = d->speed = 0;
		return 0;
	}
	c = strchr(s, ':');
	if (!c) {
		/* "completion_timestamp_mask not supported", "core clock not
		 * supported", "tag matching not supported": zero, as stored */
		return d->part == 2 || strstr(s, "not supported") ? 0 : 1;
	}
	*c = 0;
	k = trim(s);
	x = trim(c + 1);
	if (d->in_port)
		return port_line(d, k, x);
	if (d->part < 2 && !dev_line(d, k, x))
		return 0;
	if (d->part < 2 && in_list(dev_dec, ARRAY_SIZE(dev_dec), k))
		return 1;
	if (d->part == 1 && strcmp(k, "general_odp_caps"))
		return 1;	/* device lines this version does not know */
	part(d, 2);
	return ex_line(d, k, x);
}

int ib_devinfo(struct imp *im, const char *text, size_t len,
			 const char *origin, const char *arg)
{
	struct lines r = { text, text + len };
	struct devinfo d;
	struct buf list = BUF_INIT;
	struct json lj;
	char line[LINE_MAX_IB], *s;
	const char *x;
	int ndev = 0, none = 0, rc = -1;

	(void)arg;
	memset(&d, 0, sizeof(d));
	d.im = im;
	d.origin = origin;
	json_init(&lj, &list, 0);
	json_obj_open(&lj, NULL);
	json_arr_open(&lj, "devices");
	while (line_next(&r, line, sizeof(line))) {
		s = trim(line);
		if (!*s)
			continue;
		if ((x = field(s, "hca_id"))) {
			if (dev_end(&d) < 0)
				goto out;
			if (!good_name(x) || ndev >= MAX_DEVS) {
				imp_note(im, "%s: device '%.64s' left out", origin, x);
				continue;
			}
			snprintf(d.dev, sizeof(d.dev), "%s", x);
			json_str(&lj, NULL, d.dev);
			ndev++;
			buf_init(&d.out, 0);
			json_init(&d.j, &d.out, 0);
			json_obj_open(&d.j, NULL);
			json_str(&d.j, "ibdev", d.dev);
			json_str(&d.j, "status", "ok");
			d.part = 0;
			d.qpt_key = NULL;
			part(&d, 1);
			continue;
		}
		if (!strcmp(s, "No IB devices found")) {
			none = 1;
			continue;
		}
		if (!d.dev[0])
			continue;
		switch (devinfo_line(&d, s)) {
		case -1:
			goto out;
		case 1:
			imp_note(im, "%s: %s: line not understood: %.80s", origin,
				 d.dev, s);
		}
	}
	if (dev_end(&d) < 0)
		goto out;
	json_arr_close(&lj);
	json_str(&lj, "status", ndev ? "ok" : "absent");
	if (!ndev)
		json_str(&lj, "reason", "no RDMA devices (ibv_devinfo: No IB "
			 "devices found)");
	json_obj_close(&lj);
	json_end(&lj);
	rc = ndev || none ? imp_put(im, "rdma-collect/verbs/devices.json",
				    list.buf, list.len, origin, IMP_DERIVED) : 1;
	if (!rc && d.sysfs)
		imp_source(im, SOURCE_SYSFS, "ok", "");
out:
	buf_release(&d.out);
	buf_release(&list);
	return rc;
}

/* --- show_gids --- */

/* A row's columns after the GID: the IPv4 (for GIDs of 0000:...), "v1" or
 * "v2", the netdev; col is the next one expected (0 IPv4, 1 version, 2
 * netdev, 3 none).  A mail client wraps long rows, so a row may stop
 * early and its last columns come alone on the next line. */
struct gid_row {
	char dev[64];
	unsigned long long port, idx;
	int col;
};

/* tok[0..n) as the columns from g->col on: 0 when they all fit, their
 * values in *ver and *ndev (NULL when absent) */
static int gid_cols(struct gid_row *g, char **tok, int n, const char **ver,
		    const char **ndev)
{
	struct in_addr a;
	int i;

	*ver = *ndev = NULL;
	for (i = 0; i < n; i++) {
		if (g->col == 0 && inet_pton(AF_INET, tok[i], &a) == 1) {
			g->col = 1;
		} else if (g->col <= 1 && (!strcmp(tok[i], "v1") ||
					   !strcmp(tok[i], "v2"))) {
			*ver = tok[i];
			g->col = 2;
		} else if (g->col <= 2 && good_name(tok[i])) {
			*ndev = tok[i];
			g->col = 3;
		} else {
			return -1;
		}
	}
	return 0;
}

/* the GID's type and netdev; a netdev or a RoCE v2 type makes the port
 * RoCE (the kernel gives a GID a netdev on RoCE ports only: InfiniBand and
 * iWARP GIDs have none), so its link layer is Ethernet unless an earlier
 * file said otherwise */
static int gid_attrs(struct imp *im, const char *origin,
		     const struct gid_row *g, const char *ver, const char *ndev)
{
	char path[256], old[32];

	if (ver) {
		snprintf(path, sizeof(path), SYS_IB "/%s/ports/%llu/"
			 "gid_attrs/types/%llu", g->dev, g->port, g->idx);
		if (put_str(im, origin, path, ver[1] == '1' ? "IB/RoCE v1" :
			    "RoCE v2") < 0)
			return -1;
	}
	if (ndev) {
		snprintf(path, sizeof(path), SYS_IB "/%s/ports/%llu/"
			 "gid_attrs/ndevs/%llu", g->dev, g->port, g->idx);
		if (put_str(im, origin, path, ndev) < 0)
			return -1;
	}
	if (!ndev && !(ver && ver[1] == '2'))
		return 0;
	snprintf(path, sizeof(path), SYS_IB "/%s/ports/%llu/link_layer",
		 g->dev, g->port);
	if (sys_line(im, path, old, sizeof(old)))
		return 0;
	return put_str(im, origin, path, "Ethernet");
}

int ib_show_gids(struct imp *im, const char *text, size_t len,
			   const char *origin, const char *arg)
{
	struct lines r = { text, text + len };
	char line[LINE_MAX_IB], path[256], full[40];
	char *tok[8], *save, *s;
	const char *ver, *ndev;
	struct gid_row g = { .col = 3 }, c;
	unsigned long long want = 0;
	int head = 0, rows = 0, n, trailer = 0;

	(void)arg;
	while (line_next(&r, line, sizeof(line))) {
		s = trim(line);
		if (!head) {
			head = !strncmp(s, "DEV", 3) && strstr(s, "PORT") &&
			       strstr(s, "INDEX") && strstr(s, "GID");
			continue;
		}
		if (!strncmp(s, "---", 3) || !*s)
			continue;
		if (!strncmp(s, "n_gids_found=", 13)) {
			trailer = !num(s + 13, 10, 1u << 24, &want);
			break;
		}
		for (n = 0, s = strtok_r(s, " \t", &save); s && n < 8;
		     s = strtok_r(NULL, " \t", &save))
			tok[n++] = s;
		c = g;
		if (g.col < 3 && !gid_cols(&c, tok, n, &ver, &ndev)) {
			/* the wrapped end of the row before */
			g = c;
			if (gid_attrs(im, origin, &g, ver, ndev) < 0)
				return -1;
			continue;
		}
		g.col = 3;
		if (n < 4 || !good_name(tok[0]) ||
		    num(tok[1], 10, 255, &g.port) || !g.port ||
		    num(tok[2], 10, MAX_GID_INDEX, &g.idx) ||
		    strlen(tok[3]) != 39 || gid_full(tok[3], full) ||
		    strcmp(full, tok[3])) {
			imp_note(im, "%s: row not understood", origin);
			continue;
		}
		snprintf(g.dev, sizeof(g.dev), "%s", tok[0]);
		snprintf(path, sizeof(path), SYS_IB "/%s/ports/%llu/gids/%llu",
			 g.dev, g.port, g.idx);
		if (put_str(im, origin, path, full) < 0)
			return -1;
		rows++;
		/* columns past what fits are left, as before the wrap rule */
		g.col = 0;
		gid_cols(&g, tok + 4, n - 4, &ver, &ndev);
		if (gid_attrs(im, origin, &g, ver, ndev) < 0)
			return -1;
	}
	if (!head)
		return 1;
	if (!trailer)
		imp_note(im, "%s: no n_gids_found line: the output may be cut", origin);
	else if (!want && !rows)
		imp_empty(im);	/* no port has a GID: a fact, not a gap */
	else if (want != (unsigned long long)rows)
		imp_note(im, "%s: %d rows read, n_gids_found=%llu", origin, rows, want);
	return 0;
}

/* --- ibv_devices --- */

/* libibverbs/examples/devices.c: "    %-16s\t   node GUID" over
 * "    %-16s\t----------------", then one "    %-16s\t%016llx" row per
 * device libibverbs opened, the GUID in the digits sysfs' node_guid has.
 * It lists what user space can open (a device without its provider is
 * missing), so an empty list says nothing of the kernel's devices. */
static int devices_row(struct imp *im, const char *origin, char *s)
{
	char *tok[3], *save, path[256], g[20];
	int n;
	size_t i;

	for (n = 0, s = strtok_r(s, " \t", &save); s && n < 3;
	     s = strtok_r(NULL, " \t", &save))
		tok[n++] = s;
	if (n != 2 || !good_name(tok[0]) || strlen(tok[1]) != 16)
		return 1;
	for (i = 0; i < 16; i++)
		if (!isxdigit((unsigned char)tok[1][i]))
			return 1;
	snprintf(g, sizeof(g), "%.4s:%.4s:%.4s:%.4s", tok[1], tok[1] + 4,
		 tok[1] + 8, tok[1] + 12);
	for (i = 0; g[i]; i++)
		g[i] = (char)tolower((unsigned char)g[i]);
	snprintf(path, sizeof(path), SYS_IB "/%s/node_guid", tok[0]);
	return put_str(im, origin, path, g) < 0 ? -1 : 0;
}

int ib_ibv_devices(struct imp *im, const char *text, size_t len,
		   const char *origin, const char *arg)
{
	struct lines r = { text, text + len };
	char line[LINE_MAX_IB], *s;
	int head = 0, rows = 0, rc;

	(void)arg;
	while (line_next(&r, line, sizeof(line))) {
		s = trim(line);
		if (!head) {
			head = !strncmp(s, "device", 6) && strstr(s, "node GUID");
			continue;
		}
		if (!*s || !strncmp(s, "------", 6))
			continue;
		if ((rc = devices_row(im, origin, s)) < 0)
			return -1;
		if (rc)
			imp_note(im, "%s: row not understood", origin);
		else
			rows++;
	}
	if (!head)
		return 1;
	if (!rows)
		imp_empty(im);	/* libibverbs opened no device: a fact */
	return 0;
}

/* --- ibdev2netdev --- */

int ib_ibdev2netdev(struct imp *im, const char *text, size_t len,
			      const char *origin, const char *arg)
{
	static const char *const states[] = { "", "DOWN", "INIT", "ARMED",
					      "ACTIVE", "ACTIVE_DEFER" };
	struct lines r = { text, text + len };
	struct buf out = BUF_INIT;
	struct json j;
	char line[LINE_MAX_IB], dev[64], nd[64], bdf[32], st[16], path[192];
	char fwv[32];
	char *s, *arrow, *p;
	unsigned long long port;
	int n = 0, rc = -1, old, k;

	(void)arg;
	json_init(&j, &out, 0);
	json_arr_open(&j, NULL);
	while (line_next(&r, line, sizeof(line)) && n < 4096) {
		s = trim(line);
		arrow = strstr(s, " ==> ");
		old = !arrow && (arrow = strstr(s, " <===> "));
		if (!arrow)
			continue;
		*arrow = 0;
		if (sscanf(arrow + (old ? 7 : 5), "%63s", nd) != 1 || !good_name(nd))
			continue;
		/* the left side ends "port N" or "port N (STATE)" */
		p = strstr(s, " port ");
		while (p && strstr(p + 1, " port "))
			p = strstr(p + 1, " port ");
		if (!p)
			continue;
		*p = 0;
		st[0] = 0;
		if (sscanf(p + 6, "%llu (%15[A-Z_])", &port, st) < 1 || !port ||
		    port > 255)
			continue;
		bdf[0] = 0;
		if (sscanf(s, "%31s %63s", bdf, dev) == 2 && strchr(bdf, ':')) {
			const char *fw = strstr(s, " fw ");
			const char *mt = strstr(s, " (MT");
			unsigned long long id;

			if (!good_name(dev))
				continue;
			if (imp_ibdev_pci(im, dev, bdf, origin) < 0)
				return -1;
			snprintf(path, sizeof(path), SYS_IB "/%s/fw_ver", dev);
			if (fw && sscanf(fw + 4, "%31s", fwv) == 1 &&
			    put_str(im, origin, path, fwv) < 0)
				goto out;
			if (mt && sscanf(mt + 4, "%llu", &id) == 1 && id <= 0xffff) {
				snprintf(path, sizeof(path), SYS_IB "/%s/hca_type", dev);
				if (imp_putf(im, origin, path, "MT%llu\n", id) < 0)
					goto out;
			}
			for (k = 1; k < 6 && strcmp(states[k], st); k++)
				;
			snprintf(path, sizeof(path), SYS_IB "/%s/ports/%llu/state",
				 dev, port);
			if (k < 6 && imp_putf(im, origin, path, "%d: %s\n", k,
					      states[k]) < 0)
				goto out;
		} else if (sscanf(s, "%63s", dev) != 1 || !good_name(dev)) {
			continue;
		}
		json_obj_open(&j, NULL);
		json_str(&j, "ibdev", dev);
		json_uint(&j, "port", port);
		json_str(&j, "netdev", nd);
		json_str(&j, "how", "ibdev2netdev");
		json_obj_close(&j);
		n++;
		/* carrier: "Up", "Down", or "NA" when it could not be read */
		p = strrchr(arrow + 1, '(');
		if (!old && p && (!strcmp(p, "(Up)") || !strcmp(p, "(Down)"))) {
			snprintf(path, sizeof(path), "sys/class/net/%s/operstate", nd);
			if (put_str(im, origin, path, p[1] == 'U' ? "up" : "down") < 0)
				goto out;
			snprintf(path, sizeof(path), "sys/class/net/%s/carrier", nd);
			if (put_str(im, origin, path, p[1] == 'U' ? "1" : "0") < 0)
				goto out;
		}
	}
	json_arr_close(&j);
	json_end(&j);
	rc = n ? imp_put(im, "rdma-collect/ibdev2netdev.json", out.buf, out.len,
			 origin, IMP_DERIVED) : 1;
out:
	buf_release(&out);
	return rc;
}

/* --- ls -la /dev/infiniband --- */

static const char *const months[] = {
	"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct",
	"Nov", "Dec"
};

/* one ls -l line into an object; 1 when it is not one */
static int ls_entry(struct json *j, const char *key, char *s, int *dated)
{
	char *t[12], *name, type[2] = { s[0], 0 }, m[8];
	unsigned long long nlink, a, b;
	unsigned mode = 0;
	int n, i, dev, k;
	static const char rwx[] = "rwxrwxrwx";

	for (n = 0, name = s; n < 12; n++) {
		while (*name == ' ')
			name++;
		t[n] = name;
		if (!*name)
			break;
		name += strcspn(name, " ");
		if (n < 11 && *name)
			*name++ = 0;
	}
	if (n < 6 || strlen(t[0]) < 10 || !strchr("cbdl-ps", t[0][0]))
		return 1;
	for (i = 0; i < 9; i++) {
		char c = t[0][1 + i];

		if (c == rwx[i] || ((i == 2 || i == 5) && (c == 's' || c == 'S')) ||
		    (i == 8 && (c == 't' || c == 'T')))
			mode |= (c == rwx[i] || c == 's' || c == 't') ?
				1u << (8 - i) : 0;
		else if (c != '-')
			return 1;
		if (c == 's' || c == 'S')
			mode |= i == 2 ? 04000 : 02000;
		if (c == 't' || c == 'T')
			mode |= 01000;
	}
	if (num(t[1], 10, UINT32_MAX, &nlink))
		return 1;
	dev = t[0][0] == 'c' || t[0][0] == 'b';
	k = 4;
	if (dev) {
		size_t l = strlen(t[4]);

		/* "231," "192" or "231,192" */
		if (l > 1 && t[4][l - 1] == ',') {
			t[4][l - 1] = 0;
			if (num(t[4], 10, 4095, &a) || num(t[5], 10, 1u << 20, &b))
				return 1;
			k = 6;
		} else if (strchr(t[4], ',')) {
			*strchr(t[4], ',') = 0;
			if (num(t[4], 10, 4095, &a) ||
			    num(t[4] + strlen(t[4]) + 1, 10, 1u << 20, &b))
				return 1;
			k = 5;
		} else {
			return 1;
		}
	} else {
		if (num(t[4], 10, UINT64_MAX >> 1, &a))
			return 1;
		k = 5;
	}
	json_obj_open(j, key);
	/* the name is what is left after the date (three words) or at once */
	if (k + 3 < n || (k + 3 == n && *t[n - 1])) {
		for (i = 0; i < 12 && strcmp(months[i], t[k]); i++)
			;
		if (i < 12) {
			unsigned long long day, yr;
			struct tm tm;

			memset(&tm, 0, sizeof(tm));
			if (!num(t[k + 1], 10, 31, &day) && strlen(t[k + 2]) == 4 &&
			    !num(t[k + 2], 10, 9999, &yr) && yr >= 1970) {
				tm.tm_mon = i;
				tm.tm_mday = (int)day;
				tm.tm_year = (int)yr - 1900;
				json_int(j, "mtime", (int64_t)timegm(&tm));
			} else {
				*dated = 0;	/* "Nov 29 21:04": no year */
			}
			k += 3;
		}
	}
	json_str(j, "name", k < 12 ? t[k] : "");
	json_str(j, "type", type);
	snprintf(m, sizeof(m), "%04o", mode);
	json_str(j, "mode", m);
	json_uint(j, "nlink", nlink);
	json_str(j, "user", t[2]);
	json_str(j, "group", t[3]);
	if (dev) {
		json_uint(j, "major", a);
		json_uint(j, "minor", b);
	} else {
		json_uint(j, "size", a);
	}
	json_obj_close(j);
	return 0;
}

/* a name the kernel gives a node in /dev/infiniband: uverbsN, umadN,
 * issmN, ucmN (ib_ucm, before 5.3), rdma_cm */
int ib_devnode_name(const char *s, size_t n)
{
	static const char *const pre[] = { "uverbs", "umad", "issm", "ucm" };
	size_t i, k, d;

	if (n == 7 && !strncmp(s, "rdma_cm", 7))
		return 1;
	for (i = 0; i < ARRAY_SIZE(pre); i++) {
		k = strlen(pre[i]);
		if (n <= k || n > k + 4 || strncmp(s, pre[i], k))
			continue;
		for (d = k; d < n && isdigit((unsigned char)s[d]); d++)
			;
		if (d == n)
			return 1;
	}
	return 0;
}

/* plain ls (or ls -1): "rdma_cm  uverbs0  uverbs2", every word a device
 * node's name; the count of names, 0 when the line is not that */
static int ls_plain(struct json *j, char *s)
{
	char *t, *save;
	int n = 0;

	for (t = s; *t; ) {
		size_t k = strcspn(t, " \t");

		if (!ib_devnode_name(t, k))
			return 0;
		n++;
		t += k;
		t += strspn(t, " \t");
	}
	for (t = strtok_r(s, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
		json_obj_open(j, NULL);
		json_str(j, "name", t);
		json_obj_close(j);
	}
	return n;
}

int ib_ls_infiniband(struct imp *im, const char *text, size_t len,
			       const char *origin, const char *arg)
{
	struct lines r = { text, text + len };
	struct buf out = BUF_INIT, ents = BUF_INIT;
	struct json j, ej;
	char line[LINE_MAX_IB], plain[LINE_MAX_IB], *s;
	int n = 0, dated = 1, rc;

	(void)arg;
	json_init(&j, &out, 0);
	json_obj_open(&j, NULL);
	json_str(&j, "path", "/dev/infiniband");
	json_init(&ej, &ents, 0);
	json_arr_open(&ej, NULL);
	while (line_next(&r, line, sizeof(line)) && n < 4096) {
		s = trim(line);
		if (!strncmp(s, "total ", 6))
			continue;
		if (strstr(s, "cannot access") && strstr(s, "No such file")) {
			json_str(&j, "status", "absent");
			json_arr_open(&j, "entries");
			json_arr_close(&j);
			n = -1;
			break;
		}
		{
			/* "." and ".." go to dot and dotdot */
			size_t l = strlen(s);
			int dot = l > 2 && s[l - 1] == '.' && s[l - 2] == ' ';
			int dotdot = l > 3 && !strcmp(s + l - 3, " ..");
			int e;

			if (dot || dotdot) {
				struct buf tb = BUF_INIT;
				struct json tj;

				json_init(&tj, &tb, 0);
				e = ls_entry(&tj, NULL, s, &dated);
				if (!e) {
					struct jv *v;

					json_end(&tj);
					v = jparse(tb.buf, tb.len, NULL, 0);
					if (v)
						json_jv(&j, dotdot ? "dotdot" : "dot", v);
					jfree(v);
				}
				buf_release(&tb);
				n += !e;
				continue;
			}
			snprintf(plain, sizeof(plain), "%s", s);
			if (!ls_entry(&ej, NULL, s, &dated))
				n++;
			else
				n += ls_plain(&ej, plain);
		}
	}
	json_arr_close(&ej);
	json_end(&ej);
	if (n > 0) {
		struct jv *v = jparse(ents.buf, ents.len, NULL, 0);
		size_t i;

		json_str(&j, "status", "ok");
		json_arr_open(&j, "entries");
		for (i = 0; v && i < v->n; i++) {
			/* ls gave no year: no entry keeps an mtime */
			struct jv *e = &v->v[i];
			size_t m;

			json_obj_open(&j, NULL);
			for (m = 0; m < e->n; m++)
				if (dated || strcmp(e->k[m], "mtime"))
					json_jv(&j, e->k[m], &e->v[m]);
			json_obj_close(&j);
		}
		json_arr_close(&j);
		jfree(v);
		if (!dated)
			imp_note(im, "%s: dates without a year: no mtime kept", origin);
	}
	json_obj_close(&j);
	json_end(&j);
	rc = n ? imp_put(im, "rdma-collect/devnodes.json", out.buf,
					 out.len, origin, IMP_DERIVED) : 1;
	buf_release(&out);
	buf_release(&ents);
	return rc;
}

/* --- sminfo --- */

/* "0x2c90200259201", or one redacted ("0xe89e4903003xxxxx"): 1 a GUID
 * in g, 0 redacted (a GUID, whose value is not known), -1 neither */
static int sm_guid(const char *s, uint64_t *g)
{
	size_t i;

	if (!hex_guid(s, g))
		return 1;
	if (strncmp(s, "0x", 2) || strlen(s) > 18 || !strpbrk(s + 2, "xX"))
		return -1;
	for (i = 2; s[i]; i++)
		if (!isxdigit((unsigned char)s[i]) && s[i] != 'x' && s[i] != 'X')
			return -1;
	return 0;
}

/* one answer: "sminfo: sm lid 1 sm guid 0x..., activity count 6306612
 * priority 15 state 3 SMINFO_MASTER" */
struct sm_answer {
	unsigned long long lid, act, prio, state;
	uint64_t guid;
	int has_guid;
};

static int sm_line(const char *s, struct sm_answer *a)
{
	char lids[16], guids[24];
	int g;

	if (sscanf(s, "sminfo: sm lid %15s sm guid %23[0-9a-fA-Fx], "
		   "activity count %llu priority %llu state %llu",
		   lids, guids, &a->act, &a->prio, &a->state) != 5)
		return -1;
	/* an ancient sminfo printed "lid 0x1" */
	if (num(lids, 0, 0xffff, &a->lid) || (g = sm_guid(guids, &a->guid)) < 0 ||
	    a->act > UINT32_MAX || a->prio > 15 || a->state > 3)
		return -1;
	a->has_guid = g;
	return 0;
}

/* Every answer in the text (cexec or pdsh runs it on many nodes, each
 * block under a banner; a mail client wraps "state 3 SMINFO_MASTER" onto
 * the next line).  The first answer is kept; others of the same SM agree
 * with it and add nothing; one of another SM or state is said dropped.
 * The SM is the subnet's, whichever port asked: with no local port known
 * it is kept as such (mad/sminfo.json). */
int ib_sminfo(struct imp *im, const char *text, size_t len,
			const char *origin, const char *arg)
{
	struct lines r = { text, text + len };
	char line[LINE_MAX_IB], next[LINE_MAX_IB], dev[64], *s, *t;
	struct sm_answer a, first = { 0 };
	unsigned port, other = 0;
	struct buf f = BUF_INIT;
	struct json j;
	int rc, got = 0, have_next = 0;
	const char *err = NULL;
	char errs[LINE_MAX_IB];

	while (have_next || line_next(&r, line, sizeof(line))) {
		if (have_next)
			memcpy(line, next, sizeof(line));
		have_next = 0;
		s = trim(line);
		if (!strncmp(s, "sminfo: sm lid ", 15) && !strstr(s, " state ")) {
			/* wrapped: the rest is on the next line */
			while (line_next(&r, next, sizeof(next))) {
				t = trim(next);
				if (!*t)
					continue;
				if (!strncmp(t, "state ", 6) &&
				    strlen(s) + strlen(t) + 2 < sizeof(line)) {
					memmove(line, s, strlen(s) + 1);
					s = line;
					strcat(s, " ");
					strcat(s, t);
				} else {
					memmove(next, t, strlen(t) + 1);
					have_next = 1;
				}
				break;
			}
		}
		if (!sm_line(s, &a)) {
			if (!got)
				first = a;
			else if (a.lid != first.lid || a.state != first.state ||
				 a.prio != first.prio || a.has_guid != first.has_guid ||
				 a.guid != first.guid)
				other++;
			got = 1;
		} else if (!strncmp(s, "sminfo: iberror: ", 17) && !err) {
			snprintf(errs, sizeof(errs), "%s", s + 17);
			err = errs;
		}
	}
	if (!got && !err)
		return 1;
	json_init(&j, &f, 0);
	json_obj_open(&j, NULL);
	if (got) {
		char guids[24];

		json_obj_open(&j, "sminfo");
		json_uint(&j, "lid", first.lid);
		if (first.has_guid) {
			snprintf(guids, sizeof(guids), "0x%016" PRIx64, first.guid);
			json_str(&j, "SmInfoGuid", guids);
		}
		json_uint(&j, "SmActivity", first.act);
		json_uint(&j, "SmPriority", first.prio);
		json_uint(&j, "SmState", first.state);
		json_obj_close(&j);
		if (err)
			imp_dropped(im, "%s: an sminfo failure ('%s') beside the "
				    "answer kept: not kept", origin, err);
		if (other)
			imp_dropped(im, "%s: %u answer(s) of another SM or state "
				    "than the first: not kept", origin, other);
	} else {
		json_obj_open(&j, "errors");
		json_str(&j, "sminfo", err);
		json_obj_close(&j);
	}
	json_obj_close(&j);
	json_end(&j);
	if (!arg_port(arg, dev, sizeof(dev), &port) ||
	    !known_port(im, 0, dev, sizeof(dev), &port))
		rc = mad_put(im, origin, dev, port, &f);
	else
		rc = mad_put(im, origin, NULL, 0, &f);
	buf_release(&f);
	return rc;
}

/* --- perfquery --- */

static const char *const pc_names[] = {
	"PortSelect", "CounterSelect", "SymbolErrorCounter",
	"LinkErrorRecoveryCounter", "LinkDownedCounter", "PortRcvErrors",
	"PortRcvRemotePhysicalErrors", "PortRcvSwitchRelayErrors",
	"PortXmitDiscards", "PortXmitConstraintErrors", "PortRcvConstraintErrors",
	"CounterSelect2", "LocalLinkIntegrityErrors",
	"ExcessiveBufferOverrunErrors", "QP1Dropped", "VL15Dropped",
	"PortXmitData", "PortRcvData", "PortXmitPkts", "PortRcvPkts",
	"PortXmitWait", "PortUnicastXmitPkts", "PortUnicastRcvPkts",
	"PortMulticastXmitPkts", "PortMulticastRcvPkts",
};

/* the sysfs file of each PortCounters field (drivers/infiniband/core/
 * sysfs.c): the same PMA counters, which is where a bundle has a local
 * port's counters and the rules read them */
static const char *const pc_sysfs[ARRAY_SIZE(pc_names)] = {
	[2] = "symbol_error", "link_error_recovery", "link_downed",
	"port_rcv_errors", "port_rcv_remote_physical_errors",
	"port_rcv_switch_relay_errors", "port_xmit_discards",
	"port_xmit_constraint_errors", "port_rcv_constraint_errors",
	[12] = "local_link_integrity_errors",
	"excessive_buffer_overrun_errors", [15] = "VL15_dropped",
	"port_xmit_data", "port_rcv_data", "port_xmit_packets",
	"port_rcv_packets", "port_xmit_wait", "unicast_xmit_packets",
	"unicast_rcv_packets", "multicast_xmit_packets",
	"multicast_rcv_packets",
};

/* PortCounters' fields as libibmad named them before OFED 1.4
 * (perfquery of OFED 1.3: "SymbolErrors:....7836"), and the name they
 * have now */
static const char *const pc_old[][2] = {
	{ "SymbolErrors", "SymbolErrorCounter" },
	{ "LinkRecovers", "LinkErrorRecoveryCounter" },
	{ "LinkDowned", "LinkDownedCounter" },
	{ "RcvErrors", "PortRcvErrors" },
	{ "RcvRemotePhysErrors", "PortRcvRemotePhysicalErrors" },
	{ "RcvSwRelayErrors", "PortRcvSwitchRelayErrors" },
	{ "XmtDiscards", "PortXmitDiscards" },
	{ "XmtConstraintErrors", "PortXmitConstraintErrors" },
	{ "RcvConstraintErrors", "PortRcvConstraintErrors" },
	{ "LinkIntegrityErrors", "LocalLinkIntegrityErrors" },
	{ "ExcBufOverrunErrors", "ExcessiveBufferOverrunErrors" },
	{ "XmtData", "PortXmitData" },
	{ "RcvData", "PortRcvData" },
	{ "XmtPkts", "PortXmitPkts" },
	{ "RcvPkts", "PortRcvPkts" },
};

/* a field's index in pc_names, by its name now or its old one */
static size_t pc_index(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(pc_old); i++)
		if (!strcmp(pc_old[i][0], name)) {
			name = pc_old[i][1];
			break;
		}
	for (i = 0; i < ARRAY_SIZE(pc_names) && strcmp(pc_names[i], name); i++)
		;
	return i;
}

/* "# Port counters: Lid 17 port 1 (CapMask: 0x1600)" and -x's; a paste
 * may have lost the '#' */
static int pq_header(const char *s, int *ext, unsigned *lid, unsigned *port,
		     long long *cap, long long *cap2)
{
	unsigned long long l, p, c;
	const char *x;
	char w[16];

	*cap = *cap2 = -1;
	if (*s == '#')
		s++;
	s += strspn(s, " \t");
	if (!strncmp(s, "Port counters: ", 15))
		*ext = 0, s += 15;
	else if (!strncmp(s, "Port extended counters: ", 24))
		*ext = 1, s += 24;
	else
		return -1;
	if (sscanf(s, "Lid %llu port %llu", &l, &p) != 2 || l > 0xffff || p > 255)
		return -1;
	*lid = (unsigned)l;
	*port = (unsigned)p;
	if ((x = strstr(s, "CapMask: ")) && sscanf(x + 9, "%15[0-9a-fA-Fx]", w) == 1 &&
	    !num(w, 16, 0xffff, &c))
		*cap = (long long)c;
	if ((x = strstr(s, "CapMask2: ")) && sscanf(x + 10, "%15[0-9a-fA-Fx]", w) == 1 &&
	    !num(w, 16, (1u << 27) - 1, &c))
		*cap2 = (long long)c;
	return 0;
}

/* a local port's counters also as its sysfs counters/ files, when the
 * LID perfquery printed is that port's */
static int pq_sysfs(struct imp *im, const char *origin, const char *dev,
		    unsigned port, unsigned lid,
		    const unsigned long long val[], const signed char got[])
{
	char p[256], v[32];
	size_t i;

	snprintf(p, sizeof(p), SYS_IB "/%s/ports/%u/lid", dev, port);
	if (!sys_line(im, p, v, sizeof(v)) || strtoul(v, NULL, 0) != lid)
		return 0;
	for (i = 0; i < ARRAY_SIZE(pc_names); i++) {
		if (!pc_sysfs[i] || got[i] < 0)
			continue;
		snprintf(p, sizeof(p), SYS_IB "/%s/ports/%u/counters/%s", dev,
			 port, pc_sysfs[i]);
		if (imp_putf(im, origin, p, "%llu\n", val[i]) < 0)
			return -1;
	}
	return 0;
}

#define PQ_MAX 256		/* ports in one output (perfquery -a of a switch) */
#define PC_N ARRAY_SIZE(pc_names)

/* one port's counters: its basic block and its -x block, as printed */
struct pq_port {
	unsigned lid, port;
	long long cap, cap2;
	unsigned long long v[2][PC_N];	/* [0] basic, [1] extended */
	signed char has[2][PC_N];
	int blocks[2];
};

/* the ten fields of the basic PortCountersExtended (schema/BUNDLE.md):
 * the rest of what -x prints are PortCounters' error counters */
static int pc_ext_field(size_t i)
{
	return i < 2 || (i >= 16 && i != 20);
}

/* one group of a port's counters.  As printed (local: each block its
 * group), or as the fabric document holds them (fabric): the ten basic
 * fields of -x in PortCountersExtended, the error counters in
 * PortCounters whichever block printed them, where the fabric checks
 * read them */
static void pq_group(struct json *j, const char *key, const struct pq_port *q,
		     int ext, int fabric)
{
	size_t i;
	int any = 0, b;

	for (i = 0; i < PC_N; i++) {
		b = ext;
		if (fabric && ext && !pc_ext_field(i))
			continue;
		if (fabric && !ext && !pc_ext_field(i) && !q->has[0][i])
			b = 1;
		if (!q->has[b][i])
			continue;
		if (!any++)
			json_obj_open(j, key);
		json_uint(j, pc_names[i], q->v[b][i]);
	}
	if (any)
		json_obj_close(j);
}

static void pq_cap(struct json *j, const struct pq_port *q)
{
	if (q->cap < 0)
		return;
	json_obj_open(j, "ClassPortInfo");
	json_uint(j, "CapabilityMask", (unsigned long long)q->cap);
	if (q->cap2 >= 0)
		json_uint(j, "CapabilityMask2", (unsigned long long)q->cap2);
	json_obj_close(j);
}

/* a local port's: its mad document's local.pma, and sysfs counters/ */
static int pq_local(struct imp *im, const char *origin, const struct pq_port *q,
		    const char *dev, unsigned tport)
{
	unsigned long long val[PC_N];
	signed char got[PC_N];
	struct buf f = BUF_INIT;
	struct json j;
	size_t i;
	int rc;

	json_init(&j, &f, 0);
	json_obj_open(&j, NULL);
	json_obj_open(&j, "local");
	json_obj_open(&j, "pma");
	pq_cap(&j, q);
	if (q->blocks[0])
		pq_group(&j, "PortCounters", q, 0, 0);
	if (q->blocks[1])
		pq_group(&j, "PortCountersExtended", q, 1, 0);
	json_obj_close(&j);
	json_obj_open(&j, "portinfo");
	json_uint(&j, "Lid", q->lid);
	json_obj_close(&j);
	json_obj_close(&j);
	json_obj_close(&j);
	json_end(&j);
	if (tport != q->port && q->port != 0)
		imp_note(im, "%s: port %u printed, %s port %u named", origin,
			 q->port, dev, tport);
	rc = mad_put(im, origin, dev, tport, &f);
	buf_release(&f);
	/* the 64-bit data and packet counters win, as in sysfs */
	for (i = 0; i < PC_N; i++) {
		got[i] = q->has[1][i] ? 1 : q->has[0][i] ? 0 : -1;
		val[i] = got[i] >= 0 ? q->v[got[i]][i] : 0;
	}
	if (!rc && q->port == tport)
		rc = pq_sysfs(im, origin, dev, q->port, q->lid, val, got);
	return rc;
}

/* ports of other nodes (a switch's, a remote LID's, or any port when no
 * local one is known): their counters in the fabric document, one node
 * per LID, as a fabric scan holds them */
static int pq_fabric(struct imp *im, const char *origin,
		     const struct pq_port *q, const int *remote, size_t n)
{
	struct buf f = BUF_INIT;
	struct json j;
	struct jv *nodes;
	size_t i, k;
	int rc;

	json_init(&j, &f, 0);
	json_arr_open(&j, NULL);
	for (i = 0; i < n; i++) {
		int first = 1;

		for (k = 0; k < i && first; k++)
			first = !(remote[k] && q[k].lid == q[i].lid);
		if (!remote[i] || !first)
			continue;
		json_obj_open(&j, NULL);
		json_uint(&j, "lid", q[i].lid);
		if (q[i].cap >= 0) {
			json_obj_open(&j, "pma");
			pq_cap(&j, &q[i]);
			json_obj_close(&j);
		}
		json_arr_open(&j, "ports");
		for (k = i; k < n; k++) {
			if (!remote[k] || q[k].lid != q[i].lid)
				continue;
			json_obj_open(&j, NULL);
			json_uint(&j, "port", q[k].port);
			json_uint(&j, "lid", q[k].lid);
			json_obj_open(&j, "pma");
			pq_group(&j, "PortCounters", &q[k], 0, 1);
			pq_group(&j, "PortCountersExtended", &q[k], 1, 1);
			json_obj_close(&j);
			json_obj_close(&j);
		}
		json_arr_close(&j);
		json_obj_close(&j);
	}
	json_arr_close(&j);
	json_end(&j);
	nodes = jparse(f.buf, f.len, NULL, 0);
	buf_release(&f);
	if (!nodes)
		return error("imp-ib: perfquery: bad fabric fragment");	/* a bug */
	rc = imp_fabric_merge(im, origin, nodes);
	jfree(nodes);
	return rc;
}

int ib_perfquery(struct imp *im, const char *text, size_t len,
			   const char *origin, const char *arg)
{
	struct lines r = { text, text + len };
	char line[LINE_MAX_IB], dev[64], name[64], *s, *d;
	struct pq_port *q = NULL, *cur = NULL;
	int *remote = NULL, ext = 0, rc = 0, named, nremote = 0;
	unsigned long long v;
	unsigned tport, sums = 0, over = 0;
	size_t n = 0, i;

	while (line_next(&r, line, sizeof(line))) {
		s = trim(line);
		if (s[0] == '#' || !strncmp(s, "Port counters: ", 15) ||
		    !strncmp(s, "Port extended counters: ", 24)) {
			unsigned l, p;
			long long cap, cap2;

			if (pq_header(s, &ext, &l, &p, &cap, &cap2))
				continue;
			cur = NULL;
			if (p == 255) {
				sums++;	/* perfquery -a: every port summed */
				continue;
			}
			for (i = 0; i < n && !cur; i++)
				if (q[i].lid == l && q[i].port == p)
					cur = &q[i];
			if (!cur && n >= PQ_MAX) {
				over++;
				continue;
			}
			if (!cur) {
				q = xrealloc(q, (n + 1) * sizeof(*q));
				cur = &q[n++];
				memset(cur, 0, sizeof(*cur));
				memset(cur->has, 0, sizeof(cur->has));
				cur->lid = l;
				cur->port = p;
				cur->cap = cap;
				cur->cap2 = cap2;
			} else if (cap >= 0 && cur->cap < 0) {
				cur->cap = cap;
				cur->cap2 = cap2;
			}
			cur->blocks[ext]++;
			continue;
		}
		if (!cur || !(d = strchr(s, ':')) || (size_t)(d - s) >= sizeof(name))
			continue;
		memcpy(name, s, (size_t)(d - s));
		name[d - s] = 0;
		while (*++d == '.')
			;
		i = pc_index(name);
		if (i == PC_N || num(d, 0, UINT64_MAX, &v))
			continue;
		cur->v[ext][i] = v;
		cur->has[ext][i] = 1;
	}
	if (sums)
		imp_dropped(im, "%s: %u block(s) of every port's counters summed "
			    "(port 255, perfquery -a): no one port's, not kept",
			    origin, sums);
	if (over)
		imp_dropped(im, "%s: %u block(s) past the first %d ports: not "
			    "kept", origin, over, PQ_MAX);
	if (!n) {
		rc = sums || over ? 0 : 1;
		goto out;
	}
	/* whose counters: the port sos named, a local port by its LID;
	 * any other LID is another node's port (a switch's, most often) */
	remote = xcalloc(n, sizeof(*remote));
	named = !arg_port(arg, dev, sizeof(dev), &tport);
	for (i = 0; i < n && rc >= 0; i++) {
		if ((named && i == 0) ||
		    (!named && !known_port(im, q[i].lid, dev, sizeof(dev), &tport)))
			rc = pq_local(im, origin, &q[i], dev, tport);
		else
			remote[i] = 1, nremote++;
	}
	if (rc >= 0 && nremote)
		rc = pq_fabric(im, origin, q, remote, n);
out:
	free(remote);
	free(q);
	return rc < 0 ? -1 : rc;
}

/* --- iblinkinfo --- */

struct lport {
	unsigned num, lid, state, phys, width, speed, espeed;
	unsigned wsup, ssup, esup;
	uint64_t guid;
	int up, has_remote;
	unsigned rlid, rport;
	uint64_t rguid;		/* read back from fabric.json */
	char rdesc[65];
};

struct lnode {
	int type;
	int bare;		/* made from port lines under no header */
	uint64_t guid;		/* a CA's stands in from its port (see top) */
	unsigned lid, nports;
	char desc[65];
	struct lport *p;
	size_t np;
};

struct linkinfo {
	struct lnode *n;
	size_t nn;
};

static const char *const ib_width_s[] = { "1X", "4X", "8X", "12X", "2X" };
static const char *const ib_speed_s[] = { "2.5 Gbps", "5.0 Gbps", "10.0 Gbps" };
static const char *const ib_espeed_s[] = {
	"14.0625 Gbps", "25.78125 Gbps", "53.125 Gbps", "106.25 Gbps", "",
	"212.5 Gbps",
};
static const char *const ib_state_s[] = { "NoChange", "Down", "Initialize",
					  "Armed", "Active" };
static const char *const ib_phys_s[] = {
	"NoChange", "Sleep", "Polling", "Disabled", "PortConfigurationTraining",
	"LinkUp", "LinkErrorRecovery", "PhyTest"
};

/* "4X" -> 2, "25.78125 Gbps" -> ext 2 ... ; "undefined (32)" as libibmad
 * 44 prints XDR */
static int speed_code(const char *s, unsigned *speed, unsigned *espeed)
{
	unsigned long long v;
	int i;

	*speed = *espeed = 0;
	if (!strncmp(s, "10.0 Gbps (FDR10)", 17)) {
		*speed = 4;
		return 0;
	}
	for (i = 0; i < 3; i++)
		if (!strcmp(s, ib_speed_s[i])) {
			*speed = 1u << i;
			return 0;
		}
	for (i = 0; i < 6; i++)
		if (ib_espeed_s[i][0] && !strcmp(s, ib_espeed_s[i])) {
			*espeed = 1u << i;
			return 0;
		}
	if (!strncmp(s, "undefined (", 11) && !paren_num(s, 255, &v)) {
		*espeed = (unsigned)v;
		return 0;
	}
	return -1;
}

static unsigned width_code(const char *s)
{
	static const unsigned code[] = { 1, 2, 4, 8, 16 };
	int i = lookup(ib_width_s, 5, s);

	return i < 0 ? 0 : code[i];
}

/* "( 4X      25.78125 Gbps Active/  LinkUp)" or "(   Down/ Polling)" */
static int link_str(char *s, struct lport *p)
{
	char *slash = strrchr(s, '/'), *st, *sp;
	int i;

	if (!slash)
		return -1;
	*slash = 0;
	if ((i = lookup(ib_phys_s, 8, trim(slash + 1))) < 0)
		return -1;
	p->phys = (unsigned)i;
	s = trim(s);
	st = strrchr(s, ' ');
	st = st ? st + 1 : s;
	if ((i = lookup(ib_state_s, 5, st)) < 0)
		return -1;
	p->state = (unsigned)i;
	if (st == s)
		return 0;	/* a Down port prints no width or speed */
	/* an old iblinkinfo prints one for a Down port too ("4X 2.5 Gbps
	 * Down/Disabled"): no link runs at it */
	if (p->state < 2)
		return 0;
	st[-1] = 0;
	s = trim(s);
	sp = strchr(s, ' ');
	if (!sp)
		return -1;
	*sp = 0;
	if (!(p->width = width_code(s)) || speed_code(trim(sp + 1), &p->speed,
						      &p->espeed))
		return -1;
	p->up = 1;
	p->wsup = p->width;
	p->ssup = p->speed;
	p->esup = p->espeed;
	return 0;
}

/* '     3    1[  ] "leaf1" (Could be 4X Could be 53.125 Gbps)' */
static int remote_str(char *s, struct lport *p)
{
	unsigned long long l, n;
	char *q, *e, *c;

	s = trim(s);
	if (!strcmp(s, "[  ] \"\" ( )") || !strcmp(s, "\"Port not available\""))
		return 0;
	if (sscanf(s, "%llu %llu[", &l, &n) != 2 || l > 0xffff || n > 255 ||
	    !(q = strchr(s, '"')) || !(e = strrchr(s, '"')) || e == q ||
	    (size_t)(e - q - 1) > 64)
		return -1;
	memcpy(p->rdesc, q + 1, (size_t)(e - q - 1));
	p->rdesc[e - q - 1] = 0;
	p->has_remote = 1;
	p->rlid = (unsigned)l;
	p->rport = (unsigned)n;
	/* get_max_msg(): what both ends support, beyond the active */
	for (c = strstr(e, "Could be "); c; c = strstr(c + 1, "Could be ")) {
		unsigned w, sp, es;
		char val[32];

		if (sscanf(c + 9, "%31[^C)]", val) != 1)
			continue;
		if ((w = width_code(trim(val))))
			p->wsup |= w;
		else if (!speed_code(trim(val), &sp, &es))
			p->ssup |= sp, p->esup |= es;
	}
	return 0;
}

static struct lnode *ln_add(struct linkinfo *li)
{
	struct lnode *n;

	if (li->nn >= MAX_NODES)
		return NULL;
	li->n = xrealloc(li->n, (li->nn + 1) * sizeof(*li->n));
	n = &li->n[li->nn++];
	memset(n, 0, sizeof(*n));
	return n;
}

static int li_port_line(struct lnode *n, char *s)
{
	char *l = strstr(s, "==("), *e = strstr(s, ")==>");
	struct lport p;
	unsigned long long lid, num_;
	uint64_t g = 0;

	if (!l || !e || e < l)
		return -1;
	memset(&p, 0, sizeof(p));
	*l = 0;
	*e = 0;
	s = trim(s);
	if (n->type != 2) {
		char *sp = strchr(s, ' ');

		if (!sp)
			return -1;
		*sp = 0;
		if (hex_guid(s, &g))
			return -1;
		s = trim(sp + 1);
	}
	if (sscanf(s, "%llu %llu[", &lid, &num_) != 2 || lid > 0xffff ||
	    !num_ || num_ > 255)
		return -1;
	if (link_str(l + 3, &p) || remote_str(e + 4, &p))
		return -1;
	p.num = (unsigned)num_;
	p.lid = (unsigned)lid;
	p.guid = g;
	if (n->type == 2)
		n->lid = p.lid;
	else if (!n->guid)
		n->guid = g;
	if (n->np >= 255)
		return -1;
	n->p = xrealloc(n->p, (n->np + 1) * sizeof(*n->p));
	n->p[n->np++] = p;
	if (p.num > n->nports)
		n->nports = p.num;
	return 0;
}

/* "CA: desc:", "Switch: 0x... desc:", the old "Switch 0x... desc:",
 * "Router: desc:" */
static int li_header(char *s, size_t l, struct lnode **np,
		     struct linkinfo *li)
{
	struct lnode *n;
	uint64_t g;
	char *c;

	if (strstr(s, "==(") || !l || s[l - 1] != ':' ||
	    !(!strncmp(s, "CA: ", 4) || !strncmp(s, "Switch: ", 8) ||
	      !strncmp(s, "Switch 0x", 9) || !strncmp(s, "Router: ", 8)))
		return 0;
	s[l - 1] = 0;
	if (!(n = ln_add(li)))
		return -1;
	n->type = s[0] == 'C' ? 1 : s[0] == 'S' ? 2 : 3;
	c = strchr(s, ' ') + 1;
	if (n->type == 2) {
		char *sp = strchr(c, ' ');

		if (!sp || (*sp = 0, hex_guid(c, &g)))
			return -1;
		n->guid = g;
		c = sp + 1;
	}
	snprintf(n->desc, sizeof(n->desc), "%s", c);
	*np = n;
	return 1;
}

/* A port line under no node header (`iblinkinfo | grep Up` keeps only
 * port lines): a CA's starts with its port GUID and is a node of its own,
 * a switch's with the switch LID, one node a LID (its GUID unknown). */
static struct lnode *li_bare(struct linkinfo *li, const char *s)
{
	unsigned long long lid;
	struct lnode *n;
	size_t i;

	if (!strncmp(s, "0x", 2)) {
		if ((n = ln_add(li)))
			n->type = 1;
		return n;
	}
	if (sscanf(s, "%llu", &lid) != 1 || !lid || lid > 0xffff)
		return NULL;
	for (i = 0; i < li->nn; i++)
		if (li->n[i].bare && li->n[i].type == 2 && li->n[i].lid == lid)
			return &li->n[i];
	if ((n = ln_add(li))) {
		n->type = 2;
		n->lid = (unsigned)lid;
	}
	return n;
}

/* the node descriptions bare lines do not print, from the lines that
 * point at them */
static void li_bare_desc(struct linkinfo *li)
{
	size_t i, k, x, y;

	for (i = 0; i < li->nn; i++) {
		struct lnode *n = &li->n[i];

		for (x = 0; n->bare && !n->desc[0] && x < li->nn; x++)
			for (y = 0; y < li->n[x].np && !n->desc[0]; y++) {
				const struct lport *p = &li->n[x].p[y];

				for (k = 0; k < n->np; k++)
					if (p->has_remote && p->rdesc[0] &&
					    p->rlid == (n->type == 2 ? n->lid :
							n->p[k].lid) &&
					    (n->type == 2 || p->rport == n->p[k].num))
						snprintf(n->desc, sizeof(n->desc),
							 "%s", p->rdesc);
			}
	}
}

/* 0, or -1 when the text holds no node; bad: port lines not understood,
 * bare: port lines under no header */
static int li_parse(struct linkinfo *li, const char *text, size_t len,
		    unsigned *bad, unsigned *bare)
{
	struct lines r = { text, text + len };
	char line[LINE_MAX_IB], *s;
	struct lnode *n = NULL, *b;
	size_t l, before;
	int h;

	*bad = *bare = 0;
	while (line_next(&r, line, sizeof(line))) {
		s = trim(line);
		l = strlen(s);
		if (!l)
			continue;
		if ((h = li_header(s, l, &n, li)) < 0)
			return -1;
		if (h)
			continue;
		if (!strstr(s, "==(")) {
			/* a prompt between two runs, a banner: no node's */
			n = NULL;
			continue;
		}
		if (n && !n->bare) {
			if (li_port_line(n, s))
				(*bad)++;
			continue;
		}
		before = li->nn;
		if (!(b = li_bare(li, s))) {
			(*bad)++;
			continue;
		}
		b->bare = 1;
		if (li_port_line(b, s)) {
			(*bad)++;
			if (li->nn > before && !b->np)
				li->nn--;	/* the node it made */
			continue;
		}
		(*bare)++;
	}
	if (*bare)
		li_bare_desc(li);
	for (l = 0; l < li->nn; l++)
		if (li->n[l].np)
			return 0;
	return -1;	/* no port line read: not this tool's output */
}

static void li_free(struct linkinfo *li)
{
	size_t i;

	for (i = 0; i < li->nn; i++)
		free(li->n[i].p);
	free(li->n);
}

/* the node and port a LID names: a switch's LID, a CA port's */
static const struct lnode *li_lid(const struct linkinfo *li, unsigned lid,
				  const struct lport **port)
{
	size_t i, k;

	*port = NULL;
	for (i = 0; lid && i < li->nn; i++) {
		if (li->n[i].type == 2 && li->n[i].lid == lid)
			return &li->n[i];
		for (k = 0; li->n[i].type != 2 && k < li->n[i].np; k++)
			if (li->n[i].p[k].lid == lid) {
				*port = &li->n[i].p[k];
				return &li->n[i];
			}
	}
	return NULL;
}

static void pi_json(struct json *j, const char *key, const struct lport *p)
{
	json_obj_open(j, key);
	if (p->lid)
		json_uint(j, "Lid", p->lid);
	json_uint(j, "LinkState", p->state);
	json_uint(j, "PhysLinkState", p->phys);
	if (p->up) {
		json_uint(j, "LinkWidthSupported", p->wsup);
		json_uint(j, "LinkWidthActive", p->width);
		/* an extended speed hides LinkSpeedActive */
		if (p->speed) {
			json_uint(j, "LinkSpeedSupported", p->ssup);
			json_uint(j, "LinkSpeedActive", p->speed);
		}
		json_uint(j, "LinkSpeedExtSupported", p->esup);
		json_uint(j, "LinkSpeedExtActive", p->espeed);
	}
	json_uint(j, "LocalPort", p->num);
	json_obj_close(j);
}

/* the mad document of a local CA port: its line and the switch port's */
static int li_mad(struct imp *im, const char *origin, const struct linkinfo *li,
		  const struct lnode *n, const struct lport *p, const char *dev,
		  unsigned port)
{
	const struct lnode *rn;
	const struct lport *rp = NULL, *dummy;
	struct buf f = BUF_INIT;
	struct json j;
	char g[24];
	size_t k;
	int rc;

	rn = p->has_remote ? li_lid(li, p->rlid, &dummy) : NULL;
	for (k = 0; rn && k < rn->np; k++)
		if (rn->p[k].num == p->rport)
			rp = &rn->p[k];
	json_init(&j, &f, 0);
	json_obj_open(&j, NULL);
	json_obj_open(&j, "local");
	pi_json(&j, "portinfo", p);
	json_obj_open(&j, "nodeinfo");
	json_uint(&j, "NodeType", (unsigned)n->type);
	snprintf(g, sizeof(g), "0x%016" PRIx64, n->guid);
	json_str(&j, "Guid", g);
	snprintf(g, sizeof(g), "0x%016" PRIx64, p->guid);
	json_str(&j, "PortGuid", g);
	json_uint(&j, "NumPorts", n->nports);
	json_uint(&j, "LocalPort", p->num);
	json_obj_close(&j);
	json_str(&j, "node_desc", n->desc);
	json_obj_close(&j);
	if (rn && rp) {
		json_obj_open(&j, "peer");
		json_uint(&j, "lid", rn->type == 2 ? rn->lid : rp->lid);
		json_obj_open(&j, "nodeinfo");
		json_uint(&j, "NodeType", (unsigned)rn->type);
		json_uint(&j, "NumPorts", rn->nports);
		if (rn->guid) {
			snprintf(g, sizeof(g), "0x%016" PRIx64, rn->guid);
			json_str(&j, "Guid", g);
		}
		json_uint(&j, "LocalPort", rp->num);
		json_obj_close(&j);
		json_str(&j, "node_desc", rn->desc);
		pi_json(&j, "portinfo", rp);
		json_obj_close(&j);
	}
	json_obj_close(&j);
	json_end(&j);
	rc = mad_put(im, origin, dev, port, &f);
	buf_release(&f);
	return rc;
}

/* the local port of a CA line: named by sos, or its GUID in sysfs */
static int li_local(struct imp *im, const char *arg, const struct lport *p,
		    char *dev, size_t n, unsigned *port, uint64_t *node_guid)
{
	const char **devs, **ports;
	char path[256], v[64], c[20];
	size_t nd = imp_list(im, SYS_IB, &devs), np, i, k;
	int found = 0;
	uint64_t g;

	guid_colon(p->guid, c);
	for (i = 0; i < nd && !found; i++) {
		snprintf(path, sizeof(path), SYS_IB "/%s/ports", devs[i]);
		np = imp_list(im, path, &ports);
		for (k = 0; k < np && !found; k++) {
			snprintf(path, sizeof(path), SYS_IB "/%s/ports/%s/gids/0",
				 devs[i], ports[k]);
			if (!sys_line(im, path, v, sizeof(v)) || strlen(v) != 39 ||
			    strcmp(v + 20, c))
				continue;
			snprintf(dev, n, "%s", devs[i]);
			*port = (unsigned)strtoul(ports[k], NULL, 10);
			found = 1;
			snprintf(path, sizeof(path), SYS_IB "/%s/node_guid", devs[i]);
			if (sys_line(im, path, v, sizeof(v)) && !colon_guid(v, &g))
				*node_guid = g;
		}
		free(ports);
	}
	free(devs);
	if (found)
		return 0;
	if (!arg_port(arg, dev, n, port))
		return 1;	/* named, but which CA line is it? the LID says */
	return -1;
}

static int li_fabric(struct imp *im, const char *origin,
		     const struct linkinfo *li)
{
	struct buf out = BUF_INIT;
	struct json j;
	struct jv *nodes;
	char g[24];
	size_t i, k;
	int rc;

	json_init(&j, &out, 0);
	json_arr_open(&j, NULL);
	for (i = 0; i < li->nn; i++) {
		const struct lnode *n = &li->n[i];

		json_obj_open(&j, NULL);
		/* a switch of a filtered output is known by its LID alone */
		if (n->guid) {
			snprintf(g, sizeof(g), "0x%016" PRIx64, n->guid);
			json_str(&j, "guid", g);
		}
		json_uint(&j, "type", (unsigned)n->type);
		json_str(&j, "desc", n->desc);
		json_uint(&j, "num_ports", n->nports);
		if (n->type == 2)
			json_uint(&j, "lid", n->lid);
		json_arr_open(&j, "ports");
		for (k = 0; k < n->np; k++) {
			const struct lport *p = &n->p[k], *rp;
			const struct lnode *rn;

			json_obj_open(&j, NULL);
			json_uint(&j, "port", p->num);
			if (n->type != 2) {
				snprintf(g, sizeof(g), "0x%016" PRIx64, p->guid);
				json_str(&j, "guid", g);
				json_uint(&j, "lid", p->lid);
			}
			json_uint(&j, "state", p->state);
			json_uint(&j, "phys_state", p->phys);
			if (p->up) {
				json_uint(&j, "width_supported", p->wsup);
				json_uint(&j, "width_active", p->width);
				if (p->speed) {
					json_uint(&j, "speed_supported", p->ssup);
					json_uint(&j, "speed_active", p->speed);
				}
				json_uint(&j, "speed_ext_supported", p->esup);
				json_uint(&j, "speed_ext_active", p->espeed);
			}
			rn = p->has_remote ? li_lid(li, p->rlid, &rp) : NULL;
			if (rn) {
				json_obj_open(&j, "remote");
				if (rn->guid) {
					snprintf(g, sizeof(g), "0x%016" PRIx64,
						 rn->guid);
					json_str(&j, "guid", g);
				} else {
					json_uint(&j, "lid", rn->lid);
				}
				json_uint(&j, "port", p->rport);
				json_obj_close(&j);
			} else {
				json_null(&j, "remote");
			}
			json_obj_close(&j);
		}
		json_arr_close(&j);
		json_obj_close(&j);
	}
	json_arr_close(&j);
	json_end(&j);
	/* merged with what perfquery (or ibnetdiscover) told of the same
	 * nodes, read before or after */
	nodes = jparse(out.buf, out.len, NULL, 0);
	buf_release(&out);
	if (!nodes)
		return error("imp-ib: iblinkinfo: bad fabric fragment");
	rc = imp_fabric_merge(im, origin, nodes);
	jfree(nodes);
	return rc;
}

/* the mad document of every CA port sysfs knows as local */
static int li_mads(struct imp *im, const char *origin, const char *arg,
		   struct linkinfo *li)
{
	char dev[64];
	unsigned port;
	size_t i, k;
	int nmad = 0;

	for (i = 0; i < li->nn; i++) {
		struct lnode *n = &li->n[i];

		for (k = 0; n->type == 1 && k < n->np; k++) {
			uint64_t ng = 0;

			if (li_local(im, arg, &n->p[k], dev, sizeof(dev), &port, &ng))
				continue;
			if (ng)
				n->guid = ng;
			if (li_mad(im, origin, li, n, &n->p[k], dev, port) < 0)
				return -1;
			nmad++;
		}
	}
	return nmad;
}

/* fabric.json (ours, or an ibdiagnet import's) back into nodes and ports */
static void li_from_json(const struct jv *f, struct linkinfo *li)
{
	const struct jv *nodes = jget(f, "nodes");
	size_t i, k, m;
	uint64_t g;

	for (i = 0; i < jlen(nodes) && i < MAX_NODES; i++) {
		const struct jv *o = jat(nodes, i), *ports = jget(o, "ports");
		struct lnode *n;

		/* a switch known by its LID alone (a filtered iblinkinfo) */
		if (jstr(o, "guid") ? hex_guid(jstr(o, "guid"), &g) :
		    (g = 0, jint(o, "lid", 0) <= 0))
			continue;
		if (!(n = ln_add(li)))
			continue;
		n->guid = g;
		n->type = (int)jint(o, "type", 0);
		n->lid = (unsigned)jint(o, "lid", 0) & 0xffff;
		n->nports = (unsigned)jint(o, "num_ports", 0) & 0xff;
		snprintf(n->desc, sizeof(n->desc), "%s", jstr(o, "desc") ? jstr(o, "desc") : "");
		n->p = xcalloc(jlen(ports) < 256 ? jlen(ports) + 1 : 256, sizeof(*n->p));
		for (k = 0; k < jlen(ports) && k < 255; k++) {
			const struct jv *po = jat(ports, k), *r = jget(po, "remote");
			struct lport *p = &n->p[n->np++];

			p->num = (unsigned)jint(po, "port", 0) & 0xff;
			p->guid = jstr(po, "guid") && !hex_guid(jstr(po, "guid"), &g) ? g : 0;
			p->lid = (unsigned)jint(po, "lid", 0) & 0xffff;
			p->state = (unsigned)jint(po, "state", 0) & 0xf;
			p->phys = (unsigned)jint(po, "phys_state", 0) & 0xf;
			p->up = jget(po, "width_active") != NULL;
			p->width = (unsigned)jint(po, "width_active", 0) & 0xff;
			p->speed = (unsigned)jint(po, "speed_active", 0) & 0xf;
			p->espeed = (unsigned)jint(po, "speed_ext_active", 0) & 0x1f;
			p->wsup = (unsigned)jint(po, "width_supported", 0) & 0xff;
			p->ssup = (unsigned)jint(po, "speed_supported", 0) & 0xf;
			p->esup = (unsigned)jint(po, "speed_ext_supported", 0) & 0x1f;
			if (jstr(r, "guid") && !hex_guid(jstr(r, "guid"), &g)) {
				p->has_remote = 1;
				p->rguid = g;
				p->rport = (unsigned)jint(r, "port", 0) & 0xff;
			} else if (!jget(r, "guid") && jint(r, "lid", 0) > 0) {
				p->has_remote = 2;	/* by its LID: kept */
				p->rlid = (unsigned)jint(r, "lid", 0) & 0xffff;
				p->rport = (unsigned)jint(r, "port", 0) & 0xff;
			}
		}
	}
	/* the far end's LID, as iblinkinfo printed it */
	for (i = 0; i < li->nn; i++)
		for (k = 0; k < li->n[i].np; k++) {
			struct lport *p = &li->n[i].p[k];
			size_t x;

			for (x = 0; p->has_remote == 1 && x < li->nn; x++) {
				const struct lnode *r = &li->n[x];

				if (r->guid != p->rguid)
					continue;
				p->rlid = r->type == 2 ? r->lid : 0;
				for (m = 0; r->type != 2 && m < r->np; m++)
					if (r->p[m].num == p->rport)
						p->rlid = r->p[m].lid;
			}
		}
}

static int li_stored(struct imp *im, const char *origin)
{
	struct linkinfo li = { NULL, 0 };
	const char *f;
	struct jv *doc;
	size_t len;
	int rc;

	f = imp_get(im, "rdma-collect/fabric/fabric.json", &len);
	if (!f || !(doc = jparse(f, len, NULL, 0)))
		return 0;
	li_from_json(doc, &li);
	jfree(doc);
	rc = li_mads(im, origin, NULL, &li) < 0 ? -1 : 0;
	li_free(&li);
	return rc;
}

int ib_iblinkinfo(struct imp *im, const char *text, size_t len,
			    const char *origin, const char *arg)
{
	struct linkinfo li = { NULL, 0 };
	unsigned bad, bare;
	int rc = 1;

	if (li_parse(&li, text, len, &bad, &bare) < 0)
		goto out;
	if (bad)
		imp_dropped(im, "%s: %u iblinkinfo port line(s) not understood: "
			    "not kept", origin, bad);
	/* a filtered output is read as far as it goes: what the filter took
	 * away is not this reader's to have dropped (a note, not partial) */
	if (bare)
		imp_note(im, "%s: %u port line(s) under no node header (a "
			    "filtered iblinkinfo): the switches' GUIDs and "
			    "every line the filter left out are not in the "
			    "text", origin, bare);
	/* the GUIDs of sysfs's ports say which CA is this node (ibstat,
	 * read later, looks again) */
	rc = li_mads(im, origin, arg, &li);
	if (rc >= 0)
		rc = li_fabric(im, origin, &li);
out:
	li_free(&li);
	return rc;
}
