evidence: $(EVIDENCE_TARGETS)

# make check [LAB=<lab>] [ROW=<id>...]: every row of every lab (or of one; or the rows named ROW) run, its facts
# derived by scripts/verdict and compared with its table's expect cell by
# scripts/check. make fixed: the same check over the fix ladder and every
# lab's FIXED_ROWS. Row ids repeat across labs: a row is <lab>:<row> here.
lab_of = $(word 1,$(subst :, ,$1))
row_of = $(word 2,$(subst :, ,$1))
expect_line = printf '%s\t%s\t%s\n' $(call shq,$1) $(call shq,$($(call lab_of,$1).$(call row_of,$1).expect)) $(call shq,$($(call lab_of,$1).$(call row_of,$1).what));
# check_rows OUT,ENTRIES: run the lab:row entries (each known to its lab,
# or one line and exit 2), keep the run in OUT, then compare.
define check_rows
	$(Q)$(toolchain_report)
	@mkdir -p $(dir $1)
	$(Q){ $(foreach e,$2,$(call run_rows,$(call lab_of,$e),$(call row_of,$e),,$(call lab_of,$e):);) } | tee $1
	$(Q){ $(foreach e,$2,$(call expect_line,$e)) } > $1.expect
	$(Q)echo; $(SCRIPTS)/verdict --facts < $1 | $(SCRIPTS)/check $1.expect $1
endef
check_entries = $(foreach l,$1,$(addprefix $l:,$($l.rows)))
entries_prereqs = $(foreach e,$1,$(call $(call lab_of,$e).prereq,$(call row_of,$e)))
# row_filter ENTRIES: the lab:row entries whose row ROW names (all without ROW);
# refuse_rows GOAL,ENTRIES: stop make in one line when GOAL is asked for and a
# word of ROW is the row of none of ENTRIES.
row_filter = $(if $(ROW),$(foreach e,$1,$(if $(filter $(call row_of,$e),$(ROW)),$e)),$1)
refuse_rows = $(if $(filter $1,$(MAKECMDGOALS)),$(call refuse_rows_in,$1,$(filter-out $(foreach e,$2,$(call row_of,$e)),$(ROW)),$(sort $(foreach e,$2,$(call row_of,$e)))))
refuse_rows_in = $(if $2,$(error unknown row '$(firstword $2)' for make $1$(if $(LAB), LAB=$(LAB)) (known: $3)))
CHECK_ENTRIES = $(call row_filter,$(call check_entries,$(or $(LAB),$(LABS))))
FIXED_ENTRIES = $(call row_filter,$(call check_entries,fixes) $(FIXED_ROWS))
$(call refuse_rows,check,$(call check_entries,$(or $(LAB),$(LABS))))
$(call refuse_rows,fixed,$(call check_entries,fixes) $(FIXED_ROWS))
$(call refuse,lab,$(LAB),$(LABS))
# Any other goal refuses ROW in one line rather than run more than asked:
# make bless writes whole goldens, make evidence runs every lab (whose rows
# differ), make check-toolchains whole columns.
row_goals_refused = $(filter-out $(ROW_GOALS),$(or $(MAKECMDGOALS),$(.DEFAULT_GOAL)))
$(if $(strip $(ROW)),$(if $(row_goals_refused),$(error ROW= is not taken by make $(firstword $(row_goals_refused)): only make <lab>, evidence-<lab>, check, fixed and diagrams run single rows)))
# A lab's older name for ROW (ROW_ALIASES: CONFIG=, VARIANT= ...) is taken
# only by that lab's own goals (<lab>, evidence-<lab>, <lab>-<tier>); given on
# the command line to any other goal it is refused too.
alias_refused = $(filter-out $2 evidence-$2 $(filter $2-%,$(ROW_GOALS)),$(or $(MAKECMDGOALS),$(.DEFAULT_GOAL)))
$(foreach a,$(ROW_ALIASES),$(if $(filter command line,$(origin $(call lab_of,$a))),$(if $(call alias_refused,$(call lab_of,$a),$(call row_of,$a)),$(error $(call lab_of,$a)= is make $(call row_of,$a)'s older name for ROW= and is not taken by make $(firstword $(call alias_refused,$(call lab_of,$a),$(call row_of,$a))): give ROW=))))
$(if $(filter fixed,$(MAKECMDGOALS)),$(call refuse,lab in FIXED_ROWS,$(foreach e,$(FIXED_ROWS),$(call lab_of,$e)),$(LABS)) \
	$(foreach e,$(FIXED_ROWS),$(call refuse,row of $(call lab_of,$e),$(call row_of,$e),$($(call lab_of,$e).rows))))
check: $(call entries_prereqs,$(CHECK_ENTRIES))
	$(call check_rows,$(B)/check/check.out,$(CHECK_ENTRIES))
fixed: $(call entries_prereqs,$(FIXED_ENTRIES))
	$(call check_rows,$(B)/check/fixed.out,$(FIXED_ENTRIES))

# make bless [LAB=<lab>]: rerun each lab, show how its golden would change,
# and write it, unless a row's derived verdict contradicts its expect cell.
# A lab's goldens: expected/<name>.txt for each <name>:<make args> in
# $(LAB.goldens) (default: expected/<lab>.txt from `make <lab>`).
golden_specs = $(or $($1.goldens),$1:)
bless: $(call entries_prereqs,$(CHECK_ENTRIES))
	@mkdir -p $(B)/bless
	$(recurse)$(Q)$(foreach l,$(or $(LAB),$(LABS)),{ $(foreach e,$(call check_entries,$l),$(call expect_line,$e)) } > $(B)/bless/$l.expect && \
	  $(foreach g,$(call golden_specs,$l),$(sub_make) -s --no-print-directory $l $(subst $(us), ,$(word 2,$(subst :, ,$g))) > $(B)/bless/$(word 1,$(subst :, ,$g)).out && \
	  $(SCRIPTS)/bless $l expected/$(word 1,$(subst :, ,$g)).txt $(B)/bless/$(word 1,$(subst :, ,$g)).out $(B)/bless/$l.expect &&) true &&) true
.PHONY: evidence check fixed bless
