# split-state-lab: entry points only. Each lab lives in its own directory
# with one Makefile fragment (lab.mk) and a table of rows; see README.md.
.DEFAULT_GOAL := help
SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -c
.DELETE_ON_ERROR:
.SECONDARY:
.SUFFIXES:
# Parallel by default: every lab is -j safe. JOBS=1 runs serially (make
# cannot see a command-line -j while it reads this file). Only the top-level
# make sets it: a sub-make shares its parent's jobserver.
# nproc is asked once per run (:=, not a deferred ?= that would ask at every
# use; the makes a run starts, the tests' included, take the first one's
# answer from SPLIT_STATE_LAB_NPROC), and JOBS checked by make itself: every
# sub-make reads this file too.
ifeq ($(origin JOBS),undefined)
export SPLIT_STATE_LAB_NPROC := $(or $(value SPLIT_STATE_LAB_NPROC),$(shell nproc 2>/dev/null || echo 2))
JOBS := $(SPLIT_STATE_LAB_NPROC)
endif
jobs_rest := $(JOBS)
$(foreach d,0 1 2 3 4 5 6 7 8 9,$(eval jobs_rest := $$(subst $d,,$$(jobs_rest))))
ifneq ($(strip $(jobs_rest))$(filter 0%,$(JOBS))$(word 2,$(JOBS))$(if $(strip $(JOBS)),,empty),)
$(error JOBS='$(JOBS)': give a whole number of parallel jobs, 1 or more)
endif
ifeq ($(MAKELEVEL),0)
MAKEFLAGS += -j$(JOBS)
endif

# A user's PATH has no /usr/sbin or /sbin, where Debian keeps ldconfig (the
# loader-errors lab and its tests use it): appended, after everything the
# caller's PATH holds, for every recipe and every test.
export PATH := $(PATH)$(if $(filter /usr/sbin,$(subst :, ,$(PATH))),,:/usr/sbin)$(if $(filter /sbin,$(subst :, ,$(PATH))),,:/sbin)

# No interpreter writes into the source tree: Python would leave a
# __pycache__ beside each module a recipe or a test imports (survey/,
# realworld/). Exported for every recipe and every test.
export PYTHONDONTWRITEBYTECODE := 1

# The build directory: everything the suite writes goes below it. Refused,
# before anything runs: empty, with white space (make cannot quote a path
# in a rule), and, resolved by realpath (symlinks, /proc/self/cwd, "..")
# in scripts/build-dir: "/", $HOME or above, the source tree, above it or
# inside it (but its own build/), ~ (make does not expand it), and a
# directory holding files the suite did not make (it marks the ones it
# makes). A source tree whose path has white space is refused likewise.
B ?= build
comma := ,
space := $(subst ,, )
hash := \#
define newline


