/* What the host's files share: the modules it opened, in order. */
#ifndef HOST_H
#define HOST_H
/* needs _GNU_SOURCE (Lmid_t, dlinfo) defined by the includer before any header */
#include <dlfcn.h>
#include <limits.h>

#define MAX_MODULES 8
struct module {
	char name[16];
	void *handle;
	Lmid_t lmid;
};
extern struct module modules[MAX_MODULES];
extern int nmodules;
extern char rowdir[PATH_MAX];

const char *short_path(const char *path);
void libc_facts(void);
void maps_facts(void);
#endif
