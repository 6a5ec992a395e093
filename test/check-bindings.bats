#!/usr/bin/env bats
# symsplit --bindings against the loader itself (tools/symsplit/dev/check-bindings):
# a handful of system programs and the fixtures, each run by ld.so in trace
# mode (no program code), every binding it logs set beside the model's. The
# whole system is make check-bindings (docs/check-bindings.md).
load helpers
load symsplit-setup
BATS_TEST_TIMEOUT=${BATS_TEST_TIMEOUT:-300}

check() { timeout -k 2 240 "$TOP/tools/symsplit/dev/check-bindings" "$@"; }
# agreed TOTAL of a report's "bindings: A/T agree" line, as "A T"
figures() { sed -nE 's|^bindings: ([0-9]+)/([0-9]+) agree.*|\1 \2|p' "$1/report"; }

@test "check-bindings: system programs and the fixtures, every binding the loader logs is the model's, or named with its cause" {
    local bins=() b
    for b in /usr/bin/ls /usr/bin/bash /usr/bin/perl /usr/bin/python3 /usr/bin/gdb /usr/bin/make; do
        [ -e "$b" ] && bins+=("$b")
    done
    run check "$SYMSPLIT" "$BATS_TEST_TMPDIR/out" "${bins[@]}" "$FX/ok-copyreloc" "$FX/split-protected" "$FX/preload"
    assert_success
    read -r agreed total < <(figures "$BATS_TEST_TMPDIR/out")
    [ "$total" -gt 1000 ]      # a check that checked nothing fails
    # 100%, or each disagreement counted under a named cause
    if [ "$agreed" -ne "$total" ]; then
        n=$(awk '/^disagreements by cause/ { on = 1; next } on && /^ +[0-9]+  / { s += $1 } END { print s + 0 }' "$BATS_TEST_TMPDIR/out/report")
        [ "$n" -eq $((total - agreed)) ] || fail "$((total - agreed)) disagreements, $n named: $(cat "$BATS_TEST_TMPDIR/out/report")"
    fi
    # the copy relocation and the protected self-reference are among them
    run "$SYMSPLIT" --bindings "$FX/ok-copyreloc/app"
    assert_line --regexp "^binding	.*/app	.*/libdata.so	reg_n	-	copy	modelled$"
    assert_line --regexp "^binding	.*/libdata.so	.*/app	reg_n	-	normal	modelled$"
}

@test "check-bindings: a model that binds elsewhere is caught, named and counted" {
    # symsplit with libc's bindings moved to another module: the check must fail them
    cat > "$BATS_TEST_TMPDIR/wrong" <<EOF
#!/bin/sh
"$SYMSPLIT" "\$@" | awk -F '\t' 'BEGIN { OFS = "\t" } \$1 == "binding" && \$4 == "malloc" { \$3 = "/nowhere/libother.so" } { print }'
EOF
    chmod +x "$BATS_TEST_TMPDIR/wrong"
    run check "$BATS_TEST_TMPDIR/wrong" "$BATS_TEST_TMPDIR/out" /usr/bin/ls
    assert_success
    read -r agreed total < <(figures "$BATS_TEST_TMPDIR/out")
    [ "$agreed" -lt "$total" ]
    assert_line --regexp "^ +[0-9]+  another definition: loader libc.so.6, model libother.so$"
    assert_line --regexp "e.g. ls: .* malloc@GLIBC_2.2.5 -> loader libc.so.6, model libother.so"
    assert_line "objects: 0/1 agree in every binding"
}

@test "check-bindings: a second run with nothing changed is the cached report" {
    check "$SYMSPLIT" "$BATS_TEST_TMPDIR/out" /usr/bin/ls > /dev/null 2>&1
    run check "$SYMSPLIT" "$BATS_TEST_TMPDIR/out" /usr/bin/ls
    assert_success
    assert_line --partial "nothing changed since the last run"
    assert_line --regexp "^bindings: [0-9]+/[0-9]+ agree"
}

@test "check-bindings: bad usage and a missing symsplit are one line and exit 2" {
    run check
    assert_failure 2
    run check "$BATS_TEST_TMPDIR/none" "$BATS_TEST_TMPDIR/out"
    assert_failure 2
    assert_output --partial "no such file"
}

@test "check-bindings: every object left out is named with its reason, a statically linked program and a hard link alike" {
    file -L /usr/sbin/ldconfig | grep -q 'static' || skip "/usr/sbin/ldconfig is not statically linked here"
    mkdir "$BATS_TEST_TMPDIR/in"
    cp /usr/bin/true "$BATS_TEST_TMPDIR/in/a"
    ln "$BATS_TEST_TMPDIR/in/a" "$BATS_TEST_TMPDIR/in/b"   # one file, two names
    run check "$SYMSPLIT" "$BATS_TEST_TMPDIR/out" /usr/sbin/ldconfig "$BATS_TEST_TMPDIR/in"
    assert_success
    assert_line "objects: 1/1 agree in every binding"
    assert_line "objects left out: 2"
    run cat "$BATS_TEST_TMPDIR/out/left"
    assert_line "/usr/sbin/ldconfig: statically linked"
    assert_line --regexp "^$BATS_TEST_TMPDIR/in/b: a hard link, one file compared once: the same as $BATS_TEST_TMPDIR/in/a$"
}
