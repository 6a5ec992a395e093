# matrix/: the split-state trigger isolated. Rows live in matrix/rows; the
# rules below are generated per row, and the fixes lab reuses them (same
# scenario, its own table) through $(call verbs_scenario,LAB,TABLE).
# fixes/lab.mk sorts before this file and includes it first: parse it once.
ifndef verbs_scenario
VERBS_SRC := matrix
VERBS_HDR := $(VERBS_SRC)/verbs.h

# How the executable's half is compiled and linked, by the table's "exe" column.
verbs_exe_cflags  = $(if $(filter static-nopie,$1),$(EXE_NOPIE_CFLAGS),$(EXE_PIE_CFLAGS))
verbs_exe_ldflags = $(if $(filter static-nopie,$1),$(EXE_NOPIE_LDFLAGS),$(EXE_PIE_LDFLAGS))
verbs_archive     = $(if $(filter none,$1),,$2)
# static-only (fixes lab): no shared library on the executable's link line.
verbs_exe_dsos    = $(if $(filter static-only,$1),,-L$2 -lcollective -lverbs_shared)
NM      ?= nm
OBJCOPY ?= objcopy

# Optional columns (the matrix table has none of them):
#   exe-pre  files of the row's directory linked into the executable, before
#            the archive (the lab that names them provides their rules)
#   rename   a prefix: the archive's globals and app.o's references to them
#            are renamed with objcopy --redefine-syms from one generated map
verbs_row_deps = $(foreach r,$($1.rows),$(eval $(call verbs_row_dep_rules,$1,$r)))
define verbs_row_dep_rules
$(if $($1.$2.exe-pre),$(B)/$1/$2/app: $(addprefix $(B)/$1/$2/,$($1.$2.exe-pre)))
$(if $($1.$2.rename),$(B)/$1/$2/app: $(B)/$1/$2/app.o)
$(if $($1.$2.rename),$(B)/$1/$2/libverbs_static.a: $(B)/$1/$2/rename.map)
endef

# verbs_scenario LAB,TABLE: one directory per row under $(B)/LAB/<row>/ with
# libverbs_shared.so (copy SHARED + the constructor), libverbs_static.a
# (copy STATIC), libcollective.so and app. Every object is built with its
# row's flags; everything depends on the table, so editing a row rebuilds it.
define verbs_scenario
# The rules below are inputs too: a changed recipe rebuilds every row.
$(B)/$1/rows.mk: $2 $(SCRIPTS)/rows2mk $(VERBS_SRC)/lab.mk $(wildcard $(dir $2)lab.mk)
	@mkdir -p $$(@D)
	$$(Q)$(SCRIPTS)/rows2mk $1 $2 > $$@
-include $(B)/$1/rows.mk
$$(call verbs_row_deps,$1)

$(B)/$1/%/libverbs_shared.so: $(VERBS_SRC)/verbs_copy.c $(VERBS_SRC)/provider_ctor.c $(VERBS_HDR) $(B)/$1/rows.mk
	@mkdir -p $$(@D)
	$$(Q)$$(CC) $$(LDFLAG_FUSE) $$(BASE_CFLAGS) $$(PIC_CFLAGS) -I$(VERBS_SRC) -DVX_COPY=SHARED $$($1.$$*.so-cflags) \
		-shared -Wl,-soname,libverbs_shared.so $$(LINK_NOW) $$($1.$$*.so-ldflags) -o $$@ $$(filter %.c,$$^)

$(B)/$1/%/libcollective.so: $(VERBS_SRC)/collective.c $(VERBS_HDR) $(B)/$1/%/libverbs_shared.so
	$$(Q)$$(CC) $$(LDFLAG_FUSE) $$(BASE_CFLAGS) $$(PIC_CFLAGS) -I$(VERBS_SRC) -shared -Wl,-soname,libcollective.so \
		-o $$@ $$< -L$$(@D) -Wl,$$($1.$$*.needed) -lverbs_shared -Wl,--no-as-needed $$(RPATH_ORIGIN) $$(LINK_NOW)

$(B)/$1/%/verbs_static.o: $(VERBS_SRC)/verbs_copy.c $(VERBS_HDR) $(B)/$1/rows.mk
	@mkdir -p $$(@D)
	$$(Q)$$(CC) $$(BASE_CFLAGS) $$(call verbs_exe_cflags,$$($1.$$*.exe)) -I$(VERBS_SRC) -DVX_COPY=STATIC $$($1.$$*.exe-cflags) -c $$< -o $$@

$(B)/$1/%/libverbs_static.a: $(B)/$1/%/verbs_static.o
	$$(Q)rm -f $$@ && $$(AR) rcs $$@ $$<$$(if $$($1.$$*.rename), && $$(OBJCOPY) --redefine-syms=$$(@D)/rename.map $$@)

# The map: every global the copy defines, and its new name.
$(B)/$1/%/rename.map: $(B)/$1/%/verbs_static.o
	$$(Q)$$(NM) -g --defined-only $$< | awk -v p=$$(call shq,$$($1.$$*.rename)) '{ print $$$$3, p $$$$3 }' > $$@

# The renamed copy's caller: without the same map, app's call would miss the
# renamed member and the archive would drop out of the link altogether.
$(B)/$1/%/app.o: $(VERBS_SRC)/app.c $(VERBS_HDR) $(B)/$1/%/rename.map
	$$(Q)$$(CC) $$(BASE_CFLAGS) $$(call verbs_exe_cflags,$$($1.$$*.exe)) -I$(VERBS_SRC) -c $$< -o $$@ && $$(OBJCOPY) --redefine-syms=$$(@D)/rename.map $$@

# The archive stands before the .so on the link line, and app.c's own call
# pulls its member in: that is what puts copy STATIC into the executable.
$(B)/$1/%/app: $(VERBS_SRC)/app.c $(VERBS_HDR) $(B)/$1/%/libverbs_static.a $(B)/$1/%/libcollective.so $(B)/$1/%/libverbs_shared.so
	$$(Q)$$(CC) $$(LDFLAG_FUSE) $$(BASE_CFLAGS) $$(call verbs_exe_cflags,$$($1.$$*.exe)) $$(call verbs_exe_ldflags,$$($1.$$*.exe)) \
		-I$(VERBS_SRC) -o $$@ $$(if $$($1.$$*.rename),$$(@D)/app.o,$$<) $$(addprefix $$(@D)/,$$($1.$$*.exe-pre)) \
		-Wl,$$($1.$$*.needed) $$(call verbs_archive,$$($1.$$*.exe),$$(@D)/libverbs_static.a) \
		$$(call verbs_exe_dsos,$$($1.$$*.exe),$$(@D)) -Wl,--no-as-needed $$($1.$$*.exe-ldflags) $$(RPATH_ORIGIN) $$(LINK_NOW)

$1.run = env -u LD_LIBRARY_PATH -u LD_PRELOAD $(B)/$1/$$1/app
$1.evidence = $(SCRIPTS)/evidence vx_ $(B)/$1/$$1/app $(B)/$1/$$1/libverbs_shared.so $(B)/$1/$$1/libcollective.so
endef
$(eval $(call verbs_scenario,matrix,matrix/rows))

# make matrix [CONFIG=<id>] [EVIDENCE=1], make evidence-matrix
CONFIG ?=
$(eval $(call lab_entry,matrix,CONFIG,config))
HELP_LINES += "  make matrix       the trigger isolated: rows A .. D2-copyreloc-symbolic (CONFIG=<id> for one, EVIDENCE=1 for the facts)"
endif
