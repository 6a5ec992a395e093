/* What a process did, as read from the process itself (the loader's record
 * under --trace): the binding each module's reference got.  The image's
 * lookup asks here first (bind.c): an observed binding is the truth for
 * what ran, the model answers only what has not happened yet (a lazy slot
 * never called, a promotion that did not happen).  Files are matched by
 * device and inode, never by name: the loader and symsplit may reach one
 * file by two paths. */
#include "symsplit.h"
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct fileid { dev_t dev; ino_t ino; int ok; };

static const struct fileid *id_of(struct observed *o, const char *path)
{
    struct fileid *f = strmap_get(&o->files, path);
    if (f) return f;
    struct stat st;
    f = xcalloc(1, sizeof *f);
    if (stat(path, &st) == 0) *f = (struct fileid){ st.st_dev, st.st_ino, 1 };   /* linux-vdso.so.1 has no file */
    strmap_put(&o->files, path, f);
    return f;
}

static char *key(dev_t dev, ino_t ino, const char *name, const char *ver)
{
    return xasprintf("%llx:%llx\1%s\1%s", (unsigned long long)dev, (unsigned long long)ino, name, ver ? ver : "");
}

void observed_bind(struct observed *o, const char *binder, const char *target, const char *name, const char *ver)
{
    const struct fileid *b = id_of(o, binder), *t = id_of(o, target);
    if (!b->ok || !t->ok) return;
    char *k = key(b->dev, b->ino, name, ver);
    strmap_put(&o->binds, k, (void *)t);   /* the last binding of a reference is the one in force */
    free(k);
    o->nbinds++;
}

int observed_module(const struct image *im, int from, const char *name, const char *ver)
{
    int lazy;
    if (!im->obs) return -1;
    if (im->obs->live) return live_module(im->obs->live, from, name, &lazy);   /* per module: namespaces hold one file twice */
    const struct module *m = im->mods[from].m;
    char *k = key(m->dev, m->ino, name, ver);
    const struct fileid *t = strmap_get(&im->obs->binds, k);
    free(k);
    for (int i = 0; t && i < im->n; i++)
        if (im->mods[i].m->dev == t->dev && im->mods[i].m->ino == t->ino) return i;
    return -1;   /* not observed, or a module the model does not have */
}
