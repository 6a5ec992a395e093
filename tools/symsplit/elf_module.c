/* Parse one ELF file into the facts the binding model needs: NEEDED/SONAME/
 * RPATH/RUNPATH/FLAGS, .dynsym definitions and references with their versions,
 * and which own exports the file reaches through relocations (interposable
 * self-references).  Only .dynsym takes part: ld.so never sees .symtab. */
#include "symsplit.h"
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(__x86_64__)
#define HOST_MACHINE EM_X86_64
#define HOST_CLASS ELFCLASS64
#define R_COPY_TYPE R_X86_64_COPY
#elif defined(__aarch64__)
#define HOST_MACHINE EM_AARCH64
#define HOST_CLASS ELFCLASS64
#define R_COPY_TYPE R_AARCH64_COPY
#elif defined(__i386__)
#define HOST_MACHINE EM_386
#define HOST_CLASS ELFCLASS32
#define R_COPY_TYPE R_386_COPY
#else
#error "symsplit: unsupported host machine"
#endif

const char *module_name(const struct module *m)
{
    if (m->soname) return m->soname;
    const char *s = strrchr(m->path, '/');
    return s ? s + 1 : m->path;
}

static int kind_of(int type)
{
    if (type == STT_FUNC || type == STT_GNU_IFUNC) return K_FUNC;
    if (type == STT_OBJECT || type == STT_TLS || type == STT_COMMON) return K_DATA;
    return K_OTHER;
}

/* Fail helper: every malformed-input path ends here with one line. */
#define BAD(...) do { *err = xasprintf(__VA_ARGS__); goto fail; } while (0)

static const char *str(Elf *e, size_t strndx, size_t off, int *bad)
{
    const char *s = elf_strptr(e, strndx, off);
    if (!s) { *bad = 1; return ""; }
    return s;
}

void module_free(struct module *m)
{
    if (!m) return;
    if (m->elf) elf_end(m->elf);
    if (m->map && m->size && !m->borrowed) munmap(m->map, m->size);
    free(m->needed); free(m->vers); free(m->defs); free(m->dups); free(m->refs); free(m->bucket);
    free(m->path); free(m->origin);
    free(m);
}

struct module *module_open(const char *path, int is_main, char **err, int *wrong_arch)
{
    *wrong_arch = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) { *err = xasprintf("%s: %s", path, strerror(errno)); return NULL; }
    struct stat st;
    void *map = NULL;
    if (fstat(fd, &st) < 0) *err = xasprintf("%s: %s", path, strerror(errno));
    else if (S_ISDIR(st.st_mode)) *err = xasprintf("%s: is a directory", path);
    else if (!S_ISREG(st.st_mode)) *err = xasprintf("%s: not a regular file", path);
    else if ((size_t)st.st_size < EI_NIDENT) *err = xasprintf("%s: not an ELF file (%lld bytes)", path, (long long)st.st_size);
    /* MAP_PRIVATE + PROT_WRITE: libelf may fix up in place; never reaches the file */
    else if ((map = mmap(NULL, st.st_size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0)) == MAP_FAILED) {
        map = NULL;
        *err = xasprintf("%s: mmap: %s", path, strerror(errno));
    }
    close(fd);
    if (!map) return NULL;
    struct module *m = module_parse(map, st.st_size, path, is_main, err, wrong_arch);
    if (!m) { munmap(map, st.st_size); return NULL; }
    m->dev = st.st_dev;
    m->ino = st.st_ino;
    return m;
}

