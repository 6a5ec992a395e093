/* Can a module's reference to a name run?  A reference is a GOT slot that
 * ld.so fills; it matters only through the code that reads it: a call to the
 * name's PLT entry (which jumps through the slot), or an instruction that
 * reads the slot itself (-fno-plt).  When every such instruction sits in a
 * function that nothing enters, the reference binds whatever it binds and
 * no call ever goes there: rdma-core's IBVERBS_1.0 compatibility entry
 * points, exported under an old version node (`@`, not `@@`) that no module
 * links against, call the current ibv_get_device_list through the PLT.
 *
 * Functions are the bounds funcstate.c knows (symbols and .eh_frame FDEs;
 * two that overlap are one).  The walk goes from each reader's function
 * back through its callers (direct calls and jumps); the reference runs if
 * one of them is entered:
 *  - an export starting in it that the caller's entered() says the image
 *    enters (the image's bindings decide that: analyse/split.c),
 *  - its address formed anywhere in the code (a pointer may call it; x86
 *    names a conditional jump's target the same way), or a relocation's
 *    addend pointing into it (function pointers in data, .init_array,
 *    IFUNC resolvers), or the entry point, .init or .fini;
 *  - or a reader sits in code outside every known function.
 * Whatever the walk cannot see answers "runs": no disassembly, a
 * position-dependent executable (its pointers carry no relocation), a slot
 * outside the GOT (a pointer in data), a PLT entry whose address is taken,
 * a slot no instruction is seen reading. */
#include "base/symsplit.h"
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include "read/fstate.h"
#include "read/insn.h"

struct use { uint64_t at; int fn, addr; };   /* an instruction of function fn (-1: outside every
                                              * function) branching to, or reading, at; addr: forms it */
struct reach {
    int unknown;                   /* no answer for this module: every reference runs */
    const unsigned char *rel;      /* the scan's code is released up to here (release_behind) */
    const void *own; size_t size;  /* the module's mapping (NULL: lent memory, never released) */
    int n;                         /* distinct function ranges, by lo */
    uint64_t *lo, *hi;
    int *eo, *ev, ne;              /* callers: ev[eo[i] .. eo[i+1]) the functions branching into i */
    unsigned char *root;           /* entered whatever the bindings say */
    struct use *u; int nu, ucap;   /* every branch into the PLT, every operand naming a GOT or PLT address */
    struct range got[4]; int ngot; /* .got, .got.plt */
    struct stubsec { uint64_t lo, hi; } plt[4]; int nplt;         /* .plt, .plt.sec, .plt.got */
    struct stub { uint64_t slot, lo, hi; } *stub; int nstub;       /* a PLT entry jumping through slot: it
                                                                    * starts in [lo, hi], hi reads the slot */
    /* indexes built once, so that one name's question costs its own slots
     * and readers, not the module's size (node's addons ask thousands) */
    int *ubyat;                    /* u[] by at (then by index) */
    int *sbyslot;                  /* stub[] by slot (then by index) */
    int *fdo, *fdv;                /* fdv[fdo[f] .. fdo[f+1]): the exported functions starting in f, by index */
    struct relslot { const char *name; uint64_t at; int i; } *rs; int nrs;   /* named relocations, by name */
};

static int in_got(const struct reach *r, uint64_t a)
{
    for (int i = 0; i < r->ngot; i++)
        if (a >= r->got[i].lo && a < r->got[i].hi) return 1;
    return 0;
}

static const struct stubsec *in_plt(const struct reach *r, uint64_t a)
{
    for (int i = 0; i < r->nplt; i++)
        if (a >= r->plt[i].lo && a < r->plt[i].hi) return &r->plt[i];
    return NULL;
}

