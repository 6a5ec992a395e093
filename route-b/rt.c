/* One copy of the runtime. Its table is private to the copy, as a real
 * runtime's thread pool or settings are. Every line is flushed at once: a
 * copy loaded by dlmopen writes through its own libc's stdout buffer, and
 * unflushed lines would come out of order (or never). */
#include <stdio.h>
#include "rt.h"

static struct {
	int count;
	const char *name[RT_MAX_DEVICES];
} table;

void rt_register(const char *device)
{
	if (table.count < RT_MAX_DEVICES)
		table.name[table.count++] = device;
	printf("[register -> copy=%s table@%p] now holds %d device(s)\n",
	       RT_STR(RT_COPY), (void *)&table, table.count);
	fflush(stdout);
}

int rt_get_list(void)
{
	printf("[get_list <- copy=%s table@%p] this copy holds %d device(s)\n",
	       RT_STR(RT_COPY), (void *)&table, table.count);
	fflush(stdout);
	return table.count;
}