/* Parse an ELF image in memory (the mapped file, or a fuzzer's buffer). */
struct module *module_parse(void *map, size_t size, const char *path, int is_main, char **err, int *wrong_arch)
{
    struct module *m = xcalloc(1, sizeof *m);
    Elf *e = NULL;
    int *sym2def = NULL;
    *wrong_arch = 0;
    m->map = map;
    m->size = size;
    m->borrowed = 1;            /* the caller owns the memory until parsing succeeds */
    if (size < EI_NIDENT) BAD("%s: not an ELF file (%zu bytes)", path, size);
    const unsigned char *id = m->map;
    if (memcmp(id, ELFMAG, SELFMAG) != 0) BAD("%s: not an ELF file", path);
    if (id[EI_CLASS] != HOST_CLASS || id[EI_DATA] != ELFDATA2LSB) {
        *wrong_arch = 1;
        BAD("%s: wrong ELF class/byte order (class %d, data %d)", path, id[EI_CLASS], id[EI_DATA]);
    }
    e = elf_memory(m->map, m->size);
    GElf_Ehdr eh;
    if (!e || elf_kind(e) != ELF_K_ELF || !gelf_getehdr(e, &eh))
        BAD("%s: corrupt ELF header: %s", path, elf_errmsg(-1));
    if (eh.e_machine != HOST_MACHINE) {
        *wrong_arch = 1;
        BAD("%s: wrong machine (e_machine %d, expected %d)", path, eh.e_machine, HOST_MACHINE);
    }
    if (eh.e_type != ET_EXEC && eh.e_type != ET_DYN) BAD("%s: not an executable or shared object (e_type %d)", path, eh.e_type);
    m->elf = e;
    /* libelf trusts the header's table sizes until they are read: check them
     * against the file first, so a truncated file gets a clear message */
    if (eh.e_phoff > size || (uint64_t)eh.e_phnum * eh.e_phentsize > size - eh.e_phoff)
        BAD("%s: truncated or corrupt: program headers past the end of the file", path);
    if (eh.e_shoff > size || (uint64_t)eh.e_shnum * eh.e_shentsize > size - eh.e_shoff)
        BAD("%s: truncated or corrupt: section headers past the end of the file", path);
    size_t phnum;
    if (elf_getphdrnum(e, &phnum) != 0) BAD("%s: corrupt program headers: %s", path, elf_errmsg(-1));
    int has_dynamic = 0, has_interp = 0;
    GElf_Addr relro_lo = 0, relro_hi = 0;
    for (size_t i = 0; i < phnum; i++) {
        GElf_Phdr ph;
        if (!gelf_getphdr(e, i, &ph)) BAD("%s: corrupt program header %zu: %s", path, i, elf_errmsg(-1));
        has_dynamic |= ph.p_type == PT_DYNAMIC;
        has_interp |= ph.p_type == PT_INTERP;
        if (ph.p_type == PT_GNU_RELRO) { relro_lo = ph.p_vaddr; relro_hi = ph.p_vaddr + ph.p_memsz; }
    }
    m->is_static = !has_dynamic;
    m->is_dyn_exe = eh.e_type == ET_EXEC || has_interp;

