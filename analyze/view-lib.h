/* view-lib: what the InfiniBand fabric views (sminfo, perfquery, iblinkinfo,
 * ibnetdiscover, ibroute) share: libibmad 44's strings for PortInfo values,
 * node descriptions cleaned as infiniband-diags cleans them, the stored MAD
 * documents (rdma-collect/mad/IBDEV.PORT.json) and the stored fabric scan
 * (rdma-collect/fabric/fabric.json) indexed by GUID and LID.
 *
 * Both documents are hostile input: every number is cut to the width of
 * its MAD field, ports outside 0..NumPorts and duplicate nodes are
 * dropped, strings are bounded.  Ownership: ib_fabric_release() frees
 * what ib_fabric_load() built, including the JSON tree the pma/lft
 * pointers point into.
 */
#ifndef RDMA_ANALYZE_VIEW_LIB_H
#define RDMA_ANALYZE_VIEW_LIB_H

#include <stddef.h>
#include <stdint.h>

#include "breader.h"

#define IB_NODE_CA	1
#define IB_NODE_SWITCH	2
#define IB_NODE_ROUTER	3

#define IB_DESC_MAX	64	/* NodeDescription: 64 bytes */
#define IB_MAX_UCAST_LID 0xbfff

#define IB_MAD_DIR	"rdma-collect/mad"
#define IB_FABRIC_JSON	"rdma-collect/fabric/fabric.json"

/* mad_dump_linkwidth, _linkspeed, _linkspeedext, _portstate,
 * _physportstate of libibmad 44: the string of a raw value in buf */
const char *ib_width_str(unsigned v, char *buf, size_t n);
const char *ib_speed_str(unsigned v, char *buf, size_t n);
const char *ib_speedext_str(unsigned v, char *buf, size_t n);
const char *ib_state_str(unsigned v, char *buf, size_t n);
const char *ib_physstate_str(unsigned v, char *buf, size_t n);

/* clean_nodedesc(): at most 64 bytes, every unprintable byte a space */
void ib_desc(const char *in, char out[IB_DESC_MAX + 1]);
/* the same for any stored string quoted in a message (a reason, an
 * error): at most n - 1 bytes, never a control character */
const char *ib_clean(const char *in, char *out, size_t n);
/* a GUID stored as "0x" and hex digits; 0 when absent or malformed */
uint64_t ib_guid(const struct jv *obj, const char *key);
/* obj[key] cut to the low `bits` bits (a MAD field of that width); dflt
 * when absent or not a number */
uint64_t ib_field(const struct jv *obj, const char *key, unsigned bits,
		  uint64_t dflt);

struct ib_node;

struct ib_port {
	struct ib_node *node;
	unsigned num;
	uint64_t guid;
	unsigned lid, lmc, state, phys_state;
	unsigned width_enabled, width_supported, width_active;
	unsigned speed_enabled, speed_supported, speed_active;
	unsigned speed_ext_enabled, speed_ext_supported, speed_ext_active;
	long cap_mask;		/* PortInfo CapabilityMask; -1: not stored */
	int has_remote;
	uint64_t remote_guid;	/* as stored: the far node's (or port's) GUID */
	unsigned remote_num;
	struct ib_port *remote;	/* resolved; NULL when not in the scan */
	const struct jv *pma;	/* { "PortCounters": ..., ... } or NULL */
};

struct ib_node {
	uint64_t guid, sys_guid;
	uint64_t port_guid;	/* NodeInfo PortGUID when stored (mad), or 0 */
	unsigned type, num_ports, lid, lmc, vendor_id, device_id;
	char desc[IB_DESC_MAX + 1];
	const char *dr_path;	/* NULL when not stored */
	struct ib_port **port;	/* [0..num_ports]; NULL where none */
	const struct jv *lft;	/* switches: index LID, value exit port */
	const struct jv *pma;	/* { "ClassPortInfo": ... } (scan) or NULL */
	int dup;		/* its GUID came earlier: skipped */
};

struct ib_fabric {
	struct jv *doc;		/* the fabric scan */
	struct jv **mads;	/* or the mad documents */
	size_t nmads;
	struct ib_node *node;	/* in the stored order (libibnetdisc's) */
	size_t n;
	const char *status, *reason;
	const char *from_ibdev;
	unsigned from_port;
	struct ib_node **by_guid;	/* sorted, for ib_fabric_node() */
	size_t n_guid;
	struct ib_lidref {
		struct ib_node *node;
		struct ib_port *port;
	} *by_lid;			/* [0x10000], for ib_fabric_lid() */
};

/* 0, or -1 with one line printed (no scan in the bundle, bad JSON) */
int ib_fabric_load(const struct bundle_r *b, struct ib_fabric *f);
/* the part of the fabric the MAD documents show: each local CA and port,
 * and the node and port at the far end of its cable; 0, or -1 with one
 * line printed when there is no MAD document */
int ib_fabric_from_mad(const struct bundle_r *b, struct ib_fabric *f);
void ib_fabric_release(struct ib_fabric *f);
struct ib_node *ib_fabric_node(const struct ib_fabric *f, uint64_t guid);
/* the node a LID addresses (a switch's LID, a CA port's LID range) and, in
 * *port, that CA port or the switch's port 0 (NULL when not stored) */
struct ib_node *ib_fabric_lid(const struct ib_fabric *f, unsigned lid,
			      struct ib_port **port);
/* NodeInfo PortGUID of a switch: its port 0's GUID, else the stored
 * NodeInfo PortGUID, else the node GUID */
uint64_t ib_switch_port_guid(const struct ib_node *n);
/* the PortInfo CapabilityMask that decides extended speeds for a port:
 * a switch's port 0's, a CA port's own; -1 when not stored */
long ib_port_cap_mask(const struct ib_port *p);
/* LinkSpeedExtActive when the port has extended speeds (CapabilityMask bit
 * 14; with no mask stored: when the value is not 0), else 0 */
unsigned ib_port_espeed(const struct ib_port *p);

/* the names of the MAD documents (IB_MAD_DIR/<ibdev>.<port>.json),
 * sorted; *names malloc'ed, strings in the bundle */
size_t ib_mad_docs(const struct bundle_r *b, const char ***names);
/* the MAD document of CA:PORT (ca NULL: the first; port 0: any), parsed
 * (jfree it); NULL with one line printed when there is none */
struct jv *ib_mad_load(const struct bundle_r *b, const char *ca,
		       unsigned port, const char *tool);

#endif
