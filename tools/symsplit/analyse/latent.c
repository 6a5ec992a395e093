/* Latent passes on kept groups: the unpromoted pass patched.
 *
 * A promotion (one RTLD_LOCAL dlopen made global) moves few lookups: those
 * that see its step and found nothing in the global scope before it.  The
 * unpromoted pass's bindings of a group, and what capture() found for each,
 * are kept (kept_finish); a latent pass patches in the lookups the
 * promotion moves and the used[] entries that changes (kept_patch), asks
 * capture() again only of what that can change (latent_bound,
 * unmoved_same), and restores the kept pass after (kept_unpatch). */
#include "analyse/latent.h"
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* The definer index of (x, d) in gr, -1 none */
static int definer_of(const struct group *gr, int x, int d)
{
    for (int k = first_definer(gr, x); k < gr->nd && gr->dm[k] == x; k++)
        if (gr->dk[k] == d) return k;
    return -1;
}

/* The best conf component(x, y) can give for any y, -1 none: a bound (its
 * filters on y and function_state left out), once per module */
static int comp_bound(struct analysis *c, int x)
{
    if (c->cbound[x] == -3) {
        struct module *X = c->im->mods[x].m;
        int best = -1, h, conf;
        for (int j = c->im->dlsyms ? c->hhead[x] : -1; j >= 0; j = c->hnext[j])
            if (X->defs[c->handles[j].def].kind == K_FUNC && (best < 0 || c->handles[j].conf < best)) best = c->handles[j].conf;
        for (int j = 0; j < X->ndups; j++) {
            const struct def *d = &X->defs[X->dups[j]];
            if (d->kind != K_FUNC || d->bind == STB_WEAK) continue;
            if (!self_binding(X, X->dups[j], &h, &conf) || h == H_BSYMFUNC) continue;
            if (best < 0 || conf < best) best = conf;
        }
        c->cbound[x] = best;
    }
    return c->cbound[x];
}

/* Moved binding i's capture is no better than this (-1: it has none): over
 * the definers in its binder's closure, the best that can keep each in use
 * (a binding no promotion moves, a lookup other than i's that bound it
 * unpromoted, comp_bound), certain for a collision.  *must: ask it all the
 * same, where it may ask shared_state (nothing keeps the copy in use for
 * sure) or a definer joined the global scope with the promotion. */
int latent_bound(struct analysis *c, struct group *gr, int i, int *must)
{
    const struct image *im = c->im;
    const struct kept *kp = gr->kept;
    const struct binding *b = &gr->b[i];
    const struct module *Y = im->mods[b->target].m;
    const struct def *yd = &Y->defs[b->def];
    int lb = -1;
    for (int j = kp->clo[i]; j < kp->clo[i + 1]; j++) {
        int k = kp->cl[j], x = gr->dm[k], v = kp->fixed[k];
        const struct dfact *xf = &kp->df[k];
        if (x == b->target) continue;
        int name_only = yd->kind != K_FUNC || xf->kind != K_FUNC || weak_func(yd) || xf->weak;
        if (c->pmark[x] == c->pass || (v < 0 && !name_only)) { *must = 1; return C_CERTAIN; }
        /* two functions of one size are one entity (different_entities) */
        if ((xf->kind != K_FUNC || yd->kind != K_FUNC || xf->size != yd->size) &&
            different_entities(im->mods[x].m, &im->mods[x].m->defs[gr->dk[k]], Y, yd))
            return C_CERTAIN;
        if (kp->nlook[k] - (kp->bk[i] == k) > 0) v = C_CERTAIN;
        int cb = name_only ? -1 : comp_bound(c, x);
        if (cb >= 0 && (v < 0 || cb < v)) v = cb;
        if (v >= 0 && (lb < 0 || v < lb)) lb = v;
    }
    return lb;
}

/* Does binding i, not moved, give what it gave unpromoted?  Yes unless its
 * target joined the global scope (f.local) or a used[] entry it reads changed. */
int unmoved_same(const struct analysis *c, const struct group *gr, int i)
{
    const struct kept *kp = gr->kept;
    if (c->pmark[gr->b[i].target] == c->pass) return 0;
    for (int j = kp->clo[i]; j < kp->clo[i + 1]; j++)
        if (kp->mark[kp->cl[j]] == c->pass) return 0;
    return 1;
}

