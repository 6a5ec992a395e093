# make deps: every Debian package the suite uses; the fragments and the
# labs add theirs to DEPS_PACKAGES.
# a|b: the first of these the release has (scripts/deps).
DEPS_PACKAGES := gcc binutils make bats bats-assert bats-support parallel clang ccache
DEPS_PACKAGES += $(sort $(foreach t,$(TC_COLUMNS),$(call tc_package,$(lastword $(subst :, ,$t)))))
# git: test/frame.bats keeps its copy of the tree as a repository, to ask
# which files a change touched (a tree unpacked from an archive has no git).
DEPS_PACKAGES += git
# libc6-dev: the C headers; only clang's dependencies brought them in.
DEPS_PACKAGES += libc6-dev
# DEPS_COMMANDS: what make deps runs after installing the list, for a package
# a list cannot name (survey's npm: only when no npm is installed), so that a
# user's make test after root's make deps finds everything. Each entry is
# "&& { <command>; }".
DEPS_COMMANDS :=

deps:
	$(Q)$(SCRIPTS)/deps $(foreach p,$(sort $(DEPS_PACKAGES)),'$p') $(DEPS_COMMANDS)
# make deps-cross: the aarch64 column's tools, asked for by name (make deps
# leaves them out): the cross compiler and binutils, the target's C library,
# and the static user-mode emulator that runs its programs. scripts/deps, as
# for make deps: as root one announced install; as a user the apt line.
CROSS_PACKAGES := gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user-static
deps-cross:
	$(Q)$(SCRIPTS)/deps --for 'the aarch64 column (TOOLCHAINS="... aarch64-linux-gnu-gcc:bfd")' $(CROSS_PACKAGES)
.PHONY: deps deps-cross
