/* From bindings to findings.
 *
 * Every module's view of every name defined twice in the image is collected:
 * references resolved through the module's scopes, definitions it binds
 * itself (bind.c), the executable's own definitions, and for each --dlopen
 * module the handle a program would dlsym through.
 *
 * A split is a capture that leaves the captured copy alive: some module R
 * has in its own dependencies a module X that defines the name, yet R's
 * binding lands on another module's copy Y (interposition, scope order, a
 * COPY relocation or the executable's own copy); and X's copy is still in use
 * (X binds it itself, someone else resolves to it, or X binds its own copy of
 * another name Y also defines: X's copy of that code is running).
 * Interposition with X's copy dead (the ordinary malloc case) is not a split;
 * neither are two copies each used only by their own dependents (two
 * independent instances), nor different versions of one name. */
#include "analyse/analyse.h"
#include <elf.h>
#include <stdlib.h>
#include <string.h>

struct group {
    const char *name;
    struct binding *b; int n, cap;
    int *dm, *dk; int nd, dcap;      /* the definers: module index (ascending), def index */
    int *used;                       /* used[k]: the first binding of definer k at its best confidence, -1 none */
};
struct slot { const char *name; uint32_t hash; int ndef, last, group; };
struct names { struct slot *s; size_t mask; };

/* x's best self-binding of a name y defines (component()), memoised per
 * pair asked: a map, not an n-by-n table (a process of thousands of
 * modules asks about few pairs) */
struct comp { signed char conf; char how; const char *name; };
/* r's dependency closure: its module indices, ascending */
struct closure { int *idx; int n; };

struct ctx {
    const struct image *im;
    struct group *g; int ng, gcap;
    struct closure *closure;         /* closure[r], made on first use (idx NULL: not yet) */
    int *seen, stamp;                /* closure_of's marks, one int per module */
    struct strmap comp;              /* "x y" -> struct comp */
    struct binding *handles; int nhandles, hcap;   /* what the host dlsyms, for component() */
    struct pairs *pairs;             /* different libraries sharing names (collide.c) */
    char *entered;                   /* entered()'s answers, one per module */
};

static struct slot *find(struct names *t, const char *name, uint32_t hash, int insert)
{
    for (size_t i = hash & t->mask;; i = (i + 1) & t->mask) {
        struct slot *sl = &t->s[i];
        if (!sl->name) {
            if (!insert) return NULL;
            *sl = (struct slot){ name, hash, 0, -1, 0 };
            return sl;
        }
        if (sl->hash == hash && (sl->name == name || !strcmp(sl->name, name))) return sl;
    }
}

static struct group *group_of(struct ctx *c, struct slot *sl)
{
    if (!sl->group) {
        GROW(c->g, c->ng, c->gcap);
        c->g[c->ng] = (struct group){ .name = sl->name };
        sl->group = ++c->ng;
    }
    return &c->g[sl->group - 1];
}

static void bind(struct ctx *c, struct slot *sl, struct binding b)
{
    struct group *gr = group_of(c, sl);
    GROW(gr->b, gr->n, gr->cap);
    gr->b[gr->n++] = b;
}

static const char *vname(const struct module *m, const struct def *d)
{
    return version_name(m, d->ver);
}

/* Two definitions of one interface: same version, or one side unversioned. */
static int same_interface(const struct module *a, const struct def *da, const struct module *b, const struct def *db)
{
    const char *va = vname(a, da), *vb = vname(b, db);
    return !va || !vb || !strcmp(va, vb);
}


/* Does m reference name without a version?  Such a reference takes a
 * definition under any lone version node (bind.c's match, as glibc's
 * check_match): whatever node the two copies sit under, it binds either, so
 * for it they are one interface (a vendored copy under another node). */
static int unversioned_ref(const struct module *m, const char *name)
{
    for (int k = 0; k < m->nrefs; k++)
        if (!strcmp(m->refs[k].name, name))
            return !m->has_versym || m->refs[k].ver < 2 || m->refs[k].ver >= m->nvers || !m->vers[m->refs[k].ver].name;
    return 0;
}

