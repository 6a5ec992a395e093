/* symsplit: a static model of how ld.so binds dynamic symbols, used to find
 * split state (two modules of one process resolving one name to two copies).
 * This header: the base, read and model layers; analyse.h, policy.h and
 * report.h add one layer each (docs/symsplit-reference.md, Shape of the code). */
#ifndef SYMSPLIT_H
#define SYMSPLIT_H
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <sys/types.h>

/* ---- util.c ---- */
void *xcalloc(size_t n, size_t sz);
void *xrealloc(void *p, size_t sz);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *xvasprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
uint32_t name_hash(const char *s); /* the GNU hash function: cheap, spreads well */
/* String-keyed hash map (open addressing); values are opaque pointers. */
struct strmap { char **keys; void **vals; size_t cap, n; };
void *strmap_get(const struct strmap *m, const char *key);
void strmap_put(struct strmap *m, const char *key, void *val); /* key copied */
void strmap_free(struct strmap *m);   /* the keys and the table, not the values */
#define GROW(arr, n, cap) do { if ((n) >= (cap)) { (cap) = (cap) ? 2 * (cap) : 8; \
        (arr) = xrealloc((arr), (cap) * sizeof *(arr)); } } while (0)

/* ---- input.c: every file read goes through these (regular files only) ---- */
struct stat;
int open_input(const char *path, struct stat *st, char **err);    /* fd, or -1 with *err */
int stat_input(const char *path, struct stat *st);   /* stat(2) of the file open_input would open */
void *map_input(const char *path, struct stat *st, char **err);   /* private writable map, or NULL */
void unmap_input(void *map, size_t size);   /* what map_input mapped */
/* drop the resident pages of [p, p + len), read-only bytes of map (map_input's, size bytes; NULL: none) */
void release_input(const void *map, size_t size, const void *p, size_t len);
/* a scan in address order: release_input of [from, to) a step at a time; the next from */
const unsigned char *release_behind(const void *map, size_t size, const unsigned char *from, const unsigned char *to);
/* --sysroot DIR, as qemu-user's -L DIR: an absolute path (not /proc's) is
 * read from under DIR where DIR has it, else as written */
void input_sysroot(const char *dir);
const char *file_kind(mode_t mode);   /* "is a FIFO, not a regular file"... */

/* ---- output.c: --json-out FILE (checked, written aside, renamed) and stdout ---- */
struct outfile { const char *arg; char *path; int exists; dev_t dev; ino_t ino; mode_t mode; };
int outfile_check(struct outfile *o, const char *path, char **err);   /* 0, or -1 with *err */
/* -1 with *err when FILE is that input (same device and inode), else 0 */
int outfile_clash(const struct outfile *o, dev_t dev, ino_t ino, const char *input, char **err);
int outfile_refuse_input(const struct outfile *o, const char *input, char **err);
int outfile_write(const struct outfile *o, const char *buf, size_t len, char **err);
void outfile_free(struct outfile *o);
int stdout_close(char **err);   /* flush and close stdout: -1 with *err on a write error */

/* ---- machine.c: the machine a run reads (its first executable's) ---- */
struct machine {
    int em, cls;             /* e_machine, EI_CLASS */
    const char *name;
    int r_copy, r_jump_slot, r_glob_dat, r_irelative, r_tls_mod, r_tls_tpoff, r_tlsdesc;
    const char *lib, *platform;   /* $LIB, $PLATFORM */
    const char *dirs;        /* ld.so's default directories */
    int cache_flag;          /* ldconfig's machine tag of a cache entry */
    int disasm;              /* funcstate.c can decode its code */
};
const struct machine *machine(void);             /* the run's: the host's until an executable chooses */
const struct machine *machine_of(int em, int cls);   /* NULL: not one symsplit reads */
int machine_choose(int em, int cls);   /* the first executable's call chooses; 1 if em/cls is the run's machine */
int machine_foreign(void);             /* the run reads another machine than the host's */
void machine_note(FILE *f);            /* what is not judged on the run's machine, or nothing */

