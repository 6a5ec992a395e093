# make check-toolchains also asks symsplit about each row of each column:
# the host's symsplit reads the files the column built and its reading is
# set against the row's derived verdict (tools/symsplit/dev/lab-rows; the
# table marks a disagreement, expected/toolchain-differences lists the known
# ones). Each column's facts need symsplit built first.
$(call tc_targets,$(TOOLCHAINS)): $(SYMSPLIT)
tc-facts/%: export TC_SYMSPLIT := $(abspath $(SYMSPLIT))

# A lab's rows as symsplit reads them, beside the lab's capture and made
# once per build directory like it: runs/LAB.facts (scripts/verdict --facts)
# and runs/LAB.symsplit, lab-rows --ran on the rows that ran (a skipped row
# has no files to read), its exit status in LAB.symsplit.rc, its stderr in
# LAB.symsplit.err (a disagreement is a fact of the column, not a failed
# make). make test's runs phase makes them for its build directory, which
# is the make's own toolchain column's: that column (check-toolchains,
# baseline, compare) and test/symsplit-labs.bats read them there instead of
# asking symsplit about every row again. A column's make makes its own with
# the host's symsplit (TC_SYMSPLIT).
# Each file is written under a name of its make's shell ($$$$: its pid) and
# renamed, the reading's .symsplit last: makes of one run side by side (a
# test and a toolchain column) that both find it stale each write their
# own and rename it over the same text, and a reader never finds half a
# file nor a .symsplit without its .rc.
lab_rows_symsplit = $(or $(TC_SYMSPLIT),$(abspath $(SYMSPLIT)))
# the prerequisite by the name make builds it under (a relative B gives a
# relative SYMSPLIT: its absolute name has no rule)
lab_rows_symsplit_dep = $(or $(TC_SYMSPLIT),$(SYMSPLIT))
LAB_ROWS_LABS := $(foreach l,$(LABS),$(if $($l.capture),$l))
$(B)/runs/%.facts: $(B)/runs/%.out
	$(Q)$(SCRIPTS)/verdict --facts < $< > $@.$$$$ && exec mv -f $@.$$$$ $@
# lab-rows bounds each symsplit it starts by CPU time; the whole run is
# bounded here once, by the wall clock (LAB_ROWS_TIMEOUT seconds), so
# nothing in it can hang make. --foreground: timeout stays in make's
# process group, so make's interrupt reaches lab-rows at once (a plain
# timeout moves itself into a group of its own, which that signal misses,
# and make would wait out the bound). Stopped by the bound (timeout's 124,
# or 137 after its KILL), the run is an error (exit 2) with one line saying
# so; stopped by a signal (lab-rows' 129, 130, 143: make interrupted), it
# leaves no reading, which a later make would take as current.
LAB_ROWS_TIMEOUT ?= 600
$(B)/runs/%.symsplit: $(B)/runs/%.facts $(lab_rows_symsplit_dep) $(SYMSPLIT_DEV)/lab-rows
	$(Q)t=$@.$$$$; timeout --foreground -k 2 $(LAB_ROWS_TIMEOUT) $(SYMSPLIT_DEV)/lab-rows --ran $(lab_rows_symsplit) $(B) $* < $< > $$t 2> $$t.err; rc=$$?; \
	case $$rc in 124|137) echo "lab-rows: $*: stopped after $(LAB_ROWS_TIMEOUT) s (LAB_ROWS_TIMEOUT)" >> $$t.err; rc=2 ;; \
	129|130|143) rm -f $$t $$t.err; exit $$rc ;; esac; echo $$rc > $$t.rc; \
	mv -f $$t.err $@.err && mv -f $$t.rc $@.rc && exec mv -f $$t $@
TEST_RUNS += $(LAB_ROWS_LABS:%=$(B)/runs/%.symsplit)
test-runs: $(LAB_ROWS_LABS:%=$(B)/runs/%.symsplit)
# make lab-rows-LAB: that reading, with lab-rows' own exit status
$(LAB_ROWS_LABS:%=lab-rows-%): lab-rows-%: $(B)/runs/%.symsplit
	$(Q)cat $< && cat $<.err >&2 && read -r rc < $<.rc && exit $$rc
.PHONY: $(LAB_ROWS_LABS:%=lab-rows-%)
