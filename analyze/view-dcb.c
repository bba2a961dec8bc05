/* view-dcb: `dcb [-s] pfc show dev IFACE` as iproute2's dcb/dcb_pfc.c
 * prints it (each line ends in a space, as print_*() leave it), from the
 * stored rdma-collect/dcb/<if>.json; a value the evidence lacks (an
 * imported mlnx_qos has no pfc-cap) is left out, not made up */
#include <stdio.h>
#include <string.h>

#include "log.h"
#include "view.h"

static void u64_array(const struct jv *a, FILE *out)
{
	size_t i;

	for (i = 0; i < 8; i++)
		fprintf(out, "%zu:%llu ", i,
			(unsigned long long)juint(jat(a, i), NULL, 0));
}

static int show(const struct bundle_r *b, int argc, char **argv, FILE *out)
{
	char p[512];
	const struct jv *pfc;
	struct jv *d;
	int stats = 0, i, rc = 0;
	int64_t en;

	if (argc > 0 && (!strcmp(argv[0], "-s") || !strcmp(argv[0], "-statistics") ||
			 !strcmp(argv[0], "--statistics"))) {
		stats = 1;
		argc--;
		argv++;
	}
	if (argc != 4 || strcmp(argv[0], "pfc") || strcmp(argv[1], "show") ||
	    strcmp(argv[2], "dev") || strchr(argv[3], '/'))
		return error("dcb: usage: dcb [-s] pfc show dev IFACE");
	snprintf(p, sizeof(p), "rdma-collect/dcb/%s.json", argv[3]);
	d = br_json(b, p);
	if (!d)
		return error("%s: no DCB evidence for '%s' (%s)", b->file, argv[3], p);
	pfc = jget(d, "pfc");
	if (!jstr(d, "status") || strcmp(jstr(d, "status"), "ok") || !pfc) {
		rc = error("dcb: %s: no DCB support (status %s)", argv[3],
			   jstr(d, "status") ? jstr(d, "status") : "?");
		goto out;
	}
	/* what mlnx_qos -i gave has no pfc-cap nor macsec-bypass: only
	 * what the evidence holds is printed */
	if (jget(pfc, "pfc_cap"))
		fprintf(out, "pfc-cap %d ", (int)jint(pfc, "pfc_cap", 0));
	if (jget(pfc, "mbc"))
		fprintf(out, "macsec-bypass %s ", jint(pfc, "mbc", 0) ? "on" : "off");
	if (jget(pfc, "delay"))
		fprintf(out, "delay %d ", (int)jint(pfc, "delay", 0));
	if (jget(pfc, "pfc_cap") || jget(pfc, "mbc") || jget(pfc, "delay"))
		fputc('\n', out);
	/* a pasted `dcb -s pfc show dev IF indications` has no map */
	if (jget(pfc, "pfc_en")) {
		en = jint(pfc, "pfc_en", 0);
		fprintf(out, "prio-pfc ");
		for (i = 0; i < 8; i++)
			fprintf(out, "%d:%s ", i, en & (1 << i) ? "on" : "off");
		fputc('\n', out);
	}
	/* a paste that named one of the counters holds only that one */
	if (stats && (jget(pfc, "requests") || !jget(pfc, "indications"))) {
		fprintf(out, "requests ");
		u64_array(jget(pfc, "requests"), out);
		fputc('\n', out);
	}
	if (stats && (jget(pfc, "indications") || !jget(pfc, "requests"))) {
		fprintf(out, "indications ");
		u64_array(jget(pfc, "indications"), out);
		fputc('\n', out);
	}
out:
	jfree(d);
	return rc;
}

const struct view view_dcb = {
	.name = "dcb",
	.usage = "[-s] pfc show dev IFACE",
	.help = "PFC settings as iproute2 dcb pfc show",
	.show = show,
};
