# survey/: the ecosystem measurement. Real npm native addons co-loaded in one
# node process, Debian's Python stack as the control; see survey/README.md.
# Units and their expected promotion outcome: survey/addons. npm pins:
# survey/package.json + package-lock.json (all units), survey/subset/ (the
# units marked subset, what `make test` measures).
SURVEY_SRC := survey
SURVEY_B := $(abspath $(B))/survey
SURVEY_NODE ?= node
SURVEY_PYTHON := /usr/bin/python3
# Units per process (eco: node | python; SUBSET: only those marked subset),
# read by the suite's one table reader.
$(call read_table,survey,$(SURVEY_SRC)/addons)
survey_units = $(foreach u,$(survey.rows),$(if $(filter $1,$(survey.$u.eco)),$(if $2,$(if $(filter yes,$(survey.$u.subset)),$u),$u)))
SURVEY_NODE_UNITS := $(call survey_units,node)
SURVEY_SUBSET_UNITS := $(call survey_units,node,subset)
SURVEY_PYTHON_UNITS := $(call survey_units,python)

# Nothing outside the build directory: npm's cache, HOME (onnxruntime writes
# ~/.cache/Microsoft/..., npm its logs), the XDG directories and TMPDIR all
# point into it; userconfig so that no ~/.npmrc of the caller applies (the
# options it might set are given here instead); omit-lockfile-registry-
# resolved keeps registry URLs out of the lock files; survey/private checks
# the rest (/tmp, /var/tmp and the caller's HOME are empty tmpfs it inspects).
SURVEY_ENV := env HOME=$(SURVEY_B)/home XDG_CACHE_HOME=$(SURVEY_B)/home/.cache XDG_CONFIG_HOME=$(SURVEY_B)/home/.config \
	TMPDIR=$(SURVEY_B)/tmp npm_config_cache=$(SURVEY_B)/npm-cache npm_config_userconfig=$(SURVEY_B)/home/.npmrc \
	npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false \
	npm_config_omit_lockfile_registry_resolved=true SURVEY_REAL_HOME=$(HOME)
# npm's download cache: kept by make clean, removed by make distclean.
DOWNLOAD_CACHES += survey/npm-cache
SURVEY_DEBS := nodejs python3 python3-numpy python3-scipy python3-sklearn
# npm: nodesource's nodejs provides and conflicts with Debian's npm package,
# which scripts/deps cannot see; ask for Debian's npm only when there is none.
survey_npm = command -v npm >/dev/null || $(SCRIPTS)/deps npm
DEPS_COMMANDS += && { $(survey_npm); }

# survey_install SET,PINS: `npm ci --ignore-scripts` of PINS/package.json and
# its lock into $(SURVEY_B)/SET (no install script runs; only the registry
# is contacted), inside survey/private.
define survey_install
$(SURVEY_B)/$1/installed: $2/package.json $2/package-lock.json $(SURVEY_SRC)/lab.mk
	$$(Q)$(SCRIPTS)/deps nodejs && $$(survey_npm)
	$$(Q)rm -rf $$(@D) && mkdir -p $$(@D) $(SURVEY_B)/home $(SURVEY_B)/tmp
	$$(Q)cp $2/package.json $2/package-lock.json $$(@D)/
	@echo "survey: npm ci of the $1 set into $$(@D)"
	$$(Q)cd $$(@D) && t0=$$$$(date +%s%N) && $(abspath $(SCRIPTS))/heartbeat "survey: npm ci ($1)" $(abspath $(SURVEY_SRC))/private leftovers -- \
		$(SURVEY_ENV) npm ci --ignore-scripts --no-audit --no-fund --loglevel=error && \
		awk -v ns=$$$$(( $$$$(date +%s%N) - t0 )) 'BEGIN { printf "%.1f\n", ns / 1e9 }' > install-seconds
	$$(Q)echo $$@ > $$@
endef
$(eval $(call survey_install,full,$(SURVEY_SRC)))
$(eval $(call survey_install,subset,$(SURVEY_SRC)/subset))

# survey_measure RUN,EXE,UNITS,DRIVER,HOST: survey/measure in survey/private,
# symsplit (built by `make symsplit`, a prerequisite of the targets below)
# run on the saved maps with `--host HOST`.
survey_measure = mkdir -p $(SURVEY_B)/$1 $(SURVEY_B)/home $(SURVEY_B)/tmp && printf '%s\n' $3 > $(SURVEY_B)/$1/units && \
	echo "survey: measuring $1" && $(SCRIPTS)/heartbeat "survey: measuring $1" \
	$(SURVEY_SRC)/private $(SURVEY_B)/$1/leftovers -- $(SURVEY_ENV) $(SURVEY_SRC)/measure \
	--symsplit $(abspath $(SYMSPLIT)) --host $5 $(SURVEY_B)/$1 $2 $3 -- $4
