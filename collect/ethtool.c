/* ethtool: driver, counters, private flags, pause and link of a netdev,
 * read with SIOCETHTOOL GET commands (see ethtool.h) */
#include <errno.h>
#include <inttypes.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ethtool.h"
#include "json.h"
#include "log.h"
#include "util.h"

/* no driver has more; a larger count is a broken driver, not data */
#define ETH_MAX_STRINGS 65536
/* the kernel copies out the count it computes at the time of the call,
 * which may have grown since we asked: leave room for that */
#define ETH_SLACK(n) ((n) / 2 + 64)
/* link_mode_masks_nwords is an s8: at most 127 words per mask */
#define ETH_MAX_NWORDS 127
#define ETH_MAX_ERRORS 16

struct eth {
	int fd;
	const char *ifname;
	int nerr;
	struct {
		const char *what;
		int err;
	} errs[ETH_MAX_ERRORS];
	int nok;		/* ioctls that succeeded */
};

static void eth_error(struct eth *e, const char *what, int err)
{
	int i;

	for (i = 0; i < e->nerr; i++)
		if (!strcmp(e->errs[i].what, what))
			return;		/* the first failure tells most */
	if (e->nerr < ETH_MAX_ERRORS) {
		e->errs[e->nerr].what = what;
		e->errs[e->nerr].err = err;
		e->nerr++;
	}
}

static void eth_errors_json(struct eth *e, struct json *j)
{
	int i;

	json_obj_open(j, "errors");
	for (i = 0; i < e->nerr; i++)
		json_str(j, e->errs[i].what,
			 errno_name(e->errs[i].err));
	json_obj_close(j);
}

static int eth_open(struct eth *e, const char *ifname)
{
	memset(e, 0, sizeof(*e));
	e->fd = -1;
	e->ifname = ifname;
	if (strlen(ifname) >= IFNAMSIZ)
		return -ENAMETOOLONG;
	e->fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (e->fd < 0)		/* a kernel without IPv4 */
		e->fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	return e->fd < 0 ? -errno : 0;
}

static void eth_close(struct eth *e)
{
	if (e->fd >= 0)
		close(e->fd);
	e->fd = -1;
}

/* one GET command; 0 or -errno (recorded under what, if what) */
static int eth_ioctl(struct eth *e, const char *what, void *cmd)
{
	struct ifreq ifr;
	int rc;

	memset(&ifr, 0, sizeof(ifr));
	memcpy(ifr.ifr_name, e->ifname, strlen(e->ifname));
	ifr.ifr_data = cmd;
	do {
		rc = ioctl(e->fd, SIOCETHTOOL, &ifr);
	} while (rc < 0 && errno == EINTR);
	if (rc < 0) {
		rc = -errno;
		if (what)
			eth_error(e, what, -rc);
		return rc;
	}
	e->nok++;
	return 0;
}

/* the size of string set ss: GSSET_INFO, or the drvinfo count (fallback,
 * when drv is given) on drivers without it; count or -errno */
static int sset_count(struct eth *e, int ss, const struct ethtool_drvinfo *drv)
{
	struct {
		struct ethtool_sset_info hdr;
		uint32_t data[1];
	} si;
	int rc;

	memset(&si, 0, sizeof(si));
	si.hdr.cmd = ETHTOOL_GSSET_INFO;
	si.hdr.sset_mask = 1ULL << ss;
	rc = eth_ioctl(e, NULL, &si);
	if (!rc) {
		if (!(si.hdr.sset_mask & (1ULL << ss)))
			return 0;	/* the set is empty or unknown */
		return si.hdr.data[0] > ETH_MAX_STRINGS ? -E2BIG :
			(int)si.hdr.data[0];
	}
	if (drv && (rc == -EOPNOTSUPP || rc == -EINVAL)) {
		rc = (int)(ss == ETH_SS_STATS ? drv->n_stats :
			   drv->n_priv_flags);
		if (drv->n_stats > ETH_MAX_STRINGS ||
		    drv->n_priv_flags > ETH_MAX_STRINGS)
			rc = -E2BIG;
	}
	return rc;
}

/* the names of string set ss (n expected); *out holds *got names of
 * ETH_GSTRING_LEN bytes each; 0 or -errno */
static int get_strings(struct eth *e, int ss, int n, const char *what,
		       struct ethtool_gstrings **out, int *got)
{
	size_t room = (size_t)n + ETH_SLACK((size_t)n);
	struct ethtool_gstrings *gs;
	int rc;

