#!/usr/bin/env bats
# symsplit: a process from what it has mapped (--maps) and from its loader record (--trace).
# Ground truth comes from running the fixtures and the labs (scripts/verdict
# --facts), never from a copied list; every program a test starts runs under
# timeout (a hang is a failure, 124). Shared setup: symsplit-setup.bash.
load helpers
load symsplit-setup
BATS_TEST_TIMEOUT=${BATS_TEST_TIMEOUT:-120}

# ---- a live process, from what it has mapped ----
@test "symsplit: --maps reads what a process mapped; the dlopen flags not seen there come from --dlopen" {
    bats_require_minimum_version 1.5.0
    t=$FX/timeline m=$BATS_TEST_TMPDIR/maps
    DLORDER_MAPS=$m run timeout -k 2 10 "$t/app" "$t/libC.so:global" "$t/plugin.so"
    assert_failure 1                                   # the process split
    run --separate-stderr ss --dlsym user_count --maps "$m"
    assert_success                                     # flags unknown: both taken RTLD_LOCAL ...
    assert_line --regexp "^LATENT .* reg_count .*if libC.so were opened RTLD_GLOBAL"   # ... and the promotion named
    [[ $stderr == *"2 module(s) taken as dlopens in load (reverse address) order: $t/libC.so:local $t/plugin.so:local"* ]]
    # one note says which flags it does not know, what it modelled, and who can tell
    [ "$(grep -c "holds no dlopen flags: 2 dlopened module(s) of unknown flags modelled RTLD_LOCAL.*: $t/libC.so $t/plugin.so; --pid, --trace or --dlopen PATH:global can tell\$" <<<"$stderr")" -eq 1 ]
    run --separate-stderr ss --dlsym user_count --dlopen "$t/libC.so:global" --maps "$m"
    assert_failure 1
    [[ $stderr == *"holds no dlopen flags: 1 dlopened module(s) of unknown flags modelled RTLD_LOCAL"*": $t/plugin.so; --pid"* ]]
    run --separate-stderr ss --dlsym user_count --dlopen "$t/libC.so:global" --dlopen "$t/plugin.so" --maps "$m"
    [[ $stderr != *"holds no dlopen flags"* ]]            # every flag given: nothing assumed
    assert_line --regexp "^SPLIT .* reg_count .*plugin.so depends on libB.so but its reference resolves to libC.so's copy"
}

@test "symsplit: --maps: a second file of a loaded SONAME, opened by its path, is a module of its own, not the dependency that name binds" {
    bats_require_minimum_version 1.5.0
    t=$FX/same-soname m=$BATS_TEST_TMPDIR/maps
    DLORDER_MAPS=$m run env LD_DEBUG=bindings timeout -k 2 10 "$t/app" "$t/a/plugin.so" "$t/b/libB.so:global" "$t/b/plugin.so"
    assert_success
    # the truth: each plugin's reg_count runs on another file's registry
    run "$TOP/scripts/ld-debug" --row "$t" --bindings reg_count <<<"$output"
    assert_line "binding file a/plugin.so [0] to a/libB.so [0]: normal symbol \`reg_count'"
    assert_line "binding file b/plugin.so [0] to b/libB.so [0]: normal symbol \`reg_count'"
    run --separate-stderr ss --dlsym user_count --dlopen "$t/b/libB.so:global" --maps "$m"
    assert_failure 1
    [[ $stderr == *"3 module(s) taken as dlopens in load (reverse address) order: $t/a/plugin.so:local $t/b/libB.so:global $t/b/plugin.so:local"* ]] || { echo "$stderr"; false; }
    assert_line --regexp "^SPLIT .* reg_count .*b/plugin.so depends on a/libB.so but its reference resolves to b/libB.so's copy"
}

