/* The load closure of one process image: DT_NEEDED breadth-first from the
 * executable (the global scope), then each --dlopen root with its own
 * breadth-first searchlist (its local scope), appended to the global scope
 * when opened with RTLD_GLOBAL.  Libraries are reused by name (SONAME or the
 * name they were requested by) and by file identity, as ld.so does.
 * Program order is kept: each module records the step it was opened at, each
 * global-scope entry the step it joined at (bind.c reads both).  A dlmopen
 * namespace (--trace reads them from the loader's record) loads its own
 * copy of every library, reusing only what that namespace holds; its first
 * root's searchlist is its global scope. */
#include "base/symsplit.h"
#include <stdio.h>
#include <stdlib.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int in_list(const struct searchlist *s, int idx)
{
    for (int i = 0; i < s->n; i++)
        if (s->idx[i] == idx) return 1;
    return 0;
}

void searchlist_push(struct searchlist *s, int idx, int join)
{
    if (s->n >= s->cap) {
        s->cap = s->cap ? 2 * s->cap : 8;
        s->idx = xrealloc(s->idx, s->cap * sizeof *s->idx);
        s->join = xrealloc(s->join, s->cap * sizeof *s->join);
    }
    s->join[s->n] = join;
    s->idx[s->n++] = idx;
}
static void push(struct searchlist *s, int idx) { searchlist_push(s, idx, 0); }

/* RTLD_GLOBAL (at open, or by promotion before the next dlopen): the whole
 * searchlist of dlopen k joins the global scope at step k+1, in its place:
 * after what joined earlier, before what joined later (a latent pass
 * promotes an early dlopen after later RTLD_GLOBAL ones are in the list; at
 * the end it would come after them, which no program order gives).  Returns
 * the undo mark for image_demote: the step it joined at. */
int image_promote(struct image *im, int k)
{
    const struct searchlist *sl = &im->locals[k];
    struct searchlist *g = &im->global;
    for (int i = 0; i < sl->n; i++) {
        if (in_list(g, sl->idx[i])) continue;
        searchlist_push(g, sl->idx[i], k + 1);
        for (int j = g->n - 1; j > 0 && g->join[j - 1] > k + 1; j--) {   /* stable: keeps breadth-first order */
            int t = g->idx[j]; g->idx[j] = g->idx[j - 1]; g->idx[j - 1] = t;
            t = g->join[j]; g->join[j] = g->join[j - 1]; g->join[j - 1] = t;
        }
    }
    return k + 1;
}
/* Only a dlopen that was RTLD_LOCAL is promoted and demoted: every entry
 * that joined at its step is its own. */
void image_demote(struct image *im, int mark)
{
    struct searchlist *g = &im->global;
    int n = 0;
    for (int i = 0; i < g->n; i++)
        if (g->join[i] != mark) { g->idx[n] = g->idx[i]; g->join[n++] = g->join[i]; }
    g->n = n;
}
int image_in_global(const struct image *im, int idx) { return in_list(&im->global, idx); }

/* by_name's index: "NS NAME" -> 1 + the first module of namespace NS that
 * goes by NAME (its SONAME, its path, a name it was requested by).  A
 * process of thousands of plugins asks it for every NEEDED entry: a scan
 * of every module each time made the closure quadratic. */
static void index_name(struct image *im, int i, const char *name)
{
    char *key = xasprintf("%d %s", im->mods[i].ns, name);
    intptr_t v = (intptr_t)strmap_get(&im->byname, key);
    if (!v || v > i + 1) strmap_put(&im->byname, key, (void *)(intptr_t)(i + 1));
    free(key);
}

static void add_name(struct image *im, int i, const char *name)
{
    struct lmod *l = &im->mods[i];
    l->names = xrealloc(l->names, (l->nnames + 1) * sizeof *l->names);
    l->names[l->nnames++] = name;
    if (i < im->named) index_name(im, i, name);   /* later ones: by_name indexes them whole */
}

