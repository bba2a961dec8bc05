/* mlxlink: parser of `mlxlink -m -e -c` text (see mlxlink.h) */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlxlink.h"
#include "util.h"

enum sect {
	S_NONE, S_OPER, S_SUPP, S_BER, S_EYE,
	S_PCIE, S_PCIE_OPER, S_PCIE_CNT, S_PCIE_EYE,
	S_OTHER
};

/* copy a line without ANSI escapes and trailing blanks */
static void clean(char *out, size_t n, const char *s, size_t len)
{
	size_t i = 0, o = 0;

	while (i < len && o + 1 < n) {
		if (s[i] == 0x1b) {	/* ESC [ ... letter */
			i++;
			if (i < len && s[i] == '[')
				i++;
			while (i < len && !isalpha((unsigned char)s[i]))
				i++;
			i++;
			continue;
		}
		out[o++] = s[i] == '\t' || s[i] == '\r' ? ' ' : s[i];
		i++;
	}
	out[o] = 0;
	while (o && out[o - 1] == ' ')
		out[--o] = 0;
}

static const char *trim(char *s)
{
	size_t n;

	while (*s == ' ')
		s++;
	n = strlen(s);
	while (n && s[n - 1] == ' ')
		s[--n] = 0;
	return s;
}

static int is_rule(const char *s)
{
	size_t n = strspn(s, "-");

	return n >= 3 && s[n] == 0;
}

/* the section titles mlxlink prints (MFT 4.x): one of these is a title
 * even where its line of dashes was lost (a grep, a rendered web page);
 * another line is one only when dashes underline it */
static const struct {
	const char *title;
	enum sect s;
} titles[] = {
	{ "Operational Info", S_OPER },
	{ "Supported Info", S_SUPP },
	{ "Physical Counters and BER Info", S_BER },
	{ "Eye Opening Info", S_EYE },
	{ "Troubleshooting Info", S_OTHER },
	{ "Tool Information", S_OTHER },
	{ "Module Info", S_OTHER },
	{ "FEC Capability Info", S_OTHER },
	{ "Transmitter Info", S_OTHER },
	{ "Test Mode Info", S_OTHER },
	{ "Histogram of FEC Errors", S_OTHER },
	{ "Device Info", S_OTHER },
};

/* a title of the host's PCIe link ("EYE Opening Info (PCIe)", "PCIe
 * Operational (Enabled) Info", "Management PCIe Timers Counters Info") */
static int pcie_title(const char *t)
{
	return strstr(t, "PCIe") && strstr(t, "Info") && !strchr(t, ':');
}

/* which PCIe section: the link, its counters, its eye, or another */
static enum sect pcie_section(const char *t)
{
	if (!strncasecmp(t, "PCIe Operational", 16))
		return S_PCIE_OPER;
	if (!strncasecmp(t, "Management PCIe", 15) && strstr(t, "Counters"))
		return S_PCIE_CNT;
	if (!strncasecmp(t, "EYE Opening Info", 16))
		return S_PCIE_EYE;
	return S_PCIE;
}

/* the section a title line starts; known: it is one of titles[] */
static enum sect section(const char *title, int *known)
{
	size_t i;

	*known = 0;
	if (pcie_title(title)) {
		*known = 1;
		return pcie_section(title);
	}
	for (i = 0; i < sizeof(titles) / sizeof(titles[0]); i++)
		if (!strcasecmp(title, titles[i].title)) {
			*known = 1;
			return titles[i].s;
		}
	return S_OTHER;
}

double mlxlink_ber(const char *s)
{
	char *end;
	double v;

	while (*s == ' ')
		s++;
	if (!*s || strspn(s, "0123456789.Ee+-") != strlen(s) ||
	    !isdigit((unsigned char)*s))
		return -1;
	v = strtod(s, &end);
	if (*end || v < 0)
		return -1;
	return v;
}

int mlxlink_lanes(const char *s, double *v, int n)
{
	int k = 0;

	while (*s && k < n) {
		const char *e = strchr(s, ',');
		size_t len = e ? (size_t)(e - s) : strlen(s);
		char tok[32];
		char *end;
		const char *t;
		double d;

		if (len >= sizeof(tok))
			len = sizeof(tok) - 1;
		memcpy(tok, s, len);
		tok[len] = 0;
		t = trim(tok);
		d = strtod(t, &end);
		v[k++] = (*t && !*end && isdigit((unsigned char)t[*t == '-']) &&
			  d >= 0 && d < 1e15) ? d : -1;
		if (!e)
			break;
		s = e + 1;
	}
	return k;
}

