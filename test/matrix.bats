#!/usr/bin/env bats
# matrix/: each test states one fact about one row, read from the run-time
# output or from the binaries themselves.
LAB=matrix
load helpers

setup_file() {
	load helpers
	lab_setup_file
}

M=$RUN_OUT E=$EVIDENCE_OUT

@test "golden: normalised make matrix equals expected/matrix.txt" {
	run golden_diff "$M" "$TOP/expected/matrix.txt"
	assert_success
}

@test "golden: a golden with one row edited is caught" {
	edited="$BATS_TEST_TMPDIR/matrix.txt"
	sed 's/^collective: discovered 0 device(s)/collective: discovered 2 device(s)/' "$TOP/expected/matrix.txt" > "$edited"
	run cmp -s "$edited" "$TOP/expected/matrix.txt"
	assert_failure                           # the edit changed something
	run golden_diff "$M" "$edited"
	assert_failure
	assert_output --partial '-collective: discovered 2 device(s)'
}

@test "toolchain lines head the run: compiler, linker, libc, driver defaults" {
	run head -n 4 "$M"
	assert_line --index 0 --regexp '^toolchain: cc: '
	assert_line --index 1 --regexp '^toolchain: ld: '
	assert_line --index 2 --regexp '^toolchain: libc: '
	assert_line --index 3 --regexp '^toolchain: driver defaults: pie=(yes|no) as-needed=(yes|no) z-now=(yes|no) new-dtags=(yes|no)$'
}

@test "every row of matrix/rows is run, in table order" {
	run grep -oE '^== [^:]+' "$M"
	assert_output "$(printf '== %s\n' $(table_rows matrix))"
}

@test "SPLIT rows: some table read is an address that no write went to" {
	rows=$(rows_expecting matrix SPLIT)
	[ -n "$rows" ] || fail "matrix/rows expects no SPLIT row"
	for r in $rows; do
		w=$(written_addrs "$M" "$r"); rd=$(read_addrs "$M" "$r")
		[ -n "$w" ] || fail "$r: no write line"
		[ -n "$rd" ] || fail "$r: no read line"
		[ -n "$(comm -13 <(echo "$w") <(echo "$rd"))" ] || fail "$r: every read address ($rd) was written ($w)"
		assert_equal "$(fact "$M" "$r" verdict)" SPLIT
	done
}

@test "no-split rows: every read is of the one table written" {
	rows=$(rows_expecting matrix no-split)
	[ -n "$rows" ] || fail "matrix/rows expects no no-split row"
	for r in $rows; do
		w=$(written_addrs "$M" "$r"); rd=$(read_addrs "$M" "$r")
		[ -n "$w" ] || fail "$r: no write line"
		assert_equal "$rd" "$w"
		assert_equal "$(fact "$M" "$r" verdict)" no-split
	done
}

@test "link-error rows: no program; the linker's own line names the table the executable cannot reach without a COPY" {
	rows=$(rows_expecting matrix link-error)
	[ -n "$rows" ] || fail "matrix/rows expects no link-error row"
	for r in $rows; do
		[ ! -e "$BUILD/matrix/$r/app" ] || fail "$r: an app was linked"
		row "$M" "$r" | grep -qE '^\[ld\] .*(relocation|symbol).*vx_table' || fail "$r: no linker line names vx_table"
		assert_equal "$r $(fact "$M" "$r" verdict)" "$r link-error"
	done
}

@test "copy identity: B writes copy SHARED and reads copy STATIC; A writes copy STATIC" {
	row "$M" B | grep -q '^\[register -> copy=SHARED ' || fail "B: register not in SHARED"
	row "$M" B | grep -q '^\[get_list <- copy=STATIC ' || fail "B: get_list not in STATIC"
	row "$M" A | grep -q '^\[register -> copy=STATIC ' || fail "A: register not interposed onto STATIC"
}

