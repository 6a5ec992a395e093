#!/usr/bin/env bats
# Toolchain regression mode: every lab under every installed toolchain, and
# the baseline / compare pair an upgrade check relies on.
load helpers

# the columns, as the toolchains table lists them
ALL=$("$TOP/scripts/toolchain-list" columns)

setup_file() {
	load helpers
	# Only toolchains this machine has; the others are tested as "skipped".
	installed=
	for tc in $ALL; do "$TOP/scripts/toolchain" --check "${tc%%:*}" "${tc#*:}" 2>/dev/null && installed="$installed $tc"; done
	echo "${installed# }" > "$BATS_FILE_TMPDIR/installed"
	local rc=0
	make -s -C "$TOP" --no-print-directory check-toolchains TOOLCHAINS="${installed# }" > "$BATS_FILE_TMPDIR/table" 2>&1 || rc=$?
	echo $rc > "$BATS_FILE_TMPDIR/status"
	# the full run's facts, kept before the tests below rerun one lab there
	cp -r "$BUILD/toolchains/gcc+bfd" "$BATS_FILE_TMPDIR/full-gcc+bfd"
	# baseline and compare are tested on one lab (LAB=matrix): the make path
	# is the same for every lab, and check-toolchains above runs them all.
	make -s -C "$TOP" --no-print-directory baseline LAB=matrix OUT="$BATS_FILE_TMPDIR/baseline" > /dev/null
}

@test "check-toolchains: no unexpected cell under any installed toolchain" {
	run cat "$BATS_FILE_TMPDIR/table"
	# As a user, rows that need root (rxe's emulated tier, loader-errors'
	# private ld.so.cache) cannot run: their cells differ, named here.
	# A cell that ran and differs fails here as anywhere.
	if [ "$(id -u)" != 0 ] && [ "$(cat "$BATS_FILE_TMPDIR/status")" != 0 ] &&
		! grep '^unexpected: ' "$BATS_FILE_TMPDIR/table" | grep -vqE ': (skipped|missing), expected '; then
		skip "as a user, rows that need root cannot run: $(grep '^unexpected: ' "$BATS_FILE_TMPDIR/table" | sed 's/^unexpected: //; s/ under .*//' | sort -u | tr '\n' ' ')"
	fi
	# on failure, its own lines: the status alone names no cell
	[ "$(cat "$BATS_FILE_TMPDIR/status")" = 0 ] ||
		fail "check-toolchains exit $(cat "$BATS_FILE_TMPDIR/status"): $(grep -E '^(unexpected|check-toolchains|skipped): |\*\*\*' "$BATS_FILE_TMPDIR/table" | head -n 30)"
	n=$(wc -w < "$BATS_FILE_TMPDIR/installed")
	assert_line "check-toolchains: every cell as expected ($n of $n toolchain(s) ran)"
	refute_output --regexp ' \* '
}

@test "check-toolchains: one column per installed toolchain, one row per table row of every lab" {
	installed=$(cat "$BATS_FILE_TMPDIR/installed")
	[ -n "$installed" ] || fail "no toolchain installed"
	run head -n 1 "$BATS_FILE_TMPDIR/table"
	for tc in $installed; do assert_output --partial "$tc"; done
	labs=$(make -s -C "$TOP" --no-print-directory labs)
	[ -n "$labs" ] || fail "make labs names no lab"
	# every row's "LAB:ROW VERDICT" from its expect cell (one reading of each
	# table), then the table's first two words read once for all of them
	for lab in $labs; do
		table_column "$lab" expect | awk -F'\t' -v lab="$lab" '{ split($2, w, " "); print lab ":" $1, w[1] }'
	done > "$BATS_TEST_TMPDIR/rows"
	[ -s "$BATS_TEST_TMPDIR/rows" ] || fail "the labs' tables name no row"
	missing=$(awk 'NR == FNR { seen[$1 " " $2] = 1; next } !($0 in seen)' "$BATS_FILE_TMPDIR/table" "$BATS_TEST_TMPDIR/rows")
	[ -z "$missing" ] || fail "row(s) missing from the table, or not expecting their cell: $(echo $missing)"
}

