/* rules-pairs: the pairwise-localization findings.  They belong to pairs
 * of nodes, not to one bundle, so the report's per-bundle run has nothing
 * to check: `rdma-analyze pairs` (pairs-run.c) makes them from the pair
 * results and the topology.  They are listed here so that `rdma-analyze
 * rules` and schema/RULES.md name them with the others. */
#include <stddef.h>

#include "rules.h"

#define PAIRS_EVIDENCE "pair results: --results CSV, NCCL completion errors " \
	"(nccl_events), perftest runs (perftest_results); routes from the " \
	"newest fabric scan's LFTs, else the mad peers; error counters of the " \
	"component (fabric_counters, mad_counters, counters)"

/* a perftest run below this share of line rate is a failing pair
 * (pairs-input.c reads its default) */
#define PAIRS_THRESHOLDS "bw_ratio"

const struct rule rules_pairs[] = {
	{
		.id = "PAIR_SUSPECT_LINK",
		.layer = LAYER_PAIRS,
		.severity = SEV_CRITICAL,
		.title = "rdma-analyze pairs: failing pairs are best explained by one link, one direction of it, or a host cable (with its failing and passing pair counts and its counters)",
		.needs = "",
		.thresholds = PAIRS_THRESHOLDS,
		.evidence = PAIRS_EVIDENCE,
		.remediation = "Check the cable end to end: reseat or replace it (or the module), compare both ends' symbol and receive error counters after clearing them (perfquery -R), and re-run the failing pairs.",
	},
	{
		.id = "PAIR_SUSPECT_NODE",
		.layer = LAYER_PAIRS,
		.severity = SEV_CRITICAL,
		.title = "rdma-analyze pairs: failing pairs are best explained by one node or HCA (all its pairs fail, no error counted on its cable)",
		.needs = "",
		.thresholds = PAIRS_THRESHOLDS,
		.evidence = PAIRS_EVIDENCE,
		.remediation = "Diagnose the node itself (rdma-analyze on its bundle: HCA, firmware, driver, PCIe, memlock, NCCL settings); drain it from jobs until its pairs pass.",
	},
	{
		.id = "PAIR_SUSPECT_SWITCH",
		.layer = LAYER_PAIRS,
		.severity = SEV_CRITICAL,
		.title = "rdma-analyze pairs: failing pairs are best explained by one switch (more pairs than any of its ports or links)",
		.needs = "",
		.thresholds = PAIRS_THRESHOLDS,
		.evidence = PAIRS_EVIDENCE,
		.remediation = "Check the switch's health (ibqueryerrors, its logs, its forwarding tables: rdma-analyze path on a failing pair) and move traffic off it.",
	},
	{
		.id = "PAIR_AMBIGUOUS",
		.layer = LAYER_PAIRS,
		.severity = SEV_WARNING,
		.title = "rdma-analyze pairs: several components explain the failures equally; every candidate is named with the untested pair that would tell them apart",
		.needs = "",
		.thresholds = PAIRS_THRESHOLDS,
		.evidence = PAIRS_EVIDENCE,
		.remediation = "Run the suggested pair test (and others crossing only one candidate), add the results to the CSV and run rdma-analyze pairs again.",
	},
	{ 0 },
};
