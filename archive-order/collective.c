/* A collective library built against one stack (-DVX_STACK) under its own
 * name (-DVX_WHO): it checks its stack's ABI, then opens logical device 0.
 * It prints what it expects (its stack's order, compiled in) and what the
 * code it reached at run time says about itself; it judges nothing. */
#include <stdio.h>
#include <stdlib.h>
#include "verbs.h"

#define WHO VX_STR(VX_WHO)
static const char *const expected[] = { VX_ORDER(VX_STACK) };

void VX_CAT(VX_WHO, _run)(void)
{
	const struct vx_device *dev;

	if (VX_ABI_FN() != VX_ABI)
		abort();
	printf("[%s built against stack=%s] expects logical device 0 = %s\n", WHO, VX_STACK_NAME, expected[0]);
	dev = vx_open_device(0);
	printf("[%s ran stack=%s at vx_open_device@%p] opened logical device 0 = %s\n",
	       WHO, dev->stack, (void *)vx_open_device, dev->name);
}