@test "check-toolchains: a column after its compiler's lead makes again only what a linker made: no compile, ar or ln for the lead's objects" {
	# The lead: the build make test's own toolchain made ($BUILD, complete
	# after setup_file). toolchain-facts --objects-from with no lab to run
	# does the copy alone; make -n then prints what the column's make
	# would do next, without doing it.
	tc=$(head -n 1 "$BATS_FILE_TMPDIR/installed"); tc=${tc%% *}
	[ -n "$tc" ] || skip "no toolchain installed"
	col=$BATS_TEST_TMPDIR/col
	labs='matrix fixes archive-order'
	"$TOP/scripts/toolchain-facts" --objects-from "$BUILD" "$labs" "$tc" "$col/facts" "$col/b" || fail "toolchain-facts --objects-from failed"
	run make -n -s -C "$TOP" --no-print-directory B="$col/b" $(for l in $labs; do echo "$col/b/runs/$l.out"; done)
	assert_success
	assert_output --partial " -o $col/b/matrix/A/app "          # the links: the column's own
	refute_output --regexp ' -c '                                # no compile
	refute_output --regexp 'ln -f [^ ]+\.o '                     # no hard link to an object
	# a row's name of an object its lab compiled once is a hard link to it
	for f in "$col"/b/matrix/*/{app,collective,verbs_static}.o; do
		n=${f##*/}; linked=
		for o in "$col"/b/matrix/objs/"${n%.o}".*o; do [ "$f" -ef "$o" ] && linked=1; done
		[ -n "$linked" ] || fail "$f: not a hard link to its object in matrix/objs"
	done
	# An archive is made again exactly when a member is an ld -r output
	# (archive-order: layout one, its stacks' archives; vendored, the
	# collectives'); every other one came with the lead's time.
	expected=$(for r in $(rows_with archive-order layout '^one$'); do echo "archive-order/$r/libverbs_bundled.a"; echo "archive-order/$r/libverbs_vendor.a"; done
		for r in $(rows_with archive-order layout '^vendored$'); do echo "archive-order/$r/libcollective_a.a"; echo "archive-order/$r/libcollective_b.a"; done)
	[ -n "$expected" ] || fail "archive-order's table has no row of layout one or vendored"
	made=$(while read -r l; do [[ ! $l =~ \ rcs\ ([^ ]+\.a) ]] || echo "${BASH_REMATCH[1]#"$col/b/"}"; done <<< "$output")
	assert_equal "$(sort <<< "$made")" "$(sort <<< "$expected")"
	shopt -s globstar
	for a in "$BUILD"/{matrix,fixes}/**/*.a; do
		c=$col/b/${a#"$BUILD"/}
		[ -f "$c" ] && [ ! "$c" -nt "$a" ] && [ ! "$c" -ot "$a" ] || fail "$c: not the lead's archive with its time"
	done
}

@test "make toolchains: the toolchains table's columns in its order, each installed or not with the reason" {
	run make -s -C "$TOP" --no-print-directory toolchains
	assert_success
	assert_equal "$(awk '{ print $1 }' <<< "$output")" "$ALL"
	for tc in $(cat "$BATS_FILE_TMPDIR/installed"); do assert_line --regexp "^$tc +installed$"; done
	run make -s -C "$TOP" --no-print-directory toolchains TOOLCHAINS="gcc:bfd gcc:no-such-ld"
	assert_line --regexp '^gcc:bfd +installed$'
	assert_line --regexp "^gcc:no-such-ld +not installed: linker 'no-such-ld' cannot be used by gcc -fuse-ld=no-such-ld \(LD= one of: $(echo $("$TOP/scripts/toolchain-list" linkers))\)$"
}