static int cmp_int(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

/* Breadth-first over the resolved deps, then sorted: the members ascending,
 * so that capture() meets the definers in the group's own order. */
static const struct closure *closure_of(struct ctx *c, int r)
{
    struct closure *cl = &c->closure[r];
    if (cl->idx) return cl;
    int cap = 8, n = 0, *q = xcalloc(cap, sizeof *q);
    c->stamp++;   /* c->seen[i] == c->stamp: i is in this closure */
    c->seen[r] = c->stamp;
    q[n++] = r;
    for (int i = 0; i < n; i++) {
        const struct lmod *l = &c->im->mods[q[i]];
        for (int k = 0; k < l->ndeps; k++) {
            if (c->seen[l->deps[k]] == c->stamp) continue;
            c->seen[l->deps[k]] = c->stamp;
            GROW(q, n, cap);
            q[n++] = l->deps[k];
        }
    }
    qsort(q, n, sizeof *q, cmp_int);
    cl->idx = q;
    cl->n = n;
    return cl;
}

static int in_closure(const struct closure *cl, int x)
{
    return bsearch(&x, cl->idx, cl->n, sizeof x, cmp_int) != NULL;
}

/* x binds its own copy of some other name that y defines too: x's copy of the
 * shared code is running.  Best evidence, memoised per module pair. */
static int component(struct ctx *c, int x, int y, const char **name, int *how)
{
    char key[32];
    snprintf(key, sizeof key, "%d %d", x, y);
    struct comp *m = strmap_get(&c->comp, key);
    if (!m) {
        struct module *X = c->im->mods[x].m, *Y = c->im->mods[y].m;
        int best = -1, bhow = 0, conf, h;
        const char *bname = NULL;
        /* the host looks up X's copy of a name Y defines too (dlsym on a
         * handle): X's copy of the shared code runs (the NCCL case) */
        for (int j = 0; j < c->nhandles; j++) {
            const struct binding *b = &c->handles[j];
            const struct def *d = &X->defs[b->def];
            if (b->target != x || d->kind != K_FUNC || module_find_defs(Y, d->name, d->hash) < 0) continue;
            /* ... when that code reaches X's own state: an entry point every
             * plugin defines (plugin_read) whose calls into the runtime go
             * through relocations runs X's code on whichever copy the loader
             * bound (route-b promoted-between: C's entry point, B's runtime) */
            if (!function_state(X, d)) continue;
            if (best < 0 || b->conf < best) { best = b->conf; bhow = H_HANDLE; bname = d->name; }
        }
        for (int j = 0; j < X->ndups && best != C_CERTAIN; j++) {
            int k = X->dups[j];
            const struct def *d = &X->defs[k];
            /* only code says code is running (a hidden typeinfo string does not) */
            if (d->kind != K_FUNC || d->bind == STB_WEAK || module_find_defs(Y, d->name, d->hash) < 0) continue;
            if (!self_binding(X, k, &h, &conf) || h == H_BSYMFUNC) continue;
            if (best < 0 || conf < best) { best = conf; bhow = h; bname = d->name; }
        }
        m = xcalloc(1, sizeof *m);
        *m = (struct comp){ best, bhow, bname };
        strmap_put(&c->comp, key, m);
    }
    *name = m->name;
    *how = m->how;
    return m->conf;
}

/* Under --pid and --trace: does x's code run, as the process shows it?  The
 * executable's does; a module's own constructors do (timeline's libB.so
 * registers a device from its constructor, nobody calls into it); any
 * other module's does only if some other module's reference was seen bound
 * to it.  Memoised per module: 1 yes, 2 no. */
static int entered(struct ctx *c, int x)
{
    const struct image *im = c->im;
    if (!c->entered[x]) {
        int yes = x == 0 || im->mods[x].m->ctors;
        const struct module *X = im->mods[x].m;
        for (int r = 0; r < im->n && !yes; r++) {
            const struct module *R = im->mods[r].m;
            if (r == x) continue;
            for (int k = 0; k < R->nrefs && !yes; k++) {
                const struct ref *rf = &R->refs[k];
                if (module_find_defs(X, rf->name, rf->hash) < 0) continue;
                const char *ver = version_name(R, rf->ver);
                yes = observed_module(im, r, rf->name, ver) == x || (ver && observed_module(im, r, rf->name, NULL) == x);
            }
        }
        c->entered[x] = yes ? 1 : 2;
    }
    return c->entered[x] == 1;
}

/* Observed beats modelled: under --pid and --trace the evidence that x's
 * definition stays in use must be something the process showed: the very
 * binding seen (a reference bound to x's copy, x's own included), or x's
 * code running (entered) for evidence the loader never records (x binding
 * its own copy directly, a handle's dlsym). */
static int seen_in_use(struct ctx *c, const struct group *gr, int x, const struct finding *f)
{
    const struct image *im = c->im;
    if (!im->obs || f->conf < 0) return 1;
    if (f->ev_how == H_LOOKUP && !f->ev_name) {
        const struct def *xd = &im->mods[x].m->defs[f->xdef];
        const char *ver = vname(im->mods[x].m, xd);
        return observed_module(im, f->ev_binder, gr->name, ver) == x || observed_module(im, f->ev_binder, gr->name, NULL) == x;
    }
    return entered(c, x);
}

/* The first definer of gr in module x or after it (dm ascending). */
static int first_definer(const struct group *gr, int x)
{
    int lo = 0, hi = gr->nd;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (gr->dm[mid] < x) lo = mid + 1; else hi = mid;
    }
    return lo;
}

