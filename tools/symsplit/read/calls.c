/* Evidence that a library calls its own export without the PLT.  A call that
 * the static linker resolved to the function's own address (what
 * -Bsymbolic-functions, -fno-semantic-interposition or protected produce)
 * can never be interposed: that call site is self-bound whatever the scope
 * says.  We find such sites by decoding only the direct-branch encodings
 * (x86-64 call/jmp rel32, AArch64 BL/B imm26: the run's machine's, machine.c)
 * in executable sections and
 * matching their targets against the module's own exported function
 * addresses.  Each match is then confirmed by Capstone (funcstate.c): the
 * containing function is decoded from its start and the match must be an
 * instruction boundary, so E8/E9 bytes inside other instructions no longer
 * count (the byte scan alone is kept where a function's bounds are unknown).
 * A call site may still be dead code: hence "likely", never "certain".  The
 * scan is lazy: a module is scanned the first time a finding depends on it;
 * decoding only the matches keeps it as cheap as the byte scan. */
#include "base/symsplit.h"
#include <gelf.h>
#include <stdlib.h>
#include <string.h>

struct addrmap { uint64_t *key; int *val; size_t mask; };

static int addr_find(const struct addrmap *a, uint64_t k)
{
    for (size_t i = (k * 0x9E3779B97F4A7C15ull) >> 40 & a->mask;; i = (i + 1) & a->mask) {
        if (a->val[i] < 0) return -1;
        if (a->key[i] == k) return a->val[i];
    }
}

static void scan(struct module *m)
{
    m->scanned = 1;
    Elf *e = m->elf;
    struct addrmap a;
    size_t cap = 16;
    while (cap < 2 * (size_t)m->ndefs + 2) cap *= 2;
    a.key = xcalloc(cap, sizeof *a.key);
    a.val = xcalloc(cap, sizeof *a.val);
    a.mask = cap - 1;
    memset(a.val, 0xff, cap * sizeof *a.val);
    for (int i = 0; i < m->ndefs; i++) {
        if (m->defs[i].kind != K_FUNC || !m->defs[i].value) continue;
        size_t j = (m->defs[i].value * 0x9E3779B97F4A7C15ull) >> 40 & a.mask;
        while (a.val[j] >= 0 && a.key[j] != m->defs[i].value) j = (j + 1) & a.mask;
        a.key[j] = m->defs[i].value;
        a.val[j] = i;   /* aliases share an address; the last one is enough */
    }
    const void *own = m->borrowed ? NULL : m->map;   /* the pages symsplit mapped, never lent memory */
    Elf_Scn *scn = NULL;
    while ((scn = elf_nextscn(e, scn))) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS || !(sh.sh_flags & SHF_EXECINSTR)) continue;
        Elf_Data *d = elf_getdata(scn, NULL);
        if (!d || !d->d_buf) continue;
        const unsigned char *p = d->d_buf, *done = p;   /* read once: not kept resident */
        size_t n = d->d_size;
        if (machine()->em == EM_AARCH64)
            for (size_t i = 0; i + 4 <= n; i += 4) {
                uint32_t w;
                if (!(i & 0xffff)) done = release_behind(own, m->size, done, p + i);   /* a look every 64 KiB */
                memcpy(&w, p + i, 4);
                if ((w & 0x7c000000) != 0x14000000) continue;     /* B and BL */
                int64_t off = (int64_t)(int32_t)((w & 0x03ffffff) << 6) >> 4;  /* sign-extended imm26 * 4 */
                int k = addr_find(&a, sh.sh_addr + i + off);
                if (k >= 0) m->defs[k].direct_call = 1;
            }
        else   /* x86-64 and i386: call/jmp rel32 */
            for (size_t i = 0; i + 5 <= n; i++) {
                if (!(i & 0xffff)) done = release_behind(own, m->size, done, p + i);   /* a look every 64 KiB */
                if (p[i] != 0xe8 && p[i] != 0xe9) continue;
                int32_t rel;
                memcpy(&rel, p + i + 1, 4);
                int k = addr_find(&a, sh.sh_addr + i + 5 + (int64_t)rel);
                if (k >= 0 && !m->defs[k].direct_call && insn_boundary(m, sh.sh_addr + i) != 0) m->defs[k].direct_call = 1;
            }
        release_input(own, m->size, done, p + n - done);
    }
    /* an alias at the same address as a called function is called too */
    for (int i = 0; i < m->ndefs; i++) {
        int k = m->defs[i].kind == K_FUNC ? addr_find(&a, m->defs[i].value) : -1;
        if (k >= 0 && m->defs[k].direct_call) m->defs[i].direct_call = 1;
    }
    free(a.key);
    free(a.val);
}

int calls_itself(struct module *m, int defidx)
{
    if (!m->scanned) scan(m);
    return m->defs[defidx].direct_call;
}
