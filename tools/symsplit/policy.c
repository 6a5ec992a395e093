/* The verdict policy: from a finding (who binds which copy, why the other
 * copy is still in use) to a class and a severity, and from the counts of
 * each class to the exit status.  Wording lives in report.c. */
#include "policy.h"
#include <stdlib.h>
#include <string.h>

#define NAME_ITEM(id, name, ...) name,
#define SHOWN_ITEM(id, name, shown) shown,
const char *const vclass_name[] = { VERDICTS(NAME_ITEM) };
static const int shown[] = { VERDICTS(SHOWN_ITEM) };
const char *const how_name[] = { BINDHOWS(NAME_ITEM) };
const char *const conf_name[] = { CONFIDENCES(NAME_ITEM) };

int vclass_shown(enum vclass v, int show_all) { return show_all || shown[v]; }

static const char *mname(const struct image *im, int i) { return module_name(im->mods[i].m); }

void decide_capture(const struct image *im, const struct finding *f, struct decision *d)
{
    const struct def *dx = &im->mods[f->x].m->defs[f->xdef], *dy = &im->mods[f->target].m->defs[f->def];
    int data = dx->kind == K_DATA || dy->kind == K_DATA;
    memset(d, 0, sizeof *d);
    int proven = 0;
    d->reason = capture_harmless(im, f, &d->owned, &proven);
    /* med when disassembly or .symtab proves the state, low when it is estimated */
    d->sev = d->reason ? "info" : data || f->collision ? "high" : proven ? "med" : "low";
    /* only "possible" evidence: reported, but it does not make the exit status */
    d->cls = d->reason ? V_INFO : f->conf == C_POSSIBLE ? V_MAYBE : V_SPLIT;
}

void decide_noload(struct decision *d, int fragile)
{
    memset(d, 0, sizeof *d);
    d->cls = V_NOLOAD;
    d->sev = fragile ? "med" : "high";   /* med: loads, but only from one current directory */
}

void decide_collision(struct decision *d, const struct collision *c)
{
    memset(d, 0, sizeof *d);
    /* never "nothing diverges": the two libraries' code works on different state */
    int split = c->name && c->live >= 0 && c->live != C_POSSIBLE;
    d->cls = split ? V_SPLIT : V_COLLISION;
    d->sev = split ? "high" : "med";
}

void decide_copy(struct decision *d, const char *sev)
{
    memset(d, 0, sizeof *d);
    d->cls = V_COPY;
    d->sev = sev;    /* from the state the library holds (copies.c's table) */
}

int decide_latent(struct decision *d)
{
    if (d->cls != V_SPLIT) return 0;   /* only a would-be split is worth a LATENT row */
    d->cls = V_LATENT;
    return 1;
}

void decision_free(struct decision *d) { free(d->owned); d->owned = NULL; }

int decide_allowed(const struct allow *a, const struct image *im, const char *name, const struct binding *b, int n)
{
    if (!a) return 0;
    const char **mods = xcalloc(2 * n + 2, sizeof *mods);
    int nm = 0;
    for (int i = 0; i < n; i++) {
        mods[nm++] = mname(im, b[i].binder);
        mods[nm++] = mname(im, b[i].target);
    }
    int allowed = allow_match(a, name, mods, nm);
    free(mods);
    return allowed;
}

int exit_status(const int count[V_NCLASS], int errors, int strict)
{
    if (errors) return 2;
    if (count[V_NOLOAD]) return 3;
    if (count[V_SPLIT]) return 1;
    if (strict && (count[V_LATENT] || count[V_COPY] || count[V_COLLISION])) return 1;
    return 0;
}
