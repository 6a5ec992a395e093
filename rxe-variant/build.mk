# How each kind of row is built. Every row dir gets: rxe-lab (the app),
# libnccl-like.so (copy B's consumer), and for the dynamic kinds libinhouse.so
# plus whatever libibverbs the in-house side links.

$(RXE_B)/no-rdma-netlink: $(RXE_SRC)/no_rdma_netlink.c
	@mkdir -p $(@D)
	$(Q)$(CC) $(BASE_CFLAGS) $(EXE_PIE_CFLAGS) $(EXE_PIE_LDFLAGS) $(LDFLAG_FUSE) -o $@ $< -lseccomp

$(RXE_B)/sysfs/.done: $(RXE_SRC)/make-sysfs.sh
	$(Q)sh $< $(@D) && touch $@

# The NCCL-like consumer needs nothing but libdl: it finds copy B at run time.
$(RXE_B)/%/libnccl-like.so: $(RXE_SRC)/nccl_like.c $(RXE_COMMON_SRC) $(RXE_SRC)/rows
	@mkdir -p $(@D)
	$(Q)$(CC) $(RXE_CFLAGS) $(PIC_CFLAGS) -shared $(LDFLAG_FUSE) -o $@ $(RXE_SRC)/nccl_like.c $(RXE_SRC)/exercise.c -ldl $(LINK_NOW)

# Copy A for capture: the system library under another SONAME. Same code, same
# version nodes (IBVERBS_1.1, IBVERBS_PRIVATE_N), a name of its own, as a
# link group's bundled copy has.
$(RXE_B)/%/libibverbs-bundle.so.1:
	@mkdir -p $(@D)
	$(Q)cp $(RXE_LIBDIR)/libibverbs.so.1 $@.tmp && patchelf --set-soname libibverbs-bundle.so.1 $@.tmp && mv -f $@.tmp $@

# Copy A for same-soname: the same file keeping SONAME libibverbs.so.1.
$(RXE_B)/%/libibverbs.so.1:
	@mkdir -p $(@D)
	$(Q)cp $(RXE_LIBDIR)/libibverbs.so.1 $@.tmp && mv -f $@.tmp $@

# In-house DSO: --no-as-needed keeps the NEEDED entry that puts its
# libibverbs into the global scope, which is what the provider's plain
# import of verbs_register_driver_N then finds first.
rxe_inhouse_so = $(CC) $(RXE_CFLAGS) $(PIC_CFLAGS) -shared $(LDFLAG_FUSE) -o $@ \
	$(RXE_SRC)/inhouse.c $(RXE_SRC)/exercise.c -DINHOUSE_COPY='"$1"' \
	-Wl,--no-as-needed $2 $(RXE_ORIGIN) -ldl $(LINK_NOW)

# The app: main + GOT probe, linked against the row's consumers.
rxe_app_dyn = $(CC) $(RXE_CFLAGS) $(EXE_PIE_CFLAGS) $(EXE_PIE_LDFLAGS) $(LDFLAG_FUSE) -o $@ \
	$(RXE_SRC)/main.c $(RXE_SRC)/got_probe.c -L$(@D) -Wl,--no-as-needed \
	-linhouse -lnccl-like $(RXE_ORIGIN) -ldl $(LINK_NOW)

# Static kinds: libibverbs.a is not PIC (it cannot go into a DSO), so the
# in-house side is the app itself, position-dependent (-no-pie) so the
# archive needs no text relocations. RDMA_STATIC_PROVIDERS=rxe is rdma-core's
# documented way to pull the static rxe provider in; the archives are named
# by file so the linker cannot pick the shared library instead.
rxe_app_static = $(CC) $(RXE_CFLAGS) $(EXE_NOPIE_CFLAGS) $(EXE_NOPIE_LDFLAGS) $(LDFLAG_FUSE) $1 -o $@ \
	$(RXE_SRC)/main.c $(RXE_SRC)/got_probe.c $(RXE_SRC)/inhouse.c $(RXE_SRC)/exercise.c \
	-DRDMA_STATIC_PROVIDERS=rxe -DSTATIC_REGISTER_SYM=$(RXE_STATIC_SYM) \
	-DINHOUSE_COPY='"static copy (libibverbs.a, linked in)"' \
	-L$(@D) -Wl,--no-as-needed -lnccl-like $(RXE_ORIGIN) $(LINK_NOW) \
	-l:libibverbs.a -l:librxe-rdmav$(RXE_ABI).a -l:libibverbs.a \
	$$(pkg-config --libs libnl-route-3.0) -ldl

# The whole difference between the two static rows: whether the app's own
# symbols (the static libibverbs among them) enter the dynamic symbol table.
RXE_HIDDEN   = -Wl,--no-export-dynamic
RXE_EXPORTED = -Wl,--export-dynamic

RXE_APP_DEPS = $(RXE_SRC)/main.c $(RXE_SRC)/got_probe.c $(RXE_SRC)/got_probe.h \
	$(RXE_SRC)/inhouse.c $(RXE_COMMON_SRC) $(RXE_SRC)/build.mk $(RXE_SRC)/rows

define rxe_row_rules
ifeq ($2,bundle)
$(RXE_B)/$1/libinhouse.so: $(RXE_B)/$1/libibverbs-bundle.so.1 $(RXE_APP_DEPS)
	$(Q)$$(call rxe_inhouse_so,copy A (libibverbs-bundle.so.1),-L$$(@D) -l:libibverbs-bundle.so.1)
endif
ifeq ($2,same-soname)
$(RXE_B)/$1/libinhouse.so: $(RXE_B)/$1/libibverbs.so.1 $(RXE_APP_DEPS)
	$(Q)$$(call rxe_inhouse_so,copy A (bundled libibverbs.so.1),-L$$(@D) -l:libibverbs.so.1)
endif
ifeq ($2,system)
$(RXE_B)/$1/libinhouse.so: $(RXE_APP_DEPS)
	@mkdir -p $$(@D)
	$(Q)$$(call rxe_inhouse_so,system libibverbs.so.1,$$$$(pkg-config --libs libibverbs))
endif
ifneq ($(filter bundle same-soname system,$2),)
$(RXE_B)/$1/rxe-lab: $(RXE_B)/$1/libinhouse.so $(RXE_B)/$1/libnccl-like.so
	$(Q)$$(rxe_app_dyn)
endif
ifeq ($2,static)
$(RXE_B)/$1/rxe-lab: $(RXE_B)/$1/libnccl-like.so $(RXE_APP_DEPS)
	$(Q)$$(call rxe_app_static,$$(RXE_HIDDEN))
endif
ifeq ($2,static-exported)
$(RXE_B)/$1/rxe-lab: $(RXE_B)/$1/libnccl-like.so $(RXE_APP_DEPS)
	$(Q)$$(call rxe_app_static,$$(RXE_EXPORTED))
endif
endef
$(foreach r,$(RXE_ROWS),$(eval $(call rxe_row_rules,$r,$(rxe.$r.kind))))

RXE_APPS = $(foreach r,$(RXE_ROWS),$(RXE_B)/$r/rxe-lab)
rxe-build: $(RXE_APPS) $(RXE_B)/no-rdma-netlink $(RXE_B)/sysfs/.done
.PHONY: rxe-build