struct kept *kept_new(const struct group *gr)
{
    struct kept *kp = xcalloc(1, sizeof *kp);
    kp->f = xcalloc(gr->n ? gr->n : 1, sizeof *kp->f);
    kp->fc = xcalloc(gr->n ? gr->n : 1, 1);
    kp->clo = xcalloc(gr->n + 1, sizeof *kp->clo);
    return kp;
}

void kept_free(struct kept *kp)
{
    if (!kp) return;
    void *p[] = { kp->b, kp->used, kp->f, kp->fc, kp->cl, kp->clo, kp->bk, kp->fixed, kp->nlook, kp->rev, kp->revo, kp->lk, kp->df,
                  kp->chg, kp->mark, kp->vis, kp->fpass, kp->fpos, kp->uu, kp->cm,
                  kp->lkpos, kp->pmin, kp->tree, kp->lvl[0], kp->lvl[1], kp->lvl[2], kp->sp, kp->rdr, kp->rdro,
                  kp->dmark, kp->dl, kp->orph };
    for (size_t i = 0; i < sizeof p / sizeof p[0]; i++) free(p[i]);
    free(kp);
}

static int by_until(const void *a, const void *b)
{
    const struct look *x = a, *y = b;
    return (y->until > x->until) - (y->until < x->until);   /* the latest first */
}

static int by_hi(const void *a, const void *b)
{
    const struct span *x = a, *y = b;
    return (y->hi > x->hi) - (y->hi < x->hi);   /* the latest first */
}

/* For the implicit passes: each lookup's place in lk, lk's uniform
 * prefix, each lookup's bound (lev: -1 ask it always, 3 no capture; a
 * bound for any target that is a function of the closures' one size),
 * the tree over them, the kept captures by conf, who reads each definer,
 * and the spans of steps in which a binding may read a changed used[]. */
