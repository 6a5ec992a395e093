# rxe-variant: the split-state incident on Debian's real rdma-core.
# Rows come from rxe-variant/rows; tiers: emulated (here, CI), kernel (host
# with rdma_rxe, root), vm (QEMU guest booted from Debian's kernel package).

RXE_SRC := rxe-variant
RXE_B   := $(B)/rxe-variant

# Facts read from the installed rdma-core, never written down: the library
# directory (pkg-config), the private ABI number N of verbs_register_driver_N
# (libibverbs.so.1's dynamic symbols) and the name the static archive gives it
# (rdma-core's libibverbs.a renames its private symbols). Asked once per
# build directory (rxe-variant/rdma-core-facts, about twelve processes),
# into $(RXE_FACTS), made again when the library, its archive or a reader
# changes, or the library is gone; every make after that reads the file
# itself, no process (neither does a make whose goals build no rxe row).
# The file is a prerequisite of what a fact goes into (the objects, the
# copies, the run), so a fact is read where make expands the recipe, after
# the file is made: the compile flags therefore carry $$(RXE_ABI)
# unexpanded into the recipes mk/compile.mk's compiled makes. Under make -n
# a fact not yet asked is printed as a placeholder: make -n starts nothing.
RXE_FACTS := $(RXE_B)/rdma-core
rxe_fact = $(or $(patsubst $1=%,%,$(filter $1=%,$(file <$(RXE_FACTS)))),$(if $(wildcard $(RXE_FACTS)),,$(if $(findstring n,$(firstword -$(MAKEFLAGS))),<$1 from $(RXE_FACTS)>,$(error $(RXE_FACTS) read before it was made))))
RXE_LIBDIR = $(call rxe_fact,libdir)
RXE_ABI    = $(call rxe_fact,abi)
RXE_STATIC_SYM = $(call rxe_fact,static-sym)
rxe_libs_read := $(foreach f,libibverbs.so.1 libibverbs.a,$(patsubst libdir=%,%/$f,$(filter libdir=%,$(file <$(RXE_FACTS)))))
$(RXE_FACTS): $(RXE_SRC)/rdma-core-facts $(RXE_SRC)/verbs-abi $(SCRIPTS)/dynamic $(if $(rxe_libs_read),$(if $(filter 2,$(words $(wildcard $(rxe_libs_read)))),$(rxe_libs_read),FORCE))
	$(Q)$(dir_made) && $< $(into_target)

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