/* ---- elf_module.c: one parsed ELF file, shared by every image that loads it ---- */
enum symkind { K_FUNC, K_DATA, K_OTHER };
struct def {                 /* an exported definition in .dynsym */
    const char *name;
    uint32_t hash;
    uint16_t ver;            /* versym index (0x7fff masked), 1 when unversioned */
    uint8_t hidden;          /* versym hidden bit: not visible to unversioned refs */
    uint8_t kind, vis, bind; /* enum symkind; STV_*; STB_* */
    uint8_t self_reloc;      /* the module reaches its own definition via a JUMP_SLOT/GLOB_DAT/.. */
    uint8_t copy;            /* target of a COPY relocation (executables) */
    uint8_t readonly;        /* lives in a non-writable section or in RELRO */
    uint8_t direct_call;     /* the module's code calls it directly (calls.c) */
    uint8_t dup;             /* another module in the image defines this name (dups.c) */
    uint8_t hidden_vis;      /* from .symtab: a hidden definition (1), or a plain local one (2: localised by
                              * lld or gold, or file-static), bound by its module only */
    uint8_t self_lazy;       /* the self-reference is a JUMP_SLOT only (bound at first call) */
    uint8_t ifunc;           /* STT_GNU_IFUNC: the loader calls it and binds what it returns */
    uint8_t tls;             /* STT_TLS: a thread-local variable */
    uint64_t impl;           /* an IFUNC under --pid: the implementation the process's slot holds
                              * (its resolver's answer, a file address); 0 not read */
    uint64_t value, size;    /* st_value, st_size */
    uint16_t shndx;          /* st_shndx: where its bytes are */
    int next;                /* next def in the same hash bucket, -1 ends */
};
struct ref {                 /* an undefined dynamic symbol the module needs */
    const char *name;
    uint32_t hash;
    uint16_t ver;
    uint8_t weak, kind;
    uint8_t lazy;            /* reached only through JUMP_SLOT: bound at first call unless BIND_NOW */
    uint8_t canon;           /* undefined with a value: a position-dependent executable's PLT entry,
                              * the function's address for every lookup but a PLT slot's */
    uint8_t reloc;           /* a relocation names it: the loader looks it up (an entry no
                              * relocation names is never looked up, so never fails a load) */
};
/* One symbol lookup ld.so makes to relocate a module (--bindings): each
 * dynamic relocation that names a global symbol, once per symbol and class.
 * Kept only when symsplit is asked for them (keep_lookups). */
enum lookclass { LC_NORMAL, LC_PLT, LC_COPY };   /* ld.so's type classes: a COPY lookup skips the executable */
struct lookref {
    const char *name;
    uint32_t hash;
    uint16_t ver;            /* versym index (0x7fff masked) */
    uint8_t cls, weak, tls;  /* enum lookclass; STB_WEAK; STT_TLS */
    uint8_t protected_def;   /* the module defines it itself, STV_PROTECTED */
    uint8_t ie;              /* an initial-exec TLS relocation names it: the definition's block needs
                              * an offset in the static TLS block (dl-reloc.c, _dl_try_allocate_static_tls) */
};
extern int keep_lookups;
struct version { const char *name; uint8_t hidden, present; }; /* index -> name (verdef or verneed) */
struct vneed { const char *file, *name; uint16_t ndx; uint8_t weak; };   /* one .gnu.version_r entry */

