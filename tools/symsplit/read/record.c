/* The loader's record as read (--trace, trace.c): which file each file's
 * reference to a name@version was bound to, keyed by device and inode (the
 * loader and symsplit may reach one file by two paths) and by the binder's
 * namespace (a dlmopen namespace loads its own copy of a file); observed.c
 * maps it onto the image's modules. */
#include "base/symsplit.h"
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

char *observed_key(dev_t dev, ino_t ino, int ns, const char *name, const char *ver)
{
    return xasprintf("%llx:%llx:%d\1%s\1%s", (unsigned long long)dev, (unsigned long long)ino, ns, name, ver ? ver : "");
}

void observed_bind(struct observed *o, const char *binder, long ns, const char *target, const char *name, const char *ver)
{
    const struct fileid *b = id_of(o, binder), *t = id_of(o, target);
    if (!b->ok || !t->ok || ns < 0 || ns > 0xffff) return;
    char *k = observed_key(b->dev, b->ino, (int)ns, name, ver);
    strmap_put(&o->binds, k, (void *)t);   /* the last binding of a reference is the one in force */
    free(k);
    o->nbinds++;
}
