# archive-order/: the link-time twin. Two verbs stacks define the same
# vx_open_device in static archives; the link line decides which one every
# caller runs. Rows live in archive-order/rows; each builds into
# $(B)/archive-order/<row>/: the objects, the archives the row's layout
# makes, link.log (everything the linker said, then "[link exit N]") and,
# when the link succeeds, app and link.map.
AO := $(B)/archive-order
AO_SRC := archive-order
AO_HDR := $(AO_SRC)/verbs.h

# AO_TABLE: another table (the tests feed it a broken one).
AO_TABLE ?= $(AO_SRC)/rows

$(call read_table,archive-order,$(AO_TABLE))
# a row's files are remade when the table's cells (its expect cells aside) or these recipes change
AO_TABLE_DEPS := $(archive-order.cells) $(AO_SRC)/lab.mk

# ---- The table's tokens, spelled out (the one place) ----------------------
# order: the archives on the link line. GNU ld scans them once, left to right,
# pulling a member only for a name still undefined; --start-group rescans the
# group until nothing new is pulled.
ao_order.ab          := -lcollective_a -lverbs_vendor -lcollective_b -lverbs_bundled
ao_order.ba          := -lcollective_b -lverbs_bundled -lcollective_a -lverbs_vendor
ao_order.ab-group    := -Wl,--start-group $(ao_order.ab) -Wl,--end-group
ao_order.ab-vendored := -lcollective_a -lcollective_b
# An archive before the member that needs it: GNU ld has passed it already
# (undefined reference); lld keeps every archive's names lazy for the whole
# link and extracts from it anyway.
ao_order.b-first     := -lverbs_bundled -lcollective_b -lcollective_a -lverbs_vendor
# stack: how the stacks' objects are compiled; ao_stack.<token>.<stack> adds
# flags for one stack only.
ao_stack.default :=
ao_stack.hidden  := -fvisibility=hidden
ao_stack.vendor-weak :=
ao_stack.vendor-weak.vendor := -DVX_OPEN_WEAK
ao_stack.bundled-weak :=
ao_stack.bundled-weak.bundled := -DVX_OPEN_WEAK
ao_stack.both-weak :=
ao_stack.both-weak.vendor := -DVX_OPEN_WEAK
ao_stack.both-weak.bundled := -DVX_OPEN_WEAK
# objcopy: which archives are rewritten after ar, and with what.
ao_objcopy_on.localize-b          := verbs_bundled
ao_objcopy_do.localize-b          := --localize-symbol=vx_open_device
ao_objcopy_on.redefine-b          := verbs_bundled collective_b
ao_objcopy_do.redefine-b          := --redefine-sym=vx_open_device=bundled_vx_open_device
ao_objcopy_on.localize-ab         := collective_a collective_b
ao_objcopy_do.localize-ab         := --localize-symbol=vx_open_device
ao_objcopy_on.localize-hidden-ab  := collective_a collective_b
ao_objcopy_do.localize-hidden-ab  := --localize-hidden
# layout: the members of each archive (vendored: no verbs archive at all).
ao_members.split    = $(if $(filter verbs_%,$2),$(patsubst verbs_%,%_open.o,$2) $(patsubst verbs_%,%_abi.o,$2),$2.o)
ao_members.one      = $(if $(filter verbs_%,$2),$(patsubst verbs_%,%_stack.o,$2),$2.o)
ao_members.vendored = $(if $(filter verbs_%,$2),,$2_vendored.o)
# Which collective is built against which stack.
ao_stack_of.collective_a := vendor
ao_stack_of.collective_b := bundled
AO_ARCHIVES := collective_a collective_b verbs_vendor verbs_bundled
# -------------------------------------------------------------------------

ao_archives = $(if $(filter vendored,$(archive-order.$1.layout)),collective_a collective_b,$(AO_ARCHIVES))
# The executable: PIE, passed explicitly; no shared library but libc, so no
# --as-needed question; -z now like every link of the suite.
ao_link = $(CC) $(LDFLAG_FUSE) $(BASE_CFLAGS) $(EXE_PIE_CFLAGS) $(EXE_PIE_LDFLAGS) -o $(AO)/$1/app $(AO)/$1/app.o \
	-L$(AO)/$1 $(ao_order.$(archive-order.$1.order)) $(LINK_NOW)