static int by_name(struct image *im, const char *name, int ns)
{
    for (; im->named < im->n; im->named++) {
        const struct lmod *l = &im->mods[im->named];
        if (l->m->soname) index_name(im, im->named, l->m->soname);
        index_name(im, im->named, l->m->path);
        for (int k = 0; k < l->nnames; k++) index_name(im, im->named, l->names[k]);
    }
    char *key = xasprintf("%d %s", ns, name);
    intptr_t v = (intptr_t)strmap_get(&im->byname, key);
    free(key);
    return v - 1;
}

/* The module a --dlopen's by=MODULE names: its SONAME, a name it was
 * requested by, its path, or its file name. */
static int caller_of(struct image *im, const char *name)
{
    int i = by_name(im, name, 0);
    for (int k = 0; k < im->n && i < 0; k++) {
        const char *b = strrchr(im->mods[k].m->path, '/');
        if (!strcmp(b ? b + 1 : im->mods[k].m->path, name)) i = k;
    }
    return i;
}

static int add_module(struct image *im, struct module *m, int loader, int scope, int ns, const char *name)
{
    for (int i = 0; i < im->n; i++)     /* same file under another name: one module (per namespace) */
        if (im->mods[i].m == m && im->mods[i].ns == ns) { add_name(im, i, name); return i; }
    GROW(im->mods, im->n, im->cap);
    module_hold(m);
    /* opened by dlopen number scope (step scope+1), or at start-up (step 0) */
    im->mods[im->n] = (struct lmod){ .m = m, .loader = loader, .scope = scope, .filter = -1, .step = scope + 1, .now = m->bind_now, .ns = ns };
    add_name(im, im->n, name);
    return im->n++;
}

static void missing(struct image *im, const char *name, int req)
{
    for (int i = 0; i < im->nmissing; i++)
        if (!strcmp(im->missing[i].name, name) && im->missing[i].req == req) return;
    im->missing = xrealloc(im->missing, (im->nmissing + 1) * sizeof *im->missing);
    im->missing[im->nmissing++] = (struct missing){ name, req };
}

/* j becomes a dependency of cur (once) */
static void add_dep(struct lmod *cl, int j)
{
    for (int i = 0; i < cl->ndeps; i++)
        if (cl->deps[i] == j) return;
    GROW(cl->deps, cl->ndeps, cl->depcap);
    cl->deps[cl->ndeps++] = j;
}

/* The module cur's NEEDED (or filter) name is, loaded if it is not yet;
 * -1 when no search finds it (recorded as missing when it must load). */
static int need(struct image *im, int cur, const char *name, int required, int scope, char **err)
{
    int j = by_name(im, name, im->mods[cur].ns);
    if (j >= 0) return j;
    struct module *m = find_library(im, cur, name, err);
    if (*err) return -1;
    if (!m) { if (required) missing(im, name, cur); return -1; }
    return add_module(im, m, cur, scope, im->mods[cur].ns, name);
}

/* A filter's filtee goes just before the filter in the searchlist (glibc's
 * _dl_map_object_deps: inserted there when new, moved up when it is
 * already later in the list), so its definitions answer every lookup that
 * reaches the filter. Returns 1 when the entry at q is now the filtee. */
static int filtee_before(struct searchlist *sl, int q, int j)
{
    int at = -1;
    for (int i = 0; i < sl->n; i++)
        if (sl->idx[i] == j) at = i;
    if (at >= 0 && at < q) return 0;   /* already ahead of the filter */
    if (at < 0) { searchlist_push(sl, j, sl->join[q]); at = sl->n - 1; }
    for (int i = at; i > q; i--) {   /* rotate it into place q */
        int t = sl->idx[i]; sl->idx[i] = sl->idx[i - 1]; sl->idx[i - 1] = t;
        t = sl->join[i]; sl->join[i] = sl->join[i - 1]; sl->join[i - 1] = t;
    }
    return 1;
}

