/* What a capture's two copies hold: whether the copy still in use reaches
 * state of its own, and why nothing can diverge when it does not (stateless
 * code, constants, vague linkage).  Facts about the files; policy.c grades
 * them. */
#include "analyse/analyse.h"
#include <gelf.h>
#include <stdlib.h>
#include <string.h>

#define STATE_MIN 64   /* less writable data than this is crt bookkeeping, not state */

static const char *mname(const struct image *im, int i) { return module_name(im->mods[i].m); }

/* C runtime libraries: an executable's private copy of one of their functions
 * is gnulib-style stateless code, partitioned, not shared state split. */
static int is_libc(const struct module *m)
{
    static const char *const pfx[] = { "libc.so.", "libm.so.", "ld-linux", "libpthread.so.", "libdl.so.",
                                       "librt.so.", "libresolv.so.", "libutil.so.", "libcrypt.so." };
    const char *n = module_name(m);
    for (size_t i = 0; i < sizeof pfx / sizeof pfx[0]; i++)
        if (!strncmp(n, pfx[i], strlen(pfx[i]))) return 1;
    return 0;
}

/* Function duplicates that are code, not state (the reason, or NULL). */
static const char *stateless(const struct image *im, int ta, const struct def *da, int tb, const struct def *db)
{
    const struct module *ma = im->mods[ta].m, *mb = im->mods[tb].m;
    if (da->kind != K_FUNC || db->kind != K_FUNC) return NULL;
    if ((ta == 0 && is_libc(mb)) || (tb == 0 && is_libc(ma)))
        return "the executable carries its own copy of a C library function (gnulib-style)";
    /* C++ code instantiated hidden (-fvisibility-inlines-hidden, COMDAT
     * under -fvisibility=hidden): the same vague-linkage case */
    if ((da->hidden_vis || db->hidden_vis) && !strncmp(da->name, "_Z", 2))
        return "a hidden C++ instantiation (inline/template code compiled into this module with hidden visibility; "
               "vague linkage, any static state it has lives in a separate data symbol)";
    if (da->bind == STB_WEAK && db->bind == STB_WEAK)
        return "both copies are weak (C++ vague linkage: inline/template code emitted in every module by design; "
               "any static state it has lives in a separate unique data symbol)";
    if ((ta != 0 && module_needs(ma, mb)) || (tb != 0 && module_needs(mb, ma)))
        return "one library re-exports a function of its own direct dependency (a forwarding shim, as glvnd's libGL does for libGLX)";
    return NULL;
}

/* Does the live copy of the function reach state of its own?  Per
 * function when its code can be followed (funcstate.c); else per module:
 * exact when .symtab is there, otherwise its writable bytes less the
 * exported data it reaches through the GOT, against a floor for the C
 * runtime's own few bytes.  *how says which. */
static int has_state(struct module *m, const struct def *d, const char **how, int *proven)
{
    int fs = function_state(m, d);
    *proven = 1;
    if (fs >= 0) {
        *how = !d->ifunc ? "per disassembly of the function and its callees"
               : d->impl ? "per disassembly of the IFUNC's implementation the process's slot holds, and its callees"
                         : "per disassembly of the implementations the IFUNC's resolver returns, and their callees";
        return fs;
    }
    *how = m->private_state >= 0 ? "per .symtab" : "estimated from .data/.bss sizes";
    if (m->private_state >= 0) return m->private_state > 0;
    *proven = 0;
    return m->state_bytes > m->shared_data && m->state_bytes - m->shared_data >= STATE_MIN;
}

/* The bytes of a definition in pure read-only data (no relocation applies
 * there), or NULL. */
static const unsigned char *rodata_bytes(const struct module *m, const struct def *d)
{
    GElf_Shdr sh;
    Elf_Scn *scn = d->shndx && d->shndx < SHN_LORESERVE ? elf_getscn(m->elf, d->shndx) : NULL;
    if (!scn || !gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS || (sh.sh_flags & (SHF_WRITE | SHF_EXECINSTR)))
        return NULL;
    if (d->value >= m->relro_lo && d->value < m->relro_hi) return NULL;
    if (d->value < sh.sh_addr || d->value + d->size > sh.sh_addr + sh.sh_size) return NULL;
    uint64_t off = sh.sh_offset + (d->value - sh.sh_addr);
    return off + d->size <= m->size ? (const unsigned char *)m->map + off : NULL;
}

