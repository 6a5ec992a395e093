/* An image that cannot load is a finding (class NOLOAD): what ld.so would
 * refuse, read from the files without running anything.
 *  - a NEEDED found by no search rule ("cannot open shared object file"),
 *    with the likely reason when one is visible: only in another module's
 *    RUNPATH (RUNPATH serves that module's own NEEDED entries, it is not
 *    transitive), or only the development name present (the SONAME link is
 *    missing);
 *  - a NEEDED with a slash but not absolute: ld.so opens it relative to the
 *    current directory, so the program loads from one directory only;
 *  - a version need the library found does not define ("version `V' not
 *    found"), unless the need is weak (ld.so then only warns);
 *  - a non-weak reference nothing defines ("undefined symbol"). */
#include "analyse/analyse.h"
#include <stdlib.h>
#include <string.h>

static void row(struct findings *fs, struct noload nl)
{
    struct item *it = findings_add(fs, F_NOLOAD, nl.need);
    it->nl = nl;
}

/* Where the name would have been found had RUNPATH been transitive. */
static const char *runpath_elsewhere(const struct image *im, int req, const char *name, int *who)
{
    char *err = NULL;
    for (int l = im->mods[req].loader; l >= 0; l = im->mods[l].loader) {
        const struct module *m = im->mods[l].m;
        struct module *f = m->runpath ? find_in_dirs(m->runpath, m->origin, name, &err) : NULL;
        free(err);
        err = NULL;
        if (f) { *who = l; return f->path; }
    }
    return NULL;
}

/* libfoo.so.1 missing, libfoo.so (whose SONAME is libfoo.so.1) present in a
 * directory the search looked in: the SONAME link was never made. */
static const char *dev_name_only(const struct image *im, int req, const char *name)
{
    const char *so = strstr(name, ".so.");
    if (!so) return NULL;
    char *dev = xasprintf("%.*s.so", (int)(so - name), name), *err = NULL;
    const struct module *r = im->mods[req].m;
    struct module *f = find_in_dirs(r->runpath ? r->runpath : r->rpath, r->origin, dev, &err);
    if (!f && !err) f = find_in_dirs(getenv("LD_LIBRARY_PATH"), im->mods[0].m->origin, dev, &err);
    if (!f && !err) f = find_in_dirs(machine()->dirs, "/", dev, &err);
    free(err);
    free(dev);
    return f && f->soname && !strcmp(f->soname, name) ? f->path : NULL;
}

static void not_found(struct findings *fs, const struct image *im, const struct missing *ms)
{
    struct noload nl = { .by = ms->req, .need = ms->name };
    if (strchr(nl.need, '/')) nl.cause = N_NO_FILE;
    else if ((nl.path = runpath_elsewhere(im, ms->req, nl.need, &nl.via))) nl.cause = N_RUNPATH;
    else if ((nl.path = dev_name_only(im, ms->req, nl.need))) nl.cause = N_DEV_NAME;
    else nl.cause = N_NOT_FOUND;
    row(fs, nl);
}

static int is_relative(const char *n)
{
    return strchr(n, '/') && n[0] != '/' && strncmp(n, "$ORIGIN", 7) && strncmp(n, "${ORIGIN}", 9);
}

static int missing_has(const struct image *im, int req, const char *name)
{
    for (int i = 0; i < im->nmissing; i++)
        if (im->missing[i].req == req && !strcmp(im->missing[i].name, name)) return 1;
    return 0;
}

/* The module a version need names by file (its NEEDED name or SONAME). */
static const struct module *by_file(const struct image *im, const char *file)
{
    for (int i = 0; i < im->n; i++) {
        const struct lmod *l = &im->mods[i];
        if (l->m->soname && !strcmp(l->m->soname, file)) return l->m;
        for (int k = 0; k < l->nnames; k++)
            if (!strcmp(l->names[k], file)) return l->m;
    }
    return NULL;
}