@test "symsplit --trace: an RTLD_DEEPBIND dlopen is read from the loader's scopes: a lazy slot not yet bound is modelled in its own scope first" {
    bats_require_minimum_version 1.5.0
    t=$FX/deepbind
    export TMPDIR=$BATS_TEST_TMPDIR
    # the truth: plugin.so's first scope is its own searchlist, its reg_count binds libB.so's, one registration seen
    run env LD_DEBUG=scopes,bindings timeout -k 2 10 "$t/app" "$t/plugin.so:deepbind:lazy"
    assert_success
    run "$TOP/scripts/ld-debug" --names <<<"$output"
    assert_line "scope 0: plugin.so libB.so libc.so.6 ld-linux-x86-64.so.2"
    assert_line "binding file plugin.so [0] to libB.so [0]: normal symbol \`reg_count'"
    # poke's reg_add, never called, binds libB.so's too (deepbind): no split, as with --dlopen :deepbind
    run --separate-stderr ss --dlsym user_count --trace -- "$t/app" "$t/plugin.so:deepbind:lazy"
    assert_success
    [[ $stderr == *"1 module(s) it dlopened, in that order: $t/plugin.so:local:deepbind;"* ]] || { echo "$stderr"; false; }
    refute_line --regexp '^SPLIT '
    run ss --dlsym user_count --dlopen "$t/plugin.so:deepbind:lazy" "$t/app"
    assert_success
}

@test "symsplit --trace: route-b's dlmopen row is read in both namespaces: namespace 1's own librt copy, bound by its own plugin, is the partition the lab measures" {
    bats_require_minimum_version 1.5.0
    d=$BUILD/route-b/dlmopen
    [ -x "$d/app" ] || skip "route-b not built (make route-b)"
    export TMPDIR=$BATS_TEST_TMPDIR
    run --separate-stderr ss --trace -- "$d/app" $(table_cell route-b dlmopen steps)
    assert_success
    # the truth, printed by the process: A's registry holds A's device, B's (namespace 1) none
    [[ $stderr == *"pluginA sees 1 device(s)"* && $stderr == *"pluginB sees 0 device(s)"* ]]
    [[ $stderr == *" $d/A/plugin.so:local [namespace 1] $d/B/plugin.so:local;"* ]]
    assert_line --regexp "^COPY +med +rt_get_list +in $d/app: rt_get_list in 2 live copies: A/librt.so.1 \(bound by A/plugin.so\), B/librt.so.1 \(bound by B/plugin.so\); each copy is bound by its own users"
    refute_line --regexp '^SPLIT '
}

@test "symsplit: --pid analyses a running process; a missing one is one line, exit 2" {
    bats_require_minimum_version 1.5.0
    sleep 5 & pid=$!
    run --separate-stderr ss --pid "$pid"
    kill "$pid"
    assert_success
    assert_line --partial "1 image(s), 0 split(s)"
    run --separate-stderr ss --pid 999999999
    assert_failure 2
    [[ $stderr == "symsplit: --pid 999999999: no such process"* ]]
    # a kernel thread (kthreadd, pid 2, where /proc shows the host's) maps
    # no program: said so, not taken for a missing process
    if [ "$(cat /proc/2/comm 2>/dev/null)" = kthreadd ]; then
        run --separate-stderr ss --pid 2
        assert_failure 2
        [[ $stderr == "symsplit: --pid 2: a kernel thread (it maps no program)"* ]]
    fi
}

@test "symsplit: --trace runs the program, takes its dlopens from the loader and marks the split observed" {
    bats_require_minimum_version 1.5.0
    t=$FX/timeline
    export TMPDIR=$BATS_TEST_TMPDIR
    run --separate-stderr ss --dlsym user_count --dlopen libC.so:global --trace -- "$t/app" "$t/libC.so:global" "$t/plugin.so"
    assert_failure 1
    [[ $stderr == *"2 module(s) it dlopened, in that order: $t/libC.so:global $t/plugin.so:local"* ]]
    assert_line --regexp "^SPLIT .* reg_count .*resolves to libC.so's copy.*\\[observed: the loader made this binding\\]"
    [ -z "$(ls -A "$BATS_TEST_TMPDIR" | grep symsplit-trace)" ]   # its private directory is gone
    run --separate-stderr ss --trace -- no-such-command-here
    assert_failure 2
}

