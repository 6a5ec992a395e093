/* The state of one module_parse, shared by its steps (elf_module.c: the
 * file's layout; elf_dynamic.c: what ld.so reads from it). */
#ifndef PARSE_H
#define PARSE_H
#include "base/symsplit.h"
#include <gelf.h>

struct parse {
    struct module *m;
    Elf *e;
    GElf_Ehdr eh;
    const char *path;
    int is_main;             /* the executable: it chooses the run's machine */
    char **err;
    size_t size, shnum, shstrndx;
    /* from the program headers */
    int has_dynamic, has_interp, nload;
    GElf_Phdr dyn_ph;
    GElf_Addr relro_lo, relro_hi;
    /* from the section headers */
    Elf_Scn *dynsym, *versym, *dynamic, *verdef, *verneed;
    GElf_Shdr dynsym_sh, versym_sh, dynamic_sh, dynstr_sh;
    size_t dynsym_ndx, nsyms;
    Elf_Data *symd, *verd;
    int *sym2def;            /* .dynsym index -> def index, -1 none */
    int *sym2ref;            /* .dynsym index -> ref index, -1 none */
    int dcap;
};
/* Sets *p->err to "<path>: <defect>" and returns -1: every refusal is one line. */
int bad(struct parse *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* libelf's reason, or what we know when libelf has none ("no error" is no reason). */
const char *elf_why(const char *fallback);
int read_dynamic(struct parse *p);
int read_dynsym(struct parse *p);
int read_relocs(struct parse *p);
#endif
