/* Symbol lookup as ld.so's do_lookup_x performs it, and the self-binding rules
 * that let a library answer its own references without any lookup. */
#include "base/symsplit.h"
#include <elf.h>
#include <limits.h>
#include <string.h>

/* how a binding was made and how sure it is, by name (--json, the words) */
#define NAME_ITEM(id, name) name,
const char *const how_name[] = { BINDHOWS(NAME_ITEM) };
const char *const conf_name[] = { CONFIDENCES(NAME_ITEM) };

/* Does module m define name in a way that satisfies this reference?  The
 * version rules are glibc's (check_match): a versioned reference takes the
 * same version, or an unversioned definition unless either side is hidden;
 * an unversioned reference takes a definition of version index < 3 (the
 * base, or the first node after it, even hidden: an old program binds the
 * oldest version), else the only non-hidden versioned one.  dlsym
 * (DL_LOOKUP_RETURN_NEWEST, `newest`) takes only index < 2 that way: the
 * default version, never a hidden one (measured, glibc 2.36: fixture
 * dlsym-newest, dlsym skips plugin.so's lone reg_count@VENDOR_1, index 2,
 * for libreg.so's reg_count). */
static int match(const struct module *m, const char *name, uint32_t hash, const char *ver, int ver_hidden, int newest)
{
    int only = -1, nver = 0;
    for (int i = module_find_defs(m, name, hash); i >= 0; i = m->defs[i].next) {
        const struct def *d = &m->defs[i];
        if (d->hash != hash || d->hidden_vis || strcmp(d->name, name)) continue;
        if (!m->has_versym) return i;
        const char *vname = d->ver < m->nvers ? m->vers[d->ver].name : NULL;
        if (ver) {
            if (vname && !strcmp(vname, ver)) return i;
            if (ver_hidden || vname || d->hidden) continue;
            return i;
        }
        if (d->ver < (newest ? 2 : 3)) return i;
        if (!d->hidden && nver++ == 0) only = i;
    }
    return nver == 1 ? only : -1;
}

/* Entries that joined after step `until` are not there yet. */
static int in_searchlist(const struct image *im, const struct searchlist *sl, const char *name, uint32_t hash,
                         const char *ver, int ver_hidden, int newest, int until, int skip, int *defidx)
{
    for (int k = 0; k < sl->n; k++) {
        int idx = sl->idx[k];
        if (sl->join[k] > until || idx == skip) continue;
        int d = match(im->mods[idx].m, name, hash, ver, ver_hidden, newest);
        if (d >= 0) { *defidx = d; return idx; }
    }
    return -1;
}

/* Does module m pose a lookup of name: a relocation naming a reference it
 * leaves undefined, or its own definition? *ver: the version it asks for. */
static int asks(const struct module *m, const char *name, uint32_t hash, const char **ver)
{
    for (int d = module_find_defs(m, name, hash); d >= 0; d = m->defs[d].next)
        if (m->defs[d].hash == hash && m->defs[d].self_reloc && !strcmp(m->defs[d].name, name)) {
            *ver = version_name(m, m->defs[d].ver);
            return 1;
        }
    for (int k = 0; k < m->nrefs; k++)
        if (m->refs[k].hash == hash && !strcmp(m->refs[k].name, name)) {
            *ver = version_name(m, m->refs[k].ver);
            return 1;
        }
    return 0;
}

/* Were module j's load-time lookups made before a lookup of module `from`?
 * By the relocation order (closure.c) when both are placed in it, else by
 * load step (an image read from a process). A lazy lookup, and a dlsym
 * (from -1, on the handle of module t), come after every load up to theirs. */
static int made_before(const struct image *im, int j, int from, int t, int lazy)
{
    const struct lmod *l = &im->mods[j];
    if (from < 0) return l->step <= im->mods[t].step;
    if (lazy) return l->step <= im->mods[from].step;
    if (l->reloc && im->mods[from].reloc) return l->reloc < im->mods[from].reloc;
    return l->step < im->mods[from].step;
}

static int scoped(const struct image *im, int from, const char *name, uint32_t hash, const char *ver,
                  int ver_hidden, int lazy, int skip, int *defidx);

