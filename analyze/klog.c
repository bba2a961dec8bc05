/* klog: the kernel log's parser: records of either stored form, the PCI
 * address each names and what RDMA checks read it for (klog.h).  The
 * loader (load-klog.c), the dmesg view and the importers read the log
 * through it.
 *
 * Categories (klog.category; the exact formats, old and new, are those
 * the kernel prints: drivers/net/ethernet/mellanox/mlx5/core/health.c,
 * events.c port_module(), pagealloc.c, cmd.c, main.c; drivers/infiniband/
 * hw/mlx5/cq.c; drivers/pci/pci.c __pcie_print_link_status();
 * drivers/iommu/iommu.c and intel/dmar.c, amd/iommu.c; NVIDIA's
 * kernel-open/nvidia-peermem/nvidia-peermem.c; and the real logs of
 * tests/real/host-dmesg-*):
 *   fw_reset      firmware health and recovery: "Health issue observed, ..."
 *                 (new) and every print_health_info line (assert_var[N],
 *                 synd 0x.., fw_ver, ... also the old form without header),
 *                 "Fatal error N detected", "device's health compromised -
 *                 reached miss count", "PCI slot is unavailable", "Cold reset
 *                 is required", "Issuing FW Reset", SW reset / NIC IFC /
 *                 bad-state lines, "starting health recovery flow", "health
 *                 recovery failed|succeeded", "Driver is in error state"
 *   fw_mem_alloc  firmware page (ICM backing) supply, pagealloc.c: "failed to
 *                 allocate page", "func_id 0x.., npages N, err N",
 *                 "failed reclaiming pages", "FW did not return all pages",
 *                 ...; SW steering ICM pool; and command failures with status
 *                 "limits exceeded" or "no resources", or a CREATE_* /
 *                 ALLOC_* command's "bad resource" (too many QPs, MRs,
 *                 CQs: the firmware's resources are used up).  mlx5 has no
 *                 literal "ICM allocation failed"; the guides' wording is
 *                 matched too, for logs quoted from them.
 *   mlx5_cmd      other firmware command failures ("%s(0x%x) op_mod(0x%x)
 *                 failed, status ...") and command timeouts
 *   cable_module  "Port module event[error]: module N, Cable error, <reason>"
 *                 (new, with func prefix) and the old info form "Port module
 *                 event: module N, Cable error, <reason>"; "Unknown status"
 *   link_flap     the link or module going away: "Port module event: module
 *                 N, Cable unplugged" / "Cable disabled", and the netdev's
 *                 "mlx5_core <bdf> <if>: Link down"
 *   pcie_bw       "... available PCIe bandwidth, limited by ..." (any
 *                 device; PCIE_LINK_DEGRADED picks the HCAs' lines)
 *   pcie_power    "Detected insufficient power on the PCIe slot (NW)."
 *   peermem       nvidia-peermem / nv_peer_mem failing to load or register
 *                 ("nvidia-peermem <func>:<line> ... error ...",
 *                 "nvidia_peermem: Unknown symbol ...", "disagrees about
 *                 version of symbol", ib_core's "Peer memory X is missing
 *                 mandatory function"); it logs nothing on success, and the
 *                 taint notice of a successful load is not a failure
 *   iommu         DMAR faults ("DMAR: [DMA Read NO_PASID] Request device
 *                 ..."), AMD-Vi IO_PAGE_FAULT events, "iommu: Default domain
 *                 type: ..." (a state line: read by the IOMMU checks), "Failed
 *                 to add to iommu group"
 *   probe_fail    "mlx5_load_one failed ...", "handle_hca_cap failed",
 *                 "probe of <bdf> failed with error N" (mlx5)
 *   cqe_error     mlx5_ib "WC error: N, Message: ..." (kernel consumers only;
 *                 user-space completions are never logged)
 *   probe         normal mlx5 state lines, NOT events: "firmware version:",
 *                 "... available PCIe bandwidth (... link)" at full speed,
 *                 "Port module event: module N, Cable plugged", "<if>: Link
 *                 up", slot power sufficient / not advertised, the mlx5_ib
 *                 driver banner
 * NULL: not RDMA-relevant.  klog.prio holds the syslog level (0-7, the
 * facility removed).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "klog.h"

/* --- records --- */