static void lazy_finish(struct analysis *c, const struct group *gr, struct kept *kp)
{
    const struct image *im = c->im;
    int n = kp->n, nd = gr->nd, spcap = 0, ocap = 0, lcap[3] = { 0 };
    kp->lazy = -1;
    kp->lkpos = xcalloc(n ? n : 1, sizeof *kp->lkpos);
    kp->pmin = xcalloc(kp->nlk + 1, sizeof *kp->pmin);
    kp->dmark = xcalloc(n ? n : 1, sizeof *kp->dmark);
    int *maxu = xcalloc(nd ? nd : 1, sizeof *maxu), *lev = xcalloc(n ? n : 1, sizeof *lev);
    int64_t *sz = xcalloc(n ? n : 1, sizeof *sz);
    for (int i = 0; i < n; i++) kp->lkpos[i] = -1;
    for (int k = 0; k < nd; k++) maxu[k] = INT_MIN;
    kp->pmin[0] = INT_MAX;
    for (int j = 0; j < kp->nlk; j++) {
        int i = kp->lk[j].pos, k = kp->bk[i];
        kp->lkpos[i] = j;
        kp->pmin[j + 1] = i < kp->pmin[j] ? i : kp->pmin[j];
        if (k >= 0 && kp->lk[j].until > maxu[k]) maxu[k] = kp->lk[j].until;
    }
    kp->rdro = xcalloc(nd + 1, sizeof *kp->rdro);
    kp->rdr = xcalloc(kp->ncl ? kp->ncl : 1, sizeof *kp->rdr);
    for (int j = 0; j < kp->ncl; j++) kp->rdro[kp->cl[j] + 1]++;
    for (int k = 0; k < nd; k++) kp->rdro[k + 1] += kp->rdro[k];
    int *fill = xcalloc(nd ? nd : 1, sizeof *fill);
    for (int i = 0; i < n; i++) {
        int lb = 3, must = 0, hi = INT_MIN, moves = kp->lkpos[i] >= 0 && kp->lk[kp->lkpos[i]].until >= 1;
        int64_t u = -2;
        for (int j = kp->clo[i]; j < kp->clo[i + 1]; j++) {
            int k = kp->cl[j], v = kp->fixed[k];
            const struct dfact *xf = &kp->df[k];
            kp->rdr[kp->rdro[k] + fill[k]++] = i;
            if (maxu[k] > hi) hi = maxu[k];
            if (!moves) continue;   /* never moved: no bound asked */
            u = xf->kind != K_FUNC || xf->weak || (u != -2 && u != (int64_t)xf->size) ? -1 : (int64_t)xf->size;
            if (v < 0) must = 1;   /* latent_bound's, name_only 0: both functions, neither weak */
            if (kp->nlook[k] - (kp->bk[i] == k) > 0) v = C_CERTAIN;
            int cb = comp_bound(c, gr->dm[k]);
            if (cb >= 0 && (v < 0 || cb < v)) v = cb;
            if (v >= 0 && v < lb) lb = v;
        }
        lev[i] = must ? -1 : lb;
        sz[i] = u;
        /* from step lo + 1 it moves itself; up to hi a definer it reads may lose a lookup */
        int lo = kp->lkpos[i] >= 0 ? kp->lk[kp->lkpos[i]].until : INT_MIN;
        if (hi > lo) {
            GROW(kp->sp, kp->nsp, spcap);
            kp->sp[kp->nsp++] = (struct span){ lo, hi, i };
        }
        if (kp->bk[i] < 0 && kp->clo[i] < kp->clo[i + 1]) {   /* to no definer: rev[] lacks it */
            GROW(kp->orph, kp->norph, ocap);
            kp->orph[kp->norph++] = i;
        }
        if (kp->fc[i] >= 0 && kp->fc[i] <= 2) {
            int l = kp->fc[i];
            GROW(kp->lvl[l], kp->nlvl[l], lcap[l]);
            kp->lvl[l][kp->nlvl[l]++] = i;
        }
    }
    if (kp->nsp) qsort(kp->sp, kp->nsp, sizeof *kp->sp, by_hi);   /* (qsort's array may not be NULL) */
    /* the uniform prefix: one question, plain lookups (a lookup bound in
     * the global scope moves too, while the step is before its answer's:
     * its until says so), closures of functions of one size (or of no definer) */
    const struct look *l0 = kp->nlk ? &kp->lk[0] : NULL;
    kp->usize = -2;
    for (kp->uni = 0; kp->uni < kp->nlk; kp->uni++) {
        const struct look *l = &kp->lk[kp->uni];
        const struct binding *b = &kp->b[l->pos];
        int64_t u = sz[l->pos];
        if (l->unique || im->mods[b->binder].deepbind || u == -1 || (u >= 0 && kp->usize >= 0 && u != kp->usize) ||
            l->a.hid != l0->a.hid || (l->a.ver != l0->a.ver && (!l->a.ver || !l0->a.ver || strcmp(l->a.ver, l0->a.ver))))
            break;
        if (u >= 0) kp->usize = u;
    }
    /* the tree: leaf i, level l (-1 .. 2): lookup i's until where lev[i] <= l */
    for (kp->tsz = 1; kp->tsz < n; kp->tsz *= 2) ;
    kp->tree = xcalloc(8 * (size_t)kp->tsz, sizeof *kp->tree);
    for (int v = 0; v < 8 * kp->tsz; v++) kp->tree[v] = INT_MIN;
    for (int i = 0; i < n; i++)
        for (int l = -1; l <= 2 && kp->lkpos[i] >= 0; l++)
            if (lev[i] <= l) kp->tree[4 * (kp->tsz + i) + l + 1] = kp->lk[kp->lkpos[i]].until;
    for (int v = kp->tsz - 1; v >= 1; v--)
        for (int l = 0; l < 4; l++) {
            int x = kp->tree[4 * 2 * v + l], y = kp->tree[4 * (2 * v + 1) + l];
            kp->tree[4 * v + l] = x > y ? x : y;
        }
    free(fill);
    free(maxu);
    free(lev);
    free(sz);
}

/* Is target in the local scope binder searches before the global one
 * (RTLD_DEEPBIND)?  Then its lookup found its answer there, in a list no
 * promotion changes: it never moves, as a lookup answered at start-up. */
static int own_scope_first(const struct image *im, int binder, int target)
{
    const struct lmod *l = &im->mods[binder];
    if (!l->deepbind || l->scope < 0) return 0;
    const struct searchlist *sl = &im->locals[l->scope];
    for (int q = 0; q < sl->n; q++)
        if (sl->idx[q] == target) return 1;
    return 0;
}

