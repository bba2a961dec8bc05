/* modules: a line of /proc/modules, and the names a module may have */
#include <stdio.h>
#include <string.h>

#include "modules.h"

int module_name_ok(const char *s)
{
	size_t n = strspn(s, "abcdefghijklmnopqrstuvwxyz"
			  "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-");

	return n && !s[n] && n < 64;
}

int proc_module_parse(const char *line, struct proc_module *m)
{
	size_t n;
	int k;

	m->offset[0] = 0;
	k = sscanf(line, "%63s %23s %23s %2047s %31s %23s", m->name, m->size,
		   m->refcnt, m->deps, m->state, m->offset);
	if (k < 4)
		return k < 0 ? 0 : k;
	n = strlen(m->deps);
	if (!strcmp(m->deps, "-"))
		m->deps[0] = 0;
	else if (n && m->deps[n - 1] == ',')
		m->deps[n - 1] = 0;
	return k;
}

int proc_module_line(const char *line)
{
	struct proc_module m;

	return proc_module_parse(line, &m) == 6 && module_name_ok(m.name) &&
	       m.size[strspn(m.size, "0123456789")] == 0 &&
	       !strncmp(m.offset, "0x", 2) &&
	       (!strcmp(m.state, "Live") || !strcmp(m.state, "Loading") ||
		!strcmp(m.state, "Unloading"));
}
