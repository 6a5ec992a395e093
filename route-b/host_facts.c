/* What the host can say about the process itself: which C library each
 * namespace allocates with (dlmopen's cost) and which files are mapped
 * executable (the copies, as /proc/self/maps shows them). */
#define _GNU_SOURCE             /* Lmid_t, dladdr */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "host.h"

/* A path as the reader needs it: relative to the row's directory, other
 * files by their name alone (no path of this machine in any output). */
const char *short_path(const char *path)
{
	size_t n = strlen(rowdir);
	const char *base = strrchr(path, '/');

	if (!strncmp(path, rowdir, n) && path[n] == '/')
		return path + n + 1;
	return base ? base + 1 : path;
}

/* The mapping an address lies in: its file, "[heap]", or an anonymous one. */
static void region_of(const void *p, char *out, size_t len)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[PATH_MAX + 128], path[PATH_MAX];
	unsigned long lo, hi;

	snprintf(out, len, "no mapping");
	while (f && fgets(line, sizeof line, f)) {
		path[0] = 0;
		if (sscanf(line, "%lx-%lx %*s %*s %*s %*s %4095[^\n]", &lo, &hi, path) < 2)
			continue;
		if ((unsigned long)p >= lo && (unsigned long)p < hi) {
			snprintf(out, len, "%s", path[0] ? short_path(path) : "an anonymous mapping");
			break;
		}
	}
	if (f)
		fclose(f);
}

static void malloc_of(const char *who, Lmid_t lmid, void *scope)
{
	void *(*m)(size_t) = (void *(*)(size_t))dlsym(scope, "malloc");
	void (*f)(void *) = (void (*)(void *))dlsym(scope, "free");
	char where[PATH_MAX];
	Dl_info info;
	void *block, *again;

	if (!m || !f || !dladdr((void *)m, &info)) {
		printf("[libc] %s: no malloc found\n", who);
		return;
	}
	block = m(64);
	region_of(block, where, sizeof where);
	printf("[libc] namespace %ld (%s): malloc@%p in %s; a block from it lies in %s\n",
	       (long)lmid, who, (void *)m, short_path(info.dli_fname), where);
	if (lmid == LM_ID_BASE) {
		f(block);
		return;
	}
	/* dlmopen's cost, shown rather than told: the host's free() takes the
	 * other allocator's block without a word, and the host's next malloc
	 * hands the same memory out again while the other allocator still
	 * counts it as in use. Nothing writes to it, so nothing breaks here. */
	printf("[libc] the host's free() takes %s's block@%p without a word;", who, block);
	free(block);
	again = malloc(64);
	printf(" its next malloc(64) returns @%p\n", again);
}

void libc_facts(void)
{
	FILE *maps = fopen("/proc/self/maps", "r");
	char line[PATH_MAX + 128];
	int n = 0;

	malloc_of("host", LM_ID_BASE, RTLD_DEFAULT);
	for (int i = 0; i < nmodules; i++)
		if (modules[i].lmid != LM_ID_BASE) {
			char who[32];
			snprintf(who, sizeof who, "plugin%.15s", modules[i].name);
			malloc_of(who, modules[i].lmid, modules[i].handle);
		}
	while (maps && fgets(line, sizeof line, maps))
		if (strstr(line, "/libc.so.6") && strstr(line, " r-xp "))
			n++;
	if (maps)
		fclose(maps);
	printf("[libc] libc.so.6 is mapped executable %d time(s)\n", n);
}

static int by_text(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted by what they say, not by address: where the loader and the kernel
 * place each file (libc below or above a plugin) differs between glibc
 * releases and is not a fact of the row; which files are mapped is. */
void maps_facts(void)
{
	FILE *maps = fopen("/proc/self/maps", "r");
	char line[PATH_MAX + 128], perms[8], path[PATH_MAX], *seen[256];
	size_t n = 0;

	while (maps && fgets(line, sizeof line, maps)) {
		path[0] = 0;
		if (sscanf(line, "%*s %7s %*s %*s %*s %4095[^\n]", perms, path) == 2 && perms[2] == 'x' && path[0] == '/' &&
		    n < sizeof seen / sizeof *seen && asprintf(&seen[n], "[maps] %s %s", perms, short_path(path)) >= 0)
			n++;
	}
	if (maps)
		fclose(maps);
	qsort(seen, n, sizeof *seen, by_text);
	for (size_t i = 0; i < n; i++) {
		puts(seen[i]);
		free(seen[i]);
	}
}
