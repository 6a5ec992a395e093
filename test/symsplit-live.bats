#!/usr/bin/env bats
# symsplit --pid on live processes: what the process holds (its link map, its
# GOT/PLT slots, its root, the files it mapped) against what the files alone
# model.  Each process is a fixture started here, paused on a FIFO
# (FIXTURE_PAUSE, fixtures/pause.h) while symsplit reads it; released, its
# exit status is the truth (0: one registry, 1: split).  teardown kills what
# is still running.
load helpers
load symsplit-pause
BATS_TEST_TIMEOUT=${BATS_TEST_TIMEOUT:-120}

setup_file() {
    export SAN=$BUILD/tools/symsplit/symsplit-san FX=$BUILD/tools/symsplit/fixtures
    make -C "$TOP" -s B="$B" symsplit-san "$FX/.done"
}

# symsplit under the sanitizers (leaks aside, as in the symsplit-*.bats files): a finding there fails the test
ss() { timeout -k 2 60 env ASAN_OPTIONS=detect_leaks=0 "$SAN" "$@"; }

# ss_live [OPTION...]: symsplit on the paused process (its table in output,
# its notes in stderr), then the process released (live_end)
ss_live() {
    run --separate-stderr ss "$@" --pid "$LIVE_PID"
    live_end
}

@test "symsplit --pid: two exports on one private table (one interposed by the exe's archive copy): SPLIT, the other name's binding observed" {
    bats_require_minimum_version 1.5.0
    t=$FX/split-shared-table
    live_start "$t/app"
    ss_live
    [ "$(head -n 1 "$LIVE_OUT")" != "$(timeout 10 "$t/app-one")" ]   # the process split: tab_get did not read what tab_put wrote
    assert_failure 1
    assert_line --regexp "^SPLIT +med +tab_put .*app's reference to tab_get resolves to libtab.so's tab_get \(observed\).* share shared_table "
}

@test "symsplit --pid: a split the process holds is SPLIT observed, where its mapped files alone model none" {
    bats_require_minimum_version 1.5.0
    t=$FX/timeline
    live_start "$t/app" "$t/libC.so:global" "$t/plugin.so"    # libC.so RTLD_GLOBAL: a flag no file records
    cp "/proc/$LIVE_PID/maps" "$BATS_TEST_TMPDIR/maps"
    ss_live
    [ "$LIVE_STATUS" -eq 1 ]                                # the process split
    assert_failure 1
    assert_line --regexp "^SPLIT .* reg_count .*plugin.so depends on libB.so but its reference resolves to libC.so's copy.*\[observed: plugin.so's GOT slot for reg_count holds libC.so's copy\]$"
    [[ $stderr == *"libC.so:global"* ]]                      # the global scope, read from ld.so
    run --separate-stderr ss --maps "$BATS_TEST_TMPDIR/maps"   # the same process's files: no split modelled
    assert_success
    refute_line --partial SPLIT
}

@test "symsplit --pid: the link map, not the search rules, says which files the process loaded (LD_LIBRARY_PATH)" {
    bats_require_minimum_version 1.5.0
    run --separate-stderr ss "$FX/split-protected/app"       # the files as found by RUNPATH: a split
    assert_failure 1
    # run with the interposable registry first in the search: no split
    LD_LIBRARY_PATH=$FX/ok-interpose live_start "$FX/split-protected/app"
    ss_live
    [ "$LIVE_STATUS" -eq 0 ]
    assert_success
    refute_line --partial SPLIT
    [[ $stderr == *" $FX/ok-interpose/libreg.so:start-up"* ]]
}

@test "symsplit --pid: a what-if the process's slots refute is not reported as SPLIT" {
    bats_require_minimum_version 1.5.0
    t=$FX/timeline
    run --separate-stderr ss --dlopen "$t/libC.so:global" --dlopen "$t/plugin.so" "$t/app"   # the files: split
    assert_failure 1
    live_start "$t/app" "$t/libC.so" "$t/plugin.so"          # libC.so RTLD_LOCAL: plugin.so binds libB.so
    ss_live --dlopen "$t/libC.so:global"
    [ "$LIVE_STATUS" -eq 0 ]
    assert_success
    refute_line --partial SPLIT
    [[ $stderr == *"is not in the process's global scope"* ]]
}

