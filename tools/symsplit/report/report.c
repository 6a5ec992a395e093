/* Printing: a finding's words (WHY), the table row or the JSON object, and
 * the summary.  What a finding is, and what the exit status is, policy.c
 * decides; this file only renders its decisions. */
#include "report/report.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct report {
    int json, show_all, header, partial, naive;
    FILE *json_out;                  /* --json-out: the JSON object there too, the table on stdout */
    int count[V_NCLASS], crossed;    /* crossed: COLLISION rows whose reference crossed (harmful) */
    char **rows; int nrows, cap;     /* JSON objects, printed at the end */
    const struct death *died;        /* the pass being printed: how its process died (--trace), NULL */
};

struct report *report_new(int json, FILE *json_out, int show_all)
{
    struct report *r = xcalloc(1, sizeof *r);
    r->json = json;
    r->json_out = json_out;
    r->show_all = show_all;
    return r;
}
const int *report_counts(const struct report *r) { return r->count; }
int report_crossed(const struct report *r) { return r->crossed; }

static const char *mname(const struct image *im, int i) { return image_label(im, i); }

/* cat(&s, FMT, ...): s with FMT's text appended (s malloc'd, replaced). */
static void cat(char **s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void cat(char **s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *t = xvasprintf(fmt, ap);
    va_end(ap);
    char *u = xasprintf("%s%s", *s, t);
    free(t);
    free(*s);
    *s = u;
}

/* The captured side: who binds which copy instead of the one it was linked against. */
static void captured(char **s, const struct image *im, const char *name, const struct finding *f)
{
    const struct module *Y = im->mods[f->target].m;
    const struct def *yd = &Y->defs[f->def];
    const char *ver = version_name(Y, yd->ver);
    if (f->how == H_EXE_OWN && yd->copy)
        cat(s, "%s holds a COPY-relocated copy of %s, taken from %s's", mname(im, f->target), name, mname(im, f->x));
    else if (f->how == H_HIDDEN)
        cat(s, "%s depends on %s but its own code calls its own hidden copy of %s (.symtab: linked in and hidden, "
               "as --exclude-libs does)", mname(im, f->target), mname(im, f->x), name);
    else if (f->how == H_EXE_OWN)
        cat(s, "%s carries its own copy of %s, which shadows %s's for every lookup", mname(im, f->target), name, mname(im, f->x));
    else {
        if (f->binder == f->x)
            cat(s, "%s's own interposable reference to %s (a relocation) resolves to %s's copy", mname(im, f->x), name,
                mname(im, f->target));
        else
            cat(s, "%s depends on %s but its reference resolves to %s's copy", mname(im, f->binder), mname(im, f->x),
                mname(im, f->target));
        cat(s, " (%s scope%s%s)", f->local ? "dlopen local" : "global",
            ver ? ", version " : "", ver ? ver : "");
        int flt = im->mods[f->target].filter;   /* a filtee: searched just before its filter (closure.c) */
        if (flt >= 0 && flt == f->x)
            cat(s, ", %s being %s's filtee, searched before it", mname(im, f->target), mname(im, f->x));
    }
}

/* The live side when it is another name sharing x's state (sharedstate.c). */
static void shared_words(char **s, const struct image *im, const char *name, const struct finding *f)
{
    const char *x = mname(im, f->x), *y = mname(im, f->target);
    char *cell = f->ev_state ? xasprintf("%s", f->ev_state)
                             : xasprintf("the cell at 0x%llx (no .symtab names it: it may be a lock or flag every function of %s touches)",
                                         (unsigned long long)f->ev_addr, x);
    cat(s, "; %s's copy of %s is bound by nobody, but its state stays in use: %s's reference to ", x, name, mname(im, f->ev_binder));
    cat(s, "%s resolves to %s's %s", f->ev_name, x, f->ev_name);
    if (f->ev_seen >= 0) cat(s, " (%s)", f->ev_seen ? "observed" : "modelled");
    cat(s, ", and %s's %s and its copy of %s", x, f->ev_name, name);
    cat(s, " share %s (per disassembly: one writes it, the other reads it): state written through %s's %s", cell, y, name);
    cat(s, " is read through %s's %s, which nobody wrote", x, f->ev_name);
    free(cell);
}

/* The live side: why the copy it was linked against is still in use. */
static void alive_because(char **s, const struct image *im, const char *name, const struct finding *f)
{
    const struct module *X = im->mods[f->x].m;
    const char *x = mname(im, f->x), *nm = f->ev_name ? f->ev_name : name;
    if (f->ev_how < 0) {   /* a collision: the capture is the finding */
        const struct def *dx = &X->defs[f->xdef], *dy = &im->mods[f->target].m->defs[f->def];
        cat(s, "; the two are different entities (%s: %llu bytes, %s: %llu bytes%s)", x, (unsigned long long)dx->size,
            mname(im, f->target), (unsigned long long)dy->size, dx->size == dy->size ? ", different contents" : "");
        if (dx->kind == K_DATA || dy->kind == K_DATA)
            cat(s, ": %s's code works on %s's, built for another definition", x, mname(im, f->target));
        else
            cat(s, ": %s's calls run %s's code, not the function it was built with", x, mname(im, f->target));
        return;
    }
    if (f->ev_addr) { shared_words(s, im, name, f); return; }
    cat(s, "; while %s's copy stays in use: ", x);
    switch (f->ev_how) {
    case H_SYMBOLIC: cat(s, "%s is linked -Bsymbolic (DF_SYMBOLIC), its references bind its own %s", x, nm); break;
    case H_PROTECTED: cat(s, "%s defines %s protected, its references bind it", x, nm); break;
    case H_TLS_LOCAL:
        cat(s, "%s reaches its thread-local %s by its own module id (local-dynamic: no relocation names it), "
               "so its code keeps its own copy", x, nm);
        break;
    case H_HIDDEN: cat(s, "%s has its own hidden copy of %s (.symtab), bound at link time", x, nm); break;
    case H_DIRECT:
        cat(s, "%s is probably self-binding: its code calls its own %s directly, not through the PLT%s", x, nm,
            X->own_func_relocs ? "" : " (no JUMP_SLOT/GLOB_DAT to any own function = -Bsymbolic-functions signature)");
        break;
    case H_BSYMFUNC:
        cat(s, "%s may be self-binding (no JUMP_SLOT/GLOB_DAT to any own function = -Bsymbolic-functions signature), "
               "but no direct call to %s was found", x, nm);
        break;
    case H_HANDLE:
        if (f->ev_name) cat(s, "dlsym on a --dlopen handle finds %s's copy of %s first", x, nm);
        else cat(s, "dlsym on the --dlopen handle of %s finds %s's copy of %s first", mname(im, f->ev_binder), x, nm);
        break;
    case H_EXE_OWN: cat(s, "%s's own code uses it", x); break;
    default: cat(s, "%s's reference resolves to %s's copy", mname(im, f->ev_binder), x); break;
    }
    if (f->ev_name) cat(s, ", a name %s defines too: %s's copy of that code is running", mname(im, f->target), x);
}

/* --pid: the slot that shows the capture, or why the model answers it. */
static void slot_words(char **s, const struct image *im, const char *name, const struct finding *f)
{
    if (f->observed) {
        cat(s, " [observed: %s's GOT slot for %s holds %s's copy]", mname(im, f->binder), name, mname(im, f->target));
        return;
    }
    if (f->lazy) cat(s, " [modelled: %s's slot for %s is not bound yet (lazy); ld.so binds it at the first call]", mname(im, f->binder), name);
    else cat(s, " [modelled: no slot in the process shows it]");
}

char *json_str(const char *s)
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

/* One row of any class: the table line (when shown) or the JSON object.
 * extra: more JSON members, ",\"k\":v..." or "". */
/* A row made harmful by the process's end: how it died, and whose text its
 * last line is, in words (appended to why) and as JSON (*jd). */
static char *died_words(const struct report *r, const struct image *im, const char *why, char **jd)
{
    const struct death *d = r->died;
    char *how = d->how == DIED_SIGNAL ? xasprintf("was killed by signal %d (%s)", d->code, strsignal(d->code))
                                      : xasprintf("exited with status %d", d->code);
    char *who = d->printer >= 0 ? xasprintf("; its last line is text of %s's: \"%s\"", mname(im, d->printer), d->said)
                : d->said ? xasprintf("; its last line (\"%s\") is text of none of these modules", d->said) : xstrdup("");
    char *w = xasprintf("%s; observed: the process %s while these modules were loaded%s -> harmful", why, how, who);
    char *js = d->said ? json_str(d->said) : xstrdup("null"), *jp = d->printer >= 0 ? json_str(mname(im, d->printer)) : xstrdup("null");
    *jd = xasprintf(",\"harmful\":true,\"died\":{\"%s\":%d,\"said\":%s,\"printed_by\":%s}",
                    d->how == DIED_SIGNAL ? "signal" : "exit", d->code, js, jp);
    free(how); free(who); free(js); free(jp);
    return w;
}

static void row(struct report *r, const struct image *im, const struct item *it, int conf, const char *why_in, const char *extra_in)
{
    char *jdied = NULL, *why = it->died && r->died ? died_words(r, im, why_in, &jdied) : xstrdup(why_in),
         *extra = xasprintf("%s%s", extra_in, jdied ? jdied : "");
    free(jdied);
    const char *symbol = it->sym;
    r->count[it->cls]++;
    r->crossed += it->crossed;
    char *cxx = demangle(symbol);
    if (r->json || r->json_out) {
        char *jw = json_str(why), *jn = json_str(symbol), *ji = json_str(im->exe_path), *jd = cxx ? json_str(cxx) : NULL;
        GROW(r->rows, r->nrows, r->cap);
        r->rows[r->nrows++] = xasprintf("{\"image\":%s,\"verdict\":\"%s\",\"sev\":\"%s\",\"symbol\":%s%s%s%s%s%s%s%s,\"why\":%s}",
                                        ji, vclass_name[it->cls], it->csev, jn, jd ? ",\"demangled\":" : "", jd ? jd : "",
                                        conf >= 0 ? ",\"confidence\":\"" : "", conf >= 0 ? conf_name[conf] : "",
                                        conf >= 0 ? "\"" : "", it->cls == V_COLLISION && !it->died ? it->crossed ? ",\"harmful\":true" : ",\"harmful\":false" : "",
                                        extra, jw);
        free(jw); free(jn); free(ji); free(jd);
    }
    if (!r->json && vclass_shown(it->cls, r->show_all)) {
        if (!r->header++) printf("%-9s  %-4s  %-24s  %s\n", "VERDICT", "SEV", "SYMBOL", "WHY");
        printf("%-9s  %-4s  %-24s  %s%s%s%s\n", vclass_name[it->cls], it->csev, symbol, cxx ? "[C++: " : "", cxx ? cxx : "",
               cxx ? "] " : "", why);
    }
    free(cxx);
    free(why);
    free(extra);
}

static char *opening(const struct image *im, const struct findings *fs)
{
    return fs->promoted ? xasprintf("in %s, if %s were opened RTLD_GLOBAL (or promoted with RTLD_NOLOAD|RTLD_GLOBAL): ",
                                    im->exe_path, fs->promoted)
                        : xasprintf("in %s: ", im->exe_path);
}

/* The binder's reference is read only in code nothing enters (reach.c):
 * which function, by its export (an old version node's `@`) or its address */
static void unreached_words(char **s, const struct image *im, const char *name, const struct finding *f)
{
    const struct module *B = im->mods[f->binder].m;
    const char *fn = NULL, *ver = NULL;
    int hidden = 0;
    for (int k = 0; k < B->ndefs && !fn; k++)
        if (B->defs[k].kind == K_FUNC && B->defs[k].value == f->dead_fn) {
            fn = B->defs[k].name;
            ver = k < B->ndefs_dyn ? version_name(B, B->defs[k].ver) : NULL;
            hidden = B->defs[k].hidden;
        }
    cat(s, "; but %s reads its slot for %s only in code nothing in this image enters (such as ", mname(im, f->binder), name);
    if (fn) cat(s, "%s%s%s", fn, ver ? hidden ? "@" : "@@" : "", ver ? ver : "");
    else cat(s, "the function at 0x%llx", (unsigned long long)f->dead_fn);
    cat(s, "): no call goes through the capture");
}

static void print_capture(struct report *r, const struct image *im, const struct findings *fs, const struct item *it)
{
    const struct finding *f = &it->f;
    const char *name = it->name;
    const struct module *mx = im->mods[f->x].m, *my = im->mods[f->target].m;
    char *why = opening(im, fs);
    captured(&why, im, name, f);
    alive_because(&why, im, name, f);
    if (f->unreached) unreached_words(&why, im, name, f);
    if (f->collision && it->cls == V_COLLISION && it->override)
        cat(&why, " -> a collision: one name, two entities, and a reference crossed into %s, which needs %s: "
            "an override by design, as an interposer's (not counted harmful)", mname(im, f->target), mname(im, f->x));
    else if (f->collision && it->cls == V_COLLISION)
        cat(&why, " -> a collision: one name, two entities, and a reference crossed (harmful: a crash is likely)");
    else if (f->collision) cat(&why, " -> a collision: one name, two entities");
    else if (it->harmless) cat(&why, " -> stateless code partition: %s; no state is shared, so nothing diverges", it->harmless);
    else if (f->unreached) cat(&why, " -> two live copies, no split while that code stays unentered");
    else cat(&why, " -> two live copies diverge%s",
             mx->defs[f->xdef].kind == K_DATA || my->defs[f->def].kind == K_DATA ? "" : " (function with private state behind it)");
    cat(&why, " [confidence: %s]", conf_name[f->conf]);
    /* a process was observed: say which rows it proves */
    if (im->obs && im->obs->live) slot_words(&why, im, name, f);
    else if (im->obs) cat(&why, " [%s]", f->observed ? "observed: the loader made this binding" : "modelled: not in the loader's record");
    char *jb = json_str(mname(im, f->binder)), *jy = json_str(my->path), *jx = json_str(mx->path);
    char *jp = fs->promoted ? json_str(fs->promoted) : NULL;   /* a LATENT row: the module whose promotion */
    char *extra = xasprintf(",\"binder\":%s,\"binds\":%s,\"binding\":\"%s\",\"live_copy\":%s,\"evidence\":\"%s\"%s%s%s%s",
                            jb, jy, how_name[f->how], jx, f->ev_how < 0 ? "collision" : how_name[f->ev_how],
                            !im->obs ? "" : f->observed ? ",\"observed\":true" : ",\"observed\":false",
                            f->unreached ? ",\"unreached\":true" : "", jp ? ",\"promoted\":" : "", jp ? jp : "");
    if (f->ev_addr) {   /* the state the two names share */
        char *jg = json_str(f->ev_name), *js = f->ev_state ? json_str(f->ev_state) : xstrdup("null");
        char *t = xasprintf("%s,\"shared_state\":{\"through\":%s,\"object\":%s,\"address\":\"0x%llx\"}", extra, jg, js,
                            (unsigned long long)f->ev_addr);
        free(jg); free(js); free(extra);
        extra = t;
    }
    row(r, im, it, f->conf, why, extra);
    free(jb); free(jy); free(jx); free(jp); free(extra); free(why);
}

/* Another implementation of one interface took references (policy.c): an override, or a collision that divides the replaced one's state. */
static int replaced(const struct collision *c) { return c->replaced; }

/* Two different libraries that share names: one row for the pair. */
static void print_collision(struct report *r, const struct image *im, const struct findings *fs, const struct item *it)
{
    const struct collision *c = &it->c;
    const char *mods[2] = { mname(im, c->a), mname(im, c->b) };
    char *why = opening(im, fs);
    cat(&why, "%s and %s are different libraries (%s) that export ", mods[0], mods[1],
        c->different == D_MAJOR ? "two versions of one name" :
        c->different == D_PART ? "parts of two versions of one library" : "other names, and other code behind the names in common");
    cat(&why, "%d name(s) in common (%s%s", c->shared, c->example, c->shared > 1 ? ", ..." : "");
    cat(&why, "); %s%s%s", c->first < 0 ? "neither is in the global scope" : "the global scope finds ",
        c->first < 0 ? "" : mname(im, c->first), c->first < 0 ? "" : " first");
    if (!c->name) cat(&why, "; no reference crossed");
    else {
        cat(&why, "; %d reference(s) crossed, the strongest: ", c->crossed);
        captured(&why, im, c->name, &c->f);
        if (replaced(c) || c->heap_name) ;   /* the references that still bind the replaced library say it (below) */
        else if (c->live >= 0) alive_because(&why, im, c->name, &c->f);
        else cat(&why, "; but %s's own copy is not in use (interposition)", mname(im, c->f.x));
    }
    if (c->heap_name) {   /* heap.c: the two sides of a divided allocation interface */
        if (c->heap_binder >= 0) cat(&why, "; %s defines no %s, and %s's reference to it binds %s's", mname(im, c->f.target),
                                     c->heap_name, mname(im, c->heap_binder), mname(im, c->f.x));
        else cat(&why, "; %s defines no %s, and a dlsym of it (--dlsym) finds %s's in the global scope", mname(im, c->f.target),
                 c->heap_name, mname(im, c->f.x));
        cat(&why, ", while %s's %s binds %s's -> a collision that divides the heap: a block one allocator hands out is "
                  "taken back by the other (harmful: the heap is corrupted)", mname(im, c->heap_other_binder), c->heap_other,
            mname(im, c->f.target));
    } else if (replaced(c) && c->kept)
        cat(&why, "; while %d reference(s) of other modules still bind %s, the first: %s's %s -> a collision that divides %s's state: "
                  "%s implements its interface, the references divide between the two (%s's %s binds %s), and state "
                  "written through one library is read through the other (harmful)",
            c->kept, mname(im, c->f.x), mname(im, c->kept_binder), c->kept_name, mname(im, c->f.x),
            mname(im, c->f.target), mname(im, c->f.binder), c->name, mname(im, c->f.target));
    else if (replaced(c) && !it->died && it->cls != V_LATENT)
        cat(&why, " -> an override: %s implements %s's interface and takes the references to it; no reference of another "
                  "module binds %s code that works on the state of %s's copies of these names (not harmful)",
            mname(im, c->f.target), mname(im, c->f.x), mname(im, c->f.x), mname(im, c->f.x));
    if (replaced(c) || c->heap_name) ;
    else if (it->died)   /* the words of the process's end follow (row) */
        cat(&why, " -> a collision");
    else if (it->registry)
        cat(&why, " -> a collision: two libraries that both need %s, %s, one for the process whatever "
                  "the scopes: %d of the names in common register a type each under its one name there (%s ...), "
                  "and the second library's are refused as soon as both are used (harmful: no reference needs to cross)",
            mname(im, c->registry), registry_what(im->mods[c->registry].m), c->types, c->type_name);
    else if (it->scoped && it->cls == V_LATENT)
        cat(&why, " -> two versions of one library: promoted, %s's unversioned names would be in the global scope, where "
                  "a lookup by name (a rival's probe, dlsym(RTLD_DEFAULT), a module loaded later) finds them first "
                  "(harmful by scope alone)", mname(im, c->first));
    else if (it->scoped) {
        cat(&why, " -> a collision: two versions of one library, and the global scope holds %s: a lookup by any of the %d "
                  "unversioned names in common there (dlsym(RTLD_DEFAULT), a lazy slot, a module loaded later) finds ",
            mname(im, c->first), c->bare);
        cat(&why, "%s's, whichever the asker was built for; libraries probe for a rival this way and abort "
                  "(harmful: scope alone, no reference needs to cross)", mname(im, c->first));
    } else if (it->cls == V_COLLISION && it->crossed)
        cat(&why, " -> a collision, and a reference crossed: code built for one library runs on the other's "
                  "structures (harmful: a crash is likely)");
    else if (it->cls == V_COLLISION && c->name && c->designed)
        cat(&why, " -> a collision, an override by design: %s, which needs %s, takes these functions' references "
                  "from it (not harmful)", mname(im, c->f.target), mname(im, c->f.x));
    else if (it->cls == V_COLLISION)
        cat(&why, " -> a collision: a reference to any of these names binds whichever library the scope finds first, "
                  "code built for the other");
    else cat(&why, " -> different libraries: a reference would cross, code built for one library running on the other's "
                   "[confidence: %s]", conf_name[c->live]);
    if (c->heap_nlacks && !c->heap_name) {   /* heap.c: what a lookup by name symsplit was not told of would find */
        cat(&why, "; %s defines no ", mname(im, c->f.target));
        for (int k = 0; k < c->heap_nlacks; k++) cat(&why, "%s%s", k ? ", " : "", c->heap_lacks[k]);
        cat(&why, " of %s's allocation interface: nothing here binds them, but a lookup by name (dlsym: --dlsym tells) "
                  "would find %s's and divide the heap", mname(im, c->f.x), mname(im, c->f.x));
    }
    char *ja = json_str(mods[0]), *jpa = json_str(im->mods[c->a].m->path), *jb = json_str(mods[1]),
         *jpb = json_str(im->mods[c->b].m->path), *jf = c->first < 0 ? xstrdup("null") : json_str(mname(im, c->first));
    char *extra = xasprintf(",\"libraries\":[{\"module\":%s,\"path\":%s},{\"module\":%s,\"path\":%s}],\"shared\":%d,"
                            "\"different\":\"%s\",\"first\":%s,\"crossed\":%d,\"unversioned\":%d,\"harm\":\"%s\"",
                            ja, jpa, jb, jpb, c->shared, c->different == D_NAMES ? "names" : "version", jf, c->crossed, c->bare,
                            it->died ? "died" : it->registry ? "registry" : it->scoped ? "scope" : c->heap_name ? "divided" : replaced(c) ? (c->kept ? "divided" : "override")
                                                                   : it->crossed ? "crossed" : "none");
    free(ja); free(jpa); free(jb); free(jpb); free(jf);
    for (int k = 0; k < c->heap_nlacks; k++) {   /* the interface's names the replacement lacks */
        char *jn = json_str(c->heap_lacks[k]), *t = xasprintf("%s%s%s", extra, k ? "," : ",\"lacks\":[", jn);
        free(extra); free(jn);
        extra = t;
    }
    if (c->heap_nlacks) { char *t = xasprintf("%s]", extra); free(extra); extra = t; }
    if (c->heap_name) {   /* both sides of a divided heap; binder null: a --dlsym lookup */
        char *jn = json_str(c->heap_name), *jb = c->heap_binder >= 0 ? json_str(mname(im, c->heap_binder)) : xstrdup("null"),
             *jx = json_str(mname(im, c->f.x)), *jo = json_str(c->heap_other), *job = json_str(mname(im, c->heap_other_binder));
        char *t = xasprintf("%s,\"heap\":{\"name\":%s,\"binder\":%s,\"binds\":%s,\"other\":%s,\"other_binder\":%s}", extra, jn,
                            jb, jx, jo, job);
        free(extra); free(jn); free(jb); free(jx); free(jo); free(job);
        extra = t;
    } else if (replaced(c) && c->kept) {   /* the other side of a divided interface */
        char *jk = json_str(mname(im, c->kept_binder)), *jn = json_str(c->kept_name);
        char *t = xasprintf("%s,\"kept\":{\"references\":%d,\"binder\":%s,\"name\":%s}", extra, c->kept, jk, jn);
        free(extra); free(jk); free(jn);
        extra = t;
    }
    if (c->name) {   /* the strongest crossing, with split rows' fields */
        const struct finding *f = &c->f;
        char *jr = json_str(mname(im, f->binder)), *jy = json_str(im->mods[f->target].m->path),
             *jx = json_str(im->mods[f->x].m->path), *jp = fs->promoted ? json_str(fs->promoted) : NULL, *t;
        t = xasprintf("%s,\"binder\":%s,\"binds\":%s,\"binding\":\"%s\",\"live_copy\":%s,\"evidence\":\"%s\"%s%s", extra, jr,
                      jy, how_name[f->how], jx, c->live < 0 ? "none" : f->ev_how < 0 ? "collision" : how_name[f->ev_how],
                      jp ? ",\"promoted\":" : "", jp ? jp : "");
        free(extra); free(jr); free(jy); free(jx); free(jp);
        extra = t;
    }
    row(r, im, it, it->cls == V_COLLISION && !it->crossed ? -1 : c->live, why, extra);
    free(extra); free(why);
}

/* A row whose WHY lists copies, with the same list as JSON (jl) beside it;
 * frees why and jl. */
static void row_with_copies(struct report *r, const struct image *im, const struct item *it, char *why, char *jl)
{
    char *extra = xasprintf(",\"copies\":[%s]", jl);
    row(r, im, it, -1, why, extra);
    free(extra);
    free(why);
    free(jl);
}

/* A partition of one name: n live copies, each bound by its own users. */
static void print_partition(struct report *r, const struct image *im, const struct findings *fs, const struct item *it)
{
    const char *name = it->name;
    const int *mods = it->pm, *users = it->pu, n = it->n;
    char *list = xstrdup(""), *jl = xstrdup("");   /* the words, and the same as JSON */
    for (int i = 0; i < n; i++) {   /* plugins all called plugin.so go by their labels: a/plugin.so */
        const char *m = mname(im, mods[i]);
        const char *u = mname(im, users[i]);
        char *t = xasprintf("%s%s%s (bound by %s)", list, i ? ", " : "", m, users[i] == mods[i] ? "itself" : u);
        free(list);
        list = t;
        char *jm = json_str(mname(im, mods[i])), *jpth = json_str(im->mods[mods[i]].m->path), *ju = json_str(mname(im, users[i]));
        t = xasprintf("%s%s{\"module\":%s,\"path\":%s,\"bound_by\":%s}", jl, i ? "," : "", jm, jpth, ju);
        free(jl); free(jm); free(jpth); free(ju);
        jl = t;
    }
    char *why = xasprintf("in %s: %s in %d live copies: %s; each copy is bound by its own users (a partition): "
                          "state written through one copy is not seen through another", im->exe_path, name, n, list);
    row_with_copies(r, im, it, why, jl);
    free(list);
}

/* A library in 2+ copies (copies.c's fingerprints). */
static void print_copy(struct report *r, const struct image *im, const struct findings *fs, const struct item *it)
{
    char *list = xstrdup(""), *jl = xstrdup("");   /* the words, and the same as JSON */
    for (int k = 0; k < it->n; k++) {
        const struct copyof *c = &it->cp[k];
        int variant = strcmp(c->variant, it->name) != 0;
        char *t = xasprintf("%s%s%s (%s%s%s%s%s)", list, k ? ", " : "", mname(im, c->mod), c->kind, variant ? " " : "",
                            variant ? c->variant : "", c->version[0] ? " " : "", c->version);
        free(list);
        list = t;
        char *jm = json_str(mname(im, c->mod)), *jp = json_str(im->mods[c->mod].m->path);
        t = xasprintf("%s%s{\"module\":%s,\"path\":%s,\"kind\":\"%s\",\"variant\":\"%s\",\"version\":\"%s\"}", jl,
                      k ? "," : "", jm, jp, c->kind, c->variant, c->version);
        free(jl); free(jm); free(jp);
        jl = t;
    }
    char *why = xasprintf("in %s: %s in %d copies: %s; each copy is bound by its own users (a partition); "
                          "process-wide state of one: %s", im->exe_path, it->name, it->n, list, it->state);
    row_with_copies(r, im, it, why, jl);
    free(list);
}

/* What ld.so would refuse, in its words where it has them. */
static void print_noload(struct report *r, const struct image *im, const struct findings *fs, const struct item *it)
{
    const struct noload *nl = &it->nl;
    const char *by = mname(im, nl->by), *n = nl->need;
    char *why = xasprintf("in %s: ", im->exe_path);
    char *more = nl->more ? xasprintf(" (and %d more)", nl->more) : xstrdup("");
    switch (nl->cause) {
    case N_NO_FILE:
        cat(&why, "%s needs '%s', a path (a NEEDED name with a slash is opened as it stands, relative to "
                  "the current directory), and there is no such file: the program cannot start", by, n);
        break;
    case N_RUNPATH:
        cat(&why, "%s needs %s, which no search rule of %s finds; ", by, n, by);
        cat(&why, "it is at %s, reached only through %s's RUNPATH, which serves %s's own NEEDED entries, ", nl->path,
            mname(im, nl->via), mname(im, nl->via));
        cat(&why, "not its dependencies' (RUNPATH is not transitive): give %s its own RUNPATH", by);
        break;
    case N_DEV_NAME:
        cat(&why, "%s needs %s; only %s exists ", by, n, nl->path);
        cat(&why, "(the development name, SONAME %s): the SONAME link %s is missing (ldconfig -n in its directory makes it)",
            n, n);
        break;
    case N_NOT_FOUND:
        cat(&why, "%s needs %s, which no search rule finds (RPATH, LD_LIBRARY_PATH, RUNPATH, "
                  "ld.so.cache, default directories): the program cannot start", by, n);
        break;
    case N_RELATIVE:
        cat(&why, "%s needs '%s', a relative path: ld.so opens it relative to the current directory, so the "
                  "program starts only from a directory that has it (here: %s); link with -L DIR -lNAME "
                  "and a RUNPATH instead", by, n, nl->path ? nl->path : "?");
        break;
    case N_VERSION: {
        char *syms = xstrdup("");
        for (int k = 0; k < nl->nnames; k++) cat(&syms, "%s%s", k ? ", " : "", nl->names[k]);
        if (nl->more) cat(&syms, " and %d more", nl->more);
        cat(&why, "%s needs version %s of %s ", by, n, nl->file);
        cat(&why, "(%s), but %s found at %s ", nl->nnames ? syms : "no symbol of its own", nl->file, nl->path);
        cat(&why, "defines no %s (newest: %s): ld.so refuses to start it (\"version `%s' not found\")", n, nl->newest, n);
        free(syms);
        break;
    }
    case N_UNDEFINED:
        cat(&why, "%s needs %s%s", by, n, nl->ver ? "@" : "");
        cat(&why, "%s%s, which no module of the image defines: ld.so stops at start (\"undefined symbol\")",
            nl->ver ? nl->ver : "", more);
        break;
    case N_UNDEFINED_LAZY:
        cat(&why, "%s calls %s%s", by, n, nl->ver ? "@" : "");
        cat(&why, "%s%s, which no module of the image defines: the program starts and stops at the first call "
                  "(lazy binding)", nl->ver ? nl->ver : "", more);
        break;
    }
    row(r, im, it, -1, why, "");
    free(more);
    free(why);
}

/* Each kind's printer, from the kinds' table (analyse.h). */
#define PRINTER_ITEM(id, name, ...) [id] = print_##name,
static void (*const printers[F_NKINDS])(struct report *, const struct image *, const struct findings *, const struct item *) = {
    FKINDS(PRINTER_ITEM)
};

/* One pass over the findings as graded: the rows in the order found. */
void report_print(struct report *r, const struct image *im, const struct findings *fs)
{
    r->naive += !fs->promoted && fs->naive;
    r->died = fs->died.how ? &fs->died : NULL;
    int tied = 0;
    for (int i = 0; i < fs->n; i++) tied |= fs->v[i].keep == K_SHOW && (fs->v[i].died || fs->v[i].cls == V_SPLIT);
    if (r->died && !tied && !fs->promoted)
        fprintf(stderr, "symsplit: note: --trace: the process %s %d with no split and no two different libraries "
                        "sharing names loaded: no finding ties its end to one\n",
                fs->died.how == DIED_SIGNAL ? "was killed by signal" : "exited with status", fs->died.code);
    for (int i = 0; i < fs->n; i++) {
        const struct item *it = &fs->v[i];
        if (it->keep != K_SHOW) continue;
        printers[it->kind](r, im, fs, it);
    }
}

void report_partial(struct report *r) { r->partial++; }


/* The counts of one part of the summary (VERDICTS' part), as --json
 * members or as the table's words; harm: the harmful rows after its class. */
static void json_counts(FILE *o, const struct report *r, int part)
{
    for (int v = 0; v < V_NCLASS; v++) {
        if (vclass[v].part != part) continue;
        fprintf(o, ",\"%s\":%d", vclass[v].key, r->count[v]);
        if (vclass[v].harm) fprintf(o, ",\"%s_harmful\":%d", vclass[v].key, r->crossed);
    }
}

static void table_counts(const struct report *r, int part, const char *first)
{
    for (int v = 0, n = 0; v < V_NCLASS; v++) {
        if (vclass[v].part != part) continue;
        printf("%s%d %s", n++ ? ", " : first, r->count[v], vclass[v].words);
        if (vclass[v].harm) printf(" (%d harmful)", r->crossed);
    }
}

static void print_json(FILE *o, const struct report *r, int images, int errors, int suppressed)
{
    fprintf(o, "{\"images\":%d", images);
    json_counts(o, r, 1);
    fprintf(o, ",\"suppressed\":%d,\"partial\":%d,\"errors\":%d,\"naive_duplicates\":%d", suppressed, r->partial, errors,
            r->naive);
    json_counts(o, r, 2);
    fprintf(o, ",\"findings\":[");
    for (int i = 0; i < r->nrows; i++) fprintf(o, "%s%s", i ? "," : "", r->rows[i]);
    fprintf(o, "]}\n");
}

void report_finish(struct report *r, int images, int errors, int suppressed)
{
    if (r->json_out) {
        print_json(r->json_out, r, images, errors, suppressed);
        fclose(r->json_out);
        r->json_out = NULL;
    }
    if (r->json) {
        print_json(stdout, r, images, errors, suppressed);
        return;
    }
    printf("# symsplit: %d image(s)", images);
    table_counts(r, 1, ", ");
    printf("%s, %d suppressed by allowlist, %d partial, %d error(s)", r->show_all ? "" : " (rows with --info)", suppressed,
           r->partial, errors);
    table_counts(r, 2, "; ");
    printf("\n# naive: %d image(s) have a name defined by two modules of their closure (nm -D | sort | uniq -d)\n", r->naive);
}
