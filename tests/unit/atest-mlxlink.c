/* atest-mlxlink: the `mlxlink -m -e -c` text parser: sections, BER
 * numbers, per-lane lists, N/A, colours, PCIe eye, hostile input */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlxlink.h"
#include "t.h"

static const char full[] =
	"Operational Info\n"
	"----------------\n"
	"State                              : Active\n"
	"Physical state                     : LinkUp\n"
	"Speed                              : IB-NDR\n"
	"Width                              : 4x\n"
	"FEC                                : Standard_RS-FEC - (544,514)\n"
	"\n"
	"Supported Info\n"
	"--------------\n"
	"Enabled Link Speed (Ext.)          : 0x000007e0 (NDR,HDR,EDR,FDR,QDR,DDR,SDR)\n"
	"Supported Cable Speed (Ext.)       : 0x00000400 (NDR)\n"
	"\n"
	"Physical Counters and BER Info\n"
	"------------------------------\n"
	"Time Since Last Clear [Min]        : 4310.2\n"
	"Effective Physical Errors          : 0\n"
	"Effective Physical BER             : 15E-255\n"
	"Raw Physical BER                   : 5E-7\n"
	"Raw Physical Errors Per Lane       : 1841,1702,2210,1934\n"
	"\n"
	"EYE Opening Info\n"
	"----------------\n"
	"Physical Grade                     :   4210,  4312,  4188,  4290\n"
	"Height Eye Opening [mV]            :     38,    37,    14,    38\n"
	"Phase  Eye Opening [psec]          :     12,    12,    11,    12\n"
	"\n"
	"EYE Opening Info (PCIe)\n"
	"-----------------------\n"
	"Height Eye Opening [mV]            :    147,   177\n";

static const struct {
	const char *in;
	double want;
} bers[] = {
	{ "15E-255", 15e-255 }, { "5E-7", 5e-7 }, { "1.2E-12", 1.2e-12 },
	{ "0", 0 }, { " 3E-10", 3e-10 }, { "N/A", -1 }, { "", -1 },
	{ "inf", -1 }, { "nan", -1 }, { "0x10", -1 }, { "-1E-3", -1 },
	{ "1E-3 extra", -1 }, { "E-7", -1 },
};

static const struct {
	const char *in;
	int n;
	double v[4];
} lanes[] = {
	{ "25,26,25,26", 4, { 25, 26, 25, 26 } },
	{ "   158,   167", 2, { 158, 167 } },
	{ "N/A,N/A", 2, { -1, -1 } },
	{ "1,x,3", 3, { 1, -1, 3 } },
	{ "7", 1, { 7 } },
	{ "", 0, { 0 } },
	{ "-5,4", 2, { -1, 4 } },
};

