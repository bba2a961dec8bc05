/* perftest: ib_*_bw / ib_*_lat outputs (see perftest.h) */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perftest.h"

#define MAXCOL 16

double perftest_gbps(double v, enum pt_unit unit)
{
	switch (unit) {
	case PT_UNIT_MB:	/* the old label: the same 0x100000 factor */
	case PT_UNIT_MIB:
		return v * 1048576.0 * 8 / 1e9;
	case PT_UNIT_GB:
		return v;
	default:
		return -1;
	}
}

const char *perftest_unit_name(enum pt_unit u)
{
	return u == PT_UNIT_MB ? "MB/sec" : u == PT_UNIT_MIB ? "MiB/sec" :
	       u == PT_UNIT_GB ? "Gb/sec" : "";
}

/* one line as a NUL-terminated, trimmed copy */
static size_t getline_b(const char *s, size_t len, size_t off, char *out,
			size_t n)
{
	size_t e = off, k = 0;

	while (e < len && s[e] != '\n')
		e++;
	while (off < e && k + 1 < n) {
		char c = s[off++];

		out[k++] = c ? c : ' ';
	}
	while (k > 0 && isspace((unsigned char)out[k - 1]))
		k--;
	out[k] = 0;
	return e < len ? e + 1 : e;
}

/* "Device         : mlx5_0" anywhere in the line */
static int kv(const char *line, const char *key, char *out, size_t n)
{
	const char *p = line;
	size_t kl = strlen(key), k = 0;

	while ((p = strstr(p, key))) {
		const char *q = p + kl;

		if (p != line && !isspace((unsigned char)p[-1])) {
			p++;
			continue;
		}
		while (*q == ' ' || *q == '\t')
			q++;
		if (*q != ':') {
			p++;
			continue;
		}
		q++;
		while (*q == ' ' || *q == '\t')
			q++;
		while (*q && !isspace((unsigned char)*q) && k + 1 < n)
			out[k++] = *q++;
		out[k] = 0;
		return 1;
	}
	return 0;
}

static int banner(const char *line, char *test, size_t n)
{
	const char *s = line;
	size_t l;

	while (*s == ' ' || *s == '\t')
		s++;
	l = strlen(s);
	if (l < 8 || l - 5 >= n || strcmp(s + l - 5, " Test") ||
	    (!strstr(s, " BW ") && !strstr(s, " Latency ")))
		return 0;
	if (strchr(s, ':') || strchr(s, '['))
		return 0;
	memcpy(test, s, l - 5);
	test[l - 5] = 0;
	return 1;
}

static int cols(char *line, double *v, int max)
{
	int n = 0;
	char *tok, *save = NULL;

	for (tok = strtok_r(line, " \t", &save); tok && n < max;
	     tok = strtok_r(NULL, " \t", &save)) {
		char *end;
		double d;

		while (*tok == '*')	/* markdown bold in pastes */
			tok++;
		d = strtod(tok, &end);
		while (*end == '*')
			end++;
		if (end == tok || *end)
			return n ? -1 : 0;
		v[n++] = d;
	}
	return n;
}

/* messages only perftest prints (perftest_resources.c,
 * perftest_communication.c): a run that failed before its banner or its
 * table is still perftest's */
static const char *const own_errors[] = {
	"Couldn't allocate MR", "Couldn't create IB resources",
	"Unable to Connect the HCA's through the link",
	"Unable to init the socket connection",
	"Unable to open file descriptor for socket connection",
	"Couldn't get context for the device",
	"Unable to find the Infiniband/RoCE device",
	"Failed to exchange data between server and clients",
};

static int own_error(const char *line)
{
	size_t i;

	for (i = 0; i < sizeof(own_errors) / sizeof(own_errors[0]); i++)
		if (strstr(line, own_errors[i]))
			return 1;
	/* "Failed to modify QP 1399 to RTR", "Failed to modify QP to RTS" */
	return strstr(line, "Failed to modify QP") && strstr(line, " to R");
}

/* a line that says the run failed: perftest's stderr messages */
static int error_line(const char *line)
{
	static const char *const starts[] = {
		"Couldn't ", "Failed to ", "failed to ", "Unable to ",
		"Failed status", "Completion with error", "ERRNO:",
		"Segmentation fault",
	};
	const char *s = line;
	size_t i;

	while (*s == ' ' || *s == '\t')
		s++;
	for (i = 0; i < sizeof(starts) / sizeof(starts[0]); i++)
		if (!strncmp(s, starts[i], strlen(starts[i])))
			return 1;
	return own_error(s);
}

int perftest_detect(const char *text, size_t len)
{
	char line[512], t[48];
	size_t off = 0;

	while (off < len) {
		off = getline_b(text, len, off, line, sizeof(line));
		if (banner(line, t, sizeof(t)) ||
		    (strstr(line, "#bytes") && strstr(line, "#iterations")) ||
		    strstr(line, "* Waiting for client to connect... *") ||
		    own_error(line))
			return 1;
	}
	return 0;
}

