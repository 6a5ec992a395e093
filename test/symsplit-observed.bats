#!/usr/bin/env bats
# symsplit: observed beats modelled, and a maps file with the flags gives
# what the files with them give.  The truth is each run of a timeline
# fixture (dlorder: the opens in the order given) and the loader's record
# (LD_DEBUG=bindings, LD_BIND_NOW=1).
load helpers
load symsplit-setup
load symsplit-pause
BATS_TEST_TIMEOUT=${BATS_TEST_TIMEOUT:-120}

# bound_to DIR LIB ARG...: how many bindings the loader made to DIR/LIB in the run
bound_to() {
    local d=$1 lib=$2
    shift 2
    LD_DEBUG=bindings LD_BIND_NOW=1 timeout -k 2 10 "$d/app" "$@" 2>&1 >/dev/null | grep -c " to $d/$lib \[0\]" || true
}

@test "symsplit --trace, --pid: a library nothing enters (no constructor of its own, no reference bound to it) keeps no copy in use: no SPLIT, where the files model one" {
    t=$FX/timeline-idle
    [ "$(bound_to "$t" libB.so "$t/libC.so:global" "$t/plugin.so")" -eq 0 ]
    [ "$(bound_to "$t" libC.so "$t/libC.so:global" "$t/plugin.so")" -ge 1 ]
    run ss --dlopen "$t/libC.so:global" --dlopen "$t/plugin.so" "$t/app"      # the files: libB.so binds its own (protected)
    assert_line --regexp '^SPLIT .* reg_count '
    run --separate-stderr ss --trace -- "$t/app" "$t/libC.so:global" "$t/plugin.so"
    refute_line --regexp '^SPLIT '
    live_start "$t/app" "$t/libC.so:global" "$t/plugin.so"
    run --separate-stderr ss --pid "$LIVE_PID"
    live_end
    refute_line --regexp '^SPLIT '
}

@test "symsplit --trace, --pid: a library whose own constructor runs its code (timeline's libB.so) still counts as in use: SPLIT, as the run shows" {
    t=$FX/timeline
    run timeout -k 2 10 "$t/app" "$t/libC.so:global" "$t/plugin.so"
    [ "$status" -eq 1 ]                                     # the process split
    run --separate-stderr ss --trace -- "$t/app" "$t/libC.so:global" "$t/plugin.so"
    assert_failure 1
    assert_line --regexp '^SPLIT .* reg_count '
}

@test "symsplit --maps MAPS EXE with the dlopen flags gives what the files with those flags give, where a closed module's hole put a later one above an earlier one" {
    t=$FX/timeline
    args=("$t/filler.so" "$t/libC.so:global" "$t/filler.so:close" "$t/plugin.so")
    run env DLORDER_MAPS="$BATS_TEST_TMPDIR/maps" timeout -k 2 10 "$t/app" "${args[@]}"
    [ "$status" -eq 1 ]                                     # the process split
    lo() { awk -v f="$t/$1" '$6 == f { split($1, a, "-"); print a[1]; exit }' "$BATS_TEST_TMPDIR/maps"; }
    [ $((16#$(lo plugin.so))) -gt $((16#$(lo libC.so))) ] || skip "the kernel mapped plugin.so below libC.so: no hole to reproduce"
    run ss --dlopen "$t/libC.so:global" --dlopen "$t/plugin.so" "$t/app"
    files=$(grep -E '^(SPLIT|COLLISION|LATENT|COPY) ' <<<"$output" | awk '{ print $1, $3 }')
    [ -n "$files" ]
    run --separate-stderr ss --dlopen "$t/libC.so:global" --dlopen "$t/plugin.so" --maps "$BATS_TEST_TMPDIR/maps" "$t/app"
    assert_failure 1
    assert_equal "$(grep -E '^(SPLIT|COLLISION|LATENT|COPY) ' <<<"$output" | awk '{ print $1, $3 }')" "$files"
    [[ $stderr == *"$t/libC.so:global $t/plugin.so:local (those --dlopen names: in its order)"* ]] || { echo "$stderr"; false; }
}

@test "symsplit --trace: a program that replaces itself (env execs true) is read up to its successor's start-up: no SPLIT of env's COPY relocations against the successor's libc bindings" {
    run ss /usr/bin/env                                       # the files: env's copies of libc's data are no split
    refute_line --regexp '^SPLIT '
    run --separate-stderr ss --trace -- /usr/bin/env true
    assert_success
    refute_line --regexp '^SPLIT '
}
