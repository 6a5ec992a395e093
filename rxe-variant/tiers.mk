# Entry points: make rxe [ROW=<row>] [RXE_TIER=emulated|kernel|vm],
# make rxe-vm, make evidence-rxe.

RXE_TIERS := emulated kernel vm
# rxe_tiers LAB,ROWS,EVIDENCE: lab_entry's runner for rxe. The rows run in
# every selected tier that can run here (tiers.sh says which ran and why one
# was skipped); with EVIDENCE the emulated tier runs with the facts instead.
# Without rdma-core the build stops first, saying what to install
# (rxe-variant/rdma-core-facts).
rxe_tiers = $(if $3,sh $(RXE_SRC)/evidence.sh $(RXE_B) $(RXE_ABI) $2,sh $(RXE_SRC)/tiers.sh $(RXE_B) "$(RXE_TIER)" $2) | $(SCRIPTS)/verdict --must-run

# make rxe [ROW=<row>] [RXE_TIER=emulated|kernel|vm] [EVIDENCE=1],
# make evidence-rxe, make rxe-vm (RXE_ROW= is the older name of ROW=).
$(eval $(call lab_entry,rxe,RXE_ROW,rxe-build,rxe_tiers))
$(call refuse,tier,$(RXE_TIER),all $(RXE_TIERS))
ROW_GOALS += rxe-vm
$(if $(filter rxe-vm,$(MAKECMDGOALS)),$(call refuse,row,$(rxe.selected),$(rxe.rows)))
rxe-vm: RXE_TIER = vm
rxe-vm: rxe
.PHONY: rxe-vm
# Goldens: the emulated tier's run and the VM tier's (make bless LAB=rxe).
rxe.goldens := rxe:RXE_TIER=emulated rxe-vm:RXE_TIER=vm

# Toolchain regression mode runs each lab under every toolchain in its own
# build dir; the VM tier's kernel cache is shared by all of them, so it is
# downloaded once. For rxe the check runs the emulated tier with its evidence
# (evidence-rxe), so baselines also hold the provider's binding facts; the VM
# tier stays out (a guest boot per toolchain).
RXE_VM_CACHE ?= $(abspath $(RXE_B))/vm-cache
export RXE_VM_CACHE
rxe.check = evidence-rxe RXE_TIER=emulated
# Not in a cross compiler's column (scripts/toolchain-facts says so there):
# the rows link this machine's rdma-core, and every tier runs on this
# machine's kernel (a seccomp sandbox, rdma_rxe, a VM of this architecture).
rxe.native-only := the rxe rows link this machine's rdma-core and run on its kernel (seccomp sandbox, rdma_rxe, a VM of this architecture)

HELP_LINES += "  make rxe          the incident on real rdma-core (ROW=<row>, RXE_TIER=emulated|kernel|vm)"
HELP_LINES += "  make rxe-vm       the rxe rows inside a QEMU guest with a real soft-RoCE device"
FIXED_ROWS += rxe:fix-drop-duplicate rxe:fix-static-canonical
# make check and make fixed run single rows through the shared runner: one
# row, emulated tier, no header (run_rows prints it); in the rows'
# environment (scripts/row-env; the sandbox starts the program itself).
rxe.run = $(SCRIPTS)/row-env --bare SYSFS_PATH=$(call shq,$(abspath $(RXE_B)/sysfs)) sh $(RXE_SRC)/sandbox.sh $(RXE_B)/dev-stage $(RXE_B)/no-rdma-netlink $(RXE_B)/$1/rxe-lab
# qemu and busybox too: make test runs the VM tier wherever they can be installed.
# pkg-config finds libibverbs; xz and zstd unpack the guest kernel and its
# modules (Debian 13's kernel is zstd, its modules .ko.xz); mount is its
# own package, not essential in Debian 13 (a minimal root lacks it), and so
# is procps, whose pgrep the tests use to see that no QEMU is left.
DEPS_PACKAGES += libibverbs-dev ibverbs-providers patchelf libseccomp-dev libnl-route-3-dev util-linux mount procps iproute2 qemu-system-x86 busybox-static pkg-config xz-utils zstd
# The kernel package (~70 MB) is downloaded once into the default cache:
# make clean keeps it, make distclean removes it.
DOWNLOAD_CACHES += rxe-variant/vm-cache
