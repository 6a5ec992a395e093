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
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
ifeq ($(MAKELEVEL),0)
MAKEFLAGS += -j$(JOBS)
endif

CC ?= gcc
ifeq ($(origin CC),default)
CC := gcc
endif
# LD names the linker for -fuse-ld: bfd, gold or lld (ld, ld.bfd, ld.gold
# and ld.lld are understood too; make's own default "ld" means bfd).
ifeq ($(origin LD),default)
LD := bfd
endif
override LD := $(patsubst ld.%,%,$(patsubst ld,bfd,$(LD)))
B ?= build
SCRIPTS := scripts
V ?= 0
Q := $(if $(filter 1,$(V)),,@)

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

HELP_LINES :=
TEST_PREREQS :=
FIXED_ROWS :=
EVIDENCE_TARGETS :=
TOOLCHAIN_LABS :=
# a|b: the first of these the release has (scripts/deps); gold is its own
# package from Debian 13 on.
DEPS_PACKAGES := gcc binutils binutils-gold|binutils make bats bats-assert bats-support clang lld

# shq: quote a make value for a single-quoted shell word.
shq = '$(subst ','\'',$1)'
# run_rows LAB,ROWS[,EVIDENCE]: a header line per row, then the lab's
# $(LAB.run) for it (and $(LAB.evidence) when asked), all derived into
# verdicts by the one shared script.
run_rows = { $(foreach r,$2,printf '%s\n' $(call shq,== $r: $($1.$r.what)); $(call $1.run,$r) || echo "[run failed: exit $$?]";$(if $3, $(call $1.evidence,$r);)) } | $(SCRIPTS)/verdict
# check_name KIND,GIVEN,KNOWN: one-line error and failure for an unknown name.
check_name = $(if $(filter-out $3,$2),@echo "unknown $1 '$(firstword $(filter-out $3,$2))' (known: $3)" >&2; exit 2)

# lab_entry LAB,VAR,KIND: the entry points of a lab whose rows are built at
# $(B)/LAB/<row>/app: `make LAB [VAR=<id>] [EVIDENCE=1]` (an unknown id is
# one line: unknown KIND 'X' (known: ...)), `make evidence-LAB`, and its place
# in make test, make evidence and the toolchain check.
define lab_entry
$1.selected = $$(or $$($2),$$($1.rows))
$1.apps = $$(foreach r,$$($1.rows),$$(B)/$1/$$r/app)
$1: $$(if $$(filter-out $$($1.rows),$$($2)),,toolchain-check $$(foreach r,$$($1.selected),$$(B)/$1/$$r/app))
	$$(call check_name,$3,$$($2),$$($1.rows))
	$$(Q)$$(SCRIPTS)/toolchain $$(CC) $$(LD)
	$$(Q)$$(call run_rows,$1,$$($1.selected),$$(EVIDENCE))
# The same run with the facts under each row; EVIDENCE reaches $1's recipe.
evidence-$1: EVIDENCE := 1
evidence-$1: $1
.PHONY: $1 evidence-$1
EVIDENCE_TARGETS += evidence-$1
TOOLCHAIN_LABS += $1
$1.check := $1 EVIDENCE=1
TEST_PREREQS += $$($1.apps)
endef

toolchain-check:
	$(Q)$(SCRIPTS)/toolchain --check $(CC) $(LD)
toolchain-report: toolchain-check
	$(Q)$(SCRIPTS)/toolchain $(CC) $(LD)
.PHONY: toolchain-check toolchain-report