int main(void)
{
	struct mlxlink m;
	size_t i;

	T_OK(mlxlink_parse(full, strlen(full), &m) == 0, "a full output parses");
	T_STREQ(m.state, "Active", "State");
	T_STREQ(m.phys_state, "LinkUp", "Physical state");
	T_STREQ(m.speed, "IB-NDR", "Speed");
	T_STREQ(m.width, "4x", "Width");
	T_STREQ(m.fec, "Standard_RS-FEC - (544,514)", "FEC keeps its colon-free text");
	T_STREQ(m.enabled_speeds, "0x000007e0 (NDR,HDR,EDR,FDR,QDR,DDR,SDR)",
		"Enabled Link Speed");
	T_STREQ(m.cable_speeds, "0x00000400 (NDR)", "Supported Cable Speed");
	T_OK(m.has_ber && m.has_eye, "both sections seen");
	T_OK(m.eff_errors == 0, "Effective Physical Errors 0");
	T_OK(m.eff_ber > 0 && m.eff_ber < 1e-250, "Effective BER 15E-255");
	T_STREQ(m.eff_ber_text, "15E-255", "BER text kept as printed");
	T_OK(fabs(m.raw_ber - 5e-7) < 1e-12, "Raw BER 5E-7");
	T_OK(m.nraw == 4 && m.raw_errors[2] == 2210, "raw errors per lane");
	T_OK(m.nheight == 4 && m.height[2] == 14 && m.height[0] == 38,
	     "eye heights of the network link, not the PCIe eye");
	T_OK(m.nphase == 4 && m.phase[2] == 11,
	     "'Phase  Eye Opening' (two spaces)");

	{
		static const char na[] =
			"Physical Counters and BER Info\n"
			"------------------------------\n"
			"Effective Physical Errors          : N/A\n"
			"Effective Physical BER             : N/A\n"
			"Raw Physical BER                   : N/A\n";

		T_OK(mlxlink_parse(na, strlen(na), &m) == 0 && m.eff_errors == -1 &&
		     m.eff_ber < 0 && m.raw_ber < 0 && !m.eff_ber_text[0],
		     "N/A reads as absent");
	}
	{
		static const char col[] =
			"Physical Counters and BER Info\n"
			"\x1b[1m------------------------------\x1b[0m\n"
			"Effective Physical Errors          : \x1b[31m12\x1b[0m\n"
			"Raw Physical BER                   : 2E-4\t\r\n";

		T_OK(mlxlink_parse(col, strlen(col), &m) == 0 &&
		     m.eff_errors == 12 && fabs(m.raw_ber - 2e-4) < 1e-10,
		     "ANSI colours, tabs and CR removed");
	}
	{
		static const char notit[] = "NCCL INFO NET/IB : Using [0]mlx5_0:1/IB\n"
					    "Effective Physical Errors : 99\n";
		static const char pcie[] = "EYE Opening Info (PCIe)\n------\n"
					   "Height Eye Opening [mV] : 1,2\n";
		static const char dashes[] = "----\n----\n: x\n";

		T_OK(mlxlink_parse(notit, strlen(notit), &m) < 0 && m.eff_errors == -1,
		     "text without a section title is not mlxlink output");
		T_OK(mlxlink_parse(pcie, strlen(pcie), &m) < 0 && !m.nheight,
		     "a PCIe eye alone is not the network link");
		T_OK(mlxlink_parse(dashes, strlen(dashes), &m) < 0,
		     "dashes without a title");
		T_OK(mlxlink_parse(NULL, 0, &m) < 0, "no text");
	}
	{
		/* hostile: huge lines, more lanes than kept, a huge number */
		size_t len = 20000;
		char *big = malloc(len + 200);
		int k;

		if (!big)
			return 1;
		k = snprintf(big, 200, "Eye Opening Info\n----\n"
			     "Height Eye Opening [mV] : ");
		for (i = (size_t)k; i < len; i += 2)
			memcpy(big + i, "9,", 2);
		big[len] = 0;
		strcat(big, "\nEffective Physical Errors : 1\n");
		T_OK(mlxlink_parse(big, strlen(big), &m) == 0 &&
		     m.nheight <= MLXLINK_LANES, "20 kB of lanes: at most %d kept",
		     MLXLINK_LANES);
		free(big);
		{
			static const char huge[] =
				"Physical Counters and BER Info\n---\n"
				"Effective Physical Errors : 99999999999999999999999\n";

			T_OK(mlxlink_parse(huge, strlen(huge), &m) == 0 &&
			     m.eff_errors == -1, "an out-of-range count is absent");
		}
	}
	for (i = 0; i < sizeof(bers) / sizeof(*bers); i++) {
		double v = mlxlink_ber(bers[i].in);

		T_OK(bers[i].want < 0 ? v < 0 :
		     fabs(v - bers[i].want) <= 1e-9 * bers[i].want,
		     "BER '%s' -> %g", bers[i].in, v);
	}
	for (i = 0; i < sizeof(lanes) / sizeof(*lanes); i++) {
		double v[4];
		int n = mlxlink_lanes(lanes[i].in, v, 4), j, same = n == lanes[i].n;

		for (j = 0; same && j < n; j++)
			same = v[j] == lanes[i].v[j];
		T_OK(same, "lanes '%s': %d", lanes[i].in, n);
	}
	return t_done();
}
