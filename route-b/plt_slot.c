/* Where a module's PLT slot for a function points, read from the module's
 * own relocation table as the loader left it: the GOT entry of its
 * JUMP_SLOT relocation (R_X86_64_JUMP_SLOT, R_AARCH64_JUMP_SLOT). Before a lazy slot's first call it points
 * back into the module's PLT; afterwards at the definition _dl_fixup chose. */
#define _GNU_SOURCE             /* dlinfo, RTLD_DI_LINKMAP */
#include <dlfcn.h>
#include <link.h>
#include <string.h>
#include "plt_slot.h"

/* The one relocation type this reads is the target's. */
#if defined(__x86_64__)
#define JUMP_SLOT R_X86_64_JUMP_SLOT
#elif defined(__aarch64__)
#define JUMP_SLOT R_AARCH64_JUMP_SLOT
#else
#error "plt_slot.c: no JUMP_SLOT relocation type known for this target (add it here)"
#endif

/* ld.so rewrites these dynamic entries to run-time addresses on x86-64 and
 * aarch64; the test keeps this correct where it does not. */
static uintptr_t at(const struct link_map *lm, ElfW(Addr) p)
{
	return p < lm->l_addr ? lm->l_addr + p : p;
}

void **plt_slot(void *handle, const char *name)
{
	struct link_map *lm;
	const ElfW(Rela) *rel = NULL;
	const ElfW(Sym) *symtab = NULL;
	const char *strtab = NULL;
	size_t relsz = 0;

	if (dlinfo(handle, RTLD_DI_LINKMAP, &lm) != 0)
		return NULL;
	for (const ElfW(Dyn) *d = lm->l_ld; d->d_tag != DT_NULL; d++) {
		if (d->d_tag == DT_JMPREL)   rel = (const void *)at(lm, d->d_un.d_ptr);
		if (d->d_tag == DT_PLTRELSZ) relsz = d->d_un.d_val;
		if (d->d_tag == DT_SYMTAB)   symtab = (const void *)at(lm, d->d_un.d_ptr);
		if (d->d_tag == DT_STRTAB)   strtab = (const void *)at(lm, d->d_un.d_ptr);
	}
	if (!rel || !symtab || !strtab)
		return NULL;
	for (size_t i = 0; i < relsz / sizeof *rel; i++)
		if (ELF64_R_TYPE(rel[i].r_info) == JUMP_SLOT &&
		    !strcmp(strtab + symtab[ELF64_R_SYM(rel[i].r_info)].st_name, name))
			return (void **)(lm->l_addr + rel[i].r_offset);
	return NULL;
}
