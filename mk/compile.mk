# Compiles (-c) go through ccache when it is installed (make test installs
# it): the toolchain check compiles the same sources under gcc+bfd, gcc+gold
# and gcc+lld, and only the links differ. The cache lives in the build
# directory of the make that started it, shared by the sub-makes.
ifeq ($(origin CCACHE),undefined)
CCACHE := $(call path_find,ccache)
endif
export CCACHE_DIR ?= $(B_ABS)/ccache
# Depend mode: on a miss, ccache reads the headers a compile used from the
# compiler's own dependency file (-MD -MF, OBJ.d beside the object, read by
# nothing else) instead of running the preprocessor first, so a miss starts
# one compiler, not two (measured per cold compile: clang 34 ms of CPU less,
# gcc 10). Its hits are the direct mode's: same source, headers and flags.
# OBJ.d is the one file a compile writes under its own name, not renamed
# as below: ccache reads it right after the compile that wrote it, and a
# compile cut off leaves one that the next compile of OBJ writes anew.
export CCACHE_DEPEND := true
ccache_dep = $(if $(CCACHE),-MD -MF $@.d)
COMPILE = $(CCACHE) $(CC) $(ccache_dep)
# Every file a compiler or linker writes for a target under $(B), in every
# lab, goes to a temporary name beside it, renamed onto its own once complete
# (mk/atomic-out): a write that was interrupted, failed or raced another
# never leaves a file make would take as up to date. override: a toolchain
# column's make has CC on its command line.
ATOMIC_OUT := $(CURDIR)/mk/atomic-out
cc_given := $(CC)
$(B)/%: override CC = $(ATOMIC_OUT) $(cc_given)
$(B)/%: override COMPILE = $(ATOMIC_OUT) $(CCACHE) $(cc_given) $(ccache_dep)
# into_target: a recipe's stdout to $@ the same way (`cmd $(into_target)`,
# last on its line: mv is exec'd, the shell's own process, not one more).
# A recipe line's last command is exec'd likewise wherever it can be.
# dir_made: the target's directory made if missing (the test is the shell's
# own), first on a recipe's line: `$(Q)$(dir_made) && cmd`.
dir_made = { [ -d $(@D) ] || mkdir -p $(@D); }
# lab_dirs NAME,DIRS: the order-only prerequisite dirs/NAME makes every
# directory of DIRS that is missing, by one mkdir -p, before the recipes that
# write in them start (one process a build directory instead of one a
# directory; a hard link's recipe is then ln alone). Which are missing is
# read by make itself while it reads the Makefiles; none missing, no process.
define lab_dirs
dirs/$1:
	$(if $(call dirs_missing,$2),$$(Q)mkdir -p $(call dirs_missing,$2))
.PHONY: dirs/$1
endef
dirs_missing = $(strip $(foreach d,$1,$(if $(wildcard $d/.),,$d)))
# rm_old FILE: FILE removed before it is made again, by rm only when it is
# there (the test is the shell's own: a fresh build runs no rm for it).
rm_old = { [ ! -e $1 ] && [ ! -L $1 ] || rm -f $1; }
into_target = > $@.tmp && exec mv -f $@.tmp $@
# relink_gone DIR: a row whose DIR/link.log records the link a lab keeps
# whatever the linker says ("[link exit N]"; app only if it linked), and
# whose app the linker took but is gone since (deleted by hand), has its
# link.log made anew, so app is linked again. Read while make reads the
# Makefiles, with no process: a stat a row, the log only when app is gone.
relink_gone = $(if $(wildcard $1/link.log),$(if $(wildcard $1/app),,$(if $(findstring [link exit 0],$(file <$1/link.log)),$(eval $1/link.log: FORCE))))
# compiled OBJ,SRC,FLAGS[,DEPS]: OBJ, the object of SRC compiled (-c, through
# ccache) with FLAGS; its rule is made the first time OBJ is named, so every
# row, layout and artifact naming the same object shares one compile. A lab
# names OBJ by the source and what in FLAGS varies. Compiling apart from the
# link is what lets ccache share the compile between toolchains.
define compiled_rule
$1: $2 $4
	$$(Q)$$(COMPILE) $3 -c -o $$@ $$<
endef
compiled_objs :=
compiled = $(if $(filter $1,$(compiled_objs)),,$(eval compiled_objs += $1)$(eval $(call compiled_rule,$1,$2,$3,$4)))$1

# Every flag a row depends on is passed explicitly, so verdicts do not depend
# on what a distribution's driver adds (Debian gcc: -pie --as-needed; Ubuntu
# gcc also -z now; clang: neither).
# A thread takes a pid like a process: lld starts a pool of threads at every
# link, one a core, and mold forks itself (so its caller returns early)
# besides its pool: on 2 cores three and two pids more than bfd at each link
# of a few small objects. One thread and no fork: the same output byte for
# byte (checked with both compilers, lld 14 and mold 1.10).
# LD_ONE_THREAD.<linker>: the flags that say so, for the linkers that need them.
LD_ONE_THREAD.lld  := -Wl,--threads=1
LD_ONE_THREAD.mold := -Wl,--no-fork,--thread-count=1
LDFLAG_FUSE := -fuse-ld=$(LD) $(LD_ONE_THREAD.$(LD))
BASE_CFLAGS := -O1 -g0 -Wall -Werror=implicit-function-declaration
PIC_CFLAGS  := -fPIC
EXE_PIE_CFLAGS  := -fPIE
EXE_PIE_LDFLAGS := -pie
EXE_NOPIE_CFLAGS  := -fno-pic
EXE_NOPIE_LDFLAGS := -no-pie
# Bind everything at load time, so LD_DEBUG=bindings shows every binding
# before main runs, whatever the distribution's default.
LINK_NOW := -Wl,-z,now
# DT_RPATH, not DT_RUNPATH: searched before LD_LIBRARY_PATH and used for the
# dependencies' dependencies too, so the environment cannot swap a copy in.
RPATH_ORIGIN := -Wl,--disable-new-dtags,-rpath,'$$ORIGIN'

FORCE:
.PHONY: FORCE
