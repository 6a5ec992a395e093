/* What a process did, as read from the process itself (the loader's record
 * under --trace, stored by record.c): the binding each module's reference
 * got, as an image module.  The image's
 * lookup asks here first (bind.c): an observed binding is the truth for
 * what ran, the model answers only what has not happened yet (a lazy slot
 * never called, a promotion that did not happen).  Files are matched by
 * device and inode, never by name: the loader and symsplit may reach one
 * file by two paths. */
#include "read/live.h"
#include <stdlib.h>
#include <string.h>

/* --pid: what the slots image_live.c read say; apart from it so that a
 * lookup (bind.c) reads a process without reaching the code that builds
 * its image, which opens --dlopen what-ifs through bind.c (open.c) */
int live_module(const struct live *lv, int from, const char *name, int *lazy)
{
    const struct slot *o = from < lv->nslots_of ? strmap_get(&lv->slots[from], name) : NULL;
    *lazy = o && o->state == S_LAZY;
    return o && o->state == S_BOUND ? o->target : -1;
}

int observed_module(const struct image *im, int from, const char *name, const char *ver)
{
    int lazy;
    if (!im->obs) return -1;
    if (im->obs->live) return live_module(im->obs->live, from, name, &lazy);   /* per module: namespaces hold one file twice */
    const struct module *m = im->mods[from].m;
    int ns = im->mods[from].ns;
    char *k = observed_key(m->dev, m->ino, ns, name, ver);
    const struct fileid *t = strmap_get(&im->obs->binds, k);
    free(k);
    /* in the binder's namespace: the loader searches no other (it names
     * ld.so, which every namespace shares, by its main-namespace entry) */
    for (int i = 0; t && i < im->n; i++)
        if (im->mods[i].ns == ns && im->mods[i].m->dev == t->dev && im->mods[i].m->ino == t->ino) return i;
    return -1;   /* not observed, or a module the model does not have */
}
