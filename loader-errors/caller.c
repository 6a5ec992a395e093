/* libcaller.so: a library that loads a plugin by name at run time, as a
 * codec or GPU library loads its backend. The search for "libplug.so" is
 * made for this library, the caller, not for the executable. Returns the
 * plugin's entry point, or NULL after printing the loader's message. */
#include <dlfcn.h>
#include <stdio.h>

typedef int plug_fn(void);

plug_fn *plugin_entry(void)
{
	void *h = dlopen("libplug.so", RTLD_NOW | RTLD_LOCAL);

	if (!h) {
		/* the loader's own words; the program writes nothing else to stderr */
		fprintf(stderr, "%s\n", dlerror());
		return NULL;
	}
	return (plug_fn *)dlsym(h, "plug_value");
}
