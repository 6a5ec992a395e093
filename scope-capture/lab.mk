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

# Objects. Most are the same in every row: one compile each (with -c, so
# ccache shares them between toolchains), in $(SC)/objects/. Copy A and copy
# B are one source, registry.c, told apart by -DREG_WHO/-DREG_COPY.
SC := $(B)/scope-capture
SCOPE_OBJ_CFLAGS = $(BASE_CFLAGS) $(PIC_CFLAGS)
$(SC)/objects/registryB.o: $(SCOPE_SRC)/registry.c $(SCOPE_HDR)
	@mkdir -p $(@D)
	$(Q)$(COMPILE) $(SCOPE_OBJ_CFLAGS) -DREG_WHO=registryB -DREG_COPY=B -c $< -o $@
$(SC)/objects/registryA.o: $(SCOPE_SRC)/registry.c $(SCOPE_HDR)
	@mkdir -p $(@D)
	$(Q)$(COMPILE) $(SCOPE_OBJ_CFLAGS) -DREG_WHO=bundle -DREG_COPY=A -c $< -o $@
$(SC)/objects/providerB.o: $(SCOPE_SRC)/provider.c $(SCOPE_HDR)
	@mkdir -p $(@D)
	$(Q)$(COMPILE) $(SCOPE_OBJ_CFLAGS) -DPROVIDER_DEVICE=mlx5_from_providerB -c $< -o $@
$(SC)/objects/provider-bundled.o: $(SCOPE_SRC)/provider.c $(SCOPE_HDR)
	@mkdir -p $(@D)
	$(Q)$(COMPILE) $(SCOPE_OBJ_CFLAGS) -DPROVIDER_DEVICE=mlx5_bundled -c $< -o $@
$(SC)/objects/inhouse.o: $(SCOPE_SRC)/inhouse.c $(SCOPE_HDR)
	@mkdir -p $(@D)
	$(Q)$(COMPILE) $(SCOPE_OBJ_CFLAGS) -c $< -o $@
# The two that a row's columns change.
$(SC)/%/nccl_like.o: $(SCOPE_SRC)/nccl_like.c $(SCOPE_TABLE)
	@mkdir -p $(@D)
	$(Q)$(COMPILE) $(SCOPE_OBJ_CFLAGS) $(scope-capture.$*.nccl-cflags) -c $< -o $@
$(SC)/%/app.o: $(SCOPE_SRC)/app.c $(SCOPE_TABLE)
	@mkdir -p $(@D)
	$(Q)$(COMPILE) $(BASE_CFLAGS) $(EXE_PIE_CFLAGS) $(scope-capture.$*.app-cflags) -c $< -o $@

# scope_row ID: the modules every variant has. Flags in these recipes are
# deferred ($$) so that '$ORIGIN' survives $(eval). -z now everywhere: every
# binding is made at load time, so LD_DEBUG=bindings shows register_driver's.
define scope_row
$(SC)/$1/libregistryB.so.1: $(SC)/objects/registryB.o $(SCOPE_SRC)/verb.map
	@mkdir -p $$(@D)
	$$(Q)$$(CC) $$(LDFLAG_FUSE) -shared -Wl,-soname,libregistryB.so.1 -Wl,--version-script=$(SCOPE_SRC)/verb.map $$(LINK_NOW) -o $$@ $$<

# The system provider: DT_NEEDED on copy B (--no-as-needed keeps the entry
# although nothing else would need it), found there by its own RPATH.
$(SC)/$1/libproviderB.so: $(SC)/objects/providerB.o $(SC)/$1/libregistryB.so.1
	$$(Q)$$(CC) $$(LDFLAG_FUSE) -shared -Wl,-soname,libproviderB.so -o $$@ $$< \
		-L$$(@D) -Wl,--no-as-needed -l:libregistryB.so.1 $$(RPATH_ORIGIN) $$(LINK_NOW)

# The NCCL-like consumer links no registry. Its RPATH matters: dlopen
# searches the calling object's DT_RPATH for the registry and the provider.
$(SC)/$1/libnccl_like.so: $(SC)/$1/nccl_like.o
	$$(Q)$$(CC) $$(LDFLAG_FUSE) -shared -Wl,-soname,libnccl_like.so -o $$@ $$< -ldl $$(RPATH_ORIGIN) $$(LINK_NOW)

