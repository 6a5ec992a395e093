# scope-capture/: the production topology restaged (see README.md). Variants
# live in scope-capture/rows; each builds its own directory
# $(B)/scope-capture/<id>/ with app, libbundle.so (copy A), libregistryB.so.1
# (copy B), libproviderB.so and libnccl_like.so.
SCOPE_SRC := scope-capture
SCOPE_HDR := $(SCOPE_SRC)/registry.h
# Row same-soname keeps copy A in bundled/: libbundle.so finds it there by
# its own DT_RPATH (not DT_RUNPATH: the environment cannot swap it).
SCOPE_RPATH_BUNDLED := -Wl,--disable-new-dtags,-rpath,'$$ORIGIN/bundled'

SCOPE_TABLE := $(SCOPE_SRC)/rows $(SCOPE_SRC)/lab.mk
$(call read_table,scope-capture,$(SCOPE_SRC)/rows)

# scope_row ID: the objects every variant has. Flags in these recipes are
# deferred ($$) so that '$ORIGIN' survives $(eval). -z now everywhere: every
# binding is made at load time, so LD_DEBUG=bindings shows register_driver's.
define scope_row
$(B)/scope-capture/$1/libregistryB.so.1: $(SCOPE_SRC)/registry.c $(SCOPE_HDR) $(SCOPE_SRC)/verb.map $(SCOPE_TABLE)
	@mkdir -p $$(@D)
	$$(Q)$$(CC) $$(LDFLAG_FUSE) $$(BASE_CFLAGS) $$(PIC_CFLAGS) -DREG_WHO=registryB -DREG_COPY=B -shared \
		-Wl,-soname,libregistryB.so.1 -Wl,--version-script=$(SCOPE_SRC)/verb.map $$(LINK_NOW) -o $$@ $$<

# The system provider: DT_NEEDED on copy B (--no-as-needed keeps the entry
# although nothing else would need it), found there by its own RPATH.
$(B)/scope-capture/$1/libproviderB.so: $(SCOPE_SRC)/provider.c $(SCOPE_HDR) $(B)/scope-capture/$1/libregistryB.so.1
	$$(Q)$$(CC) $$(LDFLAG_FUSE) $$(BASE_CFLAGS) $$(PIC_CFLAGS) -DPROVIDER_DEVICE=mlx5_from_providerB -shared \
		-Wl,-soname,libproviderB.so -o $$@ $$< -L$$(@D) -Wl,--no-as-needed -l:libregistryB.so.1 $$(RPATH_ORIGIN) $$(LINK_NOW)

# The NCCL-like consumer links no registry. Its RPATH matters: dlopen
# searches the calling object's DT_RPATH for the registry and the provider.
$(B)/scope-capture/$1/libnccl_like.so: $(SCOPE_SRC)/nccl_like.c $(SCOPE_TABLE)
	@mkdir -p $$(@D)
	$$(Q)$$(CC) $$(LDFLAG_FUSE) $$(BASE_CFLAGS) $$(PIC_CFLAGS) $$(scope-capture.$1.nccl-cflags) -shared \
		-Wl,-soname,libnccl_like.so -o $$@ $$< -ldl $$(RPATH_ORIGIN) $$(LINK_NOW)

# --no-as-needed: libbundle.so must be DT_NEEDED, which is what puts copy A
# in the global scope from startup.
$(B)/scope-capture/$1/app: $(SCOPE_SRC)/app.c $(addprefix $(B)/scope-capture/$1/,libbundle.so libnccl_like.so libregistryB.so.1 libproviderB.so)
	$$(Q)$$(CC) $$(LDFLAG_FUSE) $$(BASE_CFLAGS) $$(EXE_PIE_CFLAGS) $$(EXE_PIE_LDFLAGS) $$(scope-capture.$1.app-cflags) \
		-o $$@ $$< -L$$(@D) -Wl,--no-as-needed -lbundle -lnccl_like $$(RPATH_ORIGIN) $$(LINK_NOW)
endef

