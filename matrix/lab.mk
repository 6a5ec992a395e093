# matrix/: the split-state trigger isolated. Rows live in matrix/rows; the
# rules below are generated per row, and the fixes lab reuses them (same
# scenario, its own table) through $(call verbs_scenario,LAB,TABLE). The top
# Makefile reads this file before every other lab for that reason.
VERBS_SRC := matrix
VERBS_HDR := $(VERBS_SRC)/verbs.h
NM      ?= nm
OBJCOPY ?= objcopy

# The table's keys, as flags (see matrix/rows). $1 is the lab, $2 the row.
verbs_pie       = $(if $(filter static-nopie,$($1.$2.exe)),$(EXE_NOPIE_CFLAGS),$(EXE_PIE_CFLAGS))
verbs_pie_link  = $(if $(filter static-nopie,$($1.$2.exe)),$(EXE_NOPIE_LDFLAGS),$(EXE_PIE_LDFLAGS))
verbs_so_table  = $(if $(filter both so,$($1.$2.table)),-DVX_TABLE_GLOBAL)
verbs_exe_table = $(if $(filter exe both,$($1.$2.table)),-DVX_TABLE_GLOBAL)$(if $(filter so,$($1.$2.table)),-DVX_TABLE_EXTERN)
verbs_vis       = $(if $1,-DVX_API_VISIBILITY=$1)
# dropin=<vis>: the row's libverbs_shared.so, the one that runs, is built with
# that visibility; libcollective.so and app are linked against the same
# library built as the row says (linktime/), as a library upgraded under an
# existing executable. $1 the lab, $2 the row.
verbs_link_dirs = $(if $($1.$2.dropin),-L$3/linktime) -L$3
verbs_so_objdir = $(if $($1.$2.dropin),so-dropin,so)
# Compile flags of the .so's objects (copy SHARED) and of the executable's
# own copy and the objects linked with it (copy STATIC).
verbs_so_cflags  = $(BASE_CFLAGS) $(PIC_CFLAGS) -I$(VERBS_SRC) $(call verbs_vis,$($1.$2.vis)) $(call verbs_so_table,$1,$2) $($1.$2.so-cflags)
verbs_exe_cflags = $(BASE_CFLAGS) $(call verbs_pie,$1,$2) -I$(VERBS_SRC) $(call verbs_vis,$($1.$2.exe-vis)) $(call verbs_exe_table,$1,$2)
# What the executable links besides app.o, in link-line order: objects the
# row adds (ctor=exe: the provider; host=plugin: the plugin host), the
# statically linked collective (exe=static-only), the archive copy, the DSOs.
# The archive stands before the .so, so app.o's own call pulls its member in.
verbs_exe_objs = $(if $(filter exe,$($1.$2.ctor)),provider_static.o) $(if $($1.$2.host),host_boot.o libhost.a) \
	$(if $(filter static-only,$($1.$2.exe)),libcollective.a) $(if $(filter none,$($1.$2.exe)),,libverbs_static.a)
verbs_exe_dsos = $(if $(filter static-only,$($1.$2.exe)),,libcollective.so libverbs_shared.so)
# host=plugin: the host keeps its callback in .dynsym for the plugin, needs libdl.
verbs_host_ldflags = $(if $($1.$2.host),-Wl$(comma)--export-dynamic-symbol=host_api_version -ldl)

# verbs_scenario LAB,CELLS: one directory per row under $(B)/LAB/<row>/ with
# libverbs_shared.so (copy SHARED, and the constructor unless ctor=exe),
# libverbs_static.a (copy STATIC), libcollective.so and app. Objects are
# compiled (-c, so ccache can keep them) with their row's flags, then linked
# with the row's link flags; everything depends on the table's cells (CELLS,
# mk/labs.mk's table_cells: its expect cells are not among them).
define verbs_scenario
$(B)/$1/%/so/verbs_copy.o: $(VERBS_SRC)/verbs_copy.c $(VERBS_HDR) $2 $(VERBS_SRC)/lab.mk | dirs/$1
	$$(Q)$$(COMPILE) $$(call verbs_so_cflags,$1,$$*) -DVX_COPY=SHARED -c $$< -o $$@
$(B)/$1/%/so/provider_ctor.o: $(VERBS_SRC)/provider_ctor.c $(VERBS_HDR) $2 $(VERBS_SRC)/lab.mk | dirs/$1
	$$(Q)$$(COMPILE) $$(call verbs_so_cflags,$1,$$*) -DVX_COPY=SHARED -c $$< -o $$@
