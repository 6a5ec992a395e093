/* The allowlist: intentional interposers (allocators, sanitizers...).
 * One entry a line, "SYMBOL [MODULE]", both shell globs; '#' starts a comment.
 * A finding is suppressed when its symbol matches and, if a module is given,
 * any module taking part in it (definer or binder, by soname or file name) does. */
#include "symsplit.h"
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct allow { char **sym, **mod; int n; };

struct allow *allow_load(const char *path, char **err)
{
    FILE *f = fopen(path, "r");
    if (!f) { *err = xasprintf("%s: %s", path, strerror(errno)); return NULL; }
    struct allow *a = xcalloc(1, sizeof *a);
    char line[4096];
    int cap = 0, lineno = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        char *h = strchr(line, '#');
        if (h) *h = 0;
        char *save, *s = strtok_r(line, " \t\r\n", &save), *m = strtok_r(NULL, " \t\r\n", &save);
        if (!s) continue;
        if (strtok_r(NULL, " \t\r\n", &save)) {
            *err = xasprintf("%s:%d: expected 'SYMBOL [MODULE]'", path, lineno);
            fclose(f);
            return NULL;
        }
        if (a->n >= cap) {
            cap = cap ? 2 * cap : 8;
            a->sym = xrealloc(a->sym, cap * sizeof *a->sym);
            a->mod = xrealloc(a->mod, cap * sizeof *a->mod);
        }
        a->sym[a->n] = xstrdup(s);
        a->mod[a->n++] = m ? xstrdup(m) : NULL;
    }
    fclose(f);
    return a;
}

int allow_match(const struct allow *a, const char *sym, const char *const *mods, int nmods)
{
    for (int i = 0; i < a->n; i++) {
        if (fnmatch(a->sym[i], sym, 0)) continue;
        if (!a->mod[i]) return 1;
        for (int k = 0; k < nmods; k++)
            if (!fnmatch(a->mod[i], mods[k], 0)) return 1;
    }
    return 0;
}
