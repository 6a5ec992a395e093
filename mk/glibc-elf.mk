# make check-glibc-elf: symsplit --bindings beside the loader's LD_DEBUG=bindings
# record on glibc's own elf/ tests (filters, IFUNC, TLS, visibility, DEEPBIND,
# unique symbols, dlmopen, preload), built from Debian's glibc source package
# against the system's glibc (tools/symsplit/dev/check-glibc-elf; the
# programs and their flags: tools/symsplit/dev/glibc-elf/programs). The
# source is fetched once through apt with a private configuration in the
# build directory; the table is cached. Not part of make test (a download).
# PROGRAMS="a b" limits it to those; GLIBC_SOURCE=DIR uses an unpacked source.
CHECK_GLIBC_ELF_OUT = $(B)/glibc-elf
check-glibc-elf: $(SYMSPLIT)
	$(Q)$(SYMSPLIT_DEV)/check-glibc-elf $(SYMSPLIT) $(CHECK_GLIBC_ELF_OUT) $(if $(GLIBC_SOURCE),--source $(call shq,$(GLIBC_SOURCE))) $(PROGRAMS)
.PHONY: check-glibc-elf
HELP_LINES += "  make check-glibc-elf [PROGRAMS=...]   symsplit --bindings against the loader on glibc's elf/ tests (a download, once; not in make test)"
# dpkg-source (dpkg-dev) unpacks the source package: not in make deps (this
# target is not part of make test); fetch-source names the package if missing.
# The source package and apt's private lists: kept by make clean, removed by
# make distclean.
DOWNLOAD_CACHES += glibc-elf/apt glibc-elf/src