$(B)/$1/%/so-dropin/verbs_copy.o: $(VERBS_SRC)/verbs_copy.c $(VERBS_HDR) $2 $(VERBS_SRC)/lab.mk | dirs/$1
	$$(Q)$$(COMPILE) $$(call verbs_so_cflags,$1,$$*) $$(call verbs_vis,$$($1.$$*.dropin)) -DVX_COPY=SHARED -c $$< -o $$@
$(B)/$1/%/so-dropin/provider_ctor.o: $(VERBS_SRC)/provider_ctor.c $(VERBS_HDR) $2 $(VERBS_SRC)/lab.mk | dirs/$1
	$$(Q)$$(COMPILE) $$(call verbs_so_cflags,$1,$$*) $$(call verbs_vis,$$($1.$$*.dropin)) -DVX_COPY=SHARED -c $$< -o $$@
$(B)/$1/%/provider_static.o: $(VERBS_SRC)/provider_ctor.c $(VERBS_HDR) $2 $(VERBS_SRC)/lab.mk | dirs/$1
	$$(Q)$$(COMPILE) $$(call verbs_exe_cflags,$1,$$*) -DVX_COPY=STATIC -c $$< -o $$@
# rename=<prefix>: app.o's calls get the archive copy's new names from the
# same map, or they would miss the renamed member and bind to the .so; such
# a row compiles its own app.o (every other row's is verbs_shared_objs').
$(B)/$1/%/app.o: $(VERBS_SRC)/app.c $(VERBS_HDR) $2 $(VERBS_SRC)/lab.mk | dirs/$1
	$$(Q)$$(COMPILE) $$(BASE_CFLAGS) $$(call verbs_pie,$1,$$*) -I$(VERBS_SRC) -c $$< -o $$@ \
		$$(if $$($1.$$*.rename),&& $$(OBJCOPY) --redefine-syms=$$(@D)/rename.map $$@)

# The map (rename= rows): every global the copy defines, and its new name.
$(B)/$1/%/rename.map: $(B)/$1/%/verbs_static.o | dirs/$1
	$$(Q)$$(NM) -g --defined-only $$< | awk -v p=$$(call shq,$$($1.$$*.rename)) '{ print $$$$3, p $$$$3 }' $$(into_target)
$(B)/$1/%/libverbs_static.a: $(B)/$1/%/verbs_static.o | dirs/$1
	$$(Q)$$(call rm_old,$$@) && $$(AR) rcs $$@ $$< $$(if $$($1.$$*.rename),&& $$(OBJCOPY) --redefine-syms=$$(@D)/rename.map $$@)

# (DIR is so/ or so-dropin/: the row's runtime library; linktime/ is so/'s.)
$(B)/$1/%/libverbs_shared.so: $(B)/$1/%/so/verbs_copy.o $(B)/$1/%/so/provider_ctor.o | dirs/$1
	$$(Q)$$(CC) $$(LDFLAG_FUSE) -shared -Wl,-soname,libverbs_shared.so -o $$@ $$(@D)/$$(call verbs_so_objdir,$1,$$*)/verbs_copy.o \
		$$(if $$(filter exe,$$($1.$$*.ctor)),,$$(@D)/$$(call verbs_so_objdir,$1,$$*)/provider_ctor.o) \
		$$(if $$($1.$$*.so-map),-Wl$$(comma)--version-script=$$($1.$$*.so-map)) $$($1.$$*.so-ldflags) $$(LINK_NOW)
$(B)/$1/%/linktime/libverbs_shared.so: $(B)/$1/%/so/verbs_copy.o $(B)/$1/%/so/provider_ctor.o | dirs/$1
	$$(Q)$$(CC) $$(LDFLAG_FUSE) -shared -Wl,-soname,libverbs_shared.so -o $$@ $$< \
		$$(if $$(filter exe,$$($1.$$*.ctor)),,$$(<D)/provider_ctor.o) \
		$$(if $$($1.$$*.so-map),-Wl$$(comma)--version-script=$$($1.$$*.so-map)) $$($1.$$*.so-ldflags) $$(LINK_NOW)
$(B)/$1/%/libcollective.so: $(B)/$1/%/collective.o $(B)/$1/%/libverbs_shared.so | dirs/$1
	$$(Q)$$(CC) $$(LDFLAG_FUSE) -shared -Wl,-soname,libcollective.so -o $$@ $$< \
		$$(call verbs_link_dirs,$1,$$*,$$(@D)) -Wl,$$($1.$$*.needed) -lverbs_shared -Wl,--no-as-needed $$(RPATH_ORIGIN) $$(LINK_NOW)