/* The function holding a, or -1 */
static int fn_of(const struct reach *r, uint64_t a)
{
    int lo = 0, hi = r->n - 1, at = -1;
    while (lo <= hi) {   /* the last function starting at or before a */
        int mid = (lo + hi) / 2;
        if (r->lo[mid] <= a) { at = mid; lo = mid + 1; } else hi = mid - 1;
    }
    return at >= 0 && a < r->hi[at] ? at : -1;
}

static void root_at(struct reach *r, uint64_t a)
{
    int f = fn_of(r, a);
    if (f >= 0) r->root[f] = 1;
}

static void note_use(struct reach *r, uint64_t at, int fn, int addr)
{
    GROW(r->u, r->nu, r->ucap);
    r->u[r->nu++] = (struct use){ at, fn, addr };
}

struct edge { int from, to; };

/* One stretch of code: its branches (edges from fn, or roots from code
 * outside functions), the addresses it forms, its uses of the GOT and PLT. */
static void scan(struct reach *r, const struct fstate *s, struct decoder *dc, uint64_t lo, uint64_t hi, int fn,
                 struct edge **e, int *ne, int *ecap)
{
    const struct range *c = range_in(s->code, s->ncode, lo);
    if (!c || hi > c->hi) { r->unknown = 1; return; }
    uint64_t addr = lo, at;
    while (addr < hi) {
        const uint8_t *code = c->bytes + (addr - c->lo);
        size_t size = hi - addr;
        struct fx fx[FX_MAX];
        int n;
        decoder_start(dc);
        while (decoder_next(dc, &code, &size, &addr, fx, &n, &at)) {
            for (int k = 0; k < n; k++) {
                uint64_t t = fx[k].addr;
                if (fx[k].kind == FX_TLS) continue;
                if (in_plt(r, t)) { note_use(r, t, fn, fx[k].kind != FX_BRANCH); continue; }
                if ((fx[k].kind == FX_MEM || fx[k].kind == FX_ADDR) && in_got(r, t)) { note_use(r, t, fn, 0); continue; }
                if (!range_in(s->code, s->ncode, t)) continue;
                if (fn >= 0 && t >= r->lo[fn] && t < r->hi[fn]) continue;   /* runs only if the function does */
                /* a pointer (or a conditional jump: x86 names its target as an immediate), or unbounded code's branch */
                if (fx[k].kind != FX_BRANCH || fn < 0) { root_at(r, t); continue; }
                int j = fn_of(r, t);
                if (j >= 0) { GROW(*e, *ne, *ecap); (*e)[(*ne)++] = (struct edge){ fn, j }; }
            }
        }
        if (addr < hi) addr++;   /* bytes that decode to nothing (padding, data in code): step over one */
    }
    const unsigned char *end = c->bytes + (hi - c->lo);   /* read once: not kept resident */
    r->rel = release_behind(r->own, r->size, r->rel >= c->bytes && r->rel <= end ? r->rel : c->bytes, end);
}

static int by_to(const void *a, const void *b)
{
    const struct edge *x = a, *y = b;
    return (x->to > y->to) - (x->to < y->to);
}

/* The module's sections: GOT and PLT ranges (pltgot.c), .init and .fini. */
static void sections(struct reach *r, struct module *m)
{
    size_t shstrndx;
    Elf_Scn *scn = NULL;
    struct pltgot pg;
    if (elf_getshdrstrndx(m->elf, &shstrndx) != 0 || pltgot_read(m, &pg)) { r->unknown = 1; return; }
    while ((scn = elf_nextscn(m->elf, scn))) {
        GElf_Shdr sh;
        const char *nm;
        if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC) || !(nm = elf_strptr(m->elf, shstrndx, sh.sh_name))) continue;
        if (!strcmp(nm, ".init") || !strcmp(nm, ".fini")) root_at(r, sh.sh_addr);   /* DT_INIT, DT_FINI: the loader calls them */
    }
    for (int i = 0; i < pg.ngot; i++)
        if (pg.got[i].alloc && r->ngot < 4) r->got[r->ngot++] = (struct range){ pg.got[i].lo, pg.got[i].hi, NULL };
    for (int i = 0; i < pg.nplt; i++) {
        if (!pg.plt[i].alloc || !pg.plt[i].exec) continue;
        if (r->nplt == 4) { r->unknown = 1; continue; }
        r->plt[r->nplt++] = (struct stubsec){ pg.plt[i].lo, pg.plt[i].hi };
    }
    pltgot_free(&pg);
}

