/* Symbol versioning: .gnu.version_d (what a module defines) and
 * .gnu.version_r (what it needs) fill one table, version index -> name, the
 * way ld.so's l_versions does; .gnu.version then maps each .dynsym entry to an
 * index.  Every offset comes from the file, so every step is bounded. */
#include "base/symsplit.h"
#include <gelf.h>
#include <string.h>

/* The table grows to the highest index the file uses (a handful, usually):
 * a table of every possible index (0x8000) would cost 512 KiB per module. */
static struct version *slot(struct module *m, unsigned ndx)
{
    if (ndx >= (unsigned)m->nvers) {
        m->vers = xrealloc(m->vers, (ndx + 1) * sizeof *m->vers);
        memset(m->vers + m->nvers, 0, (ndx + 1 - m->nvers) * sizeof *m->vers);
        m->nvers = ndx + 1;
    }
    return &m->vers[ndx];
}

int parse_versions(struct module *m, void *elf, void *section, int need)
{
    Elf *e = elf;
    Elf_Scn *scn = section;
    GElf_Shdr shdr, *sh = &shdr;
    Elf_Data *d = gelf_getshdr(scn, sh) ? elf_getdata(scn, NULL) : NULL;
    if (!d) return -1;
    size_t off = 0;
    int bad = 0;
    /* sh_info counts the entries; also bound the walk so a loop in vd_next ends */
    for (unsigned i = 0; i < sh->sh_info && i < 65536; i++) {
        unsigned next;
        if (need) {
            GElf_Verneed vn;
            if (!gelf_getverneed(d, off, &vn)) return -1;
            size_t aoff = off + vn.vn_aux;
            for (unsigned j = 0; j < vn.vn_cnt && j < 65536; j++) {
                GElf_Vernaux va;
                if (!gelf_getvernaux(d, aoff, &va)) return -1;
                unsigned ndx = va.vna_other & 0x7fff;
                struct version *v = slot(m, ndx);
                v->name = elf_str(e, sh->sh_link, va.vna_name, &bad);
                v->present = 1;
                v->hidden = (va.vna_other & 0x8000) != 0;
                GROW(m->vneeds, m->nvneeds, m->vneedcap);
                m->vneeds[m->nvneeds++] = (struct vneed){ elf_str(e, sh->sh_link, vn.vn_file, &bad), v->name,
                                                          ndx, (va.vna_flags & VER_FLG_WEAK) != 0 };
                if (!va.vna_next) break;
                aoff += va.vna_next;
            }
            next = vn.vn_next;
        } else {
            GElf_Verdef vd;
            GElf_Verdaux va;
            if (!gelf_getverdef(d, off, &vd) || !gelf_getverdaux(d, off + vd.vd_aux, &va)) return -1;
            struct version *v = slot(m, vd.vd_ndx & 0x7fff);
            /* like ld.so, the base version (the soname) is not a name to match
             * a symbol's version, but a version need may name it */
            const char *vn = elf_str(e, sh->sh_link, va.vda_name, &bad);
            if (!(vd.vd_flags & VER_FLG_BASE)) v->name = vn;
            v->present = 1;
            GROW(m->vdefs, m->nvdefs, m->vdefcap);
            m->vdefs[m->nvdefs++] = vn;
            next = vd.vd_next;
        }
        if (!next) break;
        off += next;
    }
    return bad ? -1 : 0;
}


const char *version_name(const struct module *m, unsigned ver)
{
    return m->has_versym && ver >= 2 && ver < (unsigned)m->nvers ? m->vers[ver].name : NULL;
}
