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

@test "deps: nothing to do for installed packages" {
	run "$TOP/scripts/deps" coreutils
	assert_success
	assert_output ''
}

@test "deps: an alternative the archive does not have gives way to the next one" {
	run "$TOP/scripts/deps" 'no-such-package-xyz|coreutils'
	assert_success
	assert_output ''
}

@test "deps: of two alternatives neither of which exists, the first is named as missing" {
	run setpriv --reuid=nobody --regid=nogroup --clear-groups "$TOP/scripts/deps" 'no-such-package-xyz|no-such-package-abc' coreutils
	assert_failure 3
	assert_output --partial 'missing Debian packages: no-such-package-xyz -- run: sudo apt-get install'
}

@test "normalise: a library's release tag in a symbol name becomes a label, the ABI number stays" {
	run norm '== r: x\n[p -> rxe-lab rdmacore44_0_verbs_register_driver_34@0x1]\n  | rxe-lab symtab: rdmacore56_1_verbs_register_driver_34\n'
	assert_output $'== r: x\n[p -> rxe-lab rdmacore<ver>_verbs_register_driver_34@1]\n  | rxe-lab symtab: rdmacore<ver>_verbs_register_driver_34'
}

@test "evidence: relocation types are counted by suffix, whatever the architecture prefix" {
	# A readelf that lists one module as an aarch64 one would: the own-export
	# count must not depend on R_X86_64_ names.
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	cat > "$BATS_TEST_TMPDIR/bin/readelf" <<'EOS'
#!/bin/sh
cat <<'EOT'
Relocation section '.rela.plt' at offset 0x500 contains 2 entries:
    Offset             Info             Type               Symbol's Value  Symbol's Name + Addend
000000011fe8  000300000402 R_AARCH64_JUMP_SLOT    0000000000000754 vx_get + 0
000000011ff0  000400000401 R_AARCH64_GLOB_DAT     0000000000000760 vx_table + 0
000000011ff8  000500000400 R_AARCH64_COPY         0000000000000770 vx_copy + 0

Symbol table '.dynsym' contains 3 entries:
   Num:    Value          Size Type    Bind   Vis      Ndx Name
     3: 0000000000000754     8 FUNC    GLOBAL DEFAULT   12 vx_get
     4: 0000000000000760     8 OBJECT  GLOBAL DEFAULT   13 vx_table
     5: 0000000000000770     8 OBJECT  GLOBAL DEFAULT   13 vx_copy
EOT
EOS
	chmod +x "$BATS_TEST_TMPDIR/bin/readelf"
	PATH="$BATS_TEST_TMPDIR/bin:$PATH" run "$TOP/scripts/evidence" vx_ /bin/true libfake.so
	assert_line '  | libfake.so: own-export relocations=JUMP_SLOT:1 GLOB_DAT:1'
	assert_line '  | libfake.so: COPY relocations=vx_copy'
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
