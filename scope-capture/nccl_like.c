/* The NCCL-like consumer: never linked to a registry. It dlopens the system
 * registry RTLD_LOCAL and takes its entry point with dlvsym, as NCCL does
 * with libibverbs; then it loads the system provider the way the system
 * registry loads its providers on first use. Who calls dlopen does not
 * change the provider's lookup scope (global scope first, then its own
 * dependencies); only RTLD_DEEPBIND does (-DPROVIDER_DEEPBIND).
 * -DREGISTRY_GLOBAL opens the registry RTLD_GLOBAL, as engineers try: that
 * appends copy B to the global scope, after copy A. */
#define _GNU_SOURCE             /* dlvsym, RTLD_DEEPBIND */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef REGISTRY_GLOBAL
#define REGISTRY_FLAGS (RTLD_NOW | RTLD_GLOBAL)
#define REGISTRY_FLAGS_NAME "RTLD_NOW|RTLD_GLOBAL"
#else
#define REGISTRY_FLAGS (RTLD_NOW | RTLD_LOCAL)
#define REGISTRY_FLAGS_NAME "RTLD_NOW|RTLD_LOCAL"
#endif
#ifdef PROVIDER_DEEPBIND
#define PROVIDER_FLAGS (RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND)
#define PROVIDER_FLAGS_NAME "RTLD_NOW|RTLD_LOCAL|RTLD_DEEPBIND"
#else
#define PROVIDER_FLAGS (RTLD_NOW | RTLD_LOCAL)
#define PROVIDER_FLAGS_NAME "RTLD_NOW|RTLD_LOCAL"
#endif

static void *need(void *p, const char *what)
{
	if (!p) {
		fprintf(stderr, "nccl-like: %s: %s\n", what, dlerror());
		exit(1);
	}
	return p;
}

void nccl_discover(void)
{
	printf("[nccl-like] dlopen(libregistryB.so.1, %s)\n", REGISTRY_FLAGS_NAME);
	void *reg = need(dlopen("libregistryB.so.1", REGISTRY_FLAGS), "dlopen libregistryB.so.1");
	int (*get)(void) = (int (*)(void))need(dlvsym(reg, "get_device_list", "VERB_1.0"), "dlvsym get_device_list");

	printf("[nccl-like] dlopen(libproviderB.so, %s)\n", PROVIDER_FLAGS_NAME);
	need(dlopen("libproviderB.so", PROVIDER_FLAGS), "dlopen libproviderB.so");
	printf("    NCCL consumer sees %d device(s)\n", get());
}
