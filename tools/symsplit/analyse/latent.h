/* What split.c and latent.c share: the analysis's groups of one name, the
 * sources their bindings come from, the passes' state (split.c makes and
 * analyses them), and the unpromoted pass kept for the latent passes
 * (latent.c patches in only the lookups a promotion moves). */
#ifndef LATENT_H
#define LATENT_H
#include "analyse/analyse.h"
#include <elf.h>

/* Where a group's bindings come from, in the order a pass meets them: a
 * module's reference (looked up), its own definition (its self-binding, and
 * a lookup when it reaches it through a relocation), a handle's dlsym (one
 * binding, the same in every pass: a local searchlist never changes).  seq:
 * the source's place among all of them, which orders the groups. */
enum { SRC_REF, SRC_DEF, SRC_HANDLE };
struct source {
    int seq, kind, mod, idx;
    signed char self, how, conf;     /* SRC_DEF: self_binding()'s answer, asked once (self -1: not yet) */
};
struct group {
    const char *name; uint32_t hash;
    struct source *src; int nsrc, scap;
    int *dm, *dk; int nd, dcap;      /* the definers: module index (ascending), def index */
    int lookups;                     /* sources that look the name up (a reference, a self-reference) */
    int order;                       /* this pass: the seq of the source that made the group first */
    int mark;                        /* the pass that selected it */
    int failed;                      /* this pass: lookups that found nothing */
    struct kept *kept;               /* the unpromoted pass's, for the latent passes (NULL: none kept) */
    /* one pass's: */
    struct binding *b; int n, cap;
    int *bs;                         /* bs[i]: the source of binding i when it is a lookup, else -1 */
    int *used;                       /* used[k]: the first binding of definer k at its best confidence, -1 none */
};
/* What a source's lookup asks: the version, hidden or not, lazy or not */
struct ask { const char *ver; int hid, lazy; };
/* What a group's unpromoted pass gave, kept so that a latent pass makes
 * again only what the promotion changes: the bindings (patched in place for
 * the pass, then restored), each definer's strongest one (used), each
 * binding's strongest capture, and for each binding the definers in its
 * binder's closure (the used[] entries that capture reads for it). */
struct kept {
    struct binding *b; int n;
    int *used;
    struct finding *f;               /* f[i]: binding i's strongest capture, */
    signed char *fc;                 /* fc[i]: its conf, -1 none (read in every pass: kept apart) */
    int *cl, *clo, ncl, clcap;       /* binding i's definers: cl[clo[i]] .. cl[clo[i + 1] - 1] */
    int *bk;                         /* bk[i]: the definer binding i binds, -1 none */
    int *fixed, *nlook;              /* per definer: best conf of the bindings no promotion moves (-1 none); lookups bound to it */
    int *rev, *revo;                 /* per definer: the bindings to it, ascending */
    /* the lookups, the latest step a promotion moves them at first (until:
     * the last step they see, and before the step their answer joined the
     * global scope at, if it did), with what each asks and whether its
     * answer is unique: read in every latent pass, here and not from the
     * module (one cache miss per plugin per pass) */
    struct look { int pos, until, unique; struct ask a; } *lk; int nlk;
    struct dfact { uint64_t size; signed char kind, weak; } *df;   /* per definer: its definition's */
    int *chg;                        /* per binding: the pass that moved it */
    int *mark, *vis, *fpass, *fpos;  /* per definer: the pass that changed used[k], that asked it again,
                                      * that moved a binding to it, and the first binding moved to it */
    struct { int k, old; } *uu; int nu, ucap;                    /* this pass's used[] changes, to undo */
    struct { int i; struct binding old; } *cm; int ncp, cpcap;   /* this pass's moved bindings, to undo */
    /* An implicit pass (kept_lazy): the moved lookups are never listed.
     * Where the lookups that see a step ask one question and their
     * closures' definers are functions of one size, a promotion moves every
     * one of them to one definition, and a bound on each one's capture is
     * known before the pass (lev); a pass asks only what can beat the best
     * so far, found through a tree over the bindings. */
    int *lkpos;                      /* per binding: its place in lk, -1 none (it never moves) */
    int uni; int64_t usize;          /* lk[0 .. uni - 1] ask one question, plain, closures of usize functions (-2 none) */
    int *orph, norph;                /* bindings to no definer (rev[] lacks them) that read one */
    int *pmin;                       /* pmin[j]: the first binding of lk[0 .. j - 1] */
    int *tree, tsz;                  /* per node, per level -1 .. 2: the latest until of a lookup whose lev is at most that */
    int *lvl[3], nlvl[3];            /* the bindings whose kept capture has conf 0, 1, 2, ascending */
    struct span { int lo, hi, i; } *sp; int nsp;   /* binding i reads a definer a lookup of step lo < s <= hi leaves */
    int *rdr, *rdro;                 /* per definer: the bindings whose closure holds it */
    int lazy, J, mt, md, nk;         /* the implicit pass: lk[0 .. J - 1] see it, moved to (mt, md), definer nk */
    int *dmark, *dl, ndl, dlcap;     /* its bindings to ask again (dirty) */
};
struct slot { const char *name; uint32_t hash; int ndef, last, group; };
struct names { struct slot *s; size_t mask; };