/* The relocations.  Those naming no symbol (RELATIVE, IRELATIVE): their
 * addend is an address of the module: a pointer in data, or a resolver the
 * loader calls.  Those naming one: its name and the address they fill
 * (r->rs, indexed by name in build_index) */
static void relocs(struct reach *r, Elf *e)
{
    Elf_Scn *scn = NULL;
    int cap = 0;
    while ((scn = elf_nextscn(e, scn))) {
        GElf_Shdr sh, ss;
        if (!gelf_getshdr(scn, &sh)) continue;
        if (sh.sh_type == SHT_REL && (sh.sh_flags & SHF_ALLOC)) { r->unknown = 1; return; }   /* the addend sits in place */
        if (sh.sh_type != SHT_RELA || !(sh.sh_flags & SHF_ALLOC)) continue;
        Elf_Data *d = elf_getdata(scn, NULL);
        Elf_Scn *sym = elf_getscn(e, sh.sh_link);
        Elf_Data *sd = sym && gelf_getshdr(sym, &ss) ? elf_getdata(sym, NULL) : NULL;
        size_t n = d && sh.sh_entsize ? d->d_size / sh.sh_entsize : 0;
        for (size_t i = 0; i < n; i++) {
            GElf_Rela rl;
            GElf_Sym sy;
            const char *nm;
            if (!gelf_getrela(d, i, &rl)) continue;
            if (GELF_R_SYM(rl.r_info) == 0) { root_at(r, (uint64_t)rl.r_addend); continue; }
            if (!sd || !gelf_getsym(sd, GELF_R_SYM(rl.r_info), &sy) || !(nm = elf_strptr(e, ss.sh_link, sy.st_name))) continue;
            GROW(r->rs, r->nrs, cap);
            r->rs[r->nrs] = (struct relslot){ nm, rl.r_offset, r->nrs };
            r->nrs++;
        }
    }
}

/* The PLT entries that jump through a slot, decoded once.  Where an entry
 * starts, sh_entsize does not say (GNU ld on aarch64 and mold leave it 0;
 * entries begin with endbr64, or an adrp before the load): an entry
 * starts after the previous one's jump (a branch, or a read of the GOT)
 * and no later than its own read of the slot. */
static void stubs(struct reach *r, const struct fstate *s, struct decoder *dc)
{
    int cap = 0;
    for (int i = 0; i < r->nplt; i++) {
        const struct stubsec *p = &r->plt[i];
        const struct range *c = range_in(s->code, s->ncode, p->lo);
        if (!c || p->hi > c->hi) { r->unknown = 1; return; }
        const uint8_t *code = c->bytes + (p->lo - c->lo);
        size_t size = p->hi - p->lo;
        uint64_t addr = p->lo, at, start = p->lo;
        struct fx fx[FX_MAX];
        int n;
        decoder_start(dc);
        while (decoder_next(dc, &code, &size, &addr, fx, &n, &at)) {
            int ends = 0;
            for (int k = 0; k < n; k++) {
                int got = fx[k].kind == FX_MEM && in_got(r, fx[k].addr);
                if (got) {
                    GROW(r->stub, r->nstub, cap);
                    r->stub[r->nstub++] = (struct stub){ fx[k].addr, start, at };
                }
                ends |= got || fx[k].kind == FX_BRANCH;
            }
            if (ends) start = addr;   /* the next instruction's address */
        }
    }
}

