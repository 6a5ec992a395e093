/* What one instruction does, machine by machine (insn.c), in the terms
 * funcstate.c judges state by: the addresses it reads or writes, the
 * addresses it forms, the code it branches to, and whether it reaches
 * thread-local storage. */
#ifndef INSN_H
#define INSN_H
#include <stddef.h>
#include <stdint.h>

enum fx_kind {
    FX_MEM,      /* reads or writes addr (acc: TOUCH_*) */
    FX_ADDR,     /* forms addr (lea; adrp+add): a callee may do either */
    FX_IMM,      /* an immediate that may be an address (position-dependent code) */
    FX_BRANCH,   /* a direct call or jump to addr */
    FX_TLS,      /* reaches thread-local storage (other than the stack-protector canary) */
};
struct fx { int kind; uint64_t addr; int acc; };
#define FX_MAX 8   /* effects one instruction can have */

struct decoder;
/* NULL where the run's machine is not one Capstone reads here (machine.c: disasm). */
struct decoder *decoder_open(void);
void decoder_close(struct decoder *d);
/* Decoding starts anew at a function's first instruction: what registers held is forgotten. */
void decoder_start(struct decoder *d);
/* The next instruction at *code (Capstone's iterator): its effects in fx, how many
 * in *n, its address in *at. 0 at the end or at bytes that decode to nothing. */
int decoder_next(struct decoder *d, const uint8_t **code, size_t *size, uint64_t *addr,
                 struct fx *fx, int *n, uint64_t *at);
/* Instruction starts only, no detail: 1 and *at, or 0 at the end. */
int decoder_step(struct decoder *d, const uint8_t **code, size_t *size, uint64_t *addr, uint64_t *at);
#endif