struct module {
    char *path;              /* path as found (first time) */
    char *origin;            /* $ORIGIN: directory of path (realpath for the executable) */
    dev_t dev; ino_t ino;
    int is_dyn_exe;          /* ET_EXEC, or ET_DYN with PT_INTERP */
    int is_static;           /* no PT_DYNAMIC */
    const char *soname;
    const char **needed; int nneeded;
    struct filtee { const char *name; int aux; } *filtees; int nfiltees;   /* DT_FILTER, DT_AUXILIARY (aux 1) */
    const char *rpath, *runpath;
    int symbolic, nodeflib;  /* DF_SYMBOLIC/DT_SYMBOLIC, DF_1_NODEFLIB */
    int bind_now;            /* DT_BIND_NOW, DF_BIND_NOW or DF_1_NOW: no lazy slots */
    int ctors;               /* constructors of its own (.init_array beyond crtbegin's entry, .preinit_array) */
    struct version *vers; int nvers; int has_versym;
    struct vneed *vneeds; int nvneeds, vneedcap;     /* versions it needs, per file */
    const char **vdefs; int nvdefs, vdefcap;         /* version names it defines (base included) */
    struct def *defs; int ndefs;
    int *bucket; int nbucket;
    struct ref *refs; int nrefs;
    struct lookref *looks; int nlooks;   /* keep_lookups: its relocations' lookups */
    int n_func_exports, own_func_relocs, own_data_relocs;
    int tls_local;           /* a TLS relocation that names no symbol (local-dynamic's module id, an
                              * initial-exec offset fixed at link time): code reaching its own block */
    uint64_t tls_size, tls_align;   /* PT_TLS: its TLS block's size (p_memsz) and alignment; 0 none */
    int tls_ie_own;          /* an initial-exec relocation naming no symbol: its own block needs a static offset */
    int tls_desc;            /* a TLS descriptor relocation: may take a static offset from the optional surplus */
    int ncanon;              /* refs with canon set */
    size_t state_bytes;      /* .data + .bss + .tdata + .tbss: writable state the code can reach */
    size_t shared_data;      /* bytes of exported data it reaches through relocations */
    long private_state;      /* bytes of state only this module's code reaches (symtab.c); -1 unknown */
    int ndefs_dyn;           /* defs[0..ndefs_dyn) come from .dynsym, the rest are hidden (symtab.c) */
    void *map; size_t size; void *elf; int borrowed;
    int scanned;             /* calls.c has looked for direct calls */
    uint64_t relro_lo, relro_hi;   /* PT_GNU_RELRO: read-only after start-up */
    void *fstate;            /* funcstate.c's per-module tables, built on first use */
    void *reach;             /* reach.c's call graph and GOT readers, built on first use */
    void *copies;            /* copies.c's fingerprint of the module, built on first use */
    int *dups; int ndups, dupcap;  /* defs whose name another module of the image defines too */
    int pins; unsigned used;       /* search.c's cache: images holding it, the last image that did */
};
/* Returns a module or NULL with *err set to a one-line reason.  *wrong_arch is set
 * when the file is a valid ELF for another class/machine (search skips those). */
struct module *module_open(const char *path, int is_main, char **err, int *wrong_arch);
struct module *module_parse(void *map, size_t size, const char *path, int is_main, char **err, int *wrong_arch);
void module_free(struct module *m);
const char *module_name(const struct module *m); /* soname, else basename of path */
int module_needs(const struct module *from, const struct module *to); /* a DT_NEEDED of from names to */
int module_find_defs(const struct module *m, const char *name, uint32_t hash); /* first def index or -1 */
/* The one string-table reader: "" and *bad set when off is out of range. */
const char *elf_str(void *elf, size_t strndx, size_t off, int *bad);

/* ---- version.c ---- */
int parse_versions(struct module *m, void *elf, void *scn, int need);   /* 0, or -1 if corrupt */
/* The version a symbol of m names by its versym index (a definition's node or
 * a reference's need), NULL when none (unversioned, base, out of range) */
const char *version_name(const struct module *m, unsigned ver);

/* ---- symtab.c ---- */
void module_symtab(struct module *m, void *elf, int *dcap);
int symtab_shares(const struct module *o, const struct module *h, const char *except);
const char *symtab_object_at(const struct module *m, uint64_t a, int *has);   /* the object holding a, or NULL */

