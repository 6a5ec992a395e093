/* The duplicate-runtime guard, modelled on libomp's: at start-up each copy
 * looks for a process-wide marker, an environment variable named after the
 * process id whose value holds the first copy's marker address, its value
 * and where that copy lives. Found and live: a second copy is starting.
 * It refuses (abort, as libomp does) unless RT_DUPLICATE_LIB_OK=TRUE, the
 * KMP_DUPLICATE_LIB_OK of this runtime, which silences it and nothing else.
 * Linked into a runtime copy only in the guard rows. */
#define _GNU_SOURCE             /* dladdr */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "rt.h"

static unsigned long marker = 0x5eedcafeUL;

/* The module a copy lives in, as its directory and file name. */
static const char *module_of(const void *p)
{
	Dl_info info;
	const char *s, *base;

	if (!dladdr(p, &info) || !info.dli_fname)
		return "?";
	s = info.dli_fname;
	base = strrchr(s, '/');
	if (!base)
		return s;
	while (base > s && base[-1] != '/')
		base--;
	return base;
}

/* Whether an address lies in a readable mapping of this process: a marker
 * left by a copy that is gone, or set by hand, must not be dereferenced. */
static int readable(const void *p)
{
	FILE *f = fopen("/proc/self/maps", "r");
	unsigned long lo, hi;
	char perms[8];
	int found = 0;

	while (f && !found && fscanf(f, "%lx-%lx %7s%*[^\n]", &lo, &hi, perms) == 3)
		found = (unsigned long)p >= lo && (unsigned long)p + sizeof(unsigned long) <= hi && perms[0] == 'r';
	if (f)
		fclose(f);
	return found;
}

__attribute__((constructor)) static void rt_guard(void)
{
	char name[64], value[320], first_copy[32], first_module[256];
	const char *seen, *ok;
	void *addr;
	unsigned long v;

	snprintf(name, sizeof name, "RT_REGISTERED_LIB_%ld", (long)getpid());
	seen = getenv(name);
	/* Another copy is live if the marker parses, its address is mapped
	 * (as libomp checks) and holds the value the marker names. */
	if (!seen || sscanf(seen, "%p %lx %31s %255s", &addr, &v, first_copy, first_module) != 4
	    || !readable(addr) || *(unsigned long *)addr != v) {
		snprintf(value, sizeof value, "%p %lx %s %s", (void *)&marker, marker,
			 RT_STR(RT_COPY), module_of(&marker));
		setenv(name, value, 1);
		printf("[guard copy=%s] first copy of the runtime, in %s: marker RT_REGISTERED_LIB_<pid> set\n",
		       RT_STR(RT_COPY), module_of(&marker));
		fflush(stdout);
		return;
	}
	printf("[guard copy=%s] a second copy is starting in %s: copy=%s in %s already initialised (marker@%p)\n",
	       RT_STR(RT_COPY), module_of(&marker), first_copy, first_module, addr);
	ok = getenv("RT_DUPLICATE_LIB_OK");
	if (ok && (!strcmp(ok, "TRUE") || !strcmp(ok, "1"))) {
		printf("[guard copy=%s] RT_DUPLICATE_LIB_OK=%s: silenced, continuing with two copies\n", RT_STR(RT_COPY), ok);
		fflush(stdout);
		return;
	}
	printf("[guard copy=%s] refusing: two copies of the runtime can give incorrect results"
	       " (set RT_DUPLICATE_LIB_OK=TRUE to continue)\n", RT_STR(RT_COPY));
	fflush(stdout);
	abort();
}