void klog_iter_init(struct klog_iter *it, const char *data, size_t len,
		    int syslog)
{
	it->p = data;
	it->end = data ? data + len : data;
	it->syslog = syslog;
}

/* one line [p, eol) without its newline; advances the iterator */
static size_t next_line(struct klog_iter *it, const char **line)
{
	const char *e;

	*line = it->p;
	e = memchr(it->p, '\n', (size_t)(it->end - it->p));
	if (!e)
		e = it->end;
	it->p = e < it->end ? e + 1 : e;
	return (size_t)(e - *line);
}

/* a decimal number at *p (at most 18 digits: no overflow) ending the scan
 * at a non-digit; -1 if none or longer */
static int64_t dec(const char **p, const char *end)
{
	int64_t v = 0;
	int n = 0;

	while (*p < end && isdigit((unsigned char)**p) && n < 18) {
		v = v * 10 + (**p - '0');
		(*p)++;
		n++;
	}
	if (*p < end && isdigit((unsigned char)**p))
		return -1;	/* too long */
	return n ? v : -1;
}

/* kmsg escapes unprintable bytes as \xNN; keep them escaped except a
 * backslash, so a record stays one line */
static void copy_text(char *out, size_t n, const char *s, size_t len)
{
	size_t i = 0, o = 0;

	while (i < len && o + 1 < n) {
		if (s[i] == '\\' && i + 4 <= len &&
		    !strncmp(s + i, "\\x5c", 4)) {
			out[o++] = '\\';
			i += 4;
			continue;
		}
		out[o++] = (s[i] == '\r' || s[i] == '\0') ? ' ' : s[i];
		i++;
	}
	out[o] = 0;
}

static int is_pci_addr(const char *s, size_t len)
{
	static const char shape[] = "xxxx:xx:xx.x";
	size_t i;

	if (len < 12)
		return 0;
	for (i = 0; i < 12; i++)
		if (shape[i] == 'x' ? !isxdigit((unsigned char)s[i]) :
				      s[i] != shape[i])
			return 0;
	return 1;
}

int klog_text_device(const char *text, char *out, size_t n)
{
	const char *sp = strchr(text, ' ');
	size_t i;

	/* "<driver> <bdf>: " or "<driver> <bdf> <ifname>: " */
	if (!sp || n < 13 || sp - text > 32)
		return -1;
	for (i = 0; text + i < sp; i++)
		if (!isalnum((unsigned char)text[i]) && text[i] != '_' &&
		    text[i] != '-')
			return -1;
	sp++;
	if (!is_pci_addr(sp, strlen(sp)) || (sp[12] != ':' && sp[12] != ' '))
		return -1;
	memcpy(out, sp, 12);
	out[12] = 0;
	for (i = 0; i < 12; i++)
		out[i] = (char)tolower((unsigned char)out[i]);
	return 0;
}

static int parse_kmsg(const char *line, size_t len, struct klog_rec *r)
{
	const char *p = line, *end = line + len, *semi;
	int64_t prio;

	semi = memchr(line, ';', len);
	if (!semi)
		return -1;
	prio = dec(&p, semi);
	if (prio < 0 || prio > 2047 || p >= semi || *p++ != ',')
		return -1;
	r->seq = dec(&p, semi);
	if (r->seq < 0 || p >= semi || *p++ != ',')
		return -1;
	r->ts_us = dec(&p, semi);
	if (r->ts_us < 0 || (p < semi && *p != ','))
		return -1;
	r->level = (int)(prio & 7);
	r->facility = (int)(prio >> 3);
	copy_text(r->text, sizeof(r->text), semi + 1, (size_t)(end - semi - 1));
	return 0;
}

static int parse_syslog(const char *line, size_t len, struct klog_rec *r)
{
	const char *p = line, *end = line + len;
	int64_t prio, s, us;

	if (p >= end || *p++ != '<')
		return -1;
	prio = dec(&p, end);
	if (prio < 0 || prio > 2047 || p >= end || *p++ != '>')
		return -1;
	r->level = (int)(prio & 7);
	r->facility = (int)(prio >> 3);
	r->seq = -1;
	r->ts_us = -1;
	if (p < end && *p == '[') {
		const char *q = p + 1, *f;

		while (q < end && *q == ' ')
			q++;
		s = dec(&q, end);
		if (s < 0 || q >= end || *q++ != '.')
			return -1;
		f = q;
		us = dec(&q, end);
		if (us < 0 || q >= end || *q != ']' || q - f > 9)
			return -1;
		while (q - f < 6) {	/* fraction digits to microseconds */
			us *= 10;
			f--;
		}
		while (q - f > 6) {
			us /= 10;
			f++;
		}
		if (s > INT64_MAX / 1000000 - 1)
			return -1;
		r->ts_us = s * 1000000 + us;
		p = q + 1;
		if (p < end && *p == ' ')
			p++;
	}
	copy_text(r->text, sizeof(r->text), p, (size_t)(end - p));
	return 0;
}

