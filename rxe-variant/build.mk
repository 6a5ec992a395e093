# How each kind of row is built. Every row dir gets: rxe-lab (the app),
# libnccl-like.so (copy B's consumer), and for the dynamic kinds libinhouse.so
# plus whatever libibverbs the in-house side links.

# rxe_obj SRC,KIND,FLAGS: SRC compiled once per KIND (mk/compile.mk's
# compiled: ccache shares it between toolchains) in $(RXE_B)/objs/; again
# when rdma-core's facts change (its flags carry them).
rxe_obj = $(call compiled,$(RXE_B)/objs/$(basename $(notdir $1)).$2.o,$1,$3,$(RXE_COMMON_SRC) $(RXE_SRC)/got_probe.h $(RXE_SRC)/build.mk $(RXE_FACTS))
RXE_PIC := $(RXE_CFLAGS) $(PIC_CFLAGS)
RXE_PIE := $(RXE_CFLAGS) $(EXE_PIE_CFLAGS)
# INHOUSE_COPY: what the in-house side calls its copy, per kind of row.
rxe_copy.bundle := copy A (libibverbs-bundle.so.1)
rxe_copy.same-soname := copy A (bundled libibverbs.so.1)
rxe_copy.system := system libibverbs.so.1
rxe_copy.static := static copy (libibverbs.a, linked in)
rxe_inhouse_flags = $(RXE_PIC) -DINHOUSE_COPY='"$(rxe_copy.$1)"'
RXE_STATIC_FLAGS = $(RXE_CFLAGS) $(EXE_NOPIE_CFLAGS) -DRDMA_STATIC_PROVIDERS=rxe -DSTATIC_REGISTER_SYM=$$(RXE_STATIC_SYM) -DINHOUSE_COPY='"$(rxe_copy.static)"'

$(RXE_B)/no-rdma-netlink: $(call rxe_obj,$(RXE_SRC)/no_rdma_netlink.c,pie,$(BASE_CFLAGS) $(EXE_PIE_CFLAGS))
	$(Q)$(CC) $(BASE_CFLAGS) $(EXE_PIE_LDFLAGS) $(LDFLAG_FUSE) -o $@ $< -lseccomp

$(RXE_B)/sysfs/.done: $(RXE_SRC)/make-sysfs.sh
	$(Q)sh $< $(@D) && touch $@

# The NCCL-like consumer needs nothing but libdl: it finds copy B at run time.
# The same in every row: linked once, hard-linked into each row.
$(RXE_B)/shared/libnccl-like.so: $(call rxe_obj,$(RXE_SRC)/nccl_like.c,pic,$(RXE_PIC)) $(call rxe_obj,$(RXE_SRC)/exercise.c,pic,$(RXE_PIC)) $(rxe.cells)
	$(Q)$(CC) $(BASE_CFLAGS) -shared $(LDFLAG_FUSE) -o $@ $(filter %.o,$^) -ldl $(LINK_NOW)
$(RXE_B)/%/libnccl-like.so: $(RXE_B)/shared/libnccl-like.so
	$(Q)$(dir_made) && exec ln -f $< $@

# Copy A for capture: the system library under another SONAME. Same code, same
# version nodes (IBVERBS_1.1, IBVERBS_PRIVATE_N), a name of its own, as a
# link group's bundled copy has. Copied again when rdma-core's facts change.
$(RXE_B)/%/libibverbs-bundle.so.1: $(RXE_FACTS)
	$(Q)$(dir_made) && cp $(RXE_LIBDIR)/libibverbs.so.1 $@.tmp && patchelf --set-soname libibverbs-bundle.so.1 $@.tmp && exec mv -f $@.tmp $@

# Copy A for same-soname: the same file keeping SONAME libibverbs.so.1.
$(RXE_B)/%/libibverbs.so.1: $(RXE_FACTS)
	$(Q)$(dir_made) && cp $(RXE_LIBDIR)/libibverbs.so.1 $@.tmp && exec mv -f $@.tmp $@

# In-house DSO: --no-as-needed keeps the NEEDED entry that puts its
# libibverbs into the global scope, which is what the provider's plain
# import of verbs_register_driver_N then finds first.
rxe_inhouse_objs = $(call rxe_obj,$(RXE_SRC)/inhouse.c,$1,$(call rxe_inhouse_flags,$1)) $(call rxe_obj,$(RXE_SRC)/exercise.c,pic,$(RXE_PIC))
rxe_inhouse_so = $(CC) $(BASE_CFLAGS) -shared $(LDFLAG_FUSE) -o $@ \
	$(call rxe_inhouse_objs,$1) \
	-Wl,--no-as-needed $2 $(RXE_ORIGIN) -ldl $(LINK_NOW)