# A link the linker refuses (a COPY relocation against protected data) is
# the row's result, not a failure of make: everything the linker said goes
# to link.log, then "[link exit N]"; app exists only if it linked, and
# matrix/run-row prints the record instead of running it. The rule's target
# is link.log, made either way: an app that the linker refused is not linked
# again at every make.
$(B)/$1/%/link.log: $(B)/$1/%/app.o $(B)/$1/%/libverbs_static.a $(B)/$1/%/libcollective.so $(B)/$1/%/libverbs_shared.so | dirs/$1
	$$(Q)$$(call rm_old,$$(@D)/app); { $$(CC) $$(LDFLAG_FUSE) $$(call verbs_pie_link,$1,$$*) -o $$(@D)/app $$< $$(addprefix $$(@D)/,$$(call verbs_exe_objs,$1,$$*)) \
		$$(call verbs_link_dirs,$1,$$*,$$(@D)) -Wl,$$($1.$$*.needed) $$(addprefix -l:,$$(call verbs_exe_dsos,$1,$$*)) -Wl,--no-as-needed \
		$$($1.$$*.exe-ldflags) $$(call verbs_host_ldflags,$1,$$*) $$(RPATH_ORIGIN) $$(LINK_NOW); echo "[link exit $$$$?]"; } > $$@.tmp 2>&1; \
		exec mv $$@.tmp $$@
$(B)/$1/%/app: $(B)/$1/%/link.log ;

# preload=<file>: the row's own file (in its directory) preloaded, the way
# an engineer forces "the system copy" in; every other row runs without.
# With EVIDENCE ($$2: the record run_rows names), the run keeps the loader's
# bindings for the lab's one evidence pass.
$1.run-app = LAB_RUN=$$(call shq,$$(RUN)) $(VERBS_SRC)/run-row $$(if $$2,--record $$2) $(B)/$1/$$1 $$(if $$($1.$$1.preload),$(B_ABS)/$1/$$1/$$($1.$$1.preload))
# A row's evidence block (scripts/evidence --rows): its program and the two
# libraries. A row whose link was refused has no program: its evidence is
# the linker's record ("not linked").
$1.block-vx = '$$1 vx_ $(B)/$1/$$1/app $(B)/$1/$$1/libverbs_shared.so $(B)/$1/$$1/libcollective.so'
endef
# Rows whose .so is made from the same cells share one link: each row's
# libverbs_shared.so (and libcollective.so, linked against it) is a hard link
# to the first row's with the same cells, when that is another row (matrix:
# 20 rows, 12 distinct .so, 13 distinct collectives). The key: every cell the
# recipes above read for it (dropin too: it swaps the library that runs).
verbs_so_key   = $(subst $(sp1),|,$(strip $(foreach k,vis table so-cflags ctor so-map so-ldflags dropin,$k=$($1.$2.$k))))
sp1 := $() $()
# verbs_hard_link LAB,ROW,FILE,SOURCE: ROW's FILE made as a hard link to
# SOURCE (its directory made before, by verbs_dirs: ln is the recipe's one
# process).
define verbs_hard_link
$(B)/$1/$2/$3: $4 | dirs/$1
	$$(Q)ln -f $$< $$@
endef
# One pass over the rows, each row's key computed once (every make reads
# this, and the fixes lab's table too): verbs_seen holds FILE<US>KEY<US>ROW
# for the first row with each key, so a later row finds its first by filter.
verbs_share = $(eval verbs_seen :=)$(foreach r,$($1.rows),$(call verbs_share_row,$1,$r,$(call verbs_so_key,$1,$r)))
verbs_share_row = $(call verbs_share_file,$1,$2,libverbs_shared.so,$3)$(call verbs_share_file,$1,$2,libcollective.so,$3|needed=$(subst $(sp1),|,$(strip $($1.$2.needed))))
# verbs_share_file LAB,ROW,FILE,KEY: ROW's FILE a hard link to the first
# row's with KEY, or ROW recorded as that first row.
verbs_share_file = $(if $(filter $3$(us)$4$(us)%,$(verbs_seen)),$(eval $(call verbs_hard_link,$1,$2,$3,$(B)/$1/$(patsubst $3$(us)$4$(us)%,%,$(firstword $(filter $3$(us)$4$(us)%,$(verbs_seen))))/$3)),$(eval verbs_seen += $3$(us)$4$(us)$2))

