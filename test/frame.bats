#!/usr/bin/env bats
# The shared frame: a row's expectation lives in its table alone; make check,
# make bless and make compare read it; the build directory and the make
# variables are checked before anything runs. Each test works on a private
# copy of the source tree, so nothing it edits reaches the real one.
load helpers

setup_file() {
	load helpers
	COPY="$BATS_FILE_TMPDIR/tree"
	mkdir -p "$COPY"
	# The tree as it is now (tracked and new files), as a git repository of
	# its own, so a test can ask which files a change touched.
	(cd "$TOP" && git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t "$COPY")
	git -C "$COPY" init -q && git -C "$COPY" add -A &&
		git -C "$COPY" -c user.name=t -c user.email=t@t commit -qm base
	export COPY
}

# Whatever a test edited in the copy is put back, pass or fail.
teardown() { git -C "$COPY" checkout -q -- . 2>/dev/null || true; }

# cmake ARGS...: make in the copy, with its own build directory.
cmake() { make -s -C "$COPY" --no-print-directory B="$COPY/build" "$@"; }

@test "adding a row is a table line plus make bless: check and the lab's tests pass, no other file touched" {
	r=$(table_rows matrix | awk '{ print $1 }')
	printf '%s\n' "$r-again | $(grep "^$r " "$COPY/matrix/rows" | cut -d'|' -f2- )" | sed "s/| [^|]*\$/| row $r once more (added by a test)/" >> "$COPY/matrix/rows"
	run cmake bless LAB=matrix
	assert_success
	assert_line "bless: expected/matrix.txt written (say why in the commit message)"
	run cmake check LAB=matrix
	assert_success
	assert_line --regexp "^matrix:$r-again +\\| .*\\| ok "
	run env B="$COPY/build" bats "$COPY/test/matrix.bats"
	assert_success
	run git -C "$COPY" status --porcelain --untracked-files=no
	assert_output "$(printf ' M %s\n' expected/matrix.txt matrix/rows)"
}

@test "a wrong expect cell fails make check naming the row, and make bless refuses to write the golden" {
	r=$(rows_expecting matrix SPLIT | head -n 1)
	sed -i "s/^\\($r *|[^|]*| *\\)SPLIT /\\1no-split /" "$COPY/matrix/rows"
	[ "$(cd "$COPY" && TOP=$COPY table_cell matrix "$r" expect | cut -d' ' -f1)" = no-split ] || fail "the edit did not take"
	run cmake check LAB=matrix
	assert_failure
	assert_line --regexp "^check: row matrix:$r broke its expectation: expected no-split .*, observed SPLIT "
	cp "$COPY/expected/matrix.txt" "$BATS_TEST_TMPDIR/before"
	run cmake bless LAB=matrix
	assert_failure
	assert_line --regexp "^bless: refused: row matrix:$r broke its expectation"
	cmp -s "$COPY/expected/matrix.txt" "$BATS_TEST_TMPDIR/before" || fail "bless wrote the golden"
}

@test "a header included from another directory reaches the toolchain check (ccache)" {
	command -v ccache >/dev/null || skip "ccache is not installed (make test installs it)"
	run cmake baseline LAB=fixes TOOLCHAINS=gcc:lld OUT="$BATS_TEST_TMPDIR/base"
	assert_success
	# fixes/plugin.c reaches matrix/verbs.h through -Imatrix: every
	# consumer's call, the plugin's included, now reports 0 (the copies'
	# own definitions are compiled with VX_COPY and keep theirs).
	sed -i '$ s/^#endif$/#ifndef VX_COPY\n#define vx_get_device_list() (0 * vx_get_device_list())\n#endif\n&/' "$COPY/matrix/verbs.h"
	grep -q '0 \* vx_get_device_list' "$COPY/matrix/verbs.h" || fail "the edit did not take"
	run cmake compare LAB=fixes BASELINE="$BATS_TEST_TMPDIR/base"
	assert_failure
	assert_line --regexp '^changed: gcc:lld fixes:fix-exclude-libs verdict$'
	assert_line --regexp '^    now: +verdict=[^ ]+ consumers=plugin:0,collective:0,app:0$'
}