@test "symsplit --pid: a what-if dlopen the loader would refuse is undone as in file mode: no binding of it or of its dependency, a fails line and a note" {
    bats_require_minimum_version 1.5.0
    local d=$FX/open-fails
    run timeout -k 2 10 "$d/app" "now:$d/plugin.so" "loaded:$d/libdep.so"   # the truth: refused, its dependency gone with it
    assert_line "open $d/plugin.so: failed"
    assert_line "loaded $d/libdep.so: no"
    live_start "$d/app"
    ss_live --bindings --dlopen "$d/plugin.so:now"
    assert_success
    assert_line --regexp "^fails	$d/plugin.so	[^	]*/plugin.so	nowhere_var	-	[^	]*/plugin.so	[^	]*/libdep.so$"
    refute_line --regexp "^binding	[^	]*/(plugin|libdep).so	"
    [[ $stderr == *"dlopen $d/plugin.so fails: "*" refers to nowhere_var, which nothing in its scope defines"* ]] || fail "no note: $stderr"
}

@test "symsplit --pid: a lazy slot not bound yet is answered by the model, marked modelled" {
    bats_require_minimum_version 1.5.0
    t=$FX/timeline
    live_start "$t/app" "$t/libC.so:global" "$t/plugin.so:lazy"   # paused before the first call
    ss_live --json
    [ "$LIVE_STATUS" -eq 1 ]                                  # the call, made after, split
    assert_failure 1
    run /usr/bin/python3 -c 'import json, sys
print(" ".join(f["verdict"] + ":" + f["symbol"] + ":" + ("observed" if f["observed"] else "modelled") for f in json.load(sys.stdin)["findings"]))' <<< "$output"
    assert_output 'SPLIT:reg_count:modelled'
}

@test "symsplit --pid: a process with its own root is read through /proc/PID/root, not the host's files" {
    bats_require_minimum_version 1.5.0
    command -v chroot > /dev/null && [ "$(id -u)" -eq 0 ] || skip "chroot needs root"
    r=$BATS_TEST_TMPDIR/root d=$FX/split-protected
    ld=$(readlink -f /lib64/ld-linux-x86-64.so.2) libc=$(readlink -f /lib/x86_64-linux-gnu/libc.so.6)
    [ -e "$ld" ] && [ -e "$libc" ] || skip "not an x86-64 glibc host"
    # the executable at its host path; its libraries (an interposable
    # registry) only in the root's default directory, which the host lacks
    mkdir -p "$r/lib64" "$r/lib/x86_64-linux-gnu" "$r$d"
    cp "$ld" "$r/lib64/ld-linux-x86-64.so.2"
    cp "$libc" "$d/libuser.so" "$FX/ok-interpose/libreg.so" "$r/lib/x86_64-linux-gnu/"
    cp "$d/app" "$r$d/"
    live_start --fifo "$r/pause" /pause chroot "$r" "$d/app"
    ss_live
    [ "$LIVE_STATUS" -eq 0 ]                                  # in its root: no split
    assert_success
    refute_line --partial SPLIT
    [[ $stderr == *"its files are read through /proc/$LIVE_PID/root"* ]]
}

@test "symsplit --pid: a library replaced on disk since it was mapped is read as mapped, and named" {
    bats_require_minimum_version 1.5.0
    # /proc/PID/map_files, where a replaced file is read, needs CAP_SYS_ADMIN
    [ "$(id -u)" = 0 ] || skip "a replaced library is read through /proc/PID/map_files, which needs root"
    d=$BATS_TEST_TMPDIR/sp
    cp -r "$FX/split-protected" "$d"
    live_start "$d/app"
    rm "$d/libreg.so"                                         # an upgrade: another registry at that path
    cp "$FX/ok-interpose/libreg.so" "$d/libreg.so"
    ss_live
    [ "$LIVE_STATUS" -eq 1 ]
    assert_failure 1
    assert_line --regexp "^SPLIT .* reg_count .*\[observed: libuser.so's GOT slot for reg_count holds app's copy\]$"
    [[ $stderr == *"$d/libreg.so:start-up (replaced on disk since mapped: the mapped file read)"* ]]
}