survey_node_measure = echo $(SURVEY_B)/$2 > $(SURVEY_B)/$1/prefix && \
	$(call survey_measure,$1,$$(command -v $(SURVEY_NODE)),$3,$(SURVEY_NODE) $(SURVEY_SRC)/coload.js --prefix $(SURVEY_B)/$2,node)
survey_report = $(SURVEY_SRC)/report $1 $(SURVEY_SRC)/addons $(SURVEY_SRC)/symsplit-families
SURVEY_RUNS := node=$(SURVEY_B)/run-node python=$(SURVEY_B)/run-python

# The subset install joins the parallel prerequisite build of make test.
TEST_PREREQS += $(SURVEY_B)/subset/installed

# make survey: install, measure both processes, print the table, then the
# stable facts against expected/survey.txt (exit 1 on a difference).
survey: $(SURVEY_B)/full/installed symsplit
	$(Q)$(SCRIPTS)/deps $(SURVEY_DEBS)
	$(Q)mkdir -p $(SURVEY_B)/run-node && $(call survey_node_measure,run-node,full,$(SURVEY_NODE_UNITS))
	$(Q)$(call survey_measure,run-python,$(SURVEY_PYTHON),$(SURVEY_PYTHON_UNITS),$(SURVEY_PYTHON) -B $(SURVEY_SRC)/coload.py,python)
	$(Q)$(call survey_report,) $(SURVEY_RUNS)
	$(Q)echo "## leftovers outside the build directory: install $$(cat $(SURVEY_B)/full/leftovers), node $$(cat $(SURVEY_B)/run-node/leftovers), python $$(cat $(SURVEY_B)/run-python/leftovers)"
	$(Q)echo "## last npm ci: $$(cat $(SURVEY_B)/full/install-seconds) s; versions: node $$($(SURVEY_NODE) --version), npm $$($(SURVEY_ENV) npm --version), python $$($(SURVEY_PYTHON) -c 'import platform; print(platform.python_version())')"
	$(Q)$(call survey_report,--facts) $(SURVEY_RUNS) > $(SURVEY_B)/facts.txt
	$(Q)diff -u expected/survey.txt $(SURVEY_B)/facts.txt && echo "## stable facts: same as expected/survey.txt"

# The subset `make test` measures (survey/addons, column subset).
survey-subset: $(SURVEY_B)/subset/installed symsplit
	$(Q)mkdir -p $(SURVEY_B)/run-subset && $(call survey_node_measure,run-subset,subset,$(SURVEY_SUBSET_UNITS))
	$(Q)$(call survey_report,) subset=$(SURVEY_B)/run-subset

# make survey-bless: the stable facts of the last `make survey` become the golden.
survey-bless:
	$(Q)test -s $(SURVEY_B)/facts.txt || { echo "survey-bless: run make survey first" >&2; exit 2; }
	$(Q)cp $(SURVEY_B)/facts.txt expected/survey.txt

# make survey-lock: re-resolve the pins (network); the lock files keep no
# registry URL (checked by survey/lockcheck).
survey-lock:
	$(Q)$(survey_npm)
	$(Q)rm -rf $(SURVEY_B)/lock && mkdir -p $(SURVEY_B)/lock/subset $(SURVEY_B)/home $(SURVEY_B)/tmp
	$(Q)$(SURVEY_SRC)/subset-pins $(SURVEY_SRC)/addons $(SURVEY_SRC)/package.json > $(SURVEY_SRC)/subset/package.json
	$(Q)for d in . subset; do cp $(SURVEY_SRC)/$$d/package.json $(SURVEY_B)/lock/$$d/ && \
		(cd $(SURVEY_B)/lock/$$d && $(SURVEY_ENV) npm install --package-lock-only --ignore-scripts --loglevel=error) && \
		$(SURVEY_SRC)/lockcheck --strip $(SURVEY_B)/lock/$$d/package-lock.json > $(SURVEY_SRC)/$$d/package-lock.json || exit 1; done

.PHONY: survey survey-subset survey-bless survey-lock
HELP_LINES += "  make survey       real npm addons co-loaded in node, Debian's numpy/scipy as control: the copies table (downloads ~200 MB once)"
HELP_LINES += "  make survey-subset / survey-bless    the two-addon subset make test measures; the last make survey's stable facts become expected/survey.txt"
# make test measures the node subset only: the Python control's packages
# (about 90 s of apt on a fresh machine) are installed by make survey itself.
DEPS_PACKAGES += nodejs
