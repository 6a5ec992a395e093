bench:
	$(Q)$(SCRIPTS)/bench $(B_ABS)/bench $(call shq,$(TOOLCHAINS))
.PHONY: bench
