#!/usr/bin/env bats
# make check-glibc-elf's table and comparison (tools/symsplit/dev/check-glibc-elf)
# on a fixture source tree of two small programs in glibc's elf/ layout: no
# download, no glibc source. The real run (Debian's glibc source package,
# glibc's own elf/ tests) is make check-glibc-elf (docs/check-glibc-elf.md).
load helpers
load symsplit-setup
BATS_TEST_TIMEOUT=${BATS_TEST_TIMEOUT:-120}

check() { timeout -k 2 100 "$TOP/tools/symsplit/dev/check-glibc-elf" "$@"; }

setup() {
    src=$BATS_TEST_TMPDIR/src
    mkdir -p "$src/elf"
    # a library the program needs, and one it opens and looks a name up in
    cat > "$src/elf/fx-needed.c" <<'C'
int fx_needed(void) { return 1; }
C
    cat > "$src/elf/fx-opened.c" <<'C'
#include <stdio.h>
int fx_opened(void) { return puts("opened") > 0; }
C
    cat > "$src/elf/fx-main.c" <<'C'
#include <support/xdlfcn.h>
extern int fx_needed(void);
static int do_test(void)
{
    void *h = xdlopen("fx-opened.so", RTLD_NOW);
    int (*f)(void) = xdlsym(h, "fx_opened");
    return !(fx_needed() && f());
}
#include <support/test-driver.c>
C
    cat > "$BATS_TEST_TMPDIR/programs" <<'T'
# program | rule | objects | run | model
fx-main | dlopen, needed | fx-needed.so: fx-needed.c; fx-opened.so: fx-opened.c; fx-main: fx-main.c fx-needed.so | | --dlopen @/fx-opened.so:now dlsym=fx_opened
fx-broken | a source that does not compile | fx-broken: fx-missing.c | |
cannot fx-internal | loader internals | includes <ldsodefs.h>
T
}
# a table row's "agreed/total" as "A T"
figures() { awk -v p="$2" '$1 == p { for (i = 2; i <= NF; i++) if ($i ~ /^[0-9]+\/[0-9]+$/) { split($i, a, "/"); print a[1], a[2]; exit } }' "$1/table"; }

@test "check-glibc-elf: a built program's bindings are counted, each disagreement listed with its cause" {
    run check "$SYMSPLIT" "$BATS_TEST_TMPDIR/out" --source "$src" --programs "$BATS_TEST_TMPDIR/programs"
    assert_success
    read -r agreed total < <(figures "$BATS_TEST_TMPDIR/out" fx-main)
    [ "$total" -gt 20 ]   # libc's bindings at least: a check that checked nothing fails
    # every binding the opened module makes is compared, the dlsym call apart
    assert_line --regexp "^fx-main .* exit 0; apart: .*1 dlsym calls"
    # one listed disagreement for each binding not agreed
    n=$(grep -c "^  fx-main: " "$BATS_TEST_TMPDIR/out/table" || :)
    [ "$n" -eq $((total - agreed)) ] || fail "$((total - agreed)) disagreements, $n listed"
    # a run: the loader relocates itself last, its own slots included
    # (--bindings=run models them); nothing here disagrees
    refute_line --partial "the loader relocates itself"
    [ "$agreed" -eq "$total" ] || fail "$agreed/$total agree"
    # the programs that were not built, each with why
    assert_line --regexp "^  fx-broken +a source that does not compile +cannot build: .*fx-missing.c"
    assert_line --regexp "^  fx-internal +loader internals +includes <ldsodefs.h>$"
}

@test "check-glibc-elf: a model that binds elsewhere is caught and named" {
    cat > "$BATS_TEST_TMPDIR/wrong" <<EOF
#!/bin/sh
"$SYMSPLIT" "\$@" | awk -F '\t' 'BEGIN { OFS = "\t" } \$1 == "binding" && \$4 == "fx_needed" { \$3 = "/nowhere/libother.so" } { print }'
EOF
    chmod +x "$BATS_TEST_TMPDIR/wrong"
    run check "$BATS_TEST_TMPDIR/wrong" "$BATS_TEST_TMPDIR/out" --source "$src" --programs "$BATS_TEST_TMPDIR/programs" fx-main
    assert_success
    assert_line --regexp "^  fx-main: fx-main fx_needed: loader fx-needed.so, model libother.so$"
    assert_line "      another definition: loader fx-needed.so, model libother.so"
}

