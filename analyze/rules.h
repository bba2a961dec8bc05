/* rules: the checks (schema/RULES.md lists them) as data.
 *
 * A rule is one `const struct rule`: id, layer, severity, title, what
 * evidence it needs (sources that must be ok or partial, and what an
 * import must hold: rules-import.c's needs), the thresholds it reads,
 * remediation, and an SQL query (analyze/rules/<ID>.sql, runnable in
 * sqlite3 on a loaded database once the runner's temporary tables and
 * views exist), a check function in the file of its row, or both.  Rules
 * only add findings; they never print.  The registry (rules.c) lists every rule's table; `rdma-
 * analyze rules` prints it and the rule reference is generated from it.
 *
 * An SQL rule runs once per rule over the bundles in the temporary table
 * `todo_rule(bundle_id)` (the bundles being diagnosed whose needed sources
 * are present) and returns one row per finding:
 *     bundle_id, component, summary, evidence, severity
 * evidence is "path\tvalue" lines; severity NULL means the rule's default.
 * Thresholds are in the temporary table thresholds(name, value); a row
 * names those its rule reads.
 */
#ifndef RDMA_ANALYZE_RULES_H
#define RDMA_ANALYZE_RULES_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

enum severity { SEV_INFO, SEV_WARNING, SEV_CRITICAL };

/* the layers, in the report's order (the columns of its grid); their
 * names, as findings.layer and `rules` spell them, are layer_name()'s
 * table in rules.c */
enum layer {
	LAYER_HCA, LAYER_KERNEL, LAYER_SM, LAYER_VERBS, LAYER_PERF, LAYER_APP,
	LAYER_FLEET, LAYER_HISTORY, LAYER_PAIRS, LAYER_EVIDENCE,
	LAYER_COUNT
};

const char *layer_name(enum layer l);
/* the layer of that name, or -1 */
int layer_find(const char *name);

struct imp_need;	/* rules-import.c */

struct rctx {
	sqlite3 *db;
	const struct rule *rule;
};

struct rule {
	const char *id;
	enum layer layer;
	int severity;
	const char *title;
	const char *needs;	/* comma-separated sources */
	/* what an import must hold for it (rules-import.c), NULL-terminated;
	 * NULL: nothing beyond its sources */
	const struct imp_need *const *imp_needs;
	/* the thresholds it reads (names of thresholds[], space-separated),
	 * through its query, the views that query reads, or its check */
	const char *thresholds;
	const char *evidence;	/* what it reads, for `rules` and the docs */
	const char *remediation;
	int sql;	/* 1: its query is analyze/rules/<id>.sql (rule_sql()) */
	int (*check)(struct rctx *rc);	/* over todo_rule; 0 or -1 */
	/* non-NULL: the rule reads what only mlx5 reports (this text says
	 * what); a bundle without an mlx5 device is skipped with the
	 * reason, the check neither passes nor fails there */
	const char *mlx5_only;
};

/* a NULL-id-terminated table per file */
extern const struct rule rules_pci[], rules_hca[], rules_kernel[], rules_sm[],
	rules_verbs[], rules_perf[], rules_app[], rules_evidence[],
	rules_fleet[];
extern const struct rule rules_history[];	/* rules-history.c */
extern const struct rule rules_pairs[];	/* rules-pairs.c */
extern const struct rule rules_counters[];	/* rules-counters.c */
extern const struct rule rules_klog_extra[];	/* rules-klog-extra.c */

/* generated from analyze/rules/ by the Makefile ($(BUILD)/gen/rules-sql.c):
 * each <ID>.sql as id, text pairs, NULL-terminated; the lower-case files
 * are the temporary views the runner creates before the rules run */
extern const char *const rules_sql[];
extern const char *const rules_sql_views[];
/* the text of analyze/rules/<id>.sql, or NULL */
const char *rule_sql(const char *id);

/* all rules, in report order; NULL-terminated */
const struct rule *const *rules_all(void);
const struct rule *rule_find(const char *id);

/* add a finding (severity < 0: the rule's default); returns its id */
int64_t finding_add(struct rctx *rc, int64_t bundle_id, int severity,
		    const char *component, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
void finding_evidence(struct rctx *rc, int64_t finding_id, const char *path,
		      const char *fmt, ...) __attribute__((format(printf, 4, 5)));

struct threshold {
	const char *name;
	double value;
	const char *help;
};
extern const struct threshold thresholds[];

/* fill the thresholds table (defaults, then file overrides: "name value"
 * lines); 0 or -1 with a message */
int thresholds_load(sqlite3 *db, const char *file);
double threshold(sqlite3 *db, const char *name);
/* does rule r list threshold name among those it reads? */
int rule_reads(const struct rule *r, const char *name);

/* rules-import.c: what an import must hold for a rule, each need once;
 * a row points at its own (IMP_NEEDS(&need_a, &need_b)) */
extern const struct imp_need need_port_counters, need_own_counters,
	need_flap_evidence, need_hw_counters, need_uptime, need_pfc,
	need_iommu, need_pcie_link, need_acs, need_sminfo, need_sm_state,
	need_nccl_env, need_gid_table, need_module_list, need_peermem,
	need_port_state, need_gpus, need_hugepages, need_memlock,
	need_container;
#define IMP_NEEDS(...) ((const struct imp_need *const[]){ __VA_ARGS__, NULL })
/* drop from todo_rule the imports without the evidence rule r reads (its
 * imp_needs), each with a skipped row saying what would carry it */
int rules_import_skip(sqlite3 *db, const struct rule *r);
/* diagnose bundles (ids); replaces their earlier findings */
int rules_run(sqlite3 *db, const int64_t *ids, size_t n);

/* the fleet pass (rules-fleet.c): the rules of layer fleet over the set
 * ids (each node against its class's majority or the baseline); replaces
 * the set's earlier fleet findings */
int rules_run_fleet(sqlite3 *db, const int64_t *ids, size_t n);
/* the baseline instead of the majority: a loaded bundle (for its class),
 * or a file of "ATTRIBUTE VALUE" lines (rdma-analyze(1)) */
int fleet_baseline_bundle(sqlite3 *db, int64_t bundle_id);
int fleet_baseline_file(sqlite3 *db, const char *file);

const char *severity_name(int sev);

#endif
