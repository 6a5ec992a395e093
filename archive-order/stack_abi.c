/* A name only this stack defines: vx_abi_vendor or vx_abi_bundled. */
#include "verbs.h"

int VX_ABI_FN(void)
{
	return VX_ABI;
}
