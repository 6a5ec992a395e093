#include "called.h"
typedef int plug_fn(void);
plug_fn *plugin_entry(void);
int main(int argc, char **argv)
{
	plug_fn *fn = plugin_entry();     /* libcaller.so's dlopen of libplug.so */
	int v;

	(void)argc;
	if (!fn)
		return 1;
	v = fn();
	called(argv[0], "plug_value", (void *)fn);
	printf("plug_value() = %d\n", v);
	return 0;
}