	*out = NULL;
	*got = 0;
	gs = xcalloc(1, sizeof(*gs) + room * ETH_GSTRING_LEN);
	gs->cmd = ETHTOOL_GSTRINGS;
	gs->string_set = (uint32_t)ss;
	gs->len = (uint32_t)n;
	rc = eth_ioctl(e, what, gs);
	if (rc < 0) {
		free(gs);
		return rc;
	}
	*got = gs->len < room ? (int)gs->len : (int)room;
	*out = gs;
	return 0;
}

static const char *gstring(const struct ethtool_gstrings *gs, int i,
			   size_t *len)
{
	const char *s = (const char *)gs->data + (size_t)i * ETH_GSTRING_LEN;

	*len = strnlen(s, ETH_GSTRING_LEN);
	return s;
}

struct stats {
	struct ethtool_gstrings *gs;
	struct ethtool_stats *st;
	int n;
};

/* GSSET_INFO (or GDRVINFO), GSTRINGS, GSTATS; 0 or -errno */
static int stats_read(struct eth *e, const struct ethtool_drvinfo *drv,
		      struct stats *s)
{
	struct ethtool_drvinfo own;
	size_t room;
	int n, got, nval, rc;

	memset(s, 0, sizeof(*s));
	n = sset_count(e, ETH_SS_STATS, drv);
	if ((n == -EOPNOTSUPP || n == -EINVAL) && !drv) {
		/* a driver without GSSET_INFO: its drvinfo has the count */
		memset(&own, 0, sizeof(own));
		own.cmd = ETHTOOL_GDRVINFO;
		if (!eth_ioctl(e, NULL, &own))
			n = sset_count(e, ETH_SS_STATS, &own);
	}
	if (n <= 0) {
		if (n < 0)
			eth_error(e, "stats", -n);
		return n;
	}
	rc = get_strings(e, ETH_SS_STATS, n, "stats", &s->gs, &got);
	if (rc < 0)
		return rc;
	room = (size_t)got + ETH_SLACK((size_t)got);
	s->st = xcalloc(1, sizeof(*s->st) + room * sizeof(uint64_t));
	s->st->cmd = ETHTOOL_GSTATS;
	s->st->n_stats = (uint32_t)got;
	rc = eth_ioctl(e, "stats", s->st);
	if (rc < 0)
		return rc;
	nval = s->st->n_stats < room ? (int)s->st->n_stats : (int)room;
	if (nval != got)	/* the set changed between the two calls */
		eth_error(e, "stats", ESTALE);
	s->n = nval < got ? nval : got;
	return 0;
}

/* one [name, value] pair on one line, as an array element */
static void pair_json(struct json *j, struct buf *tmp, const char *name,
		      size_t len, uint64_t v)
{
	buf_reset(tmp);
	buf_addch(tmp, '[');
	json_quote(tmp, name, len);
	buf_addf(tmp, ", %" PRIu64 "]", v);
	json_raw(j, NULL, tmp->buf);
}

/* "stats": [[name, value], ...] */
static void stats_write(struct json *j, const struct stats *s)
{
	struct buf tmp = BUF_INIT;
	size_t len;
	int i;

	json_arr_open(j, "stats");
	for (i = 0; i < s->n; i++) {
		const char *name = gstring(s->gs, i, &len);

		pair_json(j, &tmp, name, len, s->st->data[i]);
	}
	json_arr_close(j);
	buf_release(&tmp);
}

static void stats_free(struct stats *s)
{
	free(s->gs);
	free(s->st);
	memset(s, 0, sizeof(*s));
}

static void drvinfo_json(struct json *j, const struct ethtool_drvinfo *d)
{
	json_obj_open(j, "drvinfo");
	json_strn(j, "driver", d->driver, strnlen(d->driver,
						  sizeof(d->driver)));
	json_strn(j, "version", d->version, strnlen(d->version,
						    sizeof(d->version)));
	json_strn(j, "fw_version", d->fw_version,
		  strnlen(d->fw_version, sizeof(d->fw_version)));
	json_strn(j, "bus_info", d->bus_info,
		  strnlen(d->bus_info, sizeof(d->bus_info)));
	json_strn(j, "erom_version", d->erom_version,
		  strnlen(d->erom_version, sizeof(d->erom_version)));
	json_uint(j, "n_stats", d->n_stats);
	json_uint(j, "n_priv_flags", d->n_priv_flags);
	json_uint(j, "testinfo_len", d->testinfo_len);
	json_uint(j, "eedump_len", d->eedump_len);
	json_uint(j, "regdump_len", d->regdump_len);
	json_obj_close(j);
}