static void set(char *dst, size_t n, const char *v)
{
	snprintf(dst, n, "%s", strcmp(v, "N/A") ? v : "");
}

int mlxlink_pcie_speed(const char *s, double *gts, int *gen)
{
	/* the rate of each generation: Gen6's "32G PAM-4 Gen6" is 32 GBd,
	 * 64 GT/s, so the generation, not the leading number, says it */
	static const double rate[] = { 0, 2.5, 5, 8, 16, 32, 64, 128 };
	const char *g = strstr(s, "Gen");
	char *end;
	long v;

	*gts = -1;
	*gen = -1;
	if (!g)
		return -1;
	g += 3;
	while (*g == ' ')
		g++;
	v = strtol(g, &end, 10);
	if (end == g || v < 1 || v > 7 || (*end && *end != ' ' && *end != ')'))
		return -1;
	*gen = (int)v;
	*gts = rate[v];
	return 0;
}

/* "A (E)": the active value into a, the enabled one into e */
static void active_enabled(const char *v, char *a, size_t an, char *e,
			   size_t en)
{
	const char *o = strrchr(v, '(');
	size_t k = o ? (size_t)(o - v) : strlen(v);

	while (k && v[k - 1] == ' ')
		k--;
	snprintf(a, an, "%.*s", (int)k, v);
	if (!strcmp(a, "N/A"))
		a[0] = 0;
	e[0] = 0;
	if (o) {
		snprintf(e, en, "%s", o + 1);
		e[strcspn(e, ")")] = 0;
		if (!strcmp(e, "N/A"))
			e[0] = 0;
	}
}

/* "16X" -> 16; -1 if not a width */
static int lanes_of(const char *s)
{
	char *end;
	long v = strtol(s, &end, 10);

	return end != s && (*end == 'X' || *end == 'x') && !end[1] &&
	       v > 0 && v <= 32 ? (int)v : -1;
}

/* a counter: digits only, else -1 */
static int64_t count_of(const char *s)
{
	return *s && strspn(s, "0123456789") == strlen(s) && strlen(s) < 19 ?
	       (int64_t)strtoll(s, NULL, 10) : -1;
}

static void pcie_field(struct mlxlink_pci *p, enum sect s, const char *key,
		       const char *val)
{
	char a[64], e[64];

	if (s == S_PCIE_OPER && !strncmp(key, "Depth", 5)) {
		if (sscanf(val, "%d , %d , %d", &p->depth, &p->index,
			   &p->node) != 3)
			p->depth = p->index = p->node = -1;
	} else if (s == S_PCIE_OPER && !strncmp(key, "Link Speed Active", 17)) {
		active_enabled(val, a, sizeof(a), e, sizeof(e));
		snprintf(p->speed, sizeof(p->speed), "%s", a);
		snprintf(p->speed_en, sizeof(p->speed_en), "%s", e);
		mlxlink_pcie_speed(a, &p->gts, &p->gen);
		mlxlink_pcie_speed(e, &p->gts_en, &p->gen_en);
		p->link = 1;
	} else if (s == S_PCIE_OPER && !strncmp(key, "Link Width Active", 17)) {
		active_enabled(val, a, sizeof(a), e, sizeof(e));
		p->width = lanes_of(a);
		p->width_en = lanes_of(e);
		p->link = 1;
	} else if (s == S_PCIE_OPER && !strcmp(key, "Device Status")) {
		set(p->status, sizeof(p->status), val);
	} else if (s == S_PCIE_CNT && !strcasecmp(key, "dl down")) {
		p->dl_down = count_of(val);
	} else if (s == S_PCIE_CNT && !strcmp(key, "RX Errors")) {
		p->rx_errors = count_of(val);
	} else if (s == S_PCIE_CNT && !strcmp(key, "TX Errors")) {
		p->tx_errors = count_of(val);
	} else if (s == S_PCIE_CNT && !strcmp(key, "CRC Error dllp")) {
		p->crc_dllp = count_of(val);
	} else if (s == S_PCIE_CNT && !strcmp(key, "CRC Error tlp")) {
		p->crc_tlp = count_of(val);
	} else if (s == S_PCIE_EYE && !strcmp(key, "Physical Grade")) {
		p->ngrade = mlxlink_lanes(val, p->grade, MLXLINK_LANES);
	} else if (s == S_PCIE_EYE && !strncmp(key, "Height Eye Opening", 18)) {
		p->nheight = mlxlink_lanes(val, p->height, MLXLINK_LANES);
	} else if (s == S_PCIE_EYE && !strncmp(key, "Phase", 5) &&
		   strstr(key, "Eye Opening")) {
		p->nphase = mlxlink_lanes(val, p->phase, MLXLINK_LANES);
	}
}

