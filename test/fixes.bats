#!/usr/bin/env bats
# fixes/: each test states one fact about one rung of the ladder, read from
# the run-time output, the derived facts or the binaries themselves.
load helpers

setup_file() {
	load helpers
	lab_outputs fixes fixes
}

F() { out_file fixes; }
E() { out_file fixes-evidence; }
dir() { echo "$TOP/build/fixes/$1"; }
consumers() { fact "$(F)" "$1" consumers; }
verdict() { fact "$(F)" "$1" verdict; }

# one_row_table ROW SED: fixes/rows reduced to one row, edited by SED.
one_row_table() {
	local t="$BATS_TEST_TMPDIR/rows"
	{ grep '^# id' "$TOP/fixes/rows"; grep "^$1 " "$TOP/fixes/rows" | sed "$2"; } > "$t"
	echo "$t"
}

@test "golden: normalised make fixes equals expected/fixes.txt" {
	run golden_diff "$(F)" "$TOP/expected/fixes.txt"
	assert_success
}

@test "every rung is there, in order, each with its mechanism line" {
	run grep -oE '^== [^:]+' "$(F)"
	assert_output "$(printf '== %s\n' nofix-visibility nofix-visibility-all nofix-visibility-all-forced nofix-version-script \
		fix-drop-duplicate fix-exclude-libs fix-exclude-libs-all fix-prefix-rename fix-static-canonical)"
	[ "$(grep -c '^mechanism: ' "$(F)")" -eq 9 ]
}

@test "nofix-visibility: still SPLIT, both consumers read the executable's copy" {
	assert_equal "$(verdict nofix-visibility)" SPLIT
	assert_equal "$(consumers nofix-visibility)" collective:0,app:0
	run readelf --dyn-syms -W "$(dir nofix-visibility)/app"
	assert_output --regexp 'GLOBAL +DEFAULT +[0-9]+ vx_get_device_list'
}

@test "nofix-visibility-all: --as-needed drops the .so, its constructor never runs" {
	assert_equal "$(verdict nofix-visibility-all)" not-loaded
	assert_equal "$(consumers nofix-visibility-all)" collective:0,app:0
	run readelf -dW "$(dir nofix-visibility-all)/app" "$(dir nofix-visibility-all)/libcollective.so"
	refute_output --partial '[libverbs_shared.so]'
}

@test "nofix-visibility-all-forced: loaded, and SPLIT again" {
	assert_equal "$(verdict nofix-visibility-all-forced)" SPLIT
	assert_equal "$(consumers nofix-visibility-all-forced)" collective:0,app:0
	run readelf -dW "$(dir nofix-visibility-all-forced)/app"
	assert_output --partial '[libverbs_shared.so]'
}

@test "nofix-version-script: SPLIT; the versioned reference binds to the executable's unversioned copy" {
	assert_equal "$(verdict nofix-version-script)" SPLIT
	assert_equal "$(consumers nofix-version-script)" collective:0,app:0
	run row "$(E)" nofix-version-script
	assert_output --regexp "LD_DEBUG: binding file libcollective.so .* to app .*vx_get_device_list' \[VERBS_1.0\]"
}

@test "fix-drop-duplicate: reunited, one table written and read" {
	assert_equal "$(verdict fix-drop-duplicate)" no-split
	assert_equal "$(consumers fix-drop-duplicate)" collective:2,app:2
	assert_equal "$(read_addrs "$(F)" fix-drop-duplicate)" "$(written_addrs "$(F)" fix-drop-duplicate)"
}

@test "fix-exclude-libs: plugin and collective reunited, the app's own call still reads its private copy" {
	assert_equal "$(verdict fix-exclude-libs)" SPLIT
	assert_equal "$(consumers fix-exclude-libs)" plugin:2,collective:2,app:0
	run row "$(F)" fix-exclude-libs
	assert_line --regexp '^\[get_list <- copy=STATIC table@0x[0-9a-f]+\] this copy holds 0'
	run readelf --dyn-syms -W "$(dir fix-exclude-libs)/app"
	refute_output --partial vx_
	assert_output --partial host_api_version
}