# --no-as-needed: libbundle.so must be DT_NEEDED, which is what puts copy A
# in the global scope from startup.
$(SC)/$1/app: $(SC)/$1/app.o $(addprefix $(SC)/$1/,libbundle.so libnccl_like.so libregistryB.so.1 libproviderB.so)
	$$(Q)$$(CC) $$(LDFLAG_FUSE) $$(EXE_PIE_LDFLAGS) -o $$@ $$< -L$$(@D) -Wl,--no-as-needed -lbundle -lnccl_like $$(RPATH_ORIGIN) $$(LINK_NOW)
endef

# scope_bundle_merged ID: copy A, the bundled provider and the in-house
# consumer in one libbundle.so; the row's version script decides what of the
# registry it exports (bundle-exported/omnibus/fixed.map).
define scope_bundle_merged
$(SC)/$1/libbundle.so: $(addprefix $(SC)/objects/,registryA.o provider-bundled.o inhouse.o) $(SCOPE_SRC)/bundle-$(scope-capture.$1.bundle).map
	@mkdir -p $$(@D)
	$$(Q)$$(CC) $$(LDFLAG_FUSE) -shared -Wl,-soname,libbundle.so -Wl,--version-script=$(SCOPE_SRC)/bundle-$(scope-capture.$1.bundle).map \
		$$(LINK_NOW) -o $$@ $$(filter %.o,$$^)
endef

# scope_bundle_soname ID: copy A on its own, under copy B's SONAME, in
# bundled/; libbundle.so keeps the in-house consumer and the bundled
# provider and is DT_NEEDED on it.
define scope_bundle_soname
$(SC)/$1/bundled/libregistryB.so.1: $(SC)/objects/registryA.o $(SCOPE_SRC)/verb.map
	@mkdir -p $$(@D)
	$$(Q)$$(CC) $$(LDFLAG_FUSE) -shared -Wl,-soname,libregistryB.so.1 -Wl,--version-script=$(SCOPE_SRC)/verb.map $$(LINK_NOW) -o $$@ $$<

$(SC)/$1/libbundle.so: $(addprefix $(SC)/objects/,provider-bundled.o inhouse.o) $(SC)/$1/bundled/libregistryB.so.1
	$$(Q)$$(CC) $$(LDFLAG_FUSE) -shared -Wl,-soname,libbundle.so -o $$@ $$(filter %.o,$$^) \
		-L$$(@D)/bundled -Wl,--no-as-needed -l:libregistryB.so.1 $$(SCOPE_RPATH_BUNDLED) $$(LINK_NOW)
endef

# Every row gets scope_row; copy A is built by scope_bundle_soname for
# bundle=soname rows and by scope_bundle_merged for every other row.
$(foreach r,$(scope-capture.rows),$(eval $(call scope_row,$r)))
$(foreach r,$(scope-capture.rows),$(if $(filter soname,$(scope-capture.$r.bundle)),$(eval $(call scope_bundle_soname,$r)),$(eval $(call scope_bundle_merged,$r))))

# preload=<file>: that file of the row's directory in LD_PRELOAD (absolute:
# the loader takes LD_PRELOAD paths as given); every other row runs without.
scope_preload = $(if $(scope-capture.$1.preload),$(B_ABS)/scope-capture/$1/$(scope-capture.$1.preload))
scope-capture.run = $(SCRIPTS)/row-env $(if $(call scope_preload,$1),LD_PRELOAD=$(call scope_preload,$1)) $(B)/scope-capture/$1/app
scope-capture.evidence = $(SCRIPTS)/evidence $(if $(call scope_preload,$1),--preload $(call scope_preload,$1)) register_driver $(B)/scope-capture/$1/app \
	$(addprefix $(B)/scope-capture/$1/,libbundle.so $(if $(filter soname,$(scope-capture.$1.bundle)),bundled/libregistryB.so.1) libproviderB.so); \
	$(SCOPE_SRC)/loader-facts $(B)/scope-capture/$1 $(scope-capture.$1.preload)

# make scope-capture [ROW=<id>] [EVIDENCE=1], make evidence-scope-capture
$(eval $(call lab_entry,scope-capture,VARIANT,$(B)/scope-capture/%/app))
FIXED_ROWS += scope-capture:fixed
HELP_LINES += "  make scope-capture  the production topology: a registration captured by the global scope (ROW=<id> for one, EVIDENCE=1 for the facts)"