/* Breadth-first over NEEDED from root; fills sl in load order. A filter's
 * filtees (DT_FILTER must load, DT_AUXILIARY may fail) come before it,
 * and are walked next; a filter run as the main object (ld.so FILE, as
 * ldd does) has its filtees ignored: glibc 2.36 loads none (LD_DEBUG=libs
 * names none). */
static int bfs(struct image *im, struct searchlist *sl, int root, int scope, char **err)
{
    if (!in_list(sl, root)) push(sl, root);
    int moves = 0;   /* filters that are each other's filtees move each other for ever: a bound */
    for (int q = 0; q < sl->n; q++) {   /* the executable and any preloads first, then their NEEDED */
        int cur = sl->idx[q], first = -1;
        for (int k = 0; k < im->mods[cur].m->nneeded; k++) {
            int j = need(im, cur, im->mods[cur].m->needed[k], 1, scope, err);
            if (*err) return -1;
            if (j < 0) continue;
            add_dep(&im->mods[cur], j);
            if (!in_list(sl, j)) push(sl, j);
        }
        for (int k = 0; cur && k < im->mods[cur].m->nfiltees; k++) {   /* the main object's: not followed (measured) */
            const struct filtee *f = &im->mods[cur].m->filtees[k];
            int j = need(im, cur, f->name, !f->aux, scope, err);
            if (*err) return -1;
            if (j < 0 || j == cur) continue;
            add_dep(&im->mods[cur], j);
            if (im->mods[j].filter < 0) im->mods[j].filter = cur;
            if (im->mods[cur].filter == j || moves > 4 * sl->n) continue;
            int at = q;
            while (sl->idx[at] != cur) at++;
            if (filtee_before(sl, at, j) && (moves++, first < 0)) first = at;
        }
        if (first >= 0) q = first - 1;   /* the first filtee inserted is walked next */
    }
    return 0;
}

/* The order ld.so relocates the modules one load brings (glibc 2.35+,
 * _dl_sort_maps' depth-first sort): the load's searchlist walked from its
 * last entry to its first, each entry's DT_NEEDED followed in order, a
 * module placed once its dependencies are (the main object is no one's
 * dependency); rtld.c and dl-open.c relocate in that order, dependencies
 * first. Measured, trace mode, LD_DEBUG=reloc: apt-cache's 17 modules,
 * libc.so.6 first, libapt-pkg before libapt-private, apt-cache last.
 * Which module's lookup came first decides an STB_GNU_UNIQUE binding
 * (bind.c). A module an earlier load placed keeps its place. */
static void place(struct image *im, int i, char *seen)
{
    if (seen[i]) return;
    seen[i] = 1;
    for (int k = 0; k < im->mods[i].ndeps; k++)
        if (im->mods[i].deps[k]) place(im, im->mods[i].deps[k], seen);
    if (!im->mods[i].reloc) { im->order[im->nreloc] = i; im->mods[i].reloc = ++im->nreloc; }
}

static void reloc_order(struct image *im, const struct searchlist *sl)
{
    char *seen = xcalloc(im->n ? im->n : 1, 1);
    im->order = xrealloc(im->order, (im->n ? im->n : 1) * sizeof *im->order);
    for (int q = sl->n - 1; q >= 0; q--) place(im, sl->idx[q], seen);
    free(seen);
}

/* LD_PRELOAD (from the environment, as ld.so reads it; --preload adds to
 * it): whitespace- or colon-separated; each object comes right after the
 * executable in the global scope, before the executable's own NEEDED, and
 * its dependencies join the breadth-first walk.  A name without a slash is
 * searched as a NEEDED of the executable. */
static int preload(struct image *im, char **err)
{
    const char *env = getenv("LD_PRELOAD");
    if (!env || !*env) return 0;
    push(&im->global, 0);
    char *list = xstrdup(env), *save, *name;
    for (char *p = list; (name = strtok_r(p, " :\t", &save)); p = NULL) {
        struct module *m = find_library(im, 0, name, err);
        if (*err) { free(list); return -1; }
        if (!m) { *err = xasprintf("LD_PRELOAD: %s: cannot find it (ld.so ignores it with a message)", name); free(list); return -1; }
        int j = add_module(im, m, 0, -1, 0, xstrdup(name));
        if (!in_list(&im->global, j)) push(&im->global, j);
    }
    free(list);
    return 0;
}