@test "symsplit --pid: a dlmopen namespace is read: its module's slot binds its own namespace's copy, not the global one the files suggest" {
    bats_require_minimum_version 1.5.0
    t=$FX/timeline
    run --separate-stderr ss --dlopen "$t/libC.so:global" --dlopen "$t/plugin.so" "$t/app"   # one namespace: split
    assert_failure 1
    live_start "$t/app" "$t/libC.so:global" "$t/plugin.so:newlm"
    ss_live
    [ "$LIVE_STATUS" -eq 0 ]                                  # plugin.so saw its own namespace's registry
    assert_success
    refute_line --partial SPLIT
    refute_line --partial LATENT
    refute_line --regexp '^COPY .* in 2 live copies: '   # its second libc: one family row, not one per name
    [[ $stderr == *"in 2 namespace(s)"*"[namespace 1] $t/plugin.so"* ]]
}

@test "symsplit --pid: a lazy slot in a dlmopen namespace is modelled within that namespace, not from the main global scope" {
    bats_require_minimum_version 1.5.0
    t=$FX/timeline
    live_start "$t/app" "$t/libC.so:global" "$t/plugin.so:newlm:lazy"   # paused before the first call
    ss_live --json
    [ "$LIVE_STATUS" -eq 0 ]                                  # the call, made after, found namespace 1's registry
    assert_success
    run /usr/bin/python3 -c 'import json, sys
print(len([f for f in json.load(sys.stdin)["findings"] if f["verdict"] in ("SPLIT", "LATENT")]))' <<< "$output"
    assert_output 0
}

# rows_of OUTPUT: the table and its counts, the observed evidence named
# alike (--pid names a GOT slot, --trace the loader's record)
rows_of() { sed -E 's/ \[observed: [^]]*\]$/ [observed]/' <<<"$1"; }

@test "symsplit --trace: a dlmopen namespace is read as --pid reads it: the same rows, each namespace's bindings matched to its own copies" {
    bats_require_minimum_version 1.5.0
    t=$FX/timeline
    export TMPDIR=$BATS_TEST_TMPDIR
    # namespace 1: plugin.so with its own libB.so (and libc); namespace 0: libC.so
    # alone, plugin.so alone, then both (plugin.so captured by libC.so: split)
    for opens in "libC.so:global plugin.so:newlm" "plugin.so plugin.so:newlm" "libC.so:global plugin.so plugin.so:newlm"; do
        args=()
        for o in $opens; do args+=("$t/$o"); done
        rm -f "$BATS_TEST_TMPDIR/pause"                       # live_start's FIFO, made once a run
        live_start "$t/app" "${args[@]}"
        ss_live --info
        pid_rows=$(rows_of "$output") pid_status=$status
        run --separate-stderr ss --info --trace -- "$t/app" "${args[@]}"
        [ "$status" -eq "$LIVE_STATUS" ]                      # the truth: 1 when user_count saw another registry
        [ "$status" -eq "$pid_status" ]
        diff <(echo "$pid_rows") <(rows_of "$output")
        [[ $stderr == *"[namespace 1] $t/plugin.so:local;"* ]]
    done
    # the one split is namespace 0's plugin.so; namespace 1's copy bound namespace 1's libB.so
    assert_failure 1
    [ "$(grep -c '^SPLIT ' <<<"$output")" -eq 1 ]
    assert_line --regexp "^SPLIT +med +reg_count +.*plugin.so depends on libB.so but its reference resolves to libC.so's copy .*\[observed: the loader made this binding\]$"
}

