/* The static TLS the --dlopens take from the surplus, and the opens that
 * may find no room in it (--bindings' RISK).  A block reached by an
 * initial-exec relocation of an opened module (named, or the module's own
 * with no name) needs a static TLS offset when that open relocates
 * (_dl_allocate_static_tls); the loader takes it from what the start-up
 * layout left over, and refuses the open, "cannot allocate memory in static
 * TLS block", when none is left.  How much is left is the run's: glibc's
 * constants, its tunables (glibc.rtld.optional_static_tls, glibc.rtld.nns:
 * GLIBC_TUNABLES in the run's environment), what earlier opens took (TLS
 * descriptors take up to optional_static_tls of it too).  Measured, an
 * opened module reaching its dependency's block initial-exec, the pair
 * opened RTLD_NOW: glibc 2.36 (libc's block 144 bytes) opens it up to a
 * 1712-byte block and refuses 1728; glibc 2.41 opens 1616, refuses 1712;
 * with GLIBC_TUNABLES=glibc.rtld.optional_static_tls=8192 a 4096-byte block
 * opens, with 0 a 1408-byte one is refused.  So nothing is judged failed:
 * below the least surplus glibc 2.32 and later leave with their default
 * tunables the open fits (the start-up block is rounded up, never down);
 * above it every binding of the open is marked, cannot know. */
#include "base/symsplit.h"
#include <stdlib.h>

void static_tls_marks(const struct image *im, struct bound *b, int n)
{
    /* placed[t]: the open (step) that gives module t's block its static offset, 0 none */
    int *placed = xcalloc(im->n ? im->n : 1, sizeof *placed);
    char *ran = xcalloc(im->nlocals + 1, 1);   /* an open the process made (a binding observed): it fitted */
    for (int t = 0; t < im->n; t++)
        if (im->mods[t].step && im->mods[t].m->tls_ie_own && im->mods[t].m->tls_size) placed[t] = im->mods[t].step;
    for (int k = 0; k < n; k++) {
        int f = b[k].from, t = b[k].target, s = im->mods[f].step;
        if (b[k].observed && s <= im->nlocals) ran[s] = 1;
        if (t < 0 || !s || !im->mods[t].step || !im->mods[t].m->tls_size || !im->mods[f].m->looks[b[k].look].ie) continue;
        if (!placed[t] || placed[t] > s) placed[t] = s;
    }
    for (int s = 1; s <= im->nlocals; s++) {
        uint64_t need = 0;
        int desc = 0, block = -1;
        for (int t = 0; t < im->n; t++) {   /* every block placed so far, each at its worst alignment */
            const struct module *m = im->mods[t].m;
            if (placed[t] && placed[t] <= s) need += m->tls_size + m->tls_align - 1;
            if (placed[t] == s && block < 0) block = t;
            desc |= im->mods[t].step && im->mods[t].step <= s && m->tls_desc;
        }
        if (desc) need += STATIC_TLS_OPTIONAL;
        if (block < 0 || ran[s] || need <= STATIC_TLS_FLOOR) continue;
        for (int j = 0; j < n; j++)
            if (im->mods[b[j].from].step == s && !b[j].risk) { b[j].tls_need = need; b[j].tls_block = block; }
    }
    free(ran);
    free(placed);
}
