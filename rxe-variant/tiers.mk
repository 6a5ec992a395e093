# Entry points: make rxe [RXE_ROW=<row>] [RXE_TIER=emulated|kernel|vm],
# make rxe-vm, make evidence-rxe.

RXE_TIERS := emulated kernel vm
rxe_check = $(if $(filter-out $(RXE_ROWS),$(RXE_SEL)),$(error unknown row '$(filter-out $(RXE_ROWS),$(RXE_SEL))' (known: $(RXE_ROWS))))$(if $(filter-out all $(RXE_TIERS),$(RXE_TIER)),$(error unknown tier '$(RXE_TIER)' (known: all $(RXE_TIERS))))
rxe_deps = $(if $(RXE_ABI),,$(error rxe-variant needs libibverbs-dev and ibverbs-providers (apt-get install libibverbs-dev ibverbs-providers patchelf libseccomp-dev)))

# pipefail: a failing tier must fail the target even though verdict reads its output.
rxe: rxe-build
	$(call rxe_check)$(call rxe_deps)
	$(Q)if [ -x $(SCRIPTS)/toolchain ]; then $(SCRIPTS)/toolchain; fi
	$(Q)bash -o pipefail -c 'sh $(RXE_SRC)/tiers.sh $(RXE_B) "$(RXE_TIER)" $(RXE_SEL) | $(SCRIPTS)/verdict'

rxe-vm:
	$(Q)$(MAKE) --no-print-directory rxe RXE_TIER=vm

# Why the capture happens: ld.so's binding of the provider's import, and the
# facts in the ELF files behind it.
evidence-rxe: rxe-build
	$(call rxe_check)$(call rxe_deps)
	$(Q)sh $(RXE_SRC)/evidence.sh $(RXE_B) $(RXE_ABI) $(RXE_SEL)

.PHONY: rxe rxe-vm evidence-rxe

HELP_LINES += "  make rxe       the incident on real rdma-core (RXE_ROW=<row>, RXE_TIER=emulated|kernel|vm)"
HELP_LINES += "  make rxe-vm    the rxe rows inside a QEMU guest with a real soft-RoCE device"
TEST_PREREQS += rxe-build
FIXED_ROWS += rxe:fix-drop-duplicate rxe:fix-static-canonical
DEPS_PACKAGES += libibverbs-dev ibverbs-providers patchelf libseccomp-dev libnl-route-3-dev util-linux iproute2
