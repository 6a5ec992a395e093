/* --bindings: every lookup the loader makes at start-up and what it binds,
 * one tab-separated line each, in the words LD_DEBUG=bindings uses, so that
 * a script can set the two side by side (dev/check-bindings):
 *   binding FROM TO SYMBOL VERSION KIND SOURCE
 * FROM and TO are the modules' paths as symsplit found them (TO "-": no
 * definition: a weak reference stays 0, a strong one fails to load),
 * VERSION "-" for none, KIND one of bindkind_name, SOURCE "observed" (the
 * process's record, --trace or --pid) or "modelled".  Each image is headed
 * by "image PATH".  It prints; bindings.c computed. */
#include "report/report.h"

void report_bindings(FILE *f, const struct image *im, const struct bound *b, int n)
{
    fprintf(f, "image\t%s\n", im->mods[0].m->path);
    for (int i = 0; i < n; i++) {
        const struct module *m = im->mods[b[i].from].m;
        const struct lookref *l = &m->looks[b[i].look];
        const char *ver = version_name(m, l->ver);
        fprintf(f, "binding\t%s\t%s\t%s\t%s\t%s\t%s\n", m->path, b[i].target >= 0 ? im->mods[b[i].target].m->path : "-",
                l->name, ver ? ver : "-", bindkind_name[b[i].kind], b[i].observed ? "observed" : "modelled");
    }
}
