# realworld/: the corpus symsplit is measured against: real processes built
# only from Debian and npm packages, nobody tuned it to.
# Real processes built only from Debian and npm packages, each run once and
# its truth derived from its own record (realworld/truth); symsplit run on
# each in every input mode; the agreement table printed. See
# realworld/README.md. Cases: realworld/cases. npm pins:
# realworld/package.json + package-lock.json, installed by the survey's
# machinery (survey_install) into $(SURVEY_B)/realworld.
RW_SRC := realworld
RW_B := $(abspath $(B))/realworld
$(call read_table,realworld,$(RW_SRC)/cases)
RW_CASES := $(realworld.rows)
RW_SUBSET := $(foreach c,$(RW_CASES),$(if $(filter yes,$(realworld.$c.subset)),$c))
# Debian packages of the cases, installed by `make realworld` only; make
# test's subset needs python3-numpy and libjemalloc2 (in DEPS_PACKAGES below)
# and the survey's node subset install (already a make test prerequisite).
RW_DEBS := python3 python3-gi gir1.2-gtk-3.0 gir1.2-gtk-4.0 libgtk-4-1 gir1.2-gstreamer-1.0 gir1.2-gst-plugins-base-1.0 \
	gstreamer1.0-gtk3 gstreamer1.0-plugins-base gstreamer1.0-plugins-good python3-numpy python3-scipy python3-lxml \
	python3-wand libmagickwand-6.q16-6 nodejs python3-pil python3-cairo python3-cryptography python3-openssl \
	gstreamer1.0-plugins-bad gstreamer1.0-plugins-ugly php-cli php-gd php-intl php-xml php-sqlite3 php-curl php-mbstring \
	libxml-libxml-perl libdbd-sqlite3-perl libjson-xs-perl ruby ruby-nokogiri lua5.4 lua-lpeg lua-cjson \
	libgtk2.0-0 swi-prolog-core libsoup2.4-1 libsoup-3.0-0 libjemalloc2 libtcmalloc-minimal4 libmimalloc2.0 libedit2 libreadline8
DEPS_PACKAGES += python3-numpy libjemalloc2

$(eval $(call survey_install,realworld,$(RW_SRC)))

# Nothing outside the build directory: as the survey's environment, with
# HOME, the XDG directories and TMPDIR of the corpus's own (GTK wants an
# XDG_RUNTIME_DIR of mode 0700); no display: every case runs headless.
RW_ENV := env -u DISPLAY -u WAYLAND_DISPLAY HOME=$(RW_B)/home XDG_CACHE_HOME=$(RW_B)/home/.cache \
	XDG_CONFIG_HOME=$(RW_B)/home/.config XDG_DATA_HOME=$(RW_B)/home/.local/share XDG_RUNTIME_DIR=$(RW_B)/xdg \
	TMPDIR=$(RW_B)/tmp SURVEY_REAL_HOME=$(HOME)
RW_PYTHON := /usr/bin/python3
# node's path, looked up where a node case's recipe names it (not at parse
# time: make test installs node after it read the Makefiles), in PATH by
# make itself: no process, a directory make has read once.
RW_NODE_EXE = $(if $(findstring /,$(SURVEY_NODE)),$(wildcard $(SURVEY_NODE)),$(call path_find,$(SURVEY_NODE)))
# rw_cmd CASE: the driver's command line (run-case adds --pause FIFO)
rw_prefix = $(if $(filter node-subset,$(realworld.$1.driver)),$(SURVEY_B)/subset,$(SURVEY_B)/realworld)
# script: units are an interpreter and its script in realworld/ (perl, php,
# ruby, lua: hosts symsplit has no entry-point preset for, --host -)
rw_script = $(filter script,$(realworld.$1.driver))
rw_cmd = $(if $(rw_script),$(word 1,$(realworld.$1.units)) $(abspath $(RW_SRC))/$(word 2,$(realworld.$1.units)),$(if $(filter debian,$(realworld.$1.driver)),$(RW_PYTHON) -B $(abspath $(RW_SRC))/debian.py $(realworld.$1.units),$$(RW_NODE_EXE) \
	$(abspath $(SURVEY_SRC))/coload.js --prefix $(call rw_prefix,$1) --maps $(RW_B)/$1/coload-maps --more $(abspath $(RW_SRC))/addons.js --keep-going \
	$(if $(realworld.$1.global),--global $(realworld.$1.global)) $(realworld.$1.units)))
rw_host = $(if $(rw_script),-,$(if $(filter debian,$(realworld.$1.driver)),python,node))
rw_exe = $(if $(rw_script),$(word 1,$(realworld.$1.units)),$(if $(filter debian,$(realworld.$1.driver)),$(RW_PYTHON),$$(RW_NODE_EXE)))
rw_driver_src = $(if $(rw_script),$(RW_SRC)/$(word 2,$(realworld.$1.units)))
# preload: the case's LD_PRELOAD (a library replacing another: an allocator,
# libedit's readline interface), given to run-case
rw_preload = $(if $(realworld.$1.preload),--preload $(realworld.$1.preload))
rw_install = $(if $(filter debian,$(realworld.$1.driver)),,$(call rw_prefix,$1)/installed)