/* The C++ runtime and node-addon-api's classes: copies of one code
 * wherever they are (a static libstdc++ in an addon, one header-only
 * library built into each addon), whatever their sizes. */
int runtime_name(const char *n)
{
    static const char *const pfx[] = { "_ZNSt", "_ZNKSt", "_ZSt", "_ZTISt", "_ZTSSt", "_ZTVSt", "_ZN9__gnu_cxx",
                                       "_ZNK9__gnu_cxx", "_ZN10__cxxabiv1", "__cxa_", "__gxx_", "_Znw", "_Zna", "_Zdl",
                                       "_Zda", "_ZN4Napi", "_ZNK4Napi", "_Unwind_" };
    for (size_t i = 0; i < sizeof pfx / sizeof pfx[0]; i++)
        if (!strncmp(n, pfx[i], strlen(pfx[i]))) return 1;
    return 0;
}

static int runtime_library(const struct module *m)
{
    return m->soname && (!strncmp(m->soname, "libstdc++.so", 12) || !strncmp(m->soname, "libgcc_s.so", 11) ||
                         !strncmp(m->soname, "libc++.so", 9) || !strncmp(m->soname, "libunwind.so", 12));
}

/* Two functions of one name and different sizes are two entities when one
 * of them is embedded in a plugin (an addon, an extension module: no
 * library SONAME, not the executable) and the other module carries no copy of the
 * same library: numpy's xerbla_ in place of the BLAS one, two addons' own
 * init(Napi::Env, Napi::Object).  A library in its own right (a SONAME) is
 * compared by collide.c; the executable's own copy of a C library function
 * is gnulib's (state.c's stateless); weak code is C++ vague linkage, and two
 * builds of one bundled library (copies.c's fingerprints) differ in size by
 * their compiler flags. */
/* A library in its own right: a SONAME with a ".so" part (libfoo.so.1).
 * node-gyp gives each addon one too, "bindings.node": a plugin's name. */
static int library_name(const struct module *m)
{
    const char *s = m->soname ? strstr(m->soname, ".so") : NULL;
    return s && (!s[3] || s[3] == '.');
}

static int different_functions(const struct module *a, const struct def *da, const struct module *b, const struct def *db)
{
    if (da->kind != K_FUNC || db->kind != K_FUNC || !da->size || !db->size || da->size == db->size) return 0;
    if (da->bind == STB_WEAK || db->bind == STB_WEAK || da->hidden_vis || db->hidden_vis) return 0;
    if (a->is_dyn_exe || b->is_dyn_exe || (library_name(a) && library_name(b))) return 0;
    if (runtime_name(da->name) || runtime_library(a) || runtime_library(b)) return 0;
    return !common_family((struct module *)a, (struct module *)b);
}

/* Different sizes of one data object (a vtable of 64 bytes and one of 96
 * are two classes), or different bytes of read-only data of one size; two
 * functions of different sizes, one of them embedded in a plugin
 * (different_functions). */
int different_entities(const struct module *a, const struct def *da, const struct module *b, const struct def *db)
{
    if (different_functions(a, da, b, db)) return 1;
    if (da->kind != K_DATA || db->kind != K_DATA || !da->size || !db->size) return 0;
    if (da->size != db->size) return 1;
    const unsigned char *x = rodata_bytes(a, da), *y = rodata_bytes(b, db);
    return x && y && memcmp(x, y, da->size) != 0;
}

/* The data object m exports (.dynsym) holding address a: its index, or -1. */
static int exported_data_at(const struct module *m, uint64_t a)
{
    for (int i = 0; i < m->ndefs_dyn; i++) {
        const struct def *d = &m->defs[i];
        if (d->kind == K_DATA && !d->hidden_vis && a >= d->value && a < d->value + (d->size ? d->size : 1)) return i;
    }
    return -1;
}

/* Both copies of a function work on one state when the copy every lookup
 * binds (Y) reaches no private state of its own, proven by its code, and
 * each cell the copy still in use (X) touches is data X exports that Y's own
 * references bind: Y reaches X's table through its GOT (clang's PIE, gcc's
 * -fPIC code: no COPY relocation, so no second table). */
