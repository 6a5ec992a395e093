/* Does one function reach state of its own?  A second copy of a function
 * matters only through the state behind it: a copy whose code touches no
 * writable data of its module (and calls nothing that does) cannot diverge
 * from the other copy, whatever else its module holds.
 *
 * Capstone disassembles the function (its .dynsym/.symtab size) and the
 * functions it calls directly, a few levels deep (insn.c reads each
 * instruction).  State is an address read, written or formed that lands in
 * a writable section other than the GOT and RELRO (the GOT is how exported
 * data is shared: unified by binding), or a thread-local access other than
 * the stack-protector canary.  A direct call into code
 * whose bounds are unknown (no symbol and no .eh_frame FDE: ehframe.c) makes
 * the answer unknown: the caller then falls back to the module-level estimate.
 * An IFUNC is judged by the implementations its resolver can return, or
 * under --pid by the one the process's slot holds (image_live.c).
 * x86-64 and AArch64 code (machine.c); another machine's is always unknown. */
#include "base/symsplit.h"
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include "read/fstate.h"
#include "read/insn.h"

#define DEPTH 3          /* callee levels followed */
#define MAXFN 256        /* functions decoded per question */


static int by_lo(const void *a, const void *b)
{
    const struct range *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

static void add(struct range **r, int *n, uint64_t lo, uint64_t hi, const unsigned char *bytes)
{
    *r = xrealloc(*r, (*n + 1) * sizeof **r);
    (*r)[(*n)++] = (struct range){ lo, hi, bytes };
}

static const struct range *in(const struct range *r, int n, uint64_t a)
{
    for (int i = 0; i < n; i++)
        if (a >= r[i].lo && a < r[i].hi) return &r[i];
    return NULL;
}

const struct range *range_in(const struct range *r, int n, uint64_t a) { return in(r, n, a); }

static const struct range *fn_at(const struct fstate *s, uint64_t a)
{
    int lo = 0, hi = s->nfns - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (s->fns[mid].lo == a) return &s->fns[mid];
        if (s->fns[mid].lo < a) lo = mid + 1; else hi = mid - 1;
    }
    return NULL;
}

static void add_fn(uint64_t lo, uint64_t hi, void *arg)
{
    struct fstate *s = arg;
    add(&s->fns, &s->nfns, lo, hi, NULL);
}

static struct fstate *build(struct module *m)
{
    struct fstate *s = xcalloc(1, sizeof *s);
    Elf *e = m->elf;
    size_t shstrndx;
    Elf_Scn *scn = NULL;
    if (elf_getshdrstrndx(e, &shstrndx) != 0) return s;
    while ((scn = elf_nextscn(e, scn))) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC)) continue;
        const char *n = elf_strptr(e, shstrndx, sh.sh_name);
        if (!n) continue;
        uint64_t lo = sh.sh_addr, hi = sh.sh_addr + sh.sh_size;
        if ((sh.sh_flags & SHF_EXECINSTR) && sh.sh_type == SHT_PROGBITS && sh.sh_offset + sh.sh_size <= m->size)
            add(&s->code, &s->ncode, lo, hi, (const unsigned char *)m->map + sh.sh_offset);
        if ((sh.sh_flags & SHF_WRITE) && strncmp(n, ".got", 4) && strncmp(n, ".data.rel.ro", 12) &&
            strcmp(n, ".dynamic") && strcmp(n, ".init_array") && strcmp(n, ".fini_array") &&
            !(lo >= m->relro_lo && hi <= m->relro_hi))
            add(&s->priv, &s->npriv, lo, hi, NULL);
    }
    struct pltgot pg;   /* the PLT: the hull of its sections */
    if (!pltgot_read(m, &pg))
        for (int i = 0; i < pg.nplt; i++) {
            if (!pg.plt[i].alloc) continue;
            if (!s->plt.hi || pg.plt[i].lo < s->plt.lo) s->plt.lo = pg.plt[i].lo;
            if (pg.plt[i].hi > s->plt.hi) s->plt.hi = pg.plt[i].hi;
        }
    pltgot_free(&pg);
    for (int i = 0; i < m->ndefs; i++)
        if (m->defs[i].kind == K_FUNC && m->defs[i].size)
            add(&s->fns, &s->nfns, m->defs[i].value, m->defs[i].value + m->defs[i].size, NULL);
    /* .symtab's local functions too: the callees a stripped view cannot bound */
    scn = NULL;
    while ((scn = elf_nextscn(e, scn))) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB) continue;
        Elf_Data *d = elf_getdata(scn, NULL);
        size_t n = d ? d->d_size / gelf_fsize(e, ELF_T_SYM, 1, EV_CURRENT) : 0;
        for (size_t i = 1; i < n; i++) {
            GElf_Sym sym;
            if (gelf_getsym(d, i, &sym) && GELF_ST_TYPE(sym.st_info) == STT_FUNC && sym.st_size && sym.st_shndx != SHN_UNDEF)
                add(&s->fns, &s->nfns, sym.st_value, sym.st_value + sym.st_size, NULL);
        }
    }
    /* .eh_frame's: a stripped library's local functions have an FDE each */
    eh_frame_functions(m, add_fn, s);
    if (s->nfns) qsort(s->fns, s->nfns, sizeof *s->fns, by_lo);
    return s;
}