# scope_bundle_merged ID: copy A, the bundled provider and the in-house
# consumer in one libbundle.so; the row's version script decides what of the
# registry it exports (bundle-exported/omnibus/fixed.map).
define scope_bundle_merged
$(B)/scope-capture/$1/libbundle.so: $(addprefix $(SCOPE_SRC)/,registry.c provider.c inhouse.c bundle-$(scope-capture.$1.bundle).map) $(SCOPE_HDR) $(SCOPE_TABLE)
	@mkdir -p $$(@D)
	$$(Q)$$(CC) $$(LDFLAG_FUSE) $$(BASE_CFLAGS) $$(PIC_CFLAGS) -DREG_WHO=bundle -DREG_COPY=A -DPROVIDER_DEVICE=mlx5_bundled -shared \
		-Wl,-soname,libbundle.so -Wl,--version-script=$(SCOPE_SRC)/bundle-$(scope-capture.$1.bundle).map $$(LINK_NOW) -o $$@ $$(filter %.c,$$^)
endef

# scope_bundle_soname ID: copy A on its own, under copy B's SONAME, in
# bundled/; libbundle.so keeps the in-house consumer and the bundled
# provider and is DT_NEEDED on it.
define scope_bundle_soname
$(B)/scope-capture/$1/bundled/libregistryB.so.1: $(SCOPE_SRC)/registry.c $(SCOPE_HDR) $(SCOPE_SRC)/verb.map $(SCOPE_TABLE)
	@mkdir -p $$(@D)
	$$(Q)$$(CC) $$(LDFLAG_FUSE) $$(BASE_CFLAGS) $$(PIC_CFLAGS) -DREG_WHO=bundle -DREG_COPY=A -shared \
		-Wl,-soname,libregistryB.so.1 -Wl,--version-script=$(SCOPE_SRC)/verb.map $$(LINK_NOW) -o $$@ $$<

$(B)/scope-capture/$1/libbundle.so: $(addprefix $(SCOPE_SRC)/,provider.c inhouse.c) $(SCOPE_HDR) $(B)/scope-capture/$1/bundled/libregistryB.so.1
	$$(Q)$$(CC) $$(LDFLAG_FUSE) $$(BASE_CFLAGS) $$(PIC_CFLAGS) -DPROVIDER_DEVICE=mlx5_bundled -shared -Wl,-soname,libbundle.so \
		-o $$@ $$(filter %.c,$$^) -L$$(@D)/bundled -Wl,--no-as-needed -l:libregistryB.so.1 $$(SCOPE_RPATH_BUNDLED) $$(LINK_NOW)
endef

# Every row gets scope_row; copy A is built by scope_bundle_soname for
# bundle=soname rows and by scope_bundle_merged for every other row.
$(foreach r,$(scope-capture.rows),$(eval $(call scope_row,$r)))
$(foreach r,$(scope-capture.rows),$(if $(filter soname,$(scope-capture.$r.bundle)),$(eval $(call scope_bundle_soname,$r)),$(eval $(call scope_bundle_merged,$r))))

# preload=<file>: that file of the row's directory in LD_PRELOAD (absolute:
# the loader takes LD_PRELOAD paths as given); every other row runs without.
scope_preload = $(if $(scope-capture.$1.preload),$(B_ABS)/scope-capture/$1/$(scope-capture.$1.preload))
scope-capture.run = env -u LD_LIBRARY_PATH -u LD_PRELOAD $(if $(call scope_preload,$1),LD_PRELOAD=$(call scope_preload,$1)) $(B)/scope-capture/$1/app
scope-capture.evidence = $(SCRIPTS)/evidence $(if $(call scope_preload,$1),--preload $(call scope_preload,$1)) register_driver $(B)/scope-capture/$1/app \
	$(addprefix $(B)/scope-capture/$1/,libbundle.so $(if $(filter soname,$(scope-capture.$1.bundle)),bundled/libregistryB.so.1) libproviderB.so); \
	$(SCOPE_SRC)/loader-facts $(B)/scope-capture/$1 $(scope-capture.$1.preload)

# make scope-capture [ROW=<id>] [EVIDENCE=1], make evidence-scope-capture
$(eval $(call lab_entry,scope-capture,VARIANT,$(B)/scope-capture/%/app))
FIXED_ROWS += scope-capture:fixed
HELP_LINES += "  make scope-capture  the production topology: a registration captured by the global scope (ROW=<id> for one, EVIDENCE=1 for the facts)"
