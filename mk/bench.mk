bench:
	$(Q)$(SCRIPTS)/bench $(B_ABS)/bench $(call shq,$(TOOLCHAINS))
.PHONY: bench
# make count-processes: how many processes make test starts, phase by phase
# and bats file by file, from clean in $(B)/count (a PID namespace's pids:
# root only; about as long as a make test with one job).
count-processes: deps
	$(Q)$(tc_handoff) $(SCRIPTS)/count-test $(B_ABS)/count $(sort $(wildcard test/*.bats))
.PHONY: count-processes
