/* libcollective.so: discovery through an ordinary extern call, resolved
 * by the loader in the global scope like any consumer's. */
#include <stdio.h>
#include "verbs.h"

void collective_discover(void)
{
	printf("collective: discovered %d device(s)\n", vx_get_device_list());
}
