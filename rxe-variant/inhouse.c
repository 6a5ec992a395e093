/* The in-house consumer: links libibverbs at build time. Which libibverbs that
 * is (the bundle, the system library, or a static copy) is the row's choice, made
 * on the link line; INHOUSE_COPY names it at compile time. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include "consumer.h"
#include "abi_name.h"

#ifndef INHOUSE_COPY
#error "build with -DINHOUSE_COPY=\"<which libibverbs the in-house side links>\""
#endif

/* With RDMA_STATIC_PROVIDERS, verbs.h turns the call (not the bare name) into a
 * registration of the static providers plus the real call: call it here. */
static struct ibv_device **list_devices(int *n)
{
	return ibv_get_device_list(n);
}

#ifdef STATIC_REGISTER_SYM
#define OWN_REGISTER_NAME ABI_STR(STATIC_REGISTER_SYM)
/* rdma-core's static archive renames its private symbols; lab.mk read the
 * renamed verbs_register_driver_N from libibverbs.a with nm. */
extern void STATIC_REGISTER_SYM(void);

static void *own_register(void)
{
	return (void *)&STATIC_REGISTER_SYM;
}

/* The linked-in rxe provider calls the static copy's entry point directly
 * (resolved by the static link, never by ld.so): that is its write. */
void inhouse_report_writes(void)
{
	Dl_info di;
	void *target = (void *)&STATIC_REGISTER_SYM;
	const char *mod = "?";

	if (dladdr(target, &di) && di.dli_fname)
		mod = strrchr(di.dli_fname, '/') ? strrchr(di.dli_fname, '/') + 1 : di.dli_fname;
	printf("[static rxe provider (linked in) register -> %s %s@%p]\n", mod,
	       OWN_REGISTER_NAME, target);
}
#else
#define OWN_REGISTER_NAME REGISTER_NAME
/* The copy the in-house calls land in is the module defining the
 * ibv_get_device_list it is bound to; ask that module for its own entry point. */
static void *own_register(void)
{
	Dl_info di;
	void *h, *p;

	if (!dladdr((void *)&ibv_get_device_list, &di) || !di.dli_fname)
		return NULL;
	h = dlopen(di.dli_fname, RTLD_NOW | RTLD_NOLOAD);
	if (!h)
		return NULL;
	p = dlvsym(h, REGISTER_NAME, PRIVATE_VERSION);
	dlclose(h);
	return p;
}

void inhouse_report_writes(void)
{
}
#endif

static struct verbs_api api = {
	.who = "in-house",
	.copy = INHOUSE_COPY,
	.register_name = OWN_REGISTER_NAME,
	.get_device_list = list_devices,
	.free_device_list = ibv_free_device_list,
	.get_device_name = ibv_get_device_name,
	.open_device = ibv_open_device,
	.close_device = ibv_close_device,
	.query_device = ibv_query_device,
	.query_port = (int (*)(struct ibv_context *, uint8_t, void *))ibv_query_port,
	.alloc_pd = ibv_alloc_pd,
	.dealloc_pd = ibv_dealloc_pd,
	.create_cq = ibv_create_cq,
	.destroy_cq = ibv_destroy_cq,
	.create_qp = ibv_create_qp,
	.destroy_qp = ibv_destroy_qp,
};

void inhouse_discover(struct consumer_result *r)
{
	api.own_register = own_register();
	discover(&api, r);
}
