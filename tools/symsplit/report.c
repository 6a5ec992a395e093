/* Turning a finding into a verdict row: severity, confidence, the reason in
 * words, allowlist suppression, and the table or JSON rendering. */
#include "report.h"
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct report {
    int json, show_all, header, splits, maybe, info, suppressed, partial, naive;
    struct allow *allow;
    char **rows; int nrows, cap;     /* JSON objects, printed at the end */
};

static const char *const HOW[] = { "lookup", "executable", "DF_SYMBOLIC", "protected", "hidden", "direct-call", "Bsymbolic-functions" };
static const char *const CONF[] = { "certain", "likely", "possible" };
#define STATE_MIN 64   /* less writable data than this is crt bookkeeping, not state */

struct report *report_new(int json, int show_all, struct allow *allow)
{
    struct report *r = xcalloc(1, sizeof *r);
    r->json = json;
    r->show_all = show_all;
    r->allow = allow;
    return r;
}
int report_splits(const struct report *r) { return r->splits; }

static const char *mname(const struct image *im, int i) { return module_name(im->mods[i].m); }

/* C runtime libraries: an executable's private copy of one of their functions
 * is gnulib-style stateless code, partitioned, not shared state split. */
static int is_libc(const struct module *m)
{
    static const char *const pfx[] = { "libc.so.", "libm.so.", "ld-linux", "libpthread.so.", "libdl.so.",
                                       "librt.so.", "libresolv.so.", "libutil.so.", "libcrypt.so." };
    const char *n = module_name(m);
    for (size_t i = 0; i < sizeof pfx / sizeof pfx[0]; i++)
        if (!strncmp(n, pfx[i], strlen(pfx[i]))) return 1;
    return 0;
}

static int needs(const struct module *from, const struct module *to)
{
    for (int i = 0; i < from->nneeded; i++)
        if ((to->soname && !strcmp(from->needed[i], to->soname)) || !strcmp(from->needed[i], module_name(to))) return 1;
    return 0;
}

/* Function duplicates that are code, not state (the reason, or NULL). */
static const char *stateless(const struct image *im, int ta, const struct def *da, int tb, const struct def *db)
{
    const struct module *ma = im->mods[ta].m, *mb = im->mods[tb].m;
    if (da->kind != K_FUNC || db->kind != K_FUNC) return NULL;
    if ((ta == 0 && is_libc(mb)) || (tb == 0 && is_libc(ma)))
        return "the executable carries its own copy of a C library function (gnulib-style)";
    /* C++ code instantiated hidden (-fvisibility-inlines-hidden, COMDAT
     * under -fvisibility=hidden): the same vague-linkage case */
    if ((da->hidden_vis || db->hidden_vis) && !strncmp(da->name, "_Z", 2))
        return "a hidden C++ instantiation (inline/template code compiled into this module with hidden visibility; "
               "vague linkage, any static state it has lives in a separate data symbol)";
    if (da->bind == STB_WEAK && db->bind == STB_WEAK)
        return "both copies are weak (C++ vague linkage: inline/template code emitted in every module by design; "
               "any static state it has lives in a separate unique data symbol)";
    if ((ta != 0 && needs(ma, mb)) || (tb != 0 && needs(mb, ma)))
        return "one library re-exports a function of its own direct dependency (a forwarding shim, as glvnd's libGL does for libGLX)";
    return NULL;
}

static void cat(char **s, const char *fmt, const char *a, const char *b, const char *c)
{
    char *t = xasprintf(fmt, a, b, c), *u = xasprintf("%s%s", *s, t);
    free(t);
    free(*s);
    *s = u;
}

static int in_global(const struct image *im, int idx)
{
    for (int i = 0; i < im->global.n; i++)
        if (im->global.idx[i] == idx) return 1;
    return 0;
}