/* Each definer's strongest binding, the first of equals: one pass over the
 * bindings instead of one per question. */
static void index_used(struct group *gr)
{
    gr->used = xcalloc(gr->nd ? gr->nd : 1, sizeof *gr->used);
    for (int k = 0; k < gr->nd; k++) gr->used[k] = -1;
    for (int i = 0; i < gr->n; i++) {
        const struct binding *b = &gr->b[i];
        for (int k = first_definer(gr, b->target); k < gr->nd && gr->dm[k] == b->target; k++)
            if (gr->dk[k] == b->def && (gr->used[k] < 0 || b->conf < gr->b[gr->used[k]].conf)) gr->used[k] = i;
    }
}

/* Is definer k's definition (x's xd) still in use?  Best evidence first. */
static int alive(struct ctx *c, const struct group *gr, int k, int y, int name_only, struct finding *f)
{
    int best = -1, x = gr->dm[k];
    if (gr->used[k] >= 0) {
        const struct binding *b = &gr->b[gr->used[k]];
        best = b->conf;
        f->ev_how = b->how;
        f->ev_binder = b->binder;
        f->ev_name = NULL;
    }
    if (best != C_CERTAIN && !name_only) {
        const char *nm;
        int how, conf = component(c, x, y, &nm, &how);
        if (conf >= 0 && (best < 0 || conf < best)) {
            best = conf;
            f->ev_how = how;
            f->ev_binder = x;
            f->ev_name = nm;
        }
    }
    return best;
}

/* The next definer of gr, after k, in module closure cl (ascending, as a
 * walk over every definer would meet them); gr->nd when none is left.
 * From the smaller side: a process of thousands of plugins has thousands
 * of definers of their entry point, each plugin a closure of a few. */
static int next_in_closure(const struct group *gr, const struct closure *cl, int k)
{
    if (++k >= gr->nd) return gr->nd;
    if (gr->nd - k <= cl->n) {
        while (k < gr->nd && !in_closure(cl, gr->dm[k])) k++;
        return k;
    }
    int lo = 0, hi = cl->n;   /* the first closure member >= dm[k] */
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (cl->idx[mid] < gr->dm[k]) lo = mid + 1; else hi = mid;
    }
    for (; lo < cl->n; lo++) {
        int j = first_definer(gr, cl->idx[lo]);
        if (j < k) j = k;
        if (j < gr->nd && gr->dm[j] == cl->idx[lo]) return j;
    }
    return gr->nd;
}

