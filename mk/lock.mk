# One run per build directory: every goal but these takes the build
# directory's lock (mk/build-dir: held until this make ends; a second
# run is one line naming the first, exit 2), once every Makefile is read: a
# run refused while they are read (a bad CC, an unknown ROW) makes nothing.
# The makes a run starts (tests, toolchain columns, make bless) share it:
# SPLIT_STATE_LAB_LOCK names it.
LOCK_FREE_GOALS := help labs toolchains deps deps-cross
ifeq ($(DRY_RUN),)
ifneq ($(filter-out $(LOCK_FREE_GOALS),$(or $(MAKECMDGOALS),$(.DEFAULT_GOAL))),)
ifeq ($(if $(SPLIT_STATE_LAB_LOCK),$(filter $(SPLIT_STATE_LAB_LOCK) $(SPLIT_STATE_LAB_LOCK)/%,$(B_ABS))),)
lock_said := $(shell exec mk/build-dir lock $(call shq,$(B_ABS)) $(call shq,$(CURDIR)) "$$PPID" $(call shq,$(MAKE_RESTARTS)) $(call shq,$(MAKECMDGOALS)) \
	$(if $(filter-out clean distclean,$(MAKECMDGOALS)),create) 2>&1)
ifneq ($(.SHELLSTATUS),0)
$(error $(lock_said))
endif
export SPLIT_STATE_LAB_LOCK := $(B_ABS)
else ifneq ($(filter $(SPLIT_STATE_LAB_LOCK)/%,$(B_ABS)),)
# A build directory inside the run's own (a toolchain column's, make bench's)
# is marked when made: a marker counts only in the directory itself. One
# that holds its marker already is left as it is (mk/build-dir mark would
# find it not empty and do nothing): no process at each of its makes.
ifneq ($(filter-out clean distclean,$(MAKECMDGOALS)),)
ifeq ($(wildcard $(B_ABS)/.split-state-lab-build),)
mark_said := $(shell exec mk/build-dir mark $(call shq,$(B_ABS)) 2>&1)
ifneq ($(.SHELLSTATUS),0)
$(error $(mark_said))
endif
endif
endif
endif
endif
endif