/* Does m export a function called name? */
static int defines_func(const struct module *m, const char *name)
{
    uint32_t h = name_hash(name);
    for (int i = module_find_defs(m, name, h); i >= 0; i = m->defs[i].next)
        if (m->defs[i].hash == h && !m->defs[i].hidden_vis && m->defs[i].kind == K_FUNC && !strcmp(m->defs[i].name, name))
            return 1;
    return 0;
}

/* An RTLD_GLOBAL object joins the global scope only when its constructors
 * have returned (dl_open_worker: add_to_global_update after
 * _dl_init).  A constructor that calls a function of a module opened
 * RTLD_LAZY before it makes that module bind its lazy slots then, with the
 * newcomer not yet global (measured: timeline, plugin.so:lazy then
 * libnew.so:global, whose constructor calls plugin.so's user_count:
 * plugin.so's reg_count binds libB.so's, after "calling init: libnew.so").
 * Which functions a constructor calls is not in the files: a module an
 * earlier dlopen loaded, among the newcomer's dependencies, whose functions
 * the newcomer's objects reference, is taken to be called then; its slots
 * bind before the promotion, the side that makes no capture.  The start-up
 * modules keep "after the last open" (not measured here). */
static void ctor_calls(struct image *im, const struct searchlist *sl, int before, int step)
{
    for (int o = 0; o < before && before < im->n; o++) {   /* nothing new: no constructor runs */
        struct lmod *old = &im->mods[o];
        if (old->now || old->ctor_step || !old->step || !in_list(sl, o)) continue;
        for (int i = before; i < im->n && !old->ctor_step; i++)
            for (int k = 0; k < im->mods[i].m->nrefs && !old->ctor_step; k++)
                if (defines_func(old->m, im->mods[i].m->refs[k].name)) old->ctor_step = step;
    }
}

int image_startup(struct image *im, const char *exe, char **err)
{
    memset(im, 0, sizeof *im);
    im->exe_path = exe;
    int skip;
    struct module *m = load_path(exe, 1, err, &skip);
    if (!m) return -1;
    add_module(im, m, -1, -1, 0, exe);
    if (m->is_static) return 0;
    /* a NEEDED loop is no obstacle: a module already loaded is reused by
     * name, as ld.so does */
    if (preload(im, err) || bfs(im, &im->global, 0, -1, err)) return -1;
    reloc_order(im, &im->global);
    return 0;
}

/* The open image_dlopen_begin made failed (openfail.c): every module it
 * loaded goes, with what the image learnt of them; what was loaded before
 * stays.  A name an old module gained in the open stays too (ld.so keeps
 * it). */
void image_dlopen_undo(struct image *im, struct openmark mk)
{
    struct searchlist *sl = &im->locals[im->nlocals];
    int before = mk.before, nreloc = mk.nreloc;
    for (int i = before; i < im->n; i++) {
        free(im->mods[i].names); free(im->mods[i].deps); free(im->mods[i].label);
        module_unhold(im->mods[i].m);
    }
    im->n = before;
    im->nreloc = nreloc;
    for (int i = 0; i < before; i++) {
        if (im->mods[i].filter >= before) im->mods[i].filter = -1;
        if (im->mods[i].reloc > nreloc) im->mods[i].reloc = 0;
    }
    free(sl->idx); free(sl->join);
    strmap_free(&im->byname);   /* by_name indexes the modules again */
    im->named = 0;
}

/* The open's searchlist, its new modules loaded and flagged, the relocation
 * order extended; *mk what it loaded (image_dlopen_end commits it, or
 * image_dlopen_undo takes it back). */
