/* src-pci: the HCAs' and GPUs' PCI functions and the bridges between them
 * and their root ports: sysfs attributes, and config space through libpci,
 * enough for the analyzer to decode LnkCap/LnkSta and ACS as lspci -vvv
 * does.  Never touches resource*, rom or vpd (reads there have effects or
 * hang on some devices). */
#include <errno.h>
#include <fcntl.h>
#include <pci/pci.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "log.h"
#include "pci.h"
#include "src.h"
#include "util.h"
#include "wire.h"

static const char *const attrs[] = {
	"vendor", "device", "subsystem_vendor", "subsystem_device", "class",
	"revision", "current_link_speed", "current_link_width",
	"max_link_speed", "max_link_width", "numa_node", "local_cpulist",
	"enable", "sriov_numvfs", "sriov_totalvfs", "sriov_vf_device",
	"aer_dev_correctable", "aer_dev_fatal", "aer_dev_nonfatal",
	"d3cold_allowed", "ari_enabled", "secondary_bus_number",
	"subordinate_bus_number", "reset_method", "label", "index",
};

static const char *const links[] = {
	"driver", "iommu_group", "physfn", "iommu", "firmware_node",
};

static int hex_attr(struct ctx *c, const char *bdf, const char *attr,
		    unsigned long long *v)
{
	struct buf b = BUF_INIT;
	char p[256];
	int rc;

	xsnprintf(p, sizeof(p), "/sys/bus/pci/devices/%s/%s", bdf, attr);
	rc = ctx_read(c, p, &b);
	if (!rc) {
		while (b.len && (b.buf[b.len - 1] == '\n' || b.buf[b.len - 1] == ' '))
			buf_setlen(&b, b.len - 1);
		rc = parse_ull(b.buf, 16, ~0ull, v) < 0 ? -EINVAL : 0;
	}
	buf_release(&b);
	return rc;
}

static int is_bdf(const char *s)
{
	unsigned dom, bus, dev, fn;
	char end;

	return strlen(s) == 12 &&
	       sscanf(s, "%4x:%2x:%2x.%1x%c", &dom, &bus, &dev, &fn, &end) == 4;
}