# The objects whose flags read few cells or none are compiled once per
# distinct flags, into $(B)/LAB/objs/, named by those flags, and hard-linked
# into each row: collective.o (no cell), verbs_static.o (exe, exe-vis,
# table), app.o (exe; not for a rename= row, whose app.o is rewritten).
# $2 is the table's cells. (The .so's objects are the first sharing row's: verbs_share.)
verbs_obj_name = $(subst =,.,$(subst $(sp1),_,$(strip $1)))
verbs_obj_deps = $(VERBS_HDR) $2 $(VERBS_SRC)/lab.mk | dirs/$1
verbs_shared_objs = $(foreach r,$($1.rows),\
	$(eval $(call verbs_hard_link,$1,$r,collective.o,$(call compiled,$(B)/$1/objs/collective.o,$(VERBS_SRC)/collective.c,$(BASE_CFLAGS) $(PIC_CFLAGS) -I$(VERBS_SRC),$(verbs_obj_deps)))) \
	$(eval $(call verbs_hard_link,$1,$r,verbs_static.o,$(call compiled,$(B)/$1/objs/verbs_static.$(call verbs_obj_name,$(call verbs_pie,$1,$r) $(call verbs_vis,$($1.$r.exe-vis)) $(call verbs_exe_table,$1,$r)).o,$(VERBS_SRC)/verbs_copy.c,$(call verbs_exe_cflags,$1,$r) -DVX_COPY=STATIC,$(verbs_obj_deps)))) \
	$(if $($1.$r.rename),,$(eval $(call verbs_hard_link,$1,$r,app.o,$(call compiled,$(B)/$1/objs/app.$(call verbs_obj_name,$(call verbs_pie,$1,$r)).o,$(VERBS_SRC)/app.c,$(BASE_CFLAGS) $(call verbs_pie,$1,$r) -I$(VERBS_SRC),$(verbs_obj_deps))))))

# The lab's directories, made before any recipe that writes in them, by one
# mkdir (mk/compile.mk's lab_dirs): objs/, each row's, the so/ of each row
# that compiles its .so (the first with its cells, verbs_share's), and a
# dropin= row's so-dropin/ and linktime/.
verbs_dirs = $(eval $(call lab_dirs,$1,$(B)/$1/objs $(foreach r,$($1.rows),$(B)/$1/$r $(if $($1.$r.dropin),$(B)/$1/$r/so-dropin $(B)/$1/$r/linktime)) \
	$(foreach e,$(filter libverbs_shared.so$(us)%,$(verbs_seen)),$(B)/$1/$(lastword $(subst $(us), ,$e))/so)))

# Files a row's set cell names (so-map=, the objects of ctor=exe, host=,
# exe=static-only, the map of rename=) are prerequisites of that row.
verbs_row_files = $(foreach r,$($1.rows),$(eval $(B)/$1/$r/libverbs_shared.so: $($1.$r.so-map)) \
	$(if $($1.$r.dropin),$(eval $(B)/$1/$r/libverbs_shared.so: $(B)/$1/$r/so-dropin/verbs_copy.o $(B)/$1/$r/so-dropin/provider_ctor.o) \
		$(eval $(B)/$1/$r/link.log $(B)/$1/$r/libcollective.so: $(B)/$1/$r/linktime/libverbs_shared.so)) \
	$(eval $(B)/$1/$r/link.log: $(addprefix $(B)/$1/$r/,$(call verbs_exe_objs,$1,$r))) \
	$(if $($1.$r.rename),$(eval $(B)/$1/$r/app.o $(B)/$1/$r/libverbs_static.a: $(B)/$1/$r/rename.map)) \
	$(call relink_gone,$(B)/$1/$r))

$(call read_table,matrix,matrix/rows)
$(eval $(call verbs_scenario,matrix,$(matrix.cells)))
$(call verbs_row_files,matrix)
$(call verbs_share,matrix)
$(call verbs_dirs,matrix)
$(call verbs_shared_objs,matrix,$(matrix.cells))

matrix.run = $(call matrix.run-app,$1,$2)
# The evidence of every row read in one pass (run_rows: ROWS, RECORD).
matrix.facts = $(SCRIPTS)/evidence --rows $2 $(foreach r,$1,$(call matrix.block-vx,$r))
# make matrix [ROW=<id>] [EVIDENCE=1], make evidence-matrix
$(eval $(call lab_entry,matrix,CONFIG,$(B)/matrix/%/app))
HELP_LINES += "  make matrix       the trigger isolated, one row per flag combination (ROW=<id> for one, EVIDENCE=1 for the facts)"
