/* The image of a program and its --dlopens, each open as ld.so makes it:
 * the closure's searchlist (closure.c), then the relocation the open
 * makes: an open the loader refuses (openfail.c) is undone, the next open
 * starts from what was there before it; a --pid what-if opens the same way
 * (image_live.c).  Apart from closure.c because the
 * check is a symbol lookup (bind.c), which reads what a process did
 * (observed.c, image_live.c), which builds on the closure. */
#include "base/symsplit.h"
#include <stdlib.h>

int image_open(struct image *im, const struct dlopen_req *dl, char **err)
{
    struct openmark mk;
    struct openfail f;
    int nmissing = im->nmissing;
    if (image_dlopen_begin(im, dl, &mk, err)) return -1;
    /* a NEEDED no search finds fails the open before any relocation: the
     * cannot-load finding (analyse/loadable.c) says so, its symbols unknown */
    if (im->nmissing > nmissing) { image_dlopen_end(im, dl, mk); return 0; }
    if (mk.before < im->n && open_fails(im, mk.before, dl->path, &f)) {   /* refused: no step of its own */
        image_dlopen_undo(im, mk);
        im->fails = xrealloc(im->fails, (im->nfails + 1) * sizeof *im->fails);
        im->fails[im->nfails++] = f;
        return 0;
    }
    image_dlopen_end(im, dl, mk);
    return 0;
}

int image_build(struct image *im, const char *exe, const struct dlopen_req *dl, int ndl, char **err)
{
    if (image_startup(im, exe, err)) return -1;
    for (int d = 0; d < ndl && !im->mods[0].m->is_static; d++)
        if (image_open(im, &dl[d], err)) return -1;
    dups_image(im);
    return 0;
}
