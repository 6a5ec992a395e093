/* From bindings to verdicts.  Every module's view of every name is collected
 * (references resolved through its scopes; own definitions it binds directly);
 * a name is split when two of those views land on different definitions that
 * are the same interface (same version, or one side unversioned).  Different
 * versions of one name are intentional coexistence, not a split. */
#include "symsplit.h"
#include "report.h"
#include <stdlib.h>
#include <string.h>

struct group { const char *name; struct binding *b; int n, cap; };

/* Names of one image, keyed by the hash .dynsym parsing already computed:
 * how many modules define each, and its group of bindings. */
struct slot { const char *name; uint32_t hash; int ndef, last, group; };
struct names { struct slot *s; size_t mask; };

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

static const char *vname(const struct module *m, const struct def *d)
{
    return m->has_versym && d->ver < m->nvers ? m->vers[d->ver].name : NULL;
}

static void add(struct slot *sl, struct group **g, int *ng, int *gcap, struct binding b)
{
    if (!sl->group) {
        GROW(*g, *ng, *gcap);
        (*g)[*ng] = (struct group){ .name = sl->name };
        sl->group = ++*ng;
    }
    struct group *gr = &(*g)[sl->group - 1];
    GROW(gr->b, gr->n, gr->cap);
    gr->b[gr->n++] = b;
}

/* Are two bound definitions the same interface? */
static int same_interface(const struct image *im, const struct binding *x, const struct binding *y)
{
    if (x->target == y->target && x->def == y->def) return 0;
    if (x->target == y->target) return 0;           /* two versions inside one module */
    const struct module *a = im->mods[x->target].m, *b = im->mods[y->target].m;
    const char *va = vname(a, &a->defs[x->def]), *vb = vname(b, &b->defs[y->def]);
    /* a base version (index 1: the soname) counts as unversioned */
    if (a->defs[x->def].ver < 2) va = NULL;
    if (b->defs[y->def].ver < 2) vb = NULL;
    return !va || !vb || !strcmp(va, vb);
}

int analyse_image(struct report *r, const struct image *im)
{
    /* Pass 1: which names have definitions in two or more modules.  Only
     * those can split, so only their references are looked up at all. */
    size_t total = 0;
    for (int i = 0; i < im->n; i++) total += im->mods[i].m->ndups;
    struct names t = { 0 };
    int naive = 0;   /* what `nm -D | sort | uniq -d` over the closure would say */
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
    for (size_t i = 0; i <= t.mask && !naive; i++) naive = t.s[i].ndef >= 2;
    report_naive(r, naive);
    /* Pass 2: every module's view of those names. */
    struct group *g = NULL;
    int ng = 0, gcap = 0;
    for (int i = 0; i < im->n; i++) {
        struct module *m = im->mods[i].m;
        for (int k = 0; k < m->nrefs; k++) {
            const struct ref *rf = &m->refs[k];
            struct slot *sl = find(&t, rf->name, rf->hash, 0);
            if (!sl || sl->ndef < 2) continue;
            const char *ver = m->has_versym && rf->ver >= 2 ? m->vers[rf->ver].name : NULL;
            int hid = m->has_versym && rf->ver >= 2 ? m->vers[rf->ver].hidden : 0, d;
            int tg = lookup(im, i, rf->name, rf->hash, ver, hid, -1, &d);
            if (tg >= 0) add(sl, &g, &ng, &gcap, (struct binding){ i, tg, d, H_LOOKUP, C_CERTAIN });
        }
        for (int j = 0; j < m->ndups; j++) {
            int k = m->dups[j];
            const struct def *df = &m->defs[k];
            struct slot *sl = find(&t, df->name, df->hash, 0);
            if (sl->ndef < 2) continue;
            struct binding b = { i, i, k, H_EXE_OWN, C_CERTAIN };
            if (i == 0 && !df->hidden_vis) {
                if (df->kind != K_OTHER) add(sl, &g, &ng, &gcap, b);   /* the executable is first in every scope */
                continue;
            }
            int self = self_binding(m, k, &b.how, &b.conf);
            if (self) add(sl, &g, &ng, &gcap, b);
            /* an interposable self-reference is an ordinary lookup; a library
             * can have both kinds of call sites */
            if (df->self_reloc && (!self || b.how == H_DIRECT)) {   /* interposable self-reference: an ordinary lookup */
                const char *ver = df->ver >= 2 ? vname(m, df) : NULL;
                int d, tg = lookup(im, i, df->name, df->hash, ver, 0, -1, &d);
                if (tg >= 0) add(sl, &g, &ng, &gcap, (struct binding){ i, tg, d, H_LOOKUP, C_CERTAIN });
            }
        }
    }
    int splits = 0;
    for (int k = 0; k < ng; k++) {
        struct group *gr = &g[k];
        /* distinct definitions bound (usually one); rep = a binding of each;
         * open = someone reaches it through a scope, not by self-binding */
        int rep[8], open[8], nd = 0;
        for (int i = 0; i < gr->n; i++) {
            int j = 0;
            while (j < nd && (gr->b[rep[j]].target != gr->b[i].target || gr->b[rep[j]].def != gr->b[i].def)) j++;
            if (j == nd) {
                if (nd == 8) continue;
                rep[nd] = i;
                open[nd++] = 0;
            }
            open[j] |= gr->b[i].how == H_LOOKUP || gr->b[i].how == H_EXE_OWN;
        }
        /* Two libraries that each keep a private, self-bound copy that nobody
         * reaches through a scope are encapsulated, not split: a split needs
         * one copy that the scope hands out and another that someone keeps. */
        int x = -1, y = -1;
        for (int a = 0; a < nd && y < 0; a++)
            for (int b = a + 1; b < nd; b++)
                if ((open[a] || open[b]) && same_interface(im, &gr->b[rep[a]], &gr->b[rep[b]])) {
                    x = rep[a];
                    y = rep[b];
                    break;
                }
        if (y >= 0) splits += report_split(r, im, gr->name, gr->b, gr->n, x, y);
        free(gr->b);
    }
    free(g);
    free(t.s);
    return splits;
}
