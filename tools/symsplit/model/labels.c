/* What a row calls a module: its SONAME (else its file name), and where
 * two modules of one image go by the same name (route-b's a/plugin.so and
 * b/plugin.so, a vendored libfoo.so.1 beside the system's), the shortest
 * suffix of its path that tells it from every other: "a/plugin.so". */
#include "base/symsplit.h"
#include <stdlib.h>
#include <string.h>

/* The last k components of path (the whole path when it has fewer). */
static const char *suffix(const char *path, int k)
{
    const char *s = path + strlen(path);
    while (s > path && k > 0) {
        s--;
        if (*s == '/' && --k == 0) return s + 1;
    }
    return path;
}

static int by_module_name(const void *a, const void *b, void *arg)
{
    const struct image *im = arg;
    int x = *(const int *)a, y = *(const int *)b, c = strcmp(module_name(im->mods[x].m), module_name(im->mods[y].m));
    return c ? c : (x > y) - (x < y);
}

/* Only modules of one name need telling apart: sorted by name, each run of
 * one name compared within itself (a host of thousands of plugins, each
 * its own name, is not asked n^2 questions). */
void image_labels(struct image *im)
{
    int *ord = xcalloc(im->n ? im->n : 1, sizeof *ord);
    for (int i = 0; i < im->n; i++) ord[i] = i;
    qsort_r(ord, im->n, sizeof *ord, by_module_name, im);
    for (int r = 0, e; r < im->n; r = e) {
        const char *name = module_name(im->mods[ord[r]].m);
        for (e = r + 1; e < im->n && !strcmp(module_name(im->mods[ord[e]].m), name); e++) {}
        for (int a = r; a < e; a++) {
            int i = ord[a], k = 0;   /* components needed; 0: the name is its own */
            const char *path = im->mods[i].m->path;
            for (int b = r; b < e; b++) {
                const char *other = im->mods[ord[b]].m->path;
                if (b == a || !strcmp(other, path)) continue;
                int need = 1;   /* the shortest suffix of path that is no suffix of other's */
                while (suffix(path, need) != path && !strcmp(suffix(path, need), suffix(other, need))) need++;
                if (need > k) k = need;
            }
            free(im->mods[i].label);
            im->mods[i].label = k ? xstrdup(suffix(path, k)) : NULL;
        }
    }
    free(ord);
}

const char *image_label(const struct image *im, int i)
{
    return im->mods[i].label ? im->mods[i].label : module_name(im->mods[i].m);
}