/* ---- calls.c ---- */
int calls_itself(struct module *m, int defidx);   /* 1: code calls this own export directly */

/* ---- funcstate.c ---- */
int function_state(struct module *m, const struct def *d);  /* 1 own state, 0 none, -1 unknown */
enum { TOUCH_READ = 1, TOUCH_WRITE = 2 };
struct touches { struct touch { uint64_t addr; int acc; } *v; int n; };   /* acc: TOUCH_* */
/* The private-state cells (addresses in its writable sections) it touches;
 * returns as function_state does (t->v malloc'd, the caller frees it). */
int function_touches(struct module *m, const struct def *d, struct touches *t);
void funcstate_free(void *fstate);

/* ---- pltgot.c: the .plt* and .got* sections, in section order ---- */
struct secrange { uint64_t lo, hi; uint8_t alloc, exec; };   /* [lo, hi); SHF_ALLOC, SHF_EXECINSTR */
struct pltgot { struct secrange *plt, *got; int nplt, ngot; };
int pltgot_read(const struct module *m, struct pltgot *pg);   /* 0, or -1: no section names (none read) */
void pltgot_free(struct pltgot *pg);

/* ---- reach.c ---- */
/* Can m's reference to name run?  0: every instruction that reads its GOT
 * slot (itself or through the PLT) sits in a function nothing enters, given
 * which exports the image enters (entered(def index, arg)); *where: the start
 * of one such function.  1: it may run, or the walk cannot tell. */
int ref_runs(struct module *m, const char *name, int (*entered)(int def, void *arg), void *arg, uint64_t *where);
void reach_free(void *reach);

/* ---- ehframe.c ---- */
/* add(lo, hi, arg) for each function .eh_frame bounds; the count */
int eh_frame_functions(struct module *m, void (*add)(uint64_t lo, uint64_t hi, void *arg), void *arg);

int insn_boundary(struct module *m, uint64_t addr);          /* 1 yes, 0 no, -1 unknown */

/* ---- demangle.c ---- */
char *demangle(const char *name);   /* malloc'd C++ name, or NULL when name is not a C++ one */

/* ---- dups.c ---- */
struct image;
void dups_image(const struct image *im);   /* each module's dups, for this image (image_build calls it) */

/* ---- ldcache.c ---- */
int ldcache_open(char **err);                    /* -1 with *err: SYMSPLIT_LDCACHE unusable */
const char *ldcache_lookup(const char *soname); /* path from /etc/ld.so.cache or NULL */

