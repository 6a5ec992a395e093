/* One ELF file -> a module: the layout is checked here (header, program and
 * section headers, and that the two views of the file agree), then
 * elf_dynamic.c reads what ld.so reads.  Only .dynsym takes part in binding:
 * ld.so never sees .symtab (symtab.c adds it as evidence only).
 *
 * A file ld.so would refuse, or that cannot be read consistently, is refused
 * with one line naming the file and the defect: a wrong answer about a
 * corrupt file is worse than none. */
#include "read/parse.h"
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void module_free(struct module *m)
{
    if (!m) return;
    funcstate_free(m->fstate);
    reach_free(m->reach);
    free(m->copies);   /* copies.c's fingerprint: one allocation */
    if (m->elf) elf_end(m->elf);
    if (m->map && m->size && !m->borrowed) unmap_input(m->map, m->size);
    free(m->needed); free(m->filtees); free(m->vers); free(m->vneeds); free(m->vdefs); free(m->defs); free(m->dups); free(m->refs); free(m->looks); free(m->bucket);
    free(m->path); free(m->origin);
    free(m);
}

struct module *module_open(const char *path, int is_main, char **err, int *wrong_arch)
{
    struct stat st;
    *wrong_arch = 0;
    void *map = map_input(path, &st, err);
    if (!map) return NULL;
    struct module *m = module_parse(map, st.st_size, path, is_main, err, wrong_arch);
    if (!m) { unmap_input(map, st.st_size); return NULL; }
    m->dev = st.st_dev;
    m->ino = st.st_ino;
    return m;
}

/* e_ident, class, machine, type: the questions ld.so asks first. */
static int check_ident(struct parse *p, int *wrong_arch)
{
    const unsigned char *id = p->m->map;
    if (p->size < EI_NIDENT || memcmp(id, ELFMAG, SELFMAG) != 0)
        return p->size < EI_NIDENT ? bad(p, "not an ELF file (%zu bytes)", p->size) : bad(p, "not an ELF file");
    /* the first executable chooses the run's machine (machine.c); e_machine
     * is at one offset in both classes */
    if (p->is_main && p->size >= 20 && id[EI_DATA] == ELFDATA2LSB) machine_choose(id[18] | id[19] << 8, id[EI_CLASS]);
    const struct machine *mc = machine();
    if (id[EI_CLASS] != mc->cls || id[EI_DATA] != ELFDATA2LSB) {
        *wrong_arch = 1;
        return bad(p, "wrong ELF class/byte order (class %d, data %d)", id[EI_CLASS], id[EI_DATA]);
    }
    /* ld.so refuses any ELF version but the current one; libelf says "no error" */
    if (id[EI_VERSION] != EV_CURRENT) return bad(p, "bad ELF version (EI_VERSION %d, expected %d)", id[EI_VERSION], EV_CURRENT);
    p->e = elf_memory(p->m->map, p->size);
    if (!p->e || elf_kind(p->e) != ELF_K_ELF || !gelf_getehdr(p->e, &p->eh))
        return bad(p, "corrupt ELF header: %s", elf_why("unreadable by libelf"));
    if (p->eh.e_version != EV_CURRENT)
        return bad(p, "bad ELF version (e_version %u, expected %d)", (unsigned)p->eh.e_version, EV_CURRENT);
    if (p->eh.e_machine != mc->em) {
        *wrong_arch = 1;
        return bad(p, "wrong machine (e_machine %d, expected %d: %s)", p->eh.e_machine, mc->em,
                   machine_of(p->eh.e_machine, id[EI_CLASS]) ? "one machine a run" : "symsplit reads x86-64, aarch64 and i386");
    }
    if (p->eh.e_type != ET_EXEC && p->eh.e_type != ET_DYN)
        return bad(p, "not an executable or shared object (e_type %d)", p->eh.e_type);
    return 0;
}

/* The two header tables: entry sizes as this class has them (ld.so refuses
 * another e_phentsize; libelf would misread another e_shentsize), inside the
 * file, and a section-name table that is one. */
