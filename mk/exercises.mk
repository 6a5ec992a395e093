# make exercises [LAB=<lab>]: per lab, a sheet to predict each row on and an
# answer key derived from a run of every row (scripts/exercises), in
# $(B)/exercises/; docs/workshop.md says which rows to run in what order.
exercises: $(call entries_prereqs,$(CHECK_ENTRIES))
	@mkdir -p $(B)/exercises
	$(Q)$(foreach l,$(or $(LAB),$(LABS)),$(call run_rows,$l,$($l.rows)) > $(B)/exercises/$l.run && \
	  $(SCRIPTS)/exercises $l $($l.table) $(B)/exercises/$l.run $(B)/exercises &&) true
.PHONY: exercises
