/* The analysis layer: findings as plain data (findings.c), made from the
 * image by split.c, collide.c, copies.c and loadable.c, with state.c's facts
 * about what two copies hold.  The policy grades them, the reporters print
 * them; neither is called from here. */
#ifndef ANALYSE_H
#define ANALYSE_H
#include "base/symsplit.h"

/* ---- findings: what the analysis found, as data (findings.c) ---- */
/* A capture: `binder` was linked against module x (in its dependencies) but
 * its binding lands on (target, def); x's own definition xdef stays in use,
 * by the evidence ev_how (of ev_binder, or via the other name ev_name). */
struct finding {
    int binder, target, def, how;
    int x, xdef, conf;
    int ev_how, ev_binder;
    const char *ev_name;
    int collision;           /* the two definitions are different entities (sizes or bytes differ) */
    int observed;            /* the capturing binding was read from the process, not modelled */
    int local;               /* the binder's binding went through a dlopen's local scope */
    int lazy;                /* --pid: the binder's slot for the name is not bound yet */
    /* sharedstate.c: x's copy of the name is bound by nobody, but x's
     * function ev_name, bound to x by ev_binder, touches a cell of x's
     * state (ev_addr, in object ev_state, NULL unnamed) that x's copy of
     * the name touches too; ev_seen: that binding was observed (1), not (0),
     * no process (-1) */
    const char *ev_state; uint64_t ev_addr; int ev_seen;
    /* reach.c: the binder's reference sits only in code nothing in the
     * image enters (dead_fn: the start of one such function of the binder's):
     * the capture is real, but no call goes through it */
    int unreached; uint64_t dead_fn;
};
/* collide.c: two different libraries exporting the same names (one pair). */
enum { D_MAJOR = 1, D_NAMES, D_PART };  /* why different: another version of one base name; another name whose shared
                                 * definitions are other code (sizes differ: an implementation of the same interface);
                                 * a part of another version (a module another major needs: libgdk-3 beside libgtk-4) */
enum { HEAP_NAMES = 11 };    /* heap.c: the names of the C allocation interface */
struct collision {
    int a, b;                /* module indices, a < b */
    int shared;              /* exported names both define */
    int unver[2];            /* of them, those a (0) or b (1) defines unversioned where the other versions them */
    int bare;                /* of them, those neither versions: a reference to one carries no version to choose by */
    const char *example;     /* one shared name */
    int different, decided;  /* 0 same library (or unknown), D_MAJOR, D_NAMES, D_PART */
    int first, meet;         /* module the global scope finds first (-1 neither); the names meet in a scope */
    int types;               /* of the shared names, GObject type registrations (*_get_type), */
    const char *type_name;   /* the first of them */
    int registry;            /* different, registering types: a module both need that keeps one registry
                              * for the process (libgobject-2.0.so.0), whatever the scopes; -1 none */
    int same, differ;        /* of the shared functions and data objects with a size: one size in both, two sizes */
    int crossed;             /* references bound from one library to the other */
    int data_crossed;        /* of them, one to a data object */
    /* D_NAMES, crossed: references of other modules that still bind the
     * library the crossings left (f.x): kept of them, the first one's
     * module and name (kept_name NULL: none, every reference binds one
     * library: an override) */
    int replaced;            /* D_NAMES, crossed, no override by design: another implementation took references */
    int kept, kept_binder;
    const char *kept_name;
    int designed;            /* the strongest crossing is an override by design: a function
                              * taken from a library by a library that needs it (libgvpr's
                              * malloc and free in place of libc's); set only when none other crossed */
    /* heap.c: the replaced allocator's interface divided: heap_name, which
     * the replacement lacks, bound in f.x by heap_binder's reference (-1: a
     * --dlsym lookup in the global scope), while heap_other_binder's
     * reference to heap_other binds the replacement (NULL: not divided) */
    const char *heap_name, *heap_other;
    int heap_binder, heap_other_binder;
    const char *heap_lacks[HEAP_NAMES]; int heap_nlacks;   /* the interface's names f.x defines, f.target lacks */
    struct finding f;        /* the strongest of them, */
    const char *name;        /* of this name (NULL: none crossed) */
    int live;                /* its evidence that the library it was linked against stays in use; -1 none */
};
/* copies.c: one module's copy of a library (a COPY row's entry). */
struct copyof { int mod; const char *kind, *variant, *version; };   /* variant: the fingerprint row's, the group's name when it has none */
/* loadable.c: what ld.so would refuse, and what the words need. */
enum nlcause {
    N_NO_FILE,               /* a NEEDED path with a slash, no such file */
    N_RUNPATH,               /* found only through another module's (via's) RUNPATH, at path */
    N_DEV_NAME,              /* only the development name exists, at path */
    N_NOT_FOUND,             /* no search rule finds it */
    N_RELATIVE,              /* a relative NEEDED path: loads from one directory only (path: here, or NULL) */
    N_VERSION,               /* version name of file is not defined by file at path (newest: newest) */
    N_UNDEFINED,             /* a reference nothing defines, bound at start */
    N_UNDEFINED_LAZY,        /* ... bound at the first call */
};
struct noload {
    enum nlcause cause;
    int by, via;             /* the module that needs it; N_RUNPATH: the module whose RUNPATH reaches it */
    const char *need;        /* the NEEDED name, the version, the symbol */
    const char *path, *file, *newest, *ver;
    const char *names[3]; int nnames, more;   /* N_VERSION: its first symbols; more: how many more (both kinds) */
};
/* The finding kinds, one line each: id; name, which names the kind's
 * grader (policy.c's grade_<name>) and printer (report.c's print_<name>);
 * and which modules an item of it names (died.c reads them: a process's
 * last line is looked for in their files), a function beside the kind's
 * analysis, NULL: none.  Memory an item's fields point to belongs to its
 * findings (findings_own), so no kind has a free of its own.  A new kind:
 * its line here, its fields in struct item's union, its analysis, grader
 * and printer (docs/symsplit-reference.md, Adding a finding kind). */
