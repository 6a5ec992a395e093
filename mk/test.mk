# make test: install what is missing, build everything the tests use in
# parallel, then run every bats file and close with one counted line. The
# tests' own make calls find the build directory in B (exported, absolute).
# The bats files run JOBS at a time; the three that take longest (every lab
# under every toolchain, symsplit over the labs and the sweep, the tree-copy
# tests of the frame) start first.
TEST_FIRST := test/toolchains.bats test/symsplit-labs.bats test/frame.bats
# Progress: a line per phase and per lab built (test-built/<lab>, below),
# and every 15 s while the build goes on (rxe's build is quiet for a minute
# and more on a fresh machine), then run-bats' line per test file.
test: deps
	@echo "make test: building what the tests use ($(words $(LABS)) labs, symsplit), $(JOBS) jobs at a time"
	+$(Q)$(SCRIPTS)/heartbeat "make test: building" $(MAKE) --no-print-directory $(addprefix test-built/,$(LABS)) $(filter-out $(foreach l,$(LABS),$(call $l.prereq,$($l.rows))),$(TEST_PREREQS)) $(TEST_RUNS)
	@echo "make test: running the tests"
	$(Q)$(run_bats)
run_bats = B=$(B_ABS) BATS_JOBS=$(JOBS) $(tc_handoff) $(SCRIPTS)/run-bats $(TEST_FIRST) $(filter-out $(TEST_FIRST),$(sort $(wildcard test/*.bats)))
# The toolchain read once for all the makes the tests start (make test's own
# make reads none: its make deps installs the compiler): the words and the
# lines a lab's run starts with, each of which is about ten processes more,
# at ~250 makes, than a test's make needs.
tc_handoff = $(if $(tc_words),,SPLIT_STATE_LAB_TC=$(call shq,$(tc_key)) SPLIT_STATE_LAB_TC_WORDS="$$($(SCRIPTS)/toolchain --make $(call shq,$(CC)) $(call shq,$(LD)))") \
	SPLIT_STATE_LAB_TC_LINES="$$($(SCRIPTS)/toolchain $(call shq,$(CC)) $(call shq,$(LD)))"
$(foreach l,$(LABS),$(eval test-built/$l: $$(call $l.prereq,$$($l.rows)) ; @echo "make test: built $l"))
.PHONY: $(addprefix test-built/,$(LABS))

# make test's phases, one make each for make bench: what the bats files use
# built (test-build), each lab's captured run (test-runs), the bats files
# (test-bats).
test-build: $(TEST_PREREQS)
test-runs: $(TEST_RUNS)
test-bats:
	$(Q)$(run_bats)
.PHONY: test test-build test-runs test-bats
