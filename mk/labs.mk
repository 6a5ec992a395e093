LABS :=
# The goals that take ROW= and honour it (lab_entry adds each lab's two).
ROW_GOALS := check fixed diagrams
HELP_LINES :=
TEST_PREREQS :=
TEST_RUNS :=
FIXED_ROWS :=
EVIDENCE_TARGETS :=
# what a lab downloads into the build directory, kept by make clean
DOWNLOAD_CACHES :=

# read_table LAB,TABLE: the table's rows as make variables LAB.rows and
# LAB.<row>.<key> (scripts/rows2mk's awk program), read at parse time, so nothing is
# written (make -n writes nothing); a table it cannot read stops make.
# The tree's tables are read by one awk run before the labs' fragments (one
# process at every make's start, not one a table); a table not among them
# (a test's own), or every one when any of them cannot be read, is read on
# its own, which names what is wrong in it. Its words are kept in
# LAB.words-read for the lab's cells (below).
read_table = $(eval $1.table := $2)$(if $(filter $2$(us)%,$(rows_read)),$(eval $1.words-read := $$(patsubst $2$(us)%,$1%,$$(filter $2$(us)%,$$(rows_read)))),$(read_table_alone))$(foreach a,$($1.words-read),$(eval $(subst $(us), ,$a)))$(call table_cells,$1)
read_table_alone = $(eval $1.words-read := $$(shell awk -F'|' -v lab=$1 -v words=1 -f $(SCRIPTS)/rows2mk.awk $2))$(if $(filter 0,$(.SHELLSTATUS)),,$(error $2: the table cannot be read (see the line above)))
# table_cells LAB: what a lab builds and runs from its table, apart from
# what only judges a row: LAB.cells, a file holding every cell but the
# expect and what cells, and LAB.what, the what cells (the header of each
# row of a run). A lab's rules depend on LAB.cells, never on the table, and
# its captured run on both: an edited expect cell is judged again (make
# check, make bless) without a compile, a link or a row run again; an edited
# build or run cell builds and runs again. Each file is written only when
# its text changes (mk/cells.mk), by make itself as it reads the Makefiles.
table_cells = $(eval TABLE_LABS += $1)$(eval $1.cells := $(B)/cells/$1)$(eval $1.what := $(B)/cells/$1.what) \
	$(eval $1.cells-text := $$(foreach a,$$($1.words-read),$$(if $$(findstring .expect$(us):=,$$a)$$(findstring .what$(us):=,$$a),,$$a))) \
	$(eval $1.what-text := $$(foreach a,$$($1.words-read),$$(if $$(findstring .what$(us):=,$$a),$$a)))
TABLE_LABS :=
# run_rows LAB,ROWS[,EVIDENCE[,PREFIX]]: a header line per row
# ("== PREFIX<row>: what"), then the lab's $(LAB.run) for it (and
# $(LAB.evidence) when asked), all derived into verdicts by the one shared
# script. A runner's exit 77 means "cannot run here": the row says why. A
# lab's own run (no PREFIX) fails when no row ran (verdict --must-run); make
# check's run is judged row by row by scripts/check.
# A lab's $(LAB.facts) (ROWS,RECORD), when it has one, reads the evidence of
# all the rows in one pass once they ran (scripts/facts-under-rows puts each
# row's under it), and a lab's $(LAB.evidence) (ROW,RECORD.<row>) each row
# once it ran: each row's run is its evidence run too, $(LAB.run) given
# RECORD.<row> (second argument) to keep the loader's record in (a lab whose
# run does not read it runs as it would); RECORD is this run's own ($$: the
# shell's pid), in the lab's build directory; what a stopped run whose shell
# had the same pid left under it is removed first.
run_rows = { $(if $3,$(if $(value $1.facts),$(call clear_records,$(call run_record,$1)))) $(foreach r,$2,printf '%s\n' $(call shq,== $4$r: $($1.$r.what)); \
	$(call $1.run,$r,$(if $3,$(if $(value $1.facts)$(value $1.evidence),$(call run_record,$1).$r))) || { rc=$$?; [ $$rc = 77 ] && echo "[skipped: cannot run here]" || echo "[run failed: exit $$rc]"; };$(if $3,$(if $(value $1.evidence), $(call $1.evidence,$r,$(call run_record,$1).$r);))) }$(if $3,$(if $(value $1.facts), | $(SCRIPTS)/facts-under-rows $(call $1.facts,$2,$(call run_record,$1)))) | $(SCRIPTS)/verdict$(if $4,, --must-run)