static int weak_func(const struct def *d) { return d->kind == K_FUNC && d->bind == STB_WEAK; }

/* A hidden definition (.symtab) is a copy in play only as part of a copy of
 * the other module's library: its module defines another name the other
 * module defines too (in .dynsym, hidden, or among an executable's globals
 * it does not export).  A lone hidden namesake (a private helper that
 * happens to share one name) is nobody's copy: nothing can bind it. */
static int lone_namesake(const struct module *h, const struct def *hd, struct module *o)
{
    for (int k = 0; k < h->ndefs; k++) {
        const struct def *d = &h->defs[k];
        if (d != hd && d->kind != K_OTHER && strcmp(d->name, hd->name) && module_find_defs(o, d->name, d->hash) >= 0)
            return 0;
    }
    return !symtab_shares(o, h, hd->name) && !symtab_shares(h, o, hd->name);
}

static int direct_dep(const struct image *im, int r, int x)
{
    for (int k = 0; k < im->mods[r].ndeps; k++)
        if (im->mods[r].deps[k] == x) return 1;
    return 0;
}

/* The strongest capture of one name, or 0. */
static int capture(struct ctx *c, struct group *gr, struct finding *out)
{
    const struct image *im = c->im;
    int found = 0;
    int sx = -1, sxd = -1, sy = -1, syd = -1, sconf = -1;   /* the last shared_state question and answer */
    struct finding sf;
    index_used(gr);
    for (int i = 0; i < gr->n; i++) {
        const struct binding *b = &gr->b[i];
        /* a module's own hidden copy (.symtab) also captures it, from the
         * exported copy in its own dependencies (--exclude-libs) */
        int own_hidden = b->how == H_HIDDEN && b->binder == b->target &&
                         im->mods[b->target].m->defs[b->def].kind == K_FUNC;   /* code (DW.ref.* data are per module by design) */
        if (b->how != H_LOOKUP && b->how != H_EXE_OWN && !own_hidden) continue;
        const struct module *Y = im->mods[b->target].m;
        const struct def *yd = &Y->defs[b->def];
        const struct closure *cl = closure_of(c, b->binder);
        int anyver = b->how == H_LOOKUP && unversioned_ref(im->mods[b->binder].m, gr->name);
        for (int k = next_in_closure(gr, cl, -1); k < gr->nd; k = next_in_closure(gr, cl, k)) {
            int x = gr->dm[k], xd = gr->dk[k];
            const struct module *X = im->mods[x].m;
            if (x == b->target || (!anyver && !same_interface(X, &X->defs[xd], Y, yd))) continue;
            /* the module's own hidden copy captures only from a library it
             * was linked against itself (--exclude-libs with the .so on its
             * link line); one its dependencies bring is their own instance */
            if (own_hidden && !direct_dep(im, b->binder, x)) continue;
            /* a plain local (lld, gold: localised or file-static) is a copy
             * only of an exported or hidden definition, never of another local */
            if ((yd->hidden_vis == 2 && X->defs[xd].hidden_vis) || (X->defs[xd].hidden_vis == 2 && yd->hidden_vis)) continue;
            if ((yd->hidden_vis && lone_namesake(Y, yd, im->mods[x].m)) ||
                (X->defs[xd].hidden_vis && lone_namesake(X, &X->defs[xd], im->mods[b->target].m)))
                continue;
            int diff = different_entities(X, &X->defs[xd], Y, yd);
            /* a hidden namesake with other code is not a copy of the interposing definition */
            if (diff && X->defs[xd].hidden_vis) continue;
            struct finding f = { b->binder, b->target, b->def, b->how, x, xd, 0, 0, 0, NULL, diff, 0, 0, 0, NULL, 0, -1 };
            f.local = im->mods[b->binder].scope >= 0 && !image_in_global(im, b->target);
            /* the record names the reference's version; an unversioned reference may bind a versioned definition */
            f.observed = b->how == H_LOOKUP && (observed_module(im, b->binder, gr->name, vname(Y, yd)) == b->target ||
                                                observed_module(im, b->binder, gr->name, NULL) == b->target);
            /* --pid: a slot still in its PLT is bound at the first call */
            if (im->obs && im->obs->live && !f.observed) live_module(im->obs->live, b->binder, gr->name, &f.lazy);
            /* running code keeps a copy of code in use, never a copy of data;
             * C++ vague linkage is reported as such whatever the evidence */
            int name_only = yd->kind != K_FUNC || X->defs[xd].kind != K_FUNC || weak_func(yd) || weak_func(&X->defs[xd]);
            f.conf = alive(c, gr, k, b->target, name_only, &f);
            if (!seen_in_use(c, gr, x, &f)) f.conf = -1;
            /* two different libraries: no copies, one row for the pair; a
             * reference crossed when it binds the library its module's own
             * dependencies do not hold (else it may have been linked so),
             * or another implementation of the interface it was linked
             * against too (linked first: collide.c tells override from split) */
            if (pairs_different(c->pairs, x, b->target)) {
                if (!own_hidden && !yd->hidden_vis && !X->defs[xd].hidden_vis &&
                    (!in_closure(cl, b->target) || pairs_reimplemented(c->pairs, x, b->target)))
                    pairs_note(c->pairs, gr->name, &f);
                continue;
            }
            /* a collision needs no live copy: code built for X's entity now
             * works on Y's, a binding the loader made (certain) */
            if (diff) { f.conf = C_CERTAIN; f.ev_how = -1; f.ev_name = NULL; }
            /* nobody binds x's copy of the name, but x's copy of its state
             * may be in use through another name (sharedstate.c); asked
             * once per pair of copies */
            if (f.conf < 0 && !name_only) {
                if (sx != x || sxd != xd || sy != b->target || syd != b->def) {
                    sx = x; sxd = xd; sy = b->target; syd = b->def;
                    sf = f;
                    sconf = shared_state(im, &sf);
                }
                if (sconf >= 0 && (!im->obs || sf.ev_seen == 1)) {   /* under --pid, --trace: the other name's binding seen */
                    f.conf = sconf;
                    f.ev_how = sf.ev_how; f.ev_binder = sf.ev_binder; f.ev_name = sf.ev_name;
                    f.ev_state = sf.ev_state; f.ev_addr = sf.ev_addr; f.ev_seen = sf.ev_seen;
                }
            }
            if (f.conf < 0) continue;
            /* best evidence first; of two as good, the one the process showed */
            if (!found || f.conf < out->conf || (f.conf == out->conf && f.observed && !out->observed)) { *out = f; found = 1; }
        }
    }
    return found;
}

