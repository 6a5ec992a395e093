/* --pid PID / --maps FILE: the image of a process from the objects it has
 * actually mapped (maps.c reads them).  The executable's DT_NEEDED closure
 * is the global scope, as at start-up; every other mapped ELF module that
 * no other one needs is taken as an RTLD_LOCAL dlopen, in load order
 * (reverse address order: mmap allocates top-down), unless --dlopen names
 * it with other flags (and then in the order given).  main prints that
 * assumption on stderr. */
#include "base/symsplit.h"
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A module seen loaded: RTLD_LOCAL (assumed: a maps file holds no dlopen
 * flags), unless --dlopen names it (by path, or by file name or SONAME)
 * with its flags. */
static int same_file(const char *a, const char *b)
{
    struct stat x, y;
    return !stat(a, &x) && !stat(b, &y) && x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

static int given(const char *path, const char *name, const struct dlopen_req *user, int nuser)
{
    const char *pb = strrchr(path, '/');
    int found = -1;
    for (int u = 0; u < nuser; u++) {
        const char *b = strrchr(user[u].path, '/');
        b = b ? b + 1 : user[u].path;
        /* a --dlopen given as a path names that file (another file of its
         * SONAME is another module: same-soname); a bare name, any file
         * of that name or SONAME */
        if (strchr(user[u].path, '/') ? !strcmp(user[u].path, path) || same_file(user[u].path, path)
                                      : !strcmp(b, name) || !strcmp(b, pb ? pb + 1 : path)) found = u;
    }
    return found;
}

struct dlopen_req dlopen_as_given(const char *path, const char *name, const struct dlopen_req *user, int nuser)
{
    int u = given(path, name, user, nuser);
    if (u < 0) return (struct dlopen_req){ .path = path, .kind = SC_LOCAL, .assumed = 1 };
    return (struct dlopen_req){ .path = path, .kind = user[u].kind, .deepbind = user[u].deepbind, .lazy = user[u].lazy, .by = user[u].by };
}

/* Fills *exe (when NULL) and the dlopen list; returns its length or -1. */
int maps_image(const char *file, const char **exe, const struct dlopen_req *user, int nuser,
               struct dlopen_req **out, char **err)
{
    int n;
    char **paths = maps_files(file, &n, err);
    if (!paths) return -1;
    if (!*exe) *exe = paths[0];   /* the lowest mapping is the executable's */
    struct image im;
    if (image_build(&im, *exe, NULL, 0, err)) return -1;
    struct module **cand = xcalloc(n, sizeof *cand);
    int nc = 0, skip, *named = xcalloc(n, sizeof *named);
    for (int i = 0; i < n; i++) {
        char *e = NULL;
        struct module *m = load_path(paths[i], 0, &e, &skip);
        free(e);
        if (!m || m->is_dyn_exe || m->is_static) continue;   /* data files, the executable, ld.so's own kind */
        int in = 0, same = 0;
        for (int k = 0; k < im.n && !in; k++) {
            in = im.mods[k].m == m;
            same |= !strcmp(module_name(im.mods[k].m), module_name(m));
        }
        if (!in) { named[nc] = same; cand[nc++] = m; }
    }
    image_free(&im);
    /* A NEEDED name binds the first object loaded under that name (SONAME):
     * another file of the same SONAME was opened by its path, a second
     * object (glibc reuses by file identity, and by SONAME only for a
     * searched name), so it is a dlopen, not the dependency */
    for (int i = 0; i < nc; i++)
        for (int k = i + 1; k < nc && !named[i]; k++)   /* k loaded before i: it sits higher */
            named[i] = !strcmp(module_name(cand[k]), module_name(cand[i]));
    struct dlopen_req *dl = xcalloc(nc + 1, sizeof *dl);
    int nd = 0, *u = xcalloc(nc + 1, sizeof *u);
    /* mmap hands out addresses top-down: the later a module was opened, the
     * lower it sits, so load order is reverse address order, a guess (a
     * module closed leaves a hole a later one fills, above earlier ones).
     * A module --dlopen names was opened, whoever needs it, and in the
     * order given: the named ones take their slots in that order, so that
     * the maps file and the same flags give what the files with them give */
    for (int i = nc - 1; i >= 0; i--) {
        int needed = 0, g = given(cand[i]->path, module_name(cand[i]), user, nuser);
        for (int k = 0; k < nc && !needed && !named[i] && g < 0; k++) needed = k != i && module_needs(cand[k], cand[i]);
        if (needed) continue;
        u[nd] = g;
        dl[nd++] = dlopen_as_given(cand[i]->path, module_name(cand[i]), user, nuser);
    }
    for (int i = 0; i < nd; i++)   /* the named slots, sorted by the user's order (few: insertion) */
        for (int j = i + 1; u[i] >= 0 && j < nd; j++)
            if (u[j] >= 0 && u[j] < u[i]) {
                struct dlopen_req t = dl[i]; dl[i] = dl[j]; dl[j] = t;
                int x = u[i]; u[i] = u[j]; u[j] = x;
            }
    free(u);
    free(cand);
    free(named);
    *out = dl;
    return nd;
}