int klog_next(struct klog_iter *it, struct klog_rec *r)
{
	const char *line;
	size_t len;

	while (it->p && it->p < it->end) {
		len = next_line(it, &line);
		if (!len || line[0] == ' ')	/* orphan continuation */
			continue;
		memset(r, 0, sizeof(*r));
		if ((it->syslog ? parse_syslog : parse_kmsg)(line, len, r) < 0)
			continue;
		/* continuation lines: " KEY=value" */
		while (!it->syslog && it->p < it->end && it->p[0] == ' ') {
			const char *c;
			size_t cl = next_line(it, &c);

			if (cl >= 13 + 12 && !strncmp(c, " DEVICE=+pci:", 13) &&
			    is_pci_addr(c + 13, cl - 13) && !r->device[0]) {
				size_t i;

				for (i = 0; i < 12; i++)
					r->device[i] = (char)tolower(
						(unsigned char)c[13 + i]);
				r->device[12] = 0;
			}
		}
		if (!r->device[0])
			klog_text_device(r->text, r->device, sizeof(r->device));
		r->category = klog_category(r->text);
		return 1;
	}
	return 0;
}

int klog_open(const struct bundle_r *b, struct klog_iter *it,
	      const char **path)
{
	const char *d;
	size_t len;

	if ((d = br_data(b, KLOG_KMSG, &len))) {
		klog_iter_init(it, d, len, 0);
		*path = KLOG_KMSG;
		return 1;
	}
	if ((d = br_data(b, KLOG_SYSLOG, &len))) {
		klog_iter_init(it, d, len, 1);
		*path = KLOG_SYSLOG;
		return 1;
	}
	klog_iter_init(it, NULL, 0, 0);
	*path = NULL;
	return 0;
}

/* --- categories --- */

static int has(const char *s, const char *needle)
{
	return strstr(s, needle) != NULL;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	while (a && (s[a - 1] == ' ' || s[a - 1] == '\t'))
		a--;
	return a >= b && !memcmp(s + a - b, suffix, b);
}

static const char *const fw_reset_needles[] = {
	"print_health_info:", "Health issue observed", "health compromised",
	"PCI slot is unavailable", "Cold reset is required", "Issuing FW Reset",
	"Not issuing FW reset", "SW reset semaphore", "crdump",
	"mlx5_error_sw_reset", "NIC IFC", "Expected to see disabled NIC",
	"starting teardown", "NIC SW reset in progress",
	"handling bad device here", "health recovery",
	"health works are not permitted", "Driver is in error state",
	"FW fatal error", "stop waiting for PCI", "PCI Link up", NULL,
};

static const char *const fw_mem_needles[] = {
	"failed to allocate page", "failed dma mapping page",
	"failed to track allocated page", "page notify failed",
	"failed reclaiming pages", "=> corruption", "reclaim_pages err",
	"FW did not return all pages", "pending pages", "alloc 4k bug",
	"Failed to allocate SW ICM memory", "ICM Buddy: failed",
	"ICM allocation failed", NULL,
};

static int any(const char *s, const char *const *needles)
{
	for (; *needles; needles++)
		if (has(s, *needles))
			return 1;
	return 0;
}

/* cmd_status_print's "...: CREATE_QP(0x500) op_mod(0x0) ...": a
 * command that creates or allocates an object (CREATE_QP, CREATE_MKEY,
 * ALLOC_PD, ...).  The firmware refuses one with "bad resource" when the
 * object table it draws from is used up (a QP loop stopping below max_qp) */
