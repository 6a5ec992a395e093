/* What one instruction does (insn.h), read by Capstone for the run's
 * machine (machine.c).
 *
 * x86-64 names an address in one operand: rip-relative (or absolute, in
 * position-dependent code), so each memory operand is read on its own.
 * AArch64 builds an address in two instructions: adrp puts the 4 KiB page in
 * a register, and a later ldr/str [reg, #lo12] or add reg, reg, #lo12
 * completes it (a GOT entry is read the same way, ldr [reg, #:got_lo12:]).
 * So the registers an adrp (or adr) set are followed through the function's
 * straight-line code: an add of an immediate moves the address on, anything
 * else that writes the register forgets it, and so does every call and
 * unconditional branch (the next instruction is reached from elsewhere).
 * Its thread-local storage is mrs TPIDR_EL0 (its stack-protector canary is
 * __stack_chk_guard, reached through the GOT: no TLS).
 *
 * Capstone 6 renamed ARM64 to AArch64 (Debian 13 may ship either; Debian 12
 * ships 4): the header that exists says which names to use. */
#include "base/symsplit.h"
#include "read/insn.h"
#include <elf.h>
#include <stdlib.h>
#include <string.h>
#include <capstone/capstone.h>

#if defined(__has_include)
#if __has_include(<capstone/aarch64.h>)
#define A64_NEW 1
#endif
#endif
#ifdef A64_NEW
#define A64(x) AARCH64_##x
#define CS_ARCH_A64 CS_ARCH_AARCH64
#define A64_DETAIL(i) (&(i)->detail->aarch64)
#else
#define A64(x) ARM64_##x
#define CS_ARCH_A64 CS_ARCH_ARM64
#define A64_DETAIL(i) (&(i)->detail->arm64)
#endif

struct decoder {
    csh h;
    int em;
    cs_insn *insn;
    uint64_t val[32];     /* AArch64: the address register n holds, where known[n] */
    uint32_t known;
};

struct decoder *decoder_open(void)
{
    const struct machine *mc = machine();
    if (!mc->disasm) return NULL;
    struct decoder *d = xcalloc(1, sizeof *d);
    d->em = mc->em;
    cs_err e = d->em == EM_AARCH64 ? cs_open(CS_ARCH_A64, CS_MODE_LITTLE_ENDIAN, &d->h)
                                    : cs_open(CS_ARCH_X86, CS_MODE_64, &d->h);
    if (e != CS_ERR_OK) { free(d); return NULL; }
    cs_option(d->h, CS_OPT_DETAIL, CS_OPT_ON);   /* before cs_malloc: it allocates the detail only then */
    d->insn = cs_malloc(d->h);
    return d;
}

void decoder_close(struct decoder *d)
{
    if (!d) return;
    cs_free(d->insn, 1);
    cs_close(&d->h);
    free(d);
}

void decoder_start(struct decoder *d) { d->known = 0; }

int decoder_step(struct decoder *d, const uint8_t **code, size_t *size, uint64_t *addr, uint64_t *at)
{
    cs_option(d->h, CS_OPT_DETAIL, CS_OPT_OFF);
    if (!cs_disasm_iter(d->h, code, size, addr, d->insn)) return 0;
    *at = d->insn->address;
    return 1;
}

static void put(struct fx *fx, int *n, int kind, uint64_t addr, int acc)
{
    if (*n < FX_MAX) fx[(*n)++] = (struct fx){ kind, addr, acc };
}

/* ---- x86-64 ---- */

/* What a memory operand does to the cell: read, write, or both when
 * Capstone does not say, or when only the address is taken (lea: a callee
 * may write through it). */
static int x86_access(const cs_insn *insn, const cs_x86_op *op)
{
    int acc = (op->access & CS_AC_READ ? TOUCH_READ : 0) | (op->access & CS_AC_WRITE ? TOUCH_WRITE : 0);
    return insn->id == X86_INS_LEA || !acc ? TOUCH_READ | TOUCH_WRITE : acc;
}

static void x86_effects(const cs_insn *insn, struct fx *fx, int *n)
{
    const cs_x86 *x = &insn->detail->x86;
    int branch = insn->id == X86_INS_CALL || insn->id == X86_INS_JMP;
    for (int k = 0; k < x->op_count; k++) {
        const cs_x86_op *op = &x->operands[k];
        if (op->type == X86_OP_MEM) {
            if (op->mem.segment == X86_REG_FS) {   /* TLS, except the stack-protector canary %fs:0x28 */
                if (!(op->mem.base == X86_REG_INVALID && op->mem.index == X86_REG_INVALID && op->mem.disp == 0x28))
                    put(fx, n, FX_TLS, 0, 0);
            } else if (op->mem.base == X86_REG_RIP)
                put(fx, n, insn->id == X86_INS_LEA ? FX_ADDR : FX_MEM, insn->address + insn->size + op->mem.disp,
                    x86_access(insn, op));
            else if (op->mem.base == X86_REG_INVALID && op->mem.index == X86_REG_INVALID)
                put(fx, n, FX_MEM, (uint64_t)op->mem.disp, x86_access(insn, op));
        } else if (op->type == X86_OP_IMM)
            put(fx, n, branch ? FX_BRANCH : FX_IMM, (uint64_t)op->imm, 0);
    }
}

/* ---- AArch64 ---- */

