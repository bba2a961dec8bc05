/* atest-history: a counter's change between two snapshots (hist_delta)
 * and what the history knows of each counter (hist_counter_info) */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "history.h"
#include "t.h"

#define DAY 86400.0

static const struct {
	const char *what;
	uint64_t prev, cur;
	unsigned width;
	int rebooted;
	double interval_s, uptime_s;
	enum hist_status status;
	uint64_t delta;
	double per_hour;	/* -1: no rate */
} cases[] = {
	{ "growth over a day", 100, 340, 16, 0, DAY, 2 * DAY, HIST_DELTA, 240, 10 },
	{ "no change", 7, 7, 16, 0, DAY, 2 * DAY, HIST_DELTA, 0, 0 },
	{ "unknown interval: no rate", 1, 2, 16, 0, -1, -1, HIST_DELTA, 1, -1 },
	{ "value down in the same boot: reset", 500, 3, 16, 0, DAY, 2 * DAY,
	  HIST_RESET, 0, -1 },
	{ "reboot: counted since boot over the uptime", 500, 20, 16, 1, DAY,
	  7200, HIST_REBOOT, 20, 10 },
	{ "reboot, uptime unknown: no rate", 500, 20, 16, 1, DAY, -1,
	  HIST_REBOOT, 20, -1 },
	{ "reboot, uptime longer than the interval: no rate", 5, 20, 16, 1,
	  3600, DAY, HIST_REBOOT, 20, -1 },
	{ "16-bit at its maximum: at least", 100, 65535, 16, 0, DAY, 2 * DAY,
	  HIST_SATURATED, 65435, -1 },
	{ "saturated in both: nothing more known", 65535, 65535, 16, 0, DAY,
	  2 * DAY, HIST_SATURATED, 0, -1 },
	{ "4-bit at 15", 0, 15, 4, 0, DAY, 2 * DAY, HIST_SATURATED, 15, -1 },
	{ "32-bit at its maximum", 1000, 4294967295u, 32, 0, DAY, 2 * DAY,
	  HIST_SATURATED, 4294966295u, -1 },
	{ "32-bit below its maximum counts", 1000, 4294967294u, 32, 0, 3600,
	  2 * DAY, HIST_DELTA, 4294966294u, 4294966294.0 },
	{ "64-bit wrap", UINT64_MAX - 99, 50, 64, 0, 3600, 2 * DAY, HIST_WRAP,
	  150, 150 },
	{ "64-bit from the middle down: a reset, not a wrap", (uint64_t)1 << 62,
	  50, 64, 0, 3600, 2 * DAY, HIST_RESET, 0, -1 },
	{ "64-bit below 2^63 - 1 counts", 1, (uint64_t)INT64_MAX - 1, 64, 0,
	  3600, 2 * DAY, HIST_DELTA, (uint64_t)INT64_MAX - 2,
	  (double)((uint64_t)INT64_MAX - 2) },
	/* held at INT64_MAX from 2^63 up (util.h u64_stored): no reading
	 * gets there, so it is saturated, as a narrower one at its maximum */
	{ "64-bit held at INT64_MAX: saturated", 1, (uint64_t)INT64_MAX, 64, 0,
	  3600, 2 * DAY, HIST_SATURATED, (uint64_t)INT64_MAX - 1, -1 },
};

static void deltas(void)
{
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct hist_delta d;

		hist_delta(cases[i].prev, cases[i].cur, cases[i].width,
			   cases[i].rebooted, cases[i].interval_s,
			   cases[i].uptime_s, &d);
		T_OK(d.status == cases[i].status && d.delta == cases[i].delta &&
		     (cases[i].per_hour < 0 ? d.per_hour < 0 :
		      fabs(d.per_hour - cases[i].per_hour) <=
		      1e-9 * cases[i].per_hour),
		     "%s: %s +%llu %g/h", cases[i].what,
		     hist_status_name(d.status), (unsigned long long)d.delta,
		     d.per_hour);
	}
}

static void counters(void)
{
	struct hist_counter c;

	T_OK(!hist_counter_info("pma", "symbol_error", 0, &c) && c.width == 16 &&
	     c.error, "symbol_error: 16-bit error counter");
	T_OK(!hist_counter_info("pma", "local_link_integrity_errors", 0, &c) &&
	     c.width == 4 && c.error, "local_link_integrity_errors: 4 bits");
	T_OK(!hist_counter_info("pma", "port_xmit_wait", 5000000000u, &c) &&
	     c.width == 32 && !c.error, "port_xmit_wait: always 32 bits");
	T_OK(!hist_counter_info("pma", "port_xmit_data", 100, &c) &&
	     c.width == 32, "port_xmit_data in 32 bits: the basic table");
	T_OK(!hist_counter_info("pma", "port_xmit_data", 5000000000u, &c) &&
	     c.width == 64, "port_xmit_data above 32 bits: the extended table");
	T_OK(!hist_counter_info("PortCounters", "LinkDownedCounter", 0, &c) &&
	     c.width == 8 && c.error, "LinkDownedCounter over MADs: 8 bits");
	T_OK(hist_counter_info("PortCounters", "CounterSelect", 0, &c) < 0,
	     "CounterSelect is not a counter");
	T_OK(!hist_counter_info("hw", "out_of_sequence", 0, &c) &&
	     c.width == 64 && c.error, "hw out_of_sequence: 64-bit error");
	T_OK(!hist_counter_info("hw", "np_cnp_sent", 0, &c) && !c.error,
	     "CNPs are a rate, not an error");
	T_OK(!hist_counter_info("ethtool", "rx_discards_phy", 0, &c) && c.error,
	     "ethtool rx_discards_phy: error");
	T_OK(!hist_counter_info("ethtool", "rx_prio3_pause", 0, &c) && !c.error,
	     "pause is a rate, not an error");
}

int main(void)
{
	deltas();
	counters();
	return t_done();
}