/* After the unpromoted pass's capture(): its bindings and used[] become
 * kp's, with what a latent pass asks of them. */
void kept_finish(struct analysis *c, struct group *gr, struct kept *kp)
{
    const struct image *im = c->im;
    int n = gr->n, nd = gr->nd;
    kp->b = gr->b;
    kp->n = n;
    kp->used = gr->used;
    gr->b = NULL;
    gr->used = NULL;
    kp->bk = xcalloc(n ? n : 1, sizeof *kp->bk);
    kp->fixed = xcalloc(nd, sizeof *kp->fixed);
    kp->nlook = xcalloc(nd, sizeof *kp->nlook);
    kp->revo = xcalloc(nd + 1, sizeof *kp->revo);
    kp->rev = xcalloc(n ? n : 1, sizeof *kp->rev);
    kp->lk = xcalloc(n ? n : 1, sizeof *kp->lk);
    for (int k = 0; k < nd; k++) kp->fixed[k] = -1;
    for (int i = 0; i < n; i++) {
        const struct binding *b = &kp->b[i];
        int k = kp->bk[i] = definer_of(gr, b->target, b->def);
        if (k >= 0) {
            kp->revo[k + 1]++;
            if (gr->bs[i] >= 0) kp->nlook[k]++;
            else if (kp->fixed[k] < 0 || b->conf < kp->fixed[k]) kp->fixed[k] = b->conf;
        }
        if (gr->bs[i] < 0) continue;
        const struct source *sr = &gr->src[gr->bs[i]];
        /* a unique definition: the answer is the first lookup's, which any step may change */
        int unique = im->mods[b->target].m->defs[b->def].bind == STB_GNU_UNIQUE;
        if (im->mods[b->binder].ns_scope && !unique) continue;   /* another namespace: no promotion reaches it */
        if (c->join0[b->target] == 1 && !unique) continue;       /* found at start-up, before any step */
        if (own_scope_first(im, b->binder, b->target) && !unique) continue;   /* found before the global scope */
        struct ask a = asked_by(im, sr);
        int until = unique ? INT_MAX : lookup_until(im, b->binder, a.lazy);
        /* bound to a module that joined the global scope at step g: a
         * promotion at g or after comes behind it, one before g in front */
        if (!unique && c->join0[b->target] && c->join0[b->target] - 2 < until) until = c->join0[b->target] - 2;
        kp->lk[kp->nlk++] = (struct look){ i, until, unique, a };
    }
    for (int k = 0; k < nd; k++) kp->revo[k + 1] += kp->revo[k];
    kp->df = xcalloc(nd, sizeof *kp->df);
    for (int k = 0; k < nd; k++) {
        const struct def *d = &im->mods[gr->dm[k]].m->defs[gr->dk[k]];
        kp->df[k] = (struct dfact){ d->size, d->kind, weak_func(d) };
    }
    int *fill = xcalloc(nd, sizeof *fill);
    for (int i = 0; i < n; i++)
        if (kp->bk[i] >= 0) kp->rev[kp->revo[kp->bk[i]] + fill[kp->bk[i]]++] = i;
    free(fill);
    if (kp->nlk > 1) qsort(kp->lk, kp->nlk, sizeof *kp->lk, by_until);   /* lk may be NULL */
    kp->chg = xcalloc(n ? n : 1, sizeof *kp->chg);
    kp->mark = xcalloc(nd, sizeof *kp->mark);
    kp->vis = xcalloc(nd, sizeof *kp->vis);
    kp->fpass = xcalloc(nd, sizeof *kp->fpass);
    kp->fpos = xcalloc(nd, sizeof *kp->fpos);
    lazy_finish(c, gr, kp);
    gr->kept = kp;
}

/* Does binding p come before best (-1 none) as definer k's used[] entry?
 * The stronger, the first of equals */
static int first_used(const struct group *gr, int p, int best)
{
    return best < 0 || gr->b[p].conf < gr->b[best].conf || (gr->b[p].conf == gr->b[best].conf && p < best);
}