    size_t shstrndx;
    if (elf_getshdrstrndx(e, &shstrndx) != 0) BAD("%s: corrupt section header table: %s", path, elf_errmsg(-1));
    Elf_Scn *dynsym = NULL, *versym = NULL, *dynamic = NULL, *scn = NULL;
    GElf_Shdr dynsym_sh = { 0 };
    int bad = 0;
    size_t dynsym_ndx = 0;
    while ((scn = elf_nextscn(e, scn))) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh)) BAD("%s: corrupt section header: %s", path, elf_errmsg(-1));
        if (sh.sh_type == SHT_DYNSYM) { dynsym = scn; dynsym_sh = sh; dynsym_ndx = elf_ndxscn(scn); }
        else if (sh.sh_type == SHT_GNU_versym) versym = scn;
        else if (sh.sh_type == SHT_DYNAMIC) dynamic = scn;
        else if (sh.sh_flags & SHF_WRITE) {
            const char *n = elf_strptr(e, shstrndx, sh.sh_name);
            if (n && (!strcmp(n, ".data") || !strcmp(n, ".bss") || !strcmp(n, ".tdata") || !strcmp(n, ".tbss")))
                m->state_bytes += sh.sh_size;
        }
    }
    if (has_dynamic && !dynamic) BAD("%s: PT_DYNAMIC without a .dynamic section (section headers stripped?)", path);

    /* ---- .dynamic ---- */
    if (dynamic) {
        GElf_Shdr sh;
        gelf_getshdr(dynamic, &sh);
        Elf_Data *d = elf_getdata(dynamic, NULL);
        if (!d) BAD("%s: unreadable .dynamic: %s", path, elf_errmsg(-1));
        size_t n = d->d_size / gelf_fsize(e, ELF_T_DYN, 1, EV_CURRENT);
        int cap = 0;
        for (size_t i = 0; i < n; i++) {
            GElf_Dyn dyn;
            if (!gelf_getdyn(d, i, &dyn)) BAD("%s: corrupt .dynamic", path);
            if (dyn.d_tag == DT_NULL) break;
            switch (dyn.d_tag) {
            case DT_NEEDED:
                GROW(m->needed, m->nneeded, cap);
                m->needed[m->nneeded++] = str(e, sh.sh_link, dyn.d_un.d_val, &bad);
                break;
            case DT_SONAME: m->soname = str(e, sh.sh_link, dyn.d_un.d_val, &bad); break;
            case DT_RPATH: m->rpath = str(e, sh.sh_link, dyn.d_un.d_val, &bad); break;
            case DT_RUNPATH: m->runpath = str(e, sh.sh_link, dyn.d_un.d_val, &bad); break;
            case DT_SYMBOLIC: m->symbolic = 1; break;
            case DT_FLAGS: m->symbolic |= (dyn.d_un.d_val & DF_SYMBOLIC) != 0; break;
            case DT_FLAGS_1: m->nodeflib = (dyn.d_un.d_val & DF_1_NODEFLIB) != 0; break;
            }
        }
        if (bad) BAD("%s: .dynamic string out of range", path);
    }

    /* ---- .dynsym, versions ---- */
    size_t nsyms = 0;
    Elf_Data *symd = NULL, *verd = NULL;
    if (dynsym) {
        symd = elf_getdata(dynsym, NULL);
        if (!symd) BAD("%s: unreadable .dynsym: %s", path, elf_errmsg(-1));
        nsyms = symd->d_size / gelf_fsize(e, ELF_T_SYM, 1, EV_CURRENT);
    }
    if (versym && nsyms) {
        verd = elf_getdata(versym, NULL);
        if (!verd || verd->d_size / 2 < nsyms) BAD("%s: .gnu.version shorter than .dynsym", path);
        m->has_versym = 1;
        m->nvers = 0x8000;
        m->vers = xcalloc(m->nvers, sizeof *m->vers);
        scn = NULL;
        while ((scn = elf_nextscn(e, scn))) {
            GElf_Shdr sh;
            gelf_getshdr(scn, &sh);
            if ((sh.sh_type == SHT_GNU_verdef || sh.sh_type == SHT_GNU_verneed) &&
                parse_versions(m, e, scn, &sh, sh.sh_type == SHT_GNU_verneed) != 0)
                BAD("%s: corrupt symbol version section", path);
        }
    }
    sym2def = xcalloc(nsyms ? nsyms : 1, sizeof *sym2def);
    int dcap = 0, rcap = 0;
    for (size_t i = 1; i < nsyms; i++) {
        GElf_Sym s;
        sym2def[i] = -1;
        if (!gelf_getsym(symd, i, &s)) BAD("%s: corrupt .dynsym", path);
        int bind = GELF_ST_BIND(s.st_info), type = GELF_ST_TYPE(s.st_info), vis = GELF_ST_VISIBILITY(s.st_other);
        if (bind != STB_GLOBAL && bind != STB_WEAK && bind != STB_GNU_UNIQUE) continue;
        const char *name = str(e, dynsym_sh.sh_link, s.st_name, &bad);
        if (bad) BAD("%s: .dynsym name out of range", path);
        if (!*name) continue;
        uint16_t vs = verd ? ((uint16_t *)verd->d_buf)[i] : 1;
        if (s.st_shndx == SHN_UNDEF) {
            GROW(m->refs, m->nrefs, rcap);
            m->refs[m->nrefs++] = (struct ref){ name, name_hash(name), vs & 0x7fff, bind == STB_WEAK, kind_of(type) };
            continue;
        }
        /* what do_lookup_x accepts as a definition */
        if (vis == STV_HIDDEN || vis == STV_INTERNAL) continue;
        if (type > STT_TLS && type != STT_GNU_IFUNC) continue;
        if (s.st_value == 0 && s.st_shndx != SHN_ABS && type != STT_TLS) continue;
        /* read-only after start-up: a non-writable section, or RELRO */
        int ro = s.st_shndx == SHN_ABS || (s.st_value >= relro_lo && s.st_value < relro_hi);
        Elf_Scn *ds = s.st_shndx < SHN_LORESERVE ? elf_getscn(e, s.st_shndx) : NULL;
        GElf_Shdr dsh;
        if (ds && gelf_getshdr(ds, &dsh) && !(dsh.sh_flags & SHF_WRITE) && type != STT_TLS) ro = 1;
        GROW(m->defs, m->ndefs, dcap);
        sym2def[i] = m->ndefs;
        m->defs[m->ndefs++] = (struct def){ .name = name, .hash = name_hash(name), .ver = vs & 0x7fff,
                                            .hidden = (vs & 0x8000) != 0, .kind = kind_of(type), .vis = vis,
                                            .bind = bind, .readonly = ro, .value = s.st_value,
                                            .size = s.st_size, .next = -1 };
        m->n_func_exports += kind_of(type) == K_FUNC;
    }

    /* ---- relocations against own exports ---- */
    scn = NULL;
    while (nsyms && (scn = elf_nextscn(e, scn))) {
        GElf_Shdr sh;
        gelf_getshdr(scn, &sh);
        if ((sh.sh_type != SHT_RELA && sh.sh_type != SHT_REL) || sh.sh_link != dynsym_ndx) continue;
        Elf_Data *d = elf_getdata(scn, NULL);
        if (!d) BAD("%s: unreadable relocation section: %s", path, elf_errmsg(-1));
        int rela = sh.sh_type == SHT_RELA;
        size_t n = d->d_size / gelf_fsize(e, rela ? ELF_T_RELA : ELF_T_REL, 1, EV_CURRENT);
        for (size_t i = 0; i < n; i++) {
            GElf_Rela r;
            GElf_Rel rl;
            if (rela ? !gelf_getrela(d, i, &r) : !gelf_getrel(d, i, &rl)) BAD("%s: corrupt relocation", path);
            uint64_t info = rela ? r.r_info : rl.r_info;
            size_t si = GELF_R_SYM(info);
            if (si == 0 || si >= nsyms || sym2def[si] < 0) continue;
            struct def *df = &m->defs[sym2def[si]];
            if (GELF_R_TYPE(info) == R_COPY_TYPE) { df->copy = 1; continue; }
            if (!df->self_reloc) {
                if (df->kind == K_FUNC) m->own_func_relocs++;
                else m->own_data_relocs++;
            }
            df->self_reloc = 1;
        }
    }
    free(sym2def);
    sym2def = NULL;

    m->ndefs_dyn = m->ndefs;
    module_symtab(m, e, &dcap);

    /* ---- hash table over definitions ---- */
    m->nbucket = 1;
    while (m->nbucket < m->ndefs) m->nbucket *= 2;
    m->bucket = xcalloc(m->nbucket, sizeof *m->bucket);
    memset(m->bucket, 0xff, m->nbucket * sizeof *m->bucket);
    for (int i = m->ndefs - 1; i >= 0; i--) {  /* reverse keeps .dynsym order in chains */
        int b = m->defs[i].hash & (m->nbucket - 1);
        m->defs[i].next = m->bucket[b];
        m->bucket[b] = i;
    }

    /* $ORIGIN: ld.so uses /proc/self/exe (a real path) for the executable and
     * the path as found, made absolute, for libraries. */
    char buf[PATH_MAX];
    if (is_main && realpath(path, buf)) m->path = xstrdup(buf);
    else if (path[0] != '/' && getcwd(buf, sizeof buf)) m->path = xasprintf("%s/%s", buf, path);
    else m->path = xstrdup(path);
    char *dir = xstrdup(m->path);
    m->origin = xstrdup(dirname(dir));
    free(dir);
    m->borrowed = 0;
    return m;
fail:
    free(sym2def);
    m->elf = e;
    module_free(m);
    return NULL;
}

int module_find_defs(const struct module *m, const char *name, uint32_t hash)
{
    for (int i = m->bucket[hash & (m->nbucket - 1)]; i >= 0; i = m->defs[i].next)
        if (m->defs[i].hash == hash && strcmp(m->defs[i].name, name) == 0) return i;
    return -1;
}
