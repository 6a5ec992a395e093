# fixes/: the fix ladder on the matrix scenario. The rows are fixes/rows; the
# rules are the matrix's (verbs_scenario, read first by the top Makefile),
# plus the few objects some rows add: the plugin host and its plugin
# (host=plugin) and the statically linked collective (exe=static-only).
FIXES_TABLE ?= fixes/rows
$(call read_table,fixes,$(FIXES_TABLE))
$(eval $(call verbs_scenario,fixes,$(fixes.cells)))
$(call verbs_row_files,fixes)
$(call verbs_share,fixes)
$(call verbs_dirs,fixes)
$(call verbs_shared_objs,fixes,$(fixes.cells))
FX := $(B)/fixes

# The plugin host: an archive, so that --exclude-libs applies to it, and a
# constructor that loads the plugin (app.c stays the matrix's, byte for byte).
$(FX)/%/host.o: fixes/host.c $(fixes.cells) fixes/lab.mk
	$(Q)$(COMPILE) $(call verbs_exe_cflags,fixes,$*) -c $< -o $@
$(FX)/%/host_boot.o: fixes/host_boot.c $(fixes.cells) fixes/lab.mk
	$(Q)$(COMPILE) $(call verbs_exe_cflags,fixes,$*) -c $< -o $@
$(FX)/%/libhost.a: $(FX)/%/host.o
	$(Q)$(call rm_old,$@) && $(AR) rcs $@ $<
# The plugin needs libverbs_shared.so, as the collective does; host_api_version
# stays undefined here, to be found in the executable at dlopen time.
$(FX)/%/plugin.o: fixes/plugin.c $(VERBS_HDR) $(fixes.cells) fixes/lab.mk
	$(Q)$(COMPILE) $(BASE_CFLAGS) $(PIC_CFLAGS) -I$(VERBS_SRC) -c $< -o $@
$(FX)/%/libvxplugin.so: $(FX)/%/plugin.o $(FX)/%/libverbs_shared.so
	$(Q)$(CC) $(LDFLAG_FUSE) -shared -Wl,-soname,libvxplugin.so -o $@ $< \
		-L$(@D) -Wl,--no-as-needed -lverbs_shared $(RPATH_ORIGIN) $(LINK_NOW)
$(foreach r,$(fixes.rows),$(if $(fixes.$r.host),$(eval $(FX)/$r/link.log: $(FX)/$r/libvxplugin.so)))

# exe=static-only: the collective compiled for the executable like its copy
# of the registry. (The provider goes in as an object, ctor=exe: an archive
# member that only holds a constructor is never pulled into a link.)
$(FX)/%/collective_static.o: $(VERBS_SRC)/collective.c $(VERBS_HDR) $(fixes.cells) fixes/lab.mk
	$(Q)$(COMPILE) $(call verbs_exe_cflags,fixes,$*) -c $< -o $@
$(FX)/%/libcollective.a: $(FX)/%/collective_static.o
	$(Q)$(call rm_old,$@) && $(AR) rcs $@ $<

# A static-only executable loads neither .so: only its own facts apply. The
# evidence adds the plugin callback's binding and which names define the
# registry in each module, each read for all the rows in one pass.
fixes.run = $(call fixes.run-app,$1,$2)
fixes.facts = $(SCRIPTS)/evidence --rows $2 $(foreach r,$1,$(if $(filter static-only,$(fixes.$r.exe)),'$r vx_ $(FX)/$r/app',$(call fixes.block-vx,$r)) \
	$(if $(fixes.$r.host),'$r host_ $(FX)/$r/app $(FX)/$r/libvxplugin.so')) \
	';' fixes/copies --rows $(foreach r,$1,'$r vx_ $(FX)/$r/app$(if $(filter static-only,$(fixes.$r.exe)),, $(FX)/$r/libverbs_shared.so)')

# make fixes [ROW=<id>] [EVIDENCE=1]: the ladder alone (make fixed runs it
# with every lab's FIXED_ROWS).
$(eval $(call lab_entry,fixes,FIX,$(FX)/%/app))
HELP_LINES += "  make fixes        the fix ladder alone (ROW=<id> for one row, EVIDENCE=1 for the facts)"
