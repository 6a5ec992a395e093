/* One copy of the registry. VX_COPY names the copy at compile time.
 * The table is private to its copy, as a real registry is, unless the
 * data rows (D1, D2, D2-copyreloc*) make it a global symbol
 * (VX_TABLE_GLOBAL) or a mere reference (VX_TABLE_EXTERN). */
#include <stdio.h>
#include "verbs.h"

#if defined(VX_TABLE_GLOBAL)
VX_API struct vx_table vx_table;          /* interposable definition */
#elif defined(VX_TABLE_EXTERN)
extern struct vx_table vx_table;          /* defined by the .so; a non-PIC exe copies it */
#else
static struct vx_table vx_table;          /* private to this copy */
#endif

void vx_register_device(const char *name)
{
	if (vx_table.count < VX_MAX_DEVICES)
		vx_table.name[vx_table.count++] = name;
	printf("[register -> copy=%s table@%p] now holds %d device(s)\n",
	       VX_COPY_NAME, (void *)&vx_table, vx_table.count);
}

int vx_get_device_list(void)
{
	printf("[get_list <- copy=%s table@%p] this copy holds %d device(s)\n",
	       VX_COPY_NAME, (void *)&vx_table, vx_table.count);
	return vx_table.count;
}
