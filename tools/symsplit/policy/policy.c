/* The verdict policy: from a finding (who binds which copy, why the other
 * copy is still in use) to a class and a severity, and from the counts of
 * each class to the exit status.  Wording lives in report.c. */
#include "policy/policy.h"
#include <stdlib.h>
#include <string.h>

#define NAME_ITEM(id, name, ...) name,
#define ROW_ITEM(id, ...) { __VA_ARGS__ },
const char *const vclass_name[] = { VERDICTS(NAME_ITEM) };
const struct vclass_row vclass[V_NCLASS] = { VERDICTS(ROW_ITEM) };

int vclass_shown(enum vclass v, int show_all) { return show_all || vclass[v].shown; }

static const char *mname(const struct image *im, int i) { return module_name(im->mods[i].m); }

static void decide_capture(const struct item *it, struct decision *d)
{
    const struct finding *f = &it->f;
    memset(d, 0, sizeof *d);
    /* nothing can diverge: INFO */
    d->sev = it->harmless ? "info" : it->override ? "med" : it->data || f->collision ? "high" : it->proven ? "med" : "low";
    /* med when disassembly or .symtab proves the state, low when it is estimated;
     * only "possible" evidence: reported, but it does not make the exit status.
     * Two different entities of one name (sizes or bytes differ) are no
     * copies of one state: a collision whose reference crossed (the
     * binding itself is the harm: code built for one works on the other) */
    d->cls = it->harmless ? V_INFO : f->collision ? V_COLLISION : f->conf == C_POSSIBLE ? V_MAYBE : V_SPLIT;
    d->crossed = f->collision && !it->override;   /* an override by design: shown, not counted harmful */
}

static void decide_noload(struct decision *d, int fragile)
{
    memset(d, 0, sizeof *d);
    d->cls = V_NOLOAD;
    d->sev = fragile ? "med" : "high";   /* med: loads, but only from one current directory */
}

static void decide_collision(struct decision *d, const struct collision *c)
{
    memset(d, 0, sizeof *d);
    /* never "nothing diverges", never a split: two different libraries are
     * no copies of one state.  The harm is a reference that crossed from
     * one to the other while the one it was built for stays in use: code
     * built for one library runs on the other's structures.  One whose own
     * library is unused is interposition by design (libunwind's _Unwind_*
     * in place of libgcc_s's, in perf): the pair's row, no harm shown. */
    d->cls = V_COLLISION;
    d->crossed = c->name && c->live >= 0 && c->live != C_POSSIBLE && !c->designed;
    /* another implementation of one interface (collide.c's D_NAMES) took
     * references: an override when every other reference binds it too (the
     * replaced library's own calls run only if someone calls into it);
     * harmful when some still bind that one, the replaced library's state
     * divided with them.  A collision all the same, not a SPLIT: the two are
     * other code (libedit's readline beside GNU readline, GTK 2's libgdk
     * beside GTK 3's), and SPLIT is kept for two copies of one library */
    /* an allocator replacement lacking a name of the replaced one's
     * interface that a reference binds there (heap.c): two heaps, each
     * taking the other's blocks (harmful, whether by design or not) */
    if (c->heap_name) { d->crossed = 1; d->sev = "high"; return; }
    if (c->replaced) {
        d->crossed = c->kept > 0;
        if (d->crossed) { d->sev = "high"; return; }
    }
    /* Two majors of one library whose unversioned names meet, one of them
     * in the global scope: every lookup by name there (dlsym(RTLD_DEFAULT),
     * a lazy slot, a module loaded later) finds whichever came first, and
     * libraries probe for a rival so (GTK 4 aborts on finding GTK 3's
     * names): harmful with no reference crossed.  Versioned names carry
     * their choice with them; two local scopes wait for a promotion (the
     * latent pass). */
    d->scoped = !d->crossed && (c->different == D_MAJOR || c->different == D_PART) && c->bare > 0 && c->first >= 0;
    /* Two libraries registering types of one name in the one registry
     * both need (GObject's): the second's types are refused whatever the
     * scopes, as soon as both are used (measured: libsoup 2.4 and 3.0 both
     * RTLD_LOCAL, and the registry fixture) */
    d->registry = !d->crossed && !d->scoped && c->registry >= 0;
    d->scoped |= d->registry;
    d->crossed |= d->scoped;
    d->sev = d->crossed ? "high" : "med";
}

