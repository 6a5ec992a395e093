# make check-bindings-labs: symsplit --bindings against the loader's record of
# each lab row's run (route-b, scope-capture: the records their evidence
# runs keep) and of each make realworld case that ran in this build
# directory (tools/symsplit/dev/lab-bindings, the comparison check-bindings
# makes). Rows whose lab keeps no whole record are listed, with that reason.
check-bindings-labs: $(SYMSPLIT) $(B)/runs/route-b.out $(B)/runs/scope-capture.out
	$(Q)$(SYMSPLIT_DEV)/lab-bindings $(SYMSPLIT) $(B) $(B)/check-bindings-labs
.PHONY: check-bindings-labs
HELP_LINES += "  make check-bindings-labs   symsplit --bindings against the loader's record of every lab row's run (and of make realworld's cases)"
