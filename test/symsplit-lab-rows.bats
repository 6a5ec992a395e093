#!/usr/bin/env bats
# symsplit on the lab rows under a toolchain column (tools/symsplit/dev/lab-rows)
# and its place in make check-toolchains' table (scripts/toolchain-table): a
# row where symsplit's reading and the derived verdict differ is an
# unexpected cell with its reason, or a listed difference with its own.
load helpers
load symsplit-setup
BATS_TEST_TIMEOUT=${BATS_TEST_TIMEOUT:-300}

lab_rows() { timeout -k 2 240 "$TOP/tools/symsplit/dev/lab-rows" "$@"; }

# one column's facts, written by hand: the table's reading is what is tested
column() {   # DIR FACT...
    mkdir -p "$1/gcc+bfd"; local d=$1; shift
    printf '%s\n' "$@" > "$d/gcc+bfd/facts"
    printf 'matrix:A\tno-split\tx\nmatrix:B\tSPLIT\tx\n' > "$d/expect.tsv"
}

@test "check-toolchains: a row where symsplit disagrees with the derived verdict is an unexpected cell, with symsplit's reading" {
    column "$BATS_TEST_TMPDIR" 'matrix:A verdict=no-split' 'matrix:A symsplit=agrees exit 0' \
        'matrix:B verdict=SPLIT' 'matrix:B symsplit=disagrees SPLIT, symsplit exit 0'
    : > "$BATS_TEST_TMPDIR/none"
    TOOLCHAIN_DIFFERENCES="$BATS_TEST_TMPDIR/none" run "$TOP/scripts/toolchain-table" "$BATS_TEST_TMPDIR/expect.tsv" "$BATS_TEST_TMPDIR" gcc:bfd
    assert_failure 1
    assert_line --regexp '^matrix:B +SPLIT +SPLIT s\*'
    assert_line 'unexpected: matrix:B under gcc:bfd: symsplit disagrees: SPLIT, symsplit exit 0'
    assert_line --regexp '^  gcc:bfd +1/2 rows agree, 0 known difference\(s\), 0 outside the model$'
}

@test "check-toolchains: a symsplit difference listed with its reason is known, and the reason is printed" {
    column "$BATS_TEST_TMPDIR" 'matrix:A verdict=no-split' 'matrix:A symsplit=outside no program' \
        'matrix:B verdict=SPLIT' 'matrix:B symsplit=disagrees SPLIT, symsplit exit 0'
    printf '%s\n' '* | matrix:B | symsplit=disagrees | a made-up reason, for this test only' > "$BATS_TEST_TMPDIR/differences"
    TOOLCHAIN_DIFFERENCES="$BATS_TEST_TMPDIR/differences" run "$TOP/scripts/toolchain-table" "$BATS_TEST_TMPDIR/expect.tsv" "$BATS_TEST_TMPDIR" gcc:bfd
    assert_success
    assert_line --regexp '^matrix:B +SPLIT +SPLIT s\(known\)'
    assert_line '      known: a made-up reason, for this test only'
    assert_line '  outside: gcc:bfd matrix:A -- no program'
    # the list's verdict lines do not excuse symsplit: only a symsplit= fact does
    printf '%s\n' '* | matrix:B | verdict=SPLIT | a made-up reason' > "$BATS_TEST_TMPDIR/differences"
    TOOLCHAIN_DIFFERENCES="$BATS_TEST_TMPDIR/differences" run "$TOP/scripts/toolchain-table" "$BATS_TEST_TMPDIR/expect.tsv" "$BATS_TEST_TMPDIR" gcc:bfd
    assert_failure 1
}

@test "lab-rows: a symsplit that never reports a split disagrees on every SPLIT row of the matrix, and the check fails" {
    lab_output matrix matrix
    facts=$("$TOP/scripts/verdict" --facts < "$(out_file matrix)")
    printf '#!/bin/sh\n"%s" "$@" > /dev/null; exit 0\n' "$SYMSPLIT" > "$BATS_TEST_TMPDIR/never"
    chmod +x "$BATS_TEST_TMPDIR/never"
    run lab_rows "$BATS_TEST_TMPDIR/never" "$BUILD" matrix <<< "$facts"
    assert_failure 1
    [ "$(grep -c ' disagrees: SPLIT, symsplit exit 0' <<< "$output")" -eq "$(grep -c 'verdict=SPLIT' <<< "$facts")" ]
    # the real one agrees on the same rows
    run lab_rows "$SYMSPLIT" "$BUILD" matrix <<< "$facts"
    assert_success
}

