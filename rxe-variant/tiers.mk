# Entry points: make rxe [RXE_ROW=<row>] [RXE_TIER=emulated|kernel|vm],
# make rxe-vm, make evidence-rxe.

RXE_TIERS := emulated kernel vm
rxe.unknown = $(filter-out all $(RXE_ROWS),$(RXE_ROW))$(filter-out all $(RXE_TIERS),$(RXE_TIER))
# One line naming what is missing, and failure, when rdma-core is not there.
rxe_need_rdma = $(if $(RXE_ABI),,@echo "rxe-variant needs rdma-core: apt-get install libibverbs-dev ibverbs-providers patchelf libseccomp-dev" >&2; exit 1)

rxe: $(if $(rxe.unknown),,toolchain-check rxe-build)
	$(call check_name,row,$(RXE_ROW),all $(RXE_ROWS))
	$(call check_name,tier,$(RXE_TIER),all $(RXE_TIERS))
	$(rxe_need_rdma)
	$(Q)$(SCRIPTS)/toolchain $(CC) $(LD)
	$(Q)sh $(RXE_SRC)/tiers.sh $(RXE_B) "$(RXE_TIER)" $(RXE_SEL) | $(SCRIPTS)/verdict

rxe-vm: RXE_TIER = vm
rxe-vm: rxe

# Why the capture happens: ld.so's binding of the provider's import, and the
# facts in the ELF files behind it.
evidence-rxe: $(if $(rxe.unknown),,rxe-build)
	$(call check_name,row,$(RXE_ROW),all $(RXE_ROWS))
	$(rxe_need_rdma)
	$(Q)sh $(RXE_SRC)/evidence.sh $(RXE_B) $(RXE_ABI) $(RXE_SEL) | $(SCRIPTS)/verdict

.PHONY: rxe rxe-vm evidence-rxe

# Toolchain regression mode runs each lab under every toolchain in its own
# build dir; the VM tier's kernel cache is shared by all of them, so it is
# downloaded once. For rxe the check runs the emulated tier with its evidence
# (evidence-rxe), so baselines also hold the provider's binding facts; the VM
# tier stays out (a guest boot per toolchain).
RXE_VM_CACHE ?= $(abspath $(RXE_B))/vm-cache
export RXE_VM_CACHE
TOOLCHAIN_LABS += rxe
rxe.check = evidence-rxe
EVIDENCE_TARGETS += evidence-rxe

HELP_LINES += "  make rxe          the incident on real rdma-core (RXE_ROW=<row>, RXE_TIER=emulated|kernel|vm)"
HELP_LINES += "  make rxe-vm       the rxe rows inside a QEMU guest with a real soft-RoCE device"
TEST_PREREQS += rxe-build
FIXED_ROWS += rxe:fix-drop-duplicate rxe:fix-static-canonical
# make fixed runs single rows through the shared runner: one row, emulated
# tier, no header (run_rows prints it).
rxe.run = SYSFS_PATH=$(abspath $(RXE_B)/sysfs) sh $(RXE_SRC)/sandbox.sh $(RXE_B)/dev-stage $(RXE_B)/no-rdma-netlink $(RXE_B)/$1/rxe-lab
$(foreach r,$(RXE_ROWS),$(eval rxe.$r.prereqs := rxe-build))
# qemu and busybox too: make test runs the VM tier wherever they can be installed.
# pkg-config finds libibverbs; xz and zstd unpack the guest kernel and its
# modules (Debian 13's kernel is zstd, its modules .ko.xz); mount is its
# own package, not essential in Debian 13 (a minimal root lacks it), and so
# is procps, whose pgrep the tests use to see that no QEMU is left.
DEPS_PACKAGES += libibverbs-dev ibverbs-providers patchelf libseccomp-dev libnl-route-3-dev util-linux mount procps iproute2 qemu-system-x86 busybox-static pkg-config xz-utils zstd