static const struct reach *sort_r;   /* qsort's comparators read the module being indexed */
static int use_by_at(const void *a, const void *b)
{
    const struct use *x = &sort_r->u[*(const int *)a], *y = &sort_r->u[*(const int *)b];
    if (x->at != y->at) return x->at < y->at ? -1 : 1;
    return (*(const int *)a > *(const int *)b) - (*(const int *)a < *(const int *)b);
}

static int stub_by_slot(const void *a, const void *b)
{
    const struct stub *x = &sort_r->stub[*(const int *)a], *y = &sort_r->stub[*(const int *)b];
    if (x->slot != y->slot) return x->slot < y->slot ? -1 : 1;
    return (*(const int *)a > *(const int *)b) - (*(const int *)a < *(const int *)b);
}

static int relslot_by_name(const void *a, const void *b)
{
    const struct relslot *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->i > y->i) - (x->i < y->i);
}

/* The indexes ref_runs reads: uses by address, stubs by slot, relocations
 * by name, and each function's exported functions (by def index: enters()
 * is asked in that order, and notes that it was asked) */
static void build_index(struct reach *r, struct module *m)
{
    r->ubyat = xcalloc(r->nu + 1, sizeof *r->ubyat);
    r->sbyslot = xcalloc(r->nstub + 1, sizeof *r->sbyslot);
    for (int i = 0; i < r->nu; i++) r->ubyat[i] = i;
    for (int i = 0; i < r->nstub; i++) r->sbyslot[i] = i;
    sort_r = r;
    if (r->nu) qsort(r->ubyat, r->nu, sizeof *r->ubyat, use_by_at);
    if (r->nstub) qsort(r->sbyslot, r->nstub, sizeof *r->sbyslot, stub_by_slot);
    sort_r = NULL;
    if (r->nrs) qsort(r->rs, r->nrs, sizeof *r->rs, relslot_by_name);
    int *of = xcalloc(m->ndefs_dyn + 1, sizeof *of), k = 0;
    r->fdo = xcalloc(r->n + 2, sizeof *r->fdo);
    for (int i = 0; i < m->ndefs_dyn; i++) {
        const struct def *d = &m->defs[i];
        of[i] = d->kind == K_FUNC ? fn_of(r, d->value) : -1;
        if (of[i] >= 0) r->fdo[of[i] + 1]++;
    }
    for (int f = 0; f < r->n; f++) r->fdo[f + 1] += r->fdo[f];
    r->fdv = xcalloc(r->fdo[r->n] + 1, sizeof *r->fdv);
    int *at = xcalloc(r->n + 1, sizeof *at);
    for (int i = 0; i < m->ndefs_dyn; i++)
        if (of[i] >= 0) { k = r->fdo[of[i]] + at[of[i]]++; r->fdv[k] = i; }
    free(at);
    free(of);
}