/* No capture: are two or more copies of the name each in use by their own
 * users (a module whose dependency closure holds the copy it binds, or the
 * executable's own code)?  That is a partition (Route B): reported as a
 * COPY row of the name when one copy is in an RTLD_LOCAL dlopen's scope and
 * the state behind each copy is proven (two copies of code that reaches no
 * state of its own, constants and vague linkage diverge in nothing). */
static void partition(struct ctx *c, const struct group *gr, struct findings *fs, int capture)
{
    const struct image *im = c->im;
    int mods[8], users[8], defs[8], n = 0, local = 0;
    for (int i = 0; i < gr->n && n < 8; i++) {
        const struct binding *b = &gr->b[i];
        int own = (b->how == H_LOOKUP && in_closure(closure_of(c, b->binder), b->target)) ||
                  (b->how == H_EXE_OWN && b->binder == 0 && b->target == 0);
        if (!own || b->conf != C_CERTAIN) continue;
        struct module *M = im->mods[b->target].m;
        const struct def *d = &M->defs[b->def];
        if (d->hidden_vis || weak_func(d) || d->kind == K_OTHER) continue;
        if (d->kind == K_DATA ? d->readonly || d->copy : !proven_state(M, d)) continue;
        int k = 0;
        /* one file twice (--pid: dlmopen namespaces, isolated by design): no
         * row per name; copies.c's family row names a library with state */
        while (k < n && mods[k] != b->target && im->mods[mods[k]].m != M) k++;
        if (k < n || (n && pairs_different(c->pairs, mods[0], b->target))) continue;   /* a namesake: collide.c's */
        if (n && (!same_interface(im->mods[mods[0]].m, &im->mods[mods[0]].m->defs[defs[0]], M, d) ||
                  different_entities(im->mods[mods[0]].m, &im->mods[mods[0]].m->defs[defs[0]], M, d)))
            continue;
        mods[n] = b->target; users[n] = b->binder; defs[n++] = b->def;
        if (im->mods[b->target].scope >= 0 && !image_in_global(im, b->target)) local = 1;
    }
    if (n < 2 || !local) return;
    struct item *it = findings_add(fs, F_PARTITION, gr->name);
    it->capture = capture;
    it->n = n;
    memcpy(it->pm, mods, sizeof mods);
    memcpy(it->pu, users, sizeof users);
}