/* One side: everything that binds to the definition (t, d), in words. */
static void side(char **s, const struct image *im, const char *name, const struct binding *b, int n, int t, int d)
{
    const struct module *tm = im->mods[t].m;
    int lookups = 0, first = 1;
    for (int i = 0; i < n; i++) {
        if (b[i].target != t || b[i].def != d) continue;
        const char *who = mname(im, b[i].binder), *sep = first ? "" : ", ";
        first = 0;
        switch (b[i].how) {
        case H_SYMBOLIC: cat(s, "%s%s is linked -Bsymbolic (DF_SYMBOLIC)%s: its own references bind its own copy", sep, who, ""); break;
        case H_HIDDEN: cat(s, "%s%s has its own hidden copy of %s (.symtab): its references bind it at link time", sep, who, name); break;
        case H_PROTECTED: cat(s, "%s%s defines %s protected: its own references bind its own copy", sep, who, name); break;
        case H_DIRECT:
            cat(s, "%s%s is probably self-binding (its code calls its own %s directly, not through the PLT", sep, who, name);
            cat(s, "%s)%s; its own calls use its own copy", tm->own_func_relocs ? "" : "; no JUMP_SLOT/GLOB_DAT to any own function = -Bsymbolic-functions signature", "", "");
            break;
        case H_BSYMFUNC:
            cat(s, "%s%s may be self-binding (no JUMP_SLOT/GLOB_DAT to any own function = -Bsymbolic-functions signature%s, "
                   "but no direct call to it was found: perhaps it never calls it); if it does, its own calls use its own copy", sep, who, "");
            break;
        case H_EXE_OWN: cat(s, "%s%s's own code uses its own copy%s", sep, who, ""); break;
        default:
            if (++lookups > 3) { if (lookups == 4) cat(s, "%s(and more references)%s%s", sep, "", ""); break; }
            cat(s, "%s%s's reference resolves to %s's copy", sep, who, mname(im, t));
            cat(s, " (%s scope%s%s)", im->mods[b[i].binder].scope >= 0 && !in_global(im, t) ? "dlopen local" : "global",
                tm->has_versym && tm->defs[d].ver >= 2 && tm->vers[tm->defs[d].ver].name ? ", version " : "",
                tm->has_versym && tm->defs[d].ver >= 2 && tm->vers[tm->defs[d].ver].name ? tm->vers[tm->defs[d].ver].name : "");
        }
    }
    if (tm->defs[d].copy) cat(s, " [%s holds a COPY-relocated copy of %s%s]", mname(im, t), name, "");
}

static char *json_str(const char *s)
{
    size_t n = 0;
    char *o = xcalloc(strlen(s) * 6 + 3, 1);
    o[n++] = '"';
    for (; *s; s++) {
        unsigned char c = *s;
        if (c == '"' || c == '\\') { o[n++] = '\\'; o[n++] = c; }
        else if (c < 0x20) n += sprintf(o + n, "\\u%04x", c);
        else o[n++] = c;
    }
    o[n++] = '"';
    return o;
}

static int side_open(const struct binding *b, int n, const struct binding *rep)
{
    for (int i = 0; i < n; i++)
        if (b[i].target == rep->target && b[i].def == rep->def && (b[i].how == H_LOOKUP || b[i].how == H_EXE_OWN))
            return 1;
    return 0;
}

/* Does the module's code reach state of its own?  Exact when .symtab is
 * there; otherwise its writable bytes less the exported data it reaches
 * through the GOT, against a floor for the C runtime's own few bytes. */
static int has_state(const struct module *m)
{
    if (m->private_state >= 0) return m->private_state > 0;
    return m->state_bytes > m->shared_data && m->state_bytes - m->shared_data >= STATE_MIN;
}

static int side_conf(const struct binding *b, int n, const struct binding *rep)
{
    int best = C_POSSIBLE;
    for (int i = 0; i < n; i++)
        if (b[i].target == rep->target && b[i].def == rep->def && b[i].conf < best) best = b[i].conf;
    return best;
}

