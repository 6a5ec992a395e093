/* The NCCL-like consumer: reaches libibverbs the way NCCL's ibvwrap does, with a
 * bare-name dlopen and every entry point by dlvsym(handle, name, version). The
 * bare name lets ld.so answer with any already-loaded object whose SONAME is
 * libibverbs.so.1; RTLD_LOCAL keeps what it loads out of the global scope. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include "consumer.h"
#include "abi_name.h"

static struct verbs_api api = {
	.who = "NCCL-like",
	.copy = "copy B (dlopen libibverbs.so.1)",
	.register_name = REGISTER_NAME,
};

static void *need(void *h, const char *name, int *missing)
{
	void *p = dlvsym(h, name, "IBVERBS_1.1");
	if (!p) {
		printf("NCCL-like: dlvsym(%s, IBVERBS_1.1) failed\n", name);
		*missing = 1;
	}
	return p;
}

/* Returns 0 when copy B answered every lookup. */
int nccl_like_discover(struct consumer_result *r)
{
	int missing = 0;
	void *h = dlopen("libibverbs.so.1", RTLD_NOW | RTLD_LOCAL);

	r->api = &api;
	r->list = NULL;
	r->n = 0;
	if (!h) {
		printf("NCCL-like: dlopen(libibverbs.so.1) failed: %s\n", dlerror());
		return -1;
	}
	/* The private entry point is versioned too; this is copy B's own. */
	api.own_register = dlvsym(h, REGISTER_NAME, PRIVATE_VERSION);
	api.get_device_list = need(h, "ibv_get_device_list", &missing);
	api.free_device_list = need(h, "ibv_free_device_list", &missing);
	api.get_device_name = need(h, "ibv_get_device_name", &missing);
	api.open_device = need(h, "ibv_open_device", &missing);
	api.close_device = need(h, "ibv_close_device", &missing);
	api.query_device = need(h, "ibv_query_device", &missing);
	api.query_port = need(h, "ibv_query_port", &missing);
	api.alloc_pd = need(h, "ibv_alloc_pd", &missing);
	api.dealloc_pd = need(h, "ibv_dealloc_pd", &missing);
	api.create_cq = need(h, "ibv_create_cq", &missing);
	api.destroy_cq = need(h, "ibv_destroy_cq", &missing);
	api.create_qp = need(h, "ibv_create_qp", &missing);
	api.destroy_qp = need(h, "ibv_destroy_qp", &missing);
	if (missing)
		return -1;
	discover(&api, r);
	return 0;
}
