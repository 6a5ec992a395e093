/* The findings of one image (or of one latent pass over it): plain data the
 * analysis appends (split.c, collide.c, copies.c, loadable.c), the policy
 * grades (policy.c) and the reporters print (report.c), in this order. */
#include "analyse/analyse.h"
#include <stdlib.h>
#include <string.h>

/* What a kind's fields own (FKINDS' third column). */
static void free_capture(struct item *it) { free(it->mods); free(it->owned); }
static void free_collision(struct item *it) { free(it->own); }
static void free_copy(struct item *it) { free(it->cp); }
#define FREE_ITEM(id, name, fr) [id] = fr,
static void (*const item_free[F_NKINDS])(struct item *) = { FKINDS(FREE_ITEM) };

struct item *findings_add(struct findings *fs, enum fkind kind, const char *name)
{
    GROW(fs->v, fs->n, fs->cap);
    struct item *it = &fs->v[fs->n++];
    memset(it, 0, sizeof *it);
    it->kind = kind;
    it->name = name;
    if (kind == F_PARTITION) it->capture = -1;
    return it;
}

void findings_clear(struct findings *fs)
{
    for (int i = 0; i < fs->n; i++)
        if (item_free[fs->v[i].kind]) item_free[fs->v[i].kind](&fs->v[i]);
    free(fs->v);
    fs->v = NULL;
    fs->n = fs->cap = fs->naive = 0;
    memset(&fs->died, 0, sizeof fs->died);
    fs->died.printer = -1;
}