static int creates(const char *t)
{
	const char *e = strstr(t, " op_mod(0x"), *p = e;

	while (p && p > t && p[-1] != ' ')
		p--;
	return p && (!strncmp(p, "CREATE_", 7) || !strncmp(p, "ALLOC_", 6)) &&
	       memchr(p, '(', (size_t)(e - p));
}

static const char *mlx5_category(const char *t)
{
	if (any(t, fw_reset_needles) ||
	    (has(t, "Fatal error ") && has(t, " detected")))
		return "fw_reset";
	if (any(t, fw_mem_needles) ||
	    (has(t, "func_id 0x") && has(t, ", npages ") && has(t, ", err ")))
		return "fw_mem_alloc";
	if (has(t, " op_mod(0x") && has(t, ") failed, status ")) {
		if (has(t, "status limits exceeded(") ||
		    has(t, "status no resources(") ||
		    (creates(t) && has(t, "status bad resource(")))
			return "fw_mem_alloc";
		return "mlx5_cmd";
	}
	if (has(t, "timeout. Will cause a leak") ||
	    has(t, "No done completion") || has(t, "recovered after timeout") ||
	    has(t, "canceled on out of queue timeout") ||
	    (has(t, "Firmware over ") && has(t, "state, aborting")) ||
	    has(t, "Waiting for FW "))
		return "mlx5_cmd";
	if (has(t, "Port module event")) {
		if (has(t, "Cable error") || has(t, "event[error]") ||
		    has(t, "Unknown status"))
			return "cable_module";
		if (has(t, "Cable unplugged") || has(t, "Cable disabled"))
			return "link_flap";
		if (has(t, "Cable plugged"))
			return "probe";
		return "cable_module";
	}
	if (ends_with(t, ": Link down"))
		return "link_flap";
	if (has(t, "available PCIe bandwidth, limited by"))
		return "pcie_bw";
	if (has(t, "Detected insufficient power on the PCIe slot"))
		return "pcie_power";
	if (has(t, "mlx5_load_one failed") || has(t, "handle_hca_cap failed") ||
	    (has(t, "probe of ") && has(t, " failed with error")) ||
	    has(t, "mlx5_init_one failed"))
		return "probe_fail";
	if (ends_with(t, ": Link up") || has(t, "firmware version: ") ||
	    has(t, "available PCIe bandwidth (") ||
	    has(t, "PCIe slot advertised sufficient power") ||
	    has(t, "PCIe slot power capability was not advertised") ||
	    has(t, "Live patch updated firmware version"))
		return "probe";
	return NULL;
}

const char *klog_category(const char *t)
{
	if (!strncmp(t, "mlx5_core: mlx5_ib: Mellanox", 28))
		return "probe";		/* the mlx5_ib banner, MOFED form */
	if (!strncmp(t, "mlx5_core", 9))
		return mlx5_category(t);
	if ((!strncmp(t, "infiniband ", 11) || !strncmp(t, "mlx5_ib", 7)) &&
	    has(t, "WC error: ") && has(t, "Message: "))
		return "cqe_error";
	if (!strncmp(t, "mlx5_ib: Mellanox", 17))
		return "probe";
	if (!strncmp(t, "nvidia-peermem ", 15) ||
	    !strncmp(t, "nvidia_peermem: ", 16) ||
	    !strncmp(t, "nv_peer_mem: ", 13) || !strncmp(t, "nv_peer_mem ", 12) ||
	    (has(t, "Peer memory ") && has(t, "missing mandatory function")) ||
	    has(t, "could not insert 'nvidia_peermem'") ||
	    has(t, "could not insert 'nv_peer_mem'"))
		return has(t, "taints kernel") || has(t, "tainting kernel") ?
			NULL : "peermem";
	if (!strncmp(t, "DMAR: [", 7) || has(t, "DMAR: DRHD: handling fault") ||
	    has(t, "IO_PAGE_FAULT") || has(t, "AMD-Vi: Event logged") ||
	    !strncmp(t, "iommu: Default domain type:", 27) ||
	    has(t, "Failed to add to iommu group"))
		return "iommu";
	if (has(t, "available PCIe bandwidth, limited by"))
		return "pcie_bw";
	if (has(t, "mlx5_core") && has(t, "probe of ") &&
	    has(t, " failed with error"))
		return "probe_fail";
	return NULL;
}

int klog_is_event(const char *category)
{
	return category && strcmp(category, "probe");
}
