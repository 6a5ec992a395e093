# scope-capture/: the production topology restaged (see README.md). Variants
# live in scope-capture/rows; each builds its own directory
# $(B)/scope-capture/<id>/ with app, libbundle.so (copy A), libregistryB.so.1
# (copy B), libproviderB.so and libnccl_like.so.
SCOPE_SRC := scope-capture
SCOPE_HDR := $(SCOPE_SRC)/registry.h
# Row same-soname keeps copy A in bundled/: libbundle.so finds it there by
# its own DT_RPATH (not DT_RUNPATH: the environment cannot swap it).
SCOPE_RPATH_BUNDLED := -Wl,--disable-new-dtags,-rpath,'$$ORIGIN/bundled'

SCOPE_TABLE := $(scope-capture.cells) $(SCOPE_SRC)/lab.mk
$(call read_table,scope-capture,$(SCOPE_SRC)/rows)

# Objects. Most are the same in every row: one compile each (with -c, so
# ccache shares them between toolchains), in $(SC)/objects/. Copy A and copy
# B are one source, registry.c, told apart by -DREG_WHO/-DREG_COPY.
SC := $(B)/scope-capture
SCOPE_OBJ_CFLAGS = $(BASE_CFLAGS) $(PIC_CFLAGS)
$(SC)/objects/registryB.o: $(SCOPE_SRC)/registry.c $(SCOPE_HDR)
	$(Q)$(COMPILE) $(SCOPE_OBJ_CFLAGS) -DREG_WHO=registryB -DREG_COPY=B -c $< -o $@
$(SC)/objects/registryA.o: $(SCOPE_SRC)/registry.c $(SCOPE_HDR)
	$(Q)$(COMPILE) $(SCOPE_OBJ_CFLAGS) -DREG_WHO=bundle -DREG_COPY=A -c $< -o $@
$(SC)/objects/providerB.o: $(SCOPE_SRC)/provider.c $(SCOPE_HDR)
	$(Q)$(COMPILE) $(SCOPE_OBJ_CFLAGS) -DPROVIDER_DEVICE=mlx5_from_providerB -c $< -o $@
$(SC)/objects/provider-bundled.o: $(SCOPE_SRC)/provider.c $(SCOPE_HDR)
	$(Q)$(COMPILE) $(SCOPE_OBJ_CFLAGS) -DPROVIDER_DEVICE=mlx5_bundled -c $< -o $@
$(SC)/objects/inhouse.o: $(SCOPE_SRC)/inhouse.c $(SCOPE_HDR)
	$(Q)$(COMPILE) $(SCOPE_OBJ_CFLAGS) -c $< -o $@
# Every module is linked once per distinct set of what it is made from, in
# $(SC)/shared/<what>/, and hard-linked into each row that uses it (a row's
# files are its own paths: $ORIGIN, LD_DEBUG and the maps name the row):
#   copy B and the system provider   the same in every row: shared/
#   libnccl_like.so                  one per nccl-cflags: shared/nccl<cflags>/
#   libbundle.so (copy A)            one per bundle cell: shared/bundle-<cell>/
#   app                              one per bundle, app-cflags, nccl-cflags
# (8 rows, 17 links instead of 41). sc_key TEXT: TEXT as a directory name.
sc_sp := $() $()
sc_key = $(subst $(sc_sp),_,$(subst =,-,$(strip $1)))
sc_nccl = $(SC)/shared/nccl$(call sc_key,$(scope-capture.$1.nccl-cflags))
sc_bundle = $(SC)/shared/bundle-$(scope-capture.$1.bundle)
sc_app = $(SC)/shared/app-$(scope-capture.$1.bundle)$(call sc_key,$(scope-capture.$1.app-cflags) $(scope-capture.$1.nccl-cflags))

# -z now everywhere: every binding is made at load time, so LD_DEBUG=bindings
# shows register_driver's. Flags in recipes made by $(eval) are deferred ($$)
# so that '$ORIGIN' survives.
$(SC)/shared/libregistryB.so.1: $(SC)/objects/registryB.o $(SCOPE_SRC)/verb.map
	$(Q)$(CC) $(LDFLAG_FUSE) -shared -Wl,-soname,libregistryB.so.1 -Wl,--version-script=$(SCOPE_SRC)/verb.map $(LINK_NOW) -o $@ $<