/* ---- image / closure.c ---- */
enum scopekind { SC_GLOBAL, SC_LOCAL };
struct lmod {
    struct module *m;
    int loader;              /* index of the module whose NEEDED (or dlopen) loaded it, -1 for the exe */
    const char **names; int nnames;   /* names it was requested by, for reuse by name */
    int scope;               /* -1: global scope only; else index of a local searchlist */
    int *deps; int ndeps, depcap;     /* its DT_NEEDED, resolved to image indices */
    int deepbind;
    int filter;              /* a filtee: the filter that loaded it (its definitions answer first), else -1 */
    int step;                /* 0: loaded at start-up; k: by the k-th --dlopen */
    int now;                 /* binds every reference when loaded (BIND_NOW, RTLD_NOW) */
    int ctor_step;           /* 0, or k: its lazy slots are bound while the constructors of the
                              * RTLD_GLOBAL dlopen of step k run (they call into it), before that
                              * dlopen joins the global scope (closure.c) */
    int ns_scope;            /* dlmopen (--pid, --trace): 1 + the local searchlist that is its
                              * namespace's global scope (its first object's); 0: the main namespace */
    int ns;                  /* its link-map namespace as the loader numbers it: 0 the main one */
    int reloc;               /* 1 + its place in the order ld.so relocates the image (closure.c): a
                              * lookup it makes comes after those of every module placed before it;
                              * 0: not known (an image read from a process) */
    char *label;             /* labels.c: the path suffix that tells it apart, NULL when its name does */
};
struct searchlist { int *idx, *join; int n, cap; };   /* join: step it joined the global scope */
void searchlist_push(struct searchlist *s, int idx, int join);   /* append, growing the list */
struct image {
    const char *exe_path;
    struct lmod *mods; int n, cap;
    struct searchlist global;
    int *order, nreloc;               /* the relocation order: order[r - 1] the module with reloc r */
    struct searchlist *locals; int nlocals;
    int *roots;                       /* roots[k]: the --dlopen module whose searchlist is locals[k] */
    struct missing { const char *name; int req; } *missing; int nmissing;   /* NEEDED found by no search rule */
    const struct dlsyms *dlsyms;      /* what the host looks up on a handle; NULL: not given */
    const struct observed *obs;       /* what the process did (observed.c); NULL: files only */
    const struct trace *ran;          /* --trace: how the process ended (status, its last line); NULL otherwise */
    struct openfail *fails; int nfails;   /* --dlopens the loader refuses and undoes (openfail.c) */
    struct strmap byname; int named;  /* closure.c's index of the names of modules 0 .. named-1 */
};
struct dlopen_req { const char *path; enum scopekind kind; int deepbind, lazy; const char *by; int assumed; int ns; };   /* by: the caller, NULL the executable; assumed: flags not known (a maps file), RTLD_LOCAL modelled; ns: 0 a dlopen, k a dlmopen into the loader's namespace k (--trace) */
/* openfail.c: a --dlopen the loader refuses at relocation: from's reference
 * to name (version ver) has no definition in its scope; the open and every
 * object it loaded (objs, the root first) are undone */
struct openfail { char *root, *from, *name, *ver; char **objs; int nobjs; };
extern int bind_now_all;   /* --bindings: every reference bound at load, as under LD_BIND_NOW */
int open_fails(const struct image *im, int before, const char *root, struct openfail *f);   /* image_free frees it */
/* open.c: builds the image, each --dlopen checked as the loader relocates it.
 * Returns 0, or -1 with *err set (malformed file, cycle...). */
int image_build(struct image *im, const char *exe, const struct dlopen_req *dl, int ndl, char **err);
/* One --dlopen after the rest, checked as the loader relocates it: refused,
 * it is undone and recorded in im->fails.  0, or -1 with *err set. */
int image_open(struct image *im, const struct dlopen_req *dl, char **err);
/* closure.c: the start-up closure; one more dlopen, after the rest, in two
 * steps: begin, then end (it takes effect) or undo (the loader refused it:
 * open.c decides) */
int image_startup(struct image *im, const char *exe, char **err);
struct openmark { int before, nreloc; };   /* the modules and relocation places before the open */
int image_dlopen_begin(struct image *im, const struct dlopen_req *r, struct openmark *mk, char **err);
void image_dlopen_end(struct image *im, const struct dlopen_req *r, struct openmark mk);
void image_dlopen_undo(struct image *im, struct openmark mk);
void image_free(struct image *im);
/* labels.c: what rows call module i: its name, or the shortest path suffix
 * that tells it from another module of the same name (image_labels sets them) */
void image_labels(struct image *im);
const char *image_label(const struct image *im, int i);
int image_promote(struct image *im, int k);   /* dlopen k becomes RTLD_GLOBAL at its step; returns the undo mark */
void image_demote(struct image *im, int mark);
int image_in_global(const struct image *im, int idx);
/* A module from load_path stays valid while an image holds it (image_build
 * holds, image_free lets go) and until the next module_cache_trim. */
struct module *load_path(const char *path, int is_main, char **err, int *skip);
void module_hold(struct module *m);
void module_unhold(struct module *m);
void module_cache_trim(void);   /* between images: frees the modules the last ones did not use */
struct module *find_library(const struct image *im, int req, const char *name, char **err);
/* First NAME in a colon-separated directory list ($ORIGIN = origin), or NULL. */
struct module *find_in_dirs(const char *list, const char *origin, const char *name, char **err);

