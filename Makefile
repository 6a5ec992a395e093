# split-state-lab: entry points only. Each lab lives in its own directory
# with one Makefile fragment (lab.mk) and a table of rows; see README.md.
.DEFAULT_GOAL := help
SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -c
.DELETE_ON_ERROR:
.SECONDARY:
.SUFFIXES:
# Parallel by default (every lab is -j safe); an explicit -jN wins.
ifeq ($(filter -j%,$(MAKEFLAGS)),)
MAKEFLAGS += -j$(shell nproc 2>/dev/null || echo 2)
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
DEPS_PACKAGES := gcc binutils make bats bats-assert bats-support

# shq: quote a make value for a single-quoted shell word.
shq = '$(subst ','\'',$1)'
# run_rows LAB,ROWS[,EVIDENCE]: a header line per row, then the lab's
# $(LAB.run) for it (and $(LAB.evidence) when asked), all derived into
# verdicts by the one shared script.
run_rows = { $(foreach r,$2,printf '%s\n' $(call shq,== $r: $($1.$r.what)); $(call $1.run,$r) || echo "[run failed: exit $$?]";$(if $3, $(call $1.evidence,$r);)) } | $(SCRIPTS)/verdict
# check_name KIND,GIVEN,KNOWN: one-line error and failure for an unknown name.
check_name = $(if $(filter-out $3,$2),@echo "unknown $1 '$(firstword $(filter-out $3,$2))' (known: $3)" >&2; exit 2)

toolchain-check:
	$(Q)$(SCRIPTS)/toolchain --check $(CC) $(LD)
toolchain-report: toolchain-check
	$(Q)$(SCRIPTS)/toolchain $(CC) $(LD)
.PHONY: toolchain-check toolchain-report

include $(sort $(wildcard */lab.mk tools/*/lab.mk))

evidence: $(EVIDENCE_TARGETS)

deps:
	$(Q)$(SCRIPTS)/deps $(sort $(DEPS_PACKAGES))

# make test: install what is missing, build everything the tests use in
# parallel, then run every bats file and close with one counted line.
test: deps
	$(Q)$(MAKE) --no-print-directory -j$$(nproc) $(TEST_PREREQS)
	$(Q)$(SCRIPTS)/run-bats test

bench:
	$(Q)$(SCRIPTS)/bench

clean:
	rm -rf $(B)

help:
	@echo "split-state-lab: two live copies of one library's state in one process"
	@echo "  make evidence     every lab's rows with the facts that explain them"
	@$(foreach l,$(HELP_LINES),echo $(call shq,$l);)
	@echo "  make test         install missing Debian packages, run all bats tests"
	@echo "  make bench        time a clean build + run of the matrix"
	@echo "  make clean        remove $(B)/"
	@echo "  variables: CC=gcc|clang  LD=bfd|gold|lld  V=1 (show commands)  B=<build dir>"

.PHONY: evidence deps test bench clean help