# One case: run and observe (realworld/run-case) inside survey/private (what
# lands in /tmp, /var/tmp or the caller's HOME is listed in RUN.leftovers),
# then derive the truth from what it left. RUN.cmd holds the case's command
# line and changes only when the table does: a case reruns when its row,
# the harness or symsplit changes, not when another row's cell does.
define rw_case
$(RW_B)/$1.cmd: FORCE
	$$(Q)mkdir -p $(RW_B) && printf '%s\n' $(call shq,$(call rw_host,$1) $(call rw_cmd,$1)$(if $(realworld.$1.preload), LD_PRELOAD=$(realworld.$1.preload))) > $$@.tmp && \
		{ cmp -s $$@.tmp $$@ && rm $$@.tmp || mv $$@.tmp $$@; }
$(RW_B)/$1/done: $(RW_B)/$1.cmd $(call rw_install,$1) $(SYMSPLIT) $(RW_SRC)/run-case $(RW_SRC)/debian.py $(RW_SRC)/addons.js $(call rw_driver_src,$1)
	$$(Q)mkdir -p $(RW_B)/home $(RW_B)/tmp $(RW_B)/xdg && chmod 700 $(RW_B)/xdg
	$$(Q)echo "realworld: $1"
	$$(Q)$(SURVEY_SRC)/private $(RW_B)/$1.leftovers -- $(RW_ENV) $(RW_SRC)/run-case --symsplit $(abspath $(SYMSPLIT)) \
		--host $(call rw_host,$1) --exe $(call rw_exe,$1) $(call rw_preload,$1) $(RW_B)/$1 -- $(call rw_cmd,$1)
$(RW_B)/$1/truth: $(RW_B)/$1/done $(RW_SRC)/truth $(SURVEY_SRC)/ldebug.py $(SURVEY_SRC)/elfinfo.py $(SURVEY_SRC)/bound-twice
	$$(Q)$(RW_SRC)/truth $(RW_B)/$1 $$(into_target)
endef
$(foreach c,$(RW_CASES),$(eval $(call rw_case,$c)))

# rw_report CASES: each case's truth against its expect cell, then the
# agreement table (exit 1 when a truth differs from its cell; symsplit's
# disagreements are measured, never a failure).
rw_report = $(RW_SRC)/report $(foreach c,$1,$(call shq,$c|$(realworld.$c.expect)|$(realworld.$c.what))) -- $(RW_B)

# make realworld: install (Debian packages, the npm pins), build symsplit,
# run every case, report. ROW=<id> runs one case.
RW_SELECTED = $(or $(ROW),$(RW_CASES))
ROW_GOALS += realworld
$(if $(filter realworld,$(MAKECMDGOALS)),$(call refuse,case,$(RW_SELECTED),$(RW_CASES)))
realworld: realworld-deps
	+$(Q)$(MAKE) --no-print-directory ROW= $(foreach c,$(RW_SELECTED),$(RW_B)/$c/truth)
	$(Q)$(call rw_report,$(RW_SELECTED))
realworld-deps:
	$(Q)$(SCRIPTS)/deps $(RW_DEBS) && $(survey_npm)
# The subset make test runs (test/realworld.bats): cases marked subset, run
# in make test's parallel prerequisite build (a case fails only when the
# harness does, never because symsplit disagrees).
TEST_PREREQS += $(foreach c,$(RW_SUBSET),$(RW_B)/$c/truth)
realworld-subset: $(foreach c,$(RW_SUBSET),$(RW_B)/$c/truth)
	$(Q)$(call rw_report,$(RW_SUBSET))
# make realworld-lock: re-resolve the npm pins (network); no URL in the lock.
realworld-lock:
	$(Q)$(survey_npm)
	$(Q)rm -rf $(SURVEY_B)/lock-realworld && mkdir -p $(SURVEY_B)/lock-realworld $(SURVEY_B)/home $(SURVEY_B)/tmp
	$(Q)cp $(RW_SRC)/package.json $(SURVEY_B)/lock-realworld/ && \
		(cd $(SURVEY_B)/lock-realworld && $(SURVEY_ENV) npm install --package-lock-only --ignore-scripts --loglevel=error) && \
		$(SURVEY_SRC)/lockcheck --strip $(SURVEY_B)/lock-realworld/package-lock.json > $(RW_SRC)/package-lock.json
.PHONY: realworld realworld-deps realworld-subset realworld-lock
HELP_LINES += "  make realworld    a corpus of real Debian and npm processes, truth from each run, symsplit in every input mode: the agreement table (downloads ~270 MB once; ROW=<case>)"
