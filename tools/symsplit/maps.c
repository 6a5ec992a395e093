/* --pid PID / --maps FILE: the image of a process from the objects it has
 * actually mapped (/proc/PID/maps, or a saved copy).  The executable's
 * DT_NEEDED closure is the global scope, as at start-up; every other mapped
 * ELF module that no other one needs is taken as an RTLD_LOCAL dlopen, in
 * load order (reverse address order: mmap allocates top-down), unless
 * --dlopen names it with other flags.  main prints
 * that assumption on stderr. */
#include "symsplit.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* "start-end perms offset dev:dev inode [path]": the kernel's format; any
 * other line means FILE is no maps file (its bytes are not repeated). */
static int maps_line(const char *s, ssize_t len)
{
    unsigned long lo, hi, off, ino;
    unsigned maj, mn;
    char perms[5];
    int k = -1;
    if ((ssize_t)strlen(s) != len) return 0;   /* a NUL byte: binary */
    if (sscanf(s, "%lx-%lx %4s %lx %x:%x %lu%n", &lo, &hi, perms, &off, &maj, &mn, &ino, &k) != 7 || k < 0) return 0;
    if (strlen(perms) != 4 || strspn(perms, "rwxps-") != 4) return 0;
    return s[k] == 0 || s[k] == ' ' || s[k] == '\n';
}

/* Unique absolute paths of mapped files, in address order. */
static char **mapped(const char *file, int *n, char **err)
{
    struct stat st;
    int fd = open_input(file, &st, err);
    if (fd < 0) {
        char *why = *err;
        *err = xasprintf("--maps %s", why);
        free(why);
        return NULL;
    }
    FILE *f = fdopen(fd, "r");
    char *line = NULL, **paths = NULL;
    size_t cap = 0;
    *n = 0;
    ssize_t len;
    for (int no = 1; (len = getline(&line, &cap, f)) > 0; no++) {
        if (!maps_line(line, len)) {
            *err = xasprintf("--maps %s: line %d is not a /proc/PID/maps line (start-end perms offset dev inode [path])",
                             file, no);
            for (int i = 0; i < *n; i++) free(paths[i]);
            free(paths);
            free(line);
            fclose(f);
            return NULL;
        }
        char *p = strchr(line, '/');
        if (!p) continue;
        p[strcspn(p, "\n")] = 0;
        char *del = strstr(p, " (deleted)");
        if (del) *del = 0;
        int seen = 0;
        for (int i = 0; i < *n && !seen; i++) seen = !strcmp(paths[i], p);
        if (seen) continue;
        paths = xrealloc(paths, (*n + 1) * sizeof *paths);
        paths[(*n)++] = xstrdup(p);
    }
    int rerr = ferror(f) ? errno : 0;
    free(line);
    fclose(f);
    if (rerr) { *err = xasprintf("--maps %s: %s", file, strerror(rerr)); return NULL; }
    if (!*n) { *err = xasprintf("%s: no mapped files (not a /proc/PID/maps?)", file); return NULL; }
    return paths;
}

/* A module seen loaded: RTLD_LOCAL, unless --dlopen names it (by path, or
 * by file name or SONAME) with its flags. */
struct dlopen_req dlopen_as_given(const char *path, const char *name, const struct dlopen_req *user, int nuser)
{
    struct dlopen_req r = { .path = path, .kind = SC_LOCAL };
    const char *pb = strrchr(path, '/');
    for (int u = 0; u < nuser; u++) {
        const char *b = strrchr(user[u].path, '/');
        b = b ? b + 1 : user[u].path;
        if (!strcmp(user[u].path, path) || !strcmp(b, name) || !strcmp(b, pb ? pb + 1 : path))
            r = (struct dlopen_req){ path, user[u].kind, user[u].deepbind, user[u].lazy, user[u].by };
    }
    return r;
}

/* Fills *exe (when NULL) and the dlopen list; returns its length or -1. */
int maps_image(const char *file, const char **exe, const struct dlopen_req *user, int nuser,
               struct dlopen_req **out, char **err)
{
    int n;
    char **paths = mapped(file, &n, err);
    if (!paths) return -1;
    if (!*exe) *exe = paths[0];   /* the lowest mapping is the executable's */
    struct image im;
    if (image_build(&im, *exe, NULL, 0, err)) return -1;
    struct module **cand = xcalloc(n, sizeof *cand);
    int nc = 0, skip;
    for (int i = 0; i < n; i++) {
        char *e = NULL;
        struct module *m = load_path(paths[i], 0, &e, &skip);
        free(e);
        if (!m || m->is_dyn_exe || m->is_static) continue;   /* data files, the executable, ld.so's own kind */
        int in = 0;
        for (int k = 0; k < im.n && !in; k++) in = im.mods[k].m == m;
        if (!in) cand[nc++] = m;
    }
    image_free(&im);
    struct dlopen_req *dl = xcalloc(nc + 1, sizeof *dl);
    int nd = 0;
    /* mmap hands out addresses top-down: the later a module was opened, the
     * lower it sits, so load order is reverse address order */
    for (int i = nc - 1; i >= 0; i--) {
        int needed = 0;
        for (int k = 0; k < nc && !needed; k++) needed = k != i && module_needs(cand[k], cand[i]);
        if (needed) continue;
        dl[nd++] = dlopen_as_given(cand[i]->path, module_name(cand[i]), user, nuser);
    }
    free(cand);
    *out = dl;
    return nd;
}

char *maps_of_pid(const char *pid, char **exe, char **err)
{
    char *p = xasprintf("/proc/%s/exe", pid), buf[4096];
    ssize_t k = readlink(p, buf, sizeof buf - 1);
    free(p);
    if (k < 0) { *err = xasprintf("--pid %s: cannot read /proc/%s/exe (no such process, or not permitted)", pid, pid); return NULL; }
    buf[k] = 0;
    char *del = strstr(buf, " (deleted)");
    if (del) *del = 0;
    *exe = xstrdup(buf);
    return xasprintf("/proc/%s/maps", pid);
}