# The linker's own record of every row: which file defined and which
# referenced each of these names (bfd writes it on stderr, gold and lld on
# stdout), and the map (scripts/diagram-link reads its members and
# addresses). No --cref: nothing reads the cross-reference table, and mold
# refuses the option ("unknown command line option"), so no row would link.
AO_TRACE := vx_open_device bundled_vx_open_device vx_abi_vendor vx_abi_bundled
ao_record = $(foreach s,$(AO_TRACE),-Wl,--trace-symbol=$s) -Wl,-Map=$(AO)/$1/link.map
NM      ?= nm
OBJCOPY ?= objcopy

# The objects depend on a row through its stack cell alone: each is made
# once per stack (default, hidden) in $(AO)/objs/<stack>/, under the name
# the archives show for the member (nm, the linker's trace); app.o once.
$(AO)/objs/app.o: $(AO_SRC)/app.c $(AO_TABLE_DEPS) | dirs/archive-order
	$(Q)$(COMPILE) $(BASE_CFLAGS) $(EXE_PIE_CFLAGS) -c $< -o $@
# app.o in the row's directory (a hard link): the link's record and its
# picture name the row's own files.
$(AO)/%/app.o: $(AO)/objs/app.o | dirs/archive-order
	$(Q)exec ln -f $< $@
define ao_stack_rules
$(AO)/objs/%/$1_open.o: $(AO_SRC)/stack_open.c $(AO_HDR) $(AO_TABLE_DEPS) | dirs/archive-order
	$$(Q)$$(COMPILE) $$(BASE_CFLAGS) $$(EXE_PIE_CFLAGS) $$(ao_stack.$$*) $$(ao_stack.$$*.$1) -DVX_STACK=$1 -c $$< -o $$@
$(AO)/objs/%/$1_abi.o: $(AO_SRC)/stack_abi.c $(AO_HDR) $(AO_TABLE_DEPS) | dirs/archive-order
	$$(Q)$$(COMPILE) $$(BASE_CFLAGS) $$(EXE_PIE_CFLAGS) $$(ao_stack.$$*) $$(ao_stack.$$*.$1) -DVX_STACK=$1 -c $$< -o $$@
# layout one: the stack's two objects merged into one member.
$(AO)/objs/%/$1_stack.o: $(AO)/objs/%/$1_open.o $(AO)/objs/%/$1_abi.o
	$$(Q)$$(CC) $$(LDFLAG_FUSE) -r -nostdlib -o $$@ $$^
endef
$(foreach s,vendor bundled,$(eval $(call ao_stack_rules,$s)))
define ao_collective_rules
$(AO)/objs/%/$1.o: $(AO_SRC)/collective.c $(AO_HDR) $(AO_TABLE_DEPS) | dirs/archive-order
	$$(Q)$$(COMPILE) $$(BASE_CFLAGS) $$(EXE_PIE_CFLAGS) -DVX_WHO=$1 -DVX_STACK=$(ao_stack_of.$1) -c $$< -o $$@
# layout vendored: the collective and its whole stack in one member.
$(AO)/objs/%/$1_vendored.o: $(AO)/objs/%/$1.o $(AO)/objs/%/$(ao_stack_of.$1)_open.o $(AO)/objs/%/$(ao_stack_of.$1)_abi.o
	$$(Q)$$(CC) $$(LDFLAG_FUSE) -r -nostdlib -o $$@ $$^
endef
$(foreach c,collective_a collective_b,$(eval $(call ao_collective_rules,$c)))
# The archive from the layout's members, then the row's objcopy if it names it.
define ao_archive_rule
$(AO)/%/lib$1.a: $(AO_TABLE_DEPS) | dirs/archive-order
	$$(Q)$$(call rm_old,$$@) && $$(AR) rcs $$@ $$(filter %.o,$$^)$$(if $$(filter $1,$$(ao_objcopy_on.$$(archive-order.$$*.objcopy))), \
		&& $$(OBJCOPY) $$(ao_objcopy_do.$$(archive-order.$$*.objcopy)) $$@)