/* used[k] is best for this pass (undone after it), marked changed */
static void set_used(struct analysis *c, struct group *gr, int k, int best)
{
    struct kept *kp = gr->kept;
    if (best == gr->used[k]) return;
    GROW(kp->uu, kp->nu, kp->ucap);
    kp->uu[kp->nu].k = k;
    kp->uu[kp->nu++].old = gr->used[k];
    gr->used[k] = best;
    kp->mark[k] = c->pass;
}

/* Binding i moves to (tg, d) for this pass (undone after it) */
static void move(struct analysis *c, struct group *gr, int i, int tg, int d)
{
    struct kept *kp = gr->kept;
    GROW(kp->cm, kp->ncp, kp->cpcap);
    kp->cm[kp->ncp].i = i;
    kp->cm[kp->ncp++].old = gr->b[i];
    gr->b[i].target = tg;
    gr->b[i].def = d;
    kp->chg[i] = c->pass;
}

/* Definer k's used[] entry again (index_used's, from its bindings this
 * pass): the listed pass's moved bindings are marked (chg), the implicit
 * pass's told by kept_moved; the first moved to k is fpos[k], or the first
 * of lk's prefix (or one bound there before, which rev[] holds) */
static void renew(struct analysis *c, struct group *gr, int k)
{
    struct kept *kp = gr->kept;
    if (k < 0 || kp->vis[k] == c->pass) return;
    kp->vis[k] = c->pass;
    int best = -1, lazy = kp->lazy == c->pass;
    for (int j = kp->revo[k]; j < kp->revo[k + 1]; j++) {
        int p = kp->rev[j];
        if (!(lazy ? kept_moved(gr, p) : kp->chg[p] == c->pass) && (best < 0 || gr->b[p].conf < gr->b[best].conf)) best = p;
    }
    int in = lazy ? (k == kp->nk && kp->J ? kp->pmin[kp->J] : -1) : kp->fpass[k] == c->pass ? kp->fpos[k] : -1;
    if (in >= 0 && first_used(gr, in, best)) best = in;
    set_used(c, gr, k, best);
}

int kept_lazy(const struct analysis *c, const struct group *gr)
{
    return gr->kept && gr->kept->lazy == c->pass;
}

/* Was binding i moved by this implicit pass?  A lookup that sees the step
 * (lk[0 .. J - 1]) and did not bind (mt, md) before */
int kept_moved(const struct group *gr, int i)
{
    const struct kept *kp = gr->kept;
    int p = kp->lkpos[i];
    return p >= 0 && p < kp->J && kp->mt >= 0 && kp->bk[i] != kp->nk;
}

const struct binding *kept_at(const struct analysis *c, const struct group *gr, int i, struct binding *tmp)
{
    if (!kept_lazy(c, gr) || !kept_moved(gr, i)) return &gr->b[i];
    *tmp = gr->b[i];
    tmp->target = gr->kept->mt;
    tmp->def = gr->kept->md;
    return tmp;
}

/* Binding i, not moved, is asked again this pass */
static void dirty(struct analysis *c, struct group *gr, int i)
{
    struct kept *kp = gr->kept;
    if (kp->dmark[i] == c->pass || kept_moved(gr, i) || kp->clo[i] == kp->clo[i + 1]) return;   /* (no definer read: no capture) */
    kp->dmark[i] = c->pass;
    GROW(kp->dl, kp->ndl, kp->dlcap);
    kp->dl[kp->ndl++] = i;
}

/* The implicit pass, where it can be one (else 0: kept_patch lists the
 * moved lookups): every lookup that sees the step is in lk's uniform
 * prefix, the one definition they move to is a plain function of their
 * closures' size, and no other promoted module defines the name (which
 * latent_bound would ask of every one).  Asked again (dirty): bindings to
 * a promoted module, the lookups that bound the moved-to definition
 * before, the readers of its used[] if that changed, and every binding
 * that may read a used[] entry a moved lookup left (the spans). */