/* ---- bind.c: symbol lookup and who binds what ---- */
struct binding {
    int binder;              /* module index in the image */
    int target, def;         /* module index and def index; target -1 if unresolved */
    int how;                 /* enum bindhow */
    int conf;                /* enum confidence */
};
/* How a binding was made, and its name in --json: one table, one order. */
#define BINDHOWS(X) X(H_LOOKUP, "lookup") X(H_EXE_OWN, "executable") X(H_HANDLE, "dlopen-handle") \
    X(H_SYMBOLIC, "DF_SYMBOLIC") X(H_PROTECTED, "protected") X(H_HIDDEN, "hidden") X(H_DIRECT, "direct-call") \
    X(H_BSYMFUNC, "Bsymbolic-functions") X(H_TLS_LOCAL, "TLS-local")
#define CONFIDENCES(X) X(C_CERTAIN, "certain") X(C_LIKELY, "likely") X(C_POSSIBLE, "possible")
#define ENUM_ITEM(id, name) id,
enum bindhow { BINDHOWS(ENUM_ITEM) };
enum confidence { CONFIDENCES(ENUM_ITEM) };
extern const char *const how_name[], *const conf_name[];
int lookup(const struct image *im, int from, const char *name, uint32_t hash,
           const char *ver, int ver_hidden, int lazy, int *defidx);
int ref_lookup(const struct image *im, int from, const struct ref *rf, int *defidx);   /* lookup() of from's reference */
/* dlsym/dlvsym on a handle: its searchlist only; ver NULL: dlsym, the newest version */
int lookup_in(const struct image *im, const struct searchlist *sl, const char *name, uint32_t hash,
              const char *ver, int *defidx);
int self_binding(struct module *m, int defidx, int *how, int *conf);
/* lookup, with one module left out of every scope (skip >= 0): a COPY
 * relocation's lookup skips the executable that holds the copy */
int lookup_skip(const struct image *im, int from, const char *name, uint32_t hash,
                const char *ver, int ver_hidden, int lazy, int skip, int *defidx);
/* the last step whose global-scope entries a lookup of `from` sees; the
 * first entry that joined at `step` defining name for it, or -1 */
int lookup_until(const struct image *im, int from, int lazy);
int lookup_joined(const struct image *im, int step, const char *name, uint32_t hash,
                  const char *ver, int ver_hidden, int *defidx);

/* ---- bindings.c: every lookup ld.so makes at start-up, and its answer (--bindings) ---- */
#define BINDKINDS(X) X(BK_NORMAL, "normal") X(BK_COPY, "copy") X(BK_TLS, "TLS") X(BK_IFUNC, "IFUNC") \
    X(BK_PROTECTED, "protected") X(BK_FILTER, "filter")
enum bindkind { BINDKINDS(ENUM_ITEM) };
extern const char *const bindkind_name[];
struct bound {
    int from, look;          /* image module, index in its looks */
    int target, def;         /* the defining module and def; target -1: unresolved */
    int kind;                /* enum bindkind */
    int observed;            /* 1: read from the process (--trace's record, --pid's slot); 0 modelled */
    int risk;                /* 1 + the index of the modelled initial-exec TLS binding into a dlopened
                              * module's block that the open of this binding's module depends on: the
                              * open may fail, depending on the run; 0 none */
    uint64_t tls_need;       /* the open of this binding's module may fail, depending on the run: the
                              * static TLS its initial-exec references need, with the earlier opens',
                              * passes what the surplus surely holds (bytes); 0 none */
    int tls_block;           /* with tls_need: a module whose block this open places (image index) */
};
int image_bindings(const struct image *im, struct bound **out);   /* count; *out malloc'd */
/* statictls.c: marks the bindings of each open whose static TLS may not fit (tls_need).
 * The least surplus glibc 2.32 and later leave for opened blocks with default
 * tunables (elf/dl-tls.c, _dl_tls_static_surplus_init: (nns - 1) * LIBC_IE_TLS +
 * nns * OTHER_IE_TLS + optional_static_tls; nns 4, optional 512, each reserve
 * at least 144 bytes), in bytes */
