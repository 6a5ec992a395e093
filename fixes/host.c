/* libhost.a: the executable's own plugin host, an archive like any of the
 * application's internal libraries. host_api_version() is the callback a
 * plugin resolves from the executable by name, so the executable must keep
 * it in its dynamic symbol table; --exclude-libs,ALL takes it out. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

int host_api_version(void)
{
	return 1;
}

void host_load_plugins(void)
{
	void *h = dlopen("libvxplugin.so", RTLD_NOW | RTLD_LOCAL);
	void (*discover)(void);

	if (!h) {
		/* dlerror() starts with the plugin's full path: keep its file name. */
		const char *e = dlerror(), *end = strstr(e, ": "), *name = e, *p;
		for (p = e; end && p < end; p++)
			if (*p == '/')
				name = p + 1;
		printf("[plugin not loaded: %s]\n", name);
		return;
	}
	discover = (void (*)(void))dlsym(h, "plugin_discover");
	if (discover)
		discover();
}