static int lazy_patch(struct analysis *c, struct group *gr)
{
    const struct image *im = c->im;
    struct kept *kp = gr->kept;
    int lo = 0, hi = kp->nlk, mt = -1, md = -1, nk = -1;
    while (lo < hi) {   /* J: the lookups that see the step (lk: the latest first) */
        int mid = lo + (hi - lo) / 2;
        if (kp->lk[mid].until >= c->step) lo = mid + 1; else hi = mid;
    }
    if (lo > kp->uni) return 0;
    const struct searchlist *sl = &im->locals[c->step - 1];
    if (lo) {
        const struct ask *a = &kp->lk[0].a;
        mt = lookup_joined(im, c->step, gr->name, gr->hash, a->ver, a->hid, &md);
        if (mt >= 0) {
            const struct def *yd = &im->mods[mt].m->defs[md];
            if (yd->bind == STB_GNU_UNIQUE ||
                (kp->usize >= 0 && (yd->kind != K_FUNC || weak_func(yd) || (int64_t)yd->size != kp->usize)) ||
                (nk = definer_of(gr, mt, md)) < 0)
                return 0;
            for (int q = 0; q < sl->n; q++) {
                int x = sl->idx[q], k = first_definer(gr, x);
                if (x != mt && c->pmark[x] == c->pass && k < gr->nd && gr->dm[k] == x) return 0;
            }
        }
    }
    kp->lazy = c->pass;
    kp->J = lo;
    kp->mt = mt;
    kp->md = md;
    kp->nk = nk;
    gr->b = kp->b;
    gr->n = kp->n;
    gr->used = kp->used;
    kp->ncp = kp->nu = kp->ndl = 0;
    for (int q = 0; q < sl->n; q++) {   /* f.local may change */
        int x = sl->idx[q];
        if (c->pmark[x] != c->pass) continue;
        for (int k = first_definer(gr, x); k < gr->nd && gr->dm[k] == x; k++)
            for (int j = kp->revo[k]; j < kp->revo[k + 1]; j++) dirty(c, gr, kp->rev[j]);
    }
    for (int j = 0; j < kp->norph; j++)
        if (c->pmark[kp->b[kp->orph[j]].target] == c->pass) dirty(c, gr, kp->orph[j]);
    if (mt < 0) return 1;   /* nothing moves */
    for (int j = kp->revo[nk]; j < kp->revo[nk + 1]; j++)
        if (kp->lkpos[kp->rev[j]] >= 0 && kp->lkpos[kp->rev[j]] < lo) dirty(c, gr, kp->rev[j]);
    renew(c, gr, nk);
    if (kp->mark[nk] == c->pass)
        for (int j = kp->rdro[nk]; j < kp->rdro[nk + 1]; j++) dirty(c, gr, kp->rdr[j]);
    for (int j = 0; j < kp->nsp && kp->sp[j].hi >= c->step; j++)
        if (kp->sp[j].lo < c->step) dirty(c, gr, kp->sp[j].i);
    return 1;
}

int kept_dirty(const struct group *gr, const int **dl)
{
    *dl = gr->kept->dl;
    return gr->kept->ndl;
}

/* The first kept capture, the best conf first, of a binding neither moved nor asked again */
int kept_clean(const struct analysis *c, const struct group *gr, int *conf)
{
    const struct kept *kp = gr->kept;
    for (int l = 0; l < 3; l++)
        for (int j = 0; j < kp->nlvl[l]; j++) {
            int i = kp->lvl[l][j];
            if (kept_moved(gr, i) || kp->dmark[i] == c->pass) continue;
            *conf = l;
            return i;
        }
    *conf = 3;
    return -1;
}

/* The first lookup from cur in the tree's node v (leaves lo .. hi - 1)
 * that sees step s with lev at most l, -1 none */
static int tree_first(const struct kept *kp, int v, int lo, int hi, int cur, int s, int l)
{
    if (hi <= cur || kp->tree[4 * v + l + 1] < s) return -1;
    if (hi - lo == 1) return lo;
    int mid = lo + (hi - lo) / 2, r = tree_first(kp, 2 * v, lo, mid, cur, s, l);
    return r >= 0 ? r : tree_first(kp, 2 * v + 1, mid, hi, cur, s, l);
}

/* The next lookup from cur that sees the step and whose bound can beat
 * the best so far (cb, 3 none; ib, its binding): lev below cb, or lev cb
 * before ib (the first of equals) */
int kept_next(const struct analysis *c, const struct group *gr, int cur, int cb, int ib)
{
    const struct kept *kp = gr->kept;
    int i1 = tree_first(kp, 1, 0, kp->tsz, cur, c->step, cb - 1);
    if (cb <= 2 && ib > cur) {
        int i2 = tree_first(kp, 1, 0, kp->tsz, cur, c->step, cb);
        if (i2 >= 0 && i2 < ib && (i1 < 0 || i2 < i1)) return i2;
    }
    return i1;
}

