/* Every lookup ld.so makes to relocate an image at start-up, and the
 * definition it binds (--bindings): what LD_DEBUG=bindings prints when the
 * loader relocates everything (LD_BIND_NOW), one answer per module, symbol,
 * version and class.  The answers are bind.c's; this file only asks every
 * question a module's relocations pose (elf_dynamic.c keeps them), with the
 * two rules of the loader's lookup that no analysis needed before:
 *  - a COPY relocation's lookup skips the executable (its copy is the
 *    destination, the library's definition the source);
 *  - a module's reference to its own protected definition binds it, wherever
 *    the lookup went (the loader prints such a binding "protected");
 *  - a position-dependent executable's PLT entry for a function it calls
 *    (undefined, with a value) is that function's address: every lookup but
 *    a PLT slot's binds it, the executable being first in every scope;
 *  - the loader relocates itself before anything is loaded, each of its
 *    references to its own definition or to nothing: no lookup; in trace
 *    mode (ldd -r) that is all.  A process that runs (bindings_run) is
 *    relocated again: once every start-up object is relocated and the
 *    loader's minimal malloc handed over, rtld.c relocates the loader a
 *    second time, not lazily, in the main program's scope, when a NEEDED
 *    named it (rtld_multiple_ref: libc.so.6 does).  Measured, glibc 2.36,
 *    LD_DEBUG=bindings: its four JUMP_SLOTs (_dl_catch_error and three
 *    more, GLIBC_PRIVATE, its own definitions) bind libc.so.6's, last
 *    before the first constructor, lazy or under BIND_NOW alike; an
 *    executable or a preload exporting _dl_catch_error captures it (the
 *    main scope, the executable first).  glibc 2.41's loader has no symbol
 *    relocation: nothing to look up.  A dlmopen namespace reuses the one
 *    loader: no second relocation;
 *  - a filtee sits before its filter in every searchlist (closure.c): a
 *    lookup the filter could answer binds the filtee's definition ("filter");
 *  - an initial-exec TLS reference into the block of a module an earlier
 *    dlopen loaded needs a static TLS offset for that block
 *    (_dl_try_allocate_static_tls): the loader refuses the open when the
 *    block was already used dynamically (__tls_get_addr marks it so) or the
 *    surplus static TLS has no room.  Measured, glibc 2.36: a 16-byte block
 *    opened RTLD_LAZY, then an IE user opened RTLD_NOW: opens; the same
 *    after a dlsym of the variable, or with a 4096-byte block: "cannot
 *    allocate memory in static TLS block".  What ran before decides, not
 *    the files: every binding of that open is marked (risk), none judged.
 *    A block the same open loads is fresh (nothing ran since): it gets an
 *    offset while the surplus has room (tst-tls15's tst-tlsmod15b.so), not
 *    marked; whether the surplus has room is statictls.c's. */
#include "base/symsplit.h"
#include <stdlib.h>
#include <string.h>

#define NAME_ITEM(id, name) name,
const char *const bindkind_name[] = { BINDKINDS(NAME_ITEM) };

static const char *lookver(const struct module *m, const struct lookref *l, int *hidden)
{
    const char *v = version_name(m, l->ver);
    *hidden = v ? m->vers[l->ver].hidden : 0;
    return v;
}

/* The executable's PLT entry for name@ver, as a lookup that is no PLT
 * slot's finds it (do_lookup_x takes an undefined symbol with a value). */
static int canon(const struct module *x, const char *name, const char *ver)
{
    for (int k = 0; x->ncanon && k < x->nrefs; k++) {
        const struct ref *r = &x->refs[k];
        if (!r->canon || strcmp(r->name, name)) continue;
        const char *rv = version_name(x, r->ver);
        if (!ver || !rv || !strcmp(rv, ver)) return 1;
    }
    return 0;
}

/* Does the filter that loaded module t as its filtee define name too? */
static int filtered(const struct image *im, int t, const char *name, uint32_t hash)
{
    int f = t >= 0 ? im->mods[t].filter : -1;
    if (f < 0) return 0;
    const struct module *fm = im->mods[f].m;
    for (int d = module_find_defs(fm, name, hash); d >= 0; d = fm->defs[d].next)
        if (fm->defs[d].hash == hash && !strcmp(fm->defs[d].name, name)) return 1;
    return 0;
}

static int is_loader(const struct module *m)
{
    return m->soname && !strncmp(m->soname, "ld-linux", 8);
}

int bindings_run;

/* Does the loader's relocation, as module i, make lookups?  In a process
 * that runs, once: the start-up closure's loader (a NEEDED named it). */
static int loader_looks(const struct image *im, int i)
{
    return bindings_run && !im->mods[i].step && !im->mods[i].ns;
}

int image_bindings(const struct image *im, struct bound **out)
{
    struct bound *b = NULL;
    int n = 0, cap = 0;
    const struct module *x = im->mods[0].m;
    for (int i = 0; i < im->n; i++) {
        const struct module *m = im->mods[i].m;
        if (is_loader(m) && i && !loader_looks(im, i)) continue;
        for (int k = 0; k < m->nlooks; k++) {
            const struct lookref *l = &m->looks[k];
            int hidden, def = -1;
            const char *ver = lookver(m, l, &hidden);
            int t = lookup_skip(im, i, l->name, l->hash, ver, hidden, 0, l->cls == LC_COPY && i == 0 ? 0 : -1, &def);
            int kind = l->cls == LC_COPY ? BK_COPY : l->tls ? BK_TLS : BK_NORMAL;
            if (l->protected_def && l->cls != LC_COPY) {   /* its own protected definition */
                int own = module_find_defs(m, l->name, l->hash);
                while (own >= 0 && (m->defs[own].hash != l->hash || strcmp(m->defs[own].name, l->name) || m->defs[own].hidden_vis || m->defs[own].ver != l->ver))
                    own = m->defs[own].next;
                if (own >= 0) { t = i; def = own; kind = BK_PROTECTED; }
            }
            if (x->ncanon && l->cls == LC_NORMAL && kind != BK_PROTECTED && !im->mods[i].ns && canon(x, l->name, ver)) {
                t = 0;
                def = -1;
            }
            if (t >= 0 && def >= 0 && kind == BK_NORMAL && im->mods[t].m->defs[def].ifunc) kind = BK_IFUNC;
            if (kind == BK_NORMAL && filtered(im, t, l->name, l->hash)) kind = BK_FILTER;
            GROW(b, n, cap);
            b[n++] = (struct bound){ .from = i, .look = k, .target = t, .def = def, .kind = kind, .observed = observed_module(im, i, l->name, ver) >= 0 };
        }
    }
    /* the opens an initial-exec reference into a dlopened block makes
     * depend on the run: each binding of such an open points at the first */
    for (int k = 0; k < n; k++) {
        const struct lmod *f = &im->mods[b[k].from];
        int ts = b[k].target >= 0 ? im->mods[b[k].target].step : 0;
        if (b[k].observed || !f->step || !ts || ts == f->step || !f->m->looks[b[k].look].ie) continue;
        for (int j = 0; j < n; j++)
            if (!b[j].risk && im->mods[b[j].from].step == f->step) b[j].risk = k + 1;
    }
    static_tls_marks(im, b, n);
    *out = b;
    return n;
}
