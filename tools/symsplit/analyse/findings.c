/* The findings of one image (or of one latent pass over it): plain data the
 * analysis appends (split.c, collide.c, copies.c, loadable.c), the policy
 * grades (policy.c) and the reporters print (report.c), in this order. */
#include "analyse/analyse.h"
#include <stdlib.h>
#include <string.h>

struct item *findings_add(struct findings *fs, enum fkind kind, const char *name)
{
    GROW(fs->v, fs->n, fs->cap);
    struct item *it = &fs->v[fs->n++];
    memset(it, 0, sizeof *it);
    it->kind = kind;
    it->name = name;
    it->capture = -1;
    return it;
}

void findings_clear(struct findings *fs)
{
    for (int i = 0; i < fs->n; i++) {
        struct item *it = &fs->v[i];
        free(it->mods); free(it->own); free(it->cp); free(it->owned);
    }
    free(fs->v);
    fs->v = NULL;
    fs->n = fs->cap = fs->naive = 0;
    memset(&fs->died, 0, sizeof fs->died);
    fs->died.printer = -1;
}
