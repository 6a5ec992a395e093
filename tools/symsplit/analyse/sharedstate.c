/* Split state behind two names: a library X exports f and g, both working
 * on one private table T of X.  Another module Y carries its own copy of f
 * (the executable linked f's object from X's static archive, or -rdynamic,
 * a vendored part), and every reference to f binds Y's; g exists only in X
 * (or binds X's) and its users bind X's.  Per name there is no split (f has
 * one live definition, g one definition), yet f writes Y's T while g reads
 * X's, which nobody wrote.  The same shape comes from -Bsymbolic-functions,
 * protected visibility or a version script applied to some names only.
 *
 * The evidence is the code: funcstate.c names the cells of X's writable
 * state that X's dead copy of f and X's live g touch; a cell one writes and
 * the other reads (or takes the address of) is the shared state.  Named by
 * .symtab, that is likely; in a stripped X the cell has no name (it may be
 * a lock or a flag every function of X touches): possible only, a MAYBE,
 * never a SPLIT by guess.  Without a disassembly (not x86-64) there is no
 * evidence at all. */
#include "analyse/analyse.h"
#include <stdlib.h>
#include <string.h>

#define MAXG 64   /* functions of X tried per question: a bound on the work */

/* A cell of X that one touch writes and the other reads, or 0. */
uint64_t common_cell(const struct touches *a, const struct touches *b, int *found)
{
    *found = 0;
    for (int i = 0; i < a->n; i++)
        for (int j = 0; j < b->n; j++) {
            if (a->v[i].addr != b->v[j].addr) continue;
            if (((a->v[i].acc & TOUCH_WRITE) && (b->v[j].acc & TOUCH_READ)) ||
                ((b->v[j].acc & TOUCH_WRITE) && (a->v[i].acc & TOUCH_READ))) {
                *found = 1;
                return a->v[i].addr;
            }
        }
    return 0;
}

/* How side t touches addr: the union of its accesses (TOUCH_*), 0 for none. */
static int access_to(const struct touches *t, uint64_t addr)
{
    int acc = 0;
    for (int i = 0; i < t->n; i++)
        if (t->v[i].addr == addr) acc |= t->v[i].acc;
    return acc;
}

/* A cell one side writes and the other only reads (rt_put fills the table
 * rt_total reads), or 0.  A cell each side both writes and reads is one each
 * keeps for itself (a lock, a once-flag, a cache filled where it is read:
 * libunwind's init state, a GType id): neither relies on the other's write. */
uint64_t one_way_cell(const struct touches *a, const struct touches *b, int *found)
{
    *found = 0;
    for (int i = 0; i < a->n; i++) {
        int x = access_to(a, a->v[i].addr), y = access_to(b, a->v[i].addr);
        if (((x & TOUCH_WRITE) && y == TOUCH_READ) || ((y & TOUCH_WRITE) && x == TOUCH_READ)) {
            *found = 1;
            return a->v[i].addr;
        }
    }
    return 0;
}

int shared_state(const struct image *im, struct finding *f)
{
    struct module *X = im->mods[f->x].m, *Y = im->mods[f->target].m;
    const struct def *xd = &X->defs[f->xdef], *yd = &Y->defs[f->def];
    if (xd->kind != K_FUNC || yd->kind != K_FUNC || xd->hidden_vis || yd->hidden_vis) return -1;
    /* a pair in which nothing can diverge anyway (gnulib-style copies of C
     * library code, vague linkage, a forwarding shim: state.c) needs no
     * evidence of a live copy: no row, not even an INFO one */
    char *owned;
    int proven;
    const char *harmless = capture_harmless(im, f, &owned, &proven);
    free(owned);
    if (harmless) return -1;
    /* state written through f lives in Y: Y's copy must reach state of its own */
    if (function_state(Y, yd) != 1) return -1;
    struct touches tf;
    if (function_touches(X, xd, &tf) < 0 && !tf.n) { free(tf.v); return -1; }
    if (!tf.n) { free(tf.v); return -1; }
    unsigned char *tried = xcalloc(X->ndefs ? X->ndefs : 1, 1);
    int best = -1, ntried = 0;
    for (int r = 0; r < im->n && best != C_LIKELY && ntried < MAXG; r++) {
        const struct module *R = im->mods[r].m;
        for (int k = 0; k < R->nrefs && best != C_LIKELY && ntried < MAXG; k++) {
            const struct ref *rf = &R->refs[k];
            if (rf->hash == xd->hash && !strcmp(rf->name, xd->name)) continue;
            int gi = module_find_defs(X, rf->name, rf->hash);
            if (gi < 0 || tried[gi]) continue;
            const struct def *gd = &X->defs[gi];
            if (gd->kind != K_FUNC || !gd->size || gd->hidden_vis) continue;
            const char *ver = version_name(R, rf->ver);
            int d;
            if (ref_lookup(im, r, rf, &d) != f->x || d != gi) continue;
            tried[gi] = 1;
            ntried++;
            struct touches tg;
            function_touches(X, gd, &tg);
            int found, has;
            uint64_t cell = common_cell(&tf, &tg, &found);
            free(tg.v);
            if (!found) continue;
            const char *obj = symtab_object_at(X, cell, &has);
            int conf = obj ? C_LIKELY : C_POSSIBLE;
            if (best >= 0 && conf >= best) continue;
            best = conf;
            f->ev_how = H_LOOKUP;
            f->ev_binder = r;
            f->ev_name = gd->name;
            f->ev_state = obj;
            f->ev_addr = cell;
            f->ev_seen = !im->obs ? -1 : observed_module(im, r, rf->name, ver) == f->x;
        }
    }
    free(tried);
    free(tf.v);
    return best;
}
