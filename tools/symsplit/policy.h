/* policy.c: what a finding is (its verdict class and severity) and what the
 * exit status is.  The printer, --json and main all read these; none of them
 * decides anything. */
#ifndef POLICY_H
#define POLICY_H
#include "symsplit.h"

/* Verdict classes: id, printed name, printed without --info. */
#define VERDICTS(X) \
    X(V_NOLOAD, "NOLOAD", 1)   /* ld.so would refuse to load the image */ \
    X(V_SPLIT, "SPLIT", 1)     /* a capture whose captured copy stays live */ \
    X(V_LATENT, "LATENT", 1)   /* one promotion (RTLD_GLOBAL) away from a capture */ \
    X(V_MAYBE, "MAYBE", 0)     /* a split by "possible" evidence only */ \
    X(V_COPY, "COPY", 1)       /* one library present in 2+ copies, each bound by its own users */ \
    X(V_COLLISION, "COLLISION", 1) /* two different libraries export the same names; none crossed into a live one */ \
    X(V_INFO, "INFO", 0)       /* the shape of a split, but nothing can diverge */
#define VCLASS_ITEM(id, name, shown) id,
enum vclass { VERDICTS(VCLASS_ITEM) V_NCLASS };
extern const char *const vclass_name[];
int vclass_shown(enum vclass v, int show_all);

struct decision {
    enum vclass cls;
    const char *sev;         /* high, med, low, info */
    const char *reason;      /* why nothing diverges (INFO), else NULL */
    char *owned;             /* reason, when it had to be formatted */
};
/* A capture (split.c) -> its class, severity and reason. */
void decide_capture(const struct image *im, const struct finding *f, struct decision *d);
/* Something ld.so would refuse (loadable.c); fragile: it loads from one directory only. */
void decide_noload(struct decision *d, int fragile);
/* A finding of a latent pass (one module assumed promoted): 1 and
 * d->cls = V_LATENT when it would be a split, else 0 (not reported). */
int decide_latent(struct decision *d);
/* Two different libraries sharing names (collide.c): SPLIT high when a
 * reference crossed while the library it was linked against stays in use
 * (certain or likely), else COLLISION. */
void decide_collision(struct decision *d, const struct collision *c);
/* A library in 2+ copies (copies.c): informative; sev from the state it holds. */
void decide_copy(struct decision *d, const char *sev);
void decision_free(struct decision *d);
/* Is a finding about name, among these modules, on the allowlist? */
int decide_allowed(const struct allow *a, const struct image *im, const char *name, const struct binding *b, int n);
/* 2 error, 3 an image cannot load, 1 split (with --strict: also LATENT, COPY, COLLISION), 0. */
int exit_status(const int count[V_NCLASS], int errors, int strict);
#endif
