/* Namesakes: two different libraries that export the same names (GTK 3 and
 * GTK 4, libfoo.so.1 and libfoo.so.2) are no copies of one library, so
 * nothing said of copies holds of them ("two live copies", "nothing
 * diverges").  They are one finding per library pair (a collision): how
 * many names they share, which one the global scope finds first, and
 * whether a reference already crossed from one to the other while the one
 * it was linked against stays in use (a split: state written through one
 * library is read through the other).
 *
 * Two modules are different libraries only on positive evidence, both with
 * a SONAME: one base name with another version (libfoo.so.1 and
 * libfoo.so.2, libgtk-3.so.0 and libgtk-4.so.1), or other names whose
 * shared definitions are other code (more of them differ in size than
 * agree, two at least) and that carry no common library (copies.c's
 * fingerprints).  A copy is the same code whatever share of the interface
 * it carries; a runtime written to replace another implements all of its
 * names with code of its own.  Between two majors sizes do not tell (GTK 3 and GTK 4 share 2585
 * names and 1518 of them have one size): their SONAME does.  A
 * module without a SONAME (an executable, a plugin) and a library that
 * re-exports names of its own dependency (a shim) keep the model of copies,
 * unless it defines unversioned every shared name its dependency versions:
 * an interface of its own (Oniguruma's GNU regex names, libgvpr's malloc and
 * free, gnulib's argp copied into libman, each beside glibc's). */
#include "analyse/analyse.h"
#include <elf.h>
#include <stdlib.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Only pairs that share a name are kept, in a map: an n-by-n table of a
 * process with thousands of plugins is gigabytes. */
struct pairs {
    const struct image *im;
    struct strmap ix;        /* "a b", a < b -> index into p + 1 */
    struct collision *p; int np, cap;
};

struct pairs *pairs_new(const struct image *im)
{
    struct pairs *ps = xcalloc(1, sizeof *ps);
    ps->im = im;
    return ps;
}

void pairs_free(struct pairs *ps)
{
    if (!ps) return;
    for (size_t i = 0; i < ps->ix.cap; i++) free(ps->ix.keys[i]);
    free(ps->ix.keys);
    free(ps->ix.vals);
    free(ps->p);
    free(ps);
}

static struct collision *pair(struct pairs *ps, int a, int b, int create)
{
    if (a > b) { int t = a; a = b; b = t; }
    char key[32];
    snprintf(key, sizeof key, "%d %d", a, b);
    intptr_t slot = (intptr_t)strmap_get(&ps->ix, key);
    if (!slot) {
        if (!create) return NULL;
        GROW(ps->p, ps->np, ps->cap);
        ps->p[ps->np] = (struct collision){ .a = a, .b = b, .first = -1, .registry = -1 };
        slot = ++ps->np;
        strmap_put(&ps->ix, key, (void *)slot);
    }
    return &ps->p[slot - 1];
}

/* Could a and b be two different libraries?  Only two SONAMEs that differ
 * (decide()): a pair of copies of one library, or of plugins without a
 * SONAME, is never counted. */
static int may_differ(const struct module *a, const struct module *b)
{
    return a->soname && b->soname && strcmp(a->soname, b->soname);
}

/* A definition that takes part in a namesake count: exported, a function or
 * an object, neither a weak C++ one (vague linkage, emitted everywhere by
 * design; a weak C name is a library's default, as glibc's re_search) nor unique (one per process whatever happens) nor absolute (glibc's
 * libraries all export their version nodes, GLIBC_2.2.5, as symbols), nor
 * the C runtime's _init and _fini, which old libraries export. */
static int counts(const struct def *d)
{
    return !d->hidden_vis && d->kind != K_OTHER && !(d->bind == STB_WEAK && !strncmp(d->name, "_Z", 2)) && d->bind != STB_GNU_UNIQUE &&
           d->shndx != SHN_ABS && strcmp(d->name, "_init") && strcmp(d->name, "_fini");
}

static const char *vname(const struct module *m, const struct def *d)
{
    return version_name(m, d->ver);
}

static int ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), t = strlen(tail);
    return n >= t && !strcmp(s + n - t, tail);
}