#define FKINDS(X) \
    X(F_NOLOAD,    noload,    NULL) \
    X(F_CAPTURE,   capture,   names_capture) \
    X(F_PARTITION, partition, names_partition) \
    X(F_COLLISION, collision, names_collision) \
    X(F_COPY,      copy,      names_copy)
#define FKIND_ITEM(id, ...) id,
#define FKIND_ONE(...) + 1
enum fkind { FKINDS(FKIND_ITEM) };
enum { F_NKINDS = 0 FKINDS(FKIND_ONE) };   /* not an fkind: the size of a table indexed by kind */
enum keep { K_SHOW, K_DROP, K_SUPPRESSED };   /* what the policy made of an item */
struct item {
    enum fkind kind;
    const char *name;        /* the symbol (NOLOAD, capture, partition), the library group (COPY) */
    int n;                   /* F_PARTITION, F_COPY: how many copies */
    union {                  /* the kind's own fields */
        struct {             /* F_CAPTURE */
            struct finding f;
            int *mods; int nmods;    /* every binder and target of the name (for the allowlist) */
            const char *harmless;    /* why nothing can diverge (state.c), NULL when something can */
            int proven, data;        /* the live copy's state is proven, not estimated; a data object */
            int override;            /* a collision of functions: the module whose definition is
                                      * bound needs (DT_NEEDED) the one whose reference it takes, as an
                                      * override by design does (numpy's xerbla_ in place of BLAS's) */
        };
        struct {             /* F_PARTITION */
            int capture;             /* the item of the same name's capture, -1 none */
            int pm[8], pu[8];        /* each copy's module and one module binding it */
        };
        struct {             /* F_COLLISION */
            struct collision c;
            char *own;               /* "a+b", the pair's name */
        };
        struct noload nl;    /* F_NOLOAD */
        struct {             /* F_COPY */
            struct copyof *cp;       /* n of them */
            const char *sev, *state; /* from the fingerprint table */
        };
    };
    /* set by the policy (policy_grade) */
    enum keep keep;
    int cls; const char *csev;
    int crossed;             /* a COLLISION whose reference crossed (harmful: exit 1) */
    int died;                /* harmful because the process died with this row's modules loaded (died.c) */
    int scoped;              /* a COLLISION of two majors harmful by scope alone (policy.c) */
    int registry;            /* ... or by the one type registry both need, whatever the scopes */
    const char *sym;         /* the symbol column */
};
/* died.c: how a --trace process ended, when it died */
enum { DIED_SIGNAL = 1, DIED_EXIT };
struct death {
    int how, code;           /* 0 it did not die; DIED_SIGNAL and the signal; DIED_EXIT and the status */
    const char *said;        /* its last line, NULL none */
    int printer;             /* the module the findings name whose file holds that line's text, -1 none */
};
struct findings {
    struct item *v; int n, cap;
    struct death died;       /* died.c: set for the pass that ran (--trace), zero in a latent pass */
    int naive;               /* a name two modules define: what nm -D | sort | uniq -d would flag */
    const char *promoted;    /* latent pass: the module assumed RTLD_GLOBAL, else NULL */
    void **owned; int nowned, ownedcap;   /* what the items' fields point to (findings_own) */
};
struct item *findings_add(struct findings *fs, enum fkind kind, const char *name);
void *findings_own(struct findings *fs, void *p);   /* p (malloc'd, or NULL), freed by findings_clear */
void findings_clear(struct findings *fs);   /* frees the items and what they own, keeps promoted */
/* Does an item name module i (FKINDS' third column)?  One per kind that names modules. */
int names_capture(const struct item *it, int i);
int names_partition(const struct item *it, int i);
int names_collision(const struct item *it, int i);
int names_copy(const struct item *it, int i);
struct pairs;
struct pairs *pairs_new(const struct image *im);
void pairs_free(struct pairs *ps);
void pairs_count(struct pairs *ps, const char *name, const int *dm, const int *dk, int nd);
int pairs_different(struct pairs *ps, int a, int b);
int pairs_reimplemented(struct pairs *ps, int a, int b);   /* D_NAMES: another implementation of one interface */
void pairs_note(struct pairs *ps, const char *name, const struct finding *f);
int override_by_design(const struct image *im, const struct finding *f);
void pairs_find(struct pairs *ps, struct findings *fs);   /* one F_COLLISION per pair of different libraries */
int pairs_any_different(struct pairs *ps);   /* some pair counted is two different libraries */
const char *registry_what(const struct module *m);       /* the process-wide registry m keeps, or NULL */
/* split.c: captures, partitions and collisions of one image.  An analysis
 * keeps what does not change with the global scope (names, where their
 * bindings come from, closures) from one pass to the next. */
