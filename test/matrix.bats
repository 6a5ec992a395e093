#!/usr/bin/env bats
# matrix/: each test states one fact about one row, read from the run-time
# output or from the binaries themselves.
load helpers

setup_file() {
	load helpers
	lab_outputs matrix matrix
}

M() { out_file matrix; }
E() { out_file matrix-evidence; }
rowdir() { echo "$TOP/build/matrix/$1"; }

@test "golden: normalised make matrix equals expected/matrix.txt" {
	run golden_diff "$(M)" "$TOP/expected/matrix.txt"
	assert_success
}

@test "golden: a golden with one row edited is caught" {
	edited="$BATS_TEST_TMPDIR/matrix.txt"
	sed 's/^collective: discovered 0 device(s)/collective: discovered 2 device(s)/' "$TOP/expected/matrix.txt" > "$edited"
	run cmp -s "$edited" "$TOP/expected/matrix.txt"
	assert_failure                           # the edit changed something
	run golden_diff "$(M)" "$edited"
	assert_failure
	assert_output --partial '-collective: discovered 2 device(s)'
}

@test "toolchain lines head the run: compiler, linker, libc, driver defaults" {
	run head -n 4 "$(M)"
	assert_line --index 0 --regexp '^toolchain: cc: '
	assert_line --index 1 --regexp '^toolchain: ld: '
	assert_line --index 2 --regexp '^toolchain: libc: '
	assert_line --index 3 --regexp '^toolchain: driver defaults: pie=(yes|no) as-needed=(yes|no) z-now=(yes|no) new-dtags=(yes|no)$'
}

@test "every row the issue names is there, in order" {
	run grep -oE '^== [^:]+' "$(M)"
	assert_output "$(printf '== %s\n' A B C C-hidden C-hidden-forced D1 D2 D2-copyreloc D2-copyreloc-symbolic with-static without-static)"
}

@test "SPLIT rows: the table written and the table read are two different addresses" {
	for r in B C C-hidden-forced D1 D2-copyreloc-symbolic with-static; do
		w=$(written_addrs "$(M)" "$r"); rd=$(read_addrs "$(M)" "$r")
		[ "$(echo "$w" | wc -l)" -eq 1 ] && [ -n "$w" ] || fail "$r: expected one written table, got '$w'"
		[ -n "$rd" ] || fail "$r: no read line"
		echo "$rd" | grep -qxF -- "$w" && fail "$r: a reader read the written table $w"
		assert_equal "$(fact "$(M)" "$r" verdict)" SPLIT
	done
}

@test "no-split rows: every read is of the one table written" {
	for r in A D2 D2-copyreloc without-static; do
		w=$(written_addrs "$(M)" "$r"); rd=$(read_addrs "$(M)" "$r")
		[ -n "$w" ] || fail "$r: no write line"
		assert_equal "$rd" "$w"
		assert_equal "$(fact "$(M)" "$r" verdict)" no-split
	done
}

@test "copy identity: B writes copy SHARED and reads copy STATIC; A writes copy STATIC" {
	row "$(M)" B | grep -q '^\[register -> copy=SHARED ' || fail "B: register not in SHARED"
	row "$(M)" B | grep -q '^\[get_list <- copy=STATIC ' || fail "B: get_list not in STATIC"
	row "$(M)" A | grep -q '^\[register -> copy=STATIC ' || fail "A: register not interposed onto STATIC"
}

@test "C-hidden: no constructor line, the .so was dropped from NEEDED" {
	run row "$(M)" C-hidden
	refute_line --partial '[constructor in copy='
	run readelf -dW "$(rowdir C-hidden)/app"
	refute_output --partial 'libverbs_shared.so'
}

@test "C-hidden-forced: the constructor runs, the .so is in NEEDED" {
	run row "$(M)" C-hidden-forced
	assert_line --partial '[constructor in copy=SHARED]'
	run readelf -dW "$(rowdir C-hidden-forced)/app"
	assert_output --partial '(NEEDED)             Shared library: [libverbs_shared.so]'
}

