/* The in-house consumer, shipped in libbundle.so with the bundled registry
 * it was built against. Its call is an ordinary extern call. */
#include <stdio.h>
#include "registry.h"

void inhouse_discover(void)
{
	printf("    in-house consumer sees %d device(s)\n", get_device_list());
}
