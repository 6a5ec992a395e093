/* libcaller.so: a library that loads a plugin by name at run time, as a
 * codec or GPU library loads its backend. The search for "libplug.so" is
 * made for this library, the caller, not for the executable. */
#include <dlfcn.h>
#include <stdio.h>

int call_plugin(void)
{
	void *h = dlopen("libplug.so", RTLD_NOW | RTLD_LOCAL);
	int (*fn)(void);

	if (!h) {
		/* the loader's own words; the program writes nothing else to stderr */
		fprintf(stderr, "%s\n", dlerror());
		return -1;
	}
	fn = (int (*)(void))dlsym(h, "plug_value");
	return fn ? fn() : -1;
}
