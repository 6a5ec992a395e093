/* --bindings: every lookup the loader makes at start-up and what it binds,
 * one tab-separated line each, in the words LD_DEBUG=bindings uses, so that
 * a script can set the two side by side (dev/check-bindings):
 *   binding FROM TO SYMBOL VERSION KIND SOURCE [RISK]
 * FROM and TO are the modules' paths as symsplit found them (TO "-": no
 * definition: a weak reference stays 0, a strong one fails to load),
 * VERSION "-" for none, KIND one of bindkind_name, SOURCE "observed" (the
 * process's record, --trace or --pid) or "modelled"; RISK, on the bindings
 * of an open that may fail depending on the run, says why.  Each image is
 * headed by "image PATH"; an open the loader refuses is one line
 *   fails ROOT FROM SYMBOL VERSION OBJECT...
 * (the objects it loaded, all undone; none of their bindings is printed).
 * The same two facts as notes on stderr.  It prints; bindings.c and
 * openfail.c computed. */
#include "report/report.h"

static void risk_text(FILE *f, const struct image *im, const struct bound *r)
{
    const struct module *m = im->mods[r->from].m;
    fprintf(f, "the open may fail, depending on the run: initial-exec TLS %s needs a static TLS offset in the block of %s, which an earlier dlopen loaded",
            m->looks[r->look].name, im->mods[r->target].m->path);
}

static void tls_text(FILE *f, const struct image *im, const struct bound *r)
{
    fprintf(f, "the open may fail, depending on the run: its initial-exec TLS places the block of %s at a static offset, "
               "%llu bytes of static TLS with what the earlier opens placed (each block at its worst alignment), more than the surplus surely holds",
            im->mods[r->tls_block].m->path, (unsigned long long)r->tls_need);
}

/* Is b[i] the first binding of its open marked for static TLS? */
static int first_tls(const struct image *im, const struct bound *b, int i)
{
    for (int j = 0; j < i; j++)
        if (b[j].tls_need && im->mods[b[j].from].step == im->mods[b[i].from].step) return 0;
    return 1;
}

void report_bindings(FILE *f, FILE *note, const struct image *im, const struct bound *b, int n)
{
    fprintf(f, "image\t%s\n", im->mods[0].m->path);
    report_fails(note, im);
    for (int i = 0; i < n; i++) {
        const struct module *m = im->mods[b[i].from].m;
        const struct lookref *l = &m->looks[b[i].look];
        const char *ver = version_name(m, l->ver);
        fprintf(f, "binding\t%s\t%s\t%s\t%s\t%s\t%s", m->path, b[i].target >= 0 ? im->mods[b[i].target].m->path : "-",
                l->name, ver ? ver : "-", bindkind_name[b[i].kind], b[i].observed ? "observed" : "modelled");
        if (b[i].risk) { fputc('\t', f); risk_text(f, im, &b[b[i].risk - 1]); }
        else if (b[i].tls_need) { fputc('\t', f); tls_text(f, im, &b[i]); }
        fputc('\n', f);
        if (b[i].tls_need && first_tls(im, b, i)) {   /* once an open */
            fprintf(note, "symsplit: note: %s: ", im->mods[im->roots[im->mods[b[i].from].step - 1]].m->path);
            tls_text(note, im, &b[i]);
            fprintf(note, " (glibc's default tunables leave at least %d; GLIBC_TUNABLES glibc.rtld.optional_static_tls and "
                          "glibc.rtld.nns in the run's environment change it); its bindings are marked\n", STATIC_TLS_FLOOR);
        }
        if (b[i].risk == i + 1) {   /* once an open */
            fprintf(note, "symsplit: note: %s: ", im->mods[im->roots[im->mods[b[i].from].step - 1]].m->path);
            risk_text(note, im, &b[i]);
            fprintf(note, " (refused once that block was used dynamically, or when the surplus static TLS has no room); its bindings are marked\n");
        }
    }
    for (int k = 0; k < im->nfails; k++) {
        const struct openfail *o = &im->fails[k];
        fprintf(f, "fails\t%s\t%s\t%s\t%s", o->root, o->from, o->name, o->ver ? o->ver : "-");
        for (int j = 0; j < o->nobjs; j++) fprintf(f, "\t%s", o->objs[j]);
        fputc('\n', f);
    }
}

/* One note a refused open: it fails, which symbol; what it loaded is gone. */
void report_fails(FILE *note, const struct image *im)
{
    for (int k = 0; k < im->nfails; k++) {
        const struct openfail *o = &im->fails[k];
        fprintf(note, "symsplit: note: dlopen %s fails: %s refers to %s%s%s, which nothing in its scope defines "
                      "(looked up at the open); the %d object(s) it loaded are undone, none of their bindings made\n",
                o->root, o->from, o->name, o->ver ? "@" : "", o->ver ? o->ver : "", o->nobjs);
    }
}
