# The compiler and linker this make builds with (CC, LD), checked and read
# once per run, and the target's binutils derived from them.
CC ?= gcc
ifeq ($(origin CC),default)
CC := gcc
endif
# LD names the linker for -fuse-ld, as the toolchains table does (bfd, lld;
# ld.bfd, ld.lld ... are understood too; make's own default "ld" means bfd).
ifeq ($(origin LD),default)
LD := bfd
endif
override LD := $(patsubst ld.%,%,$(patsubst ld,bfd,$(LD)))
# Goals that build nothing need no compiler; every other one checks CC and
# LD once, here, so a bad CC= is one line before any job starts. `make test`
# installs the compiler first (deps), and its builds run in makes of their
# own that check: on a fresh machine the default gcc is not there yet. A CC
# given to it is checked here, as for any goal.
# What the toolchain's words depend on (below): CC, LD, the caller's RUN and
# PATH, but for the directory bats puts first in its tests' PATH (its own
# libexec/bats-core: no toolchain there).
tc_key := $(CC)|$(LD)|$(RUN)|$(filter-out %/bats-core,$(subst :, ,$(PATH)))
NO_CC_GOALS := help clean distclean deps deps-cross labs toolchains check-fresh $(if $(filter command line environment,$(origin CC)),,test)
ifneq ($(filter-out $(NO_CC_GOALS),$(or $(MAKECMDGOALS),$(.DEFAULT_GOAL))),)
# One call (scripts/toolchain --make): the check, then RUN and the binutils.
# TOOLCHAIN_READ=<its words>: a caller that has read them for this CC and LD
# and recorded the toolchain lines (scripts/toolchain-facts, once per column
# instead of once per lab: clang's driver costs 45 ms a start), so this make
# neither asks the driver again nor prints the toolchain lines.
# Read once per run otherwise: a make hands its words to the makes it starts,
# and to the tests' (make test reads them for those, after make deps), in
# SPLIT_STATE_LAB_TC (tc_key: CC|LD|RUN|PATH as read) and SPLIT_STATE_LAB_TC_WORDS; a
# make started with the same four takes them (gcc, collect2 and ld, about
# ten processes, at each of the ~300 makes of a make test); any other CC,
# LD, RUN or PATH (a toolchain column, a test's stand-in compiler) is read.
ifeq ($(origin TOOLCHAIN_READ),command line)
tc_words := $(TOOLCHAIN_READ)
else ifeq ($(value SPLIT_STATE_LAB_TC)$(if $(value SPLIT_STATE_LAB_TC_WORDS),,-),$(tc_key))
tc_words := $(value SPLIT_STATE_LAB_TC_WORDS)
else
tc_words := $(shell exec $(SCRIPTS)/toolchain --make '$(CC)' '$(LD)' 2>&1)
# A bare Debian (apt, make, git): the compiler (gcc or clang, as named) or
# the C library's headers are not installed yet. The make a user started
# then only installs them and runs its goals again (first_run, below).
ifneq ($(and $(filter 0,$(MAKELEVEL)),$(filter gcc clang,$(CC)),$(if $(filter 0,$(.SHELLSTATUS)),$(if $(wildcard /usr/include/stdio.h),,1),$(findstring compiler '$(CC)' not found,$(tc_words)))),)
first_run := 1
tc_words :=
else ifneq ($(.SHELLSTATUS),0)
$(error $(tc_words))
endif
endif
$(foreach a,$(tc_words),$(eval $(subst $(us), ,$a)))
# RUN: the prefix of every program a lab starts. Empty when CC builds for
# this machine; for a cross compiler (-dumpmachine names another
# architecture) the target's emulator with the cross C library's root,
# qemu-aarch64-static -L /usr/aarch64-linux-gnu on Debian (scripts/toolchain
# derives both from CC). RUN=<prefix> overrides it; an empty RUN is no
# prefix given (a cross program started bare fails: RUN=env starts it so).
ifeq ($(strip $(RUN)),)
RUN := $(tc.run)
endif
# The target's binutils, from the compiler (-print-prog-name): the host's
# nm, objcopy and objdump cannot read another architecture's objects.
# Natively these are the bare names, as before. AR=, NM= ... override them.
# ar and nm are told the object format (tc.bfd-target, from scripts/toolchain):
# without one they load every linker plugin installed to try it (LLVMgold,
# all of LLVM, ~15 ms a run) on every object they read.
binutil = $(if $(filter default undefined,$(origin $1)),$(eval $1 := $(or $(tc.$2),$2)$(if $3,$(if $(tc.bfd-target), --target=$(tc.bfd-target)))))
$(call binutil,AR,ar,target)$(call binutil,NM,nm,target)$(call binutil,OBJCOPY,objcopy)$(call binutil,OBJDUMP,objdump)$(call binutil,READELF,readelf)
endif
ifndef first_run
RUN ?=
# The scripts the labs call read them as LAB_RUN, LAB_READELF ...: names of
# their own, so that a make started from a recipe or a test with another CC
# (a toolchain column) derives RUN and the binutils from that CC.
export LAB_RUN = $(RUN)
export LAB_AR = $(AR)
export LAB_NM = $(NM)
export LAB_OBJDUMP = $(OBJDUMP)
export LAB_READELF = $(READELF)
# The words as read, for the makes this one starts (above); the toolchain
# lines handed down with them (make test's, for the tests' makes) belong to
# the toolchain they were read for.
ifneq ($(tc_words),)
ifneq ($(value SPLIT_STATE_LAB_TC),$(tc_key))
export SPLIT_STATE_LAB_TC_LINES :=
endif
export SPLIT_STATE_LAB_TC := $(tc_key)
export SPLIT_STATE_LAB_TC_WORDS := $(tc_words)
endif
endif