/* One name and its definers (module, def): count it for every pair. */
void pairs_count(struct pairs *ps, const char *name, const int *dm, const int *dk, int nd)
{
    const struct image *im = ps->im;
    int *s = xcalloc(nd ? nd : 1, sizeof *s), ns = 0;   /* the definers with a SONAME, in order */
    for (int i = 0; i < nd; i++)
        if (im->mods[dm[i]].m->soname) s[ns++] = i;
    for (int si = 0; si < ns; si++)
        for (int sj = si + 1; sj < ns; sj++) {
            int i = s[si], j = s[sj];
            if (dm[i] == dm[j]) continue;
            const struct module *A = im->mods[dm[i]].m, *B = im->mods[dm[j]].m;
            if (!may_differ(A, B)) continue;
            const struct def *da = &A->defs[dk[i]], *db = &B->defs[dk[j]];
            if (!counts(da) || !counts(db)) continue;
            const char *va = vname(A, da), *vb = vname(B, db);
            if (va && vb && strcmp(va, vb)) continue;   /* foo@V1, foo@V2: two interfaces on purpose */
            struct collision *c = pair(ps, dm[i], dm[j], 1);
            if (!c->shared++) c->example = name;
            c->bare += !va && !vb;
            if (ends_with(name, "_get_type") && !c->types++) c->type_name = name;   /* GObject's: registers the type under its name */
            /* the definitions themselves: one code has one size, another implementation another */
            if (da->size && db->size && da->kind == db->kind) { if (da->size == db->size) c->same++; else c->differ++; }
            /* a C++ runtime name is a bundled copy of the runtime, never another interface */
            if (!va != !vb && !runtime_name(name)) c->unver[(c->a == dm[i]) == !va ? 0 : 1]++;
        }
    free(s);
}

/* A SONAME's base and its version: "libgtk-3.so.0" -> "libgtk" and "-3.so.0",
 * "libfoo.so.2" -> "libfoo" and ".so.2" (a version at the stem's end counts
 * when a separator sets it off: GTK puts its major there, "libpython3.11";
 * "libuse1" and "libuse2" are two names).  0 when there is no ".so" part. */
static int base_of(const char *soname, size_t *base)
{
    const char *s = strstr(soname, ".so");
    if (!s || (s[3] && s[3] != '.')) return 0;
    size_t n = s - soname, k = n;
    while (k > 1 && strchr("0123456789.-_", soname[k - 1])) k--;
    *base = memchr(soname + k, '-', n - k) || memchr(soname + k, '_', n - k) || memchr(soname + k, '.', n - k) ? k : n;
    return 1;
}

/* One base name (libgtk-3.so.0 and libgtk-4.so.1; a SONAME and itself) */
static int same_base(const struct module *a, const struct module *b)
{
    size_t ba, bb;
    return a->soname && b->soname && base_of(a->soname, &ba) && base_of(b->soname, &bb) && ba == bb &&
           !strncmp(a->soname, b->soname, ba);
}

/* Two versions of one library: one base name, another SONAME. */
static int other_major(const struct module *a, const struct module *b)
{
    return same_base(a, b) && strcmp(a->soname, b->soname);
}

/* Is a a part of another version of b's library: a module that needs a
 * (DT_NEEDED) is another major of b?  GTK 3's libgdk-3, which libgtk-3
 * needs, beside libgtk-4, into which GTK 4 took GDK: their shared
 * definitions are mostly of one size (generated type functions), yet they
 * are two versions of GDK. */
static int part_of_other_major(const struct image *im, const struct module *a, const struct module *b)
{
    for (int i = 0; i < im->n; i++)
        if (im->mods[i].m != a && module_needs(im->mods[i].m, a) && other_major(im->mods[i].m, b)) return 1;
    return 0;
}

static void decide(struct pairs *ps, struct collision *c)
{
    struct module *A = ps->im->mods[c->a].m, *B = ps->im->mods[c->b].m;
    size_t ba, bb;
    c->different = 0;
    if (!A->soname || !B->soname) return;
    /* a library that re-exports its dependency's names is a shim of it, unless it
     * defines unversioned every one its dependency versions: another interface */
    if (module_needs(A, B) && c->unver[0] < c->shared) return;
    if (module_needs(B, A) && c->unver[1] < c->shared) return;
    int own = module_needs(A, B) || module_needs(B, A);   /* ... and here, one that does */
    if (!base_of(A->soname, &ba) || !base_of(B->soname, &bb)) return;
    if (same_base(A, B)) {
        if (other_major(A, B)) c->different = D_MAJOR;   /* libfoo.so.1 and libfoo.so.2 */
        return;
    }
    if (common_family(A, B)) return;   /* a bundled copy of a known library */
    if (part_of_other_major(ps->im, A, B) || part_of_other_major(ps->im, B, A)) { c->different = D_PART; return; }
    /* another name: a copy is the same code, whatever share of the
     * interface it carries; another library implementing that interface on
     * purpose (one runtime written to replace another) is other code: most
     * of the definitions the two share differ in size */
    /* one name in common tells of one entity (split.c's collision of two
     * definitions), not of a library */
    if ((c->differ > c->same && c->differ >= 2) || own) c->different = D_NAMES;
}

