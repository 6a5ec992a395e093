/* Linked into libverbs_shared.so only: the "provider" registers its
 * devices from an ELF constructor, before main runs. Its calls go through
 * whatever binding the link gave them; that is the whole experiment. */
#include <stdio.h>
#include "verbs.h"

__attribute__((constructor)) static void provider_ctor(void)
{
	printf("[constructor in copy=%s] registering rxe_train, rxe_store\n", VX_COPY_NAME);
	vx_register_device("rxe_train");
	vx_register_device("rxe_store");
}
