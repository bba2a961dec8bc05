/* mlxlink: the text that `mlxlink -d <dev> -m -e -c` prints, parsed into
 * the fields the physical-layer checks read.
 *
 * The output is "Title" lines underlined with dashes, then "Key  : value"
 * lines, the column padding varying with the MFT version.  Read:
 * "Operational Info" (State, Physical state, Speed, Width, FEC), "Supported
 * Info" (Enabled Link Speed, Supported Cable Speed), "Physical Counters and
 * BER Info" (Effective Physical Errors, Effective Physical BER, Raw
 * Physical BER, Raw Physical Errors Per Lane) and "Eye Opening Info" /
 * "EYE Opening Info" (Height Eye Opening [mV], Phase Eye Opening [psec],
 * per lane); the other sections ("Troubleshooting Info", "Tool
 * Information", "Module Info", ...) end the one before them.  The host's
 * PCIe link (--port_type PCIE) is not the network link and goes to
 * m->pci: "PCIe Operational (Enabled) Info" (Depth, pcie index, node;
 * Link Speed Active (Enabled) "8G-Gen 3 (16G-Gen 4)"; Link Width Active
 * (Enabled) "16X (16X)"; Device Status), "Management PCIe Timers
 * Counters Info" (dl down), "Management PCIe Performance Counters Info"
 * (RX Errors, TX Errors, CRC Error dllp, CRC Error tlp) and "EYE Opening
 * Info (PCIe)" (Physical Grade, Height and Phase Eye Opening per lane);
 * other PCIe titles are only counted.  A known title is one without its
 * dashes too (a grep kept the title line, a web page lost the dashes), and
 * blank lines between a title and its dashes are skipped (a forum's
 * rendering).  Several outputs in one text (-c, then -e) are read in
 * order, a later value replacing an earlier one.  "N/A" reads as absent.
 * ANSI colour escapes are removed.  The text is hostile: long lines are
 * cut, at most MLXLINK_LANES lanes are kept, a malformed value is absent.
 */
#ifndef RDMA_ANALYZE_MLXLINK_H
#define RDMA_ANALYZE_MLXLINK_H

#include <stddef.h>
#include <stdint.h>

#define MLXLINK_LANES 16

/* the host's PCIe link as the HCA reports it (--port_type PCIE) */
struct mlxlink_pci {
	int link;		/* a Link Speed or Width Active (Enabled) line read */
	int depth, index, node;	/* "Depth, pcie index, node"; -1 absent */
	char speed[32], speed_en[32];	/* "8G-Gen 3", "16G-Gen 4"; "" absent */
	double gts, gts_en;	/* 8, 16 (GT/s); -1 absent */
	int gen, gen_en;	/* 3, 4; -1 absent */
	int width, width_en;	/* 16, 16 (lanes); -1 absent */
	char status[128];	/* Device Status as printed */
	int64_t dl_down, rx_errors, tx_errors, crc_dllp, crc_tlp; /* -1 */
	double grade[MLXLINK_LANES], height[MLXLINK_LANES],
	       phase[MLXLINK_LANES];	/* -1: N/A */
	int ngrade, nheight, nphase;
};

struct mlxlink {
	int sections;		/* how many network-link section titles were seen */
	int pcie;		/* how many of the host's PCIe link */
	struct mlxlink_pci pci;	/* that link's values */
	int has_ber, has_eye;
	char state[32], phys_state[32], speed[32], width[16], fec[64];
	char enabled_speeds[128], cable_speeds[128];
	int64_t eff_errors;	/* -1: absent */
	double eff_ber, raw_ber;	/* -1: absent */
	char eff_ber_text[32], raw_ber_text[32];
	int64_t raw_errors[MLXLINK_LANES];
	int nraw;
	double height[MLXLINK_LANES], phase[MLXLINK_LANES];	/* -1: N/A */
	int nheight, nphase;
};

/* parse len bytes; 0 when it is mlxlink output of a network link (one of
 * its sections seen), -1 otherwise (m is then all absent but pcie and pci:
 * a PCIe link's output alone is not the network link) */
int mlxlink_parse(const char *text, size_t len, struct mlxlink *m);
/* "15E-255", "5E-7", "1.2E-12", "0" -> the number; -1 if not one */
double mlxlink_ber(const char *s);
/* lane values "25,26,25,26" or "  158,   167" into v (at most n; N/A and
 * malformed lanes -1); returns the count */
int mlxlink_lanes(const char *s, double *v, int n);
/* "8G-Gen 3" (mlxlink's PCIe speed): gts 8, gen 3; 0, or -1 when it is
 * none ("N/A", "Unknown") */
int mlxlink_pcie_speed(const char *s, double *gts, int *gen);

/* `mst status -v` (a table: DEVICE_TYPE MST PCI RDMA NET NUMA) and
 * `mst status` ("/dev/mst/<name> - ..." then "domain:bus:dev.fn=<bdf>"):
 * which PCI function and RDMA device each mst device is, to name an
 * mlxlink output run on /dev/mst/<name> or on a PCI address */
struct mst_row {
	char name[64];		/* "mt41692_pciconf0.1" (no /dev/mst/) */
	char pci[16];		/* "0000:03:00.1"; "" unknown */
	char rdma[64];		/* "mlx5_1"; "" unknown (mst status without -v) */
};

/* the rows of len bytes of mst status output into v (at most max);
 * returns how many */
int mst_rows(const char *text, size_t len, struct mst_row *v, int max);
/* "03:00.1" or "0000:03:00.1" as "0000:03:00.1" into out[13]; 0, or -1
 * when s is no PCI address */
int mst_bdf(const char *s, char *out);

#endif