const struct fstate *fstate_of(struct module *m)
{
    if (!m->fstate) m->fstate = build(m);
    return m->fstate;
}

void funcstate_free(void *p)
{
    struct fstate *s = p;
    if (!s) return;
    for (int i = 0; s->starts && i < s->nfns; i++) free(s->starts[i]);
    free(s->starts); free(s->answer); free(s->fns); free(s->code); free(s->priv); free(s);
}

static void touch(struct touches *t, uint64_t a, int acc)
{
    for (int i = 0; i < t->n; i++)
        if (t->v[i].addr == a) { t->v[i].acc |= acc; return; }
    t->v = xrealloc(t->v, (t->n + 1) * sizeof *t->v);
    t->v[t->n++] = (struct touch){ a, acc };
}

/* 1 state, 0 none, -1 unknown; callees pushed on the work list.  col: every
 * private-state address touched is recorded there (decoding goes on past
 * the first one), else the first one ends the decoding. */
static int decode(const struct fstate *s, struct decoder *dc, uint64_t lo, uint64_t hi, uint64_t *work, int *nwork, int depth,
                  int *unknown, struct touches *col)
{
    const struct range *c = in(s->code, s->ncode, lo);
    if (!c || hi > c->hi) return -1;
    const uint8_t *code = c->bytes + (lo - c->lo);
    size_t size = hi - lo;
    uint64_t addr = lo, at;
    struct fx fx[FX_MAX];
    int state = 0, n;
    decoder_start(dc);
    while ((col || !state) && decoder_next(dc, &code, &size, &addr, fx, &n, &at)) {
        for (int k = 0; k < n && (col || !state); k++) {
            uint64_t t = fx[k].addr;
            if (fx[k].kind == FX_TLS) state = 1;
            else if (fx[k].kind == FX_MEM || fx[k].kind == FX_ADDR) {
                if (in(s->priv, s->npriv, t)) {
                    state = 1;
                    if (col) touch(col, t, fx[k].kind == FX_ADDR ? TOUCH_READ | TOUCH_WRITE : fx[k].acc);
                }
            } else if (fx[k].kind == FX_BRANCH) {
                if (t >= lo && t < hi) continue;                        /* a branch inside the function */
                if (t >= s->plt.lo && t < s->plt.hi) continue;          /* out of the module: bound elsewhere */
                if (!in(s->code, s->ncode, t)) continue;
                if (depth >= DEPTH) continue;
                if (!fn_at(s, t)) { *unknown = 1; continue; }
                if (*nwork < MAXFN) work[(*nwork)++] = t;
            }
        }
    }
    return state;
}

/* Is addr the start of an instruction?  The function around it is decoded
 * from its first byte.  1 yes, 0 no, -1 unknown (no bounds, no disassembly). */
int insn_boundary(struct module *m, uint64_t addr)
{
    if (!machine()->disasm) return -1;   /* another machine's code (machine.c) */
    if (!m->fstate) m->fstate = build(m);
    struct fstate *s = m->fstate;
    int lo = 0, hi = s->nfns - 1, at = -1;
    while (lo <= hi) {   /* the last function starting at or before addr */
        int mid = (lo + hi) / 2;
        if (s->fns[mid].lo <= addr) { at = mid; lo = mid + 1; } else hi = mid - 1;
    }
    if (at < 0 || addr >= s->fns[at].hi) return -1;
    const struct range *f = &s->fns[at], *c = in(s->code, s->ncode, f->lo);
    if (!c || f->hi > c->hi) return -1;
    if (!s->starts) s->starts = xcalloc(s->nfns, sizeof *s->starts);
    if (!s->starts[at]) {   /* decode the whole function once: Capstone formats every instruction */
        struct decoder *dc = decoder_open();
        if (!dc) return -1;
        unsigned char *bits = s->starts[at] = xcalloc((f->hi - f->lo) / 8 + 1, 1);
        const uint8_t *code = c->bytes + (f->lo - c->lo);
        size_t size = f->hi - f->lo;
        uint64_t a = f->lo, ia;
        while (decoder_step(dc, &code, &size, &a, &ia)) {
            uint64_t o = ia - f->lo;
            bits[o / 8] |= 1 << (o % 8);
        }
        decoder_close(dc);
    }
    uint64_t o = addr - f->lo;
    return (s->starts[at][o / 8] >> (o % 8)) & 1;
}

