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
                  kp->chg, kp->mark, kp->vis, kp->fpass, kp->fpos, kp->upos, kp->uold, kp->cpos, kp->cold };
    for (size_t i = 0; i < sizeof p / sizeof p[0]; i++) free(p[i]);
    free(kp);
}

static int by_until(const void *a, const void *b)
{
    const struct look *x = a, *y = b;
    return (y->until > x->until) - (y->until < x->until);   /* the latest first */
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
        struct ask a = asked_by(im, sr);
        kp->lk[kp->nlk++] = (struct look){ i, unique ? INT_MAX : lookup_until(im, b->binder, a.lazy), unique, a };
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
    qsort(kp->lk, kp->nlk, sizeof *kp->lk, by_until);
    kp->chg = xcalloc(n ? n : 1, sizeof *kp->chg);
    kp->mark = xcalloc(nd, sizeof *kp->mark);
    kp->vis = xcalloc(nd, sizeof *kp->vis);
    kp->fpass = xcalloc(nd, sizeof *kp->fpass);
    kp->fpos = xcalloc(nd, sizeof *kp->fpos);
    gr->kept = kp;
}

/* Definer k's used[] entry again (index_used's, from its bindings this pass) */
static void renew(struct analysis *c, struct group *gr, int k)
{
    struct kept *kp = gr->kept;
    if (k < 0 || kp->vis[k] == c->pass) return;
    kp->vis[k] = c->pass;
    int best = -1;
    for (int j = kp->revo[k]; j < kp->revo[k + 1]; j++) {
        int p = kp->rev[j];
        if (kp->chg[p] != c->pass && (best < 0 || gr->b[p].conf < gr->b[best].conf)) best = p;
    }
    int p = kp->fpos[k];
    if (kp->fpass[k] == c->pass &&
        (best < 0 || gr->b[p].conf < gr->b[best].conf || (gr->b[p].conf == gr->b[best].conf && p < best)))
        best = p;
    if (best == gr->used[k]) return;
    if (kp->nu >= kp->ucap) {
        kp->ucap = kp->ucap ? 2 * kp->ucap : 8;
        kp->upos = xrealloc(kp->upos, kp->ucap * sizeof *kp->upos);
        kp->uold = xrealloc(kp->uold, kp->ucap * sizeof *kp->uold);
    }
    kp->upos[kp->nu] = k;
    kp->uold[kp->nu++] = gr->used[k];
    gr->used[k] = best;
    kp->mark[k] = c->pass;
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
        if (kp->ncp >= kp->cpcap) {
            kp->cpcap = kp->cpcap ? 2 * kp->cpcap : 8;
            kp->cpos = xrealloc(kp->cpos, kp->cpcap * sizeof *kp->cpos);
            kp->cold = xrealloc(kp->cold, kp->cpcap * sizeof *kp->cold);
        }
        kp->cpos[kp->ncp] = i;
        kp->cold[kp->ncp++] = *b;
        b->target = tg;
        b->def = d;
        kp->chg[i] = c->pass;
        if (tg != nt || d != nd) { nt = tg; nd = d; nk = definer_of(gr, tg, d); }
        int k = nk;
        if (k >= 0 && (kp->fpass[k] != c->pass || i < kp->fpos[k])) { kp->fpass[k] = c->pass; kp->fpos[k] = i; }
    }
    for (int j = 0; j < kp->ncp; j++) renew(c, gr, kp->bk[kp->cpos[j]]);
    for (int j = 0; j < kp->ncp; j++) {
        const struct binding *b = &gr->b[kp->cpos[j]];
        if (b->target != nt || b->def != nd) { nt = b->target; nd = b->def; nk = definer_of(gr, nt, nd); }
        renew(c, gr, nk);
    }
}

/* After the pass: the kept bindings and used[] as the unpromoted pass left them */
void kept_unpatch(struct group *gr)
{
    struct kept *kp = gr->kept;
    for (int j = kp->ncp - 1; j >= 0; j--) gr->b[kp->cpos[j]] = kp->cold[j];
    for (int j = kp->nu - 1; j >= 0; j--) gr->used[kp->upos[j]] = kp->uold[j];
    kp->ncp = kp->nu = 0;
    gr->b = NULL;
    gr->used = NULL;
    gr->n = 0;
}
