/* The allowlist: intentional interposers (allocators, sanitizers...).
 * One entry a line, "SYMBOL [MODULE]", both shell globs; '#' starts a comment.
 * A finding is suppressed when its symbol matches and, if a module is given,
 * any module taking part in it (definer or binder, by soname or file name) does. */
#include "policy/policy.h"
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct allow { char **sym, **mod; int n; };

static struct allow *fail(struct allow *a, FILE *f, char *line)
{
    fclose(f);
    free(line);
    for (int i = 0; i < a->n; i++) { free(a->sym[i]); free(a->mod[i]); }
    free(a->sym);
    free(a->mod);
    free(a);
    return NULL;
}

/* A line is read whole, however long (a glob of a long C++ name is one
 * entry, never two); a NUL byte would cut a pattern short unseen. */
struct allow *allow_load(const char *path, char **err)
{
    struct stat st;
    int fd = open_input(path, &st, err);
    if (fd < 0) return NULL;
    FILE *f = fdopen(fd, "r");
    if (!f) { *err = xasprintf("%s: %s", path, strerror(errno)); close(fd); return NULL; }
    struct allow *a = xcalloc(1, sizeof *a);
    char *line = NULL;
    size_t lcap = 0;
    ssize_t len;
    int cap = 0, lineno = 0;
    while ((len = getline(&line, &lcap, f)) > 0) {
        lineno++;
        if ((size_t)len != strlen(line)) {
            *err = xasprintf("%s:%d: NUL byte in the line", path, lineno);
            return fail(a, f, line);
        }
        char *h = strchr(line, '#');
        if (h) *h = 0;
        char *save, *s = strtok_r(line, " \t\r\n", &save), *m = strtok_r(NULL, " \t\r\n", &save);
        if (!s) continue;
        if (strtok_r(NULL, " \t\r\n", &save)) {
            *err = xasprintf("%s:%d: expected 'SYMBOL [MODULE]'", path, lineno);
            return fail(a, f, line);
        }
        if (a->n >= cap) {
            cap = cap ? 2 * cap : 8;
            a->sym = xrealloc(a->sym, cap * sizeof *a->sym);
            a->mod = xrealloc(a->mod, cap * sizeof *a->mod);
        }
        a->sym[a->n] = xstrdup(s);
        a->mod[a->n++] = m ? xstrdup(m) : NULL;
    }
    if (ferror(f)) {
        *err = xasprintf("%s: %s", path, strerror(errno));
        return fail(a, f, line);
    }
    fclose(f);
    free(line);
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