/* Are modules a and b different libraries (a pair worth one row)? */
int pairs_different(struct pairs *ps, int a, int b)
{
    struct collision *c = a == b ? NULL : pair(ps, a, b, 0);
    if (!c) return 0;
    if (!c->decided) { decide(ps, c); c->decided = 1; }
    return c->different != 0;
}

int pairs_any_different(struct pairs *ps)
{
    for (int i = 0; i < ps->np; i++)
        if (pairs_different(ps, ps->p[i].a, ps->p[i].b)) return 1;
    return 0;
}

/* Are a and b two implementations of one interface (other names, other
 * code)?  A program linked against both takes each name from the first:
 * its references to the other's names are crossings all the same. */
int pairs_reimplemented(struct pairs *ps, int a, int b)
{
    struct collision *c = pairs_different(ps, a, b) ? pair(ps, a, b, 0) : NULL;
    return c && c->different == D_NAMES;
}

/* A reference of f->binder, linked against f->x, bound to f->target of the
 * other library (split.c's capture, with its evidence). */
/* A capture of functions (no data on either side) into a module that needs
 * (DT_NEEDED) the library it takes them from: replaced on purpose (numpy's
 * xerbla_ in place of BLAS's, libgvpr's malloc and free in place of libc's,
 * gnulib's argp), not by accident of load order. */
int override_by_design(const struct image *im, const struct finding *f)
{
    return im->mods[f->x].m->defs[f->xdef].kind != K_DATA && im->mods[f->target].m->defs[f->def].kind != K_DATA &&
           f->target != f->x && module_needs(im->mods[f->target].m, im->mods[f->x].m);
}

void pairs_note(struct pairs *ps, const char *name, const struct finding *f)
{
    struct collision *c = pair(ps, f->x, f->target, 0);
    if (!c) return;
    c->crossed++;
    /* data of one name in both: code built for one works on the other's object */
    c->data_crossed |= ps->im->mods[f->x].m->defs[f->xdef].kind == K_DATA || ps->im->mods[f->target].m->defs[f->def].kind == K_DATA;
    int designed = override_by_design(ps->im, f);
    /* the strongest evidence that the library it was linked against stays
     * in use, an accidental crossing before one by design */
    int live = f->collision ? C_CERTAIN : f->conf;
    if (!c->name || (c->designed && !designed) ||
        (designed == c->designed && live >= 0 && (c->live < 0 || live < c->live))) {
        c->f = *f; c->name = name; c->live = live; c->designed = designed;
    }
}

static int scope_pos(const struct image *im, int idx)
{
    for (int i = 0; i < im->global.n; i++)
        if (im->global.idx[i] == idx) return i;
    return -1;
}

/* Another implementation of x's interface (y) took some references (the
 * crossings): which references of the other modules still bind x, to a name
 * whose code in x works on the state x's own copies of the interface work on
 * (a cell one writes and the other only reads, funcstate.c: a lock or a
 * once-flag each side writes as well is no such cell)?  rt_total, which
 * only the replaced runtime defines, reads the table its rt_put fills;
 * libgcc_s's __udivti3 beside libunwind's _Unwind_* touches no state of
 * libgcc_s's unwinder.  None: every reference that matters binds y, an
 * override.  Some: the references divide between the two, and x's state
 * with them.  Under --pid and --trace a reference counts only as the
 * process bound it (observed beats modelled).  Without a disassembly there
 * is no such evidence: an override is reported, never a split by guess. */
#define MAXKEPT 64   /* x's functions tried per pair: a bound on the work */
static void kept_references(const struct image *im, struct collision *c)
{
    int x = c->f.x, y = c->f.target;
    struct module *X = im->mods[x].m, *Y = im->mods[y].m;
    /* the state x's own definitions of the shared names touch */
    struct touches shared = { 0 };
    for (int k = 0; k < X->ndefs_dyn; k++) {
        const struct def *d = &X->defs[k];
        struct touches t;
        if (d->kind != K_FUNC || !d->size || module_find_defs(Y, d->name, d->hash) < 0) continue;
        if (function_touches(X, d, &t) >= 0 || t.n) {
            shared.v = xrealloc(shared.v, (shared.n + t.n + 1) * sizeof *shared.v);
            memcpy(shared.v + shared.n, t.v, t.n * sizeof *t.v);
            shared.n += t.n;
        }
        free(t.v);
    }
    unsigned char *tried = xcalloc(X->ndefs ? X->ndefs : 1, 1);   /* 1 no shared state, 2 shares it */
    int ntried = 0;
    for (int r = 0; r < im->n && shared.n; r++) {
        if (r == x || r == y) continue;
        const struct module *R = im->mods[r].m;
        for (int k = 0; k < R->nrefs; k++) {
            const struct ref *rf = &R->refs[k];
            int xd = module_find_defs(X, rf->name, rf->hash);
            if (xd < 0 || X->defs[xd].kind != K_FUNC || (!tried[xd] && ntried >= MAXKEPT)) continue;
            const char *ver = version_name(R, rf->ver);
            int hid = R->has_versym && rf->ver >= 2 && rf->ver < R->nvers ? R->vers[rf->ver].hidden : 0, d;
            int t = im->obs ? observed_module(im, r, rf->name, ver) : lookup(im, r, rf->name, rf->hash, ver, hid, rf->lazy, &d);
            if (t != x) continue;
            if (!tried[xd]) {
                struct touches kt;
                function_touches(X, &X->defs[xd], &kt);
                int found;
                one_way_cell(&kt, &shared, &found);
                tried[xd] = found ? 2 : 1;
                ntried++;
                free(kt.v);
            }
            if (tried[xd] != 2) continue;
            if (!c->kept++) { c->kept_binder = r; c->kept_name = rf->name; }
        }
    }
    free(tried);
    free(shared.v);
}