static struct reach *build(struct module *m)
{
    struct reach *r = xcalloc(1, sizeof *r);
    const struct fstate *s = fstate_of(m);
    /* one decoder for the run (Capstone's cs_open costs more than decoding a
     * small plugin): a run reads one machine (machine.c) */
    static struct decoder *dc;
    if (!dc && machine()->disasm) dc = decoder_open();
    if (!dc) { r->unknown = 1; return r; }
    r->own = m->borrowed ? NULL : m->map;
    r->size = m->size;
    r->lo = xcalloc(s->nfns + 1, sizeof *r->lo);
    r->hi = xcalloc(s->nfns + 1, sizeof *r->hi);
    /* sorted by lo; ranges that overlap (a symbol's size and an FDE's
     * disagree) are taken as one function: either reached reaches both */
    for (int i = 0; i < s->nfns; i++)
        if (r->n && s->fns[i].lo < r->hi[r->n - 1]) {
            if (s->fns[i].hi > r->hi[r->n - 1]) r->hi[r->n - 1] = s->fns[i].hi;
        } else {
            r->lo[r->n] = s->fns[i].lo;
            r->hi[r->n++] = s->fns[i].hi;
        }
    r->root = xcalloc(r->n + 1, 1);
    sections(r, m);
    relocs(r, m->elf);
    GElf_Ehdr eh;
    /* a position-dependent executable stores its function pointers (.init_array,
     * data) as plain addresses, no relocation says where: no answer */
    if (!gelf_getehdr(m->elf, &eh) || eh.e_type == ET_EXEC) r->unknown = 1;
    else root_at(r, eh.e_entry);
    struct edge *e = NULL;
    int ne = 0, ecap = 0;
    /* an FDE covering the PLT describes stubs, not a function: its reads of the slots are the stubs' */
    for (int i = 0; i < r->n && !r->unknown; i++)
        if (!in_plt(r, r->lo[i])) scan(r, s, dc, r->lo[i], r->hi[i], i, &e, &ne, &ecap);
    /* code outside every function and every PLT: entered by whoever, reached */
    for (int c = 0; c < s->ncode && !r->unknown; c++) {
        uint64_t a = s->code[c].lo, end = s->code[c].hi;
        int i = 0;
        while (i < r->n && r->hi[i] <= a) i++;
        while (a < end && !r->unknown) {
            const struct stubsec *p = in_plt(r, a);
            if (i < r->n && r->lo[i] <= a) { a = r->hi[i++]; continue; }
            if (p) { a = p->hi; while (i < r->n && r->hi[i] <= a) i++; continue; }
            uint64_t b = i < r->n && r->lo[i] < end ? r->lo[i] : end;   /* up to the next function or PLT */
            for (int k = 0; k < r->nplt; k++)
                if (r->plt[k].lo > a && r->plt[k].lo < b) b = r->plt[k].lo;
            scan(r, s, dc, a, b, -1, &e, &ne, &ecap);
            a = b;
        }
    }
    if (!r->unknown) stubs(r, s, dc);
    for (int c = 0; c < s->ncode; c++) release_input(r->own, r->size, s->code[c].bytes, s->code[c].hi - s->code[c].lo);
    if (ne) qsort(e, ne, sizeof *e, by_to);
    r->eo = xcalloc(r->n + 1, sizeof *r->eo);
    r->ev = xcalloc(ne + 1, sizeof *r->ev);
    for (int i = 0, k = 0; i <= r->n; i++) {
        r->eo[i] = k;
        while (k < ne && e[k].to == i) { r->ev[k] = e[k].from; k++; }
    }
    r->ne = ne;
    free(e);
    build_index(r, m);
    return r;
}

void reach_free(void *p)
{
    struct reach *r = p;
    if (!r) return;
    free(r->lo); free(r->hi); free(r->eo); free(r->ev); free(r->root); free(r->u); free(r->stub);
    free(r->ubyat); free(r->sbyslot); free(r->fdo); free(r->fdv); free(r->rs); free(r);
}

/* The GOT slots of m's relocations naming name, in *slots; -1 when one
 * lies outside the GOT (a pointer in data: anyone may call through it) */
static int slots_of(const struct reach *r, const char *name, uint64_t **slots, int *n)
{
    int lo = 0, hi = r->nrs;
    while (lo < hi) {   /* the first relocation whose name is not below name */
        int mid = (lo + hi) / 2;
        if (strcmp(r->rs[mid].name, name) < 0) lo = mid + 1; else hi = mid;
    }
    *slots = NULL;
    *n = 0;
    int end = lo;
    while (end < r->nrs && !strcmp(r->rs[end].name, name)) end++;
    for (int i = lo; i < end; i++)
        if (!in_got(r, r->rs[i].at)) return -1;
    *slots = xcalloc(end - lo + 1, sizeof **slots);
    for (int i = lo; i < end; i++) (*slots)[(*n)++] = r->rs[i].at;
    return 0;
}