static int cuda_marker(const char *line)
{
	return strstr(line, "use_cuda") || strstr(line, "CUDA");
}

static void finish(struct pt_result *r)
{
	if (!r->rows)
		r->failed = 1;
}

int perftest_parse(const char *text, size_t len, struct pt_result *out,
		   int max)
{
	char line[1024], buf[1024];
	size_t off = 0;
	int n = 0, cur = -1, pending = 0, table = 0, sl = 0, lat_avg = -1,
	    lat_typ = -1;
	struct pt_result *r = NULL;

	while (off < len) {
		char test[48];
		double v[MAXCOL];
		int k;

		off = getline_b(text, len, off, line, sizeof(line));
		if (banner(line, test, sizeof(test))) {
			if (r)
				finish(r);
			if (n >= max) {
				r = NULL;
				cur = -1;
				continue;
			}
			cur = n++;
			r = &out[cur];
			memset(r, 0, sizeof(*r));
			snprintf(r->test, sizeof(r->test), "%s", test);
			r->bw = strstr(test, " BW") != NULL;
			r->bidir = strstr(test, "Bidirectional") != NULL;
			r->cuda = pending;
			r->wc_status = -1;
			pending = 0;
			table = 0;
			continue;
		}
		if (cuda_marker(line)) {
			if (r && !r->rows && !table)
				r->cuda = 1;
			else
				pending = 1;
		}
		if (!r && error_line(line) && n == 0 && n < max) {
			/* the error alone, pasted without the banner */
			cur = n++;
			r = &out[cur];
			memset(r, 0, sizeof(*r));
			r->cuda = pending;
			r->wc_status = -1;
			pending = 0;
		}
		if (!r)
			continue;
		if (!r->error[0] && !r->rows && error_line(line)) {
			const char *e = line;

			while (*e == ' ' || *e == '\t')
				e++;
			snprintf(r->error, sizeof(r->error), "%s", e);
		}
		if (!r->device[0])
			kv(line, "Device", r->device, sizeof(r->device));
		if (!r->transport[0])
			kv(line, "Transport type", r->transport,
			   sizeof(r->transport));
		if (!r->connection[0])
			kv(line, "Connection type", r->connection,
			   sizeof(r->connection));
		if (!r->link[0])
			kv(line, "Link type", r->link, sizeof(r->link));
		if (strstr(line, "Completion with error"))
			r->failed = 1;
		if (strstr(line, "Failed status-")) {
			const char *p = strstr(line, " (");
			const char *q = strstr(line, "syndrom 0x");

			r->failed = 1;
			if (p)
				r->wc_status = atoi(p + 2);
			if (q)
				r->vendor_err = (unsigned)strtoul(q + 10, NULL, 16);
		}
		if (strstr(line, "#bytes")) {
			table = 1;
			sl = strstr(line, "#sl") != NULL;
			if (strstr(line, "[MiB/sec]"))
				r->unit = PT_UNIT_MIB;
			else if (strstr(line, "[MB/sec]"))
				r->unit = PT_UNIT_MB;
			else if (strstr(line, "[Gb/sec]"))
				r->unit = PT_UNIT_GB;
			if (strstr(line, "t_min[usec]")) {
				lat_typ = 4;
				lat_avg = 5;
			} else if (strstr(line, "t_avg[usec]")) {
				lat_typ = -1;
				lat_avg = 2;
			}
			continue;
		}
		if (!table)
			continue;
		if (line[0] == '-' && strspn(line, "-") == strlen(line)) {
			if (r->rows)
				table = 0;
			continue;
		}
		snprintf(buf, sizeof(buf), "%s", line);
		k = cols(buf, v, MAXCOL);
		if (k <= 0 || v[0] < 0 || v[0] > 1e12)
			continue;
		if (r->bw && k >= 4 + sl) {
			double avg = v[3 + sl], peak = v[2 + sl];

			if (!r->rows || avg > r->bw_avg) {
				r->bytes = (uint64_t)v[0];
				r->bw_avg = avg;
				r->bw_peak = peak;
				r->avg_gbps = perftest_gbps(avg, r->unit);
				r->peak_gbps = perftest_gbps(peak, r->unit);
			}
			r->rows++;
		} else if (!r->bw && lat_avg > 0 && k > lat_avg) {
			if (!r->rows) {
				r->bytes = (uint64_t)v[0];
				r->t_avg = v[lat_avg];
				r->t_typical = lat_typ > 0 ? v[lat_typ] : -1;
			}
			r->rows++;
		}
	}
	if (r)
		finish(r);
	return n;
}
