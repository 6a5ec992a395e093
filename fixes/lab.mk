# fixes/: the fix ladder on the matrix scenario. The rows are fixes/rows; the
# rules are the matrix's (verbs_scenario), plus the few extra objects some
# rows link in. make fixed runs the ladder and every lab's FIXED_ROWS.
include matrix/lab.mk
FIXES_TABLE ?= fixes/rows
$(eval $(call verbs_scenario,fixes,$(FIXES_TABLE)))
FX := $(B)/fixes
fx_comma := ,
fx_exe_cflags = $(BASE_CFLAGS) $(call verbs_exe_cflags,$(fixes.$*.exe)) $(fixes.$*.exe-cflags)

# The plugin host (exe-pre "host_boot.o libhost.a"): an archive, so that
# --exclude-libs applies to it, and a constructor that loads the plugin.
$(FX)/%/host.o: fixes/host.c $(FX)/rows.mk
	$(Q)$(CC) $(fx_exe_cflags) -c $< -o $@
$(FX)/%/host_boot.o: fixes/host_boot.c $(FX)/rows.mk
	$(Q)$(CC) $(fx_exe_cflags) -c $< -o $@
$(FX)/%/libhost.a: $(FX)/%/host.o
	$(Q)rm -f $@ && $(AR) rcs $@ $<
# The plugin needs libverbs_shared.so, as the collective does; host_api_version
# stays undefined here, to be found in the executable at dlopen time.
$(FX)/%/libvxplugin.so: fixes/plugin.c $(VERBS_HDR) $(FX)/%/libverbs_shared.so
	$(Q)$(CC) $(LDFLAG_FUSE) $(BASE_CFLAGS) $(PIC_CFLAGS) -I$(VERBS_SRC) -shared -Wl,-soname,libvxplugin.so \
		-o $@ $< -L$(@D) -Wl,--no-as-needed -lverbs_shared $(RPATH_ORIGIN) $(LINK_NOW)

# fix-static-canonical (exe-pre "libcollective.a provider_static.o"): the
# collective and the provider compiled for the executable like its copy of
# the registry. The provider goes in as an object: an archive member that
# only holds a constructor is never pulled into a link.
$(FX)/%/collective_static.o: $(VERBS_SRC)/collective.c $(VERBS_HDR) $(FX)/rows.mk
	$(Q)$(CC) $(fx_exe_cflags) -I$(VERBS_SRC) -c $< -o $@
$(FX)/%/libcollective.a: $(FX)/%/collective_static.o
	$(Q)rm -f $@ && $(AR) rcs $@ $<
$(FX)/%/provider_static.o: $(VERBS_SRC)/provider_ctor.c $(VERBS_HDR) $(FX)/rows.mk
	$(Q)$(CC) $(fx_exe_cflags) -I$(VERBS_SRC) -DVX_COPY=STATIC -c $< -o $@

# Per row: the plugin a plugin host loads, and any fixes/ file (version
# script) the .so's link names.
fx_plugin_rows = $(foreach r,$(fixes.rows),$(if $(filter libhost.a,$(fixes.$r.exe-pre)),$r))
$(foreach r,$(fx_plugin_rows),$(eval $(FX)/$r/app: $(FX)/$r/libvxplugin.so))
$(foreach r,$(fixes.rows),$(eval $(FX)/$r/libverbs_shared.so: $(filter fixes/%,$(subst =, ,$(subst $(fx_comma), ,$(fixes.$r.so-ldflags))))))

# Each row prints its mechanism (from the table) before the program runs;
# the evidence adds the plugin callback's binding and nm's view of the copies.
$(eval fixes.app-run = $(value fixes.run))
$(eval fixes.vx-evidence = $(value fixes.evidence))
fixes.run = printf '%s\n' $(call shq,mechanism: $(fixes.$1.mechanism)); $(call fixes.app-run,$1)
# A static-only executable loads neither .so: only its own facts apply.
fixes.evidence = $(if $(filter static-only,$(fixes.$1.exe)),$(SCRIPTS)/evidence vx_ $(FX)/$1/app,$(call fixes.vx-evidence,$1)); \
	$(if $(filter $1,$(fx_plugin_rows)),$(SCRIPTS)/evidence host_ $(FX)/$1/app $(FX)/$1/libvxplugin.so;) \
	fixes/copies 'vx_' $(FX)/$1/app $(if $(filter static-only,$(fixes.$1.exe)),,$(FX)/$1/libverbs_shared.so)