# ---- --trace reads the whole loader record ----
# dlorder's run is the truth (exit 1: plugin.so saw the other copy's empty registry)
@test "symsplit --trace: a module opened RTLD_GLOBAL is modelled so (the loader's 'add ... to global scope'): SPLIT observed, not LATENT" {
    bats_require_minimum_version 1.5.0
    t=$FX/timeline
    export TMPDIR=$BATS_TEST_TMPDIR
    run timeout -k 2 10 "$t/app" "$t/libC.so:global" "$t/plugin.so"
    assert_failure 1
    run --separate-stderr ss --json --trace -- "$t/app" "$t/libC.so:global" "$t/plugin.so"   # no --dlopen flags given
    assert_failure 1
    [[ $stderr == *"in that order: $t/libC.so:global $t/plugin.so:local"* ]] || { echo "$stderr"; false; }
    run python3 -c 'import json, sys
print(" ".join(f["verdict"] + ":" + f["symbol"] + ":" + f["binder"] + ":" + str(f["observed"]) for f in json.load(sys.stdin)["findings"]))' <<< "$output"
    assert_output 'SPLIT:reg_count:plugin.so:True'
    [ -x "$SAN" ] || return 0                               # the record's reader under ASan+UBSan: the same, silently
    run --separate-stderr ss --trace -- "$t/app" "$t/nosuch.so:try" "$t/libC.so:global" "$t/plugin.so"
    want=$output
    run --separate-stderr timeout -k 2 60 env ASAN_OPTIONS=detect_leaks=0 "$SAN" --trace -- "$t/app" "$t/nosuch.so:try" "$t/libC.so:global" "$t/plugin.so"
    assert_failure 1
    assert_equal "$output" "$want"
    [[ $stderr != *Sanitizer* && $stderr != *"runtime error"* ]] || { echo "$stderr"; false; }
}

@test "symsplit --trace: a dlopen that loaded nothing (missing file, unknown name) is no module; the run is analysed" {
    bats_require_minimum_version 1.5.0
    t=$FX/timeline
    export TMPDIR=$BATS_TEST_TMPDIR
    # the record names an attempt as asked ($ORIGIN unexpanded) and the module as found;
    # dlopen("") is the program's own handle (GTK's GModule asks for it), no module
    args=("" "$t/nosuch.so:try" libnosuch-glx.so.1:try '$ORIGIN/libC.so:global' "$t/plugin.so")
    run timeout -k 2 10 "$t/app" "${args[@]}"
    assert_failure 1
    run --separate-stderr ss --trace -- "$t/app" "${args[@]}"
    assert_failure 1
    [[ $stderr == *"2 module(s) it dlopened, in that order: $t/libC.so:global $t/plugin.so:local;"* ]] || { echo "$stderr"; false; }
    [[ $stderr == *"; 2 dlopen(s) that loaded nothing, not modules: $t/nosuch.so libnosuch-glx.so.1" ]] || { echo "$stderr"; false; }
    assert_line --regexp "^SPLIT .* reg_count .*\\[observed: the loader made this binding\\]"
}

@test "symsplit --trace: observed bindings beat the model: a promotion after an RTLD_NOW open captures nothing, after a lazy one it does" {
    bats_require_minimum_version 1.5.0
    t=$FX/timeline
    export TMPDIR=$BATS_TEST_TMPDIR
    for p in plugin.so plugin.so:lazy; do
        args=("$t/libC.so" "$t/$p" "$t/libC.so:promote")   # RTLD_LOCAL, then RTLD_NOLOAD|RTLD_GLOBAL
        st=0; timeout -k 2 10 "$t/app" "${args[@]}" || st=$?
        [ "$st" -le 1 ]
        run --separate-stderr ss --trace -- "$t/app" "${args[@]}"
        [[ $stderr == *"in that order: $t/libC.so:global $t/plugin.so:local;"* ]] || { echo "$stderr"; false; }
        [ "$status" -eq "$st" ] || { echo "$p: symsplit $status, the run $st: $output"; false; }
        if [ "$st" -eq 1 ]; then assert_line --regexp "^SPLIT .* reg_count .*\\[observed: the loader made this binding\\]"
        else refute_line --partial SPLIT; fi
    done
    [ "$st" -eq 1 ]                                       # the lazy run split
}

