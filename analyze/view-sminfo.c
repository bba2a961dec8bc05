/* view-sminfo: `sminfo [-C CA] [-P PORT]` as infiniband-diags' sminfo.c
 * prints it, from the SMInfo the mad source got from the SM LID of the
 * local PortInfo (rdma-collect/mad/<ibdev>.<port>.json "sminfo") */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "view.h"
#include "view-lib.h"

static const char *const sm_state_str[] = {
	"SMINFO_NOTACT", "SMINFO_DISCOVER", "SMINFO_STANDBY", "SMINFO_MASTER"
};

static int show(const struct bundle_r *b, int argc, char **argv, FILE *out)
{
	const char *ca = NULL, *why;
	char cwhy[160], cdev[IB_DESC_MAX + 1];
	unsigned long port = 0;
	const struct jv *sm;
	struct jv *doc;
	unsigned state;
	int i;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "-C") && i + 1 < argc)
			ca = argv[++i];
		else if (!strcmp(argv[i], "-P") && i + 1 < argc)
			port = strtoul(argv[++i], NULL, 0);
		else
			return error("sminfo: usage: sminfo [-C CA] [-P PORT]");
	}
	doc = ib_mad_load(b, ca, (unsigned)(port & 0xff), "sminfo");
	if (!doc)
		return -1;
	sm = jget(doc, "sminfo");
	if (!sm || sm->t != J_OBJ) {
		why = jstr(jget(doc, "errors"), "sminfo");
		error("sminfo: no SMInfo in %s for %s port %u (%s)", b->file,
		      ib_clean(jstr(doc, "ibdev") ? jstr(doc, "ibdev") : "?",
			       cdev, sizeof(cdev)),
		      (unsigned)ib_field(doc, "port", 8, 0),
		      why ? ib_clean(why, cwhy, sizeof(cwhy)) : "not collected");
		jfree(doc);
		return -1;
	}
	state = (unsigned)ib_field(sm, "SmState", 4, 0);
	fprintf(out, "sminfo: sm lid %d sm guid 0x%" PRIx64 ", activity count "
		"%u priority %d state %d %s\n", (int)ib_field(sm, "lid", 16, 0),
		ib_guid(sm, "SmInfoGuid"),
		(unsigned)ib_field(sm, "SmActivity", 32, 0),
		(int)ib_field(sm, "SmPriority", 4, 0), (int)state,
		state < 4 ? sm_state_str[state] : "???");
	jfree(doc);
	return 0;
}

const struct view view_sminfo = {
	.name = "sminfo",
	.usage = "[-C CA] [-P PORT]",
	.help = "the master SM as sminfo (mad source: SMInfo)",
	.show = show,
};
