/* view-rdma: `rdma link show [DEV[/PORT]]` as iproute2's rdma tool prints
 * it (rdma/link.c: "link DEV/PORT", the subnet prefix, LIDs and LMC of an
 * InfiniBand port, state, physical state, the netdev of an Ethernet port,
 * each "name value " with its trailing space), from the sysfs evidence and
 * rdma-collect/ibdev2netdev.json instead of the kernel's netlink answer.
 * Devices come in name order with numbers compared as numbers, which is
 * the order they register in (mlx5_2 before mlx5_10). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "view.h"

static const char *link_state_str(long s)
{
	static const char *const n[] = { "NOP", "DOWN", "INIT", "ARMED",
					 "ACTIVE", "ACTIVE_DEFER" };

	return s >= 0 && s < (long)(sizeof(n) / sizeof(n[0])) ? n[s] : "UNKNOWN";
}

static const char *phys_state_str(long s)
{
	static const char *const n[] = {
		"NOP", "SLEEP", "POLLING", "DISABLED", "ARMED", "LINK_UP",
		"LINK_ERROR_RECOVER", "PHY_TEST", "UNKNOWN", "OPA_OFFLINE",
		"UNKNOWN", "OPA_TEST",
	};

	return s >= 0 && s < (long)(sizeof(n) / sizeof(n[0])) ? n[s] : "UNKNOWN";
}

static int cmp_vers(const void *x, const void *y)
{
	return strverscmp(*(const char *const *)x, *(const char *const *)y);
}

/* a sysfs number: "4: ACTIVE" (state), "0x1" (lid) or "0"; -1 if absent */
static long port_num(const struct bundle_r *b, const char *dir,
		     const char *name)
{
	char p[640], v[64], *end;
	long n;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	if (!br_line(b, p, v, sizeof(v)))
		return -1;
	n = strtol(v, &end, 0);
	return end == v ? -1 : n;
}

static const char *port_netdev(const struct jv *map, const char *dev,
			       long port)
{
	size_t i;

	for (i = 0; i < jlen(map); i++) {
		const struct jv *e = jat(map, i);

		if (jstr(e, "ibdev") && !strcmp(jstr(e, "ibdev"), dev) &&
		    jint(e, "port", 0) == port)
			return jstr(e, "netdev");
	}
	return NULL;
}

static void print_port(const struct bundle_r *b, const struct jv *map,
		       const char *dev, const char *port, FILE *out)
{
	char dir[512], p[640], ll[32], gid[64];
	const char *nd;
	long pn = strtol(port, NULL, 10);

	snprintf(dir, sizeof(dir), "sys/class/infiniband/%s/ports/%s", dev, port);
	snprintf(p, sizeof(p), "%s/link_layer", dir);
	if (!br_line(b, p, ll, sizeof(ll)))
		ll[0] = 0;
	fprintf(out, "link %s/%ld ", dev, pn);
	/* the kernel reports these for InfiniBand ports only; the subnet
	 * prefix is the first half of GID 0 */
	if (!strcmp(ll, "InfiniBand")) {
		snprintf(p, sizeof(p), "%s/gids/0", dir);
		if (br_line(b, p, gid, sizeof(gid)) && strlen(gid) >= 19)
			fprintf(out, "subnet_prefix %.19s ", gid);
		if (port_num(b, dir, "lid") >= 0)
			fprintf(out, "lid %ld ", port_num(b, dir, "lid"));
		if (port_num(b, dir, "sm_lid") >= 0)
			fprintf(out, "sm_lid %ld ", port_num(b, dir, "sm_lid"));
		if (port_num(b, dir, "lid_mask_count") >= 0)
			fprintf(out, "lmc %ld ", port_num(b, dir, "lid_mask_count"));
	}
	if (port_num(b, dir, "state") >= 0)
		fprintf(out, "state %s ", link_state_str(port_num(b, dir, "state")));
	if (port_num(b, dir, "phys_state") >= 0)
		fprintf(out, "physical_state %s ",
			phys_state_str(port_num(b, dir, "phys_state")));
	nd = strcmp(ll, "Ethernet") ? NULL : port_netdev(map, dev, pn);
	if (nd)
		fprintf(out, "netdev %s ", nd);
	fputc('\n', out);
}

static int show(const struct bundle_r *b, int argc, char **argv, FILE *out)
{
	const char **devs = NULL, **ports = NULL, *want = NULL;
	char want_dev[256] = "", path[512];
	long want_port = 0;
	struct jv *map = NULL;
	size_t n, np, i, j;
	int found = 0, rc = 0;

	if (argc > 0 && strcmp(argv[0], "link"))
		return error("rdma: only 'link [show [DEV[/PORT]]]' is a view");
	if (argc > 1 && strcmp(argv[1], "show"))
		return error("rdma link: only 'show' is a view");
	if (argc > 3)
		return error("rdma link show: usage: rdma link show [DEV[/PORT]]");
	if (argc == 3) {
		char *slash;

		want = argv[2];
		snprintf(want_dev, sizeof(want_dev), "%s", want);
		slash = strchr(want_dev, '/');
		if (slash) {
			*slash = 0;
			want_port = strtol(slash + 1, NULL, 10);
			if (want_port <= 0)
				return error("rdma link show: bad port in '%s'", want);
		}
	}
	map = br_json(b, "rdma-collect/ibdev2netdev.json");
	n = br_list(b, "sys/class/infiniband", &devs);
	if (n > 1)
		qsort(devs, n, sizeof(*devs), cmp_vers);
	for (i = 0; i < n; i++) {
		if (want && strcmp(devs[i], want_dev))
			continue;
		snprintf(path, sizeof(path), "sys/class/infiniband/%s/ports",
			 devs[i]);
		np = br_list(b, path, &ports);
		if (np > 1)
			qsort(ports, np, sizeof(*ports), cmp_vers);
		for (j = 0; j < np; j++) {
			if (want_port && strtol(ports[j], NULL, 10) != want_port)
				continue;
			print_port(b, map, devs[i], ports[j], out);
			found = 1;
		}
		free(ports);
	}
	if (want && !found)
		rc = error("rdma link show: no link '%s' in the bundle", want);
	free(devs);
	jfree(map);
	return rc;
}

const struct view view_rdma = {
	.name = "rdma",
	.usage = "link [show [DEV[/PORT]]]",
	.help = "RDMA ports as iproute2's rdma link show (sysfs)",
	.show = show,
};