@test "C-hidden: no constructor line, the .so was dropped from NEEDED" {
	run row "$M" C-hidden
	refute_line --partial '[constructor in copy='
	run elf_facts "$(rowdir C-hidden)/app"
	refute_line 'dyn NEEDED libverbs_shared.so'
}

@test "C-hidden-forced: the constructor runs, the .so is in NEEDED" {
	run row "$M" C-hidden-forced
	assert_line --partial '[constructor in copy=SHARED]'
	run elf_facts "$(rowdir C-hidden-forced)/app"
	assert_line 'dyn NEEDED libverbs_shared.so'
}

@test "with-static and without-static: byte-identical sources, the archive alone changes what the collective finds" {
	[ "$(count "$M" with-static collective)" != "$(count "$M" without-static collective)" ] || fail "same count with and without the archive"
	cmp -s "$(rowdir with-static)/libverbs_shared.so" "$(rowdir without-static)/libverbs_shared.so" || fail "the .so differs"
	nm "$(rowdir with-static)/app" | grep -q ' T vx_get_device_list$' || fail "with-static: no archive copy in app"
	nm "$(rowdir without-static)/app" | grep -q ' T vx_get_device_list$' && fail "without-static: archive copy in app"
	true
}

@test "D2: the .so reaches the table through GLOB_DAT and the exe has no COPY" {
	run elf_facts "$(rowdir D2)/libverbs_shared.so"
	assert_line --regexp '^rel GLOB_DAT vx_table(@|$)'
	# The same pattern finds the COPY in D2-copyreloc (below), on any target.
	run elf_facts "$(rowdir D2)/app"
	refute_line --regexp '^rel COPY '
}

@test "evidence D2-copyreloc: the COPY relocation and the .so's GLOB_DAT bound to the exe" {
	run row "$E" D2-copyreloc
	assert_line '  | app: COPY relocations=vx_table'
	assert_line --partial "LD_DEBUG: binding file libverbs_shared.so [0] to app [0]: normal symbol \`vx_table'"
}

@test "D2-copyreloc: the executable carries a COPY relocation for the table" {
	run elf_facts "$(rowdir D2-copyreloc)/app"
	assert_line --regexp '^rel COPY vx_table(@|$)'
}

@test "D2-copyreloc-symbolic: COPY in the exe, but the .so keeps no GLOB_DAT for its table" {
	run elf_facts "$(rowdir D2-copyreloc-symbolic)/app"
	assert_line --regexp '^rel COPY vx_table(@|$)'
	run elf_facts "$(rowdir D2-copyreloc-symbolic)/libverbs_shared.so"
	refute_line --regexp '^rel .* vx_table(@|$)'
	assert_line --regexp '^dyn SYMBOLIC '
}

@test "D2-copyreloc-symbolic-pie: the PIE holds a COPY of the table exactly when the row splits (compiler-dependent)" {
	run elf_facts "$(rowdir D2-copyreloc-symbolic-pie)/app"
	if [ "$(fact "$M" D2-copyreloc-symbolic-pie verdict)" = SPLIT ]; then
		assert_line --regexp '^rel COPY vx_table(@|$)'
	else
		refute_line --regexp '^rel COPY '
		assert_line --regexp '^rel GLOB_DAT vx_table(@|$)'
	fi
}

@test "evidence A: the constructor's vx_register_device binds to the executable" {
	run row "$E" A
	assert_line --partial "LD_DEBUG: binding file libverbs_shared.so [0] to app [0]: normal symbol \`vx_register_device'"
	assert_line --regexp 'libverbs_shared.so: own-export relocations=JUMP_SLOT:[1-9]'
}

@test "evidence B: no binding line for vx_register_device, no JUMP_SLOT to own exports" {
	run row "$E" B
	refute_line --partial "normal symbol \`vx_register_device'"
	assert_line --partial 'libverbs_shared.so: own-export relocations=JUMP_SLOT:0 GLOB_DAT:0'
	assert_line --partial "LD_DEBUG: binding file libcollective.so [0] to app [0]: normal symbol \`vx_get_device_list'"
}

