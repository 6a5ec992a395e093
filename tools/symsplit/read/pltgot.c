/* A module's PLT and GOT sections, the one reader of them: each section
 * named .plt* (.plt, .plt.sec, .plt.got: the stubs a call out of the module
 * goes through, and where a lazy slot points until its first call) and
 * .got* (.got, .got.plt: the slots the loader fills), in section order,
 * with the flags the callers choose by.  The names are the static linker's
 * (ld.so goes by the dynamic tags): a module without section headers has
 * none.  reach.c walks each stub section apart, funcstate.c takes their
 * hull, image_live.c asks whether a slot still points into one. */
#include "base/symsplit.h"
#include <gelf.h>
#include <stdlib.h>
#include <string.h>

static void push(struct secrange **v, int *n, const GElf_Shdr *sh)
{
    *v = xrealloc(*v, (*n + 1) * sizeof **v);
    (*v)[(*n)++] = (struct secrange){ sh->sh_addr, sh->sh_addr + sh->sh_size, (sh->sh_flags & SHF_ALLOC) != 0,
                                      (sh->sh_flags & SHF_EXECINSTR) != 0 };
}

int pltgot_read(const struct module *m, struct pltgot *pg)
{
    size_t shstr;
    Elf_Scn *scn = NULL;
    *pg = (struct pltgot){ 0 };
    if (elf_getshdrstrndx(m->elf, &shstr) != 0) return -1;
    while ((scn = elf_nextscn(m->elf, scn))) {
        GElf_Shdr sh;
        const char *n;
        if (!gelf_getshdr(scn, &sh) || !(n = elf_strptr(m->elf, shstr, sh.sh_name))) continue;
        if (!strncmp(n, ".plt", 4)) push(&pg->plt, &pg->nplt, &sh);
        else if (!strncmp(n, ".got", 4)) push(&pg->got, &pg->ngot, &sh);
    }
    return 0;
}

void pltgot_free(struct pltgot *pg)
{
    free(pg->plt);
    free(pg->got);
    *pg = (struct pltgot){ 0 };
}
