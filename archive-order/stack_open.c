/* A stack's device enumeration: vx_open_device, in a member of its own
 * (layout "split") or together with the stack's ABI check (layouts "one",
 * "vendored"). */
#include "verbs.h"

static const char *const names[] = { VX_ORDER(VX_STACK) };

/* VX_OPEN_WEAK (stack vendor-weak, vendor only): a weak default, as a library
 * marks a definition others may replace. */
#ifdef VX_OPEN_WEAK
__attribute__((weak))
#endif
const struct vx_device *vx_open_device(int logical)
{
	static struct vx_device dev;
	dev.stack = VX_STACK_NAME;
	dev.name = names[logical];
	return &dev;
}
