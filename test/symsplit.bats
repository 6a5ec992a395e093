#!/usr/bin/env bats
# tools/symsplit: the binding simulator.  Ground truth comes from running the
# fixtures (a split shows as the consumer seeing the other copy: exit 1) and,
# for the labs, from scripts/verdict --facts; never from a copied list.
load helpers

setup_file() {
    TOP=$(cd "$BATS_TEST_DIRNAME/.." && pwd)
    local b=${B:-build}
    case $b in /*) ;; *) b=$TOP/$b ;; esac
    export TOP BUILD=$b
    export SYMSPLIT=$b/tools/symsplit/symsplit SAN=$b/tools/symsplit/symsplit-san
    export FUZZ=$b/tools/symsplit/symsplit-fuzz FX=$b/tools/symsplit/fixtures
    [ -x "$SYMSPLIT" ] || make -C "$TOP" -s symsplit
    [ -e "$FX/.done" ] || { "$TOP/tools/symsplit/mkfixtures" "$FX" && touch "$FX/.done"; }
}

# the fixture's own run: 0 = every consumer saw the registration, 1 = split
truth() { "$FX/$1/app" > /dev/null 2>&1; }

@test "symsplit: -Bsymbolic-functions library + second copy in the exe is flagged (likely), as running it shows" {
    run truth split-bsymfunc
    assert_failure 1
    run "$SYMSPLIT" "$FX/split-bsymfunc/app"
    assert_failure 1
    assert_line --regexp "^SPLIT +med +reg_count +.*app carries its own copy of reg_count.*libreg.so is probably self-binding: its code calls its own reg_add directly.*\[confidence: likely\]"
}

@test "symsplit: plain interposition (libreg calls through its PLT) is cleared, as running it shows" {
    run truth ok-interpose
    assert_success
    run "$SYMSPLIT" "$FX/ok-interpose/app"
    assert_success
    refute_line --partial SPLIT
}

@test "symsplit: protected entry points split for certain" {
    run truth split-protected
    assert_failure 1
    run "$SYMSPLIT" "$FX/split-protected/app"
    assert_failure 1
    assert_line --regexp '^SPLIT .* reg_count .*defines reg_count protected.*\[confidence: certain\]'
}

@test "symsplit: COPY relocation + -Bsymbolic splits the variable (high), as running it shows" {
    run truth split-copyreloc-symbolic
    assert_failure 1
    run "$SYMSPLIT" "$FX/split-copyreloc-symbolic/app"
    assert_failure 1
    assert_line --regexp '^SPLIT +high +reg_n +.*COPY-relocated.*DF_SYMBOLIC'
}

@test "symsplit: COPY relocation without -Bsymbolic is unified, as running it shows" {
    run truth ok-copyreloc
    assert_success
    run "$SYMSPLIT" "$FX/ok-copyreloc/app"
    assert_success
}

@test "symsplit: foo@V1 and foo@V2 are two interfaces, though nm -D sees foo twice" {
    d=$FX/ok-versions
    run bash -c "nm -D --defined-only '$d/libv1.so' '$d/libv2.so' | grep -c ' T foo@'"
    assert_output 2
    run "$SYMSPLIT" --info "$d/app"
    assert_success
    refute_line --partial foo
}

@test "symsplit: plugin captured by the global copy, libB's own copy unused: MAYBE only, exit 0" {
    for k in local global; do
        run "$SYMSPLIT" --info --dlopen "$FX/dlopen/plugin.so:$k" "$FX/dlopen/app"
        assert_success
        assert_line --regexp "^MAYBE .* reg_count .*plugin.so depends on libB.so but its reference resolves to libA.so's copy"
    done
}

@test "symsplit: deepbind keeps plugin on its own dependency's copy: two instances, no split" {
    run "$SYMSPLIT" --info --dlopen "$FX/dlopen/plugin.so:deepbind" "$FX/dlopen/app"
    assert_success
    refute_line --partial reg_count
}

@test "symsplit: plugin captured while the program dlsyms through libB's handle: split (likely)" {
    run "$SYMSPLIT" --dlopen "$FX/dlopen/libB.so" --dlopen "$FX/dlopen/plugin.so" "$FX/dlopen/app"
    assert_failure 1
    assert_line --regexp "^SPLIT .* reg_count .*resolves to libA.so's copy.*dlsym on the --dlopen handle of libB.so.*\[confidence: likely\]"
}

@test "symsplit: several executables in one run, each in its own image" {
    run "$SYMSPLIT" "$FX/ok-interpose/app" "$FX/split-protected/app" "$FX/ok-copyreloc/app"
    assert_failure 1
    assert_line --partial '# symsplit: 3 image(s), 2 split(s)'
    refute_line --partial 'in '"$FX"'/ok-'
}

@test "symsplit: --json carries the same counts" {
    run "$SYMSPLIT" --json "$FX/split-protected/app"
    assert_failure 1
    assert_output --partial '"splits":2'
    assert_output --partial '"symbol":"reg_count"'
    run python3 -c 'import json,sys; d=json.load(sys.stdin); print(len(d["findings"]))' <<<"$output"
    assert_output 2
}

@test "symsplit: the allowlist suppresses by symbol and module and says how many" {
    printf '# intentional\nreg_* libreg.so\n' > "$BATS_TEST_TMPDIR/allow"
    run "$SYMSPLIT" --allow "$BATS_TEST_TMPDIR/allow" "$FX/split-protected/app"
    assert_success
    assert_line --partial '0 split(s), 0 maybe, 0 info (rows with --info), 2 suppressed by allowlist'
    printf 'reg_* libother.so\n' > "$BATS_TEST_TMPDIR/allow2"
    run "$SYMSPLIT" --allow "$BATS_TEST_TMPDIR/allow2" "$FX/split-protected/app"
    assert_failure 1
}

bad_input() {   # file: one line on stderr naming it, exit 2
    run --separate-stderr "$SYMSPLIT" "$1"
    assert_failure 2
    [ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ]
    [[ $stderr == "symsplit: $2"* ]]
}

@test "symsplit: malformed inputs get one line naming the file and exit 2" {
    bats_require_minimum_version 1.5.0
    b=$FX/bad
    bad_input "$b/notelf" "$b/notelf: not an ELF file"
    bad_input "$b/truncated" "$b/truncated: truncated"
    bad_input "$b/corrupt" "$b/corrupt: truncated or corrupt"
    bad_input "$b/wrongclass" "$b/wrongclass: wrong ELF class"
    bad_input "$b/wrongmachine" "$b/wrongmachine: wrong machine"
    bad_input "$b/adir" "$b/adir: is a directory"
    bad_input "$b/loop1" "$b/loop1: Too many levels of symbolic links"
    bad_input "$b/nonexistent" "$b/nonexistent: No such file"
    bad_input "$b/needloop/app" "$b/needloop/libloop"
    [[ $stderr == *"NEEDED loop"* ]]
}

@test "symsplit: a missing dependency is a warning and a partial analysis" {
    bats_require_minimum_version 1.5.0
    run --separate-stderr "$SYMSPLIT" "$FX/bad/missing/app"
    assert_success
    [[ $stderr == *"warning"*"cannot find libgone.so (needed by app); analysis is partial"* ]]
    assert_line --partial '1 partial'
}

@test "symsplit: bad usage exits 2" {
    run "$SYMSPLIT" --frobnicate x
    assert_failure 2
    run "$SYMSPLIT"
    assert_failure 2
}

@test "symsplit: ASan+UBSan build agrees with the plain build on every test input, silently" {
    bats_require_minimum_version 1.5.0
    [ -x "$SAN" ] || skip "sanitizer build missing (make $SAN)"
    for f in "$FX"/*/app "$FX"/bad/* "$FX"/bad/*/app /usr/bin/ls "$BUILD"/matrix/*/app "$BUILD"/scope-capture/*/app; do
        [ -e "$f" ] || [ -L "$f" ] || continue
        run --separate-stderr "$SYMSPLIT" "$f"; want=$status
        run --separate-stderr env ASAN_OPTIONS=detect_leaks=0 "$SAN" "$f"
        [ "$status" -eq "$want" ] || { echo "$f: status $status, plain build $want: $stderr"; false; }
        [[ $stderr != *Sanitizer* && $stderr != *"runtime error"* ]] || { echo "$f: $stderr"; false; }
    done
    run --separate-stderr env ASAN_OPTIONS=detect_leaks=0 "$SAN" --dlopen "$FX/dlopen/libB.so" --dlopen "$FX/dlopen/plugin.so" --json "$FX/dlopen/app"
    assert_failure 1
    [[ $stderr != *Sanitizer* && $stderr != *"runtime error"* ]]
    d=$BUILD/scope-capture/capture
    if [ -e "$d/app" ]; then
        run --separate-stderr env ASAN_OPTIONS=detect_leaks=0 "$SAN" --info --dlopen "$d/libregistryB.so.1" --dlopen "$d/libproviderB.so:deepbind" "$d/app"
        [[ $stderr != *Sanitizer* && $stderr != *"runtime error"* ]]
    fi
}