void analyse_image(struct findings *fs, const struct image *im)
{
    /* Pass 1: names that two modules of this image define (dups.c narrows
     * each module to its names that anyone else in the run defines). */
    size_t total = 0;
    for (int i = 0; i < im->n; i++) total += im->mods[i].m->ndups;
    struct names t = { 0 };
    size_t cap = 64;
    while (cap < 2 * total) cap *= 2;
    t.s = xcalloc(cap, sizeof *t.s);
    t.mask = cap - 1;
    for (int i = 0; i < im->n; i++) {
        const struct module *m = im->mods[i].m;
        for (int j = 0; j < m->ndups; j++) {
            int k = m->dups[j];
            struct slot *sl = find(&t, m->defs[k].name, m->defs[k].hash, 1);
            if (sl->last != i) { sl->ndef++; sl->last = i; }
        }
    }
    int naive = 0;   /* what `nm -D | sort | uniq -d` over the closure would say */
    for (size_t i = 0; i <= t.mask && !naive; i++) naive = t.s[i].ndef >= 2;
    fs->naive = naive;

    /* Pass 2: every module's view of those names. */
    struct ctx c = { .im = im };
    for (int i = 0; i < im->n; i++) {
        struct module *m = im->mods[i].m;
        for (int k = 0; k < m->nrefs; k++) {
            const struct ref *rf = &m->refs[k];
            struct slot *sl = find(&t, rf->name, rf->hash, 0);
            if (!sl || sl->ndef < 2) continue;
            const char *ver = version_name(m, rf->ver);
            int hid = m->has_versym && rf->ver >= 2 ? m->vers[rf->ver].hidden : 0, d;
            int tg = lookup(im, i, rf->name, rf->hash, ver, hid, rf->lazy, &d);
            if (tg >= 0) bind(&c, sl, (struct binding){ i, tg, d, H_LOOKUP, C_CERTAIN });
        }
        for (int j = 0; j < m->ndups; j++) {
            int k = m->dups[j];
            const struct def *df = &m->defs[k];
            struct slot *sl = find(&t, df->name, df->hash, 0);
            if (sl->ndef < 2 || df->kind == K_OTHER) continue;
            struct group *gr = group_of(&c, sl);
            if (gr->nd >= gr->dcap) {
                gr->dcap = gr->dcap ? 2 * gr->dcap : 4;
                gr->dm = xrealloc(gr->dm, gr->dcap * sizeof *gr->dm);
                gr->dk = xrealloc(gr->dk, gr->dcap * sizeof *gr->dk);
            }
            gr->dm[gr->nd] = i;
            gr->dk[gr->nd++] = k;
            struct binding b = { i, i, k, H_EXE_OWN, C_CERTAIN };
            if (i == 0 && !df->hidden_vis) {   /* the executable is first in every scope */
                bind(&c, sl, b);
                continue;
            }
            int self = self_binding(m, k, &b.how, &b.conf);
            if (self) bind(&c, sl, b);
            /* an interposable self-reference is an ordinary lookup; a library
             * can have both kinds of call sites */
            if (df->self_reloc && (!self || b.how == H_DIRECT)) {
                int d, tg = lookup(im, i, df->name, df->hash, vname(m, df), 0, df->self_lazy, &d);
                if (tg >= 0) bind(&c, sl, (struct binding){ i, tg, d, H_LOOKUP, C_CERTAIN });
            }
        }
    }
    /* dlsym/dlvsym on a --dlopen handle searches that module and its
     * dependencies breadth-first (the dlopen's searchlist), nothing else.
     * What the host looks up is an input (--dlsym, --host): those names are
     * a use (likely: the program may never call what it looked up); without
     * it, any export of the handle's own module is a possible use only. */
    for (int k = 0; k < im->nlocals; k++) {
        const struct searchlist *hl = &im->locals[k];
        for (int q = 0; q < (im->dlsyms ? hl->n : 1); q++) {
            const struct module *m = im->mods[im->dlsyms ? hl->idx[q] : im->roots[k]].m;
            for (int j = 0; j < m->ndups; j++) {
                const struct def *df = &m->defs[m->dups[j]];
                struct slot *sl = find(&t, df->name, df->hash, 0);
                const char *ver = vname(m, df);
                int d, tg;
                if (sl->ndef < 2 || df->hidden_vis || df->kind == K_OTHER) continue;
                if (im->dlsyms && !dlsym_wanted(im->dlsyms, df->name, &ver)) continue;
                if ((tg = lookup_in(im, hl, df->name, df->hash, ver, &d)) < 0) continue;
                struct binding b = { im->roots[k], tg, d, H_HANDLE, im->dlsyms ? C_LIKELY : C_POSSIBLE };
                bind(&c, sl, b);
                if (im->dlsyms) { GROW(c.handles, c.nhandles, c.hcap); c.handles[c.nhandles++] = b; }
            }
        }
    }

    int n = im->n;
    c.closure = xcalloc(n, sizeof *c.closure);
    c.seen = xcalloc(n, sizeof *c.seen);
    c.entered = xcalloc(n, 1);
    c.pairs = pairs_new(im);
    for (int k = 0; k < c.ng; k++)
        if (c.g[k].nd >= 2) pairs_count(c.pairs, c.g[k].name, c.g[k].dm, c.g[k].dk, c.g[k].nd);
    for (int k = 0; k < c.ng; k++) {
        struct group *gr = &c.g[k];
        struct finding f;
        int ci = -1;
        if (gr->nd >= 2 && capture(&c, gr, &f)) {
            struct item *it = findings_add(fs, F_CAPTURE, gr->name);
            it->f = f;
            it->harmless = capture_harmless(im, &f, &it->owned, &it->proven);
            it->data = im->mods[f.x].m->defs[f.xdef].kind == K_DATA || im->mods[f.target].m->defs[f.def].kind == K_DATA;
            it->override = f.collision && override_by_design(im, &f);
            it->mods = xcalloc(2 * gr->n + 2, sizeof *it->mods);   /* the allowlist matches any of them */
            for (int i = 0; i < gr->n; i++) {
                it->mods[it->nmods++] = gr->b[i].binder;
                it->mods[it->nmods++] = gr->b[i].target;
            }
            ci = fs->n - 1;
        }
        /* a capture that is no split (maybe, info) can sit beside a
         * partition (the policy keeps the partition only then) */
        if (gr->nd >= 2) partition(&c, gr, fs, ci);
        free(gr->b);
        free(gr->dm);
        free(gr->dk);
        free(gr->used);
    }
    pairs_find(c.pairs, fs);
    pairs_free(c.pairs);
    for (int i = 0; i < n; i++) free(c.closure[i].idx);
    free(c.closure);
    free(c.seen);
    free(c.entered);
    for (size_t i = 0; i < c.comp.cap; i++) { free(c.comp.keys[i]); free(c.comp.vals[i]); }
    free(c.comp.keys);
    free(c.comp.vals);
    free(c.handles);
    free(c.g);
    free(t.s);
}
