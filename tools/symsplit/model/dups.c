/* Names defined by more than one module of one image.  Only such names can
 * split, so each module keeps the list of its definitions whose name some
 * other module of the image defines too; the analysis then looks at those
 * lists alone instead of at every definition the image contains (libLLVM
 * alone exports ~50k names).
 * The lists are made per image, when its closure is complete: a run-wide
 * table would hold every name of every library the run ever parsed, and the
 * modules with it (the system sweep: 32 MiB of table alone), and an image's
 * rows would depend on which images came before it.  The table is reused
 * from image to image; a generation number empties it. */
#include "base/symsplit.h"
#include <stdlib.h>
#include <string.h>

/* 16 bytes: the name is read through the definition, on a hash match only */
struct owner { uint32_t hash, gen; int mod, def; };
static struct owner *tab;
static size_t cap;
static uint32_t gen;
static const struct image *cur;

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
    while (tab[i].gen == gen &&
           (tab[i].hash != hash || strcmp(cur->mods[tab[i].mod].m->defs[tab[i].def].name, name)))
        i = (i + 1) & (cap - 1);
    return &tab[i];
}

void dups_image(const struct image *im)
{
    size_t total = 0;
    for (int i = 0; i < im->n; i++) {   /* the lists of the image before */
        struct module *m = im->mods[i].m;
        for (int j = 0; j < m->ndups; j++) m->defs[m->dups[j]].dup = 0;
        m->ndups = 0;
        total += m->ndefs;
    }
    if (2 * total > cap) {
        free(tab);
        cap = cap ? cap : 1 << 12;
        while (2 * total > cap) cap *= 2;
        tab = xcalloc(cap, sizeof *tab);
        gen = 0;
    }
    if (!++gen) {   /* wrapped: every slot could look current */
        memset(tab, 0, cap * sizeof *tab);
        gen = 1;
    }
    /* in load order, each module's definitions in its own order */
    cur = im;
    for (int i = 0; i < im->n; i++) {
        struct module *m = im->mods[i].m;
        for (int k = 0; k < m->ndefs; k++) {
            /* the table is larger than the caches: ask for a slot well before it is probed */
            if (k + 32 < m->ndefs) __builtin_prefetch(&tab[m->defs[k + 32].hash & (cap - 1)]);
            struct owner *o = slot(m->defs[k].name, m->defs[k].hash);
            if (o->gen != gen)
                *o = (struct owner){ m->defs[k].hash, gen, i, k };
            else if (o->mod != i) {
                mark(im->mods[o->mod].m, o->def);   /* the first definer learns it has company */
                mark(m, k);
            }
        }
    }
}