@test "lab-rows: bad input is one line and exit 2: an unknown lab, no facts, no symsplit" {
    run lab_rows "$SYMSPLIT" "$BUILD" no-such-lab <<< 'A verdict=SPLIT'
    assert_failure 2
    assert_output "lab-rows: lab 'no-such-lab' has no translation to symsplit's arguments"
    run lab_rows "$SYMSPLIT" "$BUILD" matrix < /dev/null
    assert_failure 2
    assert_output --partial 'no facts for matrix'
    run lab_rows "$BATS_TEST_TMPDIR/none" "$BUILD" matrix <<< 'A verdict=SPLIT'
    assert_failure 2
    assert_output --partial 'no symsplit there'
}

@test "lab-rows: an interrupt of its process group (make stopped) ends it and the symsplit it waits for at once, and leaves nothing" {
    # a stand-in symsplit that hangs: it records its pid and sleeps in it
    d=$BATS_TEST_TMPDIR
    printf '#!/bin/sh\necho $$ > "%s/pid"\nexec sleep 30\n' "$d" > "$d/hang"
    chmod +x "$d/hang"; mkdir "$d/b"
    # lab-rows as a make recipe runs: in a process group that a Ctrl-C
    # reaches whole (setsid: its own, so this test can signal it alone),
    # with SIGINT's default action, as make leaves it to a recipe (a
    # command this shell starts with & would ignore it). Two rows: at once
    # means before the next row's symsplit too.
    env --default-signal=INT setsid "$TOP/tools/symsplit/dev/lab-rows" "$d/hang" "$d/b" matrix <<< $'A verdict=no-split\nB verdict=SPLIT' > /dev/null 2>&1 &
    lr=$!
    for _ in $(seq 100); do [ ! -s "$d/pid" ] || break; sleep 0.1; done
    [ -s "$d/pid" ] || fail "the stand-in symsplit never started"
    kill -INT -- "-$lr"
    # ended within 5 s, not when a bound runs out
    for _ in $(seq 50); do kill -0 "$lr" 2> /dev/null || break; sleep 0.1; done
    ! kill -0 "$lr" 2> /dev/null || fail "lab-rows still runs 5 s after the interrupt"
    ! kill -0 "$(cat "$d/pid")" 2> /dev/null || fail "the symsplit it ran outlived it"
    ! kill -0 -- "-$lr" 2> /dev/null || fail "a process of its group outlived it"
    [ -z "$(ls -A "$d/b")" ] || fail "it left $(ls -A "$d/b")"
}

# alive PID: PID runs (a zombie, dead but not yet reaped by whoever
# inherited it, does not)
alive() { local s; read -r _ _ s _ < "/proc/$1/stat" 2> /dev/null && [ "$s" != Z ]; }

@test "lab-rows: a symsplit that loops is stopped by its CPU-time bound (LAB_ROWS_CPU): the row disagrees with symsplit killed (137), and the run goes on" {
    d=$BATS_TEST_TMPDIR
    printf '#!/bin/sh\necho $$ >> "%s/pids"\nwhile :; do :; done\n' "$d" > "$d/loop"
    chmod +x "$d/loop"; mkdir "$d/b"
    # no bound: the loop outlives the test's own timeout (exit 124)
    LAB_ROWS_CPU=1 run timeout -k 2 60 "$TOP/tools/symsplit/dev/lab-rows" "$d/loop" "$d/b" matrix <<< $'A verdict=no-split\nB verdict=SPLIT'
    assert_failure 1
    assert_line --regexp '^A disagrees: no-split, symsplit exit 137'
    assert_line --regexp '^B disagrees: SPLIT, symsplit exit 137'
    [ "$(wc -l < "$d/pids")" -eq 2 ]
    while read -r p; do ! alive "$p" || fail "the looping symsplit $p outlived lab-rows"; done < "$d/pids"
}