include $(sort $(wildcard */lab.mk tools/*/lab.mk))

evidence: $(EVIDENCE_TARGETS)

# Toolchain regression mode: every lab in TOOLCHAIN_LABS (each with its
# $(LAB.check) target and arguments) built and run under each toolchain, in
# parallel under one jobserver, into $(B)/toolchains/<cc+ld>/.
# Listed so that the first two jobs use different compilers: the later
# toolchains then find their compiles done (scripts/cc-cache).
TOOLCHAINS ?= gcc:bfd clang:lld gcc:gold clang:bfd gcc:lld
tc_targets = $(foreach t,$1,tc-facts/$(subst :,+,$t))
tc_specs = $(foreach l,$(TOOLCHAIN_LABS),$l='$($l.check)')
# The toolchain this make was started with builds where the labs always do,
# $(B), so the check shares its work with `make matrix` and `make test`.
tc_build = $(if $(filter $(CC)+$(LD),$1),$(B),$(B)/toolchains/$1/build)
tc-facts/%: FORCE
	+$(Q)$(SCRIPTS)/toolchain-facts $(subst +,:,$*) $(B)/toolchains/$* $(call tc_build,$*) $(tc_specs)

check-toolchains: $(call tc_targets,$(TOOLCHAINS))
	$(Q)$(SCRIPTS)/toolchain-table $(B)/toolchains $(TOOLCHAINS)

# make baseline OUT=file: record this toolchain's facts (TOOLCHAINS= for more);
# make compare BASELINE=file: rerun the toolchains the file names, print changes.
baseline: $(call tc_targets,$(if $(filter command line,$(origin TOOLCHAINS)),$(TOOLCHAINS),$(CC):$(LD)))
	$(if $(OUT),,@echo "make baseline needs OUT=<file>" >&2; exit 2)
	$(Q)$(SCRIPTS)/baseline $(B)/toolchains $(if $(filter command line,$(origin TOOLCHAINS)),$(TOOLCHAINS),$(CC):$(LD)) > $(OUT)
	@echo "baseline: $$(grep -vc '^#' $(OUT)) facts written to $(OUT)"

compare_tcs = $(if $(wildcard $(BASELINE)),$(shell awk '!/^\#/ && NF { print $$1 }' $(BASELINE) | sort -u))
compare: $(call tc_targets,$(compare_tcs))
	$(if $(BASELINE),,@echo "make compare needs BASELINE=<file> (from make baseline OUT=<file>)" >&2; exit 2)
	$(Q)$(SCRIPTS)/compare $(BASELINE) $(B)/toolchains

FORCE:
.PHONY: check-toolchains baseline compare FORCE

deps:
	$(Q)$(SCRIPTS)/deps $(foreach p,$(sort $(DEPS_PACKAGES)),'$p')

# make test: install what is missing, build everything the tests use in
# parallel, then run every bats file and close with one counted line.
test: deps
	+$(Q)$(MAKE) --no-print-directory $(TEST_PREREQS)
	$(Q)$(SCRIPTS)/run-bats test

bench:
	$(Q)$(SCRIPTS)/bench

clean:
	rm -rf $(B)

help:
	@echo "split-state-lab: two live copies of one library's state in one process"
	@echo "  make evidence     every lab's rows with the facts that explain them"
	@printf '%s\n' $(HELP_LINES)
	@echo "  make test         install missing Debian packages, run all bats tests"
	@echo "  make check-toolchains   every lab under each toolchain (TOOLCHAINS=\"gcc:bfd clang:lld ...\")"
	@echo "  make baseline OUT=f     record this toolchain's verdicts and evidence facts"
	@echo "  make compare BASELINE=f rerun and print only what changed (exit 1 if anything)"
	@echo "  make bench        time a clean build + run of the matrix, and of check-toolchains"
	@echo "  make clean        remove $(B)/"
	@echo "  variables: CC=gcc|clang  LD=bfd|gold|lld  V=1 (show commands)  B=<build dir>  JOBS=<n> (default: all cores)"

.PHONY: evidence deps test bench clean help

# make check-upgrade SUITE=<debian suite>: what upgrading this machine to
# that release changes (scripts/check-upgrade; root only). Its root is kept
# in UPGRADE_CACHE (default /var/cache/split-state-lab/<suite>).
check-upgrade:
	+$(Q)$(SCRIPTS)/check-upgrade $(call shq,$(SUITE)) $(call shq,$(B)) $(call shq,$(TOOLCHAINS))
.PHONY: check-upgrade
HELP_LINES += "  make check-upgrade SUITE=trixie   what upgrading to that Debian release changes (root)"
