# The build directory's lock (mk/build-dir.mk's b_lock), when the make
# that resolved B did not take it (B_ABS was handed down, or B is still to
# be made): taken once every Makefile is read, so a run refused while they
# are read (a bad CC, an unknown ROW) makes nothing. With create, the call
# makes B, its marker and its cells' directory as well (b_cells_made: one
# process, not three).
ifneq ($(b_lock),)
ifeq ($(b_locked),)
ifeq ($(if $(SPLIT_STATE_LAB_LOCK),$(filter $(SPLIT_STATE_LAB_LOCK) $(SPLIT_STATE_LAB_LOCK)/%,$(B_ABS))),)
lock_said := $(shell exec mk/build-dir lock $(call shq,$(B_ABS)) $(call shq,$(CURDIR)) "$$PPID" $(call shq,$(MAKE_RESTARTS)) $(call shq,$(MAKECMDGOALS)) \
	$(if $(b_create),create) 2>&1)
ifneq ($(.SHELLSTATUS),0)
$(error $(lock_said))
endif
export SPLIT_STATE_LAB_LOCK := $(B_ABS)
b_cells_made := $(b_create)
else ifneq ($(filter $(SPLIT_STATE_LAB_LOCK)/%,$(B_ABS)),)
# A build directory inside the run's own (a toolchain column's, make bench's)
# is marked when made: a marker counts only in the directory itself. One
# that holds its marker already is left as it is (mk/build-dir mark would
# find it not empty and do nothing): no process at each of its makes.
ifneq ($(b_create),)
ifeq ($(wildcard $(B_ABS)/.split-state-lab-build),)
mark_said := $(shell exec mk/build-dir mark $(call shq,$(B_ABS)) cells 2>&1)
ifneq ($(.SHELLSTATUS),0)
$(error $(mark_said))
endif
b_cells_made := 1
endif
endif
endif
endif
endif