# The system provider: DT_NEEDED on copy B (--no-as-needed keeps the entry
# although nothing else would need it), found there by its own RPATH.
$(SC)/shared/libproviderB.so: $(SC)/objects/providerB.o $(SC)/shared/libregistryB.so.1
	$(Q)$(CC) $(LDFLAG_FUSE) -shared -Wl,-soname,libproviderB.so -o $@ $< \
		-L$(@D) -Wl,--no-as-needed -l:libregistryB.so.1 $(RPATH_ORIGIN) $(LINK_NOW)

# sc_nccl_rules DIR,CFLAGS: the NCCL-like consumer. It links no registry. Its
# RPATH matters: dlopen searches the calling object's DT_RPATH for the
# registry and the provider.
define sc_nccl_rules
$1/nccl_like.o: $(SCOPE_SRC)/nccl_like.c $(SCOPE_TABLE)
	$$(Q)$$(COMPILE) $$(SCOPE_OBJ_CFLAGS) $2 -c $$< -o $$@
$1/libnccl_like.so: $1/nccl_like.o
	$$(Q)$$(CC) $$(LDFLAG_FUSE) -shared -Wl,-soname,libnccl_like.so -o $$@ $$< -ldl $$(RPATH_ORIGIN) $$(LINK_NOW)
endef

# sc_bundle_merged DIR,CELL: copy A, the bundled provider and the in-house
# consumer in one libbundle.so; the version script decides what of the
# registry it exports (bundle-exported/omnibus/fixed.map).
define sc_bundle_merged
$1/libbundle.so: $(addprefix $(SC)/objects/,registryA.o provider-bundled.o inhouse.o) $(SCOPE_SRC)/bundle-$2.map
	$$(Q)$$(CC) $$(LDFLAG_FUSE) -shared -Wl,-soname,libbundle.so -Wl,--version-script=$(SCOPE_SRC)/bundle-$2.map \
		$$(LINK_NOW) -o $$@ $$(filter %.o,$$^)
endef
# sc_bundle_soname DIR: copy A on its own, under copy B's SONAME, in bundled/;
# libbundle.so keeps the in-house consumer and the bundled provider and is
# DT_NEEDED on it.
define sc_bundle_soname
$1/bundled/libregistryB.so.1: $(SC)/objects/registryA.o $(SCOPE_SRC)/verb.map
	$$(Q)$$(CC) $$(LDFLAG_FUSE) -shared -Wl,-soname,libregistryB.so.1 -Wl,--version-script=$(SCOPE_SRC)/verb.map $$(LINK_NOW) -o $$@ $$<
$1/libbundle.so: $(addprefix $(SC)/objects/,provider-bundled.o inhouse.o) $1/bundled/libregistryB.so.1
	$$(Q)$$(CC) $$(LDFLAG_FUSE) -shared -Wl,-soname,libbundle.so -o $$@ $$(filter %.o,$$^) \
		-L$$(@D)/bundled -Wl,--no-as-needed -l:libregistryB.so.1 $$(SCOPE_RPATH_BUNDLED) $$(LINK_NOW)
endef

# sc_app_rules ID: the app of row ID's kind. --no-as-needed: libbundle.so
# must be DT_NEEDED, which is what puts copy A in the global scope from
# startup.
define sc_app_rules
$(call sc_app,$1)/app.o: $(SCOPE_SRC)/app.c $(SCOPE_TABLE)
	$$(Q)$$(COMPILE) $$(BASE_CFLAGS) $$(EXE_PIE_CFLAGS) $(scope-capture.$1.app-cflags) -c $$< -o $$@
$(call sc_app,$1)/app: $(call sc_app,$1)/app.o $(call sc_bundle,$1)/libbundle.so $(call sc_nccl,$1)/libnccl_like.so
	$$(Q)$$(CC) $$(LDFLAG_FUSE) $$(EXE_PIE_LDFLAGS) -o $$@ $$< -L$(call sc_bundle,$1) -L$(call sc_nccl,$1) -Wl,--no-as-needed -lbundle -lnccl_like $$(RPATH_ORIGIN) $$(LINK_NOW)
endef

