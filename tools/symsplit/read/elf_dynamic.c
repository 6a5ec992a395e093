/* What ld.so reads from a module, through the section headers: .dynamic
 * (NEEDED, SONAME, RPATH/RUNPATH, FLAGS), .dynsym definitions and references
 * with their versions, and which own exports the module reaches through
 * relocations (its interposable self-references).  ld.so itself goes by the
 * dynamic tags; each tag that names a table is checked against the section
 * we read instead, so the two cannot tell different stories. */
#include "read/parse.h"
#include <stdlib.h>
#include <string.h>

static int kind_of(int type)
{
    if (type == STT_FUNC || type == STT_GNU_IFUNC) return K_FUNC;
    if (type == STT_OBJECT || type == STT_TLS || type == STT_COMMON) return K_DATA;
    return K_OTHER;
}

/* A dynamic tag that gives a table's address must give the address of the
 * section that holds it. */
static int same_table(struct parse *p, const char *tag, GElf_Addr val, const char *sec, GElf_Addr addr)
{
    if (val == addr) return 0;
    return bad(p, "%s 0x%llx is not the address of %s (0x%llx)", tag, (unsigned long long)val, sec,
               (unsigned long long)addr);
}

int read_dynamic(struct parse *p)
{
    struct module *m = p->m;
    if (!p->dynamic) return 0;
    Elf_Data *d = elf_getdata(p->dynamic, NULL);
    if (!d) return bad(p, "unreadable .dynamic: %s", elf_why("no data"));
    size_t n = d->d_size / gelf_fsize(p->e, ELF_T_DYN, 1, EV_CURRENT), strtab = p->dynamic_sh.sh_link;
    int cap = 0, fcap = 0, oob = 0, has_strtab = 0;
    for (size_t i = 0; i < n; i++) {
        GElf_Dyn dyn;
        if (!gelf_getdyn(d, i, &dyn)) return bad(p, "corrupt .dynamic entry %zu", i);
        GElf_Xword v = dyn.d_un.d_val;
        if (dyn.d_tag == DT_NULL) break;
        switch (dyn.d_tag) {
        case DT_NEEDED:
            GROW(m->needed, m->nneeded, cap);
            m->needed[m->nneeded++] = elf_str(p->e, strtab, v, &oob);
            break;
        case DT_FILTER: case DT_AUXILIARY:   /* the filtee ld.so loads and puts first (closure.c) */
            GROW(m->filtees, m->nfiltees, fcap);
            m->filtees[m->nfiltees++] = (struct filtee){ elf_str(p->e, strtab, v, &oob), dyn.d_tag == DT_AUXILIARY };
            break;
        case DT_SONAME: m->soname = elf_str(p->e, strtab, v, &oob); break;
        case DT_RPATH: m->rpath = elf_str(p->e, strtab, v, &oob); break;
        case DT_RUNPATH: m->runpath = elf_str(p->e, strtab, v, &oob); break;
        case DT_SYMBOLIC: m->symbolic = 1; break;
        case DT_BIND_NOW: m->bind_now = 1; break;
        /* crtbegin puts one entry (frame_dummy) in every module's
         * .init_array: a constructor of the module's own is a second one */
        case DT_INIT_ARRAYSZ: m->ctors = v > (GElf_Xword)gelf_fsize(p->e, ELF_T_ADDR, 1, EV_CURRENT); break;
        case DT_PREINIT_ARRAYSZ: m->ctors |= v > 0; break;
        case DT_FLAGS:
            m->symbolic |= (v & DF_SYMBOLIC) != 0;
            m->bind_now |= (v & DF_BIND_NOW) != 0;
            break;
        case DT_FLAGS_1:
            m->nodeflib = (v & DF_1_NODEFLIB) != 0;
            m->bind_now |= (v & DF_1_NOW) != 0;
            break;
        case DT_STRTAB:
            has_strtab = 1;
            if (same_table(p, "DT_STRTAB", v, ".dynstr", p->dynstr_sh.sh_addr)) return -1;
            break;
        case DT_STRSZ:
            if (v > p->dynstr_sh.sh_size)
                return bad(p, "DT_STRSZ %llu is larger than .dynstr (%llu bytes)", (unsigned long long)v,
                           (unsigned long long)p->dynstr_sh.sh_size);
            break;
        case DT_SYMTAB:
            if (p->dynsym && same_table(p, "DT_SYMTAB", v, ".dynsym", p->dynsym_sh.sh_addr)) return -1;
            break;
        case DT_VERSYM:
            if (p->versym && same_table(p, "DT_VERSYM", v, ".gnu.version", p->versym_sh.sh_addr)) return -1;
            break;
        }
    }
    if (oob) return bad(p, ".dynamic string offset out of range of .dynstr");
    if ((m->nneeded || m->nfiltees || m->soname || m->rpath || m->runpath) && !has_strtab)
        return bad(p, "names in .dynamic but no DT_STRTAB");
    return 0;
}