int report_split(struct report *r, const struct image *im, const char *name, const struct binding *b, int n, int x, int y)
{
    const struct module *ma = im->mods[b[x].target].m, *mb = im->mods[b[y].target].m;
    const struct def *da = &ma->defs[b[x].def], *db = &mb->defs[b[y].def];
    /* who is involved, for the allowlist */
    const char **mods = xcalloc(2 * n + 2, sizeof *mods);
    int nm = 0;
    for (int i = 0; i < n; i++) {
        mods[nm++] = mname(im, b[i].binder);
        mods[nm++] = mname(im, b[i].target);
    }
    /* Each side is as sure as its best evidence: someone reaching the copy
     * through a scope (or the executable's own) is certain, a self-binding
     * library is as sure as its label.  The split is as sure as its weaker side. */
    int cx = side_conf(b, n, &b[x]), cy = side_conf(b, n, &b[y]);
    int conf = cx > cy ? cx : cy;
    int allowed = r->allow && allow_match(r->allow, name, mods, nm);
    free(mods);
    if (allowed) { r->suppressed++; return 0; }

    int data = da->kind == K_DATA || db->kind == K_DATA;
    const char *info = data ? NULL : stateless(im, b[x].target, da, b[y].target, db);
    char *info_owned = NULL;
    /* constants (a COPY of read-only data, or two read-only copies) hold the
     * same bytes for ever: only their addresses differ */
    if (data && (da->readonly || da->copy) && (db->readonly || db->copy) && !(da->copy && db->copy))
        info = "read-only data (constants, vtables, typeinfo after RELRO): both copies hold the same bytes for ever, only their addresses differ";
    /* A function's second copy matters through the state behind it.  Look at
     * the copies nobody reaches through a scope (both, for a scope split). */
    int ox = side_open(b, n, &b[x]), oy = side_open(b, n, &b[y]);
    int state = 0;
    const struct module *stateless_mod = NULL;
    for (int k = 0; k < 2; k++) {
        const struct module *m = k ? mb : ma;
        if ((k ? oy : ox) && !(ox && oy)) continue;
        if (has_state(m)) state = 1;
        else stateless_mod = m;
    }
    if (!data && !info && !state) {
        info = xasprintf("the copy in %s reaches no private state (%s): the data behind it is exported "
                         "and reached through GOT relocations, so both copies of the code share one state",
                         module_name(stateless_mod),
                         stateless_mod->private_state >= 0 ? "per .symtab" : "estimated from .data/.bss sizes");
        info_owned = (char *)info;
    }
    /* med when .symtab proves the state, low when it is estimated */
    const char *sev = info ? "info" : data ? "high" : (ma->private_state > 0 || mb->private_state > 0) ? "med" : "low";
    char *why = xasprintf("in %s: ", im->exe_path);
    side(&why, im, name, b, n, b[x].target, b[x].def);
    cat(&why, "; while %s%s%s", "", "", "");
    side(&why, im, name, b, n, b[y].target, b[y].def);
    if (info)
        cat(&why, " -> stateless code partition: %s%s%s; no state is shared, so nothing diverges", info, "", "");
    else
        cat(&why, " -> two live copies diverge%s%s%s", "", "", "");
    if (!info && !data) cat(&why, " (function with private state behind it)%s%s%s", "", "", "");
    cat(&why, " [confidence: %s]%s%s", CONF[conf], "", "");
    /* only "possible" evidence: reported, but it does not make the exit status */
    const char *verdict = info ? "INFO" : conf == C_POSSIBLE ? "MAYBE" : "SPLIT";
    if (info) r->info++;
    else if (conf == C_POSSIBLE) r->maybe++;
    else r->splits++;
    if (r->json) {
        char *jw = json_str(why), *jn = json_str(name), *ji = json_str(im->exe_path);
        char *ja = json_str(ma->path), *jb = json_str(mb->path);
        GROW(r->rows, r->nrows, r->cap);
        r->rows[r->nrows++] = xasprintf(
            "{\"image\":%s,\"verdict\":\"%s\",\"sev\":\"%s\",\"symbol\":%s,\"confidence\":\"%s\","
            "\"definitions\":[{\"module\":%s,\"binding\":\"%s\"},{\"module\":%s,\"binding\":\"%s\"}],\"why\":%s}",
            ji, verdict, sev, jn, CONF[conf], ja, HOW[b[x].how], jb, HOW[b[y].how], jw);
        free(jw); free(jn); free(ji); free(ja); free(jb);
    } else if (!strcmp(verdict, "SPLIT") || r->show_all) {
        if (!r->header++) printf("%-7s  %-4s  %-24s  %s\n", "VERDICT", "SEV", "SYMBOL", "WHY");
        printf("%-7s  %-4s  %-24s  %s\n", verdict, sev, name, why);
    }
    free(why);
    free(info_owned);
    return !strcmp(verdict, "SPLIT");
}

void report_naive(struct report *r, int has_duplicates) { r->naive += has_duplicates != 0; }

void report_missing(struct report *r, const struct image *im)
{
    if (!im->nmissing) return;
    r->partial++;
    for (int i = 0; i < im->nmissing; i++)
        fprintf(stderr, "symsplit: warning: %s: cannot find %s; analysis is partial (its symbols are not seen)\n",
                im->exe_path, im->missing[i]);
}

void report_finish(struct report *r, int images, int errors)
{
    if (r->json) {
        printf("{\"images\":%d,\"splits\":%d,\"maybe\":%d,\"info\":%d,\"suppressed\":%d,\"partial\":%d,\"errors\":%d,"
               "\"naive_duplicates\":%d,\"findings\":[",
               images, r->splits, r->maybe, r->info, r->suppressed, r->partial, errors, r->naive);
        for (int i = 0; i < r->nrows; i++) printf("%s%s", i ? "," : "", r->rows[i]);
        printf("]}\n");
        return;
    }
    printf("# symsplit: %d image(s), %d split(s), %d maybe, %d info%s, %d suppressed by allowlist, %d partial, %d error(s)\n",
           images, r->splits, r->maybe, r->info, r->show_all ? "" : " (rows with --info)", r->suppressed, r->partial, errors);
    printf("# naive: %d image(s) have a name defined by two modules of their closure (nm -D | sort | uniq -d)\n", r->naive);
}