/* Libraries that hold one registry for the whole process, whatever the
 * scopes of the modules that fill it: two versions of a library built on one
 * register the same type names there, and the second is refused (libsoup
 * 2.4 and 3.0 both RTLD_LOCAL: "cannot register existing type
 * 'SoupSession'"). */
static const struct { const char *soname, *what; } REGISTRY[] = {
    { "libgobject-2.0.so.0", "GObject's type registry" },
};

/* Does module from need module to, directly or through its dependencies? */
static int needs_closure(const struct image *im, int from, int to)
{
    char *seen = xcalloc(im->n, 1);
    int *todo = xcalloc(im->n, sizeof *todo), n = 0, found = 0;
    todo[n++] = from;
    seen[from] = 1;
    while (n && !found) {
        int i = todo[--n];
        for (int k = 0; k < im->mods[i].ndeps; k++) {
            int d = im->mods[i].deps[k];
            if (d == to) found = 1;
            if (d >= 0 && d < im->n && !seen[d]) { seen[d] = 1; todo[n++] = d; }
        }
    }
    free(seen);
    free(todo);
    return found;
}

/* The registry module both libraries of a pair that register types of one
 * name need, or -1: two majors (libsoup-2.4.so.1, libsoup-3.0.so.0), or
 * two names of one library (libgtk-x11-2.0.so.0, libgtk-3.so.0). */
static int shared_registry(const struct image *im, const struct collision *c)
{
    if (!c->different || !c->types) return -1;
    for (int r = 0; r < im->n; r++) {
        const char *so = im->mods[r].m->soname;
        for (size_t k = 0; so && k < sizeof REGISTRY / sizeof REGISTRY[0]; k++)
            if (!strcmp(so, REGISTRY[k].soname) && needs_closure(im, c->a, r) && needs_closure(im, c->b, r)) return r;
    }
    return -1;
}

const char *registry_what(const struct module *m)
{
    for (size_t k = 0; m->soname && k < sizeof REGISTRY / sizeof REGISTRY[0]; k++)
        if (!strcmp(m->soname, REGISTRY[k].soname)) return REGISTRY[k].what;
    return NULL;
}

/* One finding per pair of different libraries. */
void pairs_find(struct pairs *ps, struct findings *fs)
{
    const struct image *im = ps->im;
    for (int i = 0; i < ps->np; i++) {
        struct collision *c = &ps->p[i];
        if (!pairs_different(ps, c->a, c->b)) continue;
        /* a replacement built on the library it replaces in part (it needs
         * it: gnulib's obstack in libgettextlib beside libc's) is an
         * override by design whatever the kind of the names */
        c->replaced = c->different == D_NAMES && c->name && !c->designed && !c->data_crossed &&
                      !module_needs(im->mods[c->f.target].m, im->mods[c->f.x].m);
        if (c->replaced) kept_references(im, c);
        heap_divided(im, c);
        int pa = scope_pos(im, c->a), pb = scope_pos(im, c->b);
        c->first = pa < 0 && pb < 0 ? -1 : pb < 0 || (pa >= 0 && pa < pb) ? c->a : c->b;
        /* two local scopes: the names do not meet (a promotion is the latent pass's) */
        c->meet = pa >= 0 || pb >= 0 || im->mods[c->a].scope == im->mods[c->b].scope;
        c->registry = shared_registry(im, c);
        struct item *it = findings_add(fs, F_COLLISION, c->name);
        it->c = *c;
        it->own = findings_own(fs, xasprintf("%s+%s", module_name(im->mods[c->a].m), module_name(im->mods[c->b].m)));
    }
}

/* The modules a collision names: its pair. */
int names_collision(const struct item *it, int i) { return it->c.a == i || it->c.b == i; }