# sc_row ID: the row's directory, its files hard-linked from shared/ (app
# last: it is the row's time stamp). Each file keeps its name, so one ln -t
# links them all (and one more the soname bundle's bundled/ copy): a
# process a directory, not one a file.
sc_files = libregistryB.so.1 libproviderB.so libnccl_like.so libbundle.so app
sc_bundled = $(if $(filter soname,$(scope-capture.$1.bundle)),bundled/libregistryB.so.1)
sc_from = $(if $(filter libregistryB.so.1 libproviderB.so,$2),$(SC)/shared,$(if $(filter libnccl_like.so,$2),$(call sc_nccl,$1),$(if $(filter app,$2),$(call sc_app,$1),$(call sc_bundle,$1))))/$2
define sc_row
$(SC)/$1/app: $(foreach f,$(call sc_bundled,$1) $(call sc_files,$1),$(call sc_from,$1,$f))
	$$(Q){ [ -d $$(@D)$(if $(call sc_bundled,$1),/bundled) ] || mkdir -p $$(@D)$(if $(call sc_bundled,$1),/bundled); } && \
		$(if $(call sc_bundled,$1),ln -f -t $$(@D)/bundled $(call sc_from,$1,$(call sc_bundled,$1)) && )exec ln -f -t $$(@D) $(foreach f,$(call sc_files,$1),$(call sc_from,$1,$f))
endef

# Each distinct rule once: the keys of every row, deduplicated.
$(foreach d,$(sort $(foreach r,$(scope-capture.rows),$(call sc_nccl,$r)=$(call sc_key,$(scope-capture.$r.nccl-cflags)))),$(eval $(call sc_nccl_rules,$(firstword $(subst =, ,$d)),$(scope-capture.$(firstword $(foreach r,$(scope-capture.rows),$(if $(filter $(firstword $(subst =, ,$d)),$(call sc_nccl,$r)),$r))).nccl-cflags))))
$(foreach b,$(sort $(foreach r,$(scope-capture.rows),$(scope-capture.$r.bundle))),$(if $(filter soname,$b),$(eval $(call sc_bundle_soname,$(SC)/shared/bundle-$b)),$(eval $(call sc_bundle_merged,$(SC)/shared/bundle-$b,$b))))
sc_app_first = $(firstword $(foreach r,$(scope-capture.rows),$(if $(filter $1,$(call sc_app,$r)),$r)))
$(foreach a,$(sort $(foreach r,$(scope-capture.rows),$(call sc_app,$r))),$(eval $(call sc_app_rules,$(call sc_app_first,$a))))
$(foreach r,$(scope-capture.rows),$(eval $(call sc_row,$r)))

# preload=<file>: that file of the row's directory in LD_PRELOAD (absolute:
# the loader takes LD_PRELOAD paths as given); every other row runs without.
scope_preload = $(if $(scope-capture.$1.preload),$(B_ABS)/scope-capture/$1/$(scope-capture.$1.preload))
# With EVIDENCE ($2: the record run_rows names) the row's run is its
# evidence run too: the loader's whole record (bindings, scopes, files) goes
# to $2.<pid>. Once every row ran, scripts/evidence --rows reads the
# bindings of every row (and leaves the records), then loader-facts --rows
# keeps each row's records as its loader.trace (check-bindings-labs reads
# it; a RUN= that starts processes of its own leaves one record each, all
# kept, as the program's stderr kept them before), reads the rest of the
# facts of every row from them, and removes the records.
scope-capture.run = $(SCRIPTS)/row-env $(if $2,LD_DEBUG=bindings$(comma)scopes$(comma)files LD_DEBUG_OUTPUT=$2) $(if $(call scope_preload,$1),LD_PRELOAD=$(call scope_preload,$1)) $(B)/scope-capture/$1/app
scope-capture.facts = $(SCRIPTS)/evidence --rows --keep $2 $(foreach r,$1,'$r register_driver $(B)/scope-capture/$r/app \
	$(addprefix $(B)/scope-capture/$r/,libbundle.so $(if $(filter soname,$(scope-capture.$r.bundle)),bundled/libregistryB.so.1) libproviderB.so)') \
	';' $(SCOPE_SRC)/loader-facts --rows $2 $(foreach r,$1,'$r $(B_ABS)/scope-capture/$r')

# make scope-capture [ROW=<id>] [EVIDENCE=1], make evidence-scope-capture
$(eval $(call lab_entry,scope-capture,VARIANT,$(B)/scope-capture/%/app))
FIXED_ROWS += scope-capture:fixed
HELP_LINES += "  make scope-capture  the production topology: a registration captured by the global scope (ROW=<id> for one, EVIDENCE=1 for the facts)"
