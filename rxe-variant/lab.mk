# rxe-variant: the split-state incident on Debian's real rdma-core.
# Rows come from rxe-variant/rows; tiers: emulated (here, CI), kernel (host
# with rdma_rxe, root), vm (QEMU guest booted from Debian's kernel package).

RXE_SRC := rxe-variant
RXE_B   := $(B)/rxe-variant

# Facts read from the installed rdma-core, never written down: the library
# directory (pkg-config), the private ABI number N of verbs_register_driver_N
# (libibverbs.so.1's dynamic symbols) and the name the static archive gives it
# (rdma-core's libibverbs.a renames its private symbols).
# Each is read once, when a recipe first needs it (a plain deferred = would
# ask again at each use; := would ask at every make's start, rxe's goals or
# not). The compile flags therefore carry $$(RXE_ABI) unexpanded into the
# recipes mk/compile.mk's compiled makes.
RXE_LIBDIR = $(eval RXE_LIBDIR := $$(shell pkg-config --variable=libdir libibverbs 2>/dev/null))$(RXE_LIBDIR)
RXE_ABI    = $(eval RXE_ABI := $$(shell $(RXE_SRC)/verbs-abi $$(RXE_LIBDIR)))$(RXE_ABI)
RXE_STATIC_SYM = $(eval RXE_STATIC_SYM := $$(shell $$(NM) $$(RXE_LIBDIR)/libibverbs.a 2>/dev/null | sed -n 's/^[0-9a-f]* T \(.*verbs_register_driver_$$(RXE_ABI)\)$$$$/\1/p'))$(RXE_STATIC_SYM)

# The row table, through the shared reader: rxe.rows, rxe.<id>.kind,
# rxe.<id>.expect, rxe.<id>.what. The lab is "rxe" to make (make rxe).
$(call read_table,rxe,$(RXE_SRC)/rows)
RXE_ROWS  = $(rxe.rows)
RXE_TIER ?= all

RXE_CFLAGS = $(BASE_CFLAGS) -DVERBS_ABI=$$(RXE_ABI) -I$(RXE_SRC)
# Each row directory is self-contained: its DSOs find each other through
# $ORIGIN (mk/compile.mk's RPATH_ORIGIN).
RXE_ORIGIN = $(RPATH_ORIGIN)
RXE_COMMON_SRC = $(RXE_SRC)/exercise.c $(RXE_SRC)/consumer.h $(RXE_SRC)/abi_name.h

include $(RXE_SRC)/build.mk
include $(RXE_SRC)/tiers.mk