@test "fix-exclude-libs-all: the plugin's callback is hidden too, and the plugin never loads" {
	assert_equal "$(verdict fix-exclude-libs-all)" SPLIT
	assert_equal "$(consumers fix-exclude-libs-all)" collective:2,app:0
	run row "$(F)" fix-exclude-libs-all
	assert_line '[plugin not loaded: libvxplugin.so: undefined symbol: host_api_version]'
	run readelf --dyn-syms -W "$(dir fix-exclude-libs-all)/app"
	refute_output --partial host_api_version
}

@test "fix-prefix-rename: both copies exist under different names, and the renamed one is live" {
	assert_equal "$(consumers fix-prefix-rename)" collective:2,app:0
	run nm --defined-only "$(dir fix-prefix-rename)/app"
	assert_line --regexp ' T vxstatic_vx_get_device_list$'
	refute_line --regexp ' [Tt] vx_get_device_list$'
	run nm -D --defined-only "$(dir fix-prefix-rename)/libverbs_shared.so"
	assert_line --regexp ' T vx_get_device_list$'
	# live: the app's call ran in the renamed (STATIC) copy
	run row "$(F)" fix-prefix-rename
	assert_line --regexp '^\[get_list <- copy=STATIC table@'
}

@test "fix-static-canonical: one copy in the executable, nothing of it in the dynamic namespace" {
	assert_equal "$(verdict fix-static-canonical)" no-split
	assert_equal "$(consumers fix-static-canonical)" collective:2,app:2
	run readelf -dW "$(dir fix-static-canonical)/app"
	refute_output --partial libverbs_shared.so
	refute_output --partial libcollective.so
	run readelf --dyn-syms -W "$(dir fix-static-canonical)/app"
	refute_output --partial vx_
	run row "$(F)" fix-static-canonical
	refute_output --partial copy=SHARED
}

@test "make fixed: the ladder and scope-capture's fixed row meet their expectations, exit 0" {
	run make -s -C "$TOP" --no-print-directory fixed FIXED_ROWS=scope-capture:fixed
	assert_success
	assert_line --regexp '^scope-capture:fixed +\| no-split +\| reunited '
	assert_line 'fixed: every row met its expectation'
	assert_line --regexp '^fix-exclude-libs +\| SPLIT +\| partial +\| plugin:2,collective:2,app:0 '
	assert_line --regexp '^fix-static-canonical +\| no-split +\| reunited +\|'
}

@test "make fixed fails naming a fix row run against a deliberately split build" {
	t=$(one_row_table fix-drop-duplicate 's/| none /| static /')
	run make -s -C "$TOP" --no-print-directory fixed FIXES_TABLE="$t" B="$BATS_TEST_TMPDIR/b" FIXED_ROWS=
	assert_failure
	assert_output --partial 'fixed: row fix-drop-duplicate broke its expectation: expected no-split collective:2,app:2, observed SPLIT collective:0,app:0'
}

@test "make fixed fails naming a nofix row that stops failing" {
	t=$(one_row_table nofix-visibility 's/| static /| none /; s/SPLIT collective:0,app:0/no-split collective:2,app:2/')
	run make -s -C "$TOP" --no-print-directory fixed FIXES_TABLE="$t" B="$BATS_TEST_TMPDIR/b" FIXED_ROWS=
	assert_failure
	assert_output --partial 'fixed: row nofix-visibility broke its expectation: a nofix- row must still fail'
}

@test "an unknown FIX is named with the known ones" {
	run make -s -C "$TOP" --no-print-directory fixes FIX=nope
	assert_failure
	assert_output --partial "unknown fix 'nope' (known: nofix-visibility "
}

@test "make fixed runs other labs' FIXED_ROWS and expects them not to split" {
	run make -s -C "$TOP" --no-print-directory fixed FIXED_ROWS="matrix:without-static matrix:B"
	assert_failure
	assert_line --regexp '^matrix:without-static +\| no-split +\| reunited '
	assert_line --regexp '^== matrix:B: '
	assert_line --partial 'fixed: row matrix:B broke its expectation: expected no-split, observed SPLIT'
}

@test "make fixed: a lab without <lab>.run gets a failed row that says so, not a silent pass" {
	run make -s -C "$TOP" --no-print-directory fixed FIXED_ROWS=nolab:somerow
	assert_failure
	assert_line '[run failed: lab nolab defines no nolab.run]'
	assert_line --partial 'fixed: row nolab:somerow broke its expectation: expected no-split, observed run-failed'
}
