# split-state-lab: entry points only: the fragments that define them, each
# lab's lab.mk and mk/<concern>.mk, included in order, and make help. Each
# lab lives in its own directory with one Makefile fragment (lab.mk) and a
# table of rows; see README.md.
.DEFAULT_GOAL := help
# Every path here is relative to the tree: make -f <tree>/Makefile from
# another directory is one line naming the make -C that works (checked
# before the first include, which would fail first).
ifneq ($(words $(CURDIR)),1)
$(error the source tree's path has white space ('$(CURDIR)'); make cannot quote it: move the tree)
endif
ifneq ($(realpath $(dir $(lastword $(MAKEFILE_LIST)))),$(CURDIR))
$(error make -f reads this tree's files relative to the working directory, $(CURDIR): run make -C $(realpath $(dir $(lastword $(MAKEFILE_LIST)))) instead)
endif

# The fragments, by concern, in the order their variables are defined:
# how make runs, the build directory, the compiler (on a bare machine, only
# the first run that installs it), how objects are made, the toolchain
# columns, the packages, the labs' machinery, the labs, then the goals over
# them; the build directory's lock last, once every Makefile is read, and
# the labs' cells after it (written into the build directory it holds).
include mk/make.mk mk/build-dir.mk mk/toolchain.mk
ifdef first_run
include mk/first-run.mk
else
include mk/compile.mk mk/columns.mk mk/deps.mk mk/labs.mk
# matrix/lab.mk first: it defines the scenario fixes/ builds on.
# realworld/lab.mk comes last: its rules use the survey's install machinery
# and symsplit's build, defined by the fragments before it.
include matrix/lab.mk $(filter-out matrix/lab.mk realworld/lab.mk,$(sort $(wildcard */lab.mk))) $(wildcard tools/*/lab.mk) $(wildcard realworld/lab.mk)
include mk/checks.mk mk/toolchains.mk mk/diagrams.mk mk/exercises.mk mk/test.mk mk/bench.mk mk/clean.mk mk/releases.mk mk/glibc-elf.mk mk/no-mount-ns.mk
include mk/toolchain-symsplit.mk mk/lab-bindings.mk

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
	@echo "  make count-processes  the processes make test starts, per phase and per bats file, from clean (root: a PID namespace)"
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

.PHONY: help labs toolchains

include mk/lock.mk mk/cells.mk
# first_run: the rest of this file is read only once the compiler is there.
endif