@test "make lab-rows-LAB: a run that hangs is stopped at LAB_ROWS_TIMEOUT: one line, exit 2, no reading taken as a verdict, and its symsplit does not outlive it" {
    d=$BATS_TEST_TMPDIR b=$BATS_TEST_TMPDIR/b
    printf '#!/bin/sh\necho $$ > "%s/pid"\nexec sleep 60\n' "$d" > "$d/hang"
    chmod +x "$d/hang"
    # a build directory of the suite's holding only the lab's facts; -o: they
    # are taken as they are (the lab is not built)
    "$TOP/mk/build-dir" mark "$b" && mkdir "$b/runs"
    echo 'A verdict=no-split' > "$b/runs/matrix.facts"
    SECONDS=0
    run timeout -k 2 60 make -s -C "$TOP" --no-print-directory B="$b" TC_SYMSPLIT="$d/hang" LAB_ROWS_TIMEOUT=2 \
        -o "$b/runs/matrix.facts" lab-rows-matrix
    assert_failure 2
    assert_line 'lab-rows: matrix: stopped after 2 s (LAB_ROWS_TIMEOUT)'
    [ "$SECONDS" -lt 30 ] || fail "stopped after $SECONDS s"
    [ "$(< "$b/runs/matrix.symsplit.rc")" = 2 ]
    [ -s "$d/pid" ] || fail "the stand-in symsplit never started"
    ! alive "$(< "$d/pid")" || fail "the symsplit it ran outlived it"
}

@test "lab-rows: another machine's row (aarch64) is read from the emulator's root (--sysroot): symsplit agrees with the derived verdict" {
    command -v aarch64-linux-gnu-gcc > /dev/null && command -v qemu-aarch64-static > /dev/null ||
        skip "no aarch64 cross compiler and emulator (make deps-cross)"
    b=$BATS_TEST_TMPDIR/b
    make -s -C "$TOP" --no-print-directory matrix ROW="A B" CC=aarch64-linux-gnu-gcc LD=bfd B="$b" > "$BATS_TEST_TMPDIR/out" 2>&1
    facts=$("$TOP/scripts/verdict" --facts < "$BATS_TEST_TMPDIR/out")
    [[ $facts == *"B verdict=SPLIT"* ]] && [[ $facts == *"A verdict=no-split"* ]]
    root=$("$TOP/scripts/toolchain" --make aarch64-linux-gnu-gcc bfd | tr ' ' '\n' | sed -n 's/^tc\.sysroot:=//p')
    run lab_rows --sysroot "$root" "$SYMSPLIT" "$b" matrix <<< "$facts"
    assert_success
    assert_line --regexp '^A agrees: exit 0'
    assert_line --regexp '^B agrees: exit 1: SPLIT '
    run lab_rows --sysroot "$BATS_TEST_TMPDIR/none" "$SYMSPLIT" "$b" matrix <<< "$facts"
    assert_failure 2
    assert_output "lab-rows: --sysroot '$BATS_TEST_TMPDIR/none': no such directory"
}

# matrix D2-copyreloc-symbolic-pie under clang: the executable's own copy of
# the library's functions reaches the library's table through its GOT (no
# COPY relocation), so the -Bsymbolic library's live copy and the
# executable's work on one table: no split, which the run shows. gcc's -fPIC
# code does the same; its -fPIE code makes the COPY, and the split.
@test "symsplit: an executable's copy of library code that reaches the library's data through its GOT shares the library's state: no split; with a COPY of the data it splits" {
    d=$BATS_TEST_TMPDIR
    printf '%s\n' 'int vx_n;' 'int vx_table[8];' 'void vx_reg(int v) { vx_table[vx_n++] = v; }' \
        'int vx_count(void) { return vx_n; }' '__attribute__((constructor)) static void init(void) { vx_reg(1); }' > "$d/lib.c"
    printf '%s\n' 'extern int vx_n;' 'extern int vx_table[];' 'void vx_reg(int v) { vx_table[vx_n++] = v; }' \
        'int vx_count(void) { return vx_n; }' > "$d/copy.c"
    printf '%s\n' 'int vx_count(void);' 'int main(void) { return vx_count() == 1 ? 0 : 1; }' > "$d/main.c"
    # -Bsymbolic: the library's own references bind its own copy, whatever the executable defines
    gcc -O1 -fPIC -shared -Wl,-Bsymbolic -o "$d/libvx.so" "$d/lib.c"
    gcc -O1 -fPIC -c "$d/copy.c" -o "$d/got.o"     # extern data through the GOT
    gcc -O1 -fPIE -c "$d/copy.c" -o "$d/pie.o"     # extern data PC-relative: the linker copies it
    for k in got pie; do
        gcc -O1 -fPIE -pie "$d/main.c" "$d/$k.o" -L"$d" -lvx -Wl,-z,now -Wl,--disable-new-dtags,-rpath,"$d" -o "$d/app-$k"
    done
    # the runs: the executable's count sees the library's registration through the GOT, not through the COPY
    timeout 10 "$d/app-got"
    run timeout 10 "$d/app-pie"
    assert_failure 1
    [ -z "$(readelf -rW "$d/app-got" | grep COPY)" ]
    run ss "$d/app-got"
    assert_success
    refute_line --regexp '^SPLIT '
    run ss --info "$d/app-got"
    assert_line --regexp '^INFO +info +vx_reg .*reached through the GOT, bound to the cells libvx.so.s copy touches'
    run ss "$d/app-pie"
    assert_failure 1
    assert_line --regexp '^SPLIT +med +vx_reg '
    assert_line --regexp '^SPLIT +high +vx_table '
}

