/* atest-imp-sysinfo: the sysinfo-snapshot reader (imp-sysinfo.c) on small
 * snapshots written here: the page's escaping undone (3.7's &nbsp; and
 * <br/>, 3.1's raw text), a command's own file preferred to its page
 * copy, names recovered from "Invoked Command:", the "File:" records at
 * their sysfs paths, identity from the page's name, flint's firmware, and
 * pages that are not what they say.
 *
 * `atest-imp-sysinfo --cat INPUT PATH` imports INPUT and prints the entry
 * at PATH (tests/cli/import-sysinfo.sh compares files with it).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "breader.h"
#include "import.h"
#include "json.h"
#include "jsonp.h"
#include "log.h"
#include "t.h"
#include "util.h"

static char root[256];

static void put(const char *name, const char *text, size_t len)
{
	char p[512], *s;
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", root, name);
	for (s = strchr(p + strlen(root) + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = 0;
		mkdir(p, 0755);
		*s = '/';
	}
	f = fopen(p, "w");
	if (!f || fwrite(text, 1, len, f) != len || fclose(f))
		die("cannot write %s", p);
}

static void puts_(const char *name, const char *text)
{
	put(name, text, strlen(text));
}

static void fresh(void)
{
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd))
		die("cannot clean %s", root);
	mkdir(root, 0755);
}

static struct bundle_r *import(const char *path)
{
	struct bundle_r *b = NULL;
	char err[256];

	if (imp_open(path, NULL, &b, err, sizeof(err)) < 0) {
		printf("# import of %s: %s\n", path, err);
		return NULL;
	}
	return b;
}

static const char *data(const struct bundle_r *b, const char *path)
{
	return b ? br_data(b, path, NULL) : NULL;
}

/* does a note of the manifest hold s? */
static int noted(const struct bundle_r *b, const char *s)
{
	const struct jv *notes = b ? jget(jget(b->manifest, "import"), "notes")
				   : NULL;
	size_t i;

	for (i = 0; i < jlen(notes); i++) {
		const struct jv *n = jat(notes, i);

		if (n && n->t == J_STR && strstr(n->s, s))
			return 1;
	}
	return 0;
}

/* the page of 3.7: tabs as four &nbsp;, newlines as <br/>, < > escaped */
static void page37(void)
{
	struct bundle_r *b;

	fresh();
	puts_("node9-20251124-093012.html",
	      "<html><head><title>x</title></head><body><pre>"
	      "<a name=\"index\"></a><h2>Version: 3.7.8</h2><br/><hr/>"
	      "<h2>1. Server Commands: </h2><table><tr><td><a href=\"#sec1101\">"
	      "hostname</a></td></tr></table><p>"
	      "<a name=\"sec1101\"></a><small><a href=\"#index\">[back to index]"
	      "</a></small> <h2>hostname</h2><p>from-the-page<br/></p>"
	      "<a name=\"sec1102\"></a><h2>/proc/meminfo</h2><p>MemTotal:"
	      "&nbsp;&nbsp;&nbsp;&nbsp;1000 kB<br/>Weird: &lt;a&gt; &amp; b"
	      "<br/></p>"
	      "<a name=\"sec1103\"></a><h2>/proc/../../x</h2><p>y<br/></p>"
	      "<a name=\"sec1104\"></a><h2>bad\x01title</h2><p>y<br/></p>"
	      "<a name=\"sec1105\"></a><h2>date</h2><p>Mon Nov 24 09:30:12 CET "
	      "2025<br/></p></p></body></pre></html>");
	puts_("commands_txt_output/hostname.txt",
	      "Invoked Command: hostname\nnode9\n");
	puts_("commands_txt_output/ls_la_devinfiniband.txt",
	      "Invoked Command: ls -la /dev/infiniband\ntotal 0\n"
	      "drwxr-xr-x  2 root root      120 Nov 24 09:00 .\n"
	      "drwxr-xr-x 20 root root     4060 Nov 24 09:00 ..\n"
	      "crw-rw-rw-  1 root root  10,  58 Nov 24 09:00 rdma_cm\n"
	      "crw-------  1 root root 231,   0 Nov 24 09:00 umad0\n"
	      "crw-rw-rw-  1 root root 231, 192 Nov 24 09:00 uverbs0\n");
	b = import(root);
	T_OK(b != NULL, "3.7 page: imported");
	T_STREQ(data(b, "proc/meminfo"),
		"MemTotal:\t1000 kB\nWeird: <a> &amp; b\n",
		"3.7 page: four &nbsp; a tab, <br/> a newline, &lt; &gt; back, "
		"& as it was");
	T_STREQ(b ? jstr(b->manifest, "hostname") : NULL, "node9",
		"the hostname command's own file wins over its page copy");
	T_STREQ(b ? jstr(b->manifest, "collected_at") : NULL,
		"2025-11-24T09:30:12Z", "collected_at from the page's name");
	T_OK(noted(b, "the node's local time CET"),
	     "... and a note says it is the node's local time");
	T_OK(data(b, "rdma-collect/devnodes.json") != NULL,
	     "ls -la /dev/infiniband: the command from its Invoked line");
	T_OK(noted(b, "unsafe bundle path"), "a title climbing out: left out");
	T_OK(noted(b, "title is no command or path"),
	     "a title with a control character: left out");
	br_free(b);
}

