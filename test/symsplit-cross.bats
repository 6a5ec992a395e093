#!/usr/bin/env bats
# symsplit on another machine's objects: an aarch64 program read as the
# aarch64 loader under qemu-user -L ROOT reads it (--sysroot ROOT), judged
# against what the program does there and against that loader's own record.
# The aarch64 tests need the cross tools (make deps-cross) and skip by name.
load helpers
load symsplit-setup
BATS_TEST_TIMEOUT=${BATS_TEST_TIMEOUT:-300}

A64_ROOT=/usr/aarch64-linux-gnu
need_a64() {
    command -v aarch64-linux-gnu-gcc > /dev/null || skip "no aarch64-linux-gnu-gcc (Debian: gcc-aarch64-linux-gnu libc6-dev-arm64-cross; make deps-cross)"
    command -v qemu-aarch64-static > /dev/null || skip "no qemu-aarch64-static (Debian: qemu-user-static; make deps-cross)"
    # the cross C library's root, as scripts/toolchain gives it to qemu
    run "$TOP/scripts/toolchain" --run aarch64-linux-gnu-gcc
    A64_ROOT=${output##* -L }
    [ -f "$A64_ROOT/lib/libc.so.6" ] || fail "no cross C library under '$A64_ROOT'"
}
a64() { timeout -k 2 20 qemu-aarch64-static -L "$A64_ROOT" "$@"; }

@test "--sysroot: a relative or missing directory, or with --pid, is one line and exit 2" {
    run --separate-stderr ss --sysroot no/such/dir "$FX/ok-interpose/app"
    assert_failure 2
    [[ $stderr == "symsplit: --sysroot no/such/dir: not an absolute path of a directory"* ]]
    run --separate-stderr ss --sysroot /nonexistent-root "$FX/ok-interpose/app"
    assert_failure 2
    run --separate-stderr ss --sysroot / --pid $$
    assert_failure 2
    [[ $stderr == *"--sysroot reads another machine's files for a model: not with --trace, --pid or --maps"* ]]
    # this machine's program under a root that has none of its files: the same reading
    run ss --sysroot "$BATS_TEST_TMPDIR" "$FX/ok-interpose/app"
    assert_success
}

# tls_case DIR LIBFLAGS...: libtls.so (tls.c, or the alias of tlsalias.c
# when LIBFLAGS name it), libpeer.so and the executable that defines tv too
tls_case() {
    local d=$BATS_TEST_TMPDIR/$1 src=$TOP/tools/symsplit/dev/fixtures; shift
    local r=(-Wl,-rpath,'$ORIGIN' -Wl,--enable-new-dtags -Wl,--no-as-needed)
    mkdir -p "$d"
    aarch64-linux-gnu-gcc -fPIC -O1 "${r[@]}" -shared -Wl,-soname,libtls.so -o "$d/libtls.so" "$@"
    aarch64-linux-gnu-gcc -fPIC -O1 "${r[@]}" -shared -Wl,-soname,libpeer.so -o "$d/libpeer.so" "$src/tlspeer.c" -L"$d" -ltls
    aarch64-linux-gnu-gcc -O1 "${r[@]}" -o "$d/app" "$src/apptls.c" -DAPP_TV -L"$d" -ltls -lpeer
}

@test "aarch64 TLS: SPLIT exactly where the program under qemu prints two addresses of tv (a TLSDESC of symbol 0 is the module's own block)" {
    need_a64
    local src=$TOP/tools/symsplit/dev/fixtures c n splits=0 oks=0
    tls_case gd "$src/tls.c" -ftls-model=global-dynamic
    tls_case ld "$src/tls.c" -ftls-model=local-dynamic      # gcc for aarch64 keeps a TLSDESC naming tv
    tls_case symbolic "$src/tls.c" -Wl,-Bsymbolic
    tls_case alias "$src/tlsalias.c"
    run aarch64-linux-gnu-readelf -rW "$BATS_TEST_TMPDIR/alias/libtls.so"
    assert_line --regexp 'R_AARCH64_TLSDESC +0$'
    for c in gd ld symbolic alias; do
        n=$(a64 "$BATS_TEST_TMPDIR/$c/app" | sed -n 's/^tv@\(0x[0-9a-f]*\) .*/\1/p' | sort -u | wc -l)
        [ "$n" -ge 1 ] || fail "$c: no address of tv printed under qemu"
        run ss --sysroot "$A64_ROOT" "$BATS_TEST_TMPDIR/$c/app"
        if [ "$n" -gt 1 ]; then
            splits=$((splits + 1))
            assert_failure 1
            assert_line --regexp '^SPLIT +[a-z]+ +tv '
        else
            oks=$((oks + 1))
            assert_success
        fi
    done
    [ "$splits" -ge 2 ] && [ "$oks" -ge 1 ] || fail "the cases did not run as built to: $splits split, $oks not"
}

@test "aarch64 bindings: symsplit --bindings --sysroot makes every binding the aarch64 loader makes under qemu (check-bindings --sysroot --emulator)" {
    need_a64
    local b=$BATS_TEST_TMPDIR/b
    make -s -C "$TOP" --no-print-directory matrix ROW="A B D2-copyreloc-symbolic-pie" CC=aarch64-linux-gnu-gcc LD=bfd B="$b" > "$BATS_TEST_TMPDIR/out" 2>&1 ||
        fail "the rows did not build: $(tail -n 3 "$BATS_TEST_TMPDIR/out")"
    run timeout -k 2 240 "$TOP/tools/symsplit/dev/check-bindings" "$SYMSPLIT" "$BATS_TEST_TMPDIR/cb" \
        --sysroot "$A64_ROOT" --emulator qemu-aarch64-static "$b/matrix"
    assert_success
    assert_line --regexp '^bindings: ([1-9][0-9]*)/\1 agree \(100\.00%\)$'
    assert_line --regexp '^objects: ([1-9][0-9]*)/\1 agree in every binding$'
    # aarch64 glibc's first symbol version (x86-64's is GLIBC_2.2.5): the root's libc was read
    run ss --sysroot "$A64_ROOT" --bindings "$b/matrix/B/app"
    assert_line --regexp $'\tprintf\tGLIBC_2\.17\tnormal\tmodelled$'
}

# a64_case DIR SRC... : libapi.so from SRC (libapi.c, ifapi.c: a registry with
# state beside a stateless reg_api the library calls itself) and the
# executable with its own reg_api (appapi.c), as mkfixtures builds ok-stateless-fn
a64_api() {
    local d=$BATS_TEST_TMPDIR/$1 src=$TOP/tools/symsplit/dev/fixtures; shift
    local r=(-Wl,-rpath,'$ORIGIN' -Wl,--enable-new-dtags -Wl,--no-as-needed)
    mkdir -p "$d"
    aarch64-linux-gnu-gcc -fPIC -O1 "${r[@]}" -shared -Wl,-soname,libapi.so -o "$d/libapi.so" "$@"
    aarch64-linux-gnu-gcc -fPIE -pie -O1 "${r[@]}" -o "$d/app" "$src/appapi.c" -L"$d" -lapi
}
# a64_table DIR CFLAGS: split-shared-table (CFLAGS empty) or ok-shared-near
# (-DG_TABLE=other_table), as mkfixtures builds them: app takes tab_put from
# libtab.a, app-one does not; the two print the same unless the table is split
a64_table() {
    local d=$BATS_TEST_TMPDIR/$1 src=$TOP/tools/symsplit/dev/fixtures o; shift
    local r=(-Wl,-rpath,'$ORIGIN' -Wl,--enable-new-dtags -Wl,--no-as-needed)
    mkdir -p "$d"
    for o in shtab shf; do aarch64-linux-gnu-gcc -fPIC -O1 -c -o "$d/$o.o" "$src/$o.c"; done
    aarch64-linux-gnu-gcc -fPIC -O1 "$@" -c -o "$d/shg.o" "$src/shg.c"
    aarch64-linux-gnu-gcc -fPIC -O1 "${r[@]}" -shared -Wl,-soname,libtab.so -o "$d/libtab.so" "$d/shtab.o" "$d/shf.o" "$d/shg.o"
    aarch64-linux-gnu-ar rcs "$d/libtab.a" "$d/shf.o" "$d/shtab.o"
    aarch64-linux-gnu-gcc -fPIE -pie -O1 "${r[@]}" -o "$d/app" "$src/appshared.c" "$d/libtab.a" -L"$d" -ltab
    aarch64-linux-gnu-gcc -fPIE -pie -O1 "${r[@]}" -o "$d/app-one" "$src/appshared.c" -L"$d" -ltab
}

@test "aarch64 disassembly: a captured stateless function or IFUNC is INFO, a table written by one copy and read by another SPLIT, as the programs under qemu show" {
    need_a64
    local src=$TOP/tools/symsplit/dev/fixtures c
    a64_api fn "$src/libapi.c" -Wl,-Bsymbolic-functions
    a64_api ifunc "$src/ifapi.c"
    for c in fn ifunc; do
        a64 "$BATS_TEST_TMPDIR/$c/app" || fail "$c: the program failed under qemu"
        run ss --info --sysroot "$A64_ROOT" "$BATS_TEST_TMPDIR/$c/app"
        assert_success
        assert_line --regexp "^INFO .* reg_api .*reaches no private state \\(per disassembly of the (function|implementations the IFUNC's resolver returns),? and "
    done
    a64_table split
    a64_table near -DG_TABLE=other_table
    for c in split near; do
        if [ "$(a64 "$BATS_TEST_TMPDIR/$c/app")" = "$(a64 "$BATS_TEST_TMPDIR/$c/app-one")" ]; then
            [ $c = near ] || fail "$c: app and app-one print the same under qemu"
            run ss --sysroot "$A64_ROOT" "$BATS_TEST_TMPDIR/$c/app"
            assert_success
        else
            [ $c = split ] || fail "$c: app and app-one differ under qemu"
            run ss --sysroot "$A64_ROOT" "$BATS_TEST_TMPDIR/$c/app"
            assert_failure 1
            assert_line --regexp "^SPLIT .* tab_put .*per disassembly: one writes it, the other reads it"
        fi
    done
    # no note that the machine's code is left unjudged
    refute_line --partial "no disassembly"
}
