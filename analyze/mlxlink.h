/* mlxlink: the text that `mlxlink -d <dev> -m -e -c` prints, parsed into
 * the fields the physical-layer checks read.
 *
 * The output is "Title" lines underlined with dashes, then "Key  : value"
 * lines.  Read: "Operational Info" (State, Physical state, Speed, Width,
 * FEC), "Supported Info" (Enabled Link Speed, Supported Cable Speed),
 * "Physical Counters and BER Info" (Effective Physical Errors, Effective
 * Physical BER, Raw Physical BER, Raw Physical Errors Per Lane) and "Eye
 * Opening Info" / "EYE Opening Info" (Height Eye Opening [mV], Phase Eye
 * Opening [psec], per lane; the "(PCIe)" eye of the host link is not the
 * network link and is ignored).  "N/A" reads as absent.  ANSI colour
 * escapes are removed.  The text is hostile: long lines are cut, at most
 * MLXLINK_LANES lanes are kept, a malformed value is absent.
 */
#ifndef RDMA_ANALYZE_MLXLINK_H
#define RDMA_ANALYZE_MLXLINK_H

#include <stddef.h>
#include <stdint.h>

#define MLXLINK_LANES 16

struct mlxlink {
	int sections;		/* how many known section titles were seen */
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

/* parse len bytes; 0 when it looks like mlxlink output (a known section
 * title underlined with dashes), -1 otherwise (m is then all absent) */
int mlxlink_parse(const char *text, size_t len, struct mlxlink *m);
/* "15E-255", "5E-7", "1.2E-12", "0" -> the number; -1 if not one */
double mlxlink_ber(const char *s);
/* lane values "25,26,25,26" or "  158,   167" into v (at most n; N/A and
 * malformed lanes -1); returns the count */
int mlxlink_lanes(const char *s, double *v, int n);

#endif