# make fixes [FIX=<id>] [EVIDENCE=1]: the ladder alone (the golden's source).
FIX ?=
$(eval $(call lab_entry,fixes,FIX,fix))

# make fixed: the ladder, then every lab's FIXED_ROWS (<lab>:<row>), then the
# summary. The expected column of fixes/rows is the one place expectations
# live; other labs' fixed rows are expected to show no split. A fixed row is
# run with $(call run_rows,<lab>,<row>) and needs $(B)/<lab>/<row>/app built
# (the layout matrix, fixes and scope-capture share) unless its lab defines
# <lab>.<row>.prereqs (possibly empty). A lab without <lab>.run cannot be run
# that way: its row says so and counts as failed.
fx_lab = $(word 1,$(subst :, ,$1))
fx_row = $(word 2,$(subst :, ,$1))
fx_runs = $(filter-out undefined,$(origin $(call fx_lab,$1).run))
fx_prereqs = $(if $(call fx_runs,$1),$(if $(filter undefined,$(origin $(call fx_lab,$1).$(call fx_row,$1).prereqs)),$(B)/$(call fx_lab,$1)/$(call fx_row,$1)/app,$($(call fx_lab,$1).$(call fx_row,$1).prereqs)))
# Its header names the lab (== <lab>:<row>: ...): row ids may repeat across labs.
fx_run_other = $(if $(call fx_runs,$1),$(call run_rows,$(call fx_lab,$1),$(call fx_row,$1)),\
	{ printf '%s\n' $(call shq,== $(call fx_row,$1): ) '[run failed: lab $(call fx_lab,$1) defines no $(call fx_lab,$1).run]'; } | $(SCRIPTS)/verdict) \
	| sed 's/^== /== $(call fx_lab,$1):/'
fx_expect_line = printf '%s\t%s\t%s\n' $(call shq,$1) $(call shq,$2) $(call shq,$3);

# FIXED_ROWS is complete only once every lab.mk is read, and fixes/ is read
# first: the $$(...) below is expanded a second time, after all of them.
# (Secondary expansion changes nothing for prerequisites without a "$$" left
# after the first expansion, i.e. for every other rule of the suite.)
fx_other_apps = $(foreach e,$(FIXED_ROWS),$(call fx_prereqs,$e))
.SECONDEXPANSION:
fixed: toolchain-check $(fixes.apps) $$(fx_other_apps)
	$(Q)$(SCRIPTS)/toolchain $(CC) $(LD)
	$(Q){ $(call run_rows,fixes,$(fixes.rows)); \
	  $(foreach e,$(FIXED_ROWS),$(call fx_run_other,$e);) } | tee $(FX)/fixed.out
	$(Q){ $(foreach r,$(fixes.rows),$(call fx_expect_line,$r,$(fixes.$r.expect),$(fixes.$r.what))) \
	  $(foreach e,$(FIXED_ROWS),$(call fx_expect_line,$e,no-split,$($(call fx_lab,$e).$(call fx_row,$e).what))) } > $(FX)/fixed.expect
	$(Q)echo; $(SCRIPTS)/verdict --facts < $(FX)/fixed.out | fixes/summary $(FX)/fixed.expect $(FX)/fixed.out

.PHONY: fixed
HELP_LINES += "  make fixes        the fix ladder alone (FIX=<id> for one row, EVIDENCE=1 for the facts)"
HELP_LINES += "  make fixed        the ladder + the fixed rows of every lab, then expected vs observed; fails naming a broken row"