/* x's best self-binding of a name y defines (component()), memoised per
 * pair asked in one pass: a map, not an n-by-n table (a process of
 * thousands of modules asks about few pairs in a pass, but about n pairs
 * in each of n latent passes) */
struct comp { signed char conf; char how; const char *name; };
struct compmap { uint64_t *key; struct comp *val; size_t cap, n; };   /* key: (x, y) + 1, 0 empty */
/* r's dependency closure: its module indices, ascending */
struct closure { int *idx; int n; };

/* What one pass keeps for the next: every fact here but the pass's own
 * (bindings, component()'s answers, entered()'s) is the same whoever is in
 * the global scope: names, where their bindings come from, closures. */
struct analysis {
    const struct image *im;
    struct names t;
    int naive;
    struct group *g; int ng, gcap;
    int nseq;
    struct closure *closure;         /* closure[r], made on first use (idx NULL: not yet) */
    int *seen, stamp;                /* closure_of's marks, one int per module */
    struct compmap comp;             /* this pass's component() answers */
    struct binding *handles; int nhandles, hcap;   /* what the host dlsyms, for component() */
    int *hhead, *hnext;              /* the handles bound to each module, in order (-1 ends) */
    struct pairs *pairs;             /* different libraries sharing names (collide.c), this pass's */
    char *entered;                   /* entered()'s answers, one per module (a pass with a process) */
    char *inlocal;                   /* per module: in some --dlopen's searchlist (a dlsym may find its exports) */
    int asked;                       /* capture() asked shared_state() (another name's bindings) */
    /* latent passes: the unpromoted model, analysed once (based) */
    int based, differ;               /* differ: two different libraries share names: every pass is whole */
    int *join0;                      /* 1 + the step it joined the global scope at unpromoted, 0 not there */
    int *pmark;                      /* the pass whose promotion made the module global */
    signed char *cbound;             /* comp_bound()'s answers, -3 not asked */
    int *sens; int nsens, senscap;   /* the sensitive groups */
    int pass;                        /* marks groups selected by this pass */
    int step;                        /* the step the promotion of this latent pass joins at */
    int whole, part;                 /* latent passes made whole (the fallback), by the promoted names */
    long lazy, listed, moved, calls; /* group passes implicit, listed (patched one lookup at a time);
                                      * lookups those moved; bindings capture() asked in either */
};

/* Asked by both files, here so that latent.c calls nothing of split.c
 * (split.c calls latent.c: one more call back would be a circle, which
 * dev/layers fails). */

/* The first definer of gr in module x or after it (dm ascending). */
static inline int first_definer(const struct group *gr, int x)
{
    int lo = 0, hi = gr->nd;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (gr->dm[mid] < x) lo = mid + 1; else hi = mid;
    }
    return lo;
}

static inline int weak_func(const struct def *d) { return d->kind == K_FUNC && d->bind == STB_WEAK; }

/* What source sr's lookup asks (a reference's version, or a definition's own) */
static inline struct ask asked_by(const struct image *im, const struct source *sr)
{
    struct module *m = im->mods[sr->mod].m;
    if (sr->kind == SRC_REF) {
        const struct ref *rf = &m->refs[sr->idx];
        return (struct ask){ version_name(m, rf->ver), m->has_versym && rf->ver >= 2 ? m->vers[rf->ver].hidden : 0, rf->lazy };
    }
    const struct def *df = &m->defs[sr->idx];
    return (struct ask){ version_name(m, df->ver), 0, df->self_lazy };
}

/* latent.c: the unpromoted pass kept (kept_new before its capture(),
 * kept_finish after), and a latent pass on it (kept_patch before, kept_unpatch
 * after; capture() asks latent_bound and unmoved_same of each binding) */
struct kept *kept_new(const struct group *gr);
void kept_finish(struct analysis *c, struct group *gr, struct kept *kp);
void kept_free(struct kept *kp);
void kept_patch(struct analysis *c, struct group *gr);
void kept_unpatch(struct group *gr);
int latent_bound(struct analysis *c, struct group *gr, int i, int *must);
int unmoved_same(const struct analysis *c, const struct group *gr, int i);
/* an implicit pass (kept_patch chose it): binding i as the pass has it,
 * whether it moved, the best kept capture no change touches (its conf in
 * *conf, 3 none), the bindings to ask again, the next moved binding from
 * cur whose bound can beat (cb, ib), and binding i made ready to ask */
int kept_lazy(const struct analysis *c, const struct group *gr);
const struct binding *kept_at(const struct analysis *c, const struct group *gr, int i, struct binding *tmp);
int kept_moved(const struct group *gr, int i);
int kept_clean(const struct analysis *c, const struct group *gr, int *conf);
int kept_dirty(const struct group *gr, const int **dl);
int kept_next(const struct analysis *c, const struct group *gr, int cur, int cb, int ib);
void kept_ready(struct analysis *c, struct group *gr, int i);
#endif