@test "symsplit --pid: a program started by running ld.so (no DT_DEBUG to read) is found through ld.so's _r_debug" {
    bats_require_minimum_version 1.5.0
    t=$FX/timeline ld=/lib64/ld-linux-x86-64.so.2
    [ -e "$ld" ] || skip "not an x86-64 glibc host"
    live_start "$ld" "$t/app" "$t/libC.so:global" "$t/plugin.so"
    ss_live
    [ "$LIVE_STATUS" -eq 1 ]
    assert_failure 1
    assert_line --regexp "^SPLIT .* reg_count .*\[observed: plugin.so's GOT slot for reg_count holds libC.so's copy\]$"
}

# ---- a process naming files it should not, or seeing other files than ours ----
@test "symsplit --pid: a chrooted process naming '/../../..' in its link map is read inside its root, never the host's file" {
    bats_require_minimum_version 1.5.0
    command -v chroot > /dev/null && [ "$(id -u)" -eq 0 ] || skip "chroot needs root"
    r=$BATS_TEST_TMPDIR/root t=$FX/timeline x=$BATS_TEST_TMPDIR/x
    ld=$(readlink -f /lib64/ld-linux-x86-64.so.2) libc=$(readlink -f /lib/x86_64-linux-gnu/libc.so.6)
    [ -e "$ld" ] && [ -e "$libc" ] || skip "not an x86-64 glibc host"
    mkdir -p "$r/lib64" "$r/lib/x86_64-linux-gnu" "$r$t" "$r$x" "$x"
    cp "$ld" "$r/lib64/ld-linux-x86-64.so.2"
    cp "$libc" "$r/lib/x86_64-linux-gnu/"
    cp "$t/app" "$r$t/"
    cp "$t/plugin.so" "$t/libB.so" "$r$x/"
    # at the host's path of the same name: no library (the file a name leading out of the root would reach)
    echo 'the host file' > "$x/plugin.so"
    up=$(printf '/..%.0s' $(seq 32))
    live_start --fifo "$r/pause" /pause chroot "$r" "$t/app" "$up$x/plugin.so"
    ss_live
    [ "$LIVE_STATUS" -eq 0 ]                                  # in its root: the plugin ran, no split
    [ "$status" -eq 0 ] || fail "symsplit exit $status: $output $stderr"    # its reason, not only the status
    [[ $stderr != *"not an ELF"* ]]
}

@test "symsplit --pid: a process in a private mount namespace is read through its root, not the host's file at the same path" {
    bats_require_minimum_version 1.5.0
    need_private_mounts                                       # root, and / a mount point
    d=$FX/split-protected
    # in its namespace, libreg.so is the interposable registry (no split); on the host, the protected one (split)
    live_start unshare -m --propagation private sh -c 'mount --bind "$0" "$1" && exec "$2"' "$FX/ok-interpose/libreg.so" "$d/libreg.so" "$d/app"
    ss_live
    [ "$LIVE_STATUS" -eq 0 ]
    assert_success
    refute_line --partial SPLIT
    [[ $stderr == *"its files are read through /proc/$LIVE_PID/root"* ]]
}

@test "symsplit --pid: a loader deleted since it started, under another name (PT_INTERP elsewhere), is still the loader: no false NOLOAD" {
    bats_require_minimum_version 1.5.0
    [ "$(id -u)" = 0 ] || skip "a deleted file is read through /proc/PID/map_files, which needs root"
    ld=$(readlink -f /lib64/ld-linux-x86-64.so.2)
    [ -e "$ld" ] || skip "not an x86-64 glibc host"
    t=$BATS_TEST_TMPDIR src=$TOP/tools/symsplit/dev/fixtures
    cp "$ld" "$t/loader.so"
    ${CC:-gcc} -O1 -I"$src" -o "$t/app" "$src/dlorder.c" -Wl,--dynamic-linker="$t/loader.so"
    live_start "$t/app" "$FX/timeline/plugin.so"
    rm "$t/loader.so"                                         # libc's NEEDED ld-linux-x86-64.so.2 is this object
    ss_live
    [ "$LIVE_STATUS" -eq 0 ]
    [ "$status" -eq 0 ] || fail "symsplit exit $status: $output $stderr"    # its reason, not only the status
    refute_line --partial NOLOAD
}
