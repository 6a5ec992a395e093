# How make runs: the shell, the jobs, the PATH and environment every recipe
# and test gets, and the small helpers every fragment uses.
# A SIGTERM to make's pid alone reaches each recipe's shell (make sends it
# on), not the commands that shell is waiting for: a running pipeline goes
# on to its end, writing only temporary names. A shell can act on a signal
# only in `wait`, so forwarding it would cost a process for every recipe
# line; the README asks for make's process group instead (as a terminal
# and timeout signal it), which reaches everything.
SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -c
.DELETE_ON_ERROR:
.SECONDARY:
.SUFFIXES:
# Parallel by default: every lab is -j safe. JOBS=1 runs serially (make
# cannot see a command-line -j while it reads this file). Only the top-level
# make sets it: a sub-make shares its parent's jobserver.
# A $(shell) whose command redirects begins with exec: bash forks a command
# that has a redirection, and exec runs it in bash's own process instead
# (one process fewer at every make's start for each).
# nproc is asked once per run (:=, not a deferred ?= that would ask at every
# use; the makes a run starts, the tests' included, take the first one's
# answer from SPLIT_STATE_LAB_NPROC), and JOBS checked by make itself: every
# sub-make reads this file too.
# The unit separator stands for a blank inside a word make passes around:
# printf's, handed down like nproc's answer (SPLIT_STATE_LAB_US). A make
# that must ask for either asks in one $(shell): the separator, a blank,
# then nproc's answer if asked.
make_ask_nproc := $(if $(filter undefined,$(origin JOBS)),$(if $(value SPLIT_STATE_LAB_NPROC),,1))
ifneq ($(if $(value SPLIT_STATE_LAB_US),,1)$(make_ask_nproc),)
make_said := $(shell printf '\037 '; $(if $(make_ask_nproc),exec nproc 2>/dev/null))
endif
export SPLIT_STATE_LAB_US := $(or $(value SPLIT_STATE_LAB_US),$(firstword $(make_said)))
us := $(SPLIT_STATE_LAB_US)
ifeq ($(origin JOBS),undefined)
export SPLIT_STATE_LAB_NPROC := $(or $(value SPLIT_STATE_LAB_NPROC),$(word 2,$(make_said)),2)
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

# make -n (--dry-run, --just-print) runs nothing and writes nothing. make
# itself still runs recipe lines marked + and lines naming $(MAKE): a line
# starting another make, or a script that does, begins with $(recurse)
# instead, the + (the jobserver reaches it) everywhere but under -n.
DRY_RUN := $(findstring n,$(firstword -$(MAKEFLAGS)))
recurse := $(if $(DRY_RUN),,+)
# sub_make: $(MAKE) for such a line (named directly, make would run it
# under -n whatever its prefix).
sub_make = $(MAKE)

V ?= 0
Q := $(if $(filter 1,$(V)),,@)