static int check_tables(struct parse *p)
{
    const GElf_Ehdr *h = &p->eh;
    size_t phsz = gelf_fsize(p->e, ELF_T_PHDR, 1, EV_CURRENT), shsz = gelf_fsize(p->e, ELF_T_SHDR, 1, EV_CURRENT);
    if (h->e_phnum && h->e_phentsize != phsz) return bad(p, "bad e_phentsize %u (expected %zu)", h->e_phentsize, phsz);
    if (h->e_shoff && h->e_shentsize != shsz) return bad(p, "bad e_shentsize %u (expected %zu)", h->e_shentsize, shsz);
    /* libelf trusts the header's table sizes until they are read: check them
     * against the file first, so a truncated file gets a clear message */
    if (h->e_phoff > p->size || (uint64_t)h->e_phnum * h->e_phentsize > p->size - h->e_phoff)
        return bad(p, "truncated or corrupt: program headers past the end of the file");
    if (h->e_shoff > p->size || (uint64_t)h->e_shnum * h->e_shentsize > p->size - h->e_shoff)
        return bad(p, "truncated or corrupt: section headers past the end of the file");
    if (elf_getshdrnum(p->e, &p->shnum) != 0 || elf_getshdrstrndx(p->e, &p->shstrndx) != 0)
        return bad(p, "corrupt section header table: %s", elf_why("bad count or e_shstrndx"));
    if (!p->shnum) return 0;   /* section headers stripped: checked against PT_DYNAMIC later */
    if (p->shstrndx == SHN_UNDEF || p->shstrndx >= p->shnum)
        return bad(p, "e_shstrndx %zu out of range (%zu sections)", p->shstrndx, p->shnum);
    GElf_Shdr sh;
    Elf_Scn *s = elf_getscn(p->e, p->shstrndx);
    if (!s || !gelf_getshdr(s, &sh) || sh.sh_type != SHT_STRTAB)
        return bad(p, "unreadable section-name table (section %zu is not a string table)", p->shstrndx);
    if (sh.sh_offset > p->size || sh.sh_size > p->size - sh.sh_offset || !elf_getdata(s, NULL))
        return bad(p, "unreadable section-name table (section %zu lies outside the file)", p->shstrndx);
    return 0;
}

static int read_segments(struct parse *p)
{
    size_t phnum;
    if (elf_getphdrnum(p->e, &phnum) != 0) return bad(p, "corrupt program headers: %s", elf_why("bad count"));
    for (size_t i = 0; i < phnum; i++) {
        GElf_Phdr ph;
        if (!gelf_getphdr(p->e, i, &ph)) return bad(p, "corrupt program header %zu: %s", i, elf_why("unreadable"));
        p->nload += ph.p_type == PT_LOAD;
        p->has_interp |= ph.p_type == PT_INTERP;
        if (ph.p_type == PT_DYNAMIC) { p->has_dynamic = 1; p->dyn_ph = ph; }
        if (ph.p_type == PT_GNU_RELRO) { p->relro_lo = ph.p_vaddr; p->relro_hi = ph.p_vaddr + ph.p_memsz; }
        /* its TLS block: what a static TLS offset must hold (bindings.c) */
        if (ph.p_type == PT_TLS) { p->m->tls_size = ph.p_memsz; p->m->tls_align = ph.p_align ? ph.p_align : 1; }
    }
    /* ld.so maps PT_LOAD segments; a file without one cannot be loaded */
    if (!p->nload) return bad(p, "no PT_LOAD segment (program headers missing, zeroed or corrupt)");
    return 0;
}

static int is_state(const char *n)
{
    return !strcmp(n, ".data") || !strcmp(n, ".bss") || !strcmp(n, ".tdata") || !strcmp(n, ".tbss");
}

