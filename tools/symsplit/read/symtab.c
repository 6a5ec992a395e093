/* What .symtab adds, when the file still has one (build trees, labs; Debian
 * strips it from packaged files).  It never takes part in binding: ld.so does
 * not read it.  It tells two things .dynsym cannot:
 *  - hidden definitions (STV_HIDDEN, or listed after the nameless FILE
 *    symbol where ld.bfd puts the globals it localized): a library carrying its own hidden copy of a name that
 *    others export binds its references to that copy at link time, for sure;
 *  - private state: the writable objects only the module's own code reaches
 *    (file-static or hidden data, and exported data it uses without a GOT
 *    relocation).  A second copy of a function whose module has none works on
 *    state that is unified through GLOB_DAT: code split, state shared. */
#include "base/symsplit.h"
#include <gelf.h>
#include <string.h>

/* the C runtime's own bookkeeping, present in every module (call_weak_fn:
 * aarch64's crti.o, which calls __gmon_start__ when it is linked) */
static int crt(const char *n)
{
    static const char *const names[] = { "completed.0", "completed.1", "__dso_handle", "__TMC_END__", "_init", "_fini",
                                          "_DYNAMIC", "_GLOBAL_OFFSET_TABLE_", "__GNU_EH_FRAME_HDR", "__FRAME_END__",
                                          "__data_start", "data_start", "__abi_tag", "deregister_tm_clones",
                                          "register_tm_clones", "__do_global_dtors_aux", "frame_dummy", "__TMC_LIST__",
                                          "__do_global_dtors_aux_fini_array_entry", "__frame_dummy_init_array_entry",
                                          "call_weak_fn" };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(n, names[i])) return 1;
    return !strncmp(n, "completed.", 10);
}

static int state_section(Elf *e, size_t shstrndx, size_t ndx)
{
    Elf_Scn *scn = elf_getscn(e, ndx);
    GElf_Shdr sh;
    if (!scn || !gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_WRITE)) return 0;
    const char *n = elf_strptr(e, shstrndx, sh.sh_name);
    if (!n || !strncmp(n, ".data.rel.ro", 12)) return 0;
    return !strncmp(n, ".data", 5) || !strncmp(n, ".bss", 4) || !strcmp(n, ".tdata") || !strcmp(n, ".tbss");
}

void module_symtab(struct module *m, void *elf, int *dcap)
{
    Elf *e = elf;
    Elf_Scn *scn = NULL;
    GElf_Shdr sh;
    size_t shstrndx;
    m->private_state = -1;
    m->shared_data = 0;     /* exported data reached through a relocation: unified by lookup */
    for (int k = 0; k < m->ndefs_dyn; k++)
        if (m->defs[k].kind == K_DATA && m->defs[k].self_reloc) m->shared_data += m->defs[k].size;
    if (elf_getshdrstrndx(e, &shstrndx) != 0) return;
    while ((scn = elf_nextscn(e, scn)))
        if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB) break;
    Elf_Data *d = scn ? elf_getdata(scn, NULL) : NULL;
    if (!d) return;
    size_t n = d->d_size / gelf_fsize(e, ELF_T_SYM, 1, EV_CURRENT);
    long priv = 0;
    int localized = 0;   /* past the nameless FILE symbol: globals the linker made local */
    for (size_t i = 1; i < n; i++) {
        GElf_Sym s;
        if (!gelf_getsym(d, i, &s)) continue;
        int type = GELF_ST_TYPE(s.st_info), vis = GELF_ST_VISIBILITY(s.st_other);
        if (type == STT_FILE) {
            const char *f = elf_strptr(e, sh.sh_link, s.st_name);
            localized = !f || !*f;
            continue;
        }
        if (s.st_shndx == SHN_UNDEF || s.st_shndx >= SHN_LORESERVE) continue;
        if (type != STT_FUNC && type != STT_OBJECT && type != STT_TLS) continue;
        /* exports are in .dynsym already; a global one that is hidden is not
         * (ld.bfd's --exclude-libs leaves an archive copy's unreferenced
         * globals GLOBAL HIDDEN, and localises the rest) */
        if (GELF_ST_BIND(s.st_info) != STB_LOCAL && vis != STV_HIDDEN && vis != STV_INTERNAL) continue;
        const char *name = elf_strptr(e, sh.sh_link, s.st_name);
        if (!name || !*name || crt(name)) continue;
        /* mold names each PLT entry in .symtab ("printf$plt", and
         * "__cxa_finalize$pltgot" in .plt.got), a local function: a stub
         * that jumps through the GOT, no definition */
        const char *dollar = strrchr(name, '$');
        if (type == STT_FUNC && dollar && (!strcmp(dollar, "$plt") || !strcmp(dollar, "$pltgot"))) continue;
        if (type != STT_FUNC && state_section(e, shstrndx, s.st_shndx)) priv += s.st_size;
        /* ld.bfd drops the visibility when it localizes a hidden symbol but
         * lists such symbols after a nameless FILE entry; lld keeps STV_HIDDEN
         * for hidden ones.  A global that --exclude-libs or a version
         * script's "local:" made local is written by lld and gold as a plain
         * LOCAL DEFAULT symbol in its object's FILE block: the same entry as
         * a file-static one.  Kept as a plain local (hidden_vis 2): split.c
         * counts it only with a second name of the same library beside it
         * (lone_namesake), so one static that shares a name is no copy. */
        int plain = vis != STV_HIDDEN && vis != STV_INTERNAL && !localized;
        GROW(m->defs, m->ndefs, *dcap);
        m->defs[m->ndefs++] = (struct def){ .name = name, .hash = name_hash(name), .ver = 1,
                                            .kind = type == STT_FUNC ? K_FUNC : K_DATA, .vis = vis,
                                            .bind = STB_LOCAL, .hidden_vis = plain ? 2 : 1, .value = s.st_value,
                                            .size = s.st_size, .next = -1 };
    }
    /* exported data it reaches without a relocation is its own copy too */
    for (int k = 0; k < m->ndefs_dyn; k++) {
        const struct def *df = &m->defs[k];
        if (df->kind == K_DATA && !df->self_reloc && !df->readonly) priv += df->size;
    }
    m->private_state = priv;
}

