/* funcstate.c's tables of one module, shared with reach.c: where its
 * functions begin and end (symbols and .eh_frame), its code, its own
 * writable state and its PLT.  Built once per module, on first use. */
#ifndef FSTATE_H
#define FSTATE_H
#include "base/symsplit.h"

struct range { uint64_t lo, hi; const unsigned char *bytes; };
struct fstate {
    struct range *fns; int nfns;       /* function bounds, sorted by lo (one function may appear twice) */
    struct range *code; int ncode;     /* executable sections (bytes) */
    struct range *priv; int npriv;     /* writable sections that are a module's own state */
    struct range plt;                  /* .plt/.plt.sec: calls out of the module */
    unsigned char **starts;            /* per function: bitmap of instruction starts, decoded once */
};
const struct fstate *fstate_of(struct module *m);
const struct range *range_in(const struct range *r, int n, uint64_t a);   /* the range holding a, or NULL */
#endif