static void add_name(char ***v, int *n, const char *s)
{
	int i;

	for (i = 0; i < *n; i++)
		if (!strcmp((*v)[i], s))
			return;
	*v = xrealloc(*v, (size_t)(*n + 1) * sizeof(**v));
	(*v)[(*n)++] = xstrdup(s);
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int pci_functions(struct ctx *c, int with_bridges, char ***bdfs)
{
	char **names, **out = NULL, real[4096], p[256];
	int n, i, nout = 0;

	*bdfs = NULL;
	n = ctx_names(c, "/sys/bus/pci/devices", &names);
	if (n < 0)
		return n;
	for (i = 0; i < n; i++) {
		unsigned long long vendor, class;
		char *s, *e;

		if (!is_bdf(names[i]) ||
		    hex_attr(c, names[i], "vendor", &vendor) < 0 ||
		    hex_attr(c, names[i], "class", &class) < 0)
			continue;
		if (vendor == PCI_VENDOR_MELLANOX ||
		    (vendor == PCI_VENDOR_NVIDIA && (class >> 16) == 0x03))
			add_name(&out, &nout, names[i]);
		else
			continue;
		if (!with_bridges)
			continue;
		/* the bridges are the PCI addresses on the device's path */
		xsnprintf(p, sizeof(p), "/sys/bus/pci/devices/%s", names[i]);
		if (ctx_resolve(c, p, real, sizeof(real)) < 0)
			continue;
		for (s = real; *s; s = e) {
			while (*s == '/')
				s++;
			e = strchrnul(s, '/');
			if (e - s == 12) {
				char part[13];

				memcpy(part, s, 12);
				part[12] = 0;
				if (is_bdf(part))
					add_name(&out, &nout, part);
			}
		}
	}
	ctx_names_free(names, n);
	if (nout)
		qsort(out, (size_t)nout, sizeof(*out), cmp);
	*bdfs = out;
	return nout;
}

/* libpci reports fatal errors through a callback that must not return:
 * end this source's child with what it has */
static struct ctx *pci_ctx;

static void pci_fatal(char *msg, ...)
	__attribute__((noreturn, format(printf, 1, 2)));

static void pci_fatal(char *msg, ...)
{
	char reason[512];
	va_list ap;

	va_start(ap, msg);
	vsnprintf(reason, sizeof(reason), msg, ap);
	va_end(ap);
	wire_send(pci_ctx->wfd, W_DONE, 0, SRC_PARTIAL, "", 0, reason,
		  strlen(reason));
	_exit(0);
}

static void pci_quiet(char *msg, ...)
	__attribute__((format(printf, 1, 2)));

static void pci_quiet(char *msg, ...)
{
	(void)msg;
}

/* read as much config space as the kernel gives: 4096 bytes as root,
 * 64 otherwise (or 256 for conventional PCI) */
static int read_config(struct pci_dev *d, u8 *cfg)
{
	if (!pci_read_block(d, 0, cfg, 64))
		return 0;
	if (!pci_read_block(d, 64, cfg + 64, 192))
		return 64;
	if (!pci_read_block(d, 256, cfg + 256, 4096 - 256))
		return 256;
	return 4096;
}

/* under --root: the config file read through the root, as every other
 * file is (libpci opens <sysfs.path>/devices/<bdf>/config itself, and
 * follows a link in the tree to anywhere: /etc/shadow, the host's own
 * sysfs) */
static int config_in_root(struct ctx *c, const char *bdf, u8 *cfg)
{
	char path[128];
	ssize_t k;
	int fd, got = 0;

	xsnprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/config", bdf);
	fd = ctx_open(c, path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return 0;
	while (got < 4096) {
		k = read(fd, cfg + got, (size_t)(4096 - got));
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		got += (int)k;
	}
	close(fd);
	/* what libpci would give: 64, 256 or 4096 bytes */
	return got >= 4096 ? 4096 : got >= 256 ? 256 : got >= 64 ? 64 : 0;
}

static int configs(struct ctx *c, char **bdfs, int n, int *short_reads)
{
	struct pci_access *pacc;
	char path[4096], real[4096];
	u8 cfg[4096];
	int i, got = 0;

	/* libpci only for the live node: under --root it is not even
	 * pointed at the tree */
	pacc = ctx_is_root(c) ? NULL : pci_alloc();
	pci_ctx = c;
	if (pacc) {
		pacc->error = pci_fatal;
		pacc->warning = pci_quiet;
		pacc->debug = pci_quiet;
		pacc->method = PCI_ACCESS_SYS_BUS_PCI;
		pci_set_param(pacc, "sysfs.path", "/sys/bus/pci");
		pci_init(pacc);
	}
	for (i = 0; i < n; i++) {
		unsigned dom, bus, dev, fn;
		struct pci_dev *d;
		int len;

		if (ctx_quarantined(c, bdfs[i]) ||
		    sscanf(bdfs[i], "%x:%x:%x.%x", &dom, &bus, &dev, &fn) != 4)
			continue;
		xsnprintf(path, sizeof(path), "/sys/bus/pci/devices/%s",
			  bdfs[i]);
		if (ctx_resolve(c, path, real, sizeof(real)) < 0)
			continue;
		xsnprintf(path, sizeof(path), "%s/config", real);
		ctx_progress(c, bdfs[i], path);
		if (!pacc) {
			len = config_in_root(c, bdfs[i], cfg);
		} else {
			d = pci_get_dev(pacc, (int)dom, (int)bus, (int)dev,
					(int)fn);
			if (!d)
				continue;
			len = read_config(d, cfg);
			pci_free_dev(d);
		}
		if (!len) {
			c->errors++;
			wire_send(c->wfd, W_ERR, 0, EIO, path + 1,
				  strlen(path + 1), NULL, 0);
			continue;
		}
		if (len < 4096)
			(*short_reads)++;
		ctx_put(c, path, cfg, (size_t)len, 0644);
		got++;
	}
	if (pacc)
		pci_cleanup(pacc);
	return got;
}

static int collect(struct ctx *c)
{
	char **bdfs, p[4096], real[4096], **names;
	int n, i, k, nn, short_reads = 0, got;
	size_t j;

	n = pci_functions(c, 1, &bdfs);
	if (n < 0) {
		ctx_reason(c, "cannot list /sys/bus/pci/devices: %s",
			   strerror(-n));
		return n == -ENOENT ? SRC_ABSENT : SRC_ERROR;
	}
	if (!n) {
		ctx_reason(c, "no Mellanox/NVIDIA network function or NVIDIA "
			   "GPU on the PCI bus");
		return SRC_ABSENT;
	}
	for (i = 0; i < n; i++) {
		if (ctx_quarantined(c, bdfs[i]))
			continue;
		xsnprintf(p, sizeof(p), "/sys/bus/pci/devices/%s", bdfs[i]);
		ctx_link(c, p);
		if (ctx_resolve(c, p, real, sizeof(real)) < 0)
			continue;
		for (j = 0; j < ARRAY_SIZE(attrs); j++) {
			static const int quiet[] = { ENOENT, EINVAL, EIO,
						     ENOTTY, 0 };

			xsnprintf(p, sizeof(p), "%s/%s", real, attrs[j]);
			ctx_file_quiet(c, p, quiet);
		}
		for (j = 0; j < ARRAY_SIZE(links); j++) {
			xsnprintf(p, sizeof(p), "%s/%s", real, links[j]);
			ctx_link(c, p);
		}
		nn = ctx_names(c, real, &names);
		for (k = 0; k < nn; k++) {
			if (strncmp(names[k], "virtfn", 6))
				continue;
			xsnprintf(p, sizeof(p), "%s/%s", real, names[k]);
			ctx_link(c, p);
		}
		if (nn > 0)
			ctx_names_free(names, nn);
	}
	got = configs(c, bdfs, n, &short_reads);
	ctx_note(c, "functions", "%d", n);
	ctx_names_free(bdfs, n);
	if (short_reads) {
		const char *why = ctx_is_root(c) ? "as stored in the root" :
				  geteuid() ? "not root: the kernel shows "
					      "only the first 64 bytes" :
					      "the kernel returned less";

		ctx_note(c, "config_bytes", "short: %s", why);
		ctx_reason(c, "config space of %d of %d functions is short "
			   "(%s): no LnkSta/ACS", short_reads, n, why);
		return SRC_PARTIAL;
	}
	ctx_note(c, "config_bytes", "4096");
	if (got < n) {
		ctx_reason(c, "config space of %d of %d functions could not be "
			   "read", n - got, n);
		return SRC_PARTIAL;
	}
	return SRC_OK;
}

const struct source src_pci = {
	.name = "pci",
	.help = "HCA and GPU PCI functions and their bridges: link speed/width, config space (libpci), NUMA, driver, IOMMU group",
	.timeout_ms = 5000,
	.max_bytes = 4u << 20,
	.collect = collect,
};
