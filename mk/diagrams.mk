# make diagrams [LAB=<lab>] [ROW=<id>]: each row run once more (with
# LD_DEBUG=files,bindings where the picture reads the loader's record: not
# for a lab that sets LAB.diagram-ld-debug empty), and drawn from that run
# alone (scripts/diagram)
# as $(B)/diagrams/<lab>/<row>.svg; with docs/lookup-order.dot rendered
# beside them. A link's record (archive-order) is drawn by diagram-link,
# program runs with their loader messages (loader-errors) by
# diagram-loader, chosen by scripts/diagram from what the run printed;
# scripts/normalise labels the addresses, as in a golden. A row
# whose run does not fit the picture (no address line, no loader record of
# a program in its row directory) is skipped with one line; a lab whose
# first row does not fit is skipped as a whole.
DEPS_PACKAGES += graphviz
DOT ?= dot
diagram_rows = $(if $(ROW),$(filter $(ROW),$($1.rows)),$($1.rows))
DIAGRAM_LABS = $(or $(LAB),$(LABS))
DIAGRAM_ENTRIES = $(foreach l,$(DIAGRAM_LABS),$(addprefix $l:,$(call diagram_rows,$l)))
$(call refuse_rows,diagrams,$(call check_entries,$(DIAGRAM_LABS)))
# A lab's rows are built in $(B)/<lab>/<row>/; the rxe lab keeps its source
# directory's name.
rxe.rowdirs = $(RXE_B)
# diagram_ld_debug LAB: the trace its pictures read (ROW_LD_DEBUG, passed
# to the program by scripts/row-env).
diagram_ld_debug = $(if $(filter undefined,$(origin $1.diagram-ld-debug)),files$(comma)bindings,$($1.diagram-ld-debug))
# draw_row LAB,ROW,FIRST: run, draw, render; FIRST=1 skips the lab when the row does not fit.
draw_row = d=$(B)/diagrams/$1; mkdir -p $$d; rm -f $$d/$2.svg; \
	( $(if $(call diagram_ld_debug,$1),export ROW_LD_DEBUG=$(call diagram_ld_debug,$1);) $(call $1.run,$2) ) 2>&1 > $$d/$2.out | $(SCRIPTS)/ld-debug > $$d/$2.ld; \
	if $(SCRIPTS)/diagram $(or $($1.rowdirs),$(B)/$1)/$2 $(call shq,$1 $2: $($1.$2.what)) $$d/$2.out $$d/$2.ld 2> $$d/$2.why | $(SCRIPTS)/normalise > $$d/$2.dot; then \
	  $(DOT) -Tsvg $$d/$2.dot > $$d/$2.svg && echo "diagram: $$d/$2.svg"; \
	else rm -f $$d/$2.dot; echo "diagrams: skip $1$(if $3,,:$2): $$(tail -n 1 $$d/$2.why)"; $(if $3,continue;) fi
diagram_lab = for first in 1; do $(foreach r,$(call diagram_rows,$1),$(call draw_row,$1,$r,$(if $(filter $r,$(firstword $(call diagram_rows,$1))),1)); ) done
diagrams: $(call entries_prereqs,$(DIAGRAM_ENTRIES)) $(B)/diagrams/lookup-order.svg
	$(Q)$(foreach l,$(DIAGRAM_LABS),$(if $(call diagram_rows,$l),$(call diagram_lab,$l);)) true
$(B)/diagrams/lookup-order.svg: docs/lookup-order.dot
	$(Q)$(dir_made) && $(DOT) -Tsvg $< $(into_target)
	@echo "diagram: $@"
.PHONY: diagrams