@test "symsplit: fuzz target smoke run (3 s of libFuzzer on the fixtures as seeds)" {
    [ -x "$FUZZ" ] || skip "no fuzz build (needs clang: make $FUZZ)"
    corpus=$BATS_TEST_TMPDIR/corpus; mkdir -p "$corpus"
    cp "$FX"/split-bsymfunc/*.so "$FX"/bad/truncated "$FX"/bad/corrupt "$corpus"/
    run "$FUZZ" -max_total_time=3 -rss_limit_mb=1024 -print_final_stats=0 "$corpus"
    assert_success
}

@test "symsplit: this machine's /usr/bin and /usr/sbin sweep reports zero splits" {
    [ -d /usr/bin ] || skip "no /usr/bin"
    run "$TOP/tools/symsplit/sweep" "$SYMSPLIT"
    assert_success
    assert_line --regexp '^symsplit splits: +0 '
}

# symsplit_agrees LAB FACTS: for every loaded row, symsplit exits 1 exactly
# where scripts/verdict --facts says SPLIT; the rest of each line of FACTS
# after the row id is how to call symsplit for that row.
symsplit_agrees() {
    local lab=$1 facts=$2 row verdict v bad=0
    while read -r row verdict _; do
        v=${verdict#verdict=}
        [ "$v" = not-loaded ] && continue
        # symsplit does not model LD_PRELOAD (a limit its reference lists): a row run with one is not its case
        [ -n "$(table_cell "$lab" "$row" preload 2>/dev/null)" ] && continue
        args=$(row_args "$lab" "$row")
        # shellcheck disable=SC2086
        run "$SYMSPLIT" $args
        if [ "$v" = SPLIT ] && [ "$status" -ne 1 ]; then echo "$lab $row: verdict SPLIT, symsplit $status: $output"; bad=1; fi
        if [ "$v" != SPLIT ] && [ "$status" -ne 0 ]; then echo "$lab $row: verdict $v, symsplit $status: $output"; bad=1; fi
    done <<<"$facts"
    return $bad
}

row_args() {
    case $1 in
    matrix) echo "$BUILD/matrix/$2/app" ;;
    scope-capture)   # the dlopen layout of nccl_like.c: registry local or global, provider local or deepbind
        local k=local r=local
        case $(table_cell scope-capture "$2" nccl-cflags) in *PROVIDER_DEEPBIND*) k=deepbind ;; esac
        case $(table_cell scope-capture "$2" nccl-cflags) in *REGISTRY_GLOBAL*) r=global ;; esac
        echo "--dlopen $BUILD/scope-capture/$2/libregistryB.so.1:$r --dlopen $BUILD/scope-capture/$2/libproviderB.so:$k $BUILD/scope-capture/$2/app" ;;
    esac
}

@test "symsplit: matrix lab rows split exactly where scripts/verdict --facts says" {
    [ -x "$TOP/scripts/verdict" ] && [ -e "$TOP/matrix/rows" ] || skip "matrix lab not on this branch"
    lab_output matrix matrix
    facts=$("$TOP/scripts/verdict" --facts < "$(out_file matrix)")
    [ "$(grep -c 'verdict=SPLIT' <<<"$facts")" -ge 1 ]
    symsplit_agrees matrix "$facts"
}

@test "symsplit: scope-capture with its dlopen layout flags capture/order, clears omnibus, same-soname, deepbind, fixed" {
    [ -x "$TOP/scripts/verdict" ] && [ -e "$TOP/scope-capture/rows" ] || skip "scope-capture lab not on this branch"
    lab_output scope scope-capture
    facts=$("$TOP/scripts/verdict" --facts < "$(out_file scope)")
    [ "$(grep -c 'verdict=SPLIT' <<<"$facts")" -ge 1 ]
    symsplit_agrees scope-capture "$facts"
}
