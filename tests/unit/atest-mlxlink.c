/* atest-mlxlink: the `mlxlink -m -e -c` text parser: sections, BER
 * numbers, per-lane lists, N/A, colours, PCIe eye, the shapes pasting
 * gives it (blank lines, lost dashes, -c then -e), mst status rows,
 * hostile input */
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
	{
		/* a forum's rendering: a blank line after every line, one
		 * space of padding; then a second output (-e) of the device */
		static const char forum[] =
			"Operational Info\n\n----------------\n\n"
			"State : Active\n\nSpeed : 100GbE\n\n"
			"Physical Counters and BER Info\n\n"
			"------------------------------\n\n"
			"Effective Physical Errors : 0\n\n"
			"Raw Physical BER : 3E-12\n\n"
			"Operational Info\n\n----------------\n\n"
			"State : Active\n\n"
			"EYE Opening Info\n\n----------------\n\n"
			"Height Eye Opening [mV] : 48, 53, 57, 37\n\n"
			"Phase Eye Opening [psec] : 12, 14, 15, 10\n";
		/* grep kept the title, not its dashes */
		static const char grep[] =
			"FEC                             : RS-FEC - (544,514) + PLR\n"
			"amBER Version                   : 2.13\n"
			"Physical Counters and BER Info\n"
			"Effective Physical Errors       : 0\n"
			"Raw Physical BER                : 1E-8\n";
		/* a section the table does not know ends the one before */
		static const char other[] =
			"Physical Counters and BER Info\n---\n"
			"Raw Physical BER : 1E-8\n\nBER Monitor Info\n----\n"
			"Raw Physical BER : 1E-3\n";
		static const char pcie_only[] =
			"PCIe Operational (Enabled) Info\n----\n"
			"Link Width Active (Enabled)     : 16X (16X)\n\n"
			"EYE Opening Info (PCIe)\n----\n"
			"Height Eye Opening [mV] : 158, 167\n";

		T_OK(mlxlink_parse(forum, strlen(forum), &m) == 0 &&
		     m.eff_errors == 0 && fabs(m.raw_ber - 3e-12) < 1e-20 &&
		     m.nheight == 4 && m.height[3] == 37 && m.nphase == 4 &&
		     !strcmp(m.speed, "100GbE"),
		     "blank lines between titles and dashes; -c then -e both read");
		T_OK(mlxlink_parse(grep, strlen(grep), &m) == 0 && m.has_ber &&
		     fabs(m.raw_ber - 1e-8) < 1e-16 && !m.fec[0],
		     "a known title without its dashes; lines before it are no section");
		T_OK(mlxlink_parse(other, strlen(other), &m) == 0 &&
		     fabs(m.raw_ber - 1e-8) < 1e-16,
		     "an unknown underlined title ends the BER section");
		T_OK(mlxlink_parse(pcie_only, strlen(pcie_only), &m) < 0 &&
		     m.pcie == 2 && !m.nheight,
		     "a PCIe link's output alone: not read, counted");
	}
	{
		static const char v[] =
			"MST modules:\n------------\n"
			"    MST PCI configuration module loaded\n"
			"PCI devices:\n------------\n"
			"DEVICE_TYPE             MST                           PCI       RDMA            NET                                     NUMA\n"
			"BlueField3(rev:1)       /dev/mst/mt41692_pciconf0.1   03:00.1   mlx5_1          net-p1,net-pf1hpf       -1\n\n"
			"ConnectX6DX(rev:0)      /dev/mst/mt4125_pciconf0      0000:A1:00.0   -    -     0\n";
		static const char plain[] =
			"MST devices:\n------------\n"
			"/dev/mst/mt4125_pciconf0         - PCI configuration cycles access.\n"
			"                                   domain:bus:dev.fn=0000:41:00.0 addr.reg=88 data.reg=92\n"
			"/dev/mst/../x - bad\n";
		struct mst_row r[4];
		char b[16];

		T_OK(mst_rows(v, strlen(v), r, 4) == 2 &&
		     !strcmp(r[0].name, "mt41692_pciconf0.1") &&
		     !strcmp(r[0].pci, "0000:03:00.1") && !strcmp(r[0].rdma, "mlx5_1") &&
		     !strcmp(r[1].pci, "0000:a1:00.0") && !r[1].rdma[0],
		     "mst status -v: name, PCI address, RDMA device ('-' unknown)");
		T_OK(mst_rows(plain, strlen(plain), r, 4) == 1 &&
		     !strcmp(r[0].name, "mt4125_pciconf0") &&
		     !strcmp(r[0].pci, "0000:41:00.0") && !r[0].rdma[0],
		     "mst status: the bdf of the line after the device");
		T_OK(mst_rows(v, strlen(v), r, 1) == 1, "at most max rows");
		T_OK(mst_bdf("81:00.1", b) == 0 && !strcmp(b, "0000:81:00.1") &&
		     mst_bdf("81:00.8", b) < 0 && mst_bdf("0000:81:00", b) < 0 &&
		     mst_bdf("mlx5_0", b) < 0, "PCI addresses");
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
