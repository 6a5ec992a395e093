/* --pid PID: the process's image from what live.c read: its modules in
 * link-map order, the global scope as ld.so holds it, each module's
 * GOT/PLT slots mapped back to the module defining what they hold (marked
 * observed); what has not happened yet is left to the model. */
#include "read/live.h"
#include <stdlib.h>
#include <string.h>

static const char *base(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

/* The object of namespace ns a NEEDED name was satisfied by: ld.so reuses a
 * loaded object whose SONAME or name matches. */
static int needed_obj(const struct live *lv, int ns, const char *name)
{
    for (int i = 0; i < lv->n; i++) {
        const struct lobj *o = &lv->o[i];
        if (o->ns != ns || o->idx < 0) continue;
        if (!strcmp(o->name, name) || (!strchr(name, '/') && !strcmp(base(o->name), name))) return i;
        if (o->map && !strcmp(base(o->map->path), name)) return i;
        if (o->soname && !strcmp(o->soname, name)) return i;
    }
    return -1;
}

/* searchlist_push once: a module stands in a searchlist at most once. */
static void push(struct searchlist *s, int idx, int join)
{
    for (int i = 0; i < s->n; i++)
        if (s->idx[i] == idx) return;
    searchlist_push(s, idx, join);
}

/* Breadth-first over the resolved deps, as ld.so builds a searchlist. */
static void bfs(struct image *im, struct searchlist *sl, int root, int join)
{
    push(sl, root, join);
    for (int q = 0; q < sl->n; q++) {
        const struct lmod *l = &im->mods[sl->idx[q]];
        for (int k = 0; k < l->ndeps; k++) push(sl, l->deps[k], join);
    }
}

static int in_list(const struct searchlist *s, int idx)
{
    for (int i = 0; i < s->n; i++)
        if (s->idx[i] == idx) return 1;
    return 0;
}

static int new_local(struct image *im, int root)
{
    im->locals = xrealloc(im->locals, (im->nlocals + 1) * sizeof *im->locals);
    im->roots = xrealloc(im->roots, (im->nlocals + 1) * sizeof *im->roots);
    memset(&im->locals[im->nlocals], 0, sizeof *im->locals);
    im->roots[im->nlocals] = root;
    return im->nlocals++;
}

/* PT_LOAD span of an object in the process: where its addresses fall. */
static void span(struct lobj *o, const struct module *m)
{
    size_t n;
    o->lo = UINT64_MAX;
    if (elf_getphdrnum(m->elf, &n)) return;
    for (size_t i = 0; i < n; i++) {
        GElf_Phdr ph;
        if (!gelf_getphdr(m->elf, i, &ph) || ph.p_type != PT_LOAD) continue;
        if (o->addr + ph.p_vaddr < o->lo) o->lo = o->addr + ph.p_vaddr;
        if (o->addr + ph.p_vaddr + ph.p_memsz > o->hi) o->hi = o->addr + ph.p_vaddr + ph.p_memsz;
    }
}

/* The definition an address is: the object whose span holds it, the
 * definition of name there (at that address if it has several; an IFUNC's
 * slot holds the implementation, not the symbol). */
static int owner(const struct live *lv, const struct image *im, int ns, uint64_t a, const char *name, int *def)
{
    for (int i = 0; i < lv->n; i++) {
        const struct lobj *o = &lv->o[i];
        if (o->idx < 0 || o->ns != ns || a < o->lo || a >= o->hi) continue;
        const struct module *m = im->mods[o->idx].m;
        int first = -1;
        for (int d = module_find_defs(m, name, name_hash(name)); d >= 0; d = m->defs[d].next) {
            if (d >= m->ndefs_dyn || strcmp(m->defs[d].name, name)) continue;   /* ld.so binds .dynsym only */
            if (first < 0) first = d;
            if (o->addr + m->defs[d].value == a) { *def = d; return o->idx; }
        }
        *def = first;
        return first >= 0 ? o->idx : -1;
    }
    return -1;
}

/* Is a (a run-time address) in one of m's PLT sections?  A lazy slot
 * points there until its first call binds it. */
static int in_plt(const struct module *m, uint64_t bias, uint64_t a)
{
    struct pltgot pg;
    int in = 0;
    if (pltgot_read(m, &pg)) return 0;
    for (int i = 0; i < pg.nplt && !in; i++) in = a >= bias + pg.plt[i].lo && a < bias + pg.plt[i].hi;
    pltgot_free(&pg);
    return in;
}

/* An IRELATIVE slot of m holds what the resolver at file address
 * resolver returned: for m's exported IFUNC of that resolver, the
 * implementation its own calls run (funcstate.c judges its state on it).
 * Written on the file's module: one process is read per run. */
static void own_impl(const struct live *lv, struct module *m, const struct lobj *o, GElf_Sxword resolver, uint64_t off)
{
    ElfW(Addr) v;
    if (live_read(lv, o->addr + off, &v, sizeof v) || v < o->lo || v >= o->hi) return;
    for (int i = 0; i < m->ndefs; i++)
        if (m->defs[i].ifunc && m->defs[i].value == (uint64_t)resolver) m->defs[i].impl = v - o->addr;
}

/* Reads one object's JUMP_SLOT and GLOB_DAT slots: name -> what it holds. */
static void read_slots(struct live *lv, const struct image *im, const struct lobj *o)
{
    const struct module *m = im->mods[o->idx].m;
    struct strmap *slots = &lv->slots[o->idx];
    Elf_Scn *scn = NULL;
    while ((scn = elf_nextscn(m->elf, scn))) {
        GElf_Shdr sh, ss;
        if (!gelf_getshdr(scn, &sh) || (sh.sh_type != SHT_RELA && sh.sh_type != SHT_REL)) continue;
        Elf_Scn *syms = elf_getscn(m->elf, sh.sh_link);
        Elf_Data *d = elf_getdata(scn, NULL), *sd = syms ? elf_getdata(syms, NULL) : NULL;
        if (!d || !sd || !gelf_getshdr(syms, &ss) || ss.sh_type != SHT_DYNSYM) continue;
        int rela = sh.sh_type == SHT_RELA;
        size_t n = d->d_size / gelf_fsize(m->elf, rela ? ELF_T_RELA : ELF_T_REL, 1, EV_CURRENT);
        for (size_t i = 0; i < n; i++) {
            GElf_Rela r;
            GElf_Rel rl;
            if (rela ? !gelf_getrela(d, i, &r) : !gelf_getrel(d, i, &rl)) break;
            uint64_t info = rela ? r.r_info : rl.r_info, off = rela ? r.r_offset : rl.r_offset;
            int type = GELF_R_TYPE(info), bad = 0;
            GElf_Sym s;
            if (type == machine()->r_irelative && rela && !GELF_R_SYM(info)) {   /* m's own slot for its IFUNC */
                own_impl(lv, im->mods[o->idx].m, o, r.r_addend, off);
                continue;
            }
            if ((type != machine()->r_jump_slot && type != machine()->r_glob_dat) || !GELF_R_SYM(info) ||
                !gelf_getsym(sd, GELF_R_SYM(info), &s))
                continue;
            const char *name = elf_str(m->elf, ss.sh_link, s.st_name, &bad);
            struct slot *prev = strmap_get(slots, name);
            ElfW(Addr) v;
            if (bad || !*name || (prev && prev->state == S_BOUND) || live_read(lv, o->addr + off, &v, sizeof v)) continue;
            lv->nslots++;
            struct slot now = { -1, -1, S_UNKNOWN };
            int def, t;
            if (type == machine()->r_jump_slot && in_plt(m, o->addr, v)) now.state = S_LAZY;   /* not bound yet */
            else if ((t = owner(lv, im, o->ns, v, name, &def)) >= 0) now = (struct slot){ t, def, S_BOUND };
            if (!prev) {
                prev = xcalloc(1, sizeof *prev);
                strmap_put(slots, name, prev);
            } else if (now.state == S_UNKNOWN)
                continue;   /* a slot that says nothing does not undo one that says something */
            *prev = now;
        }
    }
}

int live_image(struct image *im, struct live *lv, const struct dlopen_req *user, int nuser, char **err)
{
    memset(im, 0, sizeof *im);
    *err = NULL;
    /* every object with a file, in chain order */
    for (int i = 0; i < lv->n; i++) {
        struct lobj *o = &lv->o[i];
        if (!o->file) continue;
        int skip;
        struct module *m = load_path(o->file, im->n == 0, err, &skip);
        if (!m) {
            if (!*err) *err = xasprintf("--pid %s: %s: cannot read it", lv->pid, o->file);
            return -1;
        }
        module_hold(m);   /* image_free lets go */
        GROW(im->mods, im->n, im->cap);
        im->mods[im->n] = (struct lmod){ .m = m, .loader = -1, .scope = -1, .filter = -1, .now = m->bind_now, .ns = o->ns };
        struct lmod *l = &im->mods[im->n];
        l->names = xcalloc(2, sizeof *l->names);
        l->names[l->nnames++] = o->name;
        o->idx = im->n++;
        span(o, m);
    }
    if (!im->n || lv->o[0].idx != 0) { *err = xasprintf("--pid %s: the executable's file is not mapped", lv->pid); return -1; }
    im->exe_path = im->mods[0].m->path;
    for (int i = 0; i < lv->n; i++) {   /* NEEDED -> the object ld.so reused for it */
        const struct lobj *o = &lv->o[i];
        if (o->idx < 0) continue;
        struct lmod *l = &im->mods[o->idx];
        for (int k = 0; k < l->m->nneeded; k++) {
            int j = needed_obj(lv, o->ns, l->m->needed[k]);
            if (j < 0 || lv->o[j].idx == o->idx) continue;
            GROW(l->deps, l->ndeps, l->depcap);
            l->deps[l->ndeps++] = lv->o[j].idx;
            if (im->mods[lv->o[j].idx].loader < 0 && lv->o[j].idx) im->mods[lv->o[j].idx].loader = o->idx;
        }
    }
    /* start-up: the executable, the preloads after it (objects before the
     * first of its dependencies), and their closure */
    struct searchlist deps = { 0 }, up = { 0 };
    bfs(im, &deps, 0, 0);
    push(&up, 0, 0);
    for (int i = 1; i < lv->n && lv->o[i].ns == 0; i++) {
        int x = lv->o[i].idx;
        if (x < 0) continue;
        if (in_list(&deps, x)) break;
        push(&up, x, 0);
    }
    bfs(im, &up, 0, 0);   /* breadth-first from the executable and the preloads together */
    free(deps.idx);
    free(deps.join);
    /* dlopened: the rest of namespace 0 in load order; a root is what no
     * earlier dlopened object needs; other namespaces: their first object */
    int *ns_first = xcalloc(lv->nns, sizeof *ns_first);   /* 1 + a namespace's first local searchlist */
    for (int i = 0; i < lv->n; i++) {
        int x = lv->o[i].idx, ns = lv->o[i].ns, k;
        if (x < 0 || (ns == 0 && in_list(&up, x)) || im->mods[x].step) continue;
        k = new_local(im, x);
        bfs(im, &im->locals[k], x, 0);
        if (ns && !ns_first[ns]) ns_first[ns] = k + 1;   /* its first object plays the executable's part */
        for (int q = 0; q < im->locals[k].n; q++) {
            struct lmod *l = &im->mods[im->locals[k].idx[q]];
            if (l->step || (ns == 0 && in_list(&up, im->locals[k].idx[q]))) continue;
            l->scope = k;
            l->step = k + 1;
            l->ns_scope = ns ? ns_first[ns] : 0;
        }
    }
    free(ns_first);
    /* the global scope: ld.so's own list, else the start-up closure
     * (dlopens taken RTLD_LOCAL unless --dlopen says otherwise) */
    if (lv->nglobal >= 0)
        for (int i = 0; i < lv->nglobal; i++) {
            int x = lv->o[lv->global[i]].idx;
            if (x >= 0) push(&im->global, x, im->mods[x].step);
        }
    else
        for (int i = 0; i < up.n; i++) push(&im->global, up.idx[i], 0);
    free(up.idx);
    free(up.join);
    int nlive = im->nlocals;
    for (int u = 0; u < nuser; u++) {   /* a module of the process, or a what-if */
        int k = 0;
        const struct dlopen_req *g = &user[u];
        for (; k < nlive; k++) {
            const struct module *m = im->mods[im->roots[k]].m;
            const char *ln = im->mods[im->roots[k]].names[0], *ub = base(g->path);
            if (strcmp(g->path, ln) && strcmp(g->path, m->path) && strcmp(ub, base(ln)) && strcmp(ub, module_name(m))) continue;
            for (int q = 0; q < im->locals[k].n; q++) im->mods[im->locals[k].idx[q]].deepbind |= g->deepbind;
            if (g->kind == SC_GLOBAL && !image_in_global(im, im->roots[k])) {
                if (lv->nglobal >= 0)
                    fprintf(stderr, "symsplit: note: --pid %s: %s is not in the process's global scope; --dlopen %s:global "
                                    "is modelled as a promotion (the slots bound so far stay as observed)\n",
                            lv->pid, m->path, g->path);
                image_promote(im, k);
            }
            break;
        }
        /* a what-if is opened as the loader would: refused at relocation, undone */
        if (k == nlive && image_open(im, g, err)) return -1;
    }
    dups_image(im);
    /* the slots, per object */
    lv->nslots_of = im->n;
    lv->slots = xcalloc(im->n, sizeof *lv->slots);
    lv->nslots = lv->nbound = lv->nlazy = 0;
    for (int i = 0; i < lv->n; i++)
        if (lv->o[i].idx >= 0) read_slots(lv, im, &lv->o[i]);
    for (int i = 0; i < lv->nslots_of; i++)
        for (size_t k = 0; k < lv->slots[i].cap; k++) {
            const struct slot *o = lv->slots[i].keys[k] ? lv->slots[i].vals[k] : NULL;
            if (!o) continue;
            lv->nbound += o->state == S_BOUND;
            lv->nlazy += o->state == S_LAZY;
        }
    if (getenv("SYMSPLIT_DEBUG"))   /* every slot read, for checking against LD_DEBUG=bindings */
        for (int i = 0; i < lv->nslots_of; i++)
            for (size_t k = 0; k < lv->slots[i].cap; k++) {
                const struct slot *o = lv->slots[i].keys[k] ? lv->slots[i].vals[k] : NULL;
                if (o) fprintf(stderr, "slot %s %s -> %s\n", im->mods[i].names[0][0] ? im->mods[i].names[0] : im->exe_path,
                               lv->slots[i].keys[k], o->state == S_BOUND ? im->mods[o->target].names[0] :
                               o->state == S_LAZY ? "(lazy)" : "(unknown)");
            }
    lv->obs.live = lv;
    im->obs = &lv->obs;   /* the model asks the slots first (observed.c) */
    return 0;
}

void live_describe(const struct live *lv, const struct image *im, FILE *f)
{
    fprintf(f, "symsplit: note: --pid %s: read from the process: %d object(s) in %d namespace(s), in load order:", lv->pid,
            lv->n, lv->nns);
    int nofile = 0;   /* a real process has one (the vDSO): more are named up to a bound, then counted */
    for (int i = 0; i < lv->n; i++) {
        const struct lobj *o = &lv->o[i];
        if (!o->name || (!o->file && ++nofile > 16)) continue;   /* a repeat, or one too many without a file: counted below */
        const char *what = o->idx < 0 ? "" : im->mods[o->idx].scope < 0 ? ":start-up" :
                           image_in_global(im, o->idx) ? ":global" : ":local";
        if (o->ns) fprintf(f, " [namespace %d]", o->ns);
        fprintf(f, " %s%s%s", *o->name ? o->name : im->exe_path,
                o->file ? what : " (no file)", o->map && o->map->deleted ? " (replaced on disk since mapped: the mapped file read)" : "");
    }
    if (nofile > 16) fprintf(f, "; and %d more without a file (no mapped dynamic section: not a loader's, ignored)", nofile - 16);
    if (lv->nrepeat)
        fprintf(f, "; and %d entr%s repeating an earlier one's dynamic section (no loader makes those: garbage, ignored)", lv->nrepeat,
                lv->nrepeat == 1 ? "y" : "ies");
    fprintf(f, "\n");
    if (*lv->root) fprintf(f, "symsplit: note: --pid %s: the process has its own root; its files are read through %s\n", lv->pid, lv->root);
    fprintf(f, "symsplit: note: --pid %s: global scope %s; %d GOT/PLT slot(s) read; %d name(s) bound (observed), %d not bound yet (lazy: modelled)\n",
            lv->pid, lv->nglobal >= 0 ? "read from ld.so" : "not readable (modelled: start-up closure, dlopens RTLD_LOCAL unless --dlopen says)",
            lv->nslots, lv->nbound, lv->nlazy);
}