/* Version tables, then the .gnu.version entry of every symbol must name a
 * version the file defines or needs (ld.so would look it up by index). */
static int read_versions(struct parse *p)
{
    struct module *m = p->m;
    p->verd = elf_getdata(p->versym, NULL);
    if (!p->verd || p->verd->d_size / 2 < p->nsyms) return bad(p, ".gnu.version shorter than .dynsym");
    m->has_versym = 1;
    if (p->verdef && parse_versions(m, p->e, p->verdef, 0) != 0) return bad(p, "corrupt .gnu.version_d");
    if (p->verneed && parse_versions(m, p->e, p->verneed, 1) != 0) return bad(p, "corrupt .gnu.version_r");
    const uint16_t *vs = p->verd->d_buf;
    for (size_t i = 1; i < p->nsyms; i++) {
        unsigned v = vs[i] & 0x7fff;
        if (v >= 2 && (v >= (unsigned)m->nvers || !m->vers[v].present))
            return bad(p, "corrupt .gnu.version: symbol %zu has version index %u, which no verdef or verneed defines",
                       i, v);
    }
    return 0;
}

int read_dynsym(struct parse *p)
{
    struct module *m = p->m;
    if (!p->dynsym) return 0;
    p->symd = elf_getdata(p->dynsym, NULL);
    if (!p->symd) return bad(p, "unreadable .dynsym: %s", elf_why("no data"));
    p->nsyms = p->symd->d_size / gelf_fsize(p->e, ELF_T_SYM, 1, EV_CURRENT);
    if (p->versym && p->nsyms && read_versions(p)) return -1;
    p->sym2def = xcalloc(p->nsyms ? p->nsyms : 1, sizeof *p->sym2def);
    p->sym2ref = xcalloc(p->nsyms ? p->nsyms : 1, sizeof *p->sym2ref);
    int rcap = 0, oob = 0;
    for (size_t i = 1; i < p->nsyms; i++) {
        GElf_Sym s;
        p->sym2def[i] = p->sym2ref[i] = -1;
        if (!gelf_getsym(p->symd, i, &s)) return bad(p, "corrupt .dynsym entry %zu", i);
        int bind = GELF_ST_BIND(s.st_info), type = GELF_ST_TYPE(s.st_info), vis = GELF_ST_VISIBILITY(s.st_other);
        if (bind != STB_GLOBAL && bind != STB_WEAK && bind != STB_GNU_UNIQUE) continue;
        const char *name = elf_str(p->e, p->dynsym_sh.sh_link, s.st_name, &oob);
        if (oob) return bad(p, ".dynsym entry %zu: name offset out of range", i);
        if (!*name) continue;
        uint16_t vs = p->verd ? ((uint16_t *)p->verd->d_buf)[i] : 1;
        if (s.st_shndx == SHN_UNDEF) {
            GROW(m->refs, m->nrefs, rcap);
            p->sym2ref[i] = m->nrefs;
            m->refs[m->nrefs++] = (struct ref){ name, name_hash(name), vs & 0x7fff, bind == STB_WEAK, kind_of(type), 0,
                                                s.st_value != 0, 0 };
            m->ncanon += s.st_value != 0;
            continue;
        }
        /* what do_lookup_x accepts as a definition */
        if (vis == STV_HIDDEN || vis == STV_INTERNAL) continue;
        if (type > STT_TLS && type != STT_GNU_IFUNC) continue;
        if (s.st_value == 0 && s.st_shndx != SHN_ABS && type != STT_TLS) continue;
        /* read-only after start-up: a non-writable section, or RELRO */
        int ro = s.st_shndx == SHN_ABS || (s.st_value >= p->relro_lo && s.st_value < p->relro_hi);
        Elf_Scn *ds = s.st_shndx < SHN_LORESERVE ? elf_getscn(p->e, s.st_shndx) : NULL;
        GElf_Shdr dsh;
        if (ds && gelf_getshdr(ds, &dsh) && !(dsh.sh_flags & SHF_WRITE) && type != STT_TLS) ro = 1;
        GROW(m->defs, m->ndefs, p->dcap);
        p->sym2def[i] = m->ndefs;
        m->defs[m->ndefs++] = (struct def){ .name = name, .hash = name_hash(name), .ver = vs & 0x7fff,
                                            .hidden = (vs & 0x8000) != 0, .kind = kind_of(type), .vis = vis,
                                            .bind = bind, .readonly = ro, .ifunc = type == STT_GNU_IFUNC, .tls = type == STT_TLS, .value = s.st_value,
                                            .size = s.st_size, .shndx = s.st_shndx, .next = -1 };
        m->n_func_exports += kind_of(type) == K_FUNC;
    }
    return 0;
}

int keep_lookups;

/* The lookup ld.so makes for relocation `info` against .dynsym entry si:
 * none for a local symbol or a hidden one (it binds in its module, dl-reloc's
 * RESOLVE_MAP); one per symbol and class (its lookup cache answers a repeat). */
