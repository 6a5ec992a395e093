# loader-errors/: the loader refusing to start a program, as the field reports
# met it (README.md). Rows live in loader-errors/rows; each row builds its own
# directory $(B)/loader-errors/<id>/ whose file names are stable (symsplit's
# tests read them): app, and what app loads.
LE := $(B)/loader-errors
LE_SRC := loader-errors

$(call read_table,loader-errors,$(LE_SRC)/rows)
# a row's files are remade when the table's cells (its expect cells aside) or these recipes change
LE_TABLE := $(loader-errors.cells) $(LE_SRC)/lab.mk

# Every link states its flags, whatever the driver adds: PIE executables,
# --no-as-needed (each DT_NEEDED the row relies on stays), -z now unless the
# row is about lazy binding.
LE_CC  = $(CC) $(LDFLAG_FUSE) $(BASE_CFLAGS)
LE_EXE = $(EXE_PIE_CFLAGS) $(EXE_PIE_LDFLAGS) -Wl,--no-as-needed
LE_SO  = $(PIC_CFLAGS) -shared -Wl,--no-as-needed
# le_obj SRC,KIND[,DEF]: SRC compiled once (mk/compile.mk's compiled) for
# a shared library (KIND so: PIC) or an executable (exe: PIE), with -DDEF.
le_obj = $(call compiled,$(LE)/objs/$(basename $(notdir $1)).$2$(if $3,.$3).o,$1,$(BASE_CFLAGS) $(if $(filter so,$2),$(PIC_CFLAGS),$(EXE_PIE_CFLAGS)) $(addprefix -D,$3),$(wildcard $(LE_SRC)/*.h) $(LE_TABLE))
# le_runpath SUBDIR: DT_RUNPATH $ORIGIN<SUBDIR> (--enable-new-dtags: what the
# field reports met; searched after LD_LIBRARY_PATH, for the object's own
# direct dependencies only).
le_runpath = -Wl,--enable-new-dtags,-rpath,'$$ORIGIN$1'
# The crt start file of a PIE: its imports (__libc_start_main) belong in the
# stub libc too. Asked once, at its first use (a deferred = would ask at
# every use, := at every make's start).
LE_CRT = $(eval LE_CRT := $$(shell $(CC) -print-file-name=Scrt1.o))$(LE_CRT)

# The host libc's version facts (host=, next=, old=), derived once per build.
$(LE)/host-glibc.txt: $(LE_SRC)/host-glibc
	$(Q)$(dir_made) && $(LE_SRC)/host-glibc "$$($(CC) -print-file-name=libc.so.6)" $(into_target)

# le_rows CASE...: the rows whose case column is one of CASE.
le_rows = $(foreach r,$(loader-errors.rows),$(if $(filter $1,$(loader-errors.$r.case)),$r))

## Cases (the table's "case" column) ##########################################

# vers-old / vers-new: libv.so.1 release 2 (v_new in node LIB_2.0) in build/,
# which app links against; lib/ holds the release deployed next to app
# (release 1: LIB_1.0 only; or release 2), found by app's RUNPATH $ORIGIN/lib.
define le_vers
$(LE)/$1/build/libv.so.1: $(call le_obj,$(LE_SRC)/vers.c,so,LIBV_2) $(LE_SRC)/vers-2.map $(LE_TABLE)
	$$(Q)$$(LE_CC) $$(LE_SO) -Wl,-soname,libv.so.1 -Wl,--version-script=$(LE_SRC)/vers-2.map $$(LINK_NOW) -o $$@ $$<
$(LE)/$1/lib/libv.so.1: $(call le_obj,$(LE_SRC)/vers.c,so,$(if $(filter 2,$2),LIBV_2)) $(LE_SRC)/vers-$2.map $(LE_TABLE)
	$$(Q)$$(LE_CC) $$(LE_SO) -Wl,-soname,libv.so.1 -Wl,--version-script=$(LE_SRC)/vers-$2.map $$(LINK_NOW) -o $$@ $$<
$(LE)/$1/app: $(call le_obj,$(LE_SRC)/vers_app.c,exe) $(LE)/$1/build/libv.so.1 $(LE)/$1/lib/libv.so.1
	$$(Q)$$(LE_CC) $$(LE_EXE) -o $$@ $$< -L$$(@D)/build -l:libv.so.1 $$(call le_runpath,/lib) $$(LINK_NOW)
endef
$(foreach r,$(call le_rows,vers-old),$(eval $(call le_vers,$r,1)))
$(foreach r,$(call le_rows,vers-new),$(eval $(call le_vers,$r,2)))

# next / next-patched / host: a tool whose source calls strtoul.
#   next: compiled with NEXT_LIBC_HEADERS (strtoul becomes lab_strtoul_next,
#   as glibc 2.38's headers made it __isoc23_strtoul) and linked against
#   stub/libc.so.6, a stand-in for the next glibc's libc (stub-libc; -L stub
#   makes the driver's own -lc find stub/libc.so before the system's): app
#   needs GLIBC_<host+1> from libc.so.6. --allow-shlib-undefined: libgcc_s's
#   own libc imports are for the run-time libc, not the stub (lld checks them).
#   next-patched: that app (app.orig) with the node name sed-patched (sed-version);
#   next-patched-hash: the name and its vna_hash patched (sed-version --hash).
#   next-patchelf: that app with patchelf --clear-symbol-version on the new symbol.
#   host: the same source rebuilt with the host's headers and libc.
define le_next
$(LE)/$1/next_app.o: $(LE_SRC)/next_app.c $(LE_SRC)/called.h $(LE_TABLE)
	$$(Q)$$(COMPILE) $$(BASE_CFLAGS) $$(EXE_PIE_CFLAGS) -DNEXT_LIBC_HEADERS -c -o $$@ $$<
$(LE)/$1/stub/libc.so.6: $(LE)/$1/next_app.o $(LE)/host-glibc.txt $(LE_SRC)/stub-libc
	$$(Q)$$(dir_made) && $(LE_SRC)/stub-libc $(LE)/host-glibc.txt lab_strtoul_next $$(@D)/libc $$< $$(LE_CRT)
	$$(Q)$$(LE_CC) $$(LE_SO) -nostdlib -fno-builtin -w -Wl,-soname,libc.so.6 -Wl,--version-script=$$(@D)/libc.map \
		-o $$@ $$(@D)/libc.c && ln -sf libc.so.6 $$(@D)/libc.so
$(LE)/$1/$2: $(LE)/$1/next_app.o $(LE)/$1/stub/libc.so.6
	$$(Q)$$(LE_CC) $$(LE_EXE) -o $$@ $$< -L$$(@D)/stub -Wl,--allow-shlib-undefined $$(LINK_NOW)
endef
# The program and its stub libc are the same in every next row and every
# patched one: made once, in the first next row, and hard-linked into the
# others (as app.orig in the patched rows), the stub's libc.so link made anew.
le_next_first := $(firstword $(call le_rows,next))
define le_next_same
$(LE)/$1/$2: $(LE)/$(le_next_first)/app
	@mkdir -p $$(@D)/stub
	$$(Q)ln -f $(LE)/$(le_next_first)/stub/libc.so.6 $$(@D)/stub/ && ln -sf libc.so.6 $$(@D)/stub/libc.so && ln -f $$< $$@
endef
$(if $(le_next_first),$(eval $(call le_next,$(le_next_first),app)))
$(foreach r,$(filter-out $(le_next_first),$(call le_rows,next)),$(eval $(call le_next_same,$r,app)))
$(foreach r,$(call le_rows,next-patched next-patched-hash next-patchelf),$(eval $(if $(le_next_first),$(call le_next_same,$r,app.orig),$(call le_next,$r,app.orig))))
define le_sed_version
$(LE)/$1/app: $(LE)/$1/app.orig $(LE)/host-glibc.txt $(LE_SRC)/sed-version
	$$(Q)$(LE_SRC)/sed-version $2 $(LE)/host-glibc.txt $$< $$@
endef
$(foreach r,$(call le_rows,next-patched),$(eval $(call le_sed_version,$r,)))
$(foreach r,$(call le_rows,next-patched-hash),$(eval $(call le_sed_version,$r,--hash)))
define le_patchelf
$(LE)/$1/app: $(LE)/$1/app.orig
	$$(Q)cp $$< $$@.tmp && patchelf --clear-symbol-version lab_strtoul_next $$@.tmp && exec mv $$@.tmp $$@
endef
$(foreach r,$(call le_rows,next-patchelf),$(eval $(call le_patchelf,$r)))
define le_host
$(LE)/$1/app: $(call le_obj,$(LE_SRC)/next_app.c,exe) $(LE_TABLE)
	$$(Q)$$(LE_CC) $$(LE_EXE) -o $$@ $$< $$(LINK_NOW)
endef
$(foreach r,$(call le_rows,host),$(eval $(call le_host,$r)))

# The field report's shim (workarounds 1 and 2): lab_strtoul_next under the
# node app needs (shim.map), as libshim.so, or with the SONAME libc.so.6.
$(LE)/%/shim.map: $(LE)/host-glibc.txt $(LE_TABLE)
	@mkdir -p $(@D)
	$(Q)echo "$$(sed -n 's/^next=//p' $<) { global: lab_strtoul_next; local: *; };" $(into_target)
$(LE)/%/libshim.so: $(call le_obj,$(LE_SRC)/shim.c,so) $(LE)/%/shim.map
	$(Q)$(LE_CC) $(LE_SO) -Wl,-soname,libshim.so -Wl,--version-script=$(@D)/shim.map $(LINK_NOW) -o $@ $<
$(LE)/%/libc-shim.so: $(call le_obj,$(LE_SRC)/shim.c,so) $(LE)/%/shim.map
	$(Q)$(LE_CC) $(LE_SO) -Wl,-soname,libc.so.6 -Wl,--version-script=$(@D)/shim.map $(LINK_NOW) -o $@ $<

# slash / slash-fix: libmath.so without a SONAME, so the name on app's link
# line becomes its NEEDED entry. The link runs inside the row directory, as
# the write-up's did: slash names ./libmath.so (NEEDED ./libmath.so), slash-fix
# says -L. -lmath (NEEDED libmath.so). Both carry RUNPATH $ORIGIN.
define le_slash
$(LE)/$1/libmath.so: $(call le_obj,$(LE_SRC)/math.c,so) $(LE_TABLE)
	$$(Q)$$(LE_CC) $$(LE_SO) $$(LINK_NOW) -o $$@ $$<
$(LE)/$1/math_app.o: $(LE_SRC)/math_app.c $(LE_SRC)/called.h $(LE_TABLE)
	$$(Q)$$(COMPILE) $$(BASE_CFLAGS) $$(EXE_PIE_CFLAGS) -c -o $$@ $$<
$(LE)/$1/app: $(LE)/$1/math_app.o $(LE)/$1/libmath.so
	$$(Q)cd $$(@D) && $$(CC) $$(LDFLAG_FUSE) $$(EXE_PIE_LDFLAGS) -Wl,--no-as-needed -o app math_app.o $2 $$(call le_runpath,) $$(LINK_NOW)
endef
$(foreach r,$(call le_rows,slash),$(eval $(call le_slash,$r,./libmath.so)))
$(foreach r,$(call le_rows,slash-fix),$(eval $(call le_slash,$r,-L. -lmath)))

# devname / devname-linked: lib/libaccel.so is the only file, a real library
# whose SONAME is libaccel.so.1 (CUDA's stub directory holds libcuda.so so);
# app links -laccel, so NEEDED is the SONAME. devname-linked adds the SONAME
# link the way ldconfig makes it (-n: only this directory, no cache).
define le_devname
$(LE)/$1/lib/libaccel.so: $(call le_obj,$(LE_SRC)/accel.c,so) $(LE_TABLE)
	$$(Q)$$(LE_CC) $$(LE_SO) -Wl,-soname,libaccel.so.1 $$(LINK_NOW) -o $$@ $$<
$(LE)/$1/app: $(call le_obj,$(LE_SRC)/accel_app.c,exe) $(LE)/$1/lib/libaccel.so
	$$(Q)$$(LE_CC) $$(LE_EXE) -o $$@ $$< -L$$(@D)/lib -laccel $$(call le_runpath,/lib) $$(LINK_NOW)
endef
$(foreach r,$(call le_rows,devname devname-linked),$(eval $(call le_devname,$r)))
$(foreach r,$(call le_rows,devname-linked),$(eval $(LE)/$r/app: $(LE)/$r/lib/libaccel.so.1))
$(LE)/%/lib/libaccel.so.1: $(LE)/%/lib/libaccel.so
	$(Q)ldconfig -n $(@D) && test -L $@

# outside / outside-runpath: libaccel.so.1 in wsl/lib/ (WSL2 keeps the
# driver's libcuda.so.1 in /usr/lib/wsl/lib): the app has no RUNPATH, or
# RUNPATH $ORIGIN/wsl/lib. ld.so.conf names the directory for the private
# cache (run spec ldconf:).
define le_outside
$(LE)/$1/wsl/lib/libaccel.so.1: $(call le_obj,$(LE_SRC)/accel.c,so) $(LE_TABLE)
	$$(Q)$$(LE_CC) $$(LE_SO) -Wl,-soname,libaccel.so.1 $$(LINK_NOW) -o $$@ $$<
$(LE)/$1/app: $(call le_obj,$(LE_SRC)/accel_app.c,exe) $(LE)/$1/wsl/lib/libaccel.so.1
	$$(Q)$$(LE_CC) $$(LE_EXE) -o $$@ $$< -L$$(@D)/wsl/lib -l:libaccel.so.1 $2 $$(LINK_NOW)
endef
# ld.so.conf names the row's own directory.
define le_ldconf
$(LE)/$1/ld.so.conf: $(LE_TABLE)
	$$(Q)$$(dir_made) && echo $$(abspath $$(@D))/wsl/lib $$(into_target)
endef
# The outside rows differ only in how they run: their files are the first
# one's, hard-linked.
le_outside_first := $(firstword $(call le_rows,outside))
define le_outside_same
$(LE)/$1/app: $(LE)/$(le_outside_first)/app
	@mkdir -p $$(@D)/wsl/lib
	$$(Q)ln -f $(LE)/$(le_outside_first)/wsl/lib/libaccel.so.1 $$(@D)/wsl/lib/ && ln -f $$< $$@
endef
$(foreach r,$(call le_rows,outside outside-runpath),$(eval $(call le_ldconf,$r)))
$(if $(le_outside_first),$(eval $(call le_outside,$(le_outside_first),)))
$(foreach r,$(filter-out $(le_outside_first),$(call le_rows,outside)),$(eval $(call le_outside_same,$r)))
$(foreach r,$(call le_rows,outside-runpath),$(eval $(call le_outside,$r,$$(call le_runpath,/wsl/lib))))

# outer / outer-fix: app (RUNPATH $ORIGIN/lib) -> lib/libouter.so ->
# lib/libinner.so. libouter.so has no RUNPATH (outer) or its own $ORIGIN
# (outer-fix). -rpath-link lets the linker check libouter.so's imports.
define le_outer
$(LE)/$1/lib/libinner.so: $(call le_obj,$(LE_SRC)/inner.c,so) $(LE_TABLE)
	$$(Q)$$(LE_CC) $$(LE_SO) -Wl,-soname,libinner.so $$(LINK_NOW) -o $$@ $$<
$(LE)/$1/lib/libouter.so: $(call le_obj,$(LE_SRC)/outer.c,so) $(LE)/$1/lib/libinner.so
	$$(Q)$$(LE_CC) $$(LE_SO) -Wl,-soname,libouter.so -o $$@ $$< -L$$(@D) -linner $2 $$(LINK_NOW)
$(LE)/$1/app: $(call le_obj,$(LE_SRC)/outer_app.c,exe) $(LE)/$1/lib/libouter.so
	$$(Q)$$(LE_CC) $$(LE_EXE) -o $$@ $$< -L$$(@D)/lib -louter -Wl,-rpath-link,$$(@D)/lib $$(or $$(LE_APP_RUNPATH),$$(call le_runpath,/lib)) $$(LINK_NOW)
endef
$(foreach r,$(call le_rows,outer),$(eval $(call le_outer,$r,)))
$(foreach r,$(call le_rows,outer-fix),$(eval $(call le_outer,$r,$$(call le_runpath,))))

# The private tree a secure-mode run copies the row into (loader-errors/run
# --private): an absolute RUNPATH that names it is searched in secure mode,
# where $ORIGIN in app's own RUNPATH is not. Asked once, when a recipe
# first needs it, not at every make's start.
LE_PRIVATE = $(eval LE_PRIVATE := $$(shell $(LE_SRC)/run --private))$(LE_PRIVATE)
le_private_runpath = -Wl,--enable-new-dtags,-rpath,$(LE_PRIVATE)$1

# outer-abs: outer-fix with app's RUNPATH absolute, <private>/lib: only
# libouter.so's own RUNPATH says $ORIGIN.
$(foreach r,$(call le_rows,outer-abs),$(eval $(call le_outer,$r,$$(call le_runpath,))) \
	$(eval $(LE)/$r/app: LE_APP_RUNPATH = $$(call le_private_runpath,/lib)))

# preload-abs / preload-abs-plain: libaccel.so.1 and the shim lib/libpre.so
# (preload.c: it defines accel_driver too) in lib/, app's RUNPATH
# <private>/lib, absolute. set-user-id lists the files the private tree
# holds set-user-ID root: the shim (preload-abs), or none (preload-abs-plain).
define le_preload
$(LE)/$1/lib/libaccel.so.1: $(call le_obj,$(LE_SRC)/accel.c,so) $(LE_TABLE)
	$$(Q)$$(LE_CC) $$(LE_SO) -Wl,-soname,libaccel.so.1 $$(LINK_NOW) -o $$@ $$<
$(LE)/$1/lib/libpre.so: $(call le_obj,$(LE_SRC)/preload.c,so) $(LE_TABLE)
	$$(Q)$$(LE_CC) $$(LE_SO) -Wl,-soname,libpre.so $$(LINK_NOW) -o $$@ $$<
$(LE)/$1/set-user-id: $(LE_TABLE)
	$$(Q)$$(dir_made) && echo $2 $$(into_target)
$(LE)/$1/app: $(call le_obj,$(LE_SRC)/accel_app.c,exe) $(LE)/$1/lib/libaccel.so.1 $(LE)/$1/lib/libpre.so $(LE)/$1/set-user-id
	$$(Q)$$(LE_CC) $$(LE_EXE) -o $$@ $$< -L$$(@D)/lib -l:libaccel.so.1 $$(call le_private_runpath,/lib) $$(LINK_NOW)
endef
$(foreach r,$(call le_rows,preload-abs),$(eval $(call le_preload,$r,lib/libpre.so)))
$(foreach r,$(call le_rows,preload-abs-plain),$(eval $(call le_preload,$r,)))

# dlcaller-*: app -> lib/libcaller.so, whose code dlopens "libplug.so", kept
# in plug/. Only app names plug/ (with lib/): as DT_RUNPATH (dlcaller-runpath)
# or DT_RPATH (dlcaller-rpath*); libcaller.so has no search path, or a
# DT_RUNPATH naming a directory that does not exist (dlcaller-rpath-lib-runpath).
le_app_rpath = -Wl,--disable-new-dtags,-rpath,'$$ORIGIN/lib:$$ORIGIN/plug'
le_app_runpath = -Wl,--enable-new-dtags,-rpath,'$$ORIGIN/lib:$$ORIGIN/plug'
define le_dlcaller
$(LE)/$1/plug/libplug.so: $(LE_SRC)/plug.c $(LE_TABLE)
	$$(Q)$$(LE_CC) $$(LE_SO) -Wl,-soname,libplug.so $$(LINK_NOW) -o $$@ $$<
$(LE)/$1/lib/libcaller.so: $(LE_SRC)/caller.c $(LE_TABLE)
	$$(Q)$$(LE_CC) $$(LE_SO) -Wl,-soname,libcaller.so $3 $$(LINK_NOW) -o $$@ $$<
# dlopens: the run-time dlopen the image makes, as symsplit's --dlopen takes it
# (test/symsplit-labs.bats): a file of the row, so the name is written once, here
$(LE)/$1/dlopens: $(LE_TABLE)
	$$(Q)$$(dir_made) && echo libplug.so:by=libcaller.so $$(into_target)
$(LE)/$1/app: $(LE_SRC)/caller_app.c $(LE_SRC)/called.h $(LE)/$1/lib/libcaller.so $(LE)/$1/plug/libplug.so $(LE)/$1/dlopens
	$$(Q)$$(LE_CC) $$(LE_EXE) -o $$@ $$< -L$$(@D)/lib -lcaller $2 $$(LINK_NOW)
endef
$(foreach r,$(call le_rows,dlcaller-runpath),$(eval $(call le_dlcaller,$r,$$(le_app_runpath),)))
$(foreach r,$(call le_rows,dlcaller-rpath),$(eval $(call le_dlcaller,$r,$$(le_app_rpath),)))
$(foreach r,$(call le_rows,dlcaller-rpath-lib-runpath),$(eval $(call le_dlcaller,$r,$$(le_app_rpath),$$(call le_runpath,/missing))))

# gotwatch: app-lazy (-z lazy -z relro: partial RELRO, .got.plt stays
# writable) and app-now (-z now -z relro: full RELRO), both calling
# got_target() in libgot.so through the PLT. app is app-lazy (a symlink:
# make reads app-lazy's time through it, so app-now is order-only).
define le_gotwatch
$(LE)/$1/libgot.so: $(call le_obj,$(LE_SRC)/got_target.c,so) $(LE_TABLE)
	$$(Q)$$(LE_CC) $$(LE_SO) -Wl,-soname,libgot.so -o $$@ $$<
$(LE)/$1/app-%: $(call le_obj,$(LE_SRC)/got_watch.c,exe) $(LE)/$1/libgot.so
	$$(Q)$$(LE_CC) $$(LE_EXE) -o $$@ $$< -L$$(@D) -lgot $$(call le_runpath,) -Wl,-z,$$* -Wl,-z,relro
$(LE)/$1/app: $(LE)/$1/app-lazy | $(LE)/$1/app-now
	$$(Q)ln -sf app-lazy $$@
endef
$(foreach r,$(call le_rows,gotwatch),$(eval $(call le_gotwatch,$r)))

## Runs ######################################################################

# What a row's run words need besides app: a preloaded file, an ld.so.conf,
# another program, the empty directory "elsewhere" is run from. Made before
# app, order-only: app is not made from them (a row's app hard-linked from
# another row keeps that row's older time, and would be linked again at
# every make); the capture is run again when the lab's sources change.
le_run_files = $(patsubst preload:%,%,$(patsubst ldconf:%,%,$(patsubst here:%,%,$(filter preload:% ldconf:% here:%,$(subst trace+,,$1)))))
$(foreach r,$(loader-errors.rows),$(eval $(LE)/$r/app: | $(addprefix $(LE)/$r/,$(call le_run_files,$(loader-errors.$r.run)))))
$(foreach r,$(loader-errors.rows),$(if $(filter elsewhere,$(loader-errors.$r.run)),$(eval $(LE)/$r/app: | $(LE)/$r/elsewhere)))
# The runner reads the host's version facts for every row.
$(foreach r,$(loader-errors.rows),$(eval $(LE)/$r/app: | $(LE)/host-glibc.txt))
$(LE)/%/elsewhere:
	$(Q)mkdir -p $@
# Each row's .run, the runner's scratch directory (loader-errors/run), made
# before the rows' apps by one mkdir for the lab (mk/compile.mk's lab_dirs),
# not one a row as each runs.
$(eval $(call lab_dirs,loader-errors,$(foreach r,$(loader-errors.rows),$(LE)/$r/.run)))
$(foreach r,$(loader-errors.rows),$(eval $(LE)/$r/app: | dirs/loader-errors))

# Its pictures (scripts/diagram-loader) take the loader's record from a
# plain ld.so --list of their own, not from the run.
loader-errors.diagram-ld-debug :=
# The row's directory absolute and physical (B_ABS): the scripts take it as
# given, with no cd and no subshell.
# A secure-mode or private-cache run asks whether a private mount namespace
# can be made here (scripts/private-mounts, about four processes), a
# secure-mode run which group nobody has (id): the same answers for every
# row, asked at the first row of a run that needs them by the shell that
# runs every row (run_rows), kept in its variables and handed to each
# row's run, not asked again a row.
le_secure := setuid+% nobody+% setgid+% setcap+%
le_asked = $(if $(filter $(le_secure) ldconf:%,$1),LE_PRIVATE_MOUNTS="$${le_pm=$$($(SCRIPTS)/private-mounts)}" )$(if $(filter $(le_secure),$1),LE_NOBODY_GROUP="$${le_group=$$(id -gn nobody 2>/dev/null)}" )
# With the evidence, a row's plain run keeps the loader's search for the
# facts in RECORD.<row> (run_rows' second argument): app is not run again
# for it.
loader-errors.run = $(call le_asked,$(patsubst trace+%,%,$(loader-errors.$1.run)))$(LE_SRC)/run $(if $2,--libs $2 )$(B_ABS)/loader-errors/$1 $(LE)/host-glibc.txt $(loader-errors.$1.run)
# The facts of every row read in one pass once the rows ran (run_rows: a
# lab's $(LAB.facts)), not one pass a row.
loader-errors.facts = $(LE_SRC)/facts --libs $2 $(LE)/host-glibc.txt $(addprefix $(B_ABS)/loader-errors/,$1)

# make loader-errors [ROW=<id>] [EVIDENCE=1], make evidence-loader-errors
$(eval $(call lab_entry,loader-errors,ROW,$(LE)/%/app))
# Not in a cross compiler's column (scripts/toolchain-facts says so there):
# the rows that need ldconfig, which is this machine's and reads only this
# architecture's libraries (measured: "libaccel.so is for unknown machine 183"),
# and the secure-mode rows: under qemu-user the kernel starts the emulator,
# not app, so app's set-ID bit or file capability makes no secure mode.
loader-errors.native-only-rows := missing-soname-link-fix outside-search-path-ld-so-conf $(filter secure-mode-%,$(loader-errors.rows))
loader-errors.native-only := ldconfig is this machine's and reads only its own architecture's libraries (the SONAME link, the private ld.so.cache); under an emulator app's set-ID bit or file capability makes no secure mode
# The rows whose expect cell means "the fix works".
FIXED_ROWS += $(addprefix loader-errors:,version-not-found-fix glibc-too-new-fix slash-in-needed-fix \
	missing-soname-link-fix outside-search-path-ld-library-path outside-search-path-runpath \
	outside-search-path-ld-so-conf runpath-not-transitive-fix)
HELP_LINES += "  make loader-errors  the loader refusing to start a program, and the fixes (ROW=<id> for one, EVIDENCE=1 for the facts)"
# unshare (util-linux) and mount (mount) for the private cache, ldconfig
# (libc-bin), readelf and objdump (binutils) for the facts, patchelf for the
# fourth workaround, setcap (libcap2-bin) for the file-capability row.
DEPS_PACKAGES += util-linux mount libc-bin binutils patchelf libcap2-bin
