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
#include "analyse/latent.h"
#include <stdlib.h>
#include <string.h>

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

static struct group *group_of(struct analysis *c, struct slot *sl)
{
    if (!sl->group) {
        GROW(c->g, c->ng, c->gcap);
        c->g[c->ng] = (struct group){ .name = sl->name, .hash = sl->hash };
        sl->group = ++c->ng;
    }
    return &c->g[sl->group - 1];
}

static void add_source(struct analysis *c, struct slot *sl, int kind, int mod, int idx)
{
    struct group *gr = group_of(c, sl);
    GROW(gr->src, gr->nsrc, gr->scap);
    gr->src[gr->nsrc++] = (struct source){ c->nseq++, kind, mod, idx, -1, 0, 0 };
}

/* A binding of this pass; the first makes the group (its order); src:
 * the source whose lookup made it, -1 none */
static void bind(struct group *gr, int seq, struct binding b, int src)
{
    if (gr->order < 0) gr->order = seq;
    if (gr->n >= gr->cap) {
        gr->cap = gr->cap ? 2 * gr->cap : 8;
        gr->b = xrealloc(gr->b, gr->cap * sizeof *gr->b);
        gr->bs = xrealloc(gr->bs, gr->cap * sizeof *gr->bs);
    }
    gr->bs[gr->n] = src;
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
static int unversioned_ref(const struct module *m, const char *name, uint32_t hash)
{
    for (int k = 0; k < m->nrefs; k++)
        if (m->refs[k].hash == hash && !strcmp(m->refs[k].name, name))
            return !m->has_versym || m->refs[k].ver < 2 || m->refs[k].ver >= m->nvers || !m->vers[m->refs[k].ver].name;
    return 0;
}

static int cmp_int(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

/* Breadth-first over the resolved deps, then sorted: the members ascending,
 * so that capture() meets the definers in the group's own order. */
static const struct closure *closure_of(struct analysis *c, int r)
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

/* The entry of key, made empty (conf -2: not asked yet) when new */
static struct comp *comp_at(struct compmap *m, uint64_t key)
{
    size_t i = (key * 0x9e3779b97f4a7c15u) >> 32 & (m->cap - 1);
    while (m->key[i] && m->key[i] != key) i = (i + 1) & (m->cap - 1);
    if (!m->key[i]) { m->key[i] = key; m->val[i] = (struct comp){ -2, 0, NULL }; m->n++; }
    return &m->val[i];
}

/* The pass's answer for (x, y), or a new entry for it. */
static struct comp *comp_slot(struct analysis *c, int x, int y)
{
    struct compmap *m = &c->comp, old = *m;
    if (2 * (m->n + 1) > m->cap) {   /* keep load <= 1/2 */
        m->cap = old.cap ? 2 * old.cap : 64;
        m->key = xcalloc(m->cap, sizeof *m->key);
        m->val = xcalloc(m->cap, sizeof *m->val);
        m->n = 0;
        for (size_t i = 0; i < old.cap; i++)
            if (old.key[i]) *comp_at(m, old.key[i]) = old.val[i];
        free(old.key);
        free(old.val);
    }
    return comp_at(m, ((uint64_t)x << 32 | (uint32_t)y) + 1);   /* 0: an empty slot */
}

static void comp_clear(struct analysis *c)
{
    if (!c->comp.n) return;
    memset(c->comp.key, 0, c->comp.cap * sizeof *c->comp.key);
    c->comp.n = 0;
}

/* Does running d, x's function a handle gives the host, keep x's copy of the
 * captured function xd in use?  Only through state: d's code must reach a
 * cell xd's touches, one writing what the other reads (sharedstate.c's
 * common_cell).  rxe static-exported: the NCCL-like side runs
 * libibverbs.so.1's device calls while that library's own references to
 * ibv_get_sysfs_path and ibv_fork_init bind the program's exported copy; no
 * device call reaches the path or fork cells, so nobody uses that library's
 * copy of them (measured: never written).  Where either walk meets code
 * without bounds the touches are partial and an absence proves nothing:
 * then d's reaching any state of x's counts, as it did per module. */
static int handle_keeps(struct module *X, const struct def *d, const struct touches *tx, int sx)
{
    struct touches td;
    int sd = function_touches(X, d, &td), found;
    common_cell(&td, tx, &found);
    free(td.v);
    if (found) return 1;
    return sd < 0 || sx < 0 ? sd != 0 : 0;
}

/* x's copy of the captured xd is in use because x's code is running: the
 * host looks up x's copy of a name y defines too (dlsym on a handle), or x
 * binds its own copy of some other name y defines too.  Best evidence; the
 * self-bindings memoised per module pair. */
static int component(struct analysis *c, int x, int y, int xd, const char **name, int *how)
{
    struct comp *m = comp_slot(c, x, y);
    struct module *X = c->im->mods[x].m, *Y = c->im->mods[y].m;
    int h, conf;
    if (m->conf == -2) {
        int best = -1, bhow = 0;
        const char *bname = NULL;
        for (int j = 0; j < X->ndups && best != C_CERTAIN; j++) {
            int k = X->dups[j];
            const struct def *d = &X->defs[k];
            /* only code says code is running (a hidden typeinfo string does not) */
            if (d->kind != K_FUNC || d->bind == STB_WEAK || module_find_defs(Y, d->name, d->hash) < 0) continue;
            if (!self_binding(X, k, &h, &conf) || h == H_BSYMFUNC) continue;
            if (best < 0 || conf < best) { best = conf; bhow = h; bname = d->name; }
        }
        *m = (struct comp){ best, bhow, bname };
    }
    int best = -1, bhow = 0, sx = 0;
    const char *bname = NULL;
    struct touches tx = { 0 };
    /* the host looks up X's copy of a name Y defines too (dlsym on a
     * handle): X's copy of that code runs (the NCCL case), and with it the
     * state it reaches: an entry point every plugin defines (plugin_read)
     * whose calls into the runtime go through relocations runs X's code on
     * whichever copy the loader bound (route-b promoted-between: C's entry
     * point, B's runtime) */
    for (int j = c->im->dlsyms ? c->hhead[x] : -1; j >= 0; j = c->hnext[j]) {   /* what the host looks up, when known */
        const struct binding *b = &c->handles[j];
        const struct def *d = &X->defs[b->def];
        if (d->kind != K_FUNC || module_find_defs(Y, d->name, d->hash) < 0) continue;
        if (best >= 0 && b->conf >= best) continue;
        if (!tx.v && !sx) sx = function_touches(X, &X->defs[xd], &tx) < 0 ? -1 : 1;
        if (!handle_keeps(X, d, &tx, sx)) continue;
        best = b->conf; bhow = H_HANDLE; bname = d->name;
    }
    free(tx.v);
    if (m->conf >= 0 && (best < 0 || m->conf < best)) { best = m->conf; bhow = m->how; bname = m->name; }
    *name = bname;
    *how = bhow;
    return best;
}

/* Under --pid and --trace: does x's code run, as the process shows it?  The
 * executable's does; a module's own constructors do (timeline's libB.so
 * registers a device from its constructor, nobody calls into it); any
 * other module's does only if some other module's reference was seen bound
 * to it.  Memoised per module: 1 yes, 2 no. */
static int entered(struct analysis *c, int x)
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
static int seen_in_use(struct analysis *c, const struct group *gr, int x, const struct finding *f)
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
static int alive(struct analysis *c, const struct group *gr, int k, int y, int name_only, struct finding *f)
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
        int how, conf = component(c, x, y, gr->dk[k], &nm, &how);
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

static int source_lookup(const struct image *im, const struct group *gr, const struct source *sr, int *d);

/* Does the image enter module x's exported function k (reach.c asks, to
 * know where x's code can start running)?  Yes where a lookup of this
 * image binds it (a reference, the module's own, a dlsym on a handle), where
 * x binds it itself other than by a direct call (reach.c follows those),
 * where any dlsym may find it (a --dlopen without --dlsym), and for a name
 * only x defines unless it sits under an old version node (`@`) that no
 * reference asks for.  A copy every lookup passes over is not entered. */
struct enterq { struct analysis *c; int x; };
static int enters(int k, void *arg)
{
    const struct enterq *q = arg;
    struct analysis *c = q->c;
    const struct image *im = c->im;
    struct module *X = im->mods[q->x].m;
    const struct def *d = &X->defs[k];
    int how, conf, tg, dd;
    if (!im->dlsyms && c->inlocal[q->x]) return 1;
    struct slot *sl = find(&c->t, d->name, d->hash, 0);
    if (!sl || sl->ndef < 2 || !sl->group) {
        const char *v = vname(X, d);
        if (!d->hidden || !v) return 1;
        for (int r = 0; r < im->n; r++) {
            const struct module *R = im->mods[r].m;
            for (int j = 0; j < R->nrefs; j++) {
                const char *rv = version_name(R, R->refs[j].ver);
                if (R->refs[j].hash == d->hash && !strcmp(R->refs[j].name, d->name) && rv && !strcmp(rv, v)) return 1;
            }
        }
        return 0;
    }
    if (self_binding(X, k, &how, &conf) && how != H_DIRECT) return 1;
    for (int j = c->hhead[q->x]; j >= 0; j = c->hnext[j])   /* the handles finding x's copies */
        if (c->handles[j].def == k) return 1;
    const struct group *gr = &c->g[sl->group - 1];
    const char *v = vname(X, d);
    c->asked = 1;   /* an answer other names' bindings give: a promotion may change it */
    for (int s = 0; s < gr->nsrc; s++) {
        const struct source *sr = &gr->src[s];
        if (sr->kind == SRC_HANDLE || (sr->kind == SRC_DEF && !im->mods[sr->mod].m->defs[sr->idx].self_reloc)) continue;
        /* an old version node's definition answers only a reference naming that node */
        if (d->hidden && v) {
            struct ask a = asked_by(im, sr);
            if (!a.ver || strcmp(a.ver, v)) continue;
        }
        if ((tg = source_lookup(im, gr, sr, &dd)) == q->x && dd == k) return 1;
    }
    return 0;
}

/* A capture whose binding is a reference of the binder's that no running
 * code reads (reach.c): kept, as possible only, saying so */
static void unreached(struct analysis *c, const struct group *gr, struct finding *f)
{
    const struct image *im = c->im;
    struct enterq q = { c, f->binder };
    if (f->how != H_LOOKUP || f->collision || (im->obs && im->obs->live && f->observed)) return;
    if (ref_runs(im->mods[f->binder].m, gr->name, enters, &q, &f->dead_fn)) return;
    f->unreached = 1;
    f->conf = C_POSSIBLE;
}

/* The last shared_state question of a capture() and its answer */
struct shared { int x, xd, y, yd, conf; struct finding f; };

/* "Best evidence first; of two as good, the one the process showed": does
 * f replace the best so far? */
static int better(const struct finding *f, const struct finding *best, int found)
{
    return !found || f->conf < best->conf || (f->conf == best->conf && f->observed && !best->observed);
}

/* Binding i's strongest capture in *out (the first of equals): its conf,
 * -1 none.  kp: the unpromoted pass, noting the definers in the binder's
 * closure (every used[] entry this reads) */
static int capture_of(struct analysis *c, struct group *gr, int i, struct shared *q, struct finding *out, struct kept *kp)
{
    const struct image *im = c->im;
    int found = 0;
    const struct binding *b = &gr->b[i];
    if (kp) kp->clo[i] = kp->ncl;
    out->conf = -1;
    /* a module's own hidden copy (.symtab) also captures it, from the
     * exported copy in its own dependencies (--exclude-libs) */
    int own_hidden = b->how == H_HIDDEN && b->binder == b->target &&
                     im->mods[b->target].m->defs[b->def].kind == K_FUNC;   /* code (DW.ref.* data are per module by design) */
    if (b->how != H_LOOKUP && b->how != H_EXE_OWN && !own_hidden) return -1;
    const struct module *Y = im->mods[b->target].m;
    const struct def *yd = &Y->defs[b->def];
    const struct closure *cl = closure_of(c, b->binder);
    int anyver = -1;   /* asked only of two versioned copies (a scan of the binder's references) */
    for (int k = next_in_closure(gr, cl, -1); k < gr->nd; k = next_in_closure(gr, cl, k)) {
        int x = gr->dm[k], xd = gr->dk[k];
        const struct module *X = im->mods[x].m;
        if (kp) { GROW(kp->cl, kp->ncl, kp->clcap); kp->cl[kp->ncl++] = k; }
        if (x == b->target) continue;
        if (!same_interface(X, &X->defs[xd], Y, yd)) {
            if (anyver < 0) anyver = b->how == H_LOOKUP && unversioned_ref(im->mods[b->binder].m, gr->name, gr->hash);
            if (!anyver) continue;
        }
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
        struct finding f = { b->binder, b->target, b->def, b->how, x, xd, 0, 0, 0, NULL, diff, 0, 0, 0, NULL, 0, -1, 0, 0 };
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
            if (q->x != x || q->xd != xd || q->y != b->target || q->yd != b->def) {
                q->x = x; q->xd = xd; q->y = b->target; q->yd = b->def;
                q->f = f;
                q->conf = shared_state(im, &q->f);
                c->asked = 1;   /* an answer another name's bindings give: a promotion may change it */
            }
            const struct finding *sf = &q->f;
            if (q->conf >= 0 && (!im->obs || sf->ev_seen == 1)) {   /* under --pid, --trace: the other name's binding seen */
                f.conf = q->conf;
                f.ev_how = sf->ev_how; f.ev_binder = sf->ev_binder; f.ev_name = sf->ev_name;
                f.ev_state = sf->ev_state; f.ev_addr = sf->ev_addr; f.ev_seen = sf->ev_seen;
            }
        }
        if (f.conf < 0) continue;
        if (better(&f, out, found)) { *out = f; found = 1; }
    }
    if (found) unreached(c, gr, out);   /* one reference of one binder: asked once */
    return found ? out->conf : -1;
}

/* Does binding i's capture f (conf) beat the best so far (cb, 3 none; ib)?
 * The first of equals (no binding of a latent pass was observed) */
static int beats(int conf, int i, int cb, int ib)
{
    return conf >= 0 && (conf < cb || (conf == cb && i < ib));
}

/* capture() in an implicit latent pass: the best kept capture that no
 * change touches, the bindings asked again, then only the moved lookups
 * whose bound can beat the best so far (the tree finds them; their own
 * bound, latent_bound, is asked before capture_of) */
static int capture_lazy(struct analysis *c, struct group *gr, struct finding *out, struct shared *q)
{
    struct finding f;
    const int *dl;
    int cb, ib = kept_clean(c, gr, &cb), nd = kept_dirty(gr, &dl);
    if (ib >= 0) *out = gr->kept->f[ib];
    for (int j = 0; j < nd; j++) {
        int i = dl[j];
        kept_ready(c, gr, i);
        c->calls++;
        if (beats(capture_of(c, gr, i, q, &f, NULL), i, cb, ib)) { *out = f; cb = f.conf; ib = i; }
    }
    for (int i = kept_next(c, gr, 0, cb, ib); i >= 0; i = kept_next(c, gr, i + 1, cb, ib)) {
        if (!kept_moved(gr, i)) continue;   /* bound there before: asked again above */
        kept_ready(c, gr, i);
        int must = 0, lb = latent_bound(c, gr, i, &must);
        if (!must && (lb < 0 || lb > cb || (lb == cb && i > ib))) continue;
        c->calls++;
        if (beats(capture_of(c, gr, i, q, &f, NULL), i, cb, ib)) { *out = f; cb = f.conf; ib = i; }
    }
    return ib >= 0;
}

/* The strongest capture of one name, or 0.  Each binding's own, the first
 * of equals: in a latent pass on a kept group (patched), a binding the
 * promotion left alone, whose used[] entries it left alone too, gives
 * what it gave unpromoted; a moved one is asked only when its bound can
 * beat the best so far.  kp: the unpromoted pass, noting each one's. */
static int capture(struct analysis *c, struct group *gr, struct finding *out, int patched, struct kept *kp)
{
    struct shared q = { .x = -1, .xd = -1, .y = -1, .yd = -1, .conf = -1 };
    struct finding f;
    int found = 0;
    if (patched && kept_lazy(c, gr)) return capture_lazy(c, gr, out, &q);
    if (!patched) index_used(gr);
    for (int i = 0; i < gr->n; i++) {
        struct kept *k = gr->kept;
        if (patched) c->calls++;
        if (!patched) {
            if (capture_of(c, gr, i, &q, &f, kp) < 0) { if (kp) kp->fc[i] = -1; continue; }
            if (kp) { kp->f[i] = f; kp->fc[i] = f.conf; }
        } else if (k->chg[i] == c->pass) {
            int must = 0, lb = latent_bound(c, gr, i, &must);
            if (!must && (lb < 0 || (found && lb >= out->conf))) continue;
            if (capture_of(c, gr, i, &q, &f, NULL) < 0) continue;
        } else if (unmoved_same(c, gr, i)) {
            if (k->fc[i] < 0) continue;
            f = k->f[i];
        } else if (capture_of(c, gr, i, &q, &f, NULL) < 0)
            continue;
        if (better(&f, out, found)) { *out = f; found = 1; }
    }
    if (kp) kp->clo[gr->n] = kp->ncl;
    return found;
}

/* No capture: are two or more copies of the name each in use by their own
 * users (a module whose dependency closure holds the copy it binds, or the
 * executable's own code)?  That is a partition (Route B): reported as a
 * COPY row of the name when one copy is in an RTLD_LOCAL dlopen's scope and
 * the state behind each copy is proven (two copies of code that reaches no
 * state of its own, constants and vague linkage diverge in nothing). */
static void partition(struct analysis *c, const struct group *gr, struct findings *fs, int capture)
{
    const struct image *im = c->im;
    int mods[8], users[8], defs[8], n = 0, local = 0;
    for (int i = 0; i < gr->n && n < 8; i++) {
        struct binding tmp;
        const struct binding *b = kept_at(c, gr, i, &tmp);   /* an implicit pass's moved lookups as moved */
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

/* The modules a capture names: the copy linked against and the one bound. */
int names_capture(const struct item *it, int i) { return it->f.x == i || it->f.target == i; }

/* The modules a partition names: its copies. */
int names_partition(const struct item *it, int i)
{
    for (int j = 0; j < it->n && j < 8; j++)
        if (it->pm[j] == i) return 1;
    return 0;
}

/* Names that two modules of this image define (dups.c narrows each module
 * to its names that anyone else in the run defines), and where each one's
 * bindings come from. */
struct analysis *analysis_new(const struct image *im)
{
    struct analysis *c = xcalloc(1, sizeof *c);
    c->im = im;
    size_t total = 0;
    for (int i = 0; i < im->n; i++) total += im->mods[i].m->ndups;
    struct names *t = &c->t;
    size_t cap = 64;
    while (cap < 2 * total) cap *= 2;
    t->s = xcalloc(cap, sizeof *t->s);
    t->mask = cap - 1;
    for (int i = 0; i < im->n; i++) {
        const struct module *m = im->mods[i].m;
        for (int j = 0; j < m->ndups; j++) {
            int k = m->dups[j];
            struct slot *sl = find(t, m->defs[k].name, m->defs[k].hash, 1);
            if (sl->last != i) { sl->ndef++; sl->last = i; }
        }
    }
    /* what `nm -D | sort | uniq -d` over the closure would say */
    for (size_t i = 0; i <= t->mask && !c->naive; i++) c->naive = t->s[i].ndef >= 2;

    for (int i = 0; i < im->n; i++) {
        struct module *m = im->mods[i].m;
        for (int k = 0; k < m->nrefs; k++) {
            struct slot *sl = find(t, m->refs[k].name, m->refs[k].hash, 0);
            if (!sl || sl->ndef < 2) continue;
            add_source(c, sl, SRC_REF, i, k);
            group_of(c, sl)->lookups++;
        }
        for (int j = 0; j < m->ndups; j++) {
            int k = m->dups[j];
            struct slot *sl = find(t, m->defs[k].name, m->defs[k].hash, 0);
            if (sl->ndef < 2 || m->defs[k].kind == K_OTHER) continue;
            add_source(c, sl, SRC_DEF, i, k);
            struct group *gr = group_of(c, sl);
            gr->lookups += m->defs[k].self_reloc;
            if (gr->nd >= gr->dcap) {
                gr->dcap = gr->dcap ? 2 * gr->dcap : 4;
                gr->dm = xrealloc(gr->dm, gr->dcap * sizeof *gr->dm);
                gr->dk = xrealloc(gr->dk, gr->dcap * sizeof *gr->dk);
            }
            gr->dm[gr->nd] = i;
            gr->dk[gr->nd++] = k;
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
                struct slot *sl = find(t, df->name, df->hash, 0);
                const char *ver = vname(m, df);
                int d, tg;
                if (sl->ndef < 2 || df->hidden_vis || df->kind == K_OTHER) continue;
                if (im->dlsyms && !dlsym_wanted(im->dlsyms, df->name, &ver)) continue;
                if ((tg = lookup_in(im, hl, df->name, df->hash, ver, &d)) < 0) continue;
                struct binding b = { im->roots[k], tg, d, H_HANDLE, im->dlsyms ? C_LIKELY : C_POSSIBLE };
                GROW(c->handles, c->nhandles, c->hcap);
                c->handles[c->nhandles++] = b;
                add_source(c, sl, SRC_HANDLE, -1, c->nhandles - 1);
            }
        }
    }
    int n = im->n;
    c->hhead = xcalloc(n ? n : 1, sizeof *c->hhead);
    c->hnext = xcalloc(c->nhandles ? c->nhandles : 1, sizeof *c->hnext);
    for (int i = 0; i < n; i++) c->hhead[i] = -1;
    for (int j = c->nhandles - 1; j >= 0; j--) {   /* backwards: each list in handle order */
        c->hnext[j] = c->hhead[c->handles[j].target];
        c->hhead[c->handles[j].target] = j;
    }
    c->closure = xcalloc(n, sizeof *c->closure);
    c->seen = xcalloc(n, sizeof *c->seen);
    c->entered = xcalloc(n, 1);
    c->inlocal = xcalloc(n ? n : 1, 1);
    for (int l = 0; l < im->nlocals; l++)
        for (int i = 0; i < im->locals[l].n; i++) c->inlocal[im->locals[l].idx[i]] = 1;
    return c;
}

void analysis_free(struct analysis *c)
{
    if (!c) return;
    for (int k = 0; k < c->ng; k++) {
        free(c->g[k].src);
        free(c->g[k].dm);
        free(c->g[k].dk);
        kept_free(c->g[k].kept);
    }
    free(c->g);
    for (int i = 0; i < c->im->n; i++) free(c->closure[i].idx);
    free(c->closure);
    free(c->seen);
    free(c->entered);
    free(c->inlocal);
    free(c->comp.key);
    free(c->comp.val);
    free(c->handles);
    free(c->hhead);
    free(c->hnext);
    pairs_free(c->pairs);
    free(c->join0);
    free(c->pmark);
    free(c->cbound);
    free(c->sens);
    free(c->t.s);
    free(c);
}

static int source_lookup(const struct image *im, const struct group *gr, const struct source *sr, int *d)
{
    struct ask a = asked_by(im, sr);
    return lookup(im, sr->mod, gr->name, gr->hash, a.ver, a.hid, a.lazy, d);
}

/* One group's bindings in this pass, from its sources in order. */
static void group_bindings(struct analysis *c, struct group *gr)
{
    const struct image *im = c->im;
    gr->n = 0;
    gr->order = -1;
    gr->failed = 0;
    for (int s = 0; s < gr->nsrc; s++) {
        struct source *sr = &gr->src[s];
        int i = sr->mod, k = sr->idx, d, tg;
        if (sr->kind == SRC_HANDLE) { bind(gr, sr->seq, c->handles[k], -1); continue; }
        struct module *m = im->mods[i].m;
        if (sr->kind == SRC_REF) {
            tg = source_lookup(im, gr, sr, &d);
            if (tg >= 0) bind(gr, sr->seq, (struct binding){ i, tg, d, H_LOOKUP, C_CERTAIN }, s);
            else gr->failed++;
            continue;
        }
        const struct def *df = &m->defs[k];
        struct binding b = { i, i, k, H_EXE_OWN, C_CERTAIN };
        if (gr->order < 0) gr->order = sr->seq;
        if (i == 0 && !df->hidden_vis) {   /* the executable is first in every scope */
            bind(gr, sr->seq, b, -1);
            continue;
        }
        if (sr->self < 0) {
            sr->self = self_binding(m, k, &b.how, &b.conf);
            sr->how = b.how;
            sr->conf = b.conf;
        }
        int self = sr->self;
        b.how = sr->how;
        b.conf = sr->conf;
        if (self) bind(gr, sr->seq, b, -1);
        /* an interposable self-reference is an ordinary lookup; a library
         * can have both kinds of call sites */
        if (df->self_reloc && (!self || b.how == H_DIRECT)) {
            tg = source_lookup(im, gr, sr, &d);
            if (tg >= 0) bind(gr, sr->seq, (struct binding){ i, tg, d, H_LOOKUP, C_CERTAIN }, s);
            else gr->failed++;
        }
    }
}

static const struct analysis *by_order;   /* qsort has no argument */
static int cmp_order(const void *a, const void *b)
{
    int x = by_order->g[*(const int *)a].order, y = by_order->g[*(const int *)b].order;
    return (x > y) - (x < y);
}

/* Captures, partitions and (whole: every group selected) collisions of the
 * groups selected, in the order a pass over every source makes them;
 * base: the unpromoted model, whose answers say which groups a promotion
 * can change (sensitive). */
static void run(struct analysis *c, struct findings *fs, int *sel, int nsel, int whole, int base)
{
    const struct image *im = c->im;
    fs->naive = c->naive;
    if (im->obs) memset(c->entered, 0, im->n);   /* what the process showed: this pass's own */
    comp_clear(c);
    /* a latent pass by names: the kept groups patched (no process: im->obs NULL) */
    int patching = !whole && !base && !im->obs;
    for (int s = 0; s < nsel; s++) {
        struct group *gr = &c->g[sel[s]];
        if (patching && gr->kept) kept_patch(c, gr); else group_bindings(c, gr);
    }
    by_order = c;
    /* a pass may select no group (sel NULL): qsort's pointer must not be
     * NULL even for 0 elements (glibc declares it nonnull; UBSan stops) */
    if (nsel > 1) qsort(sel, nsel, sizeof *sel, cmp_order);
    if (whole) {
        pairs_free(c->pairs);
        c->pairs = pairs_new(im);
        for (int s = 0; s < nsel; s++)
            if (c->g[sel[s]].nd >= 2) pairs_count(c->pairs, c->g[sel[s]].name, c->g[sel[s]].dm, c->g[sel[s]].dk, c->g[sel[s]].nd);
    }
    for (int s = 0; s < nsel; s++) {
        struct group *gr = &c->g[sel[s]];
        struct finding f;
        int ci = -1, patched = patching && gr->kept;
        /* kept for the latent passes: a group whose lookups all found a
         * definition, whose bindings' captures ask no other name's bindings */
        struct kept *kp = base && gr->nd >= 2 && gr->lookups && !gr->failed ? kept_new(gr) : NULL;
        c->asked = 0;
        int captured = gr->nd >= 2 && capture(c, gr, &f, patched, kp);
        if (captured) {
            struct item *it = findings_add(fs, F_CAPTURE, gr->name);
            it->f = f;
            char *owned;   /* harmless, when it had to be formatted */
            it->harmless = capture_harmless(im, &f, &owned, &it->proven);
            findings_own(fs, owned);
            it->data = im->mods[f.x].m->defs[f.xdef].kind == K_DATA || im->mods[f.target].m->defs[f.def].kind == K_DATA;
            it->override = f.collision && override_by_design(im, &f);
            /* the allowlist matches any of them (a pass with an allowlist is never patched) */
            it->mods = findings_own(fs, xcalloc(patched ? 1 : 2 * gr->n + 2, sizeof *it->mods));
            for (int i = 0; i < gr->n && !patched; i++) {
                it->mods[it->nmods++] = gr->b[i].binder;
                it->mods[it->nmods++] = gr->b[i].target;
            }
            ci = fs->n - 1;
        }
        /* sensitive: a capture's grade (capture_harmless) asks other names'
         * bindings, which a promotion of modules that do not define this
         * name may move, so every latent pass grades it again; the grade is
         * asked of the pass's strongest capture and kept nowhere, so the
         * group's bindings and each one's capture can still be kept */
        if (base && (c->asked || captured)) { GROW(c->sens, c->nsens, c->senscap); c->sens[c->nsens++] = sel[s]; }
        /* a capture that is no split (maybe, info) can sit beside a
         * partition (the policy keeps the partition only then) */
        if (gr->nd >= 2) partition(c, gr, fs, ci);
        if (patched) { kept_unpatch(gr); continue; }
        if (kp && !c->asked) kept_finish(c, gr, kp); else kept_free(kp);
        free(gr->b);
        free(gr->bs);
        free(gr->used);
        gr->b = NULL;
        gr->bs = NULL;
        gr->used = NULL;
        gr->n = gr->cap = 0;
    }
    if (whole) pairs_find(c->pairs, fs);
}

static int *every_group(const struct analysis *c)
{
    int *sel = xcalloc(c->ng ? c->ng : 1, sizeof *sel);
    for (int k = 0; k < c->ng; k++) sel[k] = k;
    return sel;
}

void analyse_image(struct findings *fs, struct analysis *c)
{
    int *sel = every_group(c);
    run(c, fs, sel, c->ng, 1, 0);
    free(sel);
}

/* The model with no process and no promotion, once, before the latent
 * passes: the groups whose answer may change with a promotion although the
 * promoted modules do not define their name (sensitive: a capture, whose
 * grade asks other names' bindings, kept all the same; or a question asked
 * of another name's bindings, shared_state, not kept), and whether two different libraries share names
 * (a collision row counts every name's crossings: every pass is whole). */
void analyse_unpromoted(struct analysis *c)
{
    const struct image *im = c->im;
    if (c->based) return;
    c->based = 1;
    c->join0 = xcalloc(im->n ? im->n : 1, sizeof *c->join0);
    for (int q = 0; q < im->global.n; q++) c->join0[im->global.idx[q]] = im->global.join[q] + 1;
    c->pmark = xcalloc(im->n ? im->n : 1, sizeof *c->pmark);
    c->cbound = xcalloc(im->n ? im->n : 1, 1);
    memset(c->cbound, -3, im->n);
    struct findings tmp = { 0 };
    int *sel = every_group(c);
    run(c, &tmp, sel, c->ng, 1, 1);
    free(sel);
    findings_clear(&tmp);
    c->differ = pairs_any_different(c->pairs);
    for (int k = 0; k < c->ng && c->differ; k++) {   /* every pass whole: nothing is patched */
        kept_free(c->g[k].kept);
        c->g[k].kept = NULL;
    }
}

static void pick(struct analysis *c, int g, int **sel, int *n, int *cap)
{
    if (c->g[g].mark == c->pass) return;
    c->g[g].mark = c->pass;
    GROW(*sel, *n, *cap);
    (*sel)[(*n)++] = g;
}

/* Dlopen k promoted (image_promote): only the names its newly global
 * modules define can bind otherwise, so only their groups and the
 * sensitive ones are analysed again; the rest would give what the
 * unpromoted model gave (no capture: no row).  Whole (the allowlist counts
 * the rows it suppresses in each pass), or without the unpromoted model,
 * or with different libraries sharing names: every group, as a first pass. */
void analyse_latent(struct findings *fs, struct analysis *c, int k, int whole)
{
    const struct image *im = c->im;
    int *sel = NULL, n = 0, cap = 0;
    if (whole || !c->based || c->differ) {
        c->whole++;
        sel = every_group(c);
        run(c, fs, sel, c->ng, 1, 0);
        free(sel);
        return;
    }
    c->part++;
    c->pass++;
    c->step = k + 1;   /* image_promote's */
    for (int s = 0; s < c->nsens; s++) pick(c, c->sens[s], &sel, &n, &cap);
    const struct searchlist *sl = &im->locals[k];
    for (int q = 0; q < sl->n; q++) {
        int i = sl->idx[q];
        if (c->join0[i] || !image_in_global(im, i)) continue;
        c->pmark[i] = c->pass;
        const struct module *m = im->mods[i].m;
        for (int j = 0; j < m->ndups; j++) {
            const struct def *df = &m->defs[m->dups[j]];
            struct slot *sl = find(&c->t, df->name, df->hash, 0);
            /* a name nobody looks up binds as it did unpromoted */
            if (sl && sl->group && c->g[sl->group - 1].lookups) pick(c, sl->group - 1, &sel, &n, &cap);
        }
    }
    run(c, fs, sel, n, 0, 0);
    free(sel);
}

void analysis_passes(const struct analysis *c, int *whole, int *part)
{
    *whole = c->whole;
    *part = c->part;
}

void analysis_patches(const struct analysis *c, long n[4])
{
    n[0] = c->lazy;
    n[1] = c->listed;
    n[2] = c->moved;
    n[3] = c->calls;
}
