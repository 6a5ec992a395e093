# route-b/: scope partition. A host dlopens plugins that each carry a copy
# of a stateful runtime; rows are route-b/rows. Each row has
# $(B)/route-b/<row>/: app (the host) and one directory per module the host
# opens, NAME/plugin.so, beside the runtime copies that module ships. The
# files are built once per layout, in $(B)/route-b/layouts/<layout>/, and
# hard-linked into each row using it: a row's files are then its own paths
# (for $ORIGIN, LD_DEBUG and /proc/self/maps), at the cost of one link each.
RB_SRC := route-b
RB := $(B)/route-b
NM ?= nm
OBJCOPY ?= objcopy

$(call read_table,route-b,$(RB_SRC)/rows)
# what a row's files depend on besides their sources: the table's cells (it may
# give the row another layout) and this file's recipes
RB_TABLE := $(route-b.cells) $(RB_SRC)/lab.mk

# rb_layout LAYOUT: its build directory (under $(RB)), if a row uses it.
rb_layouts = $(sort $(foreach r,$(route-b.rows),$(route-b.$r.layout)))
rb_layout = $(if $(filter $1,$(rb_layouts)),layouts/$1)

# Every module is linked with, and why:
#   -fplt             calls into the runtime go through a PLT slot, the slot the
#                     lazy rows watch (-fno-plt binds through the GOT at load time)
#   --no-as-needed    a plugin's DT_NEEDED on its runtime copy stays, used or not
#   DT_RPATH $ORIGIN  (--disable-new-dtags) each module finds the copy it ships
#                     in its own directory, whatever LD_LIBRARY_PATH says
#   -z now            bind at load time; only the lazy rows' plugin B is -z lazy
#                     (an object's DF_BIND_NOW overrides dlopen's RTLD_LAZY)
RB_SO = $(CC) $(LDFLAG_FUSE) $(BASE_CFLAGS) $(PIC_CFLAGS) -fplt -shared
RB_CC = $(COMPILE) $(BASE_CFLAGS) $(PIC_CFLAGS) -fplt

