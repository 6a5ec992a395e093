/* The host (python, node): it opens plugins in the order its arguments give
 * and calls their entry points through dlsym on each handle, the way an
 * interpreter imports extension modules or addons. It prints every dlopen
 * it makes, with its flags, so a reader (and symsplit's --dlopen timeline)
 * sees the order the row used. Steps:
 *   NAME          open NAME/plugin.so with RTLD_NOW|RTLD_LOCAL
 *   NAME=FLAGS    the same with FLAGS joined by '+': global (else local), lazy
 *                 (else now), deepbind, newlm (dlmopen into LM_ID_NEWLM),
 *                 base (dlmopen into LM_ID_BASE, the initial namespace),
 *                 lm:OTHER (dlmopen into the namespace module OTHER is in)
 *   file:PATH     open the row's file PATH (a library, by its full path) with
 *                 RTLD_NOW|RTLD_LOCAL; no module, nothing to call
 *   NAME.write    call the plugin's plugin_write (or .read, .work)
 *   NAME.slot     where the plugin's PLT slot for rt_get_list points
 *   host.write    register through the host's own copy (hosts built with one)
 *   libc          the C libraries the namespaces use (host_facts.c)
 *   maps          the executable mappings of the row's files (host_facts.c)
 *   env:VAR=VALUE setenv in the running process (Python's os.environ[...] =)
 * A dlopen or dlmopen the loader refuses ends the run: its message (dlerror,
 * the row directory taken off paths) as "[loader: ...]", exit 1. */
#define _GNU_SOURCE             /* dlmopen, dlinfo, RTLD_DEEPBIND */
#include <ctype.h>
#include <dlfcn.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "host.h"
#include "plt_slot.h"

/* The host's own copy of the runtime, linked in (and exported) only in the
 * rows whose host has one: weak, so the other hosts link without it. */
extern void rt_register(const char *device) __attribute__((weak));

struct module modules[MAX_MODULES];
int nmodules;
char rowdir[PATH_MAX];

static void die(const char *what, const char *detail)
{
	fprintf(stderr, "host: %s: %s\n", what, detail);
	exit(2);
}

/* refused: the loader's own words for a refused open, then exit 1. */
static void refused(void)
{
	const char *e = dlerror(), *p;
	size_t n = strlen(rowdir);

	printf("[loader: ");
	for (p = e ? e : "(no dlerror)"; *p; p++)
		if (!strncmp(p, rowdir, n) && p[n] == '/') p += n;     /* row-relative paths */
		else putchar(*p);
	printf("]\n");
	fflush(stdout);
	exit(1);
}

static struct module *find(const char *name, size_t len)
{
	for (int i = 0; i < nmodules; i++)
		if (strlen(modules[i].name) == len && !strncmp(modules[i].name, name, len))
			return &modules[i];
	return NULL;
}

static void open_module(const char *step, const char *eq)
{
	const char *flagspec = eq ? eq + 1 : "";
	struct module *m = &modules[nmodules];
	char path[PATH_MAX + 64], flagnames[96] = "";
	int flags = 0, newlm = 0, base = 0, global = 0;
	struct module *into = NULL;
	size_t len = eq ? (size_t)(eq - step) : strlen(step);
	char *spec = strdup(flagspec), *tok, *save;

	if (nmodules == MAX_MODULES || len == 0 || len >= sizeof m->name)
		die("too many modules, or an empty or too long name", step);
	memcpy(m->name, step, len);
	for (size_t i = 0; i < len; i++)        /* a name is a directory of the row, no path */
		if (!isalnum((unsigned char)step[i]))
			die("a module name is letters and digits", step);
	for (tok = strtok_r(spec, "+", &save); tok; tok = strtok_r(NULL, "+", &save)) {
		if (!strcmp(tok, "global"))        global = 1;
		else if (!strcmp(tok, "lazy"))     flags |= RTLD_LAZY;
		else if (!strcmp(tok, "deepbind")) flags |= RTLD_DEEPBIND;
		else if (!strcmp(tok, "newlm"))    newlm = 1;
		else if (!strcmp(tok, "base"))     base = 1;
		else if (!strncmp(tok, "lm:", 3)) {
			if (!(into = find(tok + 3, strlen(tok + 3))))
				die("lm: names a module not opened yet", tok);
		}
		else die("unknown open flag (global lazy deepbind newlm base lm:NAME)", tok);
	}
	free(spec);
	if (!(flags & RTLD_LAZY))
		flags |= RTLD_NOW;
	flags |= global ? RTLD_GLOBAL : RTLD_LOCAL;
	snprintf(flagnames, sizeof flagnames, "%s|%s%s", flags & RTLD_LAZY ? "RTLD_LAZY" : "RTLD_NOW",
		 global ? "RTLD_GLOBAL" : "RTLD_LOCAL", flags & RTLD_DEEPBIND ? "|RTLD_DEEPBIND" : "");
	snprintf(path, sizeof path, "%s/%s/plugin.so", rowdir, m->name);
	if (newlm) {
		printf("[host] dlmopen(LM_ID_NEWLM, %s/plugin.so, %s)\n", m->name, flagnames);
		fflush(stdout);
		m->handle = dlmopen(LM_ID_NEWLM, path, flags);
	} else if (base) {
		printf("[host] dlmopen(LM_ID_BASE, %s/plugin.so, %s)\n", m->name, flagnames);
		fflush(stdout);
		m->handle = dlmopen(LM_ID_BASE, path, flags);
	} else if (into) {
		printf("[host] dlmopen(namespace %ld of %s, %s/plugin.so, %s)\n", (long)into->lmid, into->name, m->name, flagnames);
		fflush(stdout);
		m->handle = dlmopen(into->lmid, path, flags);
	} else {
		printf("[host] dlopen(%s/plugin.so, %s)\n", m->name, flagnames);
		fflush(stdout);
		m->handle = dlopen(path, flags);
	}
	if (!m->handle)
		refused();
	if (dlinfo(m->handle, RTLD_DI_LMID, &m->lmid) != 0)
		die("dlinfo RTLD_DI_LMID", dlerror());
	nmodules++;
}