static void priv_flags_json(struct eth *e, struct json *j,
			    const struct ethtool_drvinfo *drv)
{
	struct ethtool_gstrings *gs = NULL;
	struct buf tmp = BUF_INIT;
	struct ethtool_value v;
	size_t len;
	int n, got, i;

	n = sset_count(e, ETH_SS_PRIV_FLAGS, drv);
	if (n < 0) {
		eth_error(e, "priv_flags", -n);
		return;
	}
	if (n > 32)	/* GPFLAGS is one 32-bit word */
		n = 32;
	if (n && get_strings(e, ETH_SS_PRIV_FLAGS, n, "priv_flags",
			     &gs, &got) < 0)
		return;
	if (n) {
		memset(&v, 0, sizeof(v));
		v.cmd = ETHTOOL_GPFLAGS;
		if (eth_ioctl(e, "priv_flags", &v) < 0)
			goto out;
		if (got < n)
			n = got;
	}
	json_arr_open(j, "priv_flags");
	for (i = 0; i < n; i++) {
		const char *s = gstring(gs, i, &len);

		pair_json(j, &tmp, s, len, (v.data >> i) & 1);
	}
	json_arr_close(j);
out:
	buf_release(&tmp);
	free(gs);
}

static void pause_json(struct eth *e, struct json *j)
{
	struct ethtool_pauseparam p;

	memset(&p, 0, sizeof(p));
	p.cmd = ETHTOOL_GPAUSEPARAM;
	if (eth_ioctl(e, "pause", &p) < 0)
		return;
	json_obj_open(j, "pause");
	json_uint(j, "autoneg", p.autoneg);
	json_uint(j, "rx_pause", p.rx_pause);
	json_uint(j, "tx_pause", p.tx_pause);
	json_obj_close(j);
}

static void speed_json(struct json *j, uint32_t speed)
{
	if (speed == (uint32_t)SPEED_UNKNOWN)
		json_int(j, "speed", -1);
	else
		json_uint(j, "speed", speed);
}

static void mask_json(struct json *j, const char *key, const uint32_t *w,
		      int n)
{
	struct buf tmp = BUF_INIT;
	int i;

	buf_addch(&tmp, '[');
	for (i = 0; i < n; i++)
		buf_addf(&tmp, "%s%" PRIu32, i ? ", " : "", w[i]);
	buf_addch(&tmp, ']');
	json_raw(j, key, tmp.buf);
	buf_release(&tmp);
}

/* GLINKSETTINGS: ask for the mask size, then ask with it; 0 or -errno */
static int link_settings(struct eth *e, struct json *j)
{
	struct ethtool_link_settings *ls;
	size_t size = sizeof(*ls) + 3 * ETH_MAX_NWORDS * sizeof(uint32_t);
	int nwords, rc;

	ls = xcalloc(1, size);
	ls->cmd = ETHTOOL_GLINKSETTINGS;
	rc = eth_ioctl(e, NULL, ls);
	if (rc < 0)
		goto out;
	nwords = -ls->link_mode_masks_nwords;
	if (ls->cmd != ETHTOOL_GLINKSETTINGS || nwords <= 0 ||
	    nwords > ETH_MAX_NWORDS) {
		rc = -EPROTO;
		goto out;
	}
	memset(ls, 0, size);
	ls->cmd = ETHTOOL_GLINKSETTINGS;
	ls->link_mode_masks_nwords = (int8_t)nwords;
	rc = eth_ioctl(e, NULL, ls);
	if (rc < 0)
		goto out;
	if (ls->cmd != ETHTOOL_GLINKSETTINGS ||
	    ls->link_mode_masks_nwords != nwords) {
		rc = -EPROTO;
		goto out;
	}
	json_str(j, "source", "link_settings");
	speed_json(j, ls->speed);
	json_uint(j, "duplex", ls->duplex);
	json_uint(j, "port", ls->port);
	json_uint(j, "phy_address", ls->phy_address);
	json_uint(j, "autoneg", ls->autoneg);
	json_uint(j, "mdio_support", ls->mdio_support);
	json_uint(j, "eth_tp_mdix", ls->eth_tp_mdix);
	json_uint(j, "eth_tp_mdix_ctrl", ls->eth_tp_mdix_ctrl);
	json_uint(j, "transceiver", ls->transceiver);
	json_uint(j, "master_slave_cfg", ls->master_slave_cfg);
	json_uint(j, "master_slave_state", ls->master_slave_state);
	json_uint(j, "rate_matching", ls->rate_matching);
	mask_json(j, "supported", ls->link_mode_masks, nwords);
	mask_json(j, "advertising", ls->link_mode_masks + nwords, nwords);
	mask_json(j, "lp_advertising", ls->link_mode_masks + 2 * nwords,
		  nwords);
out:
	free(ls);
	return rc;
}