# mold names each PLT entry in .symtab (printf$plt, __cxa_finalize$pltgot): a
# local function symbol for a stub, which symsplit read as a hidden copy of
# a definition "bound at link time" and so a live second copy (matrix A and
# B-no-sem-interp, five route-b rows and scope-capture preload under both
# mold columns: false SPLITs).
@test "symsplit: mold's PLT entry symbols (NAME\$plt, NAME\$pltgot) are no copies: matrix A linked by mold agrees with its run" {
    command -v mold > /dev/null || skip "mold is not installed"
    b=$BATS_TEST_TMPDIR/b
    make -s -C "$TOP" --no-print-directory matrix ROW=A CC=gcc LD=mold B="$b" > "$BATS_TEST_TMPDIR/out" 2>&1
    nm "$b/matrix/A/libverbs_shared.so" | grep -q '\$plt$'        # the symbols are there
    facts=$("$TOP/scripts/verdict" --facts < "$BATS_TEST_TMPDIR/out")
    [[ $facts == "A verdict=no-split"* ]]
    run lab_rows "$SYMSPLIT" "$b" matrix <<< "$facts"
    assert_success
    assert_output 'A agrees: exit 0'
}

# mk/toolchain-symsplit.mk: a lab's reading is a make target beside its run,
# which makes of one run (a test and a toolchain column side by side) ask for
@test "make lab-rows-LAB: a make that finds the reading current remakes nothing; two that find it stale make it side by side, both succeed, and leave it whole" {
    lm() { make -s -C "$TOP" --no-print-directory "$@" lab-rows-matrix; }
    r=$B/runs/matrix.symsplit
    run lm
    assert_success
    first=$output
    touch "$BATS_TEST_TMPDIR/before"; sleep 1
    run lm
    assert_success
    [ "$output" = "$first" ]
    [ ! "$r" -nt "$BATS_TEST_TMPDIR/before" ] || fail "a make that found $r current made it again"
    # both take its facts as just made (-W: nothing is touched), as makes of
    # one run share its build directory's lock (make test's children do)
    export SPLIT_STATE_LAB_LOCK=${SPLIT_STATE_LAB_LOCK:-$(cd "$BUILD" && pwd -P)}
    for i in 1 2; do lm -W "$B/runs/matrix.facts" > "$BATS_TEST_TMPDIR/out.$i" 2> "$BATS_TEST_TMPDIR/err.$i" & eval "p$i=\$!"; done
    wait "$p1" || fail "the first make failed: $(< "$BATS_TEST_TMPDIR/err.1")"
    wait "$p2" || fail "the second make failed: $(< "$BATS_TEST_TMPDIR/err.2")"
    [ "$r" -nt "$BATS_TEST_TMPDIR/before" ] || fail "neither make made $r again"
    for f in "$BATS_TEST_TMPDIR/out.1" "$BATS_TEST_TMPDIR/out.2" "$r"; do
        [ "$(< "$f")" = "$first" ] || fail "$f is not the reading: $(diff <(echo "$first") "$f")"
    done
    # no make's own file left behind
    run find "${r%/*}" -name "matrix.symsplit.*[0-9]*" -o -name "matrix.facts.*"
    assert_output ''
}
