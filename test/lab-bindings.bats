#!/usr/bin/env bats
# symsplit --bindings against the loader's record of the lab rows' runs
# (tools/symsplit/dev/lab-bindings; check-bindings' comparison, records of
# processes that ran: dlopens, lazy bindings and dlsym lookups included).
load helpers
load symsplit-setup
BATS_TEST_TIMEOUT=${BATS_TEST_TIMEOUT:-300}

lab_bindings() { timeout -k 2 240 "$TOP/tools/symsplit/dev/lab-bindings" "$@"; }
figures() { sed -nE 's|^bindings: ([0-9]+)/([0-9]+) agree.*|\1 \2|p' "$1/report"; }

# the records: the evidence runs of route-b and scope-capture (up to date: no run)
records() { make -s -C "$TOP" --no-print-directory "$BUILD/runs/route-b.out" "$BUILD/runs/scope-capture.out" > /dev/null; }

@test "lab-bindings: every route-b and scope-capture row's record is compared, each disagreement under a cause, the other labs named as left out" {
    records
    run lab_bindings "$SYMSPLIT" "$BUILD" "$BATS_TEST_TMPDIR/out"
    assert_success
    read -r agreed total < <(figures "$BATS_TEST_TMPDIR/out")
    [ "$total" -gt 1000 ]                 # a check that checked nothing fails
    n=$(awk '/^disagreements by cause/ { on = 1; next } /^objects left out/ { on = 0 } on && /^ +[0-9]+  / { s += $1 } END { print s + 0 }' "$BATS_TEST_TMPDIR/out/report")
    [ "$n" -eq $((total - agreed)) ]
    rows=$(( $(table_rows route-b | wc -w) + $(table_rows scope-capture | wc -w) ))
    [ "$(sed -nE 's|^objects: [0-9]+/([0-9]+) .*|\1|p' "$BATS_TEST_TMPDIR/out/report")" -ge "$rows" ]
    # a lab that keeps no whole record: each of its rows named, with the reason
    grep -q "^matrix:B: the build directory keeps no whole record of the run" "$BATS_TEST_TMPDIR/out/left"
    # the host's dlsym on a plugin's handle is a lookup the model does not make, named so
    assert_line --partial 'as dlsym on its handle makes'
}

# One lab is enough to show the comparison catches a wrong model (--lab):
# scope-capture's rows bind register_driver, the name the wrong model moves.
@test "lab-bindings: a model that binds elsewhere is caught, named and counted" {
    cat > "$BATS_TEST_TMPDIR/wrong" <<EOF
#!/bin/sh
"$SYMSPLIT" "\$@" | awk -F '\t' 'BEGIN { OFS = "\t" } \$1 == "binding" && \$4 == "register_driver" { \$3 = "/nowhere/libother.so" } { print }'
EOF
    chmod +x "$BATS_TEST_TMPDIR/wrong"
    records
    run lab_bindings --lab scope-capture "$BATS_TEST_TMPDIR/wrong" "$BUILD" "$BATS_TEST_TMPDIR/out"
    assert_success
    assert_line --regexp "^ +[0-9]+  another definition: loader [^ ]+, model libother.so$"
    assert_line --regexp "e.g. scope-capture:[^ ]+: [^ ]+ register_driver.* -> loader [^ ]+, model libother.so"
}

@test "lab-bindings: bad usage, a missing symsplit or build directory is one line and exit 2" {
    run lab_bindings
    assert_failure 2
    run lab_bindings --lab matrix "$SYMSPLIT" "$BUILD" "$BATS_TEST_TMPDIR/out"
    assert_failure 2
    assert_output --partial "--lab 'matrix': no loader record kept for it"
    run lab_bindings "$BATS_TEST_TMPDIR/none" "$BUILD" "$BATS_TEST_TMPDIR/out"
    assert_failure 2
    assert_output --partial "no such file"
    run lab_bindings "$SYMSPLIT" "$BATS_TEST_TMPDIR/none" "$BATS_TEST_TMPDIR/out"
    assert_failure 2
    assert_output --partial "no build directory"
}
