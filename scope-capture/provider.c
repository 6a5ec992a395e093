/* A provider: its constructor registers one device with a plain extern call
 * to register_driver. Built twice: into libbundle.so (the bundled provider,
 * -DPROVIDER_DEVICE=mlx5_bundled) and as libproviderB.so (the system
 * provider, DT_NEEDED on libregistryB.so.1). Where the call lands is
 * decided by the loader's lookup scope, not by this file. */
#include "registry.h"

__attribute__((constructor)) static void provider_init(void)
{
	register_driver(REG_STR(PROVIDER_DEVICE));
}
