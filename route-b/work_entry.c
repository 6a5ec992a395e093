/* A plugin around its vendored worker library: plugin_work prints this
 * copy's definitions as the loader records them (address and st_size, from
 * dladdr1), constructs a worker through the exported worker_init, runs it
 * through the vtable that call installed, and compares with the result of
 * its own definitions called by their hidden names. Nothing here decides
 * whether the two definitions collided: scripts/verdict does. */
#define _GNU_SOURCE             /* dladdr1 */
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include "worker.h"

static void define(const char *kind, const void *p)
{
	Dl_info info;
	const ElfW(Sym) *sym = NULL;

	if (!dladdr1(p, &info, (void **)&sym, RTLD_DL_SYMENT) || !sym || !info.dli_sname) {
		printf("[define ? copy=%s %s@%p size=?]\n", WORKER_STR(WORKER_COPY), kind, p);
		return;
	}
	printf("[define %s copy=%s %s@%p size=%lu]\n", info.dli_sname, WORKER_STR(WORKER_COPY), kind, p,
	       (unsigned long)sym->st_size);
}

void plugin_work(void)
{
	struct worker w = { 0 }, own = { 0 };
	int got, expected;

	define("fn", (const void *)worker_own_init);
	define("obj", &worker_own_vtable);
	fflush(stdout);
	worker_init(&w, WORKER_STR(WORKER_COPY));
	got = w.ops->run(&w);
	worker_own_fill(&own);
	expected = own.ops->run(&own);
	printf("plugin%s worker uses vtable@%p: result=%d, its own code gives %d\n",
	       WORKER_STR(WORKER_COPY), (const void *)w.ops, got, expected);
	fflush(stdout);
}
