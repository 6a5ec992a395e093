/* The load closure of one process image: DT_NEEDED breadth-first from the
 * executable (the global scope), then each --dlopen root with its own
 * breadth-first searchlist (its local scope), appended to the global scope
 * when opened with RTLD_GLOBAL.  Libraries are reused by name (SONAME or the
 * name they were requested by) and by file identity, as ld.so does. */
#include "symsplit.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int in_list(const struct searchlist *s, int idx)
{
    for (int i = 0; i < s->n; i++)
        if (s->idx[i] == idx) return 1;
    return 0;
}

static void push(struct searchlist *s, int idx)
{
    GROW(s->idx, s->n, s->cap);
    s->idx[s->n++] = idx;
}

static void add_name(struct lmod *l, const char *name)
{
    l->names = xrealloc(l->names, (l->nnames + 1) * sizeof *l->names);
    l->names[l->nnames++] = name;
}

static int by_name(const struct image *im, const char *name)
{
    for (int i = 0; i < im->n; i++) {
        const struct lmod *l = &im->mods[i];
        if (l->m->soname && !strcmp(l->m->soname, name)) return i;
        if (!strcmp(l->m->path, name)) return i;
        for (int k = 0; k < l->nnames; k++)
            if (!strcmp(l->names[k], name)) return i;
    }
    return -1;
}

static int add_module(struct image *im, struct module *m, int loader, int scope, const char *name)
{
    for (int i = 0; i < im->n; i++)     /* same file under another name: one module */
        if (im->mods[i].m == m) { add_name(&im->mods[i], name); return i; }
    GROW(im->mods, im->n, im->cap);
    im->mods[im->n] = (struct lmod){ .m = m, .loader = loader, .scope = scope };
    add_name(&im->mods[im->n], name);
    return im->n++;
}

/* Edges of the NEEDED graph, for loop detection. */
struct edges { int *from, *to; int n, cap, cap2; };

static void missing(struct image *im, const char *name, int req)
{
    for (int i = 0; i < im->nmissing; i++)
        if (!strcmp(im->missing[i].name, name) && im->missing[i].req == req) return;
    im->missing = xrealloc(im->missing, (im->nmissing + 1) * sizeof *im->missing);
    im->missing[im->nmissing++] = (struct missing){ name, req };
}

/* Breadth-first over NEEDED from root; fills sl in load order. */
static int bfs(struct image *im, struct searchlist *sl, int root, int scope, struct edges *E, char **err)
{
    push(sl, root);
    for (int q = 0; q < sl->n; q++) {
        int cur = sl->idx[q];
        struct module *cm = im->mods[cur].m;
        for (int k = 0; k < cm->nneeded; k++) {
            const char *name = cm->needed[k];
            int j = by_name(im, name);
            if (j < 0) {
                struct module *m = find_library(im, cur, name, err);
                if (*err) return -1;
                if (!m) { missing(im, name, cur); continue; }
                j = add_module(im, m, cur, scope, name);
                cm = im->mods[cur].m;
            }
            struct lmod *cl = &im->mods[cur];
            int seen = 0;
            for (int i = 0; i < cl->ndeps; i++) seen |= cl->deps[i] == j;
            if (!seen) { GROW(cl->deps, cl->ndeps, cl->depcap); cl->deps[cl->ndeps++] = j; }
            GROW(E->from, E->n, E->cap);
            GROW(E->to, E->n, E->cap2);
            E->from[E->n] = cur;
            E->to[E->n++] = j;
            if (!in_list(sl, j)) push(sl, j);
        }
    }
    return 0;
}

/* Depth-first colouring; a back edge is a NEEDED loop. */
static int dfs(const struct image *im, const struct edges *E, int v, char *color, int *stack, int depth, char **err)
{
    color[v] = 1;
    stack[depth] = v;
    for (int e = 0; e < E->n; e++) {
        if (E->from[e] != v) continue;
        int w = E->to[e];
        if (color[w] == 1) {   /* w is on the stack: the loop is w .. v -> w */
            int from = depth;
            while (stack[from] != w) from--;
            char *s = xstrdup("");
            for (int i = from; i <= depth; i++) {
                char *t = xasprintf("%s%s -> ", s, module_name(im->mods[stack[i]].m));
                free(s);
                s = t;
            }
            *err = xasprintf("%s: NEEDED loop: %s%s", im->mods[w].m->path, s, module_name(im->mods[w].m));
            free(s);
            return -1;
        }
        if (!color[w] && dfs(im, E, w, color, stack, depth + 1, err)) return -1;
    }
    color[v] = 2;
    return 0;
}

int image_build(struct image *im, const char *exe, const struct dlopen_req *dl, int ndl, char **err)
{
    memset(im, 0, sizeof *im);
    im->exe_path = exe;
    int skip;
    struct module *m = load_path(exe, 1, err, &skip);
    if (!m) return -1;
    struct edges E = { 0 };
    int rc = -1;
    add_module(im, m, -1, -1, exe);
    if (m->is_static) return 0;
    if (bfs(im, &im->global, 0, -1, &E, err)) goto out;
    for (int d = 0; d < ndl; d++) {
        int root = by_name(im, dl[d].path), before = im->n;
        if (root < 0) {
            struct module *rm = find_library(im, 0, dl[d].path, err);  /* as if called from the exe */
            if (*err) goto out;
            if (!rm) {   /* dlopen searches a name without a slash; it never looks in the current directory */
                *err = xasprintf("%s: cannot find the --dlopen module in the library search path%s", dl[d].path,
                                 !strchr(dl[d].path, '/') && !access(dl[d].path, F_OK)
                                     ? " (a name without a slash is searched as dlopen does; for the file here write ./NAME)" : "");
                goto out;
            }
            root = add_module(im, rm, 0, im->nlocals, dl[d].path);
        }
        im->locals = xrealloc(im->locals, (im->nlocals + 1) * sizeof *im->locals);
        im->roots = xrealloc(im->roots, (im->nlocals + 1) * sizeof *im->roots);
        im->roots[im->nlocals] = root;
        struct searchlist *sl = &im->locals[im->nlocals];
        memset(sl, 0, sizeof *sl);
        if (bfs(im, sl, root, im->nlocals, &E, err)) goto out;
        for (int i = before; i < im->n; i++) im->mods[i].deepbind = dl[d].deepbind;
        im->nlocals++;
        if (dl[d].kind == SC_GLOBAL)   /* RTLD_GLOBAL: the whole searchlist joins the global scope */
            for (int i = 0; i < sl->n; i++)
                if (!in_list(&im->global, sl->idx[i])) push(&im->global, sl->idx[i]);
    }
    char *color = xcalloc(im->n, 1);
    int *stack = xcalloc(im->n + 1, sizeof *stack);
    rc = 0;
    for (int v = 0; v < im->n && !rc; v++)
        if (!color[v]) rc = dfs(im, &E, v, color, stack, 0, err);
    free(color);
    free(stack);
out:
    free(E.from);
    free(E.to);
    return rc;
}

void image_free(struct image *im)
{
    for (int i = 0; i < im->n; i++) { free(im->mods[i].names); free(im->mods[i].deps); }
    free(im->roots);
    free(im->mods);
    free(im->global.idx);
    for (int i = 0; i < im->nlocals; i++) free(im->locals[i].idx);
    free(im->locals);
    free(im->missing);
}
