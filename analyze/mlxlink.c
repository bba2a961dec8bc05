/* mlxlink: parser of `mlxlink -m -e -c` text (see mlxlink.h) */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlxlink.h"

enum sect { S_NONE, S_OPER, S_SUPP, S_BER, S_EYE, S_OTHER };

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

static enum sect section(const char *title)
{
	if (strstr(title, "(PCIe)") || strstr(title, "PCIe"))
		return S_OTHER;
	if (!strcasecmp(title, "Operational Info"))
		return S_OPER;
	if (!strcasecmp(title, "Supported Info"))
		return S_SUPP;
	if (!strcasecmp(title, "Physical Counters and BER Info"))
		return S_BER;
	if (!strcasecmp(title, "Eye Opening Info"))
		return S_EYE;
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

int mlxlink_parse(const char *text, size_t len, struct mlxlink *m)
{
	const char *p = text, *end = text + len;
	char prev[256] = "", line[256];
	enum sect s = S_NONE;

	memset(m, 0, sizeof(*m));
	m->eff_errors = -1;
	m->eff_ber = m->raw_ber = -1;
	while (text && p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);
		char *colon, *val;

		clean(line, sizeof(line), p, l);
		p = nl ? nl + 1 : end;
		if (is_rule(line) && prev[0]) {
			char t[256];

			snprintf(t, sizeof(t), "%s", prev);
			s = section(trim(t));
			if (s != S_OTHER)
				m->sections++;
			m->has_ber |= s == S_BER;
			m->has_eye |= s == S_EYE;
			prev[0] = 0;
			continue;
		}
		snprintf(prev, sizeof(prev), "%s", line);
		colon = strstr(line, " : ");
		if (!colon)
			colon = strchr(line, ':');
		if (!colon || s == S_NONE || s == S_OTHER)
			continue;
		val = colon + (colon[0] == ' ' ? 3 : 1);
		*colon = 0;
		field(m, s, trim(line), trim(val));
	}
	if (!m->sections) {
		memset(m, 0, sizeof(*m));
		m->eff_errors = -1;
		m->eff_ber = m->raw_ber = -1;
		return -1;
	}
	return 0;
}