/* GSET, the old form, for drivers without GLINKSETTINGS */
static int link_gset(struct eth *e, struct json *j)
{
	struct ethtool_cmd ec;
	uint32_t w;
	int rc;

	memset(&ec, 0, sizeof(ec));
	ec.cmd = ETHTOOL_GSET;
	rc = eth_ioctl(e, NULL, &ec);
	if (rc < 0)
		return rc;
	json_str(j, "source", "gset");
	speed_json(j, ethtool_cmd_speed(&ec));
	json_uint(j, "duplex", ec.duplex);
	json_uint(j, "port", ec.port);
	json_uint(j, "phy_address", ec.phy_address);
	json_uint(j, "autoneg", ec.autoneg);
	json_uint(j, "mdio_support", ec.mdio_support);
	json_uint(j, "eth_tp_mdix", ec.eth_tp_mdix);
	json_uint(j, "eth_tp_mdix_ctrl", ec.eth_tp_mdix_ctrl);
	json_uint(j, "transceiver", ec.transceiver);
	w = ec.supported;
	mask_json(j, "supported", &w, 1);
	w = ec.advertising;
	mask_json(j, "advertising", &w, 1);
	w = ec.lp_advertising;
	mask_json(j, "lp_advertising", &w, 1);
	return 0;
}

static void link_json(struct eth *e, struct json *j)
{
	struct ethtool_value v;
	int rc;

	json_obj_open(j, "link");
	rc = link_settings(e, j);
	if (rc < 0 && rc != -ENODEV) {
		rc = link_gset(e, j);
		if (rc < 0)
			eth_error(e, "link", -rc);
	} else if (rc < 0) {
		eth_error(e, "link", -rc);
	}
	memset(&v, 0, sizeof(v));
	v.cmd = ETHTOOL_GLINK;
	if (!eth_ioctl(e, "link_detected", &v))
		json_uint(j, "link_detected", v.data);
	json_obj_close(j);
}

int ethtool_stats_json(const char *ifname, struct buf *out)
{
	struct stats s = { 0 };
	struct json j;
	struct eth e;
	int rc;

	rc = eth_open(&e, ifname);
	if (rc < 0)
		eth_error(&e, "socket", -rc);
	else
		rc = stats_read(&e, NULL, &s);
	json_init(&j, out, 1);
	json_obj_open(&j, NULL);
	json_str(&j, "ifname", ifname);
	json_str(&j, "status", !rc ? "ok" :
		 rc == -ENODEV || rc == -EOPNOTSUPP ? "absent" : "error");
	if (!rc)
		stats_write(&j, &s);
	eth_errors_json(&e, &j);
	json_obj_close(&j);
	json_end(&j);
	stats_free(&s);
	eth_close(&e);
	return rc;
}

int ethtool_json(const char *ifname, struct buf *out)
{
	struct ethtool_drvinfo drv;
	struct stats s = { 0 };
	struct json j;
	struct eth e;
	int rc, drc = -EIO, src = -EIO;

	memset(&drv, 0, sizeof(drv));
	rc = eth_open(&e, ifname);
	if (rc < 0) {
		eth_error(&e, "socket", -rc);
	} else {
		drv.cmd = ETHTOOL_GDRVINFO;
		drc = eth_ioctl(&e, "drvinfo", &drv);
		if (drc != -ENODEV)
			src = stats_read(&e, drc ? NULL : &drv, &s);
		rc = !drc || !src ? 0 : drc;
	}
	json_init(&j, out, 1);
	json_obj_open(&j, NULL);
	json_str(&j, "ifname", ifname);
	json_str(&j, "status", !rc ? "ok" : rc == -ENODEV ? "absent" :
		 "error");
	if (!drc)
		drvinfo_json(&j, &drv);
	if (!src)
		stats_write(&j, &s);
	if (e.fd >= 0 && drc != -ENODEV) {
		pause_json(&e, &j);
		link_json(&e, &j);
		priv_flags_json(&e, &j, drc ? NULL : &drv);
	}
	eth_errors_json(&e, &j);
	json_obj_close(&j);
	json_end(&j);
	stats_free(&s);
	eth_close(&e);
	return rc;
}
