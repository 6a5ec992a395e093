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

# archive-order's clause: expected device (compiled in) versus opened device
# (what the code reached at run time says), or the linker's captured refusal.
ao_built() { printf '[%s built against stack=%s] expects logical device 0 = %s\n' "$@"; }
ao_ran()   { printf '[%s ran stack=%s at vx_open_device@0x%s] opened logical device 0 = %s\n' "$@"; }

@test "verdict: a collective that opened another device than it expects is misdirected, named with the stack it ran" {
	run verdict "== r: x\n$(ao_built ca vendor 'nic0')\n$(ao_ran ca vendor 11 'nic0')\n$(ao_built cb bundled 'nic1')\n$(ao_ran cb vendor 11 'nic0')\n"
	assert_line --index 4 --partial '*** MISDIRECTED -- built against stack=bundled, ran stack=vendor'"'"'s code ***'
	assert_line --index 2 --partial '[OK -- opened the device it expects]'
	assert_line --index 5 'verdict: misdirected (cb expects nic1, opened nic0)'
	run bash -c "printf '%s\n' '== r: x' \"\$1\" \"\$2\" | '$TOP/scripts/verdict' --facts" _ "$(ao_built cb bundled nic1)" "$(ao_ran cb vendor 11 nic0)"
	assert_output 'r verdict=misdirected consumers=cb:vendor'
}

@test "verdict: every collective opening the device it expects is no-split, also re-derived from an annotated golden" {
	run bash -c "printf '%s\n' '== r: x' \"\$1\" \"\$2\" | '$TOP/scripts/verdict' | '$TOP/scripts/verdict' --facts" _ "$(ao_built ca vendor nic0)" "$(ao_ran ca vendor 11 nic0)"
	assert_output 'r verdict=no-split consumers='
}

@test "verdict: a failed link whose record names a multiple definition is link-error (bfd, gold and lld wording)" {
	run verdict '== r: x\n[link failed: exit 1] the record:\n[ld] (.text+0x0): multiple definition of `vx_open_device'"'"'; a.o: first defined here\n'
	assert_line 'verdict: link error (the linker refused the link: vx_open_device defined twice)'
	run verdict '== r: x\n[link failed: exit 1]\n[ld] ld.gold: error: b.a(m.o): multiple definition of '"'"'vx_open_device'"'"'\n'
	assert_line 'verdict: link error (the linker refused the link: vx_open_device defined twice)'
	run verdict '== r: x\n[link failed: exit 1]\n[ld] ld.lld: error: duplicate symbol: vx_open_device\n'
	assert_line 'verdict: link error (the linker refused the link: vx_open_device defined twice)'
}

@test "verdict: a failed link on an undefined reference is link-error naming it (bfd and lld wording)" {
	run verdict '== r: x\n[link failed: exit 1]\n[ld] collective.c:(.text+0x2): undefined reference to `vx_abi_bundled'"'"'\n'
	assert_line 'verdict: link error (the linker refused the link: vx_abi_bundled undefined)'
	run verdict '== r: x\n[link failed: exit 1]\n[ld] ld.lld: error: undefined symbol: vx_abi_bundled\n'
	assert_line 'verdict: link error (the linker refused the link: vx_abi_bundled undefined)'
}

@test "verdict: a failed link whose record names no symbol is run-failed, not link-error" {
	run verdict '== r: x\n[link failed: exit 1]\n[ld] ld.bfd: cannot find -lnope\n'
	assert_line 'verdict: link failed (exit 1, the linker names no symbol): no verdict'
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
