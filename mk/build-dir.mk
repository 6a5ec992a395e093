# The build directory: everything the suite writes goes below it. Refused,
# before anything runs: empty, with white space (make cannot quote a path
# in a rule), and, resolved as realpath resolves it (symlinks,
# /proc/self/cwd, "..") by mk/build-dir: "/", $HOME or above, the source
# tree, above it or inside it (but its own build/), ~ (make does not
# expand it), and a directory holding files the suite did not make (it
# marks the ones it makes). A source tree whose path has white space is
# refused likewise.
B ?= build
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
# One run per build directory: every goal but these takes the build
# directory's lock (b_lock; under make -n none), held until this make ends
# (mk/build-dir: a second run is one line naming the first, exit 2). The
# makes a run starts (tests, toolchain columns, make bless) share it:
# SPLIT_STATE_LAB_LOCK names it. A goal but clean and distclean makes the
# build directory if it is not there (b_create).
LOCK_FREE_GOALS := help labs toolchains deps deps-cross
b_lock := $(if $(DRY_RUN),,$(filter-out $(LOCK_FREE_GOALS),$(or $(MAKECMDGOALS),$(.DEFAULT_GOAL))))
b_create := $(filter-out clean distclean,$(MAKECMDGOALS))
ifeq ($(b_take)|$(b_handed),1|$(value SPLIT_STATE_LAB_LOCK))
B_ABS := $(b_handed)
else
# The call that resolves B also takes its lock (and makes its cells'
# directory) when B is the suite's already: one process where there were
# two. It says so by a "/." after the path (mk/build-dir resolve). A B
# still to be made is locked and made by mk/lock.mk, once every Makefile is
# read: a run refused while they are read (a bad CC, an unknown ROW) makes
# nothing.
b_said := $(shell exec mk/build-dir resolve $(call shq,$(B)) $(call shq,$(CURDIR)) \
	$(if $(b_lock),$(call shq,$(SPLIT_STATE_LAB_LOCK)) "$$PPID" $(call shq,$(MAKE_RESTARTS)) $(call shq,$(MAKECMDGOALS)) $(if $(b_create),create)) 2>&1)
ifneq ($(.SHELLSTATUS),0)
$(error $(b_said))
endif
B_ABS := $(patsubst %/.,%,$(b_said))
ifneq ($(B_ABS),$(b_said))
export SPLIT_STATE_LAB_LOCK := $(B_ABS)
b_locked := 1
b_cells_made := $(b_create)
endif
endif
export SPLIT_STATE_LAB_B := $(CURDIR)|$(HOME)|$(B_ABS)
export SPLIT_STATE_LAB_B_FROM := $(b_read)