/* STB_GNU_UNIQUE: ld.so keeps one definition per namespace in its table of
 * unique names (glibc elf/dl-lookup.c, do_lookup_unique): the first lookup
 * that finds a unique definition enters it, and every later lookup that
 * finds a unique definition of that name gets the entered one, whatever
 * scope it searched and whatever version it asked for (the table holds
 * names only). T (its definition *defidx), unique, is what the lookup of
 * FROM (-1: a dlsym on the handle of module T) found in its scopes; the
 * answer is the definition the earliest lookup made before it found, in
 * FROM's namespace. Measured, LD_DEBUG=bindings: libapt-private's
 * reference to its own __digits@APTPRIVATE_0.0 binds libapt-pkg's
 * (@APTPKG_6.0, relocated first: check-bindings on Debian 12); two
 * libraries of one load, each defining uvar unique under its own version
 * node, both bind the one relocated first, though the other comes first in
 * the scope (fixture unique-one-load); two RTLD_LOCAL dlopens each
 * defining uvar unique: the second's reference, and a dlsym on its
 * handle, bind the first's (fixture unique-local). */
static int unique_first(const struct image *im, int from, int t, const char *name, uint32_t hash, int lazy, int *defidx)
{
    int ns = im->mods[from >= 0 ? from : t].ns_scope;
    /* in the relocation order when the image has one (the first that
     * qualifies is the answer), else every module, the earliest step */
    int known = im->nreloc == im->n, best = -1, bestdef = -1, u = t;
    for (int p = 0; p < im->n; p++) {
        int j = known ? im->order[p] : p, d;
        const struct lmod *l = &im->mods[j];
        const char *ver;
        if (j == from || l->ns_scope != ns || !made_before(im, j, from, t, lazy)) continue;
        if (best >= 0 && l->step >= im->mods[best].step) continue;
        if (!asks(l->m, name, hash, &ver)) continue;
        int found = scoped(im, j, name, hash, ver, 0, 0, -1, &d);
        if (found < 0 || im->mods[found].m->defs[d].bind != STB_GNU_UNIQUE) continue;
        best = j;
        bestdef = d;
        u = found;
        if (known) break;
    }
    if (best >= 0) *defidx = bestdef;
    return u;
}

int lookup_in(const struct image *im, const struct searchlist *sl, const char *name, uint32_t hash,
              const char *ver, int *defidx)
{
    int t = in_searchlist(im, sl, name, hash, ver, 0, 1, INT_MAX, -1, defidx);
    /* a dlsym: the unique table holds what every load so far entered */
    if (t >= 0 && im->mods[t].m->defs[*defidx].bind == STB_GNU_UNIQUE) t = unique_first(im, -1, t, name, hash, 0, defidx);
    return t;
}

/* Module `from` looks up a name: its scopes in order (the global scope, then
 * the local scope of the dlopen that loaded it; reversed under RTLD_DEEPBIND;
 * in a dlmopen namespace, that namespace's global scope instead).
 * When: a module binding at load sees the global scope as it stood when it
 * was opened (start-up modules: the start-up closure; the k-th dlopen: what
 * joined before it; an RTLD_GLOBAL module joins after its own relocation).
 * A lazy slot is bound at first call, assumed after the last open, or
 * while a later RTLD_GLOBAL dlopen's constructors call into it (closure.c).
 * Observed first: a binding read from the process (observed.c) is what ran. */
int lookup(const struct image *im, int from, const char *name, uint32_t hash,
           const char *ver, int ver_hidden, int lazy, int *defidx)
{
    return lookup_skip(im, from, name, hash, ver, ver_hidden, lazy, -1, defidx);
}

/* Module from's reference rf, looked up as lookup() does: its version, and
 * whether that version is hidden, come from from's own tables. */
int ref_lookup(const struct image *im, int from, const struct ref *rf, int *defidx)
{
    const struct module *m = im->mods[from].m;
    int hid = m->has_versym && rf->ver >= 2 && rf->ver < m->nvers ? m->vers[rf->ver].hidden : 0;
    return lookup(im, from, rf->name, rf->hash, version_name(m, rf->ver), hid, rf->lazy, defidx);
}

int lookup_skip(const struct image *im, int from, const char *name, uint32_t hash,
                const char *ver, int ver_hidden, int lazy, int skip, int *defidx)
{
    int seen = observed_module(im, from, name, ver), sd;
    if (seen >= 0 && (sd = match(im->mods[seen].m, name, hash, ver, ver_hidden, 0)) >= 0) { *defidx = sd; return seen; }
    int t = scoped(im, from, name, hash, ver, ver_hidden, lazy, skip, defidx);
    if (t >= 0 && im->mods[t].m->defs[*defidx].bind == STB_GNU_UNIQUE)
        t = unique_first(im, from, t, name, hash, lazy && !im->mods[from].now, defidx);
    return t;
}

