#!/usr/bin/env bats
# symsplit: the shape of the code (tools/symsplit/dev/layers).
# Ground truth comes from running the fixtures and the labs (scripts/verdict
# --facts), never from a copied list; every program a test starts runs under
# timeout (a hang is a failure, 124). Shared setup: symsplit-setup.bash.
load helpers
load symsplit-setup
BATS_TEST_TIMEOUT=${BATS_TEST_TIMEOUT:-120}

@test "symsplit's files call only their own layer and the layers before it, in no circle (tools/symsplit/dev/layers)" {
    local o=$BUILD/tools/symsplit
    run --separate-stderr "$TOP/tools/symsplit/dev/layers" --sources "$TOP/tools/symsplit" "$o"/obj/*/*.o $(ls "$o"/san/run/fuzz.o 2> /dev/null)
    assert_success
    refute_output
}

@test "tools/symsplit/dev/layers fails on a call from an earlier layer to a later one, and on a circle within a layer" {
    local t=$BATS_TEST_TMPDIR
    mkdir -p "$t/up/base" "$t/up/report" "$t/circle/read"
    printf 'void report_row(void);\nvoid xcalloc(void) { report_row(); }\n' > "$t/up/base/util.c"
    printf 'void report_row(void) {}\n' > "$t/up/report/report.c"
    printf 'void module_name(void);\nvoid parse_versions(void) { module_name(); }\n' > "$t/circle/read/version.c"
    printf 'void parse_versions(void);\nvoid module_name(void) { parse_versions(); }\n' > "$t/circle/read/elf_module.c"
    for c in "$t"/up/*/*.c "$t"/circle/*/*.c; do cc -c "$c" -o "${c%.c}.o"; done
    run "$TOP/tools/symsplit/dev/layers" "$t"/up/*/*.o
    assert_failure 1
    assert_output 'upward: base/util.c [base] -> report/report.c [report]: report_row'
    run "$TOP/tools/symsplit/dev/layers" "$t"/circle/*/*.o
    assert_failure 1
    assert_output 'cycle: read/elf_module.c <-> read/version.c'
}

@test "tools/symsplit/dev/layers: a source outside the layer folders, or including a later layer's header, fails" {
    local t=$BATS_TEST_TMPDIR/src
    mkdir -p "$t/read" "$t/report" "$t/dev" "$t/stray"
    printf '#include "report/report.h"\nvoid parse_versions(void) {}\n' > "$t/read/version.c"
    printf 'int x;\n' > "$t/stray/loose.c"
    printf 'int y;\n' > "$t/dev/tool.c"
    printf 'void parse_versions(void) {}\n' | cc -x c -c - -o "$t/read/version.o"
    run "$TOP/tools/symsplit/dev/layers" --sources "$t" "$t/read/version.o"
    assert_failure 1
    assert_line 'upward include: read/version.c [read] includes report/report.h [report]'
    assert_line --partial 'no layer: stray/loose.c'
    refute_line --partial 'dev/tool.c'
}

@test "symsplit: the reference's Shape of the code describes every layer folder, in the order tools/symsplit/dev/layers checks" {
    run "$TOP/tools/symsplit/dev/layers" --table
    assert_success
    [ "${#lines[@]}" -ge 5 ]
    local l want got
    for l in "${lines[@]}"; do
        l=${l#| }; l=${l%% |*}
        [ -d "$TOP/tools/symsplit/$l" ] || { echo "no folder tools/symsplit/$l"; false; }
        want+="$l "
    done
    got=$(sed -n '/^## Shape of the code/,/^## /s/^| \([a-z]*\) | .*/\1/p' "$TOP/docs/symsplit-reference.md" | grep -vx layer | tr '\n' ' ')
    [ "$got" = "$want" ] || { echo "reference: $got; folders: $want"; false; }
}
