/* policy.c: what a finding is (its verdict class and severity) and what the
 * exit status is.  The printer, --json and main all read these; none of them
 * decides anything. */
#ifndef POLICY_H
#define POLICY_H
#include "analyse/analyse.h"

/* allow.c: the allowlist, one 'SYMBOL [MODULE]' glob pair a line */
struct allow *allow_load(const char *path, char **err);
int allow_match(const struct allow *a, const char *sym, const char *const *mods, int nmods);

/* Verdict classes: id, printed name, printed without --info. */
#define VERDICTS(X) \
    X(V_NOLOAD, "NOLOAD", 1)   /* ld.so would refuse to load the image */ \
    X(V_SPLIT, "SPLIT", 1)     /* a capture whose captured copy stays live */ \
    X(V_LATENT, "LATENT", 1)   /* one promotion (RTLD_GLOBAL) away from a capture */ \
    X(V_MAYBE, "MAYBE", 0)     /* a split by "possible" evidence only */ \
    X(V_COPY, "COPY", 1)       /* one library present in 2+ copies, each bound by its own users */ \
    X(V_COLLISION, "COLLISION", 1) /* two different entities (libraries, or definitions of one name) share names */ \
    X(V_INFO, "INFO", 0)       /* the shape of a split, but nothing can diverge */
#define VCLASS_ITEM(id, name, shown) id,
enum vclass { VERDICTS(VCLASS_ITEM) V_NCLASS };
extern const char *const vclass_name[];
int vclass_shown(enum vclass v, int show_all);

struct decision {
    enum vclass cls;
    const char *sev;         /* high, med, low, info */
    int crossed;             /* COLLISION: a reference already bound from one entity to the other */
    int scoped;              /* COLLISION: two majors harmful by scope alone (decide_collision) */
};
/* The findings of one pass graded in place: each item's class and severity
 * (item.cls, csev), or dropped (a latent pass keeps what
 * the promotion adds; a partition beside a split; a collision whose names
 * do not meet) or suppressed (the allowlist). */
struct policy;
struct policy *policy_new(struct allow *allow);
void policy_grade(struct policy *p, const struct image *im, struct findings *fs);
int policy_suppressed(const struct policy *p);
/* 2 error, 3 an image cannot load, 1 split or a COLLISION whose reference
 * crossed (crossed: how many such rows; with --strict: also LATENT, COPY,
 * COLLISION), 0. */
int exit_status(const int count[V_NCLASS], int crossed, int errors, int strict);
#endif
