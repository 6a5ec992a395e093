/* report.c: the rows (table or JSON) of findings the policy graded; it
 * prints and counts, and decides nothing. */
#ifndef REPORT_H
#define REPORT_H
#include "policy/policy.h"
struct report;
struct report *report_new(int json, FILE *json_out, int show_all);
/* one pass over an image's findings (or a latent pass's) */
void report_print(struct report *r, const struct image *im, const struct findings *fs);
void report_partial(struct report *r);   /* an image with a NEEDED no search found */
/* the summary (table) or the JSON object; closes json_out */
void report_finish(struct report *r, int images, int errors, int suppressed);
const int *report_counts(const struct report *r);
int report_crossed(const struct report *r);   /* COLLISION rows whose reference crossed */
/* bindings.c: --bindings, every start-up lookup and its answer (image_bindings) */
void report_bindings(FILE *f, FILE *note, const struct image *im, const struct bound *b, int n);
void report_fails(FILE *note, const struct image *im);   /* the --dlopens the loader refuses, one note each */
#endif