@test "with-static finds 0 devices, without-static 2, from byte-identical sources" {
	assert_equal "$(count "$(M)" with-static collective)" 0
	assert_equal "$(count "$(M)" without-static collective)" 2
	nm "$(rowdir with-static)/app" | grep -q ' T vx_get_device_list$' || fail "with-static: no archive copy in app"
	nm "$(rowdir without-static)/app" | grep -q ' T vx_get_device_list$' && fail "without-static: archive copy in app"
	true
}

@test "D2: the .so reaches the table through GLOB_DAT and the exe has no COPY" {
	run readelf -rW "$(rowdir D2)/libverbs_shared.so"
	assert_output --regexp 'R_[A-Z0-9_]+_GLOB_DAT +[0-9a-f]+ vx_table'
	# The same pattern finds the COPY in D2-copyreloc (below), on any target.
	run readelf -rW "$(rowdir D2)/app"
	refute_output --regexp 'R_[A-Z0-9_]+_COPY '
}

@test "evidence D2-copyreloc: the COPY relocation and the .so's GLOB_DAT bound to the exe" {
	run row "$(E)" D2-copyreloc
	assert_line '  | app: COPY relocations=vx_table'
	assert_line --partial "LD_DEBUG: binding file libverbs_shared.so [0] to app [0]: normal symbol \`vx_table'"
}

@test "D2-copyreloc: the executable carries a COPY relocation for the table" {
	run readelf -rW "$(rowdir D2-copyreloc)/app"
	assert_output --regexp 'R_[A-Z0-9_]+_COPY +[0-9a-f]+ vx_table'
}

@test "D2-copyreloc-symbolic: COPY in the exe, but the .so keeps no GLOB_DAT for its table" {
	run readelf -rW "$(rowdir D2-copyreloc-symbolic)/app"
	assert_output --regexp 'R_[A-Z0-9_]+_COPY +[0-9a-f]+ vx_table'
	run readelf -rW "$(rowdir D2-copyreloc-symbolic)/libverbs_shared.so"
	refute_output --partial 'vx_table'
	run readelf -dW "$(rowdir D2-copyreloc-symbolic)/libverbs_shared.so"
	assert_output --partial '(SYMBOLIC)'
}

@test "evidence A: the constructor's vx_register_device binds to the executable" {
	run row "$(E)" A
	assert_line --partial "LD_DEBUG: binding file libverbs_shared.so [0] to app [0]: normal symbol \`vx_register_device'"
	assert_line --regexp 'libverbs_shared.so: own-export relocations=JUMP_SLOT:[1-9]'
}

@test "evidence B: no binding line for vx_register_device, no JUMP_SLOT to own exports" {
	run row "$(E)" B
	refute_line --partial "normal symbol \`vx_register_device'"
	assert_line --partial 'libverbs_shared.so: own-export relocations=JUMP_SLOT:0 GLOB_DAT:0'
	assert_line --partial "LD_DEBUG: binding file libcollective.so [0] to app [0]: normal symbol \`vx_get_device_list'"
}

@test "evidence C: the .so's vx_ functions are PROTECTED in .dynsym" {
	run row "$(E)" C
	assert_line --partial 'libverbs_shared.so: .dynsym vx_=vx_get_device_list:PROTECTED vx_register_device:PROTECTED'
}

@test "make matrix CONFIG=B runs one row" {
	run make -s -C "$TOP" matrix CONFIG=B
	assert_success
	assert_equal "$(grep -c '^== ' <<< "$output")" 1
	assert_line --partial 'verdict: SPLIT'
}

@test "make matrix CONFIG=Z: unknown config, one line, exit 2" {
	run make -s -C "$TOP" matrix CONFIG=Z
	assert_equal "$status" 2
	assert_line --index 0 --regexp "^unknown config 'Z' \\(known: A B C .* without-static\\)$"
}