/* The first index of ix (n entries, sorted by key) whose key is not below k */
static int lower(const int *ix, int n, uint64_t (*key)(const struct reach *, int), const struct reach *r, uint64_t k)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (key(r, ix[mid]) < k) lo = mid + 1; else hi = mid;
    }
    return lo;
}
static uint64_t use_at(const struct reach *r, int i) { return r->u[i].at; }
static uint64_t stub_slot(const struct reach *r, int i) { return r->stub[i].slot; }

static int by_int(const void *a, const void *b)
{
    return (*(const int *)a > *(const int *)b) - (*(const int *)a < *(const int *)b);
}

/* The uses reading one of slots, as indexes into u[] in order, no repeats:
 * an instruction reading a slot, or a branch to (or the address of) a PLT
 * entry that jumps through it */
static int readers(const struct reach *r, const uint64_t *slots, int nslots, int **out)
{
    int n = 0, cap = 0, *h = NULL;
    for (int k = 0; k < nslots; k++) {
        for (int j = lower(r->ubyat, r->nu, use_at, r, slots[k]); j < r->nu && r->u[r->ubyat[j]].at == slots[k]; j++) {
            GROW(h, n, cap);
            h[n++] = r->ubyat[j];
        }
        for (int s = lower(r->sbyslot, r->nstub, stub_slot, r, slots[k]); s < r->nstub && r->stub[r->sbyslot[s]].slot == slots[k]; s++) {
            const struct stub *st = &r->stub[r->sbyslot[s]];
            for (int j = lower(r->ubyat, r->nu, use_at, r, st->lo); j < r->nu && r->u[r->ubyat[j]].at <= st->hi; j++) {
                GROW(h, n, cap);
                h[n++] = r->ubyat[j];
            }
        }
    }
    if (n) qsort(h, n, sizeof *h, by_int);
    int m = 0;
    for (int i = 0; i < n; i++)
        if (!m || h[m - 1] != h[i]) h[m++] = h[i];
    *out = h;
    return m;
}

/* Is function f entered: a root, or the start of an export the image enters? */
static int entered_fn(const struct reach *r, int f, int (*entered)(int def, void *arg), void *arg)
{
    if (r->root[f]) return 1;
    for (int j = r->fdo[f]; j < r->fdo[f + 1]; j++)
        if (entered(r->fdv[j], arg)) return 1;
    return 0;
}

int ref_runs(struct module *m, const char *name, int (*entered)(int def, void *arg), void *arg, uint64_t *where)
{
    if (!m->reach) m->reach = build(m);
    const struct reach *r = m->reach;
    uint64_t *slots;
    int nslots, nsites = 0, runs = 0;
    *where = 0;
    if (r->unknown || slots_of(r, name, &slots, &nslots) < 0) return 1;
    int *hits, nhits = readers(r, slots, nslots, &hits);
    /* from each reader's function back through its callers: the reference
     * runs if one of them is entered (the exports asked only there) */
    unsigned char *seen = xcalloc(r->n + 1, 1);
    int *q = xcalloc(r->n + 1, sizeof *q), nq = 0;
    for (int i = 0; i < nhits && !runs; i++) {
        const struct use *u = &r->u[hits[i]];
        nsites++;
        /* the stub's address taken (a pointer may call it from anywhere), or code outside every function */
        if (u->addr || u->fn < 0) { runs = 1; break; }
        if (!*where) *where = r->lo[u->fn];
        if (seen[u->fn]) continue;
        seen[u->fn] = 1;
        q[nq++] = u->fn;
    }
    for (int h = 0; h < nq && !runs; h++) {
        int f = q[h];
        if (entered_fn(r, f, entered, arg)) { runs = 1; break; }
        for (int j = r->eo[f]; j < r->eo[f + 1]; j++)
            if (!seen[r->ev[j]]) { seen[r->ev[j]] = 1; q[nq++] = r->ev[j]; }
    }
    free(seen);
    free(q);
    free(hits);
    free(slots);
    return runs || !nslots || !nsites;   /* a slot no instruction is seen reading: the walk missed it */
}
