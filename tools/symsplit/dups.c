/* Names defined by more than one module in the whole run.  Only such names
 * can split, so each module keeps the list of its definitions whose name some
 * other module defines too; an image then looks at those lists alone instead
 * of at every definition it contains (libLLVM alone exports ~50k names).
 * The table is filled once per module, when it is parsed. */
#include "symsplit.h"
#include <stdlib.h>
#include <string.h>

struct owner { const char *name; uint32_t hash; struct module *m; int def; };
static struct owner *tab;
static size_t cap, used;

static void mark(struct module *m, int k)
{
    if (m->defs[k].dup) return;
    m->defs[k].dup = 1;
    GROW(m->dups, m->ndups, m->dupcap);
    m->dups[m->ndups++] = k;
}

static struct owner *slot(const char *name, uint32_t hash)
{
    size_t i = hash & (cap - 1);
    while (tab[i].name && (tab[i].hash != hash || strcmp(tab[i].name, name))) i = (i + 1) & (cap - 1);
    return &tab[i];
}

void dups_register(struct module *m)
{
    if (2 * (used + m->ndefs) > cap) {
        struct owner *old = tab;
        size_t ocap = cap;
        cap = cap ? cap : 1 << 16;
        while (2 * (used + m->ndefs) > cap) cap *= 2;
        tab = xcalloc(cap, sizeof *tab);
        for (size_t i = 0; i < ocap; i++)
            if (old[i].name) *slot(old[i].name, old[i].hash) = old[i];
        free(old);
    }
    for (int k = 0; k < m->ndefs; k++) {
        struct owner *o = slot(m->defs[k].name, m->defs[k].hash);
        if (!o->name) {
            *o = (struct owner){ m->defs[k].name, m->defs[k].hash, m, k };
            used++;
        } else if (o->m != m) {
            mark(o->m, o->def);   /* the first definer learns it has company */
            mark(m, k);
        }
    }
}
