#!/usr/bin/env bats
# symsplit: every lab row as symsplit sees it, against the derived verdict.
# Ground truth comes from running the fixtures and the labs (scripts/verdict
# --facts), never from a copied list; every program a test starts runs under
# timeout (a hang is a failure, 124). Shared setup: symsplit-setup.bash.
load helpers
load symsplit-setup
BATS_TEST_TIMEOUT=${BATS_TEST_TIMEOUT:-300}

# symsplit_agrees LAB: tools/symsplit/dev/lab-rows, the one translation of a
# lab's rows into symsplit's arguments and of its reading into the lab's
# verdicts, agrees on every row of the lab's run that ran; each line of its
# output is one row, agreed, disagreed or outside the model. Its reading is
# made once per build directory beside the lab's run (make lab-rows-LAB,
# mk/toolchain-symsplit.mk: make test's runs phase makes it, and the make's
# own toolchain column reads it too); facts is that run's
# scripts/verdict --facts, made with it.
symsplit_agrees() {
    run make -s -C "$TOP" --no-print-directory "lab-rows-$1"
    echo "$output"
    assert_success
    facts=$(< "$BUILD/runs/$1.facts")
    # every row of the facts that ran has its line
    [ "${#lines[@]}" -eq "$(grep -vc 'verdict=skipped' <<< "$facts")" ]
    refute_line --partial ' disagrees: '
}
row_args() { "$TOP/tools/symsplit/dev/lab-rows" --args "$BUILD" "$1" "$2"; }

@test "symsplit: matrix lab rows split exactly where scripts/verdict --facts says" {
    symsplit_agrees matrix
    [ "$(grep -c 'verdict=SPLIT' <<<"$facts")" -ge 1 ]
}

@test "symsplit --trace: matrix rows run under the loader agree with scripts/verdict --facts; splits the loader recorded are marked observed" {
    bats_require_minimum_version 1.5.0
    export TMPDIR=$BATS_TEST_TMPDIR
    lab_output matrix matrix
    facts=$("$TOP/scripts/verdict" --facts < "$(out_file matrix)")
    n=0 observed=0 bad=0
    while read -r row verdict _; do
        v=${verdict#verdict=}
        [ "$v" = not-loaded ] && continue
        [ "$v" = link-error ] && continue          # the linker refused: no program to run
        mapfile -t args < <(row_args matrix "$row")        # [--preload LIB] APP
        run --separate-stderr ss "${args[@]:0:${#args[@]}-1}" --trace -- "${args[-1]}"
        want=0; [ "$v" = SPLIT ] && want=1
        [ "$status" -eq "$want" ] || { echo "matrix $row: verdict $v, symsplit --trace $status: $output"; bad=1; }
        n=$((n + 1))
        observed=$((observed + $(grep -c '^SPLIT .*\[observed: the loader made this binding\]' <<< "$output" || true)))
    done <<<"$facts"
    [ "$n" -ge 1 ] && [ "$bad" -eq 0 ]
    [ "$observed" -ge 1 ]                                 # a crossing reference read from the record
}

@test "symsplit: fixes lab rows split exactly where scripts/verdict --facts says (the renamed copy excepted)" {
    symsplit_agrees fixes
    [ "$(grep -c 'verdict=SPLIT' <<<"$facts")" -ge 1 ]
    # fix-prefix-rename renames the executable's copy (vxstatic_vx_*): no name
    # is shared, so a model of binding by name cannot see it (docs/symsplit-reference.md, Limits)
    assert_line --regexp '^fix-prefix-rename outside: '
}

@test "symsplit: scope-capture with its dlopen layout flags capture/order, clears omnibus, same-soname, deepbind, fixed" {
    symsplit_agrees scope-capture
    [ "$(grep -c 'verdict=SPLIT' <<<"$facts")" -ge 1 ]
}

# ---- route-b, each row's steps as symsplit's --dlopen timeline ----
# The translation (tools/symsplit/dev/lab-rows) and the mapping
# (docs/symsplit-reference.md, "Route B"): lab SPLIT or PARTITION = a SPLIT
# (capture) or a partition (COPY/LATENT) row of a name the row's modules
# define, so --strict exits 1, and PARTITION no SPLIT row; no-split = --strict exits 0; COLLISION = a
# COLLISION high row, different entities, a reference crossed (exit 1);
# no-collision = --strict exits 0, or 1 for LATENT rows only. Rows outside
# the model (a dlmopen into another open's namespace or RTLD_GLOBAL in a new
# one, the runtime's guard, two files of one SONAME) say why; a dlmopen into a
# new namespace (newlm) is --dlopen's :newns.
@test "symsplit: route-b rows, with the host's dlopen order, agree with the lab under the documented mapping" {
    symsplit_agrees route-b
    # every row is accounted for: run, listed outside with its reason, or
    # skipped here (it could not run: no files to read)
    [ $((${#lines[@]} + $(grep -c 'verdict=skipped' <<< "$facts"))) -eq "$(table_rows route-b | wc -w)" ]
    # B in LM_ID_NEWLM: compared, two copies each bound by its own plugin
    assert_line --regexp '^dlmopen agrees: --strict exit 1, rows of rt_get_list rt_register$'
    assert_line --regexp "^dlmopen-first-deps outside: dlmopen into another open's namespace"
}

# ---- loader-errors, each run word as symsplit's environment ----
# (tools/symsplit/dev/lab-rows: here, elsewhere, preload:, libpath:, ldconf:
# as symsplit's environment; secure mode is not modelled: such a word is
# skipped, a row with no other word is outside)
@test "symsplit: loader-errors rows: NOLOAD (exit 3) naming the cause where the loader refused, silent where every run starts" {
    symsplit_agrees loader-errors
}

# ---- archive-order: a link-time choice, not a binding ----
@test "symsplit: archive-order is outside a run-time model: a misdirected row's app holds one definition, exit 0 (documented limit)" {
    row=$(rows_expecting archive-order misdirected | head -n 1)
    [ -n "$row" ]
    make -s -C "$TOP" --no-print-directory archive-order ROW="$row" > /dev/null
    app=$BUILD/archive-order/$row/app
    # the linker kept the first vx_open_device it met: one definition in the image
    [ "$(nm "$app" | grep -c ' [Tt] vx_open_device$')" -eq 1 ]
    run ss "$app"
    assert_success
    refute_line --regexp '^(SPLIT|NOLOAD) '
}