run_record = $(B_ABS)/$1/.loader.$$$$
# clear_records RECORD: RECORD.* removed, read by the shell's own glob (no
# process when there is none, as after every run that ended); RECORD quoted,
# so that only its .* is a pattern.
clear_records = records=$1; for f in "$$records".*; do [ ! -e "$$f" ] || rm -f -- "$$records".*; break; done;
# refuse KIND,GIVEN,KNOWN: stop make with one line for an unknown name,
# while it reads the Makefiles, before any job starts.
refuse = $(if $(filter-out $3,$2),$(error unknown $1 '$(firstword $(filter-out $3,$2))' (known: $3)))

# lab_capture LAB: a lab run by run_rows is run once per build directory
# (one per toolchain), every row with its evidence, into $(B)/runs/LAB.out,
# when its evidence is asked for (EVIDENCE=1, make evidence[-LAB], make
# test's test-runs, a toolchain column); make LAB (every row) then shows that
# run, without the evidence lines unless EVIDENCE is set, and so do the tests
# (test/helpers.bash) and the toolchain check's column of this build
# directory. It is run again when a row's files, the lab's sources, its
# cells (read_table: its table but the expect cells) or a shared script
# change. Without it, make LAB is a plain run, as is one row
# (ROW=) and a run under a RUN= of the caller's (the capture ran under the
# toolchain's own). (scripts/verdict prints a row's evidence lines after its verdict,
# so the run without them is the run made without evidence.)
# The run goes to a name of this shell's own (two makes of one run may both
# find a capture stale: each renames its whole file, neither loses its own).
define lab_capture
$1.capture := $(B)/runs/$1.out
$1.whole = $$(if $$(subst $$(strip $$($1.rows)),,$$(strip $$($1.selected)))$$(filter command line environment,$$(origin RUN)),,$$(if $$(EVIDENCE)$$(filter evidence evidence-$1,$$(MAKECMDGOALS))$$(wildcard $$($1.capture)),1))
$(B)/runs/$1.out: $$(call $1.prereq,$$($1.rows)) $$(wildcard $(SCRIPTS)/*) $$(filter-out $$($1.table) %.md,$$(wildcard $$(dir $$($1.table))*)) $$($1.cells) $$($1.what)
	@mkdir -p $$(@D)
	$$(Q)t=$$@.tmp.$$$$$$$$; $$(call run_rows,$1,$$($1.rows),1) > "$$$$t" && mv -f "$$$$t" $$@ || { rm -f "$$$$t"; exit 1; }
TEST_RUNS += $(B)/runs/$1.out
endef
show_capture = $(if $2,cat $1,grep -v '^  | ' $1)

# lab_entry LAB,ALIAS,PREREQ[,RUNNER]: the entry points of a lab whose
# table was read by read_table: `make LAB [ROW=<id>] [EVIDENCE=1]` (ALIAS is
# the lab's older name for ROW), `make evidence-LAB`, and its place in make
# check, make bless, make test and the toolchain check. PREREQ is what a row
# needs built, with % for the row id; RUNNER (default run_rows) runs rows.
define lab_entry
$1.selected = $$(or $$(ROW),$$($2),$$($1.rows))
$1.prereq = $$(foreach r,$$1,$$(subst %,$$r,$3))
$$(if $$(filter $1 evidence-$1,$$(MAKECMDGOALS)),$$(call refuse,row,$$($1.selected),$$($1.rows)))
$(if $4,,$(call lab_capture,$1))
$1: $$(call $1.prereq,$$($1.selected)) $$(if $$($1.whole),$$($1.capture))
	$$(Q)$$(toolchain_report)
	$$(Q)$$(if $$($1.whole),$$(call show_capture,$$($1.capture),$$(EVIDENCE)),$$(call $(or $4,run_rows),$1,$$($1.selected),$$(EVIDENCE)))
# The same run with the facts under each row; EVIDENCE reaches $1's recipe.
evidence-$1: EVIDENCE := 1
evidence-$1: $1
.PHONY: $1 evidence-$1
LABS += $1
ROW_GOALS += $1 evidence-$1
$(if $(filter-out ROW,$2),ROW_ALIASES += $2:$1)
EVIDENCE_TARGETS += evidence-$1
TEST_PREREQS += $$(call $1.prereq,$$($1.rows))
endef

# The toolchain lines that head a run (none when the caller has them; as
# read once for every make the tests start, when make test handed them down).
toolchain_report = $(if $(TOOLCHAIN_READ),true,$(if $(value SPLIT_STATE_LAB_TC_LINES),printf '%s\n' "$$SPLIT_STATE_LAB_TC_LINES",$(SCRIPTS)/toolchain $(CC) $(LD)))
toolchain-report:
	$(Q)$(SCRIPTS)/toolchain $(CC) $(LD)
.PHONY: toolchain-report

rows_read := $(shell exec awk -F'|' -v batch=1 -f $(SCRIPTS)/rows2mk.awk $(wildcard */rows */addons */cases) 2>/dev/null)
ifneq ($(.SHELLSTATUS),0)
rows_read :=
endif
