# Toolchain regression mode: every lab built and run under each toolchain, in
# parallel under one jobserver, into $(B)/toolchains/<cc+ld>/ (TOOLCHAINS_DIR), each compared
# with the expect cells. A cross compiler's column (aarch64-linux-gnu-gcc:bfd)
# runs its programs under RUN; a lab that sets LAB.native-only to a reason is
# left out of such a column with that reason, or only its rows listed in
# LAB.native-only-rows are. The columns are the toolchains table's
# (toolchains, in its order; make toolchains lists them); the aarch64 column
# is asked for by name (TOOLCHAINS="... aarch64-linux-gnu-gcc:bfd"): make
# deps does not install the cross tools (make deps-cross does).
TOOLCHAINS ?= $(TC_COLUMNS)
# Where the columns go: TOOLCHAINS_DIR=<dir> keeps a check's columns apart
# from $(B)/toolchains while the make's own toolchain still reads the labs'
# build and runs in $(B) (cross.bats' aarch64 column beside gcc:bfd: the
# gcc:bfd labs make test has built, not a second build of them).
TOOLCHAINS_DIR ?= $(B)/toolchains
tc_targets = $(foreach t,$1,tc-facts/$(subst :,+,$t))
# The toolchain this make was started with builds where the labs always do,
# $(B), so the check shares its work with `make matrix` and `make test`.
tc_build = $(if $(filter $(CC)+$(LD),$1),$(B),$(TOOLCHAINS_DIR)/$1/build)
$(TOOLCHAINS_DIR)/expect.tsv: $(MAKEFILE_LIST) $(foreach l,$(LABS),$(wildcard $l/rows))
	$(Q)$(dir_made) && { $(foreach e,$(call check_entries,$(LABS)),$(call expect_line,$e)) } $(into_target)
# Columns of one compiler compile the same objects (no linker flag reaches a
# compile): under check-toolchains a column waits for the first column of
# its compiler in TOOLCHAINS, its lead, and starts from the objects the
# lead's compiles wrote in the labs' directories, the rows' hard links to
# them and the archives made of them alone (toolchain-facts --objects-from),
# so that only its links, and what holds a link's output, are its own. The
# other columns of a compiler still run side by side.
tc_cc = $(firstword $(subst +, ,$1))
tc_lead = $(if $(filter check-toolchains,$(MAKECMDGOALS)),$(filter-out $1,$(firstword $(foreach t,$(subst :,+,$(TOOLCHAINS)),$(if $(filter $(call tc_cc,$1),$(call tc_cc,$t)),$t)))))
$(foreach t,$(subst :,+,$(TOOLCHAINS)),$(if $(call tc_lead,$t),$(eval tc-facts/$t: | tc-facts/$(call tc_lead,$t))))
tc_objects_from = $(if $(call tc_lead,$1),--objects-from $(call tc_build,$(call tc_lead,$1)) '$(foreach l,$(or $(LAB),$(LABS)),$(patsubst %/,%,$(dir $($l.table))))')
tc-facts/%: FORCE
	$(recurse)$(Q)$(SCRIPTS)/toolchain-facts $(call tc_objects_from,$*) $(subst +,:,$*) $(TOOLCHAINS_DIR)/$* $(call tc_build,$*) $(foreach l,$(or $(LAB),$(LABS)),$(call shq,$l=$(or $($l.check),$l EVIDENCE=1)$(if $($l.native-only),|$($l.native-only)|$($l.native-only-rows)|$(filter-out $($l.native-only-rows),$($l.rows)))))

check-toolchains: $(call tc_targets,$(TOOLCHAINS)) $(TOOLCHAINS_DIR)/expect.tsv
	$(Q)$(SCRIPTS)/toolchain-table $(TOOLCHAINS_DIR)/expect.tsv $(TOOLCHAINS_DIR) $(TOOLCHAINS)

# make baseline OUT=file: record this toolchain's facts (TOOLCHAINS= for more);
# make compare BASELINE=file: rerun the toolchains the file names, print changes.
# LAB=<lab> limits either to one lab.
# Their arguments are checked while make reads this file, before any
# toolchain is built: one line and exit 2.
$(if $(filter baseline,$(MAKECMDGOALS)),$(if $(strip $(OUT)),$(if $(wildcard $(dir $(abspath $(OUT)))),$(if $(wildcard $(OUT)/.),$(error make baseline: OUT='$(OUT)' is a directory; name a file)),$(error make baseline: OUT='$(OUT)': no directory $(dir $(OUT)) to write it in)),$(error make baseline needs OUT=<file>)))
$(if $(filter compare,$(MAKECMDGOALS)),$(if $(strip $(BASELINE)),$(if $(shell test -f $(call shq,$(BASELINE)) && test -r $(call shq,$(BASELINE)) && echo y),,$(error compare: no baseline file '$(BASELINE)' (make baseline OUT=<file> first))),$(error make compare needs BASELINE=<file> (from make baseline OUT=<file>))))
baseline: $(call tc_targets,$(if $(filter command line,$(origin TOOLCHAINS)),$(TOOLCHAINS),$(CC):$(LD)))
	$(Q)$(SCRIPTS)/baseline $(TOOLCHAINS_DIR) $(if $(filter command line,$(origin TOOLCHAINS)),$(TOOLCHAINS),$(CC):$(LD)) > $(OUT)
	@echo "baseline: $$(grep -vc '^#' $(OUT)) facts written to $(OUT)"

compare_tcs = $(if $(wildcard $(BASELINE)),$(shell awk '!/^\#/ && NF { print $$1 }' $(BASELINE) | sort -u))
compare: $(call tc_targets,$(compare_tcs))
	$(Q)$(SCRIPTS)/compare $(BASELINE) $(TOOLCHAINS_DIR)
.PHONY: check-toolchains baseline compare
