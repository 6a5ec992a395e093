# make check-upgrade SUITE=<debian suite>: what upgrading this machine to
# that release changes (scripts/check-upgrade; root only). Its root is kept
# in UPGRADE_CACHE (default /var/cache/split-state-lab/<suite>). FULL=1 also
# runs the whole make test of the committed tree inside that root.
check-upgrade:
	$(recurse)$(Q)$(SCRIPTS)/check-upgrade $(call shq,$(SUITE)) $(call shq,$(B)) $(call shq,$(TOOLCHAINS)) $(call shq,$(FULL))
.PHONY: check-upgrade
HELP_LINES += "  make check-upgrade SUITE=trixie [FULL=1]   what upgrading to that Debian release changes (root); FULL=1 runs make test there too"

# make check-fresh [SUITE=<suite>]: what a newcomer sees on a fresh Debian
# root of that release (default: this machine's): the committed tree in
# /root/src, make matrix then make test as root; then, after root's make
# deps, the same two as an unprivileged user with the tree in its home;
# then as root in a plain chroot, / no mount point; then as root under
# make test-no-mount-ns, no mount namespace at all (CHECK_FRESH_PASSES). In
# an overlay over a pristine root kept in UPGRADE_CACHE (scripts/check-fresh;
# root only): what a new machine lacks, a green make test here cannot show.
check-fresh:
	$(Q)$(SCRIPTS)/check-fresh $(call shq,$(SUITE)) $(call shq,$(B))
.PHONY: check-fresh
HELP_LINES += "  make check-fresh [SUITE=bookworm] [CHECK_FRESH_PASSES='chroot nomounts']   the README's two commands on a fresh Debian root, as root in /root/src, as a user, in a plain chroot and with mount namespaces denied (root); CHECK_FRESH_PASSES picks among root user chroot nomounts"