static void note_lookup(struct parse *p, size_t si, int type, unsigned char *classes, int *cap)
{
    struct module *m = p->m;
    GElf_Sym s;
    if (!gelf_getsym(p->symd, si, &s)) return;
    int vis = GELF_ST_VISIBILITY(s.st_other), bind = GELF_ST_BIND(s.st_info);
    if (bind == STB_LOCAL || vis == STV_HIDDEN || vis == STV_INTERNAL) return;
    int cls = type == machine()->r_copy ? LC_COPY : type == machine()->r_jump_slot ? LC_PLT : LC_NORMAL;
    int oob = 0, ie = type == machine()->r_tls_tpoff;
    const char *name = elf_str(p->e, p->dynsym_sh.sh_link, s.st_name, &oob);
    if (oob || !*name) return;
    if (classes[si] & (1 << cls)) {   /* one lookup: an initial-exec relocation of the name marks it */
        for (int k = m->nlooks - 1; ie && k >= 0; k--)
            if (m->looks[k].name == name && m->looks[k].cls == cls) { m->looks[k].ie = 1; break; }
        return;
    }
    classes[si] |= 1 << cls;
    uint16_t vs = p->verd ? ((uint16_t *)p->verd->d_buf)[si] : 1;
    GROW(m->looks, m->nlooks, *cap);
    m->looks[m->nlooks++] = (struct lookref){ name, name_hash(name), vs & 0x7fff, cls, bind == STB_WEAK,
                                              GELF_ST_TYPE(s.st_info) == STT_TLS,
                                              s.st_shndx != SHN_UNDEF && vis == STV_PROTECTED, ie };
}

int read_relocs(struct parse *p)
{
    struct module *m = p->m;
    Elf_Scn *scn = NULL;
    char *seen = xcalloc(p->nsyms ? p->nsyms : 1, 1);
    unsigned char *classes = keep_lookups ? xcalloc(p->nsyms ? p->nsyms : 1, 1) : NULL;
    int lcap = 0;
    const struct machine *mc = machine();
    while (p->nsyms && (scn = elf_nextscn(p->e, scn))) {
        GElf_Shdr sh;
        gelf_getshdr(scn, &sh);
        if ((sh.sh_type != SHT_RELA && sh.sh_type != SHT_REL) || sh.sh_link != p->dynsym_ndx) continue;
        Elf_Data *d = elf_getdata(scn, NULL);
        if (!d) { free(seen); free(classes); return bad(p, "unreadable relocation section %zu: %s", elf_ndxscn(scn), elf_why("no data")); }
        int rela = sh.sh_type == SHT_RELA;
        size_t n = d->d_size / gelf_fsize(p->e, rela ? ELF_T_RELA : ELF_T_REL, 1, EV_CURRENT);
        for (size_t i = 0; i < n; i++) {
            GElf_Rela r;
            GElf_Rel rl;
            if (rela ? !gelf_getrela(d, i, &r) : !gelf_getrel(d, i, &rl)) {
                free(seen);
                free(classes);
                return bad(p, "corrupt relocation %zu in section %zu", i, elf_ndxscn(scn));
            }
            uint64_t info = rela ? r.r_info : rl.r_info;
            size_t si = GELF_R_SYM(info);
            int type = GELF_R_TYPE(info), slot = type == mc->r_jump_slot;
            /* local-dynamic (the module's own id) or initial-exec to an
             * offset the linker fixed: the code reaches its own TLS block,
             * whatever name another module's lookup finds (a descriptor
             * naming no symbol too: gcc's default for aarch64) */
            if (si == 0 && (type == mc->r_tls_mod || type == mc->r_tls_tpoff || type == mc->r_tlsdesc)) m->tls_local = 1;
            /* its own block at a static offset (initial-exec, no name); a
             * descriptor may take one from the optional surplus (bindings.c) */
            m->tls_ie_own |= si == 0 && type == mc->r_tls_tpoff;
            m->tls_desc |= type == mc->r_tlsdesc;
            if (si == 0 || si >= p->nsyms) continue;
            if (classes) note_lookup(p, si, type, classes, &lcap);
            if (p->sym2ref[si] >= 0) {   /* lazy until some relocation needs it at load time */
                struct ref *rf = &m->refs[p->sym2ref[si]];
                rf->lazy = (rf->lazy || !seen[si]) && slot;
                rf->reloc = seen[si] = 1;
            }
            if (p->sym2def[si] < 0) continue;
            struct def *df = &m->defs[p->sym2def[si]];
            if (type == mc->r_copy) { df->copy = 1; continue; }
            df->self_lazy = (df->self_lazy || !df->self_reloc) && slot;
            if (!df->self_reloc) {
                if (df->kind == K_FUNC) m->own_func_relocs++;
                else m->own_data_relocs++;
            }
            df->self_reloc = 1;
        }
    }
    free(seen);
    free(classes);
    return 0;
}
