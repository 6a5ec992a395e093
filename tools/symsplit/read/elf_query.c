/* What the rest of symsplit asks of a parsed module: its name, whether it
 * needs another, where a name is defined, a string from one of its tables.
 * Apart from elf_module.c so that the parser's steps (elf_dynamic.c,
 * version.c, symtab.c) use these without calling back into the parser. */
#include "base/symsplit.h"
#include <gelf.h>
#include <string.h>

const char *module_name(const struct module *m)
{
    if (m->soname) return m->soname;
    const char *s = strrchr(m->path, '/');
    return s ? s + 1 : m->path;
}

/* A DT_NEEDED entry of from names to, by SONAME or file name. */
int module_needs(const struct module *from, const struct module *to)
{
    for (int i = 0; i < from->nneeded; i++)
        if ((to->soname && !strcmp(from->needed[i], to->soname)) || !strcmp(from->needed[i], module_name(to))) return 1;
    return 0;
}

const char *elf_str(void *elf, size_t strndx, size_t off, int *bad_ref)
{
    const char *s = elf_strptr(elf, strndx, off);
    if (!s) { *bad_ref = 1; return ""; }
    return s;
}

int module_find_defs(const struct module *m, const char *name, uint32_t hash)
{
    for (int i = m->bucket[hash & (m->nbucket - 1)]; i >= 0; i = m->defs[i].next)
        if (m->defs[i].hash == hash && strcmp(m->defs[i].name, name) == 0) return i;
    return -1;
}