endef
SCRIPTS := scripts
# shq: quote a make value for a single-quoted shell word.
shq = '$(subst ','\'',$1)'
# path_find NAME: the first NAME in PATH, as command -v finds it, read by
# make itself (no shell at every make's start).
path_find = $(firstword $(wildcard $(addsuffix /$1,$(subst :, ,$(PATH)))))
ifneq ($(words $(CURDIR)),1)
$(error the source tree's path has white space ('$(CURDIR)'); make cannot quote it: move the tree)
endif
# Every path here is relative to the tree: make -f <tree>/Makefile from
# another directory is one line naming the make -C that works.
ifneq ($(realpath $(dir $(lastword $(MAKEFILE_LIST)))),$(CURDIR))
$(error make -f reads this tree's files relative to the working directory, $(CURDIR): run make -C $(realpath $(dir $(lastword $(MAKEFILE_LIST)))) instead)
endif
ifeq ($(strip $(B)),)
$(error B is empty: name a build directory, e.g. B=build)
endif
ifneq ($(words $(B)),1)
$(error B='$(B)' has white space; make cannot quote it: choose another build directory)
endif
# Resolved once per run: a make hands the result to the makes it starts (and
# the tests') as SPLIT_STATE_LAB_B ("tree|HOME|B" resolved) and _B_FROM (the
# same with B as given), and a make of the same tree and HOME given either B
# takes it as resolved (exact strings: no pattern, no word splitting), but
# only inside the run that holds that directory's lock (SPLIT_STATE_LAB_LOCK,
# below: set by a make that resolved and guarded it); any other B is
# resolved and guarded anew.
b_read := $(CURDIR)|$(HOME)|$(B)
b_handed := $(subst $(CURDIR)|$(HOME)|,,$(value SPLIT_STATE_LAB_B))
b_take :=
ifeq ($(b_read),$(value SPLIT_STATE_LAB_B_FROM))
b_take := 1
else ifeq ($(b_read),$(value SPLIT_STATE_LAB_B))
b_take := 1
endif
ifeq ($(b_take)|$(b_handed),1|$(value SPLIT_STATE_LAB_LOCK))
B_ABS := $(b_handed)
else
B_ABS := $(shell $(SCRIPTS)/build-dir resolve $(call shq,$(B)) $(call shq,$(CURDIR)) 2>&1)
ifneq ($(.SHELLSTATUS),0)
$(error $(B_ABS))
endif
endif
export SPLIT_STATE_LAB_B := $(CURDIR)|$(HOME)|$(B_ABS)
export SPLIT_STATE_LAB_B_FROM := $(b_read)

# make -n (--dry-run, --just-print) runs nothing and writes nothing. make
# itself still runs recipe lines marked + and lines naming $(MAKE): a line
# starting another make, or a script that does, begins with $(recurse)
# instead, the + (the jobserver reaches it) everywhere but under -n.
DRY_RUN := $(findstring n,$(firstword -$(MAKEFLAGS)))
recurse := $(if $(DRY_RUN),,+)
# sub_make: $(MAKE) for such a line (named directly, make would run it
# under -n whatever its prefix).
sub_make = $(MAKE)

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
# The unit separator: stands for a blank inside a word make passes around
# (printf's, handed down like nproc's answer).
export SPLIT_STATE_LAB_US := $(or $(value SPLIT_STATE_LAB_US),$(shell printf '\037'))
us := $(SPLIT_STATE_LAB_US)
V ?= 0
Q := $(if $(filter 1,$(V)),,@)
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
tc_words := $(shell $(SCRIPTS)/toolchain --make '$(CC)' '$(LD)' 2>&1)
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
ifdef first_run
# Every goal of this make: scripts/first-run installs the compiler, binutils
# and the C headers (scripts/deps: as root with one line saying so; as a
# user the apt line to run as root, and exit 3), then runs the same make
# again. A recipe, and not a recursive one, so make -n installs nothing.
first_goals := $(MAKECMDGOALS)
$(firstword $(first_goals)):
	$(Q)$(SCRIPTS)/first-run $(call shq,$(CC)) $(call shq,$(LD)) $(foreach g,$(first_goals),$(call shq,$g))
ifneq ($(word 2,$(first_goals)),)
$(wordlist 2,$(words $(first_goals)),$(first_goals)): $(firstword $(first_goals))
	@:
endif
.PHONY: $(first_goals)
else
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
# (scripts/atomic-out): a write that was interrupted, failed or raced another
# never leaves a file make would take as up to date. override: a toolchain
# column's make has CC on its command line.
ATOMIC_OUT := $(CURDIR)/$(SCRIPTS)/atomic-out
cc_given := $(CC)
$(B)/%: override CC = $(ATOMIC_OUT) $(cc_given)
$(B)/%: override COMPILE = $(ATOMIC_OUT) $(CCACHE) $(cc_given) $(ccache_dep)
# into_target: a recipe's stdout to $@ the same way (`cmd $(into_target)`).
# dir_made: the target's directory made if missing (the test is the shell's
# own), first on a recipe's line: `$(Q)$(dir_made) && cmd`.
dir_made = { [ -d $(@D) ] || mkdir -p $(@D); }
# rm_old FILE: FILE removed before it is made again, by rm only when it is
# there (the test is the shell's own: a fresh build runs no rm for it).
rm_old = { [ ! -e $1 ] && [ ! -L $1 ] || rm -f $1; }
into_target = > $@.tmp && mv -f $@.tmp $@
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
LDFLAG_FUSE := -fuse-ld=$(LD)
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

LABS :=
# The goals that take ROW= and honour it (lab_entry adds each lab's two).
ROW_GOALS := check fixed diagrams
HELP_LINES :=
TEST_PREREQS :=
TEST_RUNS :=
FIXED_ROWS :=
EVIDENCE_TARGETS :=
# what a lab downloads into the build directory, kept by make clean
DOWNLOAD_CACHES :=
# The toolchains table (toolchains: a fact a line, comments "#"), read by
# make itself, no process: its lines as words, blanks as $(us).
tc_table_lines := $(subst $(us)$(us),$(us),$(subst $(us)$(us),$(us),$(subst $(space),$(us),$(file <toolchains))))
tc_table_lines := $(filter-out $(hash)%,$(subst $(newline), ,$(tc_table_lines)))
# Its columns, in their order, its linkers, and a linker's package.
TC_COLUMNS := $(patsubst column$(us)%,%,$(filter column$(us)%,$(tc_table_lines)))
TC_LINKERS := $(foreach l,$(filter linker$(us)%,$(tc_table_lines)),$(word 2,$(subst $(us), ,$l)))
tc_package = $(word 3,$(subst $(us), ,$(filter linker$(us)$1$(us)%,$(tc_table_lines))))
# a|b: the first of these the release has (scripts/deps).
DEPS_PACKAGES := gcc binutils make bats bats-assert bats-support parallel clang ccache
DEPS_PACKAGES += $(sort $(foreach t,$(TC_COLUMNS),$(call tc_package,$(lastword $(subst :, ,$t)))))
# git: test/frame.bats keeps its copy of the tree as a repository, to ask
# which files a change touched (a tree unpacked from an archive has no git).
DEPS_PACKAGES += git
# libc6-dev: the C headers; only clang's dependencies brought them in.
DEPS_PACKAGES += libc6-dev
# DEPS_COMMANDS: what make deps runs after installing the list, for a package
# a list cannot name (survey's npm: only when no npm is installed), so that a
# user's make test after root's make deps finds everything. Each entry is
# "&& { <command>; }".
DEPS_COMMANDS :=

# read_table LAB,TABLE: the table's rows as make variables LAB.rows and
# LAB.<row>.<key> (scripts/rows2mk's awk program), read at parse time, so nothing is
# written (make -n writes nothing); a table it cannot read stops make.
# The tree's tables are read by one awk run before the labs' fragments (one
# process at every make's start, not one a table); a table not among them
# (a test's own), or every one when any of them cannot be read, is read on
# its own, which names what is wrong in it.
read_table = $(eval $1.table := $2)$(if $(filter $2$(us)%,$(rows_read)),$(foreach a,$(patsubst $2$(us)%,%,$(filter $2$(us)%,$(rows_read))),$(eval $1$(subst $(us), ,$a))),$(read_table_alone))
read_table_alone = $(foreach a,$(shell awk -F'|' -v lab=$1 -v words=1 -f $(SCRIPTS)/rows2mk.awk $2),$(eval $(subst $(us), ,$a)))$(if $(filter 0,$(.SHELLSTATUS)),,$(error $2: the table cannot be read (see the line above)))
# run_rows LAB,ROWS[,EVIDENCE[,PREFIX]]: a header line per row
# ("== PREFIX<row>: what"), then the lab's $(LAB.run) for it (and
# $(LAB.evidence) when asked), all derived into verdicts by the one shared
# script. A runner's exit 77 means "cannot run here": the row says why. A
# lab's own run (no PREFIX) fails when no row ran (verdict --must-run); make
# check's run is judged row by row by scripts/check.
run_rows = { $(foreach r,$2,printf '%s\n' $(call shq,== $4$r: $($1.$r.what)); \
	$(call $1.run,$r) || { rc=$$?; [ $$rc = 77 ] && echo "[skipped: cannot run here]" || echo "[run failed: exit $$rc]"; };$(if $3, $(call $1.evidence,$r);)) } | $(SCRIPTS)/verdict$(if $4,, --must-run)
# refuse KIND,GIVEN,KNOWN: stop make with one line for an unknown name,
# while it reads the Makefiles, before any job starts.
refuse = $(if $(filter-out $3,$2),$(error unknown $1 '$(firstword $(filter-out $3,$2))' (known: $3)))

# lab_capture LAB: a lab run by run_rows is run once per build directory
# (one per toolchain), every row with its evidence, into $(B)/runs/LAB.out,
# when its evidence is asked for (EVIDENCE=1, make evidence[-LAB], make
# test's test-runs, a toolchain column); make LAB (every row) then shows that
# run, without the evidence lines unless EVIDENCE is set, and so do the tests
# (test/helpers.bash) and the toolchain check's column of this build
# directory. It is run again when a row's files, the lab's sources or a
# shared script change. Without it, make LAB is a plain run, as is one row
# (ROW=) and a run under a RUN= of the caller's (the capture ran under the
# toolchain's own). (scripts/verdict prints a row's evidence lines after its verdict,
# so the run without them is the run made without evidence.)
define lab_capture
$1.capture := $(B)/runs/$1.out
$1.whole = $$(if $$(subst $$(strip $$($1.rows)),,$$(strip $$($1.selected)))$$(filter command line environment,$$(origin RUN)),,$$(if $$(EVIDENCE)$$(filter evidence evidence-$1,$$(MAKECMDGOALS))$$(wildcard $$($1.capture)),1))
$(B)/runs/$1.out: $$(call $1.prereq,$$($1.rows)) $$(wildcard $(SCRIPTS)/* $$(dir $$($1.table))*)
	@mkdir -p $$(@D)
	$$(Q)$$(call run_rows,$1,$$($1.rows),1) > $$@.tmp && mv -f $$@.tmp $$@ || { rm -f $$@.tmp; exit 1; }
TEST_RUNS += $(B)/runs/$1.out
endef
show_capture = $(if $2,cat $1,grep -v '^  | ' $1)

# lab_entry LAB,ALIAS,PREREQ[,RUNNER]: the entry points of a lab whose
# table was read by read_table: `make LAB [ROW=<id>] [EVIDENCE=1]` (ALIAS is
# the lab's older name for ROW), `make evidence-LAB`, and its place in make
# check, make bless, make test and the toolchain check. PREREQ is what a row
# needs built, with % for the row id; RUNNER (default run_rows) runs rows.
define lab_entry
$1.selected = $$(or $$(ROW),$$($2),$$($1.rows))
$1.prereq = $$(foreach r,$$1,$$(subst %,$$r,$3))
$$(if $$(filter $1 evidence-$1,$$(MAKECMDGOALS)),$$(call refuse,row,$$($1.selected),$$($1.rows)))
$(if $4,,$(call lab_capture,$1))
$1: $$(call $1.prereq,$$($1.selected)) $$(if $$($1.whole),$$($1.capture))
	$$(Q)$$(toolchain_report)
	$$(Q)$$(if $$($1.whole),$$(call show_capture,$$($1.capture),$$(EVIDENCE)),$$(call $(or $4,run_rows),$1,$$($1.selected),$$(EVIDENCE)))
# The same run with the facts under each row; EVIDENCE reaches $1's recipe.
evidence-$1: EVIDENCE := 1
evidence-$1: $1
.PHONY: $1 evidence-$1
LABS += $1
ROW_GOALS += $1 evidence-$1
$(if $(filter-out ROW,$2),ROW_ALIASES += $2:$1)
EVIDENCE_TARGETS += evidence-$1
TEST_PREREQS += $$(call $1.prereq,$$($1.rows))
endef

# The toolchain lines that head a run (none when the caller has them; as
# read once for every make the tests start, when make test handed them down).
toolchain_report = $(if $(TOOLCHAIN_READ),true,$(if $(value SPLIT_STATE_LAB_TC_LINES),printf '%s\n' "$$SPLIT_STATE_LAB_TC_LINES",$(SCRIPTS)/toolchain $(CC) $(LD)))
toolchain-report:
	$(Q)$(SCRIPTS)/toolchain $(CC) $(LD)
.PHONY: toolchain-report

# matrix/lab.mk first: it defines the scenario fixes/ builds on.
# realworld/lab.mk comes last: its rules use the survey's install machinery
# and symsplit's build, defined by the fragments before it.
rows_read := $(shell awk -F'|' -v batch=1 -f $(SCRIPTS)/rows2mk.awk $(wildcard */rows */addons */cases) 2>/dev/null)
ifneq ($(.SHELLSTATUS),0)
rows_read :=
endif
include matrix/lab.mk $(filter-out matrix/lab.mk realworld/lab.mk,$(sort $(wildcard */lab.mk))) $(wildcard tools/*/lab.mk) $(wildcard realworld/lab.mk)

evidence: $(EVIDENCE_TARGETS)

# make check [LAB=<lab>] [ROW=<id>...]: every row of every lab (or of one; or the rows named ROW) run, its facts
# derived by scripts/verdict and compared with its table's expect cell by
# scripts/check. make fixed: the same check over the fix ladder and every
# lab's FIXED_ROWS. Row ids repeat across labs: a row is <lab>:<row> here.
lab_of = $(word 1,$(subst :, ,$1))
row_of = $(word 2,$(subst :, ,$1))
expect_line = printf '%s\t%s\t%s\n' $(call shq,$1) $(call shq,$($(call lab_of,$1).$(call row_of,$1).expect)) $(call shq,$($(call lab_of,$1).$(call row_of,$1).what));
# check_rows OUT,ENTRIES: run the lab:row entries (each known to its lab,
# or one line and exit 2), keep the run in OUT, then compare.
define check_rows
	$(Q)$(SCRIPTS)/toolchain $(CC) $(LD)
	@mkdir -p $(dir $1)
	$(Q){ $(foreach e,$2,$(call run_rows,$(call lab_of,$e),$(call row_of,$e),,$(call lab_of,$e):);) } | tee $1
	$(Q){ $(foreach e,$2,$(call expect_line,$e)) } > $1.expect
	$(Q)echo; $(SCRIPTS)/verdict --facts < $1 | $(SCRIPTS)/check $1.expect $1
endef
check_entries = $(foreach l,$1,$(addprefix $l:,$($l.rows)))
entries_prereqs = $(foreach e,$1,$(call $(call lab_of,$e).prereq,$(call row_of,$e)))
# row_filter ENTRIES: the lab:row entries whose row ROW names (all without ROW);
# refuse_rows GOAL,ENTRIES: stop make in one line when GOAL is asked for and a
# word of ROW is the row of none of ENTRIES.
row_filter = $(if $(ROW),$(foreach e,$1,$(if $(filter $(call row_of,$e),$(ROW)),$e)),$1)
refuse_rows = $(if $(filter $1,$(MAKECMDGOALS)),$(call refuse_rows_in,$1,$(filter-out $(foreach e,$2,$(call row_of,$e)),$(ROW)),$(sort $(foreach e,$2,$(call row_of,$e)))))
refuse_rows_in = $(if $2,$(error unknown row '$(firstword $2)' for make $1$(if $(LAB), LAB=$(LAB)) (known: $3)))
CHECK_ENTRIES = $(call row_filter,$(call check_entries,$(or $(LAB),$(LABS))))
FIXED_ENTRIES = $(call row_filter,$(call check_entries,fixes) $(FIXED_ROWS))
$(call refuse_rows,check,$(call check_entries,$(or $(LAB),$(LABS))))
$(call refuse_rows,fixed,$(call check_entries,fixes) $(FIXED_ROWS))
$(call refuse,lab,$(LAB),$(LABS))
# Any other goal refuses ROW in one line rather than run more than asked:
# make bless writes whole goldens, make evidence runs every lab (whose rows
# differ), make check-toolchains whole columns.
row_goals_refused = $(filter-out $(ROW_GOALS),$(or $(MAKECMDGOALS),$(.DEFAULT_GOAL)))
$(if $(strip $(ROW)),$(if $(row_goals_refused),$(error ROW= is not taken by make $(firstword $(row_goals_refused)): only make <lab>, evidence-<lab>, check, fixed and diagrams run single rows)))
# A lab's older name for ROW (ROW_ALIASES: CONFIG=, VARIANT= ...) is taken
# only by that lab's own goals (<lab>, evidence-<lab>, <lab>-<tier>); given on
# the command line to any other goal it is refused too.
alias_refused = $(filter-out $2 evidence-$2 $(filter $2-%,$(ROW_GOALS)),$(or $(MAKECMDGOALS),$(.DEFAULT_GOAL)))
$(foreach a,$(ROW_ALIASES),$(if $(filter command line,$(origin $(call lab_of,$a))),$(if $(call alias_refused,$(call lab_of,$a),$(call row_of,$a)),$(error $(call lab_of,$a)= is make $(call row_of,$a)'s older name for ROW= and is not taken by make $(firstword $(call alias_refused,$(call lab_of,$a),$(call row_of,$a))): give ROW=))))
$(if $(filter fixed,$(MAKECMDGOALS)),$(call refuse,lab in FIXED_ROWS,$(foreach e,$(FIXED_ROWS),$(call lab_of,$e)),$(LABS)) \
	$(foreach e,$(FIXED_ROWS),$(call refuse,row of $(call lab_of,$e),$(call row_of,$e),$($(call lab_of,$e).rows))))
check: $(call entries_prereqs,$(CHECK_ENTRIES))
	$(call check_rows,$(B)/check/check.out,$(CHECK_ENTRIES))
fixed: $(call entries_prereqs,$(FIXED_ENTRIES))
	$(call check_rows,$(B)/check/fixed.out,$(FIXED_ENTRIES))

# make bless [LAB=<lab>]: rerun each lab, show how its golden would change,
# and write it, unless a row's derived verdict contradicts its expect cell.
# A lab's goldens: expected/<name>.txt for each <name>:<make args> in
# $(LAB.goldens) (default: expected/<lab>.txt from `make <lab>`).
golden_specs = $(or $($1.goldens),$1:)
bless: $(call entries_prereqs,$(CHECK_ENTRIES))
	@mkdir -p $(B)/bless
	$(recurse)$(Q)$(foreach l,$(or $(LAB),$(LABS)),{ $(foreach e,$(call check_entries,$l),$(call expect_line,$e)) } > $(B)/bless/$l.expect && \
	  $(foreach g,$(call golden_specs,$l),$(sub_make) -s --no-print-directory $l $(subst $(us), ,$(word 2,$(subst :, ,$g))) > $(B)/bless/$(word 1,$(subst :, ,$g)).out && \
	  $(SCRIPTS)/bless $l expected/$(word 1,$(subst :, ,$g)).txt $(B)/bless/$(word 1,$(subst :, ,$g)).out $(B)/bless/$l.expect &&) true &&) true
.PHONY: check fixed bless

# Toolchain regression mode: every lab built and run under each toolchain, in
# parallel under one jobserver, into $(B)/toolchains/<cc+ld>/, each compared
# with the expect cells. A cross compiler's column (aarch64-linux-gnu-gcc:bfd)
# runs its programs under RUN; a lab that sets LAB.native-only to a reason is
# left out of such a column with that reason, or only its rows listed in
# LAB.native-only-rows are. The columns are the toolchains table's
# (toolchains, in its order; make toolchains lists them); the aarch64 column
# is asked for by name (TOOLCHAINS="... aarch64-linux-gnu-gcc:bfd"): make
# deps does not install the cross tools (make deps-cross does).
TOOLCHAINS ?= $(TC_COLUMNS)
tc_targets = $(foreach t,$1,tc-facts/$(subst :,+,$t))
# The toolchain this make was started with builds where the labs always do,
# $(B), so the check shares its work with `make matrix` and `make test`.
tc_build = $(if $(filter $(CC)+$(LD),$1),$(B),$(B)/toolchains/$1/build)
$(B)/toolchains/expect.tsv: $(MAKEFILE_LIST) $(foreach l,$(LABS),$(wildcard $l/rows))
	$(Q)$(dir_made) && { $(foreach e,$(call check_entries,$(LABS)),$(call expect_line,$e)) } $(into_target)
tc-facts/%: FORCE
	$(recurse)$(Q)$(SCRIPTS)/toolchain-facts $(subst +,:,$*) $(B)/toolchains/$* $(call tc_build,$*) $(foreach l,$(or $(LAB),$(LABS)),$(call shq,$l=$(or $($l.check),$l EVIDENCE=1)$(if $($l.native-only),|$($l.native-only)|$($l.native-only-rows)|$(filter-out $($l.native-only-rows),$($l.rows)))))

check-toolchains: $(call tc_targets,$(TOOLCHAINS)) $(B)/toolchains/expect.tsv
	$(Q)$(SCRIPTS)/toolchain-table $(B)/toolchains/expect.tsv $(B)/toolchains $(TOOLCHAINS)

# make baseline OUT=file: record this toolchain's facts (TOOLCHAINS= for more);
# make compare BASELINE=file: rerun the toolchains the file names, print changes.
# LAB=<lab> limits either to one lab.
# Their arguments are checked while make reads this file, before any
# toolchain is built: one line and exit 2.
$(if $(filter baseline,$(MAKECMDGOALS)),$(if $(strip $(OUT)),$(if $(wildcard $(dir $(abspath $(OUT)))),$(if $(wildcard $(OUT)/.),$(error make baseline: OUT='$(OUT)' is a directory; name a file)),$(error make baseline: OUT='$(OUT)': no directory $(dir $(OUT)) to write it in)),$(error make baseline needs OUT=<file>)))
$(if $(filter compare,$(MAKECMDGOALS)),$(if $(strip $(BASELINE)),$(if $(shell test -f $(call shq,$(BASELINE)) && test -r $(call shq,$(BASELINE)) && echo y),,$(error compare: no baseline file '$(BASELINE)' (make baseline OUT=<file> first))),$(error make compare needs BASELINE=<file> (from make baseline OUT=<file>))))
baseline: $(call tc_targets,$(if $(filter command line,$(origin TOOLCHAINS)),$(TOOLCHAINS),$(CC):$(LD)))
	$(Q)$(SCRIPTS)/baseline $(B)/toolchains $(if $(filter command line,$(origin TOOLCHAINS)),$(TOOLCHAINS),$(CC):$(LD)) > $(OUT)
	@echo "baseline: $$(grep -vc '^#' $(OUT)) facts written to $(OUT)"

compare_tcs = $(if $(wildcard $(BASELINE)),$(shell awk '!/^\#/ && NF { print $$1 }' $(BASELINE) | sort -u))
compare: $(call tc_targets,$(compare_tcs))
	$(Q)$(SCRIPTS)/compare $(BASELINE) $(B)/toolchains

FORCE:
.PHONY: check-toolchains baseline compare FORCE

# make diagrams [LAB=<lab>] [ROW=<id>]: each row run once more (with
# LD_DEBUG=files,bindings where the picture reads the loader's record: not
# for a lab that sets LAB.diagram-ld-debug empty), and drawn from that run
# alone (scripts/diagram)
# as $(B)/diagrams/<lab>/<row>.svg; with docs/lookup-order.dot rendered
# beside them. A link's record (archive-order) is drawn by diagram-link,
# program runs with their loader messages (loader-errors) by
# diagram-loader, chosen by scripts/diagram from what the run printed;
# scripts/normalise labels the addresses, as in a golden. A row
# whose run does not fit the picture (no address line, no loader record of
# a program in its row directory) is skipped with one line; a lab whose
# first row does not fit is skipped as a whole.
DEPS_PACKAGES += graphviz
DOT ?= dot
diagram_rows = $(if $(ROW),$(filter $(ROW),$($1.rows)),$($1.rows))
DIAGRAM_LABS = $(or $(LAB),$(LABS))
DIAGRAM_ENTRIES = $(foreach l,$(DIAGRAM_LABS),$(addprefix $l:,$(call diagram_rows,$l)))
$(call refuse_rows,diagrams,$(call check_entries,$(DIAGRAM_LABS)))
# A lab's rows are built in $(B)/<lab>/<row>/; the rxe lab keeps its source
# directory's name.
rxe.rowdirs = $(RXE_B)
# diagram_ld_debug LAB: the trace its pictures read (ROW_LD_DEBUG, passed
# to the program by scripts/row-env).
diagram_ld_debug = $(if $(filter undefined,$(origin $1.diagram-ld-debug)),files$(comma)bindings,$($1.diagram-ld-debug))
# draw_row LAB,ROW,FIRST: run, draw, render; FIRST=1 skips the lab when the row does not fit.
draw_row = d=$(B)/diagrams/$1; mkdir -p $$d; rm -f $$d/$2.svg; \
	( $(if $(call diagram_ld_debug,$1),export ROW_LD_DEBUG=$(call diagram_ld_debug,$1);) $(call $1.run,$2) ) 2>&1 > $$d/$2.out | $(SCRIPTS)/ld-debug > $$d/$2.ld; \
	if $(SCRIPTS)/diagram $(or $($1.rowdirs),$(B)/$1)/$2 $(call shq,$1 $2: $($1.$2.what)) $$d/$2.out $$d/$2.ld 2> $$d/$2.why | $(SCRIPTS)/normalise > $$d/$2.dot; then \
	  $(DOT) -Tsvg $$d/$2.dot > $$d/$2.svg && echo "diagram: $$d/$2.svg"; \
	else rm -f $$d/$2.dot; echo "diagrams: skip $1$(if $3,,:$2): $$(tail -n 1 $$d/$2.why)"; $(if $3,continue;) fi
diagram_lab = for first in 1; do $(foreach r,$(call diagram_rows,$1),$(call draw_row,$1,$r,$(if $(filter $r,$(firstword $(call diagram_rows,$1))),1)); ) done
diagrams: $(call entries_prereqs,$(DIAGRAM_ENTRIES)) $(B)/diagrams/lookup-order.svg
	$(Q)$(foreach l,$(DIAGRAM_LABS),$(if $(call diagram_rows,$l),$(call diagram_lab,$l);)) true
$(B)/diagrams/lookup-order.svg: docs/lookup-order.dot
	$(Q)$(dir_made) && $(DOT) -Tsvg $< $(into_target)
	@echo "diagram: $@"
.PHONY: diagrams

# make exercises [LAB=<lab>]: per lab, a sheet to predict each row on and an
# answer key derived from a run of every row (scripts/exercises), in
# $(B)/exercises/; docs/workshop.md says which rows to run in what order.
exercises: $(call entries_prereqs,$(CHECK_ENTRIES))
	@mkdir -p $(B)/exercises
	$(Q)$(foreach l,$(or $(LAB),$(LABS)),$(call run_rows,$l,$($l.rows)) > $(B)/exercises/$l.run && \
	  $(SCRIPTS)/exercises $l $($l.table) $(B)/exercises/$l.run $(B)/exercises &&) true
.PHONY: exercises

deps:
	$(Q)$(SCRIPTS)/deps $(foreach p,$(sort $(DEPS_PACKAGES)),'$p') $(DEPS_COMMANDS)
# make deps-cross: the aarch64 column's tools, asked for by name (make deps
# leaves them out): the cross compiler and binutils, the target's C library,
# and the static user-mode emulator that runs its programs. scripts/deps, as
# for make deps: as root one announced install; as a user the apt line.
CROSS_PACKAGES := gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user-static
deps-cross:
	$(Q)$(SCRIPTS)/deps --for 'the aarch64 column (TOOLCHAINS="... aarch64-linux-gnu-gcc:bfd")' $(CROSS_PACKAGES)

# make test: install what is missing, build everything the tests use in
# parallel, then run every bats file and close with one counted line. The
# tests' own make calls find the build directory in B (exported, absolute).
# The bats files run JOBS at a time; the three that take longest (every lab
# under every toolchain, symsplit over the labs and the sweep, the tree-copy
# tests of the frame) start first.
TEST_FIRST := test/toolchains.bats test/symsplit-labs.bats test/frame.bats
# Progress: a line per phase and per lab built (test-built/<lab>, below),
# and every 15 s while the build goes on (rxe's build is quiet for a minute
# and more on a fresh machine), then run-bats' line per test file.
test: deps
	@echo "make test: building what the tests use ($(words $(LABS)) labs, symsplit), $(JOBS) jobs at a time"
	+$(Q)$(SCRIPTS)/heartbeat "make test: building" $(MAKE) --no-print-directory $(addprefix test-built/,$(LABS)) $(filter-out $(foreach l,$(LABS),$(call $l.prereq,$($l.rows))),$(TEST_PREREQS)) $(TEST_RUNS)
	@echo "make test: running the tests"
	$(Q)$(run_bats)
run_bats = B=$(B_ABS) BATS_JOBS=$(JOBS) $(tc_handoff) $(SCRIPTS)/run-bats $(TEST_FIRST) $(filter-out $(TEST_FIRST),$(sort $(wildcard test/*.bats)))
# The toolchain read once for all the makes the tests start (make test's own
# make reads none: its make deps installs the compiler): the words and the
# lines a lab's run starts with, each of which is about ten processes more,
# at ~250 makes, than a test's make needs.
tc_handoff = $(if $(tc_words),,SPLIT_STATE_LAB_TC=$(call shq,$(tc_key)) SPLIT_STATE_LAB_TC_WORDS="$$($(SCRIPTS)/toolchain --make $(call shq,$(CC)) $(call shq,$(LD)))") \
	SPLIT_STATE_LAB_TC_LINES="$$($(SCRIPTS)/toolchain $(call shq,$(CC)) $(call shq,$(LD)))"
$(foreach l,$(LABS),$(eval test-built/$l: $$(call $l.prereq,$$($l.rows)) ; @echo "make test: built $l"))
.PHONY: $(addprefix test-built/,$(LABS))

# make test's phases, one make each for make bench: what the bats files use
# built (test-build), each lab's captured run (test-runs), the bats files
# (test-bats).
test-build: $(TEST_PREREQS)
test-runs: $(TEST_RUNS)
test-bats:
	$(Q)$(run_bats)
.PHONY: test-build test-runs test-bats

bench:
	$(Q)$(SCRIPTS)/bench $(B_ABS)/bench $(call shq,$(TOOLCHAINS))

# Only what the suite made, and all of it: a build directory carrying the
# marker the suite writes when it makes one (scripts/build-dir), emptied and
# removed, but for the download caches (DOWNLOAD_CACHES, relative to it),
# which make distclean removes too, saying so.
clean:
	$(Q)$(SCRIPTS)/build-dir clean $(call shq,$(B_ABS)) $(call shq,$(CURDIR)) $(DOWNLOAD_CACHES)
distclean:
	$(Q)$(SCRIPTS)/build-dir clean $(call shq,$(B_ABS)) $(call shq,$(CURDIR)) dist $(DOWNLOAD_CACHES)

help:
	@echo "split-state-lab: two live copies of one library's state in one process"
	@echo "  first: make matrix, then make test (as root on a bare Debian each installs what it needs;"
	@echo "         as a user, root runs make deps first: every Debian package the suite uses)"
	@echo "  make deps         install every Debian package the suite uses (root; a user gets the apt-get line to run as root)"
	@echo "  make deps-cross   the same for the aarch64 column's cross compiler, C library and qemu (not in make deps)"
	@printf '%s\n' $(HELP_LINES)
	@echo "  make evidence     every lab's rows with the facts that explain them"
	@echo "  make check [LAB=<lab>] [ROW=<id>]  every row's (or ROW's) derived verdict and counts against its table's expect cell"
	@echo "  make fixed [ROW=<id>]   the fix ladder and every lab's fix rows, each against its own expect cell"
	@echo "  make bless [LAB=<lab>]  rerun, show the golden's diff, rewrite expected/<lab>.txt (refused if a row breaks its expect cell)"
	@echo "  make labs         the labs, one a line"
	@echo "  make toolchains   the toolchain columns (the toolchains table) and which are installed here"
	@echo "  make test         install missing Debian packages (make deps), run all bats tests; as a user the root-only ones skip, named"
	@echo "  make check-toolchains   every lab under each toolchain column (make toolchains; TOOLCHAINS=\"gcc:bfd clang:lld ...\")"
	@echo "  make baseline OUT=f     record this toolchain's verdicts and evidence facts"
	@echo "  make compare BASELINE=f rerun and print only what changed (exit 1 if anything)"
	@echo "  make diagrams [LAB=<lab>] [ROW=<id>]  each row's modules, copies and bindings as SVG in $(B)/diagrams/"
	@echo "  make exercises [LAB=<lab>]  a prediction sheet and an answer key derived from the run, per lab, in $(B)/exercises/"
	@echo "  make bench        CPU and wall seconds of make test's phases (build, runs, bats) and of check-toolchains per column, from clean"
	@echo "  make clean        remove what the suite built in $(B)/ but its download caches; make distclean those too"
	@echo "  every lab: ROW=<id> one row, EVIDENCE=1 the facts under each row, make evidence-<lab>"
	@echo "             (ROW= is taken by make <lab>, evidence-<lab>, check, fixed, diagrams; any other goal refuses it)"
	@echo "  variables: CC=gcc|clang|aarch64-linux-gnu-gcc  LD=$(subst $(space),|,$(TC_LINKERS))  V=1 (show commands)  B=<build dir>  JOBS=<n> (default: all cores)"
	@echo "             RUN=<prefix> for every program a lab starts (a cross CC: its qemu-<arch>-static)"

# make labs: the labs, one a line (the tests iterate over them).
labs:
	@printf '%s\n' $(LABS)
# make toolchains: the columns of make check-toolchains (TOOLCHAINS, by
# default the toolchains table's) and whether each is installed here.
toolchains:
	$(Q)$(SCRIPTS)/toolchain-list installed $(TOOLCHAINS)

.PHONY: evidence deps deps-cross test bench clean distclean help labs toolchains

# make check-upgrade SUITE=<debian suite>: what upgrading this machine to
# that release changes (scripts/check-upgrade; root only). Its root is kept
# in UPGRADE_CACHE (default /var/cache/split-state-lab/<suite>). FULL=1 also
# runs the whole make test of the committed tree inside that root.
check-upgrade:
	$(recurse)$(Q)$(SCRIPTS)/check-upgrade $(call shq,$(SUITE)) $(call shq,$(B)) $(call shq,$(TOOLCHAINS)) $(call shq,$(FULL))
.PHONY: check-upgrade
HELP_LINES += "  make check-upgrade SUITE=trixie [FULL=1]   what upgrading to that Debian release changes (root); FULL=1 runs make test there too"

# make check-fresh [SUITE=<suite>]: what a newcomer sees on a fresh Debian
# root of that release (default: this machine's): the committed tree in
# /root/src, make matrix then make test as root; then, after root's make
# deps, the same two as an unprivileged user with the tree in its home;
# then as root in a plain chroot, / no mount point (CHECK_FRESH_PASSES). In
# an overlay over a pristine root kept in UPGRADE_CACHE (scripts/check-fresh;
# root only): what a new machine lacks, a green make test here cannot show.
check-fresh:
	$(Q)$(SCRIPTS)/check-fresh $(call shq,$(SUITE)) $(call shq,$(B))
.PHONY: check-fresh
HELP_LINES += "  make check-fresh [SUITE=bookworm]   the README's two commands on a fresh Debian root, as root in /root/src, as a user, and in a plain chroot (root)"
include mk/no-mount-ns.mk

# One run per build directory: every goal but these takes the build
# directory's lock (scripts/build-dir: held until this make ends; a second
# run is one line naming the first, exit 2), once every Makefile is read: a
# run refused while they are read (a bad CC, an unknown ROW) makes nothing.
# The makes a run starts (tests, toolchain columns, make bless) share it:
# SPLIT_STATE_LAB_LOCK names it.
LOCK_FREE_GOALS := help labs toolchains deps deps-cross
ifeq ($(DRY_RUN),)
ifneq ($(filter-out $(LOCK_FREE_GOALS),$(or $(MAKECMDGOALS),$(.DEFAULT_GOAL))),)
ifeq ($(if $(SPLIT_STATE_LAB_LOCK),$(filter $(SPLIT_STATE_LAB_LOCK) $(SPLIT_STATE_LAB_LOCK)/%,$(B_ABS))),)
lock_said := $(shell $(SCRIPTS)/build-dir lock $(call shq,$(B_ABS)) $(call shq,$(CURDIR)) "$$PPID" $(call shq,$(MAKE_RESTARTS)) $(call shq,$(MAKECMDGOALS)) \
	$(if $(filter-out clean distclean,$(MAKECMDGOALS)),create) 2>&1)
ifneq ($(.SHELLSTATUS),0)
$(error $(lock_said))
endif
export SPLIT_STATE_LAB_LOCK := $(B_ABS)
else ifneq ($(filter $(SPLIT_STATE_LAB_LOCK)/%,$(B_ABS)),)
# A build directory inside the run's own (a toolchain column's, make bench's)
# is marked when made: a marker counts only in the directory itself.
ifneq ($(filter-out clean distclean,$(MAKECMDGOALS)),)
mark_said := $(shell $(SCRIPTS)/build-dir mark $(call shq,$(B_ABS)) 2>&1)
ifneq ($(.SHELLSTATUS),0)
$(error $(mark_said))
endif
endif
endif
endif
endif
# first_run: the rest of this file is read only once the compiler is there.
endif
