/* A divided heap.  A replacement allocator (jemalloc under LD_PRELOAD,
 * ahead of glibc's malloc: collide.c's pair of other libraries, each an
 * allocator by copies.c's fingerprints) takes every reference to the names
 * it defines; a name of the allocation interface it does not define
 * (jemalloc has no pvalloc) still finds the replaced allocator.  A block
 * one heap hands out and the other's free takes back corrupts a heap, so
 * one reference that binds such a name in the replaced library (a
 * relocation, or a name the host is known to look up with dlsym: --dlsym)
 * divides the heap between the two.  A name the replacement lacks that
 * nothing binds changes nothing, but is named (heap_lacks): a lookup by name
 * symsplit was not told of (--dlsym) would divide the heap. */
#include "analyse/analyse.h"
#include <string.h>

/* The C allocation interface: each hands out a block that free takes back,
 * or takes one (glibc's compat-only cfree is no name a link can bind). */
static const char *const ALLOC[] = {
    "malloc", "calloc", "realloc", "reallocarray", "free", "memalign", "aligned_alloc", "posix_memalign",
    "valloc", "pvalloc", "malloc_usable_size",
};
#define NALLOC (sizeof ALLOC / sizeof ALLOC[0])
_Static_assert(NALLOC == HEAP_NAMES, "analyse.h's HEAP_NAMES counts ALLOC");

/* m's exported function of that name, or -1 */
static int exported_func(const struct module *m, const char *name)
{
    int d = module_find_defs(m, name, name_hash(name));
    return d >= 0 && !m->defs[d].hidden_vis && m->defs[d].kind == K_FUNC ? d : -1;
}

/* The first module other than skip whose reference to name binds module
 * to, or -2 for none (heap_binder's -1 is a --dlsym lookup). */
static int binder_of(const struct image *im, const char *name, int to, int skip)
{
    for (int r = 0; r < im->n; r++) {
        const struct module *R = im->mods[r].m;
        if (r == skip) continue;
        for (int k = 0; k < R->nrefs; k++) {
            int d;
            if (!strcmp(R->refs[k].name, name) && ref_lookup(im, r, &R->refs[k], &d) == to) return r;
        }
    }
    return -2;
}

void heap_divided(const struct image *im, struct collision *c)
{
    int x = c->f.x, y = c->f.target;   /* the replaced allocator; the one that took references */
    c->heap_name = NULL;
    c->heap_nlacks = 0;
    if (!c->name || c->different != D_NAMES) return;
    const char *vx = family_variant(im->mods[x].m, "allocator"), *vy = family_variant(im->mods[y].m, "allocator");
    if (!vx || !vy || !strcmp(vx, vy)) return;
    for (size_t i = 0; i < NALLOC; i++) {
        const char *n = ALLOC[i];
        int xd = exported_func(im->mods[x].m, n), d;
        if (xd < 0 || exported_func(im->mods[y].m, n) >= 0) continue;
        c->heap_lacks[c->heap_nlacks++] = n;   /* what a lookup by name would find in x */
        if (c->heap_name) continue;
        int r = binder_of(im, n, x, x);
        /* dlsym on the program's own handle (ctypes.CDLL(None)) or
         * RTLD_DEFAULT: the global scope, where the replacement has none */
        const char *ver = version_name(im->mods[x].m, im->mods[x].m->defs[xd].ver);
        if (r == -2 && im->dlsyms && dlsym_wanted(im->dlsyms, n, &ver) && lookup_in(im, &im->global, n, name_hash(n), NULL, &d) == x)
            r = -1;
        if (r == -2) continue;
        c->heap_name = n;
        c->heap_binder = r;
    }
    if (!c->heap_name) return;
    /* the other side: what takes back the replaced heap's blocks (free),
     * else the strongest crossing */
    int o = binder_of(im, "free", y, y);
    c->heap_other = o >= 0 ? "free" : c->name;
    c->heap_other_binder = o >= 0 ? o : c->f.binder;
}
