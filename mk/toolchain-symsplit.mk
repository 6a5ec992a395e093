# make check-toolchains also asks symsplit about each row of each column:
# the host's symsplit reads the files the column built and its reading is
# set against the row's derived verdict (tools/symsplit/dev/lab-rows; the
# table marks a disagreement, expected/toolchain-differences lists the known
# ones). Each column's facts need symsplit built first.
$(call tc_targets,$(TOOLCHAINS)): $(SYMSPLIT)
tc-facts/%: export TC_SYMSPLIT := $(abspath $(SYMSPLIT))
