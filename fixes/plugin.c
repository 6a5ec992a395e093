/* libvxplugin.so: a dlopen()ed consumer. It discovers devices like the
 * collective does, and calls back into the executable that loaded it. */
#include <stdio.h>
#include "verbs.h"

int host_api_version(void);     /* defined by the executable, not by us */

void plugin_discover(void)
{
	int n = vx_get_device_list();
	printf("plugin: discovered %d device(s) (host API %d)\n", n, host_api_version());
}