@test "symsplit: --trace of a file that cannot run is one line, exit 2" {
    bats_require_minimum_version 1.5.0
    export TMPDIR=$BATS_TEST_TMPDIR
    run --separate-stderr ss --trace -- /nonexistent
    assert_failure 2
    assert_equal "$stderr" "symsplit: --trace: /nonexistent: No such file or directory"
    printf 'not a program\n' > "$BATS_TEST_TMPDIR/noexec"; chmod +x "$BATS_TEST_TMPDIR/noexec"
    run --separate-stderr ss --trace -- "$BATS_TEST_TMPDIR/noexec"
    assert_failure 2
    assert_equal "$stderr" "symsplit: --trace: $BATS_TEST_TMPDIR/noexec: cannot run it: Exec format error"
    [ -z "$(ls -A "$BATS_TEST_TMPDIR" | grep symsplit-trace)" ]
}

@test "symsplit: --json --trace: the traced program's stdout goes to stderr, symsplit's stdout is the JSON alone" {
    bats_require_minimum_version 1.5.0
    export TMPDIR=$BATS_TEST_TMPDIR
    run --separate-stderr ss --json --trace -- /bin/sh -c 'echo from-the-program'
    assert_success
    run python3 -c 'import json, sys; print(json.load(sys.stdin)["images"])' <<< "$output"
    assert_output 1
    [[ $stderr == *from-the-program* ]]
}

@test "symsplit: SIGTERM or SIGINT to --trace stops the program and what it started, removes the record, dies of the signal" {
    for sig in TERM INT HUP; do
        t=$BATS_TEST_TMPDIR/$sig; mkdir "$t"
        # sh waits for a background sleep: sh is the child, sleep the grandchild
        (trap - INT; TMPDIR=$t exec timeout -k 2 30 "$SYMSPLIT" --trace -- /bin/sh -c 'sleep 60 & echo $! > "$0"; wait' "$t/pid") &
        outer=$!
        for i in $(seq 100); do [ -s "$t/pid" ] && break; sleep 0.1; done
        [ -s "$t/pid" ]
        sym=$(pgrep -P "$outer" -x symsplit)
        kill -$sig "$sym"
        st=0; wait "$outer" || st=$?
        [ "$st" -ne 124 ] || { echo "$sig: symsplit did not end"; false; }
        ! kill -0 "$(cat "$t/pid")" 2> /dev/null || { kill "$(cat "$t/pid")"; echo "$sig: the program's child outlived symsplit"; false; }
        [ "$(ls -A "$t")" = pid ] || { ls -A "$t"; false; }              # no symsplit-trace.* left
    done
}

@test "symsplit: LD_PRELOAD (or --preload) comes before the NEEDED closure, as running it shows" {
    d=$FX/preload
    run truth preload
    assert_success
    run ss "$d/app"
    assert_success
    LD_PRELOAD=$d/libpre.so run truth preload
    assert_failure 1
    run ss --preload "$d/libpre.so" "$d/app"
    assert_failure 1
    assert_line --regexp "^SPLIT .* reg_count .*libuser.so depends on libreg.so but its reference resolves to libpre.so's copy"
    LD_PRELOAD=$d/libpre.so run ss "$d/app"
    assert_failure 1
}

@test "symsplit: a DT_NEEDED loop loads as ld.so loads it" {
    run timeout -k 2 10 "$FX/bad/needloop/app"
    want=$status
    run ss "$FX/bad/needloop/app"
    [ "$status" -eq "$want" ] || { echo "app $want, symsplit $status: $output"; false; }
}