/* An IFUNC's code is the implementation its resolver returns, not the
 * resolver: the candidates are the function starts the resolver forms the
 * address of (lea sym(%rip); adrp+add; an immediate in position-dependent
 * code).  Returns how many went into work (0: none found, the answer unknown). */
static int ifunc_targets(const struct fstate *s, struct decoder *dc, const struct def *d, uint64_t *work)
{
    const struct range *c = in(s->code, s->ncode, d->value);
    if (!c || d->value + d->size > c->hi) return 0;
    const uint8_t *code = c->bytes + (d->value - c->lo);
    size_t size = d->size;
    uint64_t addr = d->value, at;
    struct fx fx[FX_MAX];
    int n = 0, nfx;
    decoder_start(dc);
    while (n < MAXFN && decoder_next(dc, &code, &size, &addr, fx, &nfx, &at)) {
        for (int k = 0; k < nfx && n < MAXFN; k++) {
            uint64_t t = fx[k].addr;
            if (fx[k].kind != FX_ADDR && fx[k].kind != FX_IMM) continue;
            if (t == d->value || !fn_at(s, t)) continue;
            int seen = 0;
            for (int j = 0; j < n && !seen; j++) seen = work[j] == t;
            if (!seen) work[n++] = t;
        }
    }
    return n;
}

/* The walk behind function_state and function_touches. */
static int walk(struct module *m, const struct def *d, struct touches *col)
{
    if (d->kind != K_FUNC || !d->size || !machine()->disasm) return -1;
    if (!m->fstate) m->fstate = build(m);
    const struct fstate *s = m->fstate;
    struct decoder *dc = decoder_open();
    if (!dc) return -1;
    uint64_t work[MAXFN];
    int depthof[MAXFN], nwork = 1, unknown = 0, state = 0;
    work[0] = d->value;
    if (d->ifunc && d->impl && fn_at(s, d->impl)) work[0] = d->impl;   /* what the process's resolver returned */
    else if (d->ifunc && !(nwork = ifunc_targets(s, dc, d, work))) { decoder_close(dc); return -1; }
    for (int i = 0; i < nwork; i++) depthof[i] = 0;
    for (int i = 0; i < nwork && (col || !state); i++) {
        int seen = 0;
        for (int j = 0; j < i && !seen; j++) seen = work[j] == work[i];
        if (seen) continue;
        const struct range *f = fn_at(s, work[i]);
        uint64_t hi = f ? f->hi : work[i] + d->size;
        int before = nwork;
        int r = decode(s, dc, work[i], hi, work, &nwork, depthof[i], &unknown, col);
        for (int j = before; j < nwork; j++) depthof[j] = depthof[i] + 1;
        if (r < 0) unknown = 1;
        if (r > 0) state = 1;
    }
    decoder_close(dc);
    return state ? 1 : unknown ? -1 : 0;
}

/* Asked once per (module, function): every latent pass asks again of the
 * same copies (proven_state), and the answer depends only on the file and,
 * under --pid, the IFUNC slot read before any analysis (image_live.c). */
int function_state(struct module *m, const struct def *d)
{
    size_t i = ((uintptr_t)d - (uintptr_t)m->defs) / sizeof *d;   /* a def of m's own table, else not kept */
    if (i >= (size_t)m->ndefs || &m->defs[i] != d || d->kind != K_FUNC || !d->size || !machine()->disasm) return walk(m, d, NULL);
    if (!m->fstate) m->fstate = build(m);
    struct fstate *s = m->fstate;
    if (!s->answer) s->answer = xcalloc(m->ndefs, 1);
    if (!s->answer[i]) s->answer[i] = (signed char)(walk(m, d, NULL) + 2);
    return s->answer[i] - 2;
}

/* Which state: every private-state address the function and its callees
 * touch, with how.  A partial set (a callee without bounds) still names
 * cells the code really touches; only their absence proves nothing. */
int function_touches(struct module *m, const struct def *d, struct touches *t)
{
    t->v = NULL;
    t->n = 0;
    return walk(m, d, t);
}