static void decide_copy(struct decision *d, const char *sev)
{
    memset(d, 0, sizeof *d);
    d->cls = V_COPY;
    d->sev = sev;    /* from the state the library holds (copies.c's table) */
}

static int decide_latent(struct decision *d)
{
    /* only a would-be split or crossing is worth a LATENT row */
    if (d->cls != V_SPLIT && !d->crossed) return 0;
    d->cls = V_LATENT;
    d->crossed = 0;          /* scoped stays: what the promotion would make harmful */
    return 1;
}


/* Is a finding about name, among these modules, on the allowlist? */
static int allowed(const struct allow *a, const struct image *im, const char *name, const int *idx, int n)
{
    if (!a) return 0;
    const char **mods = xcalloc(n + 2, sizeof *mods);
    for (int i = 0; i < n; i++) mods[i] = mname(im, idx[i]);
    int yes = allow_match(a, name, mods, n);
    free(mods);
    return yes;
}

struct policy {
    struct allow *allow;
    struct strmap seen;      /* image, symbol, binder, live copy of each SPLIT/LATENT row; pairs likewise */
    int suppressed;
};

struct policy *policy_new(struct allow *allow)
{
    struct policy *p = xcalloc(1, sizeof *p);
    p->allow = allow;
    return p;
}

int policy_suppressed(const struct policy *p) { return p->suppressed; }

/* info < low < med < high */
static int sev_rank(const char *sev)
{
    static const char *const order[] = { "info", "low", "med", "high" };
    for (int i = 0; i < 4; i++)
        if (!strcmp(sev, order[i])) return i;
    return 0;
}

static void set(struct item *it, struct decision *d)
{
    it->keep = K_SHOW;
    it->cls = d->cls;
    /* no higher than the class carries (VERDICTS' most) */
    it->csev = sev_rank(d->sev) > sev_rank(vclass[d->cls].most) ? vclass[d->cls].most : d->sev;
    it->crossed = d->crossed;
    it->scoped = d->scoped;
    it->registry = d->registry;
}

/* A capture: allowlisted, else graded; a finding already made stays one
 * row, and in a latent pass only what the promotion adds is kept. */
static void grade_capture(struct policy *p, const struct image *im, const struct findings *fs, struct item *it)
{
    const struct finding *f = &it->f;
    struct decision d;
    it->sym = it->name;
    if (allowed(p->allow, im, it->name, it->mods, it->nmods)) { p->suppressed++; it->keep = K_SUPPRESSED; return; }
    decide_capture(it, &d);
    char *key = xasprintf("%s\1%s\1%s\1%s", im->exe_path, it->name, mname(im, f->binder), im->mods[f->x].m->path);
    int dup = strmap_get(&p->seen, key) != NULL;
    if (fs->promoted && (dup || !decide_latent(&d))) { free(key); it->keep = K_DROP; return; }
    if (d.cls == V_SPLIT || d.cls == V_LATENT || d.crossed) strmap_put(&p->seen, key, p);
    free(key);
    set(it, &d);
}

/* The process died with the row's two libraries loaded (--trace, died.c):
 * the end is the evidence, whatever the model says of the bindings:
 * harmful.  Only different libraries (COLLISION): copies of one library
 * (COPY, a partition) are each bound by their own users, and a dlmopen
 * namespace's own libc is one in every such process. */
static void died_with(struct item *it)
{
    it->keep = K_SHOW;
    it->csev = "high";
    it->crossed = 1;
    it->died = 1;
}

