#!/usr/bin/env bats
# symsplit: its outputs never hang, never overwrite an input, never lose a write silently.
# Ground truth comes from running the fixtures and the labs (scripts/verdict
# --facts), never from a copied list; every program a test starts runs under
# timeout (a hang is a failure, 124). Shared setup: symsplit-setup.bash.
load helpers
load symsplit-setup
BATS_TEST_TIMEOUT=${BATS_TEST_TIMEOUT:-120}

# ---- symsplit's outputs never hang, never overwrite an input, never lose a write silently ----
@test "symsplit: --json-out refuses a FIFO, a device and every file the run reads (one line, exit 2, the file intact)" {
    bats_require_minimum_version 1.5.0
    t=$BATS_TEST_TMPDIR
    cp "$FX/split-protected/"* "$t/"
    cp "$t/app" "$t/app.orig"; cp "$t/libreg.so" "$t/libreg.orig"
    mkfifo "$t/fifo"
    run --separate-stderr ss --json-out "$t/fifo" "$t/app"        # a hang would be timeout's 124
    assert_failure 2
    assert_equal "$stderr" "symsplit: --json-out $t/fifo: is a FIFO, not a regular file"
    run --separate-stderr ss --json-out /dev/full "$t/app"
    assert_failure 2
    assert_equal "$stderr" "symsplit: --json-out /dev/full: is a character device, not a regular file"
    for out in "$t/app" "$t/libreg.so"; do                          # named, and found by the search
        ln -sfn "$out" "$t/link"
        for o in "$out" "$t/link"; do
            run --separate-stderr ss --json-out "$o" "$t/app"
            assert_failure 2
            [[ $stderr == "symsplit: --json-out $o: is "*", an input of this run: refusing to overwrite it" ]] || { echo "$stderr"; false; }
        done
    done
    cmp "$t/app" "$t/app.orig"
    cmp "$t/libreg.so" "$t/libreg.orig"
}

@test "symsplit: --json-out replaces FILE whole or not at all: a failed write is one line, exit 2, the old FILE intact, no temporary left" {
    bats_require_minimum_version 1.5.0
    t=$BATS_TEST_TMPDIR/out; mkdir "$t"
    echo old > "$t/r.json"
    apps=("$FX"/*/app)
    # the object is larger than 4 KiB; a file-size limit of 4 KiB makes its
    # write fail (EFBIG, SIGXFSZ ignored), one line on stderr still fits
    run ss --json-out "$t/full.json" "${apps[@]}"
    [ "$(stat -c %s "$t/full.json")" -gt 4096 ]
    rm "$t/full.json"
    run --separate-stderr bash -c 'trap "" XFSZ; ulimit -f 4; exec timeout -k 2 20 "$0" --json-out "$@"' \
        "$SYMSPLIT" "$t/r.json" "${apps[@]}"
    assert_failure 2
    [[ $stderr == *"symsplit: --json-out $t/r.json: cannot write it: File too large" ]] || { echo "$stderr"; false; }
    assert_equal "$(cat "$t/r.json")" old
    assert_equal "$(ls -A "$t")" r.json
    run ss --json-out "$t/r.json" "$FX/split-protected/app"
    assert_failure 1
    run python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["splits"])' "$t/r.json"
    assert_output --regexp '^[1-9]'
    assert_equal "$(ls -A "$t")" r.json
}

@test "symsplit: a stdout that cannot be written (a full disk) is one line and exit 2, not a silent loss" {
    bats_require_minimum_version 1.5.0
    for mode in --json --info; do
        run --separate-stderr bash -c 'exec timeout -k 2 20 "$@" > /dev/full' _ "$SYMSPLIT" $mode "$FX/split-protected/app"
        assert_failure 2
        assert_equal "$stderr" "symsplit: stdout: write error: No space left on device"
    done
}

@test "symsplit: contradictory options are refused in one line before any work" {
    bats_require_minimum_version 1.5.0
    a=$FX/timeline/app
    sleep 30 & pid=$!
    for args in "--pid $pid --maps /proc/$pid/maps" "--maps /proc/$pid/maps --pid $pid" "--pid $pid --pid $pid" \
                "--pid $pid $a" "--maps /proc/$pid/maps $a $a" "--pid $pid --trace -- $a" "--maps /proc/$pid/maps --trace -- $a" \
                "$a --trace -- $a" "--json-out $BATS_TEST_TMPDIR/a --json-out $BATS_TEST_TMPDIR/b $a"; do
        run --separate-stderr ss $args
        [ "$status" -eq 2 ] && [ -z "$output" ] && [ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ] ||
            { kill "$pid"; echo "symsplit $args: status $status, stdout '$output', stderr '$stderr'"; false; }
    done
    kill "$pid"
    [ ! -e "$BATS_TEST_TMPDIR/a" ] && [ ! -e "$BATS_TEST_TMPDIR/b" ]   # nothing written
}

@test "symsplit: --maps of a binary or non-maps file is one short line, not its bytes; unreadable is one line" {
    bats_require_minimum_version 1.5.0
    for f in "$FX/timeline/app" /etc/passwd; do
        run --separate-stderr ss --maps "$f"
        assert_failure 2
        assert_equal "$stderr" "symsplit: --maps $f: line 1 is not a /proc/PID/maps line (start-end perms offset dev inode [path])"
    done
    run --separate-stderr ss --maps "$BATS_TEST_TMPDIR"
    assert_failure 2
    assert_equal "$stderr" "symsplit: --maps $BATS_TEST_TMPDIR: is a directory"
}

@test "symsplit --json: a COPY row lists its copies and a LATENT row its promotion as fields, not only in WHY" {
    d=$FX/copies c=$FX/collision
    run ss --json --dlopen "$d/crcxx1.so" --dlopen "$d/crcxx2.so" "$d/app"
    assert_success
    run /usr/bin/python3 -c 'import json, sys
r = [f for f in json.load(sys.stdin)["findings"] if f["verdict"] == "COPY"][0]
print(" ".join(c["module"] + ":" + c["kind"] + ":" + c["variant"] for c in r["copies"]))' <<< "$output"
    assert_output 'crcxx1.so:hidden:libc++ crcxx2.so:hidden:libc++'
    run ss --json --dlopen "$c/colla.so" --dlopen "$c/collb.so" "$c/app"
    run /usr/bin/python3 -c 'import json, sys
print(" ".join(f["promoted"] for f in json.load(sys.stdin)["findings"] if f["verdict"] == "LATENT"))' <<< "$output"
    assert_output 'colla.so'
}