static void field(struct mlxlink *m, enum sect s, const char *key,
		  const char *val)
{
	switch (s) {
	case S_OPER:
		if (!strcmp(key, "State"))
			set(m->state, sizeof(m->state), val);
		else if (!strcmp(key, "Physical state"))
			set(m->phys_state, sizeof(m->phys_state), val);
		else if (!strcmp(key, "Speed"))
			set(m->speed, sizeof(m->speed), val);
		else if (!strcmp(key, "Width"))
			set(m->width, sizeof(m->width), val);
		else if (!strcmp(key, "FEC"))
			set(m->fec, sizeof(m->fec), val);
		break;
	case S_SUPP:
		if (!strncmp(key, "Enabled Link Speed", 18))
			set(m->enabled_speeds, sizeof(m->enabled_speeds), val);
		else if (!strncmp(key, "Supported Cable Speed", 21))
			set(m->cable_speeds, sizeof(m->cable_speeds), val);
		break;
	case S_BER:
		if (!strcmp(key, "Effective Physical Errors")) {
			double d = mlxlink_ber(val);

			m->eff_errors = d >= 0 && d < 9.2e18 &&
					strspn(val, "0123456789") == strlen(val) ?
					(int64_t)strtoll(val, NULL, 10) : -1;
		} else if (!strcmp(key, "Effective Physical BER")) {
			m->eff_ber = mlxlink_ber(val);
			set(m->eff_ber_text, sizeof(m->eff_ber_text), val);
		} else if (!strcmp(key, "Raw Physical BER")) {
			m->raw_ber = mlxlink_ber(val);
			set(m->raw_ber_text, sizeof(m->raw_ber_text), val);
		} else if (!strcmp(key, "Raw Physical Errors Per Lane")) {
			double v[MLXLINK_LANES];
			int i;

			m->nraw = mlxlink_lanes(val, v, MLXLINK_LANES);
			for (i = 0; i < m->nraw; i++)
				m->raw_errors[i] = v[i] >= 0 ? (int64_t)v[i] : -1;
		}
		break;
	case S_EYE:
		/* "Phase  Eye Opening [psec]" has two spaces in new mlxlink */
		if (!strncmp(key, "Height Eye Opening", 18))
			m->nheight = mlxlink_lanes(val, m->height, MLXLINK_LANES);
		else if (!strncmp(key, "Phase", 5) && strstr(key, "Eye Opening"))
			m->nphase = mlxlink_lanes(val, m->phase, MLXLINK_LANES);
		break;
	default:
		break;
	}
}

static void reset(struct mlxlink *m)
{
	struct mlxlink_pci *p = &m->pci;

	memset(m, 0, sizeof(*m));
	m->eff_errors = -1;
	m->eff_ber = m->raw_ber = -1;
	p->depth = p->index = p->node = -1;
	p->gts = p->gts_en = -1;
	p->gen = p->gen_en = p->width = p->width_en = -1;
	p->dl_down = p->rx_errors = p->tx_errors = -1;
	p->crc_dllp = p->crc_tlp = -1;
}

/* a title line starts section s */
static void enter(struct mlxlink *m, enum sect s)
{
	if (s == S_PCIE || s == S_PCIE_OPER || s == S_PCIE_CNT ||
	    s == S_PCIE_EYE)
		m->pcie++;
	else if (s != S_OTHER)
		m->sections++;
	m->has_ber |= s == S_BER;
	m->has_eye |= s == S_EYE;
}