endef
$(foreach a,$(AO_ARCHIVES),$(eval $(call ao_archive_rule,$a)))

# A token the table does not know is one line and a stop, not a strange link.
# Checked when the row is linked, so a bad token stops that row's link only.
ao_check = $(if $(filter $2,$3),,$(error $(AO_TABLE): row $1: unknown $4 '$2' (known: $3)))
ao_check_row = $(call ao_check,$1,$(archive-order.$1.layout),split one vendored,layout)$(strip \
	)$(call ao_check,$1,$(archive-order.$1.order),$(sort $(patsubst ao_order.%,%,$(filter ao_order.%,$(.VARIABLES)))),order)$(strip \
	)$(call ao_check,$1,$(archive-order.$1.stack),$(sort $(patsubst ao_stack.%,%,$(filter-out ao_stack.%.vendor ao_stack.%.bundled,$(filter ao_stack.%,$(.VARIABLES))))),stack)$(strip \
	)$(if $(archive-order.$1.objcopy),$(call ao_check,$1,$(archive-order.$1.objcopy),$(sort $(patsubst ao_objcopy_on.%,%,$(filter ao_objcopy_on.%,$(.VARIABLES)))),objcopy))

# Per row: each archive's members, and the link's inputs.
define ao_row
$(foreach a,$(call ao_archives,$1),$(AO)/$1/lib$a.a: $(addprefix $(AO)/objs/$(archive-order.$1.stack)/,$(call ao_members.$(archive-order.$1.layout),$1,$a))
)
$(AO)/$1/link.log: $(AO)/$1/app.o $(foreach a,$(call ao_archives,$1),$(AO)/$1/lib$a.a)
endef
$(foreach r,$(archive-order.rows),$(eval $(call ao_row,$r))$(call relink_gone,$(AO)/$r))

# A link that fails is the row's result, not a failure of make: the record
# is kept whatever the linker's exit status, and app exists only if it linked.
$(AO)/%/link.log: $(AO_TABLE_DEPS) | dirs/archive-order
	$(call ao_check_row,$*)$(Q)$(call rm_old,$(@D)/app); { $(call ao_link,$*) $(call ao_record,$*); echo "[link exit $$?]"; } > $@.tmp 2>&1; exec mv $@.tmp $@
$(AO)/%/app: $(AO)/%/link.log ;
# Every directory the rules above write in (objs/, one a stack, one a row),
# made by one mkdir before them (mk/compile.mk's lab_dirs), not one a
# directory by the first compile or link into it.
$(eval $(call lab_dirs,archive-order,$(AO)/objs $(sort $(foreach r,$(archive-order.rows),$(AO)/objs/$(archive-order.$r.stack) $(AO)/$r))))

archive-order.run = $(AO_SRC)/run-row $(AO)/$1
# Its pictures (scripts/diagram-link) read the link's record, not the loader's.
archive-order.diagram-ld-debug :=
# The linker's trace lines and nm of the row's archives, for every row in
# one pass (link-facts --rows); then the link-time check on each row's own
# link line, every row in one pass too (archive-clash --rows), read from the
# row's link record and map when that traced every name it needs, not
# linked again.
archive-order.facts = $(AO_SRC)/link-facts --rows '$(AO_TRACE)' $(foreach r,$1,'$r $(AO)/$r $(foreach a,$(call ao_archives,$r),$(AO)/$r/lib$a.a)') \
	';' $(AO_SRC)/archive-clash --prefix '  | archive-clash ' --rows '$(AO_TRACE)' $(foreach r,$1,'$r $(AO)/$r/link.log $(AO)/$r/link.map $(call ao_link,$r)')

# make archive-order [ROW=<id>] [EVIDENCE=1], make evidence-archive-order
$(eval $(call lab_entry,archive-order,ROW,$(AO)/%/app))
FIXED_ROWS += archive-order:fix-redefine archive-order:vendored-fix-localize archive-order:vendored-fix-hidden
HELP_LINES += "  make archive-order  the link-time twin: first definition wins across static archives (ROW=<id> for one, EVIDENCE=1 for the facts)"
DEPS_PACKAGES += binutils