int image_dlopen_begin(struct image *im, const struct dlopen_req *dl, struct openmark *mk, char **err)
{
    *err = NULL;
    int root = by_name(im, dl->path, dl->ns), before = im->n, caller = dl->by ? caller_of(im, dl->by) : 0;
    if (caller < 0) {
        *err = xasprintf("--dlopen %s: by=%s: no such module loaded before this dlopen", dl->path, dl->by);
        return -1;
    }
    if (root < 0) {
        /* searched as glibc searches a dlopen: the calling object's
         * DT_RPATH chain (unless it has DT_RUNPATH), LD_LIBRARY_PATH, its
         * DT_RUNPATH, the cache, the defaults; $ORIGIN is its directory */
        struct module *rm = find_library(im, caller, dl->path, err);
        if (*err) return -1;
        if (!rm) {   /* dlopen searches a name without a slash; it never looks in the current directory */
            *err = xasprintf("%s: cannot find the --dlopen module in the library search path of %s%s", dl->path,
                             caller ? module_name(im->mods[caller].m) : "the executable",
                             !strchr(dl->path, '/') && !access(dl->path, F_OK)
                                 ? " (a name without a slash is searched as dlopen does; for the file here write ./NAME)" : "");
            return -1;
        }
        /* its own NEEDED: its DT_RPATH, then the executable's (measured:
         * not the caller's), as a module loaded by the executable */
        root = add_module(im, rm, 0, im->nlocals, dl->ns, dl->path);
    }
    im->locals = xrealloc(im->locals, (im->nlocals + 1) * sizeof *im->locals);
    im->roots = xrealloc(im->roots, (im->nlocals + 1) * sizeof *im->roots);
    im->roots[im->nlocals] = root;
    struct searchlist *sl = &im->locals[im->nlocals];
    memset(sl, 0, sizeof *sl);
    if (bfs(im, sl, root, im->nlocals, err)) return -1;
    mk->nreloc = im->nreloc;
    mk->before = before;
    reloc_order(im, sl);
    /* a dlmopen namespace's global scope: its first root's searchlist */
    int ns_first = dl->ns ? im->nlocals + 1 : 0;
    for (int i = 0; i < before && dl->ns; i++)
        if (im->mods[i].ns == dl->ns && im->mods[i].ns_scope) { ns_first = im->mods[i].ns_scope; break; }
    for (int i = before; i < im->n; i++) {
        im->mods[i].deepbind = dl->deepbind;
        im->mods[i].now |= !dl->lazy;   /* RTLD_NOW: every reference bound at open */
        im->mods[i].ns_scope = ns_first;
    }
    return 0;
}

/* The open takes effect: its searchlist is the next step's; RTLD_GLOBAL
 * joins the global scope. */
void image_dlopen_end(struct image *im, const struct dlopen_req *dl, struct openmark mk)
{
    struct searchlist *sl = &im->locals[im->nlocals];
    im->nlocals++;
    if (dl->kind == SC_GLOBAL) {
        ctor_calls(im, sl, mk.before, im->nlocals);
        image_promote(im, im->nlocals - 1);
    }
}
static void openfail_free(struct openfail *f)
{
    for (int j = 0; j < f->nobjs; j++) free(f->objs[j]);
    free(f->objs);
    free(f->root); free(f->from); free(f->name); free(f->ver);
}

void image_free(struct image *im)
{
    for (int i = 0; i < im->n; i++) {
        free(im->mods[i].names); free(im->mods[i].deps); free(im->mods[i].label);
        module_unhold(im->mods[i].m);
    }
    free(im->roots);
    free(im->order);
    free(im->mods);
    free(im->global.idx);
    free(im->global.join);
    for (int i = 0; i < im->nlocals; i++) { free(im->locals[i].idx); free(im->locals[i].join); }
    free(im->locals);
    free(im->missing);
    for (int i = 0; i < im->nfails; i++) openfail_free(&im->fails[i]);
    free(im->fails);
    strmap_free(&im->byname);
}