static void version_needs(struct findings *fs, const struct image *im, int i)
{
    const struct module *m = im->mods[i].m;
    for (int k = 0; k < m->nvneeds; k++) {
        const struct vneed *v = &m->vneeds[k];
        const struct module *d = by_file(im, v->file);
        /* a library without version definitions satisfies any need (ld.so
         * only notes it); a weak need only warns */
        if (!d || !d->nvdefs || v->weak) continue;
        int ok = 0;
        for (int j = 0; j < d->nvdefs && !ok; j++) ok = !strcmp(d->vdefs[j], v->name);
        if (ok) continue;
        struct noload nl = { .cause = N_VERSION, .by = i, .need = v->name, .file = v->file, .path = d->path,
                             .newest = d->vdefs[d->nvdefs - 1] };
        int n = 0;
        for (int j = 0; j < m->nrefs; j++)
            if (m->refs[j].ver == v->ndx && n++ < 3) nl.names[nl.nnames++] = m->refs[j].name;
        nl.more = n > 3 ? n - 3 : 0;
        row(fs, nl);
    }
}

/* A non-weak reference no module of the image defines: ld.so stops at start
 * ("undefined symbol") when it binds it at load (a COPY relocation
 * included), or at the first call of a lazy slot.  Not looked for when a dependency is missing (its symbols are
 * unknown). */
static void undefined(struct findings *fs, const struct image *im, int i)
{
    const struct module *m = im->mods[i].m;
    int lazy_n = 0, now_n = 0;
    const char *first_now = NULL, *first_lazy = NULL, *vnow = NULL, *vlazy = NULL;
    for (int k = 0; k < m->nrefs; k++) {
        const struct ref *rf = &m->refs[k];
        if (rf->weak || rf->kind == K_OTHER) continue;
        const char *ver = version_name(m, rf->ver);
        int hid = m->has_versym && rf->ver >= 2 ? m->vers[rf->ver].hidden : 0, d;
        if (lookup(im, i, rf->name, rf->hash, ver, hid, 1, &d) >= 0) continue;
        int lazy = rf->lazy && !im->mods[i].now;
        if (lazy && !lazy_n++) { first_lazy = rf->name; vlazy = ver; }
        if (!lazy && !now_n++) { first_now = rf->name; vnow = ver; }
    }
    /* a COPY relocation is bound at start from another module's definition */
    for (int k = 0; k < m->ndefs_dyn; k++) {
        const struct def *df = &m->defs[k];
        if (!df->copy) continue;
        int found = 0;
        for (int j = 0; j < im->n && !found; j++) {
            const struct module *o = im->mods[j].m;
            int d = j == i ? -1 : module_find_defs(o, df->name, df->hash);
            found = d >= 0 && !o->defs[d].hidden_vis;
        }
        if (!found && !now_n++) { first_now = df->name; vnow = NULL; }
    }
    if (now_n) row(fs, (struct noload){ .cause = N_UNDEFINED, .by = i, .need = first_now, .ver = vnow, .more = now_n - 1 });
    if (lazy_n)
        row(fs, (struct noload){ .cause = N_UNDEFINED_LAZY, .by = i, .need = first_lazy, .ver = vlazy, .more = lazy_n - 1 });
}

void check_loadable(struct findings *fs, const struct image *im)
{
    for (int i = 0; i < im->nmissing; i++) not_found(fs, im, &im->missing[i]);
    for (int i = 0; i < im->n; i++) {
        const struct module *m = im->mods[i].m;
        for (int k = 0; k < m->nneeded; k++)
            if (is_relative(m->needed[k]) && !missing_has(im, i, m->needed[k])) {
                const struct module *d = by_file(im, m->needed[k]);
                row(fs, (struct noload){ .cause = N_RELATIVE, .by = i, .need = m->needed[k], .path = d ? d->path : NULL });
            }
        version_needs(fs, im, i);
        if (!im->nmissing) undefined(fs, im, i);
    }
}