/* Two different libraries that share names: one row for the pair. */
static void grade_collision(struct policy *p, const struct image *im, const struct findings *fs, struct item *it)
{
    const struct collision *c = &it->c;
    struct decision d;
    decide_collision(&d, c);
    it->sym = c->heap_name ? c->heap_name : d.crossed && c->name ? c->name : it->own;
    int mods[2] = { c->a, c->b };
    char *key = xasprintf("%s\1pair\1%s\1%s", im->exe_path, im->mods[c->a].m->path, im->mods[c->b].m->path);
    int dup = strmap_get(&p->seen, key) != NULL;
    it->keep = K_DROP;
    /* a latent pass reports a harmful crossing the promotion adds, nothing else */
    /* a collision row needs the names to meet, and more than one of them:
     * one shared name is a convention (NSPR's libVersionPoint in each of
     * its libraries, a plugin's entry point), not another library's interface */
    if ((fs->promoted && (dup || !decide_latent(&d))) || (d.cls == V_COLLISION && ((!c->meet && !d.registry) || (c->shared < 2 && !c->name))))
        ;
    else if (allowed(p->allow, im, it->sym, mods, 2)) { p->suppressed++; it->keep = K_SUPPRESSED; }
    else {
        /* harm by scope alone leaves the latent pass its crossings to add */
        if ((d.crossed && !d.scoped) || d.registry || d.cls == V_LATENT) strmap_put(&p->seen, key, p);
        set(it, &d);
    }
    free(key);
    /* a pair whose names do not meet is still two libraries loaded with names in common */
    if (fs->died.how && !fs->promoted && it->keep != K_SUPPRESSED && (c->shared >= 2 || c->name)) {
        decide_collision(&d, c);
        set(it, &d);
        it->sym = c->name ? c->name : it->own;
        died_with(it);
    }
}

/* A partition: beside a split it is no row of its own; a latent pass adds none. */
static void grade_partition(struct policy *p, const struct image *im, const struct findings *fs, struct item *it)
{
    const struct item *cap = it->capture >= 0 ? &fs->v[it->capture] : NULL;
    struct decision d;
    it->sym = it->name;
    if (fs->promoted || (cap && cap->keep == K_SHOW && (cap->cls == V_SPLIT || cap->crossed))) { it->keep = K_DROP; return; }
    decide_copy(&d, "med");   /* the state behind each copy is proven */
    set(it, &d);
}

/* A library in 2+ copies: the severity copies.c's table gives it. */
static void grade_copy(struct policy *p, const struct image *im, const struct findings *fs, struct item *it)
{
    struct decision d;
    it->sym = it->name;
    decide_copy(&d, it->sev);
    set(it, &d);
}

/* What ld.so would refuse: NOLOAD. */
static void grade_noload(struct policy *p, const struct image *im, const struct findings *fs, struct item *it)
{
    struct decision d;
    it->sym = it->name;
    /* med: it loads, but only from one directory (relative NEEDED, a lazy undefined call) */
    decide_noload(&d, it->nl.cause == N_RELATIVE || it->nl.cause == N_UNDEFINED_LAZY);
    set(it, &d);
}

/* Each kind's grader, from the kinds' table (analyse.h), in the order found:
 * a partition reads its capture's grade. */
#define GRADER_ITEM(id, name, ...) [id] = grade_##name,
static void (*const graders[F_NKINDS])(struct policy *, const struct image *, const struct findings *, struct item *) = {
    FKINDS(GRADER_ITEM)
};

void policy_grade(struct policy *p, const struct image *im, struct findings *fs)
{
    for (int i = 0; i < fs->n; i++) graders[fs->v[i].kind](p, im, fs, &fs->v[i]);
}

int exit_status(const int count[V_NCLASS], int crossed, int errors, int strict)
{
    if (errors) return 2;
    int status = crossed ? 1 : 0;
    for (int v = 0; v < V_NCLASS; v++) {
        int set = strict ? vclass[v].strict : vclass[v].exit;
        if (count[v] && set > status) status = set;
    }
    return status;
}