/* 3.1: the page alone, named like its folder, raw text, System Files */
static void page31(void)
{
	struct bundle_r *b;
	char p[512];

	fresh();
	puts_("sysinfo-snapshot-v3.1.6-old-node-20151115-1504.html",
	      "<html><body><pre><p><a name=\"sec1011\"></a><small>[prev]</small>"
	      " <h2>uname -a</h2><p>Linux old-node 2.6.32-504.el6.x86_64 #1 SMP"
	      "</p><a name=\"sec3045\"></a><h2>/proc/cmdline</h2><p>ro root=/x"
	      "\n</p></p><p><a name=\"systemfiles\"></a><small>[prev]</small> "
	      "<h2>System Files</h2>"
	      "File: /sys/class/infiniband_verbs/abi_version: 6\n"
	      "File: /sys/devices/pci0000:00/0000:00:03.0/0000:07:00.0/"
	      "infiniband/mlx5_0/fw_ver: 10.12.572\n"
	      "File: /sys/devices/pci0000:00/0000:00:03.0/0000:07:00.0/"
	      "infiniband/mlx5_0/ports/1/state: 4: ACTIVE\n"
	      "File: /sys/devices/pci0000:00/0000:00:03.0/0000:07:00.0/"
	      "infiniband/mlx5_0/power/wakeup:\n"
	      "File: /sys/devices/pci0000:00/0000:00:03.0/0000:07:00.0/"
	      "infiniband/mlx5_0/node_desc: two\nlines\n"
	      "<br/><br/><small>[back]</small> </p></body></pre></html>");
	b = import(root);
	T_OK(b != NULL, "3.1 page alone: imported");
	T_STREQ(b ? jstr(b->manifest, "hostname") : NULL, "old-node",
		"3.1: the hostname from sysinfo-snapshot-v<ver>-<host>-<date>");
	T_STREQ(b ? jstr(b->manifest, "kernel_release") : NULL,
		"2.6.32-504.el6.x86_64", "3.1: the kernel from uname -a");
	T_STREQ(b ? jstr(b->manifest, "collected_at") : NULL,
		"2015-11-15T15:04:00Z", "3.1: a page name's time to the minute");
	T_STREQ(data(b, "proc/cmdline"), "ro root=/x\n",
		"3.1: raw text as it is");
	T_STREQ(data(b, "sys/class/infiniband/mlx5_0/ports/1/state"),
		"4: ACTIVE\n", "System Files: a record through the class link");
	T_STREQ(data(b, "sys/class/infiniband/mlx5_0/node_desc"),
		"two\nlines\n", "System Files: a record of two lines");
	T_STREQ(data(b, "sys/class/infiniband/mlx5_0/power/wakeup"), "\n",
		"System Files: an empty record");
	T_STREQ(data(b, "sys/class/infiniband_verbs/abi_version"), "6\n",
		"System Files: a class file");
	T_STREQ(b ? br_link_base(b, "sys/class/infiniband/mlx5_0/device") : NULL,
		"0000:07:00.0", "the device link names the PCI function");
	T_OK(b && br_resolve(b, "sys/bus/pci/devices/0000:07:00.0", p,
			     sizeof(p)) &&
	     !strcmp(p, "sys/devices/pci0000:00/0000:00:03.0/0000:07:00.0"),
	     "sys/bus/pci/devices links the kernel's place");
	br_free(b);
}

/* firmware/: flint's FW Version and PSID where nothing else gave them */
static void firmware(void)
{
	struct bundle_r *b;

	fresh();
	puts_("commands_txt_output/ibdev2pcidev.txt",
	      "Invoked Command: ibdev2pcidev\nmlx5_0 ==> 0000:b1:00.0\n");
	puts_("firmware/flint_0000b1000_q",
	      "flint -d 0000:b1:00.0 q\nImage type:            FS4\n"
	      "FW Version:            28.39.1002\nPSID:                  "
	      "MT_0000000838\n");
	puts_("firmware/flint_devmstmt4129_pciconf1_q",
	      "flint -d /dev/mst/mt4129_pciconf1 q\nFW Version:            "
	      "28.39.1002\n");
	puts_("firmware/mlxconfig_0000b1000",
	      "mlxconfig -d 0000:b1:00.0 -e  q\n\nDevice #1:\n");
	b = import(root);
	T_OK(b != NULL, "firmware: imported");
	T_STREQ(data(b, "sys/class/infiniband/mlx5_0/fw_ver"), "28.39.1002\n",
		"flint q: FW Version as the device's fw_ver");
	T_STREQ(data(b, "sys/class/infiniband/mlx5_0/board_id"),
		"MT_0000000838\n", "flint q: PSID as its board_id");
	T_STREQ(data(b, "rdma-collect/commands/mlxconfig-0000:b1:00.0/stdout"),
		"\nDevice #1:\n", "mlxconfig: the bundle's commands entry");
	T_OK(noted(b, "no PCI address for '/dev/mst/mt4129_pciconf1'"),
	     "an mst device without mst status -v: noted, left out");
	br_free(b);
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "--cat")) {
		struct bundle_r *b = import(argv[2]);
		size_t len;
		const char *d = b ? br_data(b, argv[3], &len) : NULL;

		if (d)
			fwrite(d, 1, len, stdout);
		br_free(b);
		return d ? 0 : 1;
	}
	snprintf(root, sizeof(root), "%s/atest-imp-sysinfo.%d",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
	page37();
	page31();
	firmware();
	{
		char cmd[300];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
		if (system(cmd))
			printf("# cannot remove %s\n", root);
	}
	return t_done();
}
