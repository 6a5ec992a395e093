# Every goal of this make: mk/first-run installs the compiler, binutils
# and the C headers (scripts/deps: as root with one line saying so; as a
# user the apt line to run as root, and exit 3), then runs the same make
# again. A recipe, and not a recursive one, so make -n installs nothing.
first_goals := $(MAKECMDGOALS)
$(firstword $(first_goals)):
	$(Q)mk/first-run $(call shq,$(CC)) $(call shq,$(LD)) $(foreach g,$(first_goals),$(call shq,$g))
ifneq ($(word 2,$(first_goals)),)
$(wordlist 2,$(words $(first_goals)),$(first_goals)): $(firstword $(first_goals))
	@:
endif
.PHONY: $(first_goals)
