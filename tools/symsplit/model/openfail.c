/* A dlopen the loader refuses at relocation, and undoes: an object the open
 * brings has a non-weak reference that nothing in its scope defines, looked
 * up at the open.  _dl_open catches dl_open_worker's error and closes every
 * object the open loaded; the objects loaded before it stay.  Measured
 * (glibc 2.36, LD_DEBUG=bindings,files, a host opening mod.so, which NEEDs
 * libdep.so):
 *  - an undefined data reference (GLOB_DAT), RTLD_NOW or RTLD_LAZY: the open
 *    fails ("undefined symbol: NAME"); libdep.so, relocated first, logged its
 *    lookups, then both are destroyed ("destroying link map") and a later
 *    RTLD_NOLOAD finds neither;
 *  - an undefined function (a PLT slot only): RTLD_NOW fails the same way,
 *    after the lookups before it in mod.so's relocation order were logged;
 *    RTLD_LAZY opens (the first call fails), unless LD_BIND_NOW is set or the
 *    object is BIND_NOW.
 * A reference no relocation names is never looked up, so never fails. */
#include "base/symsplit.h"
#include <stdlib.h>
#include <string.h>

int bind_now_all;

/* The first reference of modules before.. that the open looks up and no
 * definition answers: 1 and *f filled (the objects the open loaded, the
 * module and the name), or 0. */
int open_fails(const struct image *im, int before, const char *root, struct openfail *f)
{
    for (int i = before; i < im->n; i++) {
        const struct module *m = im->mods[i].m;
        for (int k = 0; k < m->nrefs; k++) {
            const struct ref *rf = &m->refs[k];
            int d;
            if (rf->weak || !rf->reloc) continue;
            if (rf->lazy && !im->mods[i].now && !bind_now_all) continue;   /* bound at the first call */
            if (ref_lookup(im, i, rf, &d) >= 0) continue;
            const char *ver = version_name(m, rf->ver);
            *f = (struct openfail){ .root = xstrdup(root), .from = xstrdup(m->path), .name = xstrdup(rf->name),
                                    .ver = ver ? xstrdup(ver) : NULL, .nobjs = im->n - before };
            f->objs = xcalloc(f->nobjs, sizeof *f->objs);
            for (int j = before; j < im->n; j++) f->objs[j - before] = xstrdup(im->mods[j].m->path);
            return 1;
        }
    }
    return 0;
}
