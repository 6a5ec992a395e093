/* called.h: the line a loader-errors program prints after the call its row
 * is about has returned (its proof line, read by scripts/verdict):
 *   [<program> called <function> in <module>] <what the call returned>
 * <module> is where the function's code is at run time (dladdr), so the line
 * says the loader found, mapped and bound the library: a program that only
 * returns 0 prints none, and its run does not count as "runs". Include it
 * before any system header (dladdr needs _GNU_SOURCE). */
#ifndef CALLED_H
#define CALLED_H
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

/* called(ARGV0, NAME, FN): the proof-line prefix, "[<program> called NAME in
 * <module of FN>] ", on stdout; the caller prints the result after it. */
static void called(const char *argv0, const char *name, void *fn)
{
	Dl_info info;
	const char *module = dladdr(fn, &info) && info.dli_fname && info.dli_fname[0] ? base_name(info.dli_fname) : "?";
	printf("[%s called %s in %s] ", base_name(argv0), name, module);
}
#endif