int mlxlink_parse(const char *text, size_t len, struct mlxlink *m)
{
	const char *p = text, *end = text + len;
	char cand[256] = "", buf[256];
	enum sect s = S_NONE;
	int titled = 0, pcie;
	struct mlxlink_pci pci;

	reset(m);
	while (text && p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);
		char *line, *colon, *val;
		enum sect k;
		int known;

		clean(buf, sizeof(buf), p, l);
		p = nl ? nl + 1 : end;
		line = (char *)trim(buf);
		/* blank lines: a forum's rendering puts one after each line,
		 * between a title and its dashes too */
		if (!*line)
			continue;
		if (is_rule(line)) {
			/* the line before the dashes is the title, unless it
			 * was a known one (already entered) or a value */
			if (cand[0] && !titled && !strchr(cand, ':'))
				enter(m, s = section(cand, &known));
			cand[0] = 0;
			titled = 0;
			continue;
		}
		snprintf(cand, sizeof(cand), "%s", line);
		titled = 0;
		k = section(line, &known);
		if (known) {
			enter(m, s = k);
			titled = 1;
			continue;
		}
		colon = strstr(line, " : ");
		if (!colon)
			colon = strchr(line, ':');
		if (!colon || s == S_NONE || s == S_OTHER || s == S_PCIE)
			continue;
		val = colon + (colon[0] == ' ' ? 3 : 1);
		*colon = 0;
		if (s == S_PCIE_OPER || s == S_PCIE_CNT || s == S_PCIE_EYE)
			pcie_field(&m->pci, s, trim(line), trim(val));
		else
			field(m, s, trim(line), trim(val));
	}
	if (!m->sections) {
		pcie = m->pcie;
		pci = m->pci;
		reset(m);
		m->pcie = pcie;
		m->pci = pci;
		return -1;
	}
	return 0;
}

/* --- mst status --- */

int mst_bdf(const char *s, char *out)
{
	size_t n = strlen(s);

	if (n == 7 && all_hex(s, 2) && s[2] == ':' && all_hex(s + 3, 2) &&
	    s[5] == '.' && s[6] >= '0' && s[6] <= '7') {
		snprintf(out, 13, "0000:%s", s);
	} else if (n == 12 && all_hex(s, 4) && s[4] == ':' &&
		   !mst_bdf(s + 5, out)) {
		memcpy(out, s, 4);
	} else {
		return -1;
	}
	for (; *out; out++)
		*out = (char)tolower((unsigned char)*out);
	return 0;
}

/* "/dev/mst/<name>" at s: the name into row (a safe file name) */
static int mst_name(const char *s, struct mst_row *row)
{
	size_t n;

	if (strncmp(s, "/dev/mst/", 9))
		return -1;
	s += 9;
	n = strcspn(s, " \t");
	if (!n || n >= sizeof(row->name) || *s == '.' ||
	    strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		   "0123456789_.:-") < n)
		return -1;
	memset(row, 0, sizeof(*row));
	memcpy(row->name, s, n);
	return 0;
}

/* a row of the -v table: TYPE /dev/mst/NAME PCI RDMA NET NUMA */
static int mst_table_row(const char *line, struct mst_row *row)
{
	char type[64], dev[128], pci[32], rdma[64];

	if (sscanf(line, "%63s %127s %31s %63s", type, dev, pci, rdma) != 4 ||
	    mst_name(dev, row) < 0 || mst_bdf(pci, row->pci) < 0)
		return -1;
	if (strcmp(rdma, "-") && strspn(rdma, "abcdefghijklmnopqrstuvwxyz"
					"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") ==
	    strlen(rdma))
		snprintf(row->rdma, sizeof(row->rdma), "%s", rdma);
	return 0;
}

int mst_rows(const char *text, size_t len, struct mst_row *v, int max)
{
	const char *p = text, *end = text + len;
	int n = 0, open = 0;	/* open: a "/dev/mst/" row awaits its bdf */

	while (text && p < end && n < max) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);
		char line[512];
		const char *t, *bdf;

		clean(line, sizeof(line), p, l);
		p = nl ? nl + 1 : end;
		t = line + strspn(line, " ");
		if (!mst_table_row(t, &v[n])) {
			n++;
			open = 0;
		} else if (!mst_name(t, &v[n])) {
			n++;
			open = 1;
		} else if (open && (bdf = strstr(t, "domain:bus:dev.fn="))) {
			char b[16];

			snprintf(b, sizeof(b), "%.*s", (int)strcspn(bdf + 18, " "),
				 bdf + 18);
			if (mst_bdf(b, v[n - 1].pci) < 0)
				v[n - 1].pci[0] = 0;
			open = 0;
		}
	}
	return n;
}
