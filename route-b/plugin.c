/* A plugin (a Python extension module, a node addon): the host finds its two
 * entry points with dlsym on its handle. Its calls into the runtime go
 * through the PLT to whichever copy the loader bound; PLUGIN names it. */
#include <stdio.h>
#include "rt.h"

void plugin_write(void)
{
	rt_register("dev" RT_STR(PLUGIN));
}

void plugin_read(void)
{
	int n = rt_get_list();

	printf("plugin%s sees %d device(s)\n", RT_STR(PLUGIN), n);
	fflush(stdout);
}
