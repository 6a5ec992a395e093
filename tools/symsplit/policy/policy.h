/* policy.c: what a finding is (its verdict class and severity) and what the
 * exit status is.  The printer, --json and main all read these; none of them
 * decides anything. */
#ifndef POLICY_H
#define POLICY_H
#include "analyse/analyse.h"

/* allow.c: the allowlist, one 'SYMBOL [MODULE]' glob pair a line */
struct allow *allow_load(const char *path, char **err);
int allow_match(const struct allow *a, const char *sym, const char *const *mods, int nmods);

/* Verdict classes, one line each: id, printed name, printed without --info;
 * its count in the summary (the --json key, the table's words, the part it
 * is in: 1 before the run's own counts, 2 after; harm: the count of rows
 * that are harmful follows it); the exit status a row of it sets, without
 * and with --strict (the highest wins; an error is 2 before all); the
 * highest severity a row of it carries (most): a LATENT row is one
 * promotion away from harm, not harm (a process that ran with it ran
 * well), and a COPY row's copies are each bound by their own users: the
 * state they hold is at stake only when something crosses, which another
 * row says. */
#define VERDICTS(X) \
    /* id          name         shown key           words            part harm exit strict most */ \
    X(V_NOLOAD,    "NOLOAD",    1,    "noload",     "cannot load",    2,  0,   3,   3, "high") /* ld.so would refuse to load the image */ \
    X(V_SPLIT,     "SPLIT",     1,    "splits",     "split(s)",       1,  0,   1,   1, "high") /* a capture whose captured copy stays live */ \
    X(V_LATENT,    "LATENT",    1,    "latent",     "latent",         2,  0,   0,   1, "med" ) /* one promotion (RTLD_GLOBAL) away from a capture */ \
    X(V_MAYBE,     "MAYBE",     0,    "maybe",      "maybe",          1,  0,   0,   0, "high") /* a split by "possible" evidence only */ \
    X(V_COPY,      "COPY",      1,    "copies",     "library copies", 2,  0,   0,   1, "med" ) /* one library present in 2+ copies, each bound by its own users */ \
    X(V_COLLISION, "COLLISION", 1,    "collisions", "collisions",     2,  1,   0,   1, "high") /* two different entities (libraries, or definitions of one name) share names */ \
    X(V_INFO,      "INFO",      0,    "info",       "info",           1,  0,   0,   0, "info") /* the shape of a split, but nothing can diverge */
#define VCLASS_ITEM(id, ...) id,
enum vclass { VERDICTS(VCLASS_ITEM) V_NCLASS };
struct vclass_row { const char *name; int shown; const char *key, *words; int part, harm, exit, strict; const char *most; };
extern const struct vclass_row vclass[V_NCLASS];
extern const char *const vclass_name[];
int vclass_shown(enum vclass v, int show_all);

struct decision {
    enum vclass cls;
    const char *sev;         /* high, med, low, info */
    int crossed;             /* COLLISION: a reference already bound from one entity to the other */
    int scoped;              /* COLLISION: two majors harmful by scope alone (decide_collision) */
    int registry;            /* ... of them, by the one type registry both need, whatever the scopes */
};
/* The findings of one pass graded in place: each item's class and severity
 * (item.cls, csev), or dropped (a latent pass keeps what
 * the promotion adds; a partition beside a split; a collision whose names
 * do not meet) or suppressed (the allowlist). */
struct policy;
struct policy *policy_new(struct allow *allow);
void policy_grade(struct policy *p, const struct image *im, struct findings *fs);
int policy_suppressed(const struct policy *p);
/* 2 error; else the highest a counted class sets (VERDICTS' exit, or strict
 * with --strict: 3 an image cannot load, 1 a split...), and 1 for a row whose
 * reference crossed (crossed: how many such rows); 0. */
int exit_status(const int count[V_NCLASS], int crossed, int errors, int strict);
#endif
