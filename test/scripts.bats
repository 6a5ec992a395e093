#!/usr/bin/env bats
# The shared scripts on crafted input: the normaliser labels addresses by
# first appearance per row; the verdict is derived from written vs read.
load helpers

norm() { printf '%b' "$1" | "$TOP/scripts/normalise"; }
verdict() { printf '%b' "$1" | "$TOP/scripts/verdict"; }

@test "normalise: the same address gets the same label, a new one the next label" {
	run norm '== r: x\n[a -> t@0x7f00aa] x\n[b <- t@0x5500bb] y\n[c <- t@0x7f00aa] z\n'
	assert_output $'== r: x\n[a -> t@1] x\n[b <- t@2] y\n[c <- t@1] z'
}

@test "normalise: labels restart in every row" {
	run norm '== r1: x\n[a -> t@0xaaa]\n== r2: y\n[a -> t@0xbbb]\n[b <- t@0xaaa]\n'
	assert_output $'== r1: x\n[a -> t@1]\n== r2: y\n[a -> t@1]\n[b <- t@2]'
}

@test "normalise: case of hex digits does not make two labels; bare 0x values are labelled" {
	run norm '== r: x\n[a -> t@0xAbC] 0xabc\n'
	assert_output $'== r: x\n[a -> t@1] @1'
}

@test "normalise: toolchain lines are dropped, everything else kept" {
	run norm 'toolchain: cc: gcc 12\n== r: x\nplain line\n'
	assert_output $'== r: x\nplain line'
}

@test "verdict: a read of a table that got no write is SPLIT, and the consumer is annotated" {
	run verdict '== r: x\n[w -> t@0x1] n\n[rd <- t@0x2] n\nc: discovered 0 device(s)\n'
	assert_line --index 3 --partial 'DEVICE NOT FOUND -- but the constructor DID register devices, into the OTHER copy'
	assert_line --index 4 'verdict: SPLIT (written t@0x1 != read t@0x2)'
}

@test "verdict: equal addresses are no split" {
	run verdict '== r: x\n[w -> t@0x1] n\n[rd <- t@0x1] n\nc sees 2 device(s)\n'
	assert_line --index 3 --partial '[OK -- reads the copy the registration landed in]'
	assert_line --index 4 'verdict: no split (written t@0x1 == read t@0x1)'
}

@test "verdict: no write line means the constructor never ran" {
	run verdict '== r: x\n[rd <- t@0x1] n\nc: discovered 0 device(s)\n'
	assert_line 'verdict: constructor never ran (no register line)'
}

@test "verdict: a failed run has no verdict, not a made-up one" {
	run verdict '== r: x\n[run failed: exit 127]\n'
	assert_line 'verdict: run failed (exit 127): no verdict'
}

@test "verdict: two registries each read after their own write are no split" {
	run verdict '== r: x\n[a -> A @0x1] n\n[b -> B @0x2] n\n[ra <- A @0x1] n\n[rb <- B @0x2] n\n'
	assert_line 'verdict: no split (every table read was written: @0x1, @0x2)'
}

@test "verdict --facts: one line per row with consumers and their counts" {
	run bash -c "printf '== r1: x\n[w -> t@0x1]\n[rd <- t@0x2]\ncollective: discovered 0 device(s)\nNCCL consumer sees 0 device(s)\n== r2: y\n[w -> t@0x1]\n[rd <- t@0x1]\n' | '$TOP/scripts/verdict' --facts"
	assert_output $'r1 verdict=SPLIT consumers=collective:0,NCCL-consumer:0\nr2 verdict=no-split consumers='
}

@test "verdict: evidence lines stay under their row, after the verdict" {
	run verdict '== r: x\n[w -> t@0x1]\n  | fact\n[rd <- t@0x1]\n'
	assert_output $'== r: x\n[w -> t@0x1]\n[rd <- t@0x1]\nverdict: no split (written t@0x1 == read t@0x1)\n  | fact'
}

@test "verdict: a run the loader refused is loader-error, counted per run" {
	run verdict '== r: x\n$ ./app\napp: ok\n[exit 0]\n$ ../app\n[loader: ../app: error while loading shared libraries: ./lib.so: cannot open shared object file]\n[exit 127]\n'
	assert_line 'verdict: loader-error (the loader refused 1 of 2 run(s): 1 message line(s))'
}

@test "verdict: runs when every run exits 0; exit-nonzero when one fails without a loader line" {
	run bash -c "printf '== a: x\n[exit 0]\n[exit 0]\n== b: y\n[exit 0]\n[exit 3]\n== c: z\n[skipped: no namespace]\n' | '$TOP/scripts/verdict' --facts"
	assert_output $'a verdict=runs consumers=\nb verdict=exit-nonzero consumers=\nc verdict=skipped consumers='
}

@test "verdict: a loader line counts for the run it precedes, not for the next one" {
	run verdict '== r: x\n[loader: v not found]\n[exit 1]\n[exit 0]\n'
	assert_line 'verdict: loader-error (the loader refused 1 of 2 run(s): 1 message line(s))'
	run bash -c "printf '== r: x\n[exit 0]\n' | '$TOP/scripts/verdict' --facts"
	assert_output 'r verdict=runs consumers='
}

@test "deps: nothing to do for installed packages" {
	run "$TOP/scripts/deps" coreutils
	assert_success
	assert_output ''
}

@test "toolchain: a missing compiler is named in one line" {
	run make -s -C "$TOP" matrix CC=no-such-cc-xyz
	assert_failure
	assert_line --index 0 "toolchain: compiler 'no-such-cc-xyz' not found (set CC=, e.g. CC=gcc or CC=clang)"
}

@test "toolchain: an unusable linker is named in one line" {
	run make -s -C "$TOP" matrix LD=no-such-ld
	assert_failure
	assert_line --index 0 --partial "toolchain: linker 'no-such-ld' cannot be used"
}

@test "cc-cache: the same source and flags compile once, whichever linker links" {
	export CC_CACHE_DIR="$BATS_TEST_TMPDIR/objects"
	printf 'int main(void) { return 7; }\n' > "$BATS_TEST_TMPDIR/t.c"
	run "$TOP/scripts/cc-cache" gcc -O1 -fuse-ld=bfd -o "$BATS_TEST_TMPDIR/a" "$BATS_TEST_TMPDIR/t.c"
	assert_success
	run "$TOP/scripts/cc-cache" gcc -O1 -fuse-ld=gold -o "$BATS_TEST_TMPDIR/b" "$BATS_TEST_TMPDIR/t.c"
	assert_success
	assert_equal "$(ls "$CC_CACHE_DIR" | wc -l)" 1
	run "$BATS_TEST_TMPDIR/b"
	assert_equal "$status" 7
	run "$TOP/scripts/cc-cache" gcc -O0 -o "$BATS_TEST_TMPDIR/c" "$BATS_TEST_TMPDIR/t.c"
	assert_equal "$(ls "$CC_CACHE_DIR" | wc -l)" 2          # other flags, other object
}
