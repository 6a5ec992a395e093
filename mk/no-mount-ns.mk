# make test-no-mount-ns: make test on a machine where no mount namespace can
# be made and nothing mounted (an unprivileged container, a build sandbox),
# under a seccomp filter that says EPERM to those system calls
# (scripts/no-mount-ns.c, libseccomp). Every row and test that needs a
# private mount namespace must skip, naming why; nothing may fail. Its own
# build directory ($(B)/no-mount-ns/build): the lab runs make test keeps
# are made anew under the filter, not taken from a run that could mount.
# Not part of make test: it is a second make test (the compiles come from
# the shared compiler cache).
NO_MOUNT_NS := $(B)/no-mount-ns/no-mount-ns
$(NO_MOUNT_NS): $(SCRIPTS)/no-mount-ns.c
	$(Q)$(CC) $(BASE_CFLAGS) -o $@ $< -lseccomp
# deps first: libseccomp-dev is one of make deps' packages (rxe's sandbox).
# make -n: a make line runs even then; here it would start the filter and a
# make test, so the recipe is only printed.
test-no-mount-ns: deps
ifeq ($(DRY_RUN),)
	+$(Q)$(MAKE) --no-print-directory $(NO_MOUNT_NS)
	@echo "make test-no-mount-ns: make test with mount namespaces denied (seccomp), in $(B)/no-mount-ns/build"
	+$(Q)$(B_ABS)/no-mount-ns/no-mount-ns $(MAKE) --no-print-directory B=$(B_ABS)/no-mount-ns/build test
else
	$(B_ABS)/no-mount-ns/no-mount-ns make B=$(B_ABS)/no-mount-ns/build test
endif
.PHONY: test-no-mount-ns
HELP_LINES += "  make test-no-mount-ns   make test where no mount namespace can be made (seccomp denies it): the rows and tests that need one skip"
