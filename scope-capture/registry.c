/* One copy of the registry. Its table is private to the copy, as a real
 * registry's is: which copy a call reaches is decided by symbol lookup
 * alone. Identity from -DREG_WHO/-DREG_COPY; address and count from run time. */
#include <stdio.h>
#include "registry.h"

static struct {
	int count;
	const char *name[REG_MAX_DEVICES];
} registry;

void register_driver(const char *name)
{
	if (registry.count < REG_MAX_DEVICES)
		registry.name[registry.count++] = name;
	printf("[%s / copy %s] register_driver(%s) -> registry %s @%p now holds %d device(s)\n",
	       REG_STR(REG_WHO), REG_STR(REG_COPY), name, REG_STR(REG_COPY),
	       (void *)&registry, registry.count);
}

int get_device_list(void)
{
	printf("[%s / copy %s] get_device_list <- registry %s @%p holds %d device(s)\n",
	       REG_STR(REG_WHO), REG_STR(REG_COPY), REG_STR(REG_COPY),
	       (void *)&registry, registry.count);
	return registry.count;
}
