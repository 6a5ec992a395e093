#!/usr/bin/env bats
# symsplit: the hand-made fixtures: each scenario run, and symsplit on its files.
# Ground truth comes from running the fixtures and the labs (scripts/verdict
# --facts), never from a copied list; every program a test starts runs under
# timeout (a hang is a failure, 124). Shared setup: symsplit-setup.bash.
load helpers
load symsplit-setup
BATS_TEST_TIMEOUT=${BATS_TEST_TIMEOUT:-120}

@test "symsplit: -Bsymbolic-functions library + second copy in the exe is flagged (likely), as running it shows" {
    run truth split-bsymfunc
    assert_failure 1
    run ss "$FX/split-bsymfunc/app"
    assert_failure 1
    assert_line --regexp "^SPLIT +med +reg_count +.*app carries its own copy of reg_count.*libreg.so is probably self-binding: its code calls its own reg_add directly.*\[confidence: likely\]"
}

# the program with the archive copy and without it: 1 when they print different things
two_copies_differ() {
    local a b
    a=$(timeout -k 2 10 "$FX/$1/app") && b=$(timeout -k 2 10 "$FX/$1/app-one") || return 2
    [ "$a" != "$b" ]
}

@test "symsplit: two exports sharing one private table, one interposed by the exe's archive copy, is SPLIT" {
    run two_copies_differ split-shared-table
    assert_success
    run ss "$FX/split-shared-table/app"
    assert_failure 1
    assert_line --regexp "^SPLIT +med +tab_put +.*app carries its own copy of tab_put.*libtab.so's copy of tab_put is bound by nobody.*app's reference to tab_get resolves to libtab.so's tab_get.* share shared_table .*\[confidence: likely\]"
    run ss --json "$FX/split-shared-table/app"
    assert_output --regexp '"shared_state":\{"through":"tab_get","object":"shared_table","address":"0x[0-9a-f]+"\}'
}

@test "symsplit: --trace marks the binding of the other name observed in the shared-table split" {
    run ss --trace -- "$FX/split-shared-table/app"
    assert_failure 1
    assert_line --regexp "^SPLIT +med +tab_put +.*resolves to libtab.so's tab_get \(observed\).* share shared_table "
}

@test "symsplit --trace: CMD found in PATH: the executable's own bindings are read (the record names it by its argv[0])" {
    run timeout -k 2 20 env PATH="$FX/split-shared-table:$PATH" "$SYMSPLIT" --trace -- app
    assert_failure 1
    assert_line --regexp "^SPLIT +med +tab_put +.*app's reference to tab_get resolves to libtab.so's tab_get \(observed\)"
}

@test "symsplit: two exports touching different private tables, one interposed, is no row (near miss)" {
    run two_copies_differ ok-shared-near
    assert_failure 1
    run ss --info "$FX/ok-shared-near/app"
    assert_success
    refute_line --partial "tab_put"
}

@test "symsplit: the shared-table split in a stripped library is MAYBE only (a cell without a name is no proof)" {
    local t=$BATS_TEST_TMPDIR/stripped
    cp -r "$FX/split-shared-table" "$t"
    strip --strip-all "$t/libtab.so"
    run ss "$t/app"
    assert_success
    refute_line --regexp "^SPLIT"
    run ss --info "$t/app"
    assert_line --regexp "^MAYBE .* tab_put .*share the cell at 0x[0-9a-f]+ \(no .symtab names it.*\[confidence: possible\]"
}

@test "symsplit: a captured function that touches no state is INFO, though its library has state elsewhere" {
    run truth ok-stateless-fn
    assert_success
    run ss --info "$FX/ok-stateless-fn/app"
    assert_success
    assert_line --regexp "^INFO .* reg_api .*reaches no private state \\(per disassembly of the function and its callees\\)"
}

@test "symsplit: plain interposition (libreg calls through its PLT) is cleared, as running it shows" {
    run truth ok-interpose
    assert_success
    run ss "$FX/ok-interpose/app"
    assert_success
    refute_line --partial SPLIT
}

@test "symsplit: protected entry points split for certain" {
    run truth split-protected
    assert_failure 1
    run ss "$FX/split-protected/app"
    assert_failure 1
    assert_line --regexp '^SPLIT .* reg_count .*defines reg_count protected.*\[confidence: certain\]'
}

@test "symsplit: COPY relocation + -Bsymbolic splits the variable (high), as running it shows" {
    run truth split-copyreloc-symbolic
    assert_failure 1
    run ss "$FX/split-copyreloc-symbolic/app"
    assert_failure 1
    assert_line --regexp '^SPLIT +high +reg_n +.*COPY-relocated.*DF_SYMBOLIC'
}

@test "symsplit: COPY relocation without -Bsymbolic is unified, as running it shows" {
    run truth ok-copyreloc
    assert_success
    run ss "$FX/ok-copyreloc/app"
    assert_success
}

@test "symsplit: foo@V1 and foo@V2 are two interfaces, though nm -D sees foo twice" {
    d=$FX/ok-versions
    run bash -c "nm -D --defined-only '$d/libv1.so' '$d/libv2.so' | grep -c ' T foo@'"
    assert_output 2
    run ss --info "$d/app"
    assert_success
    refute_line --partial foo
}

@test "symsplit: plugin captured by the global copy, libB's own copy unused: MAYBE only, exit 0" {
    for k in local global; do
        run ss --info --dlopen "$FX/dlopen/plugin.so:$k" "$FX/dlopen/app"
        assert_success
        assert_line --regexp "^MAYBE .* reg_count .*plugin.so depends on libB.so but its reference resolves to libA.so's copy"
    done
}

@test "symsplit: deepbind keeps plugin on its own dependency's copy: a partition (COPY), no split" {
    run ss --info --dlopen "$FX/dlopen/plugin.so:deepbind" "$FX/dlopen/app"
    assert_success
    refute_line --regexp '^SPLIT .* reg_count'
    assert_line --regexp "^COPY +med +reg_count .*libA.so \\(bound by app\\), libB.so \\(bound by plugin.so\\).*a partition"
}

@test "symsplit: plugin captured while the program dlsyms reg_* through libB's handle: split (likely)" {
    run ss --dlsym 'reg_*' --dlopen "$FX/dlopen/libB.so" --dlopen "$FX/dlopen/plugin.so" "$FX/dlopen/app"
    assert_failure 1
    assert_line --regexp "^SPLIT .* reg_count .*resolves to libA.so's copy.*dlsym on the --dlopen handle of libB.so.*\[confidence: likely\]"
}

@test "symsplit: without --dlsym/--host a handle-only use is MAYBE at most; names the host does not look up are no use" {
    run ss --info --dlopen "$FX/dlopen/libB.so" --dlopen "$FX/dlopen/plugin.so" "$FX/dlopen/app"
    assert_success
    assert_line --regexp "^MAYBE .* reg_count .*\[confidence: possible\]"
    run ss --info --host node --dlopen "$FX/dlopen/libB.so" --dlopen "$FX/dlopen/plugin.so" "$FX/dlopen/app"
    assert_success
    refute_line --partial 'dlsym on the --dlopen handle'
}

@test "symsplit: dlsym on a handle searches its dependencies too (libB reached through plugin.so's handle)" {
    run ss --dlsym reg_count --dlopen "$FX/dlopen/plugin.so" "$FX/dlopen/app"
    assert_failure 1
    assert_line --regexp "^SPLIT .* reg_count .*dlsym on the --dlopen handle of plugin.so finds libB.so's copy of reg_count"
}