/* e's .symtab (its header in *sh, its count of symbols in *n), or NULL. */
static Elf_Data *symtab_data(Elf *e, GElf_Shdr *sh, size_t *n)
{
    Elf_Scn *scn = NULL;
    while ((scn = elf_nextscn(e, scn)))
        if (gelf_getshdr(scn, sh) && sh->sh_type == SHT_SYMTAB) break;
    Elf_Data *d = scn ? elf_getdata(scn, NULL) : NULL;
    *n = d ? d->d_size / gelf_fsize(e, ELF_T_SYM, 1, EV_CURRENT) : 0;
    return d;
}

/* Does o's .symtab define, outside its .dynsym, a name h defines (other than
 * except)?  An executable's globals it does not export and a library's
 * hidden ones count; file-static names collide freely and do not.  Read only
 * for a hidden namesake (split.c), which needs a .symtab to exist at all. */
int symtab_shares(const struct module *o, const struct module *h, const char *except)
{
    Elf *e = o->elf;
    GElf_Shdr sh;
    size_t n;
    Elf_Data *d = symtab_data(e, &sh, &n);
    if (!d) return 0;
    int localized = 0;
    for (size_t i = 1; i < n; i++) {
        GElf_Sym s;
        if (!gelf_getsym(d, i, &s)) continue;
        int type = GELF_ST_TYPE(s.st_info), vis = GELF_ST_VISIBILITY(s.st_other);
        const char *name = elf_strptr(e, sh.sh_link, s.st_name);
        if (type == STT_FILE) { localized = !name || !*name; continue; }
        if (s.st_shndx == SHN_UNDEF || s.st_shndx >= SHN_LORESERVE || (type != STT_FUNC && type != STT_OBJECT)) continue;
        if (GELF_ST_BIND(s.st_info) == STB_LOCAL && vis != STV_HIDDEN && vis != STV_INTERNAL && !localized) continue;
        if (!name || !*name || crt(name) || !strcmp(name, except)) continue;
        if (module_find_defs(h, name, name_hash(name)) >= 0) return 1;
    }
    return 0;
}

/* The data object of m's .symtab that holds address a (its name), or NULL;
 * *has: m has a .symtab at all (without one, a cell has no name). */
const char *symtab_object_at(const struct module *m, uint64_t a, int *has)
{
    Elf *e = m->elf;
    GElf_Shdr sh;
    size_t n;
    Elf_Data *d = symtab_data(e, &sh, &n);
    *has = d != NULL;
    if (!d) return NULL;
    for (size_t i = 1; i < n; i++) {
        GElf_Sym s;
        if (!gelf_getsym(d, i, &s) || GELF_ST_TYPE(s.st_info) != STT_OBJECT || s.st_shndx == SHN_UNDEF ||
            s.st_shndx >= SHN_LORESERVE || a < s.st_value || a >= s.st_value + (s.st_size ? s.st_size : 1))
            continue;
        const char *name = elf_strptr(e, sh.sh_link, s.st_name);
        if (name && *name) return name;
    }
    return NULL;
}
