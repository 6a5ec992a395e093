# The labs' cells (mk/labs.mk's table_cells), each file written by make
# itself while it reads the Makefiles, and only when its text changed (or it
# is not there): what depends on it is made again in this run, and nothing
# else is (an edited expect cell changes neither file). Written only by goals
# that hold the build directory (mk/lock.mk: after its lock, never into
# another run's); its directory is the one process, once a build directory.
# Under make -n nothing is written, and a changed file is taken as made
# again, so make -n lists what make would do.
cells_goals := $(filter-out $(LOCK_FREE_GOALS) clean distclean,$(or $(MAKECMDGOALS),$(.DEFAULT_GOAL)))
# cells_same A,B: non-empty when the texts A and B are the same.
cells_same = $(and $(findstring $1,$2),$(findstring $2,$1))
# cells_changed FILE,TEXT: FILE (empty when not there) holding another
# text is written anew by make itself, no process (an interrupted make may
# leave it half-written: the next make finds its text not TEXT and writes
# it again, newer, so what depends on it is made again then), or under make
# -n its rule made to run (FORCE).
cells_changed = $(if $(call cells_same,$(file <$1),$2),,$(if $(DRY_RUN),FORCE,$(file >$1,$2)))
ifneq ($(cells_goals),)
ifeq ($(DRY_RUN)$(wildcard $(B_ABS)/cells/.),)
cells_dir_made := $(shell exec mkdir -p $(call shq,$(B_ABS)/cells) 2>&1)
endif
$(foreach l,$(TABLE_LABS),$(eval $($l.cells) $($l.what): ; ) \
	$(eval $($l.cells): $(call cells_changed,$($l.cells),$($l.cells-text))) \
	$(eval $($l.what): $(call cells_changed,$($l.what),$($l.what-text))))
endif
