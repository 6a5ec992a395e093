/* report.c: verdict rows (table or JSON) for the findings split.c hands over. */
#ifndef REPORT_H
#define REPORT_H
#include "policy.h"
/* A capture (split.c) of name; b[0..n) are all bindings of the name.
 * Returns 1 when it counts as a split (not info, not maybe, not allowlisted). */
int report_split(struct report *r, const struct image *im, const char *name,
                 const struct binding *b, int n, const struct finding *f);
void report_row(struct report *r, const struct image *im, const struct decision *d, const char *symbol,
                int conf, const char *why, const char *extra);
const int *report_counts(const struct report *r);
/* s as a JSON string, quotes included (malloc'd) */
char *json_str(const char *s);
void report_promoted(struct report *r, const char *module);   /* latent pass on/off */
void report_naive(struct report *r, int has_duplicates);
void report_partial(struct report *r);
/* loadable.c: NOLOAD rows for what ld.so would refuse; returns how many. */
int check_loadable(struct report *r, const struct image *im);
/* A partition of one name (split.c): n live copies, each bound by its own
 * users (mods[i] the copy's module, users[i] one module that binds it). */
void report_partition(struct report *r, const struct image *im, const char *name, const int *mods, const int *users, int n);
/* collide.c: the row of one pair of different libraries; 1 if it counts as a split. */
int report_collision(struct report *r, const struct image *im, const struct collision *c);
/* copies.c: COPY rows, one per library present in 2+ copies; returns how many. */
int report_copies(struct report *r, const struct image *im);
#endif