/* The last step whose global-scope entries from's lookup sees (lookup's "When"). */
int lookup_until(const struct image *im, int from, int lazy)
{
    const struct lmod *l = &im->mods[from];
    if (lazy && !l->now) return l->ctor_step ? l->ctor_step - 1 : INT_MAX;
    return l->step ? l->step - 1 : 0;
}

/* The first of the global scope's entries that joined at `step` (a
 * promotion's, image_promote) that defines name for this reference, or -1:
 * what a lookup that sees that step finds there, before what joined later. */
int lookup_joined(const struct image *im, int step, const char *name, uint32_t hash,
                  const char *ver, int ver_hidden, int *defidx)
{
    const struct searchlist *g = &im->global;
    for (int k = 0; k < g->n; k++) {
        if (g->join[k] != step) continue;
        int d = match(im->mods[g->idx[k]].m, name, hash, ver, ver_hidden, 0);
        if (d >= 0) { *defidx = d; return g->idx[k]; }
    }
    return -1;
}

/* The lookup in from's scopes alone (lookup_skip's, before the unique table). */
static int scoped(const struct image *im, int from, const char *name, uint32_t hash, const char *ver,
                  int ver_hidden, int lazy, int skip, int *defidx)
{
    int until = lookup_until(im, from, lazy);
    const struct lmod *l = &im->mods[from];
    const struct searchlist *first = &im->global, *second = NULL;
    if (l->ns_scope) {   /* another namespace: the main one's global scope is not searched */
        first = &im->locals[l->ns_scope - 1];
        if (l->scope >= 0 && l->scope != l->ns_scope - 1) second = &im->locals[l->scope];
    } else if (l->scope >= 0) {
        second = &im->locals[l->scope];
        if (l->deepbind) { second = first; first = &im->locals[l->scope]; }
    }
    int t = in_searchlist(im, first, name, hash, ver, ver_hidden, 0, first == &im->global ? until : INT_MAX, skip, defidx);
    if (t < 0 && second)
        t = in_searchlist(im, second, name, hash, ver, ver_hidden, 0, second == &im->global ? until : INT_MAX, skip, defidx);
    return t;
}

/* Do m's own references to a definition bind to it without a lookup?
 * Certain for DF_SYMBOLIC and protected symbols; likely for a hidden copy
 * seen in .symtab, and for a thread-local variable reached local-dynamic.  For a function that m never
 * reaches through a relocation: "likely" when m's code calls it directly
 * (calls.c), "possible" when m merely has the -Bsymbolic-functions signature
 * (no JUMP_SLOT/GLOB_DAT to any own function), which a library that never
 * calls its own exports shares. */
int self_binding(struct module *m, int defidx, int *how, int *conf)
{
    const struct def *d = &m->defs[defidx];
    *conf = C_CERTAIN;
    /* linker-made markers (_edata, __bss_start: NOTYPE) are nobody's state;
     * STB_GNU_UNIQUE is made one per process by ld.so whatever the flags */
    if (d->kind == K_OTHER || d->bind == STB_GNU_UNIQUE) return 0;
    /* .symtab is no loader fact: what the static linker bound is likely, not certain */
    if (d->hidden_vis) { *how = H_HIDDEN; *conf = C_LIKELY; return 1; }
    if (m->symbolic) { *how = H_SYMBOLIC; return 1; }
    if (d->vis == STV_PROTECTED) { *how = H_PROTECTED; return 1; }
    /* a thread-local variable no relocation of m names, while m's code
     * reaches its own TLS block through a relocation that names no symbol
     * (local-dynamic): those accesses were fixed by the static linker, no
     * lookup redirects them. Likely: the unnamed access may be to another
     * of m's thread-local variables */
    if (d->tls && !d->self_reloc && m->tls_local) { *how = H_TLS_LOCAL; *conf = C_LIKELY; return 1; }
    if (d->kind != K_FUNC) return 0;
    /* weak functions are C++ vague linkage, a stateless partition whatever
     * the evidence: not worth a scan */
    if (d->bind != STB_WEAK && calls_itself(m, defidx)) { *how = H_DIRECT; *conf = C_LIKELY; return 1; }
    if (!d->self_reloc && m->own_func_relocs == 0 && m->n_func_exports > 0) {
        *how = H_BSYMFUNC;
        *conf = C_POSSIBLE;
        return 1;
    }
    return 0;
}