# references_sym FILE NAME: FILE's .dynsym has NAME undefined (an import).
references_sym() { "$TOP/scripts/dynamic" "$1" | awk -F'\t' -v n="$2" '$2 == "sym" && $3 == n && $8 == "UND" { f = 1 } END { exit !f }'; }

@test "exports: row A's executable exports vx_register_device, which no shared library references and libverbs_shared.so defines" {
	d=$(rowdir A)
	defines_sym "$d/app" vx_register_device || fail "app does not export vx_register_device"
	defines_sym "$d/libverbs_shared.so" vx_register_device || fail "libverbs_shared.so does not define it"
	for so in "$d"/*.so; do
		! references_sym "$so" vx_register_device || fail "${so##*/} references it: the row no longer shows a definition alone exporting it"
	done
}

@test "evidence C: the .so's vx_ functions are PROTECTED in .dynsym" {
	run row "$E" C
	assert_line --partial 'libverbs_shared.so: .dynsym vx_=vx_get_device_list:PROTECTED vx_register_device:PROTECTED'
}


@test "preload rows: the executable stays first in the global scope, the preloaded .so comes second" {
	rows=$(rows_with matrix preload .)
	[ -n "$rows" ] || skip "matrix/rows has no preload row"
	for r in $rows; do
		p=$(table_cell matrix "$r" preload)
		run bash -c "'$TOP/scripts/row-env' LD_PRELOAD='$(rowdir "$r")/$p' LD_DEBUG=scopes '$(rowdir "$r")/app' 2>&1 >/dev/null |
			'$TOP/scripts/ld-debug' --scopes '/app\$' | sed -n 's/^[^ ]* \[0\] scope 0: *//p' | head -n 1"
		assert_output --regexp "^[^ ]*/app [^ ]*/$p "
	done
}

@test "--exclude-libs,ALL rows: the archive's copy leaves the executable's .dynsym, row A keeps it there" {
	rows=$(rows_with matrix exe-ldflags 'exclude-libs,ALL')
	[ -n "$rows" ] || skip "matrix/rows has no --exclude-libs,ALL row"
	run elf_facts "$(rowdir A)/app"
	assert_line --regexp '^sym vx_get_device_list '
	for r in $rows; do
		run elf_facts "$(rowdir "$r")/app"
		refute_line --regexp '^sym vx_'
	done
}

@test "-fno-semantic-interposition rows: the .so is byte-identical to row A's (the constructor's call crosses files)" {
	rows=$(rows_with matrix so-cflags 'fno-semantic-interposition')
	[ -n "$rows" ] || skip "matrix/rows has no -fno-semantic-interposition row"
	for r in $rows; do
		[ -z "$(table_cell matrix "$r" so-ldflags)" ] || fail "$r also changes so-ldflags: the comparison would prove nothing"
		cmp "$(rowdir A)/libverbs_shared.so" "$(rowdir "$r")/libverbs_shared.so" || fail "$r: .so differs from row A's"
	done
}

@test "make matrix ROW=<id> runs that row alone, and CONFIG= still means ROW=" {
	r=$(table_rows matrix | awk '{ print $2 }')
	run make -s -C "$TOP" matrix ROW="$r"
	assert_success
	assert_equal "$(grep -c '^== ' <<< "$output")" 1
	assert_line --regexp "^== $r: "
	run make -s -C "$TOP" matrix CONFIG="$r"
	assert_success
	assert_equal "$(grep -c '^== ' <<< "$output")" 1
}

@test "make matrix ROW=Z: unknown row, one line naming the known ones, exit 2" {
	run make -s -C "$TOP" matrix ROW=Z
	assert_equal "$status" 2
	assert_equal "${#lines[@]}" 1
	assert_output --partial "unknown row 'Z' (known: $(table_rows matrix))"
}
