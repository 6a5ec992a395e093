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

static const char *const HOW[] = { "lookup", "executable", "dlopen-handle", "DF_SYMBOLIC", "protected", "hidden",
                                   "direct-call", "Bsymbolic-functions" };
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

/* The captured side: who binds which copy instead of the one it was linked against. */
static void captured(char **s, const struct image *im, const char *name, const struct finding *f)
{
    const struct module *Y = im->mods[f->target].m;
    const struct def *yd = &Y->defs[f->def];
    const char *ver = Y->has_versym && yd->ver >= 2 && yd->ver < Y->nvers ? Y->vers[yd->ver].name : NULL;
    if (f->how == H_EXE_OWN && yd->copy)
        cat(s, "%s holds a COPY-relocated copy of %s, taken from %s's", mname(im, f->target), name, mname(im, f->x));
    else if (f->how == H_EXE_OWN)
        cat(s, "%s carries its own copy of %s, which shadows %s's for every lookup", mname(im, f->target), name, mname(im, f->x));
    else {
        if (f->binder == f->x)
            cat(s, "%s's own interposable reference to %s (a relocation) resolves to %s's copy", mname(im, f->x), name,
                mname(im, f->target));
        else
            cat(s, "%s depends on %s but its reference resolves to %s's copy", mname(im, f->binder), mname(im, f->x),
                mname(im, f->target));
        cat(s, " (%s scope%s%s)", im->mods[f->binder].scope >= 0 && !in_global(im, f->target) ? "dlopen local" : "global",
            ver ? ", version " : "", ver ? ver : "");
    }
}

/* The live side: why the copy it was linked against is still in use. */
static void alive_because(char **s, const struct image *im, const char *name, const struct finding *f)
{
    const struct module *X = im->mods[f->x].m;
    const char *x = mname(im, f->x), *nm = f->ev_name ? f->ev_name : name;
    cat(s, "; while %s's copy stays in use: %s%s", x, "", "");
    switch (f->ev_how) {
    case H_SYMBOLIC: cat(s, "%s is linked -Bsymbolic (DF_SYMBOLIC), its references bind its own %s%s", x, nm, ""); break;
    case H_PROTECTED: cat(s, "%s defines %s protected, its references bind it%s", x, nm, ""); break;
    case H_HIDDEN: cat(s, "%s has its own hidden copy of %s (.symtab), bound at link time%s", x, nm, ""); break;
    case H_DIRECT:
        cat(s, "%s is probably self-binding: its code calls its own %s directly, not through the PLT%s", x, nm,
            X->own_func_relocs ? "" : " (no JUMP_SLOT/GLOB_DAT to any own function = -Bsymbolic-functions signature)");
        break;
    case H_BSYMFUNC:
        cat(s, "%s may be self-binding (no JUMP_SLOT/GLOB_DAT to any own function = -Bsymbolic-functions signature), "
               "but no direct call to %s was found%s", x, nm, "");
        break;
    case H_HANDLE: cat(s, "dlsym on the --dlopen handle of %s finds %s's copy of %s first", x, x, nm); break;
    case H_EXE_OWN: cat(s, "%s's own code uses it%s%s", x, "", ""); break;
    default: cat(s, "%s's reference resolves to %s's copy%s", mname(im, f->ev_binder), x, ""); break;
    }
    if (f->ev_name) cat(s, ", a name %s defines too: %s's copy of that code is running%s", mname(im, f->target), x, "");
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

/* Does the module's code reach state of its own?  Exact when .symtab is
 * there; otherwise its writable bytes less the exported data it reaches
 * through the GOT, against a floor for the C runtime's own few bytes. */
static int has_state(const struct module *m)
{
    if (m->private_state >= 0) return m->private_state > 0;
    return m->state_bytes > m->shared_data && m->state_bytes - m->shared_data >= STATE_MIN;
}

int report_split(struct report *r, const struct image *im, const char *name, const struct binding *b, int n,
                 const struct finding *f)
{
    const struct module *mx = im->mods[f->x].m, *my = im->mods[f->target].m;
    const struct def *dx = &mx->defs[f->xdef], *dy = &my->defs[f->def];
    /* who is involved, for the allowlist */
    const char **mods = xcalloc(2 * n + 2, sizeof *mods);
    int nm = 0;
    for (int i = 0; i < n; i++) {
        mods[nm++] = mname(im, b[i].binder);
        mods[nm++] = mname(im, b[i].target);
    }
    int allowed = r->allow && allow_match(r->allow, name, mods, nm);
    free(mods);
    if (allowed) { r->suppressed++; return 0; }

    int data = dx->kind == K_DATA || dy->kind == K_DATA;
    const char *info = data ? NULL : stateless(im, f->x, dx, f->target, dy);
    char *info_owned = NULL;
    /* constants (a COPY of read-only data, or two read-only copies) hold the
     * same bytes for ever: only their addresses differ */
    if (data && (dx->readonly || dx->copy) && (dy->readonly || dy->copy) && !(dx->copy && dy->copy))
        info = "read-only data (constants, vtables, typeinfo after RELRO): both copies hold the same bytes for ever, only their addresses differ";
    /* a function's second copy matters through the state behind it: the
     * copy still in use must reach state of its own */
    if (!data && !info && !has_state(mx))
        info = info_owned = xasprintf("the copy in %s reaches no private state (%s): the data behind it is exported "
                                      "and reached through GOT relocations, so both copies of the code share one state",
                                      module_name(mx), mx->private_state >= 0 ? "per .symtab" : "estimated from .data/.bss sizes");
    /* med when .symtab proves the state, low when it is estimated */
    const char *sev = info ? "info" : data ? "high" : mx->private_state > 0 ? "med" : "low";
    char *why = xasprintf("in %s: ", im->exe_path);
    captured(&why, im, name, f);
    alive_because(&why, im, name, f);
    if (info) cat(&why, " -> stateless code partition: %s; no state is shared, so nothing diverges%s%s", info, "", "");
    else cat(&why, " -> two live copies diverge%s%s%s", data ? "" : " (function with private state behind it)", "", "");
    cat(&why, " [confidence: %s]%s%s", CONF[f->conf], "", "");
    /* only "possible" evidence: reported, but it does not make the exit status */
    const char *verdict = info ? "INFO" : f->conf == C_POSSIBLE ? "MAYBE" : "SPLIT";
    if (info) r->info++;
    else if (f->conf == C_POSSIBLE) r->maybe++;
    else r->splits++;
    if (r->json) {
        char *jw = json_str(why), *jn = json_str(name), *ji = json_str(im->exe_path);
        char *jb = json_str(mname(im, f->binder)), *jy = json_str(my->path), *jx = json_str(mx->path);
        GROW(r->rows, r->nrows, r->cap);
        r->rows[r->nrows++] = xasprintf(
            "{\"image\":%s,\"verdict\":\"%s\",\"sev\":\"%s\",\"symbol\":%s,\"confidence\":\"%s\","
            "\"binder\":%s,\"binds\":%s,\"binding\":\"%s\",\"live_copy\":%s,\"evidence\":\"%s\",\"why\":%s}",
            ji, verdict, sev, jn, CONF[f->conf], jb, jy, HOW[f->how], jx, HOW[f->ev_how], jw);
        free(jw); free(jn); free(ji); free(jb); free(jy); free(jx);
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