@test "make deps installs the package of every column's linker, as the toolchains table names it" {
	run make -n -s -C "$TOP" --no-print-directory deps
	n=0
	for tc in $ALL; do
		p=$("$TOP/scripts/toolchain-list" package "${tc#*:}") || fail "column $tc: its linker has no line in the toolchains table"
		assert_output --partial "'$p'"
		n=$((n + 1))
	done
	[ "$n" -gt 0 ] || fail "the toolchains table lists no column"
}

@test "check-toolchains: no toolchain run is a failure, not a pass" {
	for list in "" "foo:bar" "gcc:nonsense"; do
		run make -s -C "$TOP" --no-print-directory check-toolchains TOOLCHAINS="$list"
		assert_failure
		assert_line --partial 'check-toolchains: no toolchain ran'
	done
}

@test "check-toolchains: a toolchain that is not installed is listed as skipped, with the reason" {
	run make -s -C "$TOP" check-toolchains LAB=matrix TOOLCHAINS="gcc:bfd gcc:no-such-ld"
	assert_success
	assert_line --regexp "^skipped: gcc:no-such-ld -- linker 'no-such-ld' cannot be used"
}

@test "check-toolchains: a cell that differs from its expectation is marked and fails" {
	cp -r "$BATS_FILE_TMPDIR/full-gcc+bfd" "$BATS_TEST_TMPDIR/gcc+bfd"
	sed -i 's/^matrix:B verdict=SPLIT/matrix:B verdict=no-split/' "$BATS_TEST_TMPDIR/gcc+bfd/facts"
	run "$TOP/scripts/toolchain-table" "$BUILD/toolchains/expect.tsv" "$BATS_TEST_TMPDIR" gcc:bfd
	assert_failure
	assert_line --regexp '^matrix:B +SPLIT +no-split \*'
	assert_line 'unexpected: matrix:B under gcc:bfd: no-split, expected SPLIT'
}

@test "check-toolchains: a verdict difference listed with its reason is accepted as known" {
	cp -r "$BATS_FILE_TMPDIR/full-gcc+bfd" "$BATS_TEST_TMPDIR/gcc+lld"
	sed -i 's/^matrix:B verdict=SPLIT/matrix:B verdict=no-split/' "$BATS_TEST_TMPDIR/gcc+lld/facts"
	# one line made up for matrix:B, then the list's own (the rows gcc:bfd's facts differ
	# in for a reason, symsplit's among them; its [upgrade] sections end what is read)
	{ printf '%s\n' '*:lld | matrix:B | verdict=no-split | a made-up reason, for this test only'; cat "$TOP/expected/toolchain-differences"; } > "$BATS_TEST_TMPDIR/differences"
	TOOLCHAIN_DIFFERENCES="$BATS_TEST_TMPDIR/differences" run "$TOP/scripts/toolchain-table" "$BUILD/toolchains/expect.tsv" "$BATS_TEST_TMPDIR" gcc:lld
	# as a user, the copied run lacks the rows that need root: those cells
	# are unexpected there (the first test names them), matrix:B is not
	if [ "$(id -u)" = 0 ]; then assert_success; else refute_line --partial 'unexpected: matrix:B '; fi
	assert_line --regexp '^matrix:B +SPLIT +no-split \(known\)'
}

@test "check-toolchains: a line whose fact is a glob for the row's evidence does not excuse its verdict" {
	cp -r "$BATS_FILE_TMPDIR/full-gcc+bfd" "$BATS_TEST_TMPDIR/gcc+lld"
	sed -i 's/^matrix:B verdict=SPLIT/matrix:B verdict=no-split/' "$BATS_TEST_TMPDIR/gcc+lld/facts"
	# "*" names every piece of the row's evidence; only a verdict= line changes what is expected
	{ printf '%s\n' '*:lld | matrix:B | * | a made-up reason, for this test only'; cat "$TOP/expected/toolchain-differences"; } > "$BATS_TEST_TMPDIR/differences"
	TOOLCHAIN_DIFFERENCES="$BATS_TEST_TMPDIR/differences" run "$TOP/scripts/toolchain-table" "$BUILD/toolchains/expect.tsv" "$BATS_TEST_TMPDIR" gcc:lld
	assert_failure
	assert_line --regexp '^matrix:B +SPLIT +no-split \*'
	assert_line 'unexpected: matrix:B under gcc:lld: no-split, expected SPLIT'
}