/* Y's reference to the data X exports as its def di binds X's (Y reaches it through its GOT). */
static int binds_xs(const struct image *im, const struct finding *f, int di)
{
    const struct module *mx = im->mods[f->x].m, *my = im->mods[f->target].m;
    const struct def *xd = &mx->defs[di];
    int k = 0, d = -1;
    while (k < my->nrefs && (my->refs[k].hash != xd->hash || strcmp(my->refs[k].name, xd->name))) k++;
    if (k == my->nrefs) return 0;
    const struct ref *rf = &my->refs[k];
    return ref_lookup(im, f->target, rf, &d) == f->x && d == di;
}

/* Without a disassembly (another machine's code, machine.c), per module and
 * only from .symtab: Y holds no private state at all, and X's private state
 * is only data X exports that Y's references bind: every cell exists once. */
static int one_state_modules(const struct image *im, const struct finding *f)
{
    const struct module *mx = im->mods[f->x].m, *my = im->mods[f->target].m;
    if (my->private_state != 0 || mx->private_state < 0) return 0;
    long shared = 0;
    for (int i = 0; i < mx->ndefs_dyn; i++) {
        const struct def *d = &mx->defs[i];
        if (d->kind != K_DATA || d->self_reloc || d->readonly) continue;   /* symtab.c's private state */
        if (!binds_xs(im, f, i)) return 0;
        shared += d->size;
    }
    return shared == mx->private_state;
}

static int one_state(const struct image *im, const struct finding *f)
{
    struct module *mx = im->mods[f->x].m, *my = im->mods[f->target].m;
    const struct def *dx = &mx->defs[f->xdef], *dy = &my->defs[f->def];
    struct touches t = { 0 };
    int fs = function_state(my, dy);
    if (fs < 0 && !machine()->disasm) return one_state_modules(im, f);
    if (fs != 0) return 0;
    int ok = function_touches(mx, dx, &t) > 0 && t.n > 0;
    for (int i = 0; ok && i < t.n; i++) {
        int di = exported_data_at(mx, t.v[i].addr);
        ok = di >= 0 && binds_xs(im, f, di);
    }
    free(t.v);
    return ok;
}

/* A capture in which nothing can diverge: the reason (*owned when it had to
 * be formatted), else NULL; *proven: the state behind the live copy is
 * proven (disassembly or .symtab), not estimated. */
const char *capture_harmless(const struct image *im, const struct finding *f, char **owned, int *proven)
{
    struct module *mx = im->mods[f->x].m;
    const struct module *my = im->mods[f->target].m;
    const struct def *dx = &mx->defs[f->xdef], *dy = &my->defs[f->def];
    int data = dx->kind == K_DATA || dy->kind == K_DATA;
    const char *reason;
    *owned = NULL;
    *proven = 0;
    reason = data || f->collision ? NULL : stateless(im, f->x, dx, f->target, dy);
    /* constants (a COPY of read-only data, or two read-only copies) hold the
     * same bytes for ever: only their addresses differ */
    if (data && !f->collision && (dx->readonly || dx->copy) && (dy->readonly || dy->copy) && !(dx->copy && dy->copy))
        reason = "read-only data (constants, vtables, typeinfo after RELRO): both copies hold the same bytes for ever, "
                 "only their addresses differ";
    /* a function's second copy matters through the state behind it: the
     * copy still in use must reach state of its own */
    const char *how = NULL;
    if (!data && !f->collision && !reason && !has_state(mx, dx, &how, proven))
        reason = *owned = xasprintf("the copy in %s reaches no private state (%s): whatever data it works on is "
                                  "reached through the GOT, so both copies of the code share one state",
                                  mname(im, f->x), how);
    if (!data && !f->collision && !reason && one_state(im, f))
        reason = *owned = xasprintf("the copy in %s reaches no private state (per disassembly of the function and its "
                                  "callees): the data it works on is reached through the GOT, bound to the cells %s's copy "
                                  "touches (data %s exports), so both copies of the code share one state",
                                  mname(im, f->target), mname(im, f->x), mname(im, f->x));
    return reason;
}

/* A partition's copy counts only when its state is proven (disassembly or
 * .symtab), never estimated: a COPY row of a name is evidence, not a guess. */
int proven_state(struct module *m, const struct def *d)
{
    const char *how;
    int proven, st = has_state(m, d, &how, &proven);
    return st && proven;
}

