# The build directory: everything the suite writes goes below it. Refused,
# before anything runs: empty, with white space (make cannot quote a path
# in a rule), and, resolved by realpath (symlinks, /proc/self/cwd, "..")
# in mk/build-dir: "/", $HOME or above, the source tree, above it or
# inside it (but its own build/), ~ (make does not expand it), and a
# directory holding files the suite did not make (it marks the ones it
# makes). A source tree whose path has white space is refused likewise.
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
ifeq ($(b_take)|$(b_handed),1|$(value SPLIT_STATE_LAB_LOCK))
B_ABS := $(b_handed)
else
B_ABS := $(shell exec mk/build-dir resolve $(call shq,$(B)) $(call shq,$(CURDIR)) 2>&1)
ifneq ($(.SHELLSTATUS),0)
$(error $(B_ABS))
endif
endif
export SPLIT_STATE_LAB_B := $(CURDIR)|$(HOME)|$(B_ABS)
export SPLIT_STATE_LAB_B_FROM := $(b_read)
