# tools/symsplit: the binding simulator.  Included by the top Makefile.
# Its sources sit in one folder per layer, in the order data flows (base
# under all; run, the drivers, over all); dev/ holds its scripts and
# fixtures. A file's folder is its layer (dev/layers checks the calls).
SYMSPLIT_DIR  := tools/symsplit
SYMSPLIT_LAYERS := base read model analyse policy report
SYMSPLIT_LIB  := $(patsubst $(SYMSPLIT_DIR)/%,%,$(wildcard $(SYMSPLIT_LAYERS:%=$(SYMSPLIT_DIR)/%/*.c)))
SYMSPLIT_HDRS := $(wildcard $(SYMSPLIT_LAYERS:%=$(SYMSPLIT_DIR)/%/*.h))
SYMSPLIT_DEV  := $(SYMSPLIT_DIR)/dev
SYMSPLIT_OUT  := $(B)/tools/symsplit
SYMSPLIT      := $(SYMSPLIT_OUT)/symsplit
SYMSPLIT_SAN  := $(SYMSPLIT_OUT)/symsplit-san
SYMSPLIT_FUZZ := $(SYMSPLIT_OUT)/symsplit-fuzz
SYMSPLIT_FIX  := $(SYMSPLIT_OUT)/fixtures/.done
# -I the folder above the layers: a file names a header with its layer
# (#include "analyse/analyse.h"), so an include says where it reaches.
SYMSPLIT_CFLAGS := -I$(SYMSPLIT_DIR) -std=gnu11 -D_GNU_SOURCE -Wall -Wextra -Wno-sign-compare -Wno-unused-parameter \
                   -Werror=implicit-function-declaration
SYMSPLIT_CLANG := $(call path_find,clang)

.PHONY: symsplit symsplit-san symsplit-fuzz symsplit-sweep symsplit-bench
symsplit: $(SYMSPLIT)
symsplit-san: $(SYMSPLIT_SAN)
symsplit-fuzz: $(SYMSPLIT_FUZZ)
symsplit-sweep: $(SYMSPLIT)
	$(Q)$(SYMSPLIT_DEV)/sweep $(SYMSPLIT)
symsplit-bench: $(SYMSPLIT)
	$(Q)$(SYMSPLIT_DEV)/bench $(SYMSPLIT)

# -lcapstone: the disassembler (funcstate.c, calls.c); -lstdc++: its
# __cxa_demangle names C++ symbols (demangle.c)

# One object per source (-c: ccache keeps them, make compiles them in
# parallel), in obj/ for the program and in san/ for the two sanitizer
# builds, which share theirs: compiled once by clang with ASan, UBSan and
# libFuzzer's coverage hooks (fuzzer-no-link), then linked as symsplit-san
# (main.o) and as the fuzz target (fuzz.o, -fsanitize=fuzzer adds libFuzzer's
# main). Without clang, symsplit-san is $(CC)'s, and there is no fuzz target.
SYMSPLIT_SAN_CC := $(or $(SYMSPLIT_CLANG),$(CC))
SYMSPLIT_SAN_FLAGS := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
SYMSPLIT_SAN_CFLAGS := $(SYMSPLIT_SAN_FLAGS)$(if $(SYMSPLIT_CLANG), -fsanitize=fuzzer-no-link)
SYMSPLIT_LIBS := -lelf -lcapstone -lstdc++
$(SYMSPLIT_OUT)/obj/%.o: $(SYMSPLIT_DIR)/%.c $(SYMSPLIT_HDRS)
	@mkdir -p $(@D)
	$(Q)$(COMPILE) -O2 -g $(SYMSPLIT_CFLAGS) -c $< -o $@
$(SYMSPLIT_OUT)/san/%.o: $(SYMSPLIT_DIR)/%.c $(SYMSPLIT_HDRS)
	@mkdir -p $(@D)
	$(Q)$(ATOMIC_OUT) $(CCACHE) $(SYMSPLIT_SAN_CC) $(ccache_dep) $(SYMSPLIT_SAN_CFLAGS) $(SYMSPLIT_CFLAGS) -c $< -o $@
SYMSPLIT_OBJS = $(patsubst %.c,$(SYMSPLIT_OUT)/$1/%.o,$(SYMSPLIT_LIB) $2)

$(SYMSPLIT): $(call SYMSPLIT_OBJS,obj,run/main.c)
	$(Q)$(CC) -o $@ $^ $(SYMSPLIT_LIBS)

# The tests run symsplit-san over every input they have (a finding there is
# a test failure).
$(SYMSPLIT_SAN): $(call SYMSPLIT_OBJS,san,run/main.c)
	$(Q)$(ATOMIC_OUT) $(SYMSPLIT_SAN_CC) $(SYMSPLIT_SAN_CFLAGS) -o $@ $^ $(SYMSPLIT_LIBS)

# libFuzzer target (clang only): fuzz.c feeds bytes to the ELF parser.
$(SYMSPLIT_FUZZ): $(call SYMSPLIT_OBJS,san,run/fuzz.c)
	$(Q)$(ATOMIC_OUT) clang $(SYMSPLIT_SAN_FLAGS) -fsanitize=fuzzer -o $@ $^ $(SYMSPLIT_LIBS)

# Hand-made scenarios the tests check the model against (see mkfixtures).
# Two of them are C++ (two unrelated classes of one name): g++, named here
# and installed by deps, since a bare Debian has gcc without it.
SYMSPLIT_FIX_CXX ?= g++
$(SYMSPLIT_FIX): $(SYMSPLIT_DEV)/mkfixtures $(SYMSPLIT_DEV)/mkcorrupt $(wildcard $(SYMSPLIT_DEV)/fixtures/*.[ch] $(SYMSPLIT_DEV)/fixtures/*.cc)
	$(Q)CC="$(CC)" CXX="$(SYMSPLIT_FIX_CXX)" LDFLAG_FUSE="$(LDFLAG_FUSE)" $(SYMSPLIT_DEV)/mkfixtures $(SYMSPLIT_OUT)/fixtures
	@touch $@

# make install [PREFIX=/usr/local] [DESTDIR=<staging dir>]: symsplit and its
# man page, for people who only want the tool, with a manifest of what was
# installed; make uninstall removes exactly that (tools/symsplit/dev/install).
# The binary reads no file of this tree at run time. Checked while make
# reads this file: PREFIX absolute, DESTDIR empty or absolute, neither with
# white space; DESTDIR is not this tree or a directory above it.
PREFIX ?= /usr/local
ifneq ($(filter install uninstall,$(MAKECMDGOALS)),)
ifneq ($(words $(PREFIX) $(DESTDIR)),$(words x $(if $(DESTDIR),x)))
$(error PREFIX='$(PREFIX)' DESTDIR='$(DESTDIR)': white space, or PREFIX empty: make cannot quote it)
endif
ifneq ($(patsubst /%,,$(PREFIX))$(patsubst /%,,$(DESTDIR)),)
$(error PREFIX='$(PREFIX)' DESTDIR='$(DESTDIR)': give absolute paths, e.g. PREFIX=/usr/local)
endif
ifneq ($(DESTDIR),)
ifneq ($(filter $(abspath $(DESTDIR)) $(abspath $(DESTDIR))/%,$(CURDIR) $(CURDIR)/),)
$(error DESTDIR='$(DESTDIR)' is the source tree or a directory above it: choose a staging directory of its own)
endif
endif
endif
install: $(SYMSPLIT)
	$(Q)$(SYMSPLIT_DEV)/install install $(call shq,$(DESTDIR)$(PREFIX)) $(SYMSPLIT) docs/symsplit.1
uninstall:
	$(Q)$(SYMSPLIT_DEV)/install uninstall $(call shq,$(DESTDIR)$(PREFIX))
.PHONY: install uninstall
HELP_LINES += "  make symsplit    build the binding simulator: $(SYMSPLIT) --help for its options"
HELP_LINES += "  make install [PREFIX=/usr/local] [DESTDIR=]   install symsplit and its man page (a manifest records them); make uninstall removes exactly those"
HELP_LINES += "  make symsplit-sweep / symsplit-bench    symsplit over /usr/bin + /usr/sbin; timing vs libtree/ldd/nm"
# libclang-rt-dev: the sanitizer and libFuzzer runtimes (only recommended by
# clang on Debian 13, so not there by default).
DEPS_PACKAGES += libelf-dev libcapstone-dev binutils file clang libclang-rt-dev python3
# g++: mkfixtures builds the C++ fixtures (classa.cc, classb.cc)
DEPS_PACKAGES += g++
# time: GNU time measures the sweep's peak memory and CPU (sweep, bench);
# libtree: the bench's reference, the same binaries' closures listed.
DEPS_PACKAGES += time libtree
# man-db: test/docs.bats renders docs/symsplit.1 with man -l (a Debian 13
# root made by mmdebstrap has no man).
DEPS_PACKAGES += man-db
TEST_PREREQS += $(SYMSPLIT) $(SYMSPLIT_SAN) $(SYMSPLIT_FIX)
ifneq ($(SYMSPLIT_CLANG),)
TEST_PREREQS += $(SYMSPLIT_FUZZ)
endif
# strace: test/install.bats lists the files the installed symsplit opens.
DEPS_PACKAGES += strace
