/* A plugin (a Python extension module, a node addon): the host finds its two
 * entry points with dlsym on its handle. Its calls into the runtime go
 * through the PLT to whichever copy the loader bound; PLUGIN names it, and
 * RT_OWN the copy it was built to use (the one it ships or NEEDs): printed
 * so scripts/verdict can tell a reader on its own copy (a partition) from a
 * captured one (a split). */
#include <stdio.h>
#include "rt.h"

void plugin_write(void)
{
	rt_register("dev" RT_STR(PLUGIN));
}

void plugin_read(void)
{
	int n = rt_get_list();

	printf("plugin%s sees %d device(s) (ships copy=%s)\n", RT_STR(PLUGIN), n, RT_STR(RT_OWN));
	fflush(stdout);
}
