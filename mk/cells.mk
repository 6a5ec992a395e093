# The labs' cells (mk/labs.mk's table_cells), each file written by make
# itself while it reads the Makefiles, and only when its text changed (or it
# is not there): what depends on it is made again in this run, and nothing
# else is (an edited expect cell changes neither file). Written only by goals
# that hold the build directory (mk/lock.mk: after its lock, never into
# another run's); its directory is made with the lock (mk/lock.mk), or
# else by one process, once a build directory, and the renames of those
# that changed one process, once a make.
# Under make -n nothing is written, and a changed file is taken as made
# again, so make -n lists what make would do.
cells_goals := $(filter-out $(LOCK_FREE_GOALS) clean distclean,$(or $(MAKECMDGOALS),$(.DEFAULT_GOAL)))
# cells_same A,B: non-empty when the texts A and B hold the same words.
# Compared stripped: the texts are words joined by foreach (runs of blanks
# carry nothing), and make 4.3's $(file <F) sometimes keeps the file's
# last newline (it drops it only when its output buffer did not move to a
# lower address while the file was read), so an unstripped comparison
# found some labs' cells changed at every make and made their runs again.
cells_same = $(and $(findstring $(strip $1),$(strip $2)),$(findstring $(strip $2),$(strip $1)))
# cells_changed FILE,TEXT: FILE (empty when not there) holding another
# text is written anew, under its own name in cells/.new, and queued; or
# under make -n its rule made to run (FORCE). The queue is renamed into
# cells/ by one mv -t after every lab is read: each rename is atomic, so an
# interrupted make leaves no half-written cells file (the rule that every
# artifact goes to a temporary name first), and one process does them all
# rather than one a file.
cells_new = $(B_ABS)/cells/.new
cells_changed = $(if $(call cells_same,$(file <$1),$2),,$(if $(DRY_RUN),FORCE,$(file >$(cells_new)/$(notdir $1),$2)$(eval cells_queued += $(notdir $1))))
ifneq ($(cells_goals),)
ifeq ($(DRY_RUN)$(b_cells_made)$(wildcard $(cells_new)/.),)
cells_dir_made := $(shell exec mkdir -p $(call shq,$(cells_new)) 2>&1)
endif
$(foreach l,$(TABLE_LABS),$(eval $($l.cells) $($l.what): ; ) \
	$(eval $($l.cells): $(call cells_changed,$($l.cells),$($l.cells-text))) \
	$(eval $($l.what): $(call cells_changed,$($l.what),$($l.what-text))))
ifneq ($(cells_queued),)
# Not fatal: makes of one run that read changed cells side by side (a
# toolchain column and a test) both queue and rename the same name; the
# second finds it gone, which is no harm (the first renamed the same text),
# and one that is not renamed is written again by the next make.
cells_renamed := $(shell exec mv -f -t $(call shq,$(B_ABS)/cells) $(foreach f,$(cells_queued),$(call shq,$(cells_new)/$f)) 2>/dev/null)
endif
endif
