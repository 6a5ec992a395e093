#!/usr/bin/env bats
# fixes/: each test states one fact about one rung of the ladder, read from
# the run-time output, the derived facts or the binaries themselves.
LAB=fixes
load helpers

setup_file() {
	load helpers
	lab_setup_file
}

F=$RUN_OUT E=$EVIDENCE_OUT
dir() { rowdir "$1"; }

# one_row_table ROW SED: fixes/rows reduced to its header, its defaults and
# one row, edited by SED.
one_row_table() {
	local t="$BATS_TEST_TMPDIR/rows"
	{ grep -E '^(# id|\* )' "$TOP/fixes/rows"; grep "^$1 " "$TOP/fixes/rows" | sed "$2"; } > "$t"
	echo "$t"
}

@test "golden: normalised make fixes equals expected/fixes.txt" {
	run golden_diff "$F" "$TOP/expected/fixes.txt"
	assert_success
}

@test "every rung of fixes/rows is run, in table order" {
	run grep -oE '^== [^:]+' "$F"
	assert_output "$(printf '== %s\n' $(table_rows fixes))"
}

@test "nofix-visibility: still SPLIT, both consumers read the executable's copy" {
	run elf_facts "$(dir nofix-visibility)/app"
	assert_line --regexp '^sym vx_get_device_list [^ ]+ [A-Z]+ GLOBAL DEFAULT [0-9]+ '
}

@test "nofix-visibility-all: --as-needed drops the .so, its constructor never runs" {
	run elf_facts "$(dir nofix-visibility-all)/app" "$(dir nofix-visibility-all)/libcollective.so"
	refute_line 'dyn NEEDED libverbs_shared.so'
}

@test "nofix-visibility-all-forced: loaded, and SPLIT again" {
	run elf_facts "$(dir nofix-visibility-all-forced)/app"
	assert_line 'dyn NEEDED libverbs_shared.so'
}

@test "nofix-version-script: SPLIT; the versioned reference binds to the executable's unversioned copy" {
	run row "$E" nofix-version-script
	assert_output --regexp "LD_DEBUG: binding file libcollective.so .* to app .*vx_get_device_list' \[VERBS_1.0\]"
}

@test "fix-drop-duplicate: reunited, one table written and read" {
	assert_equal "$(read_addrs "$F" fix-drop-duplicate)" "$(written_addrs "$F" fix-drop-duplicate)"
}

@test "fix-exclude-libs: plugin and collective reunited, the app's own call still reads its private copy" {
	run row "$F" fix-exclude-libs
	assert_line --regexp '^\[get_list <- copy=STATIC table@0x[0-9a-f]+\] this copy holds 0'
	run elf_facts "$(dir fix-exclude-libs)/app"
	refute_line --regexp '^sym vx_'
	assert_line --regexp '^sym host_api_version '
}

@test "fix-exclude-libs-all: the plugin's callback is hidden too, and the plugin never loads" {
	run row "$F" fix-exclude-libs-all
	assert_line '[plugin not loaded: libvxplugin.so: undefined symbol: host_api_version]'
	run elf_facts "$(dir fix-exclude-libs-all)/app"
	refute_line --regexp '^sym host_api_version '
}

@test "fix-prefix-rename: both copies exist under different names, and the renamed one is live" {
	run nm --defined-only "$(dir fix-prefix-rename)/app"
	assert_line --regexp ' T vxstatic_vx_get_device_list$'
	refute_line --regexp ' [Tt] vx_get_device_list$'
	run nm -D --defined-only "$(dir fix-prefix-rename)/libverbs_shared.so"
	assert_line --regexp ' T vx_get_device_list$'
	# live: the app's call ran in the renamed (STATIC) copy
	run row "$F" fix-prefix-rename
	assert_line --regexp '^\[get_list <- copy=STATIC table@'
}

@test "fix-static-canonical: one copy in the executable, nothing of it in the dynamic namespace" {
	run elf_facts "$(dir fix-static-canonical)/app"
	refute_line 'dyn NEEDED libverbs_shared.so'
	refute_line 'dyn NEEDED libcollective.so'
	refute_line --regexp '^sym vx_'
	run row "$F" fix-static-canonical
	refute_output --partial copy=SHARED
}

@test "make fixed: the ladder and scope-capture's fixed row meet their expect cells, exit 0" {
	run make -s -C "$TOP" --no-print-directory fixed FIXED_ROWS=scope-capture:fixed
	assert_success
	assert_line --regexp "^scope-capture:fixed +\\| no-split +\\| reunited .*\\| ok "
	for r in $(table_rows fixes); do
		assert_line --regexp "^fixes:$r +\\| $(expect_verdict fixes "$r") .*\\| ok "
	done
	assert_line "check: $(( $(table_rows fixes | wc -w) + 1 )) row(s) met their expectation"
}

@test "make fixed fails naming a fix row run against a deliberately split build" {
	t=$(one_row_table fix-drop-duplicate 's/exe=none/exe=static/')
	run make -s -C "$TOP" --no-print-directory fixed FIXES_TABLE="$t" B="$BATS_TEST_TMPDIR/b" FIXED_ROWS=
	assert_failure
	assert_output --partial "check: row fixes:fix-drop-duplicate broke its expectation: expected $(table_cell fixes fix-drop-duplicate expect), observed SPLIT"
}

@test "make fixed fails naming a nofix row that stops failing" {
	t=$(one_row_table nofix-visibility 's/so-cflags=-fvisibility=hidden/exe=none/; s/SPLIT collective:0,app:0/no-split collective:2,app:2/')
	run make -s -C "$TOP" --no-print-directory fixed FIXES_TABLE="$t" B="$BATS_TEST_TMPDIR/b" FIXED_ROWS=
	assert_failure
	assert_output --partial 'check: row fixes:nofix-visibility broke its expectation: a nofix- row must still fail'
}

@test "an unknown ROW (or FIX, its older name) is named with the known ones" {
	run make -s -C "$TOP" --no-print-directory fixes FIX=nope
	assert_failure
	assert_output --partial "unknown row 'nope' (known: $(table_rows fixes))"
}

@test "make fixed holds another lab's FIXED_ROWS entry to its own table's expect cell" {
	r=$(rows_expecting matrix no-split | head -n 1)
	run make -s -C "$TOP" --no-print-directory fixed FIXED_ROWS="matrix:$r"
	assert_success
	assert_line --regexp "^== matrix:$r: "
	assert_line --regexp "^matrix:$r +\\| no-split +\\| reunited +\\| $(expect_consumers matrix "$r") +\\| $(table_cell matrix "$r" expect) +\\| ok "
}

@test "make fixed: an unknown lab or row in FIXED_ROWS is one line before anything runs" {
	run make -s -C "$TOP" --no-print-directory fixed FIXED_ROWS=nolab:somerow
	assert_equal "$status" 2
	assert_equal "${#lines[@]}" 1
	assert_output --partial "unknown lab in FIXED_ROWS 'nolab'"
	run make -s -C "$TOP" --no-print-directory fixed FIXED_ROWS=matrix:nope
	assert_equal "$status" 2
	assert_output --partial "unknown row of matrix 'nope'"
}