#define STATIC_TLS_OPTIONAL 512
#define STATIC_TLS_FLOOR (3 * 144 + 4 * 144 + STATIC_TLS_OPTIONAL)
void static_tls_marks(const struct image *im, struct bound *b, int n);
/* --bindings=run: a process that runs, not trace mode: the loader relocates itself too */
extern int bindings_run;

/* ---- observed.c: bindings read from the process (--trace's loader record, --pid's slots) ---- */
struct observed {
    struct strmap binds;     /* binder dev:ino, its namespace, name, version -> target file id */
    struct strmap files;     /* path -> file id (stat once) */
    int nbinds;
    const struct live *live; /* --pid: each image module's GOT/PLT slots instead (live.c) */
};
/* record.c: one binding of the loader's record (paths stat'ed once); the key of a binding */
struct fileid { dev_t dev; ino_t ino; int ok; };
void observed_bind(struct observed *o, const char *binder, long ns, const char *target, const char *name, const char *ver);
char *observed_key(dev_t dev, ino_t ino, int ns, const char *name, const char *ver);
/* The module (image index) from's reference to name@ver was seen bound to, or -1. */
int observed_module(const struct image *im, int from, const char *name, const char *ver);

/* ---- live.c: --pid: the process's link map and GOT/PLT slots, through /proc/PID/mem ---- */
struct live;
struct live *live_open(const char *pid, char **err);           /* NULL with *err: not readable */
/* The process's image: its objects in link-map order, its global scope, its
 * slots; user: --dlopen flags for its dlopened modules, or what-ifs. */
int live_image(struct image *im, struct live *lv, const struct dlopen_req *user, int nuser, char **err);
void live_describe(const struct live *lv, const struct image *im, FILE *f);   /* the note on stderr */
/* What from's slot for name holds: the image module it is bound to, -1 not
 * bound (*lazy: still in its PLT) or not read. */
int live_module(const struct live *lv, int from, const char *name, int *lazy);

/* ---- maps.c: --pid / --maps: the files a process mapped; image_maps.c: its image ---- */
char **maps_files(const char *file, int *n, char **err);      /* unique paths, address order; NULL with *err */
int maps_image(const char *file, const char **exe, const struct dlopen_req *user, int nuser,
               struct dlopen_req **out, char **err);
char *maps_of_pid(const char *pid, char **exe, char **err);   /* the maps file; *exe from /proc/PID/exe */
struct dlopen_req dlopen_as_given(const char *path, const char *name, const struct dlopen_req *user, int nuser);

/* ---- trace.c: --trace -- CMD: the one mode that runs something ---- */
struct trace {
    char *exe; int status;            /* what ran; waitpid's status */
    char *said;                       /* the last line CMD's process tree printed (stdout or stderr), NULL none */
    struct observed obs;              /* every binding the loader made in CMD's process */
    struct dlopen_req *roots; int nroots;   /* what it dlopened (and dlmopened: ns), in order; kind: "add ... to global scope" */
    char **failed; int nfailed;       /* dlopen attempts that loaded nothing (not modules) */
};
int trace_run(char *const *cmd, struct trace *t, char **err);

/* ---- dlsym.c: what the host program looks up on a dlopen handle ---- */
struct dlsyms;
/* Adds "NAME[@VERSION]" (globs) or a --host preset; NULL or -1 with *err. */
struct dlsyms *dlsyms_add(struct dlsyms *d, const char *pattern);
struct dlsyms *dlsyms_host(struct dlsyms *d, const char *host, char **err);
/* Does the host look up name?  *ver: in, the definition's version; out, the
 * version it asks for (NULL: dlsym, the default version). */
int dlsym_wanted(const struct dlsyms *d, const char *name, const char **ver);

#endif
