/* Where did the rxe provider's registration call go? Read the provider's own
 * relocated slot for verbs_register_driver_N after its constructor ran: ld.so
 * wrote there the definition it chose, so the slot is the binding, at run time.
 * The slot's offset comes from the provider file's relocation tables. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "abi_name.h"
#include "got_probe.h"

struct found {
	const char *path;
	ElfW(Addr) base;
};

static int find_provider(struct dl_phdr_info *info, size_t size, void *data)
{
	struct found *f = data;
	const char *base = strrchr(info->dlpi_name, '/');

	(void)size;
	if (base && strncmp(base + 1, "librxe-rdmav", 12) == 0) {
		f->path = info->dlpi_name;
		f->base = info->dlpi_addr;
		return 1;
	}
	return 0;
}

/* Offset of the relocation (GLOB_DAT or JUMP_SLOT) naming sym, or 0. */
static ElfW(Addr) slot_offset(const unsigned char *img, const char *sym)
{
	const ElfW(Ehdr) *eh = (const void *)img;
	const ElfW(Shdr) *sh = (const void *)(img + eh->e_shoff);

	for (int i = 0; i < eh->e_shnum; i++) {
		if (sh[i].sh_type != SHT_RELA)
			continue;
		const ElfW(Shdr) *symsec = &sh[sh[i].sh_link];
		const ElfW(Sym) *syms = (const void *)(img + symsec->sh_offset);
		const char *str = (const char *)img + sh[symsec->sh_link].sh_offset;
		const ElfW(Rela) *r = (const void *)(img + sh[i].sh_offset);
		size_t n = sh[i].sh_size / sizeof(*r);

		for (size_t k = 0; k < n; k++)
			if (ELF64_R_SYM(r[k].r_info) &&
			    strcmp(str + syms[ELF64_R_SYM(r[k].r_info)].st_name, sym) == 0)
				return r[k].r_offset;
	}
	return 0;
}

/* What the loaded provider's slot for sym holds, or NULL (with a reason line). */
static void *provider_slot(const char *sym)
{
	struct found f = { 0 };
	struct stat st;
	void *img;
	ElfW(Addr) off;
	int fd;

	if (!dl_iterate_phdr(find_provider, &f)) {
		printf("rxe provider: not loaded in this process\n");
		return NULL;
	}
	fd = open(f.path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st)) {
		printf("rxe provider: cannot read its file\n");
		return NULL;
	}
	img = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (img == MAP_FAILED)
		return NULL;
	off = slot_offset(img, sym);
	munmap(img, st.st_size);
	if (!off) {
		printf("rxe provider: no relocation for %s\n", sym);
		return NULL;
	}
	return *(void **)(f.base + off);
}

static const char *module_of(void *p)
{
	Dl_info di;

	if (!dladdr(p, &di) || !di.dli_fname)
		return "?";
	return strrchr(di.dli_fname, '/') ? strrchr(di.dli_fname, '/') + 1 : di.dli_fname;
}

void report_provider_slot(void)
{
	void *target = provider_slot(REGISTER_NAME);

	if (!target)
		return;
	printf("[rxe provider GOT " REGISTER_NAME " -> %s @%p]\n", module_of(target), target);
	/* A public entry point the provider imports too (used when it builds
	 * address handles): private names are not the only ones a copy in the
	 * global scope can capture. Informational, so no address. */
	target = provider_slot("ibv_query_gid");
	if (target)
		printf("rxe provider's slot for ibv_query_gid binds to: %s\n", module_of(target));
}