@test "make -n writes nothing, not even in the build directory" {
	run make -n -C "$COPY" B="$BATS_TEST_TMPDIR/nb" matrix fixes scope-capture
	assert_success
	[ ! -e "$BATS_TEST_TMPDIR/nb" ] || fail "make -n created the build directory"
	run git -C "$COPY" status --porcelain
	assert_output ''
}

@test "a build directory that is empty, has a space, is /, \$HOME or the source tree is refused in one line" {
	for b in '' 'a b' / "$HOME" . "$COPY" "$COPY/.." ..; do
		run make -s -C "$COPY" --no-print-directory matrix B="$b"
		assert_equal "$status" 2
		assert_equal "${#lines[@]}" 1
		assert_output --regexp 'B is empty|B=.* (has white space|is the source tree)'
	done
	run git -C "$COPY" status --porcelain
	assert_output ''
}

@test "a source tree whose path has a space is refused in one line" {
	mkdir -p "$BATS_TEST_TMPDIR/a b"
	cp -r "$COPY/Makefile" "$COPY/scripts" "$BATS_TEST_TMPDIR/a b/"
	run make -s -C "$BATS_TEST_TMPDIR/a b" --no-print-directory help
	assert_equal "$status" 2
	assert_equal "${#lines[@]}" 1
	assert_output --partial "the source tree's path has white space"
}

@test "make clean removes what the suite built and nothing else" {
	b="$BATS_TEST_TMPDIR/cb"
	mkdir -p "$b" && echo mine > "$b/keep.txt"
	run cmake B="$b" matrix ROW="$(table_rows matrix | awk '{ print $1 }')"
	assert_success
	[ -d "$b/matrix" ] || fail "nothing was built"
	run make -s -C "$COPY" B="$b" clean
	assert_success
	[ ! -e "$b/matrix" ] || fail "clean left the lab's directory"
	assert_equal "$(cat "$b/keep.txt")" mine
}

@test "JOBS that is not a whole number from 1 up is one line, exit 2" {
	for j in 0 -3 abc; do
		run make -s -C "$COPY" --no-print-directory help JOBS="$j"
		assert_equal "$status" 2
		assert_equal "${#lines[@]}" 1
		assert_output --partial "JOBS='$j'"
	done
}

@test "a compiler that does not exist is one line before any job starts" {
	for goal in matrix symsplit check; do
		run cmake "$goal" CC=nonexistent-cc
		assert_equal "$status" 2
		assert_equal "${#lines[@]}" 1
		assert_output --partial "compiler 'nonexistent-cc' not found"
	done
}

# stop_run_bats SIG JOBS: start run-bats on two slow test files, JOBS at a
# time, send SIG after a second;
# prints how many ms it took to end. env --default-signal: a job started
# with & has SIGINT ignored, as a terminal's Ctrl-C would not find it.
stop_run_bats() {
	local t="$BATS_TEST_TMPDIR/tmp" t0 pid
	mkdir -p "$t" "$BATS_TEST_TMPDIR/slow"
	printf '@test "slow" { sleep 30; }\n' > "$BATS_TEST_TMPDIR/slow/slow.bats"
	printf '@test "slow too" { sleep 30; }\n' > "$BATS_TEST_TMPDIR/slow/slow2.bats"
	TMPDIR="$t" BATS_JOBS=$2 env --default-signal=INT "$TOP/scripts/run-bats" "$BATS_TEST_TMPDIR/slow" > /dev/null 2>&1 &
	pid=$!
	sleep 1
	t0=$(date +%s%N)
	kill "-$1" "$pid"
	wait "$pid" || true
	echo $(( ($(date +%s%N) - t0) / 1000000 ))
}

@test "run-bats, stopped by SIGINT (Ctrl-C) or SIGTERM, serial or parallel, stops at once with its tests and leaves no temporary file" {
	for run in INT:1 TERM:1 INT:2; do
		sig=${run%:*}
		ms=$(stop_run_bats "$sig" "${run#*:}")
		sleep 0.2
		run pgrep -f "$BATS_TEST_TMPDIR/slow"
		pkill -f "$BATS_TEST_TMPDIR/slow" || true
		assert_failure                         # no test process outlived it
		[ "$ms" -lt 5000 ] || fail "run-bats took $ms ms to stop after SIG$sig"
		run find "$BATS_TEST_TMPDIR/tmp" -maxdepth 1 -name 'tmp.*'
		assert_output ''
	done
}