# rb_obj SRC,DEFS[,KIND]: the object of SRC compiled with -D for each of
# DEFS (NAME=VALUE ...), PIC with -fplt (KIND pie: for the host executable),
# one per source and defines in $(RB)/objs/ (mk/compile.mk's compiled).
rb_sp := $() $()
rb_obj = $(call compiled,$(RB)/objs/$(basename $(notdir $1))$(subst $(rb_sp),,$(foreach d,$2,.$(subst =,-,$d)))$(if $3,.$3).o,$1,$(BASE_CFLAGS) $(if $(filter pie,$3),$(EXE_PIE_CFLAGS),$(PIC_CFLAGS) -fplt) $(addprefix -D,$2),$(wildcard $(RB_SRC)/*.h) $(RB_TABLE) | dirs/route-b)
RB_LAZY := -Wl,-z,lazy
# The directories the layouts write in, made before any recipe that writes
# in them by one mkdir (mk/compile.mk's lab_dirs, at the end of this file),
# not one a directory by each first compile or link into it: each rule
# below adds its own to rb_dirs. A row's directory is not among them (its
# rule makes it, from its layout's, with cp -al).
rb_dirs := $(RB)/objs
RB_RT := $(RB_SRC)/rt.c $(RB_SRC)/rt.h

# The host: one program, linked once and copied into every row (it opens
# the modules beside itself, through /proc/self/exe). The host layout's host
# is its own link: it embeds copy H and exports its two functions (as node
# exports its zlib and OpenSSL), named one by one: gold takes no glob in
# --export-dynamic-symbol.
RB_HOST := $(addprefix $(RB_SRC)/,host.c host_facts.c plt_slot.c host.h plt_slot.h)
RB_HOST_OBJS := $(foreach s,$(filter %.c,$(RB_HOST)),$(call rb_obj,$s,,pie))
$(RB)/host: $(RB_HOST_OBJS) $(RB_TABLE)
	$(Q)$(CC) $(LDFLAG_FUSE) $(BASE_CFLAGS) $(EXE_PIE_LDFLAGS) -o $@ $(filter %.o,$^) -ldl $(LINK_NOW)
$(RB)/%/app: $(RB)/host | dirs/route-b
	$(Q)$(dir_made) && cp $< $@.tmp && exec mv -f $@.tmp $@
rb_dirs += $(addprefix $(RB)/layouts/,$(rb_layouts))

define rb_host
$(RB)/$1/app: $(RB_HOST_OBJS) $(call rb_obj,$(RB_SRC)/rt.c,RT_COPY=H,pie) | dirs/route-b
	$$(Q)$$(CC) $$(LDFLAG_FUSE) $$(BASE_CFLAGS) $$(EXE_PIE_LDFLAGS) -o $$@ $$(filter %.o,$$^) -ldl \
		-Wl,--export-dynamic-symbol=rt_register,--export-dynamic-symbol=rt_get_list $$(LINK_NOW)
endef

# rb_vendored DIR,MOD[,EXTRA]: MOD/plugin.so with the runtime compiled in
# (copy MOD, default visibility, exported), plus EXTRA sources (the guard).
define rb_vendored
$(RB)/$1/$2/plugin.so: $(foreach s,$(RB_SRC)/plugin.c $(RB_SRC)/rt.c $3,$(call rb_obj,$s,RT_COPY=$2 RT_OWN=$2 PLUGIN=$2)) $(RB_TABLE) | dirs/route-b
	$$(Q)$$(RB_SO) -o $$@ $$(filter %.o,$$^) $$(LINK_NOW)
rb_dirs += $(RB)/$1/$2
$(RB)/$1/app: $(RB)/$1/$2/plugin.so
endef

# rb_runtime DIR,SUB,COPY: SUB/librt.so.1, copy COPY, SONAME librt.so.1: a
# hard link to the one link of that copy, $(RB)/runtimes/COPY/librt.so.1
# (rb_rt: its rule made the first time a layout ships the copy; the soname,
# hashed and torch layouts ship the same copies).
define rb_rt_rule
$(RB)/runtimes/$1/librt.so.1: $(call rb_obj,$(RB_SRC)/rt.c,RT_COPY=$1) $(RB_TABLE) | dirs/route-b
	$$(Q)$$(RB_SO) -Wl,-soname,librt.so.1 -o $$@ $$< $$(LINK_NOW)
rb_dirs += $(RB)/runtimes/$1
endef
rb_rts :=
rb_rt = $(if $(filter $1,$(rb_rts)),,$(eval rb_rts += $1)$(eval $(call rb_rt_rule,$1)))$(RB)/runtimes/$1/librt.so.1
define rb_runtime
$(RB)/$1/$2/librt.so.1: $(call rb_rt,$3) | dirs/route-b
	$$(Q)exec ln -f $$< $$@
rb_dirs += $(RB)/$1/$2
endef
# rb_same DIR,MOD,FROM: layout DIR's MOD is layout FROM's, hard-linked: its
# plugin.so, or (rb_same_graft) its grafted runtime, the name file and the
# stage it was grafted from. torch-lazy differs from torch only in B's plugin.
define rb_same
$(RB)/$1/$2/plugin.so: $(RB)/$3/$2/plugin.so | dirs/route-b
	$$(Q)exec ln -f $$< $$@
rb_dirs += $(RB)/$1/$2
$(RB)/$1/app: $(RB)/$1/$2/plugin.so
endef
define rb_same_graft
$(RB)/$1/$2/rt.name: $(RB)/$3/$2/rt.name | dirs/route-b
	$$(Q)rm -f $$(@D)/librt-*.so.1 && ln -f $(RB)/$3/$2/stage/librt.so.1 $$(@D)/stage/ && \
		ln -f $(RB)/$3/$2/$$$$(cat $$<) $$(@D)/ && ln -f $$< $$@
$(RB)/$1/app: $(RB)/$1/$2/rt.name
rb_dirs += $(RB)/$1/$2/stage
endef

# rb_hashed DIR,SUB,COPY: the same library built in SUB/stage/ and grafted
# into SUB as librt-<hash>.so.1; SUB/rt.name holds the name it got.
define rb_hashed
$(call rb_runtime,$1,$2/stage,$3)
$(RB)/$1/$2/rt.name: $(RB)/$1/$2/stage/librt.so.1 $(RB_SRC)/graft
	$$(Q)$(RB_SRC)/graft $$< $$(@D) $$(into_target)
endef

# rb_plugin DIR,MOD,SOURCE,LIBDIR,KIND,BIND: MOD/plugin.so from SOURCE with
# DT_NEEDED on the runtime in LIBDIR (KIND soname: librt.so.1; hashed: the
# grafted name), found through DT_RPATH $ORIGIN[/../LIBDIR]; LIBDIR is also
# the name of the copy built there (RT_OWN: the copy the plugin ships).
define rb_plugin
$(RB)/$1/$2/plugin.so: $(call rb_obj,$(RB_SRC)/$3,PLUGIN=$2 RT_OWN=$4) $(RB)/$1/$4/$(if $(filter hashed,$5),rt.name,librt.so.1) | dirs/route-b
	$$(Q)$$(RB_SO) -o $$@ $$< -L$(RB)/$1/$4 -Wl,--no-as-needed \
		-l:$(if $(filter hashed,$5),$$$$(cat $(RB)/$1/$4/rt.name),librt.so.1) \
		-Wl,--disable-new-dtags,-rpath,'$$$$ORIGIN$(if $(filter $2,$4),,/../$4)' $6
$(RB)/$1/app: $(RB)/$1/$2/plugin.so
rb_dirs += $(RB)/$1/$2
endef

# rb_worker DIR,MOD,SLOTS[,PREFIX]: MOD/plugin.so around its own version of
# the worker library (WORKER_SLOTS 8 or 12). With PREFIX, every global the
# library object defines, and the plugin's references to them, are renamed
# PREFIX<name> by objcopy from one map (what torchcomms' rename_symbols.sh
# and rdma-core's sanitize_static_lib.py do to a vendored static library).
define rb_worker
$(RB)/$1/$2/%.o: $(RB_SRC)/%.c $(RB_SRC)/worker.h $(RB_TABLE) | dirs/route-b
	$$(Q)$$(RB_CC) -DWORKER_SLOTS=$3 -DWORKER_COPY=$2 -c -o $$@ $$<
$(RB)/$1/$2/rename.map: $(RB)/$1/$2/worker.o
	$$(Q)$$(NM) -g --defined-only $$< | awk '{ print $$$$3, "$4" $$$$3 }' $$(into_target)
$(RB)/$1/$2/plugin.so: $(RB)/$1/$2/worker.o $(RB)/$1/$2/work_entry.o $(if $4,$(RB)/$1/$2/rename.map)
	$$(Q)$(if $4,for o in worker work_entry; do $$(OBJCOPY) --redefine-syms=$$(@D)/rename.map $$(@D)/$$$$o.o $$(@D)/$$$$o.renamed.o || exit 1; done && )\
		$$(CC) $$(LDFLAG_FUSE) $$(BASE_CFLAGS) $$(PIC_CFLAGS) -shared -o $$@ \
		$(if $4,$$(@D)/worker.renamed.o $$(@D)/work_entry.renamed.o,$$(filter %.o,$$^)) $$(LINK_NOW)
$(RB)/$1/app: $(RB)/$1/$2/plugin.so
rb_dirs += $(RB)/$1/$2
endef

# Layout rules (DIR = layouts/<layout>); every module is a prerequisite of
# the layout's app, so building it builds the layout.
$(foreach d,$(call rb_layout,vendored),$(foreach m,A B,$(eval $(call rb_vendored,$d,$m))))
# vendored3: three plugins, each with the runtime compiled in.
$(foreach d,$(call rb_layout,vendored3),$(foreach m,A B C,$(eval $(call rb_vendored,$d,$m))))
$(foreach d,$(call rb_layout,guarded),$(foreach m,A B,$(eval $(call rb_vendored,$d,$m,$(RB_SRC)/guard.c))))
$(foreach d,$(call rb_layout,hashed),$(foreach m,A B,$(eval $(call rb_hashed,$d,$m,$m))$(eval $(call rb_plugin,$d,$m,plugin.c,$m,hashed,$(LINK_NOW)))))
$(foreach d,$(call rb_layout,soname),$(foreach m,A B,$(eval $(call rb_runtime,$d,$m,$m))$(eval $(call rb_plugin,$d,$m,plugin.c,$m,soname,$(LINK_NOW)))))
# torch: T is libtorch_global_deps.so, A the extension beside it (both on
# T's copy, as torch/_C.so and libtorch_cpu.so use torch/lib's libgomp);
# B (faiss) and C (scikit-learn) each ship their own grafted copy.
$(foreach d,$(call rb_layout,torch),$(foreach m,T B C,$(eval $(call rb_hashed,$d,$m,$m))) \
	$(eval $(call rb_plugin,$d,T,deps.c,T,hashed,$(LINK_NOW))) \
	$(eval $(call rb_plugin,$d,A,plugin.c,T,hashed,$(LINK_NOW))) \
	$(eval $(call rb_plugin,$d,B,plugin.c,B,hashed,$(LINK_NOW))) \
	$(eval $(call rb_plugin,$d,C,plugin.c,C,hashed,$(LINK_NOW))))
# torch-lazy: torch's files (whether or not a row uses torch), B linked -z lazy.
$(foreach d,$(call rb_layout,torch-lazy),$(if $(call rb_layout,torch),,$(foreach m,T B C,$(eval $(call rb_hashed,layouts/torch,$m,$m))) \
		$(eval $(call rb_plugin,layouts/torch,T,deps.c,T,hashed,$(LINK_NOW))) \
		$(eval $(call rb_plugin,layouts/torch,A,plugin.c,T,hashed,$(LINK_NOW))) \
		$(eval $(call rb_plugin,layouts/torch,C,plugin.c,C,hashed,$(LINK_NOW)))) \
	$(foreach m,T B C,$(eval $(call rb_same_graft,$d,$m,layouts/torch))) \
	$(foreach m,T A C,$(eval $(call rb_same,$d,$m,layouts/torch))) \
	$(eval $(call rb_plugin,$d,B,plugin.c,B,hashed,$(RB_LAZY))))
$(foreach d,$(call rb_layout,canonical),$(eval $(call rb_runtime,$d,lib,lib)) \
	$(eval $(call rb_plugin,$d,T,deps.c,lib,soname,$(LINK_NOW))) \
	$(foreach m,A B C,$(eval $(call rb_plugin,$d,$m,plugin.c,lib,soname,$(LINK_NOW)))))
# promote: A needs its librt.so.1; T (a global-deps module) needs librt.so.1
# too and finds A's already loaded; C vendors its own copy.
$(foreach d,$(call rb_layout,promote),$(eval $(call rb_runtime,$d,A,A)) \
	$(eval $(call rb_plugin,$d,A,plugin.c,A,soname,$(LINK_NOW))) \
	$(eval $(call rb_plugin,$d,T,deps.c,A,soname,$(LINK_NOW))) \
	$(eval $(call rb_vendored,$d,C)))
$(foreach d,$(call rb_layout,host),$(eval $(call rb_host,$d))$(eval $(call rb_vendored,$d,A)))
$(foreach d,$(call rb_layout,worker),$(eval $(call rb_worker,$d,X,8))$(eval $(call rb_worker,$d,Y,12)))
$(foreach d,$(call rb_layout,renamed),$(eval $(call rb_worker,$d,X,8,X_))$(eval $(call rb_worker,$d,Y,12,Y_)))

# A row: its layout's files, hard-linked afresh whenever the layout or the
# table (which may give the row another layout) changes. The row's app is a
# copy, not a link: it is the row's time stamp, and a link would share the
# layout's (cp rewrites a file in place) and let a rebuilt layout look older.
# cp -al makes the row's directory itself (its parent holds the layouts), and
# the copy's rename replaces the row's link to the layout's app, never the
# layout's file: three processes a fresh row (rm only for a row made before).
define rb_row
$(RB)/$1/app: $(RB)/layouts/$(route-b.$1.layout)/app $(RB_TABLE)
	$$(Q){ [ ! -e $$(@D) ] || rm -rf $$(@D); } && cp -al $$(<D) $$(@D) && cp $$< $$@.tmp && exec mv -f $$@.tmp $$@
endef
$(foreach r,$(route-b.rows),$(eval $(call rb_row,$r)))
$(eval $(call lab_dirs,route-b,$(sort $(rb_dirs))))

# The run: no inherited loader variables (scripts/row-env: LD_BIND_NOW would
# undo the lazy rows), the steps from the table; run-row applies LAB_RUN.
# With EVIDENCE ($2, the record run_rows names, says so) the run is the
# evidence run too: run-row --out keeps its output (with a last maps step)
# and its LD_DEBUG=bindings,scopes lines in the row's facts.out and
# facts.debug, which loader-facts reads for every row in one pass once all
# ran (run_rows: ROWS).
route-b.run = $(SCRIPTS)/row-env --bare $(RB_SRC)/run-row $(if $2,--out $(addprefix $(B_ABS)/route-b/$1/,facts.out facts.debug)) $(RB)/$1/app $(route-b.$1.steps)
route-b.facts = $(RB_SRC)/loader-facts --rows $(foreach r,$1,'$r $(B_ABS)/route-b/$r')

# make route-b [ROW=<id>] [EVIDENCE=1], make evidence-route-b
$(eval $(call lab_entry,route-b,ROW,$(RB)/%/app))
FIXED_ROWS += route-b:fix-one-soname route-b:fix-renamed
HELP_LINES += "  make route-b      scope partition: vendored copies in RTLD_LOCAL plugins, promotion by load order (ROW=<id>, EVIDENCE=1)"
DEPS_PACKAGES += patchelf