@test "check-toolchains: a lab that ran but printed no row (a tier that could not run) fails, row by row" {
	cp -r "$BATS_FILE_TMPDIR/full-gcc+bfd" "$BATS_TEST_TMPDIR/gcc+bfd"
	# A lab that ran and printed no row: every rxe line of the full run
	# removed (its rows' verdicts, or their skips where the tier could not
	# run here), one fact of the lab's own left, so the lab ran. The same
	# facts on every machine, whichever of its tiers can run.
	sed -i '/^rxe:/d' "$BATS_TEST_TMPDIR/gcc+bfd/facts"
	echo 'rxe: | rxe-lab: no row printed' >> "$BATS_TEST_TMPDIR/gcc+bfd/facts"
	! grep -qE '^rxe:[^ ]+ (verdict=|skipped )' "$BATS_TEST_TMPDIR/gcc+bfd/facts" || fail "an rxe row is still in the facts"
	run "$TOP/scripts/toolchain-table" "$BUILD/toolchains/expect.tsv" "$BATS_TEST_TMPDIR" gcc:bfd
	assert_failure
	assert_line --regexp '^rxe:capture +SPLIT +missing \*'
	assert_line 'unexpected: rxe:capture under gcc:bfd: missing, expected SPLIT'
}

@test "check-toolchains: a toolchain with no facts fails instead of passing" {
	run "$TOP/scripts/toolchain-table" "$BUILD/toolchains/expect.tsv" "$BATS_TEST_TMPDIR" gcc:bfd
	assert_failure
	assert_line 'check-toolchains: no facts for gcc:bfd (toolchain-facts did not run)'
}

@test "compare: an unchanged baseline is silent and exits 0" {
	run make -s -C "$TOP" compare LAB=matrix BASELINE="$BATS_FILE_TMPDIR/baseline"
	assert_success
	assert_output ''
}

@test "compare: one fact changed by hand is reported, exactly, and fails" {
	b="$BATS_TEST_TMPDIR/baseline"
	sed 's/matrix:B | libverbs_shared.so: own-export relocations=JUMP_SLOT:0 GLOB_DAT:0/matrix:B | libverbs_shared.so: own-export relocations=JUMP_SLOT:1 GLOB_DAT:0/' \
		"$BATS_FILE_TMPDIR/baseline" > "$b"
	run cmp -s "$b" "$BATS_FILE_TMPDIR/baseline"
	assert_failure                                   # the edit took
	run make -s -C "$TOP" compare LAB=matrix BASELINE="$b"
	assert_failure
	assert_equal "$(grep -c '^changed: ' <<< "$output")" 1
	assert_line --regexp '^changed: [^ ]+ matrix:B \| libverbs_shared.so: own-export relocations$'
	assert_line '    before: | libverbs_shared.so: own-export relocations=JUMP_SLOT:1 GLOB_DAT:0'
	assert_line '    now:    | libverbs_shared.so: own-export relocations=JUMP_SLOT:0 GLOB_DAT:0'
}

# facts_dir: a crafted DIR/<cc+ld>/facts, as toolchain-facts writes it.
facts_dir() {
	mkdir -p "$BATS_TEST_TMPDIR/d/gcc+bfd"
	printf '%s\n' 'toolchain cc: gcc 12' 'matrix:A verdict=no-split consumers=collective:2' \
		'matrix:A | app: NEEDED=[libc.so.6]' 'rxe:capture | rxe-lab symtab: rdmacore<ver>_x_34' \
		> "$BATS_TEST_TMPDIR/d/gcc+bfd/facts"
}