# The app: main + GOT probe, linked against the row's consumers.
RXE_DYN_OBJS = $(call rxe_obj,$(RXE_SRC)/main.c,pie,$(RXE_PIE)) $(call rxe_obj,$(RXE_SRC)/got_probe.c,pie,$(RXE_PIE))
rxe_app_dyn = $(CC) $(BASE_CFLAGS) $(EXE_PIE_LDFLAGS) $(LDFLAG_FUSE) -o $@ \
	$(RXE_DYN_OBJS) -L$(@D) -Wl,--no-as-needed \
	-linhouse -lnccl-like $(RXE_ORIGIN) -ldl $(LINK_NOW)

# Static kinds: libibverbs.a is not PIC (it cannot go into a DSO), so the
# in-house side is the app itself, position-dependent (-no-pie) so the
# archive needs no text relocations. RDMA_STATIC_PROVIDERS=rxe is rdma-core's
# documented way to pull the static rxe provider in; the archives are named
# by file so the linker cannot pick the shared library instead.
RXE_STATIC_OBJS = $(foreach s,main got_probe inhouse exercise,$(call rxe_obj,$(RXE_SRC)/$s.c,static,$(RXE_STATIC_FLAGS)))
rxe_app_static = $(CC) $(BASE_CFLAGS) $(EXE_NOPIE_LDFLAGS) $(LDFLAG_FUSE) $1 -o $@ \
	$(RXE_STATIC_OBJS) \
	-L$(@D) -Wl,--no-as-needed -lnccl-like $(RXE_ORIGIN) $(LINK_NOW) \
	-l:libibverbs.a -l:librxe-rdmav$(RXE_ABI).a -l:libibverbs.a \
	$$(pkg-config --libs libnl-route-3.0) -ldl

# The whole difference between the two static rows: whether the app's own
# symbols (the static libibverbs among them) enter the dynamic symbol table.
RXE_HIDDEN   = -Wl,--no-export-dynamic
RXE_EXPORTED = -Wl,--export-dynamic

RXE_APP_DEPS = $(RXE_SRC)/main.c $(RXE_SRC)/got_probe.c $(RXE_SRC)/got_probe.h \
	$(RXE_SRC)/inhouse.c $(RXE_COMMON_SRC) $(RXE_SRC)/build.mk $(rxe.cells)

define rxe_row_rules
ifeq ($2,bundle)
$(RXE_B)/$1/libinhouse.so: $(RXE_B)/$1/libibverbs-bundle.so.1 $(call rxe_inhouse_objs,bundle) $(RXE_APP_DEPS)
	$(Q)$$(call rxe_inhouse_so,bundle,-L$$(@D) -l:libibverbs-bundle.so.1)
endif
ifeq ($2,same-soname)
$(RXE_B)/$1/libinhouse.so: $(RXE_B)/$1/libibverbs.so.1 $(call rxe_inhouse_objs,same-soname) $(RXE_APP_DEPS)
	$(Q)$$(call rxe_inhouse_so,same-soname,-L$$(@D) -l:libibverbs.so.1)
endif
ifeq ($2,system)
$(RXE_B)/$1/libinhouse.so: $(call rxe_inhouse_objs,system) $(RXE_APP_DEPS)
	$(Q)$$(call rxe_inhouse_so,system,$$$$(pkg-config --libs libibverbs))
endif
ifneq ($(filter bundle same-soname system,$2),)
$(RXE_B)/$1/rxe-lab: $(RXE_B)/$1/libinhouse.so $(RXE_B)/$1/libnccl-like.so $(RXE_DYN_OBJS)
	$(Q)$$(rxe_app_dyn)
endif
ifeq ($2,static)
$(RXE_B)/$1/rxe-lab: $(RXE_B)/$1/libnccl-like.so $(RXE_STATIC_OBJS) $(RXE_APP_DEPS)
	$(Q)$$(call rxe_app_static,$$(RXE_HIDDEN))
endif
ifeq ($2,static-exported)
$(RXE_B)/$1/rxe-lab: $(RXE_B)/$1/libnccl-like.so $(RXE_STATIC_OBJS) $(RXE_APP_DEPS)
	$(Q)$$(call rxe_app_static,$$(RXE_EXPORTED))
endif
endef
$(foreach r,$(RXE_ROWS),$(eval $(call rxe_row_rules,$r,$(rxe.$r.kind))))

RXE_APPS = $(foreach r,$(RXE_ROWS),$(RXE_B)/$r/rxe-lab)
rxe-build: $(RXE_APPS) $(RXE_B)/no-rdma-netlink $(RXE_B)/sysfs/.done
.PHONY: rxe-build
