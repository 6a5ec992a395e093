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

void image_labels(struct image *im)
{
    for (int i = 0; i < im->n; i++) {
        const char *name = module_name(im->mods[i].m), *path = im->mods[i].m->path;
        int k = 0;   /* components needed; 0: the name is its own */
        for (int j = 0; j < im->n; j++) {
            const char *other = im->mods[j].m->path;
            if (j == i || strcmp(module_name(im->mods[j].m), name) || !strcmp(other, path)) continue;
            int need = 1;   /* the shortest suffix of path that is no suffix of other's */
            while (suffix(path, need) != path && !strcmp(suffix(path, need), suffix(other, need))) need++;
            if (need > k) k = need;
        }
        free(im->mods[i].label);
        im->mods[i].label = k ? xstrdup(suffix(path, k)) : NULL;
    }
}

const char *image_label(const struct image *im, int i)
{
    return im->mods[i].label ? im->mods[i].label : module_name(im->mods[i].m);
}