/* open_file: a library of the row by its path, as a program that dlopens a
 * file it located itself (a path with a slash: no search, no SONAME match). */
static void open_file(const char *rel)
{
	char path[PATH_MAX + 64];

	if (!*rel || rel[0] == '/' || strstr(rel, ".."))
		die("file: takes a path inside the row directory", rel);
	snprintf(path, sizeof path, "%s/%s", rowdir, rel);
	printf("[host] dlopen(%s, RTLD_NOW|RTLD_LOCAL)\n", rel);
	fflush(stdout);
	if (!dlopen(path, RTLD_NOW | RTLD_LOCAL))
		refused();
}

static void show_slot(struct module *m)
{
	void **slot = plt_slot(m->handle, "rt_get_list");
	Dl_info info;

	if (!slot)
		die("no PLT slot for rt_get_list in", m->name);
	if (!dladdr(*slot, &info) || !info.dli_fname)
		die("slot target in no module", m->name);
	printf("[plt-slot rt_get_list of plugin%s@%p] points to %p in %s%s\n", m->name, (void *)slot, *slot,
	       short_path(info.dli_fname),
	       info.dli_sname && !strcmp(info.dli_sname, "rt_get_list") ? " (rt_get_list)" : " (its own PLT: not yet resolved)");
	fflush(stdout);
}

static void call(const char *step, const char *dot)
{
	struct module *m = find(step, dot - step);
	const char *what = dot + 1, *entry;
	void (*fn)(void);

	if (!m)
		die("step names a module not opened yet", step);
	if (!strcmp(what, "slot"))
		return show_slot(m);
	if (!strcmp(what, "write"))     entry = "plugin_write";
	else if (!strcmp(what, "read")) entry = "plugin_read";
	else if (!strcmp(what, "work")) entry = "plugin_work";
	else die("unknown call (write read work slot)", step);
	fn = (void (*)(void))dlsym(m->handle, entry);
	if (!fn)
		die("dlsym", dlerror());
	fn();
}

int main(int argc, char **argv)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);

	if (n < 0)
		die("readlink", "/proc/self/exe");
	exe[n] = 0;
	strcpy(rowdir, dirname(exe));
	if (argc < 2)
		die("usage", "app STEP... (NAME[=FLAGS], NAME.write|read|work|slot, file:PATH, host.write, libc, maps, env:VAR=VALUE)");
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (int i = 1; i < argc; i++) {
		const char *s = argv[i], *eq = strchr(s, '='), *dot = strchr(s, '.');

		if (!strncmp(s, "env:", 4)) {
			char *var = strdup(s + 4), *val = strchr(var, '=');

			if (!val)
				die("env: step needs VAR=VALUE", s);
			*val++ = 0;
			printf("[host] setenv(%s, %s)\n", var, val);
			setenv(var, val, 1);
			free(var);
		} else if (!strncmp(s, "file:", 5)) {
			open_file(s + 5);
		} else if (!strcmp(s, "host.write")) {
			if (!rt_register)
				die("this host has no runtime copy of its own", s);
			rt_register("devHost");
		} else if (!strcmp(s, "libc"))
			libc_facts();
		else if (!strcmp(s, "maps"))
			maps_facts();
		else if (dot && !eq)
			call(s, dot);
		else
			open_module(s, eq);
	}
	return 0;
}