/* x0..x30 (w0..w30 are their low halves) as 0..30; -1 for sp, xzr and the rest */
static int a64_reg(csh h, unsigned r)
{
    const char *s = cs_reg_name(h, r);
    if (!s) return -1;
    if (!strcmp(s, "fp")) return 29;
    if (!strcmp(s, "lr")) return 30;
    if ((s[0] != 'x' && s[0] != 'w') || s[1] < '0' || s[1] > '9') return -1;
    int n = atoi(s + 1);
    return n <= 30 ? n : -1;
}

static int prefix(const char *s, const char *p) { return !strncmp(s, p, strlen(p)); }

/* A load or store's access, by its mnemonic: the atomics (LSE, and the
 * exclusive pairs' store half) read and write. 0: not a memory access. */
static int a64_access(const char *mn)
{
    static const char *const rmw[] = { "ldadd", "ldclr", "ldeor", "ldset", "ldsmax", "ldsmin", "ldumax", "ldumin",
                                       "stadd", "stclr", "steor", "stset", "stsmax", "stsmin", "stumax", "stumin",
                                       "swp", "cas" };
    for (size_t i = 0; i < sizeof rmw / sizeof *rmw; i++)
        if (prefix(mn, rmw[i])) return TOUCH_READ | TOUCH_WRITE;
    if (prefix(mn, "ld") || prefix(mn, "prfm")) return TOUCH_READ;
    if (prefix(mn, "st")) return TOUCH_WRITE;
    return 0;
}

static void a64_effects(struct decoder *d, const cs_insn *insn, struct fx *fx, int *n)
{
    const __typeof__(*A64_DETAIL(insn)) *a = A64_DETAIL(insn);
    const char *mn = insn->mnemonic;
    uint32_t w;
    memcpy(&w, insn->bytes, 4);
    if ((w & 0xffffffe0) == 0xd53bd040) put(fx, n, FX_TLS, 0, 0);   /* mrs xN, tpidr_el0 */
    int acc = a64_access(mn), dst = -1, dst2 = -1;
    int jump = cs_insn_group(d->h, insn, CS_GRP_JUMP) || cs_insn_group(d->h, insn, CS_GRP_CALL) ||
               cs_insn_group(d->h, insn, CS_GRP_RET);
    for (int k = 0; k < a->op_count; k++) {
        const __typeof__(a->operands[0]) *op = &a->operands[k];
        if (op->type == A64(OP_MEM)) {
            int b = op->mem.index == A64(REG_INVALID) ? a64_reg(d->h, op->mem.base) : -1;
            if (b >= 0 && (d->known >> b & 1)) put(fx, n, FX_MEM, d->val[b] + op->mem.disp, acc ? acc : TOUCH_READ | TOUCH_WRITE);
            /* a pre- or post-indexed access moves its base register on */
            if (b >= 0 && (strchr(insn->op_str, '!') || strstr(insn->op_str, "], "))) d->known &= ~(1u << b);
        } else if (op->type == A64(OP_IMM) && jump)
            put(fx, n, FX_BRANCH, (uint64_t)op->imm, 0);
    }
    /* the register the instruction writes: the first operand, but for a store
     * (its data) and a branch; a load pair writes the first two */
    if (!jump && !(acc & TOUCH_WRITE && !(acc & TOUCH_READ)) && a->op_count && a->operands[0].type == A64(OP_REG)) {
        dst = a64_reg(d->h, a->operands[0].reg);
        if (acc && a->op_count > 2 && a->operands[1].type == A64(OP_REG)) dst2 = a64_reg(d->h, a->operands[1].reg);
    }
    if (dst2 >= 0) d->known &= ~(1u << dst2);
    if (dst < 0) {
        /* a call clobbers the argument and scratch registers; after an unconditional
         * branch or a return the next instruction is reached from elsewhere */
        if (jump && (!strcmp(mn, "b") || !strcmp(mn, "br") || !strcmp(mn, "bl") || !strcmp(mn, "blr") || !strcmp(mn, "ret")))
            d->known = 0;
        return;
    }
    uint64_t v = 0;
    int set = 0;
    if ((insn->id == A64(INS_ADRP) || insn->id == A64(INS_ADR)) && a->op_count == 2 && a->operands[1].type == A64(OP_IMM)) {
        v = (uint64_t)a->operands[1].imm;
        set = 1;
        if (insn->id == A64(INS_ADR)) put(fx, n, FX_ADDR, v, 0);
    } else if (insn->id == A64(INS_ADD) && a->op_count == 3 && a->operands[1].type == A64(OP_REG) &&
               a->operands[2].type == A64(OP_IMM)) {
        int s = a64_reg(d->h, a->operands[1].reg);
        uint64_t imm = (uint64_t)a->operands[2].imm;
        if (a->operands[2].shift.type == A64(SFT_LSL)) imm <<= a->operands[2].shift.value;
        if (s >= 0 && (d->known >> s & 1)) {
            v = d->val[s] + imm;
            set = 1;
            put(fx, n, FX_ADDR, v, 0);
        }
    }
    if (set) { d->val[dst] = v; d->known |= 1u << dst; }
    else d->known &= ~(1u << dst);
}

int decoder_next(struct decoder *d, const uint8_t **code, size_t *size, uint64_t *addr,
                 struct fx *fx, int *n, uint64_t *at)
{
    cs_option(d->h, CS_OPT_DETAIL, CS_OPT_ON);
    if (!cs_disasm_iter(d->h, code, size, addr, d->insn)) return 0;
    *n = 0;
    *at = d->insn->address;
    if (d->em == EM_AARCH64) a64_effects(d, d->insn, fx, n);
    else x86_effects(d->insn, fx, n);
    return 1;
}
