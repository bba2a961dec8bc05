/* rdmalib: rdma-core's libraries opened with dlopen (the dynamic build),
 * or linked in and found in a table (the static build, RDMA_COLLECT_STATIC,
 * which `make static` defines).  See rdmalib.h. */
#include <string.h>

#include "rdmalib.h"
#include "util.h"
#include "version.h"

#ifndef RDMA_COLLECT_STATIC

#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <stdlib.h>

static const char *last_error;

void *rdmalib_open(const char *file)
{
	void *h;

	dlerror();
	h = dlopen(file, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		last_error = dlerror();
		if (!last_error)
			last_error = "dlopen failed";
	}
	return h;
}

const char *rdmalib_error(void)
{
	return last_error ? last_error : "dlopen failed";
}

void *rdmalib_sym(void *h, const char *name)
{
	return dlsym(h, name);
}

int rdmalib_file(void *h, char *buf, size_t len)
{
	struct link_map *lm = NULL;
	char real[PATH_MAX];
	const char *b;

	if (dlinfo(h, RTLD_DI_LINKMAP, &lm) || !lm || !lm->l_name)
		return -1;
	if (!realpath(lm->l_name, real))
		xsnprintf(real, sizeof(real), "%s", lm->l_name);
	b = strrchr(real, '/');
	xsnprintf(buf, len, "%s", b ? b + 1 : real);
	return 0;
}

void rdmalib_close(void *h)
{
	dlclose(h);
}

#else /* RDMA_COLLECT_STATIC */

#define RDMA_STATIC_PROVIDERS all
#include <infiniband/ibnetdisc.h>
#include <infiniband/mad.h>
#include <infiniband/umad.h>
#include <infiniband/verbs.h>

/* a linked-in library: the file it stands for and its functions, those
 * the sources look up (a name missing here is "missing" to them, as a
 * symbol missing from an old library is) */
struct linked_sym {
	const char *name;
	void *fn;
};

struct linked_lib {
	const char *file;
	const struct linked_sym *syms;
};

/* POSIX lets a function pointer travel as a void * (dlsym does it) */
#define S(f) { #f, (void *)f }

static const struct linked_sym verbs_syms[] = {
	S(ibv_get_device_list), S(ibv_free_device_list),
	S(ibv_get_device_name), S(ibv_open_device), S(ibv_close_device),
	S(ibv_query_device), S(ibv_query_port), S(ibv_query_gid),
	S(_ibv_query_gid_ex), { NULL, NULL },
};

static const struct linked_sym umad_syms[] = {
	S(umad_init), S(umad_get_cas_names), S(umad_get_ca),
	S(umad_release_ca), S(umad_get_port), S(umad_release_port),
	{ NULL, NULL },
};

static const struct linked_sym mad_syms[] = {
	S(mad_rpc_open_port), S(mad_rpc_close_port), S(mad_rpc_set_timeout),
	S(mad_rpc_set_retries), S(smp_query_via), S(smp_query_status_via),
	S(pma_query_via), S(mad_get_field), S(mad_get_field64),
	S(mad_field_name), { NULL, NULL },
};

static const struct linked_sym netdisc_syms[] = {
	S(ibnd_discover_fabric), S(ibnd_destroy_fabric), { NULL, NULL },
};

static const struct linked_lib linked[] = {
	{ "libibverbs.so.1", verbs_syms },
	{ "libibumad.so.3", umad_syms },
	{ "libibmad.so.5", mad_syms },
	{ "libibnetdisc.so.5", netdisc_syms },
};

static const char *last_error = "not linked into this static build";

void *rdmalib_open(const char *file)
{
	static int providers;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(linked); i++) {
		if (strcmp(file, linked[i].file))
			continue;
		/* every provider linked in registers once, before the first
		 * device list (what dlopen of each provider does) */
		if (i == 0 && !providers) {
			ibv_static_providers(NULL, &verbs_provider_all, NULL);
			providers = 1;
		}
		return (void *)&linked[i];
	}
	return NULL;
}

const char *rdmalib_error(void)
{
	return last_error;
}

void *rdmalib_sym(void *h, const char *name)
{
	const struct linked_lib *l = h;
	const struct linked_sym *s;

	for (s = l->syms; s->name; s++)
		if (!strcmp(s->name, name))
			return s->fn;
	return NULL;
}

int rdmalib_file(void *h, char *buf, size_t len)
{
	const struct linked_lib *l = h;

	xsnprintf(buf, len, "%s, linked in (rdma-core %s)", l->file,
		  build_rdma_core);
	return 0;
}

void rdmalib_close(void *h)
{
	(void)h;
}

#endif