/* Before capture() asks binding i: patched in if it moved, the used[]
 * entries it reads made this pass's */
void kept_ready(struct analysis *c, struct group *gr, int i)
{
    struct kept *kp = gr->kept;
    if (kept_moved(gr, i) && kp->chg[i] != c->pass) move(c, gr, i, kp->mt, kp->md);
    for (int j = kp->clo[i]; j < kp->clo[i + 1]; j++) renew(c, gr, kp->cl[j]);
}

/* A latent pass on a kept group: the unpromoted bindings, with those the
 * promotion (joined at c->step) moves patched in, and the used[] entries
 * that changes.  A lookup moves only if it sees that step and did not find
 * its answer in the global scope before it (join0): then to the first
 * promoted module that defines the name, if one does (lookup_joined: one
 * question for the lookups asking one version).  DEEPBIND, and a unique
 * definition (the first lookup's), ask the whole lookup again. */
void kept_patch(struct analysis *c, struct group *gr)
{
    const struct image *im = c->im;
    struct kept *kp = gr->kept;
    if (lazy_patch(c, gr)) { c->lazy++; return; }
    c->listed++;
    const char *mver = NULL;
    int mhid = -1, mt = -1, md = -1;   /* lookup_joined's last question and answer */
    int nt = -1, nd = -1, nk = -1;     /* the last target moved to, its definer */
    gr->b = kp->b;
    gr->n = kp->n;
    gr->used = kp->used;
    kp->ncp = kp->nu = 0;
    for (int j = 0; j < kp->nlk && kp->lk[j].until >= c->step; j++) {
        int i = kp->lk[j].pos, d = -1, tg;
        struct binding *b = &gr->b[i];
        int t0 = b->target, unique = kp->lk[j].unique;
        if (!unique && c->join0[t0] && c->join0[t0] - 1 <= c->step) continue;
        struct ask a = kp->lk[j].a;
        if (unique || im->mods[b->binder].deepbind)
            tg = lookup(im, b->binder, gr->name, gr->hash, a.ver, a.hid, a.lazy, &d);
        else {
            if (mhid != a.hid || (mver != a.ver && (!mver || !a.ver || strcmp(mver, a.ver)))) {
                mver = a.ver;
                mhid = a.hid;
                mt = lookup_joined(im, c->step, gr->name, gr->hash, a.ver, a.hid, &md);
            }
            tg = mt;
            d = md;
            if (tg >= 0 && im->mods[tg].m->defs[d].bind == STB_GNU_UNIQUE)
                tg = lookup(im, b->binder, gr->name, gr->hash, a.ver, a.hid, a.lazy, &d);
        }
        if (tg < 0 || (tg == t0 && d == b->def)) continue;
        move(c, gr, i, tg, d);
        c->moved++;
        if (tg != nt || d != nd) { nt = tg; nd = d; nk = definer_of(gr, tg, d); }
        int k = nk;
        if (k >= 0 && (kp->fpass[k] != c->pass || i < kp->fpos[k])) { kp->fpass[k] = c->pass; kp->fpos[k] = i; }
    }
    for (int j = 0; j < kp->ncp; j++) renew(c, gr, kp->bk[kp->cm[j].i]);
    for (int j = 0; j < kp->ncp; j++) {
        const struct binding *b = &gr->b[kp->cm[j].i];
        if (b->target != nt || b->def != nd) { nt = b->target; nd = b->def; nk = definer_of(gr, nt, nd); }
        renew(c, gr, nk);
    }
}

/* After the pass: the kept bindings and used[] as the unpromoted pass left them */
void kept_unpatch(struct group *gr)
{
    struct kept *kp = gr->kept;
    for (int j = kp->ncp - 1; j >= 0; j--) gr->b[kp->cm[j].i] = kp->cm[j].old;
    for (int j = kp->nu - 1; j >= 0; j--) gr->used[kp->uu[j].k] = kp->uu[j].old;
    kp->ncp = kp->nu = 0;
    kp->lazy = -1;
    gr->b = NULL;
    gr->used = NULL;
    gr->n = 0;
}
