/* The machines symsplit reads, and which one a run reads.  A run reads the
 * machine of its first executable: a program built by a cross compiler is
 * read as that machine's ld.so would read it (its relocation numbers, its
 * multiarch directories, its entries of the ld.so cache), and a library of
 * another machine is skipped while searching, as ld.so skips it.  One run
 * reads one machine: a later executable of another is refused.
 *
 * What is machine-specific in reading ELF is data here.  The disassembly
 * (funcstate.c: does a function reach state of its own; calls.c's
 * confirmation of a direct call) reads x86-64 and AArch64 code (insn.c): on
 * another machine its answer is "unknown", and the run says so (machine_note). */
#include "base/symsplit.h"
#include <elf.h>
#include <stdio.h>

#ifndef R_AARCH64_TLSDESC
#define R_AARCH64_TLSDESC 1031
#endif

static const struct machine machines[] = {
    { EM_X86_64, ELFCLASS64, "x86-64", R_X86_64_COPY, R_X86_64_JUMP_SLOT, R_X86_64_GLOB_DAT,
      R_X86_64_IRELATIVE, R_X86_64_DTPMOD64, R_X86_64_TPOFF64, R_X86_64_TLSDESC,
      "lib/x86_64-linux-gnu", "x86_64", "/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu:/lib:/usr/lib",
      0x0300, 1 },
    /* gcc for aarch64 reaches TLS through descriptors by default
     * (-mtls-dialect=desc): a module's own block is a TLSDESC naming no symbol */
    { EM_AARCH64, ELFCLASS64, "aarch64", R_AARCH64_COPY, R_AARCH64_JUMP_SLOT, R_AARCH64_GLOB_DAT,
      R_AARCH64_IRELATIVE, R_AARCH64_TLS_DTPMOD, R_AARCH64_TLS_TPREL, R_AARCH64_TLSDESC,
      "lib/aarch64-linux-gnu", "aarch64", "/lib/aarch64-linux-gnu:/usr/lib/aarch64-linux-gnu:/lib:/usr/lib",
      0x0a00, 1 },
    { EM_386, ELFCLASS32, "i386", R_386_COPY, R_386_JMP_SLOT, R_386_GLOB_DAT,
      R_386_IRELATIVE, R_386_TLS_DTPMOD32, R_386_TLS_TPOFF, R_386_TLS_DESC,
      "lib/i386-linux-gnu", "i686", "/lib/i386-linux-gnu:/usr/lib/i386-linux-gnu:/lib:/usr/lib",
      0x0000, 0 },
};

#if defined(__x86_64__)
#define HOST 0
#elif defined(__aarch64__)
#define HOST 1
#elif defined(__i386__)
#define HOST 2
#else
#error "symsplit: unsupported host machine"
#endif

static const struct machine *run_machine = &machines[HOST];
static int chosen;

const struct machine *machine(void) { return run_machine; }

const struct machine *machine_of(int em, int cls)
{
    for (size_t i = 0; i < sizeof machines / sizeof machines[0]; i++)
        if (machines[i].em == em && machines[i].cls == cls) return &machines[i];
    return NULL;
}

int machine_choose(int em, int cls)
{
    const struct machine *m = machine_of(em, cls);
    if (chosen || !m) return m == run_machine;
    chosen = 1;
    run_machine = m;
    return 1;
}

int machine_foreign(void) { return run_machine != &machines[HOST]; }

void machine_note(FILE *f)
{
    if (!run_machine->disasm)
        fprintf(f, "symsplit: note: %s objects: no disassembly (x86-64 and aarch64 only), so whether a function reaches state of "
                   "its own is not judged (a second copy of a function is taken to carry its module's state) and a "
                   "direct call to an own export is found by its branch encoding alone\n", run_machine->name);
}