@test "check-glibc-elf: a second run with nothing changed is the cached table; bad usage is one line" {
    check "$SYMSPLIT" "$BATS_TEST_TMPDIR/out" --source "$src" --programs "$BATS_TEST_TMPDIR/programs" fx-main > /dev/null 2>&1
    run check "$SYMSPLIT" "$BATS_TEST_TMPDIR/out" --source "$src" --programs "$BATS_TEST_TMPDIR/programs" fx-main
    assert_success
    assert_line --partial "nothing changed since the last run"
    run check "$SYMSPLIT" "$BATS_TEST_TMPDIR/out" --source "$BATS_TEST_TMPDIR" --programs "$BATS_TEST_TMPDIR/programs"
    assert_failure 2
    assert_output --partial "no elf/ directory"
    run check "$SYMSPLIT" "$BATS_TEST_TMPDIR/out" --source "$src" --programs "$BATS_TEST_TMPDIR/programs" no-such-program
    assert_failure 2
    assert_output --partial "no program of"
}

@test "check-glibc-elf: a row run lazily (LD_BIND_NOW= ) compares the lookups the run made; a slot never called is counted apart, not a disagreement" {
    cat > "$src/elf/fx-lazy.c" <<'C'
#include <stdlib.h>
extern int fx_needed(void);
static int do_test(void)
{
    if (!fx_needed()) abort();   /* never called: its lazy slot stays unbound */
    return 0;
}
#include <support/test-driver.c>
C
    echo "fx-lazy | lazy run | fx-needed.so: fx-needed.c; fx-lazy: fx-lazy.c fx-needed.so -Wl,-z,lazy | LD_BIND_NOW= |" >> "$BATS_TEST_TMPDIR/programs"
    run check "$SYMSPLIT" "$BATS_TEST_TMPDIR/out" --source "$src" --programs "$BATS_TEST_TMPDIR/programs" fx-lazy
    assert_success
    assert_line --regexp "^fx-lazy .* lazy run: [0-9]+ modelled lookups never made"
    refute_line --regexp "^  fx-lazy: fx-lazy abort@"
}

@test "check-glibc-elf: an open the loader refuses makes no binding on either side; an open that fails by what ran before is counted as cannot know, listed apart" {
    cat > "$src/elf/fx-undef.c" <<'C'
extern int fx_nowhere;
int *fx_undef(void) { return &fx_nowhere; }
C
    cat > "$src/elf/fx-block.c" <<'C'
__thread int fx_tv;
C
    cat > "$src/elf/fx-ie.c" <<'C'
extern __thread int fx_tv __attribute__((tls_model("initial-exec")));
int *fx_ie(void) { return &fx_tv; }
C
    cat > "$src/elf/fx-opens.c" <<'C'
#include <dlfcn.h>
static int do_test(void)
{
    if (dlopen("fx-undef.so", RTLD_NOW)) return 1;   /* refused: fx_nowhere */
    void *h = dlopen("fx-block.so", RTLD_LAZY | RTLD_GLOBAL);
    if (!h || !dlsym(h, "fx_tv")) return 1;   /* the block used dynamically */
    return dlopen("fx-ie.so", RTLD_NOW | RTLD_GLOBAL) != 0;   /* so refused too */
}
#include <support/test-driver.c>
C
    echo "fx-opens | refused opens | fx-undef.so: fx-undef.c; fx-block.so: fx-block.c; fx-ie.so: fx-ie.c; fx-opens: fx-opens.c | | --dlopen @/fx-undef.so:now --dlopen @/fx-block.so:lazy:global --dlopen @/fx-ie.so:now:global dlsym=fx_tv" >> "$BATS_TEST_TMPDIR/programs"
    run check "$SYMSPLIT" "$BATS_TEST_TMPDIR/out" --source "$src" --programs "$BATS_TEST_TMPDIR/programs" fx-opens
    assert_success
    # the test's own verdict: both opens refused
    assert_line --regexp "^fx-opens .* exit 0; .*cannot know from the files: [0-9]+; symsplit: note: dlopen fx-undef.so fails: fx-undef.so refers to fx_nowhere"
    refute_line --regexp "^  fx-opens: fx-undef.so "
    refute_line --regexp "^ +[0-9]+ +1  (modelled, not made|no lookup modelled: the model knows)"   # no disagreement of either open
    assert_line --regexp "^cannot know from the files: [0-9]+ bindings"
    assert_line --regexp "^  fx-opens: fx-ie.so fx_tv: loader fx-block.so, model fx-block.so$"
    assert_line --regexp "^      the open may fail, depending on the run: initial-exec TLS fx_tv needs a static TLS offset in the block of fx-block.so, which an earlier dlopen loaded$"
}
