/* The findings of one image (or of one latent pass over it): plain data the
 * analysis appends (split.c, collide.c, copies.c, loadable.c), the policy
 * grades (policy.c) and the reporters print (report.c), in this order.
 * What no kind's fields hold is here: memory an item points to is the
 * findings', so clearing them names no kind. */
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
    return it;
}

void *findings_own(struct findings *fs, void *p)
{
    if (!p) return NULL;
    GROW(fs->owned, fs->nowned, fs->ownedcap);
    fs->owned[fs->nowned++] = p;
    return p;
}

void findings_clear(struct findings *fs)
{
    for (int i = 0; i < fs->nowned; i++) free(fs->owned[i]);
    free(fs->owned);
    fs->owned = NULL;
    fs->nowned = fs->ownedcap = 0;
    free(fs->v);
    fs->v = NULL;
    fs->n = fs->cap = fs->naive = 0;
    memset(&fs->died, 0, sizeof fs->died);
    fs->died.printer = -1;
}