@test "compare: a fact whose name changed is reported gone on one side, new on the other, each with its line" {
	facts_dir
	"$TOP/scripts/baseline" "$BATS_TEST_TMPDIR/d" gcc:bfd | sed 's/rdmacore<ver>_x_34/old_x_34/' > "$BATS_TEST_TMPDIR/base"
	run "$TOP/scripts/compare" "$BATS_TEST_TMPDIR/base" "$BATS_TEST_TMPDIR/d"
	assert_failure 1
	assert_output 'changed: gcc:bfd rxe:capture | rxe-lab symtab: old_x_34
    before: | rxe-lab symtab: old_x_34
    now:    (gone: no such fact now)
changed: gcc:bfd rxe:capture | rxe-lab symtab: rdmacore<ver>_x_34
    before: (new: no such fact before)
    now:    | rxe-lab symtab: rdmacore<ver>_x_34'
}

@test "compare: exit 0 unchanged, 1 changed, 2 when the facts to compare with are missing" {
	facts_dir
	"$TOP/scripts/baseline" "$BATS_TEST_TMPDIR/d" gcc:bfd > "$BATS_TEST_TMPDIR/base"
	run "$TOP/scripts/compare" "$BATS_TEST_TMPDIR/base" "$BATS_TEST_TMPDIR/d"
	assert_success
	sed -i 's/consumers=collective:2/consumers=collective:0/' "$BATS_TEST_TMPDIR/base"
	run "$TOP/scripts/compare" "$BATS_TEST_TMPDIR/base" "$BATS_TEST_TMPDIR/d"
	assert_failure 1
	assert_line 'changed: gcc:bfd matrix:A verdict'
	rm "$BATS_TEST_TMPDIR/d/gcc+bfd/facts"
	run "$TOP/scripts/compare" "$BATS_TEST_TMPDIR/base" "$BATS_TEST_TMPDIR/d"
	assert_failure 2
	assert_line 'baseline: no facts for gcc:bfd'
}

@test "compare: a missing baseline file is one clear line" {
	run make -s -C "$TOP" compare BASELINE=/nonexistent/baseline
	assert_failure
	assert_line --partial "compare: no baseline file '/nonexistent/baseline' (make baseline OUT=<file> first)"
}

@test "check-upgrade: without root it is one line and a skip" {
	# a release other than this machine's (on Debian 13, trixie is refused first)
	local other=trixie; [ "$(. /etc/os-release; echo "$VERSION_CODENAME")" != trixie ] || other=bookworm
	run_unprivileged "$TOP/scripts/check-upgrade" "$other" "$BATS_TEST_TMPDIR/b"
	assert_success
	assert_output 'check-upgrade: skipped: needs root (mmdebstrap, chroot and mounts)'
}

@test "check-upgrade: no SUITE, one that is not a suite name, or a FULL other than 1 is one line and exit 2" {
	run make -s -C "$TOP" --no-print-directory check-upgrade
	assert_failure
	assert_line --index 0 'check-upgrade: which release? make check-upgrade SUITE=<debian suite, e.g. trixie>'
	run "$TOP/scripts/check-upgrade" '../etc' "$BATS_TEST_TMPDIR/b"
	assert_failure 2
	assert_output "check-upgrade: SUITE '../etc' is not a Debian suite name"
	run "$TOP/scripts/check-upgrade" trixie "$BATS_TEST_TMPDIR/b" "gcc:bfd" yes
	assert_failure 2
	assert_output "check-upgrade: FULL must be 1 or empty (is 'yes')"
}

@test "check-fresh: without root it is one line and a skip; a SUITE that is not a suite name is one line and exit 2" {
	run_unprivileged "$TOP/scripts/check-fresh" bookworm "$BATS_TEST_TMPDIR/b"
	assert_success
	assert_output 'check-fresh: skipped: needs root (mmdebstrap, chroot and mounts)'
	run "$TOP/scripts/check-fresh" '../etc' "$BATS_TEST_TMPDIR/b"
	assert_failure 2
	assert_output "check-fresh: SUITE '../etc' is not a Debian suite name"
	CHECK_FRESH_PASSES="root jail" run "$TOP/scripts/check-fresh" bookworm "$BATS_TEST_TMPDIR/b"
	assert_failure 2
	assert_output "check-fresh: CHECK_FRESH_PASSES: unknown pass 'jail' (known: root user chroot nomounts)"
	[ ! -e "$BATS_TEST_TMPDIR/b" ] || fail "a refused check wrote its build directory"
}

