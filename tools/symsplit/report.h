/* report.c: verdict rows (table or JSON) for the findings split.c hands over. */
#ifndef REPORT_H
#define REPORT_H
#include "symsplit.h"
/* b[x] and b[y] bind name to two different definitions of one interface.
 * Returns 1 when it counts as a split (not info, not allowlisted). */
int report_split(struct report *r, const struct image *im, const char *name,
                 const struct binding *b, int n, int x, int y);
void report_naive(struct report *r, int has_duplicates);
void report_missing(struct report *r, const struct image *im);
#endif