static int read_sections(struct parse *p)
{
    Elf_Scn *scn = NULL;
    while ((scn = elf_nextscn(p->e, scn))) {
        GElf_Shdr sh;
        size_t ndx = elf_ndxscn(scn);
        if (!gelf_getshdr(scn, &sh)) return bad(p, "corrupt section header %zu: %s", ndx, elf_why("unreadable"));
        if (sh.sh_type != SHT_NOBITS && (sh.sh_offset > p->size || sh.sh_size > p->size - sh.sh_offset))
            return bad(p, "section %zu lies outside the file (offset 0x%llx, size 0x%llx)", ndx,
                       (unsigned long long)sh.sh_offset, (unsigned long long)sh.sh_size);
        const char *n = elf_strptr(p->e, p->shstrndx, sh.sh_name);
        if (!n) return bad(p, "section %zu: name offset %u out of range of the section-name table", ndx, sh.sh_name);
        switch (sh.sh_type) {
        case SHT_DYNSYM: p->dynsym = scn; p->dynsym_sh = sh; p->dynsym_ndx = ndx; break;
        case SHT_GNU_versym: p->versym = scn; p->versym_sh = sh; break;
        case SHT_GNU_verdef: p->verdef = scn; break;
        case SHT_GNU_verneed: p->verneed = scn; break;
        case SHT_DYNAMIC: p->dynamic = scn; p->dynamic_sh = sh; break;
        default:
            if ((sh.sh_flags & SHF_WRITE) && is_state(n)) p->m->state_bytes += sh.sh_size;
        }
    }
    /* the dynamic segment (what ld.so reads) and the sections (what we read)
     * must be one and the same */
    if (p->has_dynamic && !p->dynamic)
        return bad(p, "PT_DYNAMIC without a .dynamic section (section headers stripped?)");
    if (p->dynamic && !p->has_dynamic)
        return bad(p, "a .dynamic section but no PT_DYNAMIC (program headers corrupt?)");
    if (p->dynamic && (p->dyn_ph.p_offset != p->dynamic_sh.sh_offset || p->dyn_ph.p_vaddr != p->dynamic_sh.sh_addr))
        return bad(p, "PT_DYNAMIC (offset 0x%llx) and the .dynamic section (offset 0x%llx) disagree",
                   (unsigned long long)p->dyn_ph.p_offset, (unsigned long long)p->dynamic_sh.sh_offset);
    if (p->dynamic) {
        Elf_Scn *s = elf_getscn(p->e, p->dynamic_sh.sh_link);
        if (!s || !gelf_getshdr(s, &p->dynstr_sh) || p->dynstr_sh.sh_type != SHT_STRTAB)
            return bad(p, ".dynamic's string table (section %u) is not a string table", p->dynamic_sh.sh_link);
        if (p->dynsym && p->dynsym_sh.sh_link != p->dynamic_sh.sh_link)
            return bad(p, ".dynsym and .dynamic name different string tables (sections %u, %u)",
                       p->dynsym_sh.sh_link, p->dynamic_sh.sh_link);
    }
    return 0;
}

/* Names -> definitions, chained per bucket. */
static void build_hash(struct module *m)
{
    m->nbucket = 1;
    while (m->nbucket < m->ndefs) m->nbucket *= 2;
    m->bucket = xcalloc(m->nbucket, sizeof *m->bucket);
    memset(m->bucket, 0xff, m->nbucket * sizeof *m->bucket);
    for (int i = m->ndefs - 1; i >= 0; i--) {  /* reverse keeps .dynsym order in chains */
        int b = m->defs[i].hash & (m->nbucket - 1);
        m->defs[i].next = m->bucket[b];
        m->bucket[b] = i;
    }
}

/* $ORIGIN: ld.so uses /proc/self/exe (a real path) for the executable and
 * the path as found, made absolute, for libraries. */
static void set_origin(struct module *m, const char *path, int is_main)
{
    char buf[PATH_MAX];
    if (is_main && realpath(path, buf)) m->path = xstrdup(buf);
    else if (path[0] != '/' && getcwd(buf, sizeof buf)) m->path = xasprintf("%s/%s", buf, path);
    else m->path = xstrdup(path);
    char *dir = xstrdup(m->path);
    m->origin = xstrdup(dirname(dir));
    free(dir);
}

/* Parse an ELF image in memory (the mapped file, or a fuzzer's buffer). */
struct module *module_parse(void *map, size_t size, const char *path, int is_main, char **err, int *wrong_arch)
{
    struct module *m = xcalloc(1, sizeof *m);
    struct parse p = { .m = m, .path = path, .err = err, .size = size, .is_main = is_main };
    *wrong_arch = 0;
    m->map = map;
    m->size = size;
    m->borrowed = 1;            /* the caller owns the memory until parsing succeeds */
    if (check_ident(&p, wrong_arch) || check_tables(&p) || read_segments(&p) || read_sections(&p)) goto fail;
    m->elf = p.e;
    m->is_static = !p.has_dynamic;
    m->relro_lo = p.relro_lo;
    m->relro_hi = p.relro_hi;
    m->is_dyn_exe = p.eh.e_type == ET_EXEC || p.has_interp;
    if (read_dynamic(&p) || read_dynsym(&p) || read_relocs(&p)) goto fail;
    m->ndefs_dyn = m->ndefs;
    module_symtab(m, p.e, &p.dcap);
    build_hash(m);
    set_origin(m, path, is_main);
    free(p.sym2def);
    free(p.sym2ref);
    m->borrowed = 0;
    return m;
fail:
    free(p.sym2def);
    free(p.sym2ref);
    m->elf = p.e;
    module_free(m);
    return NULL;
}