@test "upgrade-report: a changed device count fails; evidence changes carry their reason or UNKNOWN" {
	w="$BATS_TEST_TMPDIR/w"; mkdir -p "$w"
	printf '%s\n' 'gcc:bfd matrix:A verdict=no-split consumers=collective:2' 'gcc:bfd matrix:A | app: NEEDED=[libc.so.6]' \
		'gcc:bfd matrix:A | app: DT_FLAGS=none' > "$w/baseline"
	printf '%s\n' 'changed: gcc:bfd matrix:A | app: NEEDED' '    before: | app: NEEDED=[libc.so.6]' '    now:    | app: NEEDED=[libc.so.6 libm.so.6]' \
		'changed: gcc:bfd matrix:A | app: DT_FLAGS' '    before: | app: DT_FLAGS=none' '    now:    | app: DT_FLAGS=BIND_NOW' > "$w/compare"
	echo 0 > "$w/table.rc"; : > "$w/table"
	printf 'gcc 12\n' > "$w/versions.host"; printf 'gcc 14\n' > "$w/versions"
	printf '%s\n' '*:bfd | * | *: DT_FLAGS | not for upgrades' '[upgrade old new]' '*:bfd | matrix:* | app: NEEDED | libm joined' > "$w/diffs"
	UPGRADE_DIFFERENCES="$w/diffs" run "$TOP/scripts/upgrade-report" old new "$w"
	assert_success
	assert_line 'verdicts and device counts: 1 rows x 1 toolchains (1 cells), none changed'
	assert_line 'evidence: 2 of 2 facts changed (2 group(s), 1 unknown)'
	assert_line '      reason: libm joined'
	assert_line '  UNKNOWN matrix:A | app: DT_FLAGS  [gcc:bfd]'
	printf '%s\n' 'changed: gcc:bfd matrix:A verdict' '    before: verdict=no-split consumers=collective:2' '    now:    verdict=no-split consumers=collective:0' >> "$w/compare"
	UPGRADE_DIFFERENCES="$w/diffs" run "$TOP/scripts/upgrade-report" old new "$w"
	assert_failure 1
	assert_line 'verdicts and device counts: 1 of 1 cells CHANGED'
	assert_line 'check-upgrade: FAILED'
}

@test "upgrade-report: with FULL=1's files, make test's closing line and wall time; its failure fails the check" {
	w="$BATS_TEST_TMPDIR/w"; mkdir -p "$w"
	echo 'gcc:bfd matrix:A verdict=no-split consumers=collective:2' > "$w/baseline"
	: > "$w/compare"; : > "$w/table"; echo 0 > "$w/table.rc"
	printf 'gcc 12\n' > "$w/versions.host"; printf 'gcc 14\n' > "$w/versions"
	printf '%s\n' 'ok 1 a' 'ok 2 b' '2 passed, 0 failed' > "$w/test"; echo 0 > "$w/test.rc"; echo 97 > "$w/test.seconds"
	run "$TOP/scripts/upgrade-report" old new "$w"
	assert_success
	assert_line 'make test inside new: 2 passed, 0 failed (97 s wall)'
	assert_line 'check-upgrade: passed: no verdict or device count changed, make test passed'
	printf '%s\n' 'ok 1 a' 'not ok 2 b' '1 passed, 1 failed' > "$w/test"; echo 2 > "$w/test.rc"
	run "$TOP/scripts/upgrade-report" old new "$w"
	assert_failure 1
	assert_line 'make test inside new: 1 passed, 1 failed (97 s wall) FAILED, exit 2'
	assert_line 'not ok 2 b'
	assert_line 'check-upgrade: FAILED'
}
