/* atest-verdict: verdict_write (analyze/verdict.c), the one-node verdict
 * that `check -f json` prints: a bundle's findings with their evidence and
 * remediation (null when the rule gives none), its skipped checks and the
 * worst severity, as one document; a bundle without findings has worst
 * null; an unknown bundle id writes nothing and fails */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "db.h"
#include "t.h"
#include "verdict.h"

static const char want[] =
	"{\n"
	"  \"verdict_version\": 1,\n"
	"  \"node\": \"gpu-a01\",\n"
	"  \"bundle\": \"gpu-a01.rdma.tar.zst\",\n"
	"  \"sha256\": \"" "0123456789abcdef0123456789abcdef"
	"0123456789abcdef0123456789abcdef" "\",\n"
	"  \"collected_at\": \"2025-11-29T21:04:05Z\",\n"
	"  \"machine_id\": null,\n"
	"  \"worst\": \"critical\",\n"
	"  \"findings\": [\n"
	"    {\n"
	"      \"rule\": \"PCIE_LINK_DEGRADED\",\n"
	"      \"layer\": \"hca\",\n"
	"      \"severity\": \"critical\",\n"
	"      \"node\": \"gpu-a01\",\n"
	"      \"component\": \"0000:3c:00.0\",\n"
	"      \"summary\": \"x8 below x16\",\n"
	"      \"evidence\": [\n"
	"        {\n"
	"          \"path\": \"sys/bus/pci/devices/0000:3c:00.0/current_link_width\",\n"
	"          \"value\": \"8\"\n"
	"        }\n"
	"      ],\n"
	"      \"remediation\": \"Reseat the card.\"\n"
	"    },\n"
	"    {\n"
	"      \"rule\": \"PORT_DOWN\",\n"
	"      \"layer\": \"hca\",\n"
	"      \"severity\": \"info\",\n"
	"      \"node\": \"gpu-a01\",\n"
	"      \"component\": \"mlx5_3:1\",\n"
	"      \"summary\": \"disabled\",\n"
	"      \"evidence\": [],\n"
	"      \"remediation\": null\n"
	"    }\n"
	"  ],\n"
	"  \"skipped\": [\n"
	"    {\n"
	"      \"rule\": \"SM_NOT_MASTER\",\n"
	"      \"reason\": \"source mad missing\"\n"
	"    }\n"
	"  ]\n"
	"}\n";

/* verdict_write of bundle bid into a string (NULL when it fails) */
static char *verdict(sqlite3 *db, int64_t bid, int *rc)
{
	char *s = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&s, &n);

	if (!f)
		return NULL;
	*rc = verdict_write(db, bid, f);
	fclose(f);
	return s;
}

static int fill(sqlite3 *db)
{
	return db_run(db,
		"INSERT INTO nodes (id, name) VALUES (1, 'gpu-a01');"
		"INSERT INTO bundles (id, sha256, file, node_id, hostname, "
		"collected_at) VALUES (7, '0123456789abcdef0123456789abcdef"
		"0123456789abcdef0123456789abcdef', 'gpu-a01.rdma.tar.zst', 1, "
		"'gpu-a01', '2025-11-29T21:04:05Z'), (8, 'ff', NULL, 1, "
		"'gpu-a01', NULL);"
		"INSERT INTO findings (id, bundle_id, rule, layer, severity, "
		"component, summary, remediation) VALUES "
		"(1, 7, 'PORT_DOWN', 'hca', 0, 'mlx5_3:1', 'disabled', NULL), "
		"(2, 7, 'PCIE_LINK_DEGRADED', 'hca', 2, '0000:3c:00.0', "
		"'x8 below x16', 'Reseat the card.');"
		"INSERT INTO finding_evidence (finding_id, path, value) VALUES "
		"(2, 'sys/bus/pci/devices/0000:3c:00.0/current_link_width', '8');"
		"INSERT INTO skipped (bundle_id, rule, reason) VALUES "
		"(7, 'SM_NOT_MASTER', 'source mad missing');");
}

int main(void)
{
	sqlite3 *db = db_open(":memory:");
	char *s;
	int rc = 0;

	T_OK(db && !fill(db), "a database with two bundles of one node");
	if (!db)
		return t_done();
	s = verdict(db, 7, &rc);
	T_OK(rc == 0, "verdict_write of a bundle succeeds");
	T_STREQ(s, want, "its findings worst first, evidence, remediation "
		"(null: none), skipped checks, worst critical");
	free(s);
	s = verdict(db, 8, &rc);
	T_OK(rc == 0 && s && strstr(s, "\"worst\": null,\n") &&
	     strstr(s, "\"bundle\": null,\n") &&
	     strstr(s, "\"findings\": [],\n") && strstr(s, "\"skipped\": []\n"),
	     "a bundle without findings: worst null, no findings");
	free(s);
	s = verdict(db, 9, &rc);
	T_OK(rc == -1 && s && !*s, "an unknown bundle: -1, nothing written");
	free(s);
	db_close(db);
	return t_done();
}
