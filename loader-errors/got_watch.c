/* Watch this executable's own GOT slot for got_target() (its JUMP_SLOT
 * relocation: R_X86_64_JUMP_SLOT, R_AARCH64_JUMP_SLOT) before and after the
 * first call, and the protection of the page that holds it. Under -z lazy
 * the slot first points back into the executable's PLT (the resolver runs on
 * the first call); under -z now the loader filled it before main, and full
 * RELRO made the page read-only.
 * Prints run-time addresses and the module each one falls in (dladdr). */
#include "called.h"
#include <elf.h>
#include <link.h>
/* The one relocation type this reads is the target's. */
#if defined(__x86_64__)
#define JUMP_SLOT R_X86_64_JUMP_SLOT
#elif defined(__aarch64__)
#define JUMP_SLOT R_AARCH64_JUMP_SLOT
#else
#error "got_watch.c: no JUMP_SLOT relocation type known for this target (add it here)"
#endif

int got_target(int);

static const char *prog;

/* dl_iterate_phdr visits the executable first: its load base and dynamic section. */
static int first_object(struct dl_phdr_info *info, size_t size, void *data)
{
	ElfW(Dyn) **dyn = data;
	(void)size;
	for (int i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
			dyn[0] = (ElfW(Dyn) *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
	dyn[1] = (ElfW(Dyn) *)info->dlpi_addr;
	return 1;
}

/* The address of the executable's JUMP_SLOT for NAME, or NULL. */
static void **jump_slot(const char *name)
{
	ElfW(Dyn) *d[2] = { NULL, NULL };
	dl_iterate_phdr(first_object, d);
	if (d[0] == NULL) return NULL;
	ElfW(Addr) base = (ElfW(Addr))d[1], jmprel = 0, symtab = 0, strtab = 0, relsz = 0;
	for (ElfW(Dyn) *e = d[0]; e->d_tag != DT_NULL; e++) {
		if (e->d_tag == DT_JMPREL) jmprel = e->d_un.d_ptr;
		if (e->d_tag == DT_PLTRELSZ) relsz = e->d_un.d_val;
		if (e->d_tag == DT_SYMTAB) symtab = e->d_un.d_ptr;
		if (e->d_tag == DT_STRTAB) strtab = e->d_un.d_ptr;
	}
	/* glibc rewrites these entries to run-time addresses on x86-64; a
	 * loader that does not leaves link-time offsets, smaller than the base. */
#define RUNTIME(p) ((p) < base ? (p) + base : (p))
	const ElfW(Rela) *rel = (const ElfW(Rela) *)RUNTIME(jmprel);
	const ElfW(Sym) *sym = (const ElfW(Sym) *)RUNTIME(symtab);
	const char *str = (const char *)RUNTIME(strtab);
	for (size_t i = 0; jmprel && i < relsz / sizeof *rel; i++)
		if (ELF64_R_TYPE(rel[i].r_info) == JUMP_SLOT &&
		    strcmp(str + sym[ELF64_R_SYM(rel[i].r_info)].st_name, name) == 0)
			return (void **)(base + rel[i].r_offset);
	return NULL;
}

static const char *module_of(void *p)
{
	Dl_info info;
	if (!dladdr(p, &info) || info.dli_fname == NULL || info.dli_fname[0] == '\0') return prog;
	const char *slash = strrchr(info.dli_fname, '/');
	return slash ? slash + 1 : info.dli_fname;
}

/* The permissions /proc/self/maps gives the page holding P. */
static void page_protection(void *p, char perms[5])
{
	unsigned long lo, hi, a = (unsigned long)p;
	char line[512];
	FILE *maps = fopen("/proc/self/maps", "r");
	strcpy(perms, "????");
	while (maps && fgets(line, sizeof line, maps))
		if (sscanf(line, "%lx-%lx %4s", &lo, &hi, perms) == 3 && lo <= a && a < hi) break;
	if (maps) fclose(maps);
}

int main(int argc, char **argv)
{
	char perms[5];
	const char *slash = strrchr(argv[0], '/');
	prog = slash ? slash + 1 : argv[0];
	(void)argc;
	void **slot = jump_slot("got_target");
	if (slot == NULL) {
		printf("%s: no JUMP_SLOT relocation for got_target (called without the PLT?)\n", prog);
		return 1;
	}
	printf("[%s got_target slot@%p] before the first call holds %p (in %s)\n", prog, (void *)slot, *slot, module_of(*slot));
	int r = got_target(41);
	/* The proof line names the module the slot sends the call to: taking
	 * got_target's address here would give it a GOT entry of its own, and bfd
	 * would then call through that one (.plt.got) with no JUMP_SLOT. */
	called(argv[0], "got_target", *slot);
	printf("got_target(41) = %d\n", r);
	printf("[%s got_target slot@%p] after the first call holds %p (in %s)\n", prog, (void *)slot, *slot, module_of(*slot));
	page_protection(slot, perms);
	printf("[%s got_target slot@%p] page protection: %s\n", prog, (void *)slot, perms);
	return 0;
}
