/* What the host program looks up on a dlopen handle (dlsym/dlvsym).  A
 * program that dlopens a module calls a handful of entry points by name; the
 * rest of the module's exports are reached only through ordinary binding.
 * --dlsym NAME[@VERSION] (shell globs, repeatable) says which; --host names
 * a known host's entry points. */
#include "base/symsplit.h"
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

struct dlsyms { char **name, **ver; int n; };

static const struct { const char *host; const char *const pats[3]; } presets[] = {
    /* node's process.dlopen: the N-API module entry points */
    { "node", { "napi_register_module_v1", "node_api_module_get_api_version_v1", NULL } },
    /* CPython's import of an extension module */
    { "python", { "PyInit_*", NULL } },
};

struct dlsyms *dlsyms_add(struct dlsyms *d, const char *pattern)
{
    if (!d) d = xcalloc(1, sizeof *d);
    d->name = xrealloc(d->name, (d->n + 1) * sizeof *d->name);
    d->ver = xrealloc(d->ver, (d->n + 1) * sizeof *d->ver);
    char *p = xstrdup(pattern), *at = strchr(p, '@');
    if (at) *at++ = 0;
    d->name[d->n] = p;
    d->ver[d->n++] = at;
    return d;
}

struct dlsyms *dlsyms_host(struct dlsyms *d, const char *host, char **err)
{
    for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++)
        if (!strcmp(presets[i].host, host)) {
            for (int k = 0; presets[i].pats[k]; k++) d = dlsyms_add(d, presets[i].pats[k]);
            return d;
        }
    *err = xasprintf("--host %s: unknown host (known: node, python)", host);
    return NULL;
}

int dlsym_wanted(const struct dlsyms *d, const char *name, const char **ver)
{
    for (int i = 0; i < d->n; i++) {
        if (fnmatch(d->name[i], name, 0)) continue;
        if (!d->ver[i]) { *ver = NULL; return 1; }          /* dlsym: the default version */
        if (*ver && !fnmatch(d->ver[i], *ver, 0)) return 1;  /* dlvsym: that version */
    }
    return 0;
}