struct analysis;
struct analysis *analysis_new(const struct image *im);
void analysis_free(struct analysis *a);
void analyse_image(struct findings *fs, struct analysis *a);     /* every name */
/* latent passes: analyse_unpromoted before any promotion (no process:
 * im->obs NULL), then analyse_latent with dlopen k promoted; whole: every
 * name in every pass (the allowlist's counts need them) */
void analyse_unpromoted(struct analysis *a);
void analyse_latent(struct findings *fs, struct analysis *a, int k, int whole);
void analysis_passes(const struct analysis *a, int *whole, int *part);   /* latent passes made whole, by names */
/* of the kept groups' latent passes: implicit, listed; the lookups moved one
 * by one in those listed; the bindings capture() looked at in either */
void analysis_patches(const struct analysis *a, long n[4]);
/* died.c: after the other analyses (it reads their items): fs->died */
void find_death(struct findings *fs, const struct image *im);
/* loadable.c: NOLOAD items for what ld.so would refuse */
void check_loadable(struct findings *fs, const struct image *im);
/* copies.c: F_COPY items, one per library present in 2+ copies */
void find_copies(struct findings *fs, const struct image *im);
/* copies.c: a and b carry one library (an exported or hidden copy of a fingerprinted family). */
int common_family(struct module *a, struct module *b);
/* copies.c: the variant of a fingerprinted group m carries (exported or hidden), NULL none */
const char *family_variant(struct module *m, const char *group);
/* heap.c: an allocator replacement that lacks a name of the replaced one's
 * allocation interface, a reference binding that name there: c's heap_* */
void heap_divided(const struct image *im, struct collision *c);
/* state.c: a name of the C++ runtime (std, __gnu_cxx, __cxxabiv1, __cxa_,
 * new and delete, _Unwind_) or of node-addon-api: copies of one code wherever they are. */
int runtime_name(const char *n);
/* state.c: what two copies hold.  Two definitions of one name that are not
 * copies of one thing; a definition's copy reaching state of its own, proven
 * (not estimated); a capture in which nothing can diverge (the reason). */
int different_entities(const struct module *a, const struct def *da, const struct module *b, const struct def *db);
int proven_state(struct module *m, const struct def *d);
const char *capture_harmless(const struct image *im, const struct finding *f, char **owned, int *proven);
/* sharedstate.c: x's copy of a captured function, which nobody binds, and
 * another function of x that someone binds there share a cell of x's state:
 * the evidence filled in f (ev_*), and its confidence; -1 when none. */
int shared_state(const struct image *im, struct finding *f);
/* sharedstate.c: a cell one of the touches writes and the other reads (*found), else 0 */
uint64_t common_cell(const struct touches *a, const struct touches *b, int *found);
/* sharedstate.c: a cell one of the touches writes and the other only reads, never writes (*found), else 0 */
uint64_t one_way_cell(const struct touches *a, const struct touches *b, int *found);
#endif
