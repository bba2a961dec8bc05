/* modules: a line of /proc/modules, and the names a module may have.
 *
 * The kernel prints each loaded module as (kernel/module/procfs.c,
 * m_show()):
 *     name size refcnt deps state offset [taints]
 * deps are each followed by ',', or "-" when nothing uses the module;
 * state is Live, Loading or Unloading; offset is "0x" and hex (zeros
 * under kptr_restrict).  The loader reads the collector's copy and the
 * importers tell a pasted copy from lsmod's table with the same parser. */
#ifndef RDMA_ANALYZE_MODULES_H
#define RDMA_ANALYZE_MODULES_H

struct proc_module {
	char name[64];
	char size[24];
	char refcnt[24];
	char deps[2048];	/* "a,b" without the trailing ',' or "-" */
	char state[32];
	char offset[24];	/* "" when the line stops after the state */
};

/* a module's name: [A-Za-z0-9_-], 1 to 63 bytes */
int module_name_ok(const char *s);
/* split one line (no newline): the number of fields read, 0 to 6;
 * m->deps is normalized whenever the fourth field was read */
int proc_module_parse(const char *line, struct proc_module *m);
/* the line is a whole /proc/modules line as the kernel prints it: six
 * fields, a module name, a decimal size, a known state, a 0x offset */
int proc_module_line(const char *line);

#endif
