#!/usr/bin/env bats
# A lab's evidence pass: its rows run with the loader's record kept
# (.loader.<shell pid>.<row>.<pid> in the lab's build directory), then one
# scripts/evidence --rows over all of them, put under each row by
# scripts/facts-under-rows. A record is read by the run that wrote it alone,
# a pass stopped halfway leaves nothing the next run takes as its own, and
# bad input to scripts/evidence is one line.
load helpers
bats_require_minimum_version 1.5.0

# shell_before FILE CMD: FILE made a SHELL for make (bash, as the suite's
# own) that runs CMD first in the recipe that runs the matrix rows with
# their records, then becomes bash itself: CMD's $$ is the recipe shell's
# pid, the one the run's records are named by.
shell_before() {
	printf '#!/bin/sh\ncase $* in *"/matrix/.loader."*) %s ;; esac\nexec /bin/bash "$@"\n' "$2" > "$1"
	chmod +x "$1"
}

# A record's binding line, as the loader writes it, for a symbol no row has.
stale_line() { printf '     1:\tbinding file /stale/libstale.so [0] to /stale/libstale.so [0]: normal symbol `vx_stale'"'"' [VX_1]\n'; }

@test "a record left under the name a run will use (a stopped run whose shell had the same pid) is not read as that run's" {
	r=$(rows_expecting matrix SPLIT | head -n 1)
	stale_line > "$BATS_TEST_TMPDIR/stale"
	shell_before "$BATS_TEST_TMPDIR/sh" "cp '$BATS_TEST_TMPDIR/stale' \"$BUILD/matrix/.loader.\$\$.$r.1\" && touch '$BATS_TEST_TMPDIR/planted'"
	run make -s -C "$TOP" --no-print-directory SHELL="$BATS_TEST_TMPDIR/sh" matrix ROW="$r" EVIDENCE=1
	assert_success
	[ -e "$BATS_TEST_TMPDIR/planted" ] || fail "no record was planted: $output"
	refute_output --partial vx_stale
	# the row's own record was read
	assert_line --regexp '^  \| LD_DEBUG: binding file .*`vx_'
	run compgen -G "$BUILD/matrix/.loader.*.$r.1"
	assert_failure
}

# stop_evidence B SIG: make matrix EVIDENCE=1 in the build directory B,
# stopped by SIG to its process group (stop_session: a terminal's Ctrl-C;
# timeout; a job cancelled) once its evidence pass is reached: its readelf
# is a stand-in that marks that and waits 60 s. Prints the ms make took to
# end, then what of its session outlived it (session_left).
stop_evidence() {
	local t=$BATS_TEST_TMPDIR
	printf '#!/bin/sh\n: > %s/reached\nexec sleep 60\n' "$t" > "$t/readelf"; chmod +x "$t/readelf"
	stop_session "$t/reached" "$2" group make -s -C "$TOP" --no-print-directory B="$1" READELF="$t/readelf" matrix EVIDENCE=1 || return
	session_left "$stopped_sid"
}

@test "an evidence pass stopped by SIGINT or SIGTERM: make ends at once with all it started, no partial file under its final name, and the next run is an uninterrupted one's" {
	b="$BATS_TEST_TMPDIR/b" d="$BATS_TEST_TMPDIR/b/matrix"
	# the uninterrupted run: the shared build directory's
	make -s -C "$TOP" --no-print-directory matrix EVIDENCE=1 > "$BATS_TEST_TMPDIR/whole.out"
	# A build directory of its own (made and marked by make), holding a copy
	# of the shared one's matrix rows: they are not built again.
	make -s -C "$TOP" --no-print-directory B="$b" toolchain-report > /dev/null
	cp -a "$BUILD/matrix" "$b/"
	# The next run's shell takes the stopped run's records as if it had its
	# pid (renamed to the name it gives its own), and says how many.
	shell_before "$BATS_TEST_TMPDIR/sh" 'n=0; for f in '"$d"'/.loader.*; do [ -e "$f" ] || break; r=${f##*/.loader.}; mv "$f" "'"$d"'/.loader.$$.${r#*.}"; n=$((n + 1)); done; echo $n > '"$BATS_TEST_TMPDIR"'/taken'
	for sig in INT TERM; do
		rm -rf "$b/runs"
		run stop_evidence "$b" "$sig"
		assert_success
		[ "${#lines[@]}" = 1 ] || fail "SIG$sig: outlived make: ${output#*$'\n'}"
		# at once: the stand-in readelf alone would have waited 60 s
		[ "$output" -lt 5000 ] || fail "make took $output ms to end after SIG$sig"
		[ ! -e "$b/runs/matrix.out" ] || fail "SIG$sig: a partial run was left as runs/matrix.out"
		run make -s -C "$TOP" --no-print-directory B="$b" SHELL="$BATS_TEST_TMPDIR/sh" matrix EVIDENCE=1
		assert_success
		[ "$(cat "$BATS_TEST_TMPDIR/taken")" -gt 0 ] || fail "SIG$sig: the stopped run left no record to take"
		diff <("$TOP/scripts/normalise" < "$BATS_TEST_TMPDIR/whole.out") <(printf '%s\n' "$output" | "$TOP/scripts/normalise") ||
			fail "SIG$sig: the run after the stopped one differs from an uninterrupted run"
		run compgen -G "$d/.loader.*"
		assert_failure
	done
}

@test "evidence: a missing program is one line and exit 2; in a rows pass it was not linked, and one that is no regular file is one line" {
	run --separate-stderr "$TOP/scripts/evidence" vx_ "$BATS_TEST_TMPDIR/none"
	assert_equal "$status" 2
	assert_output ''
	assert_equal "$stderr" "evidence: no program $BATS_TEST_TMPDIR/none"
	run --separate-stderr "$TOP/scripts/evidence" --rows "$BATS_TEST_TMPDIR/rec" "r1 vx_ $BATS_TEST_TMPDIR/none/app $BATS_TEST_TMPDIR/none/lib.so"
	assert_success
	assert_output "$(printf 'r1\t  | app: not linked (the linker%ss record is above the verdict)' "'")"
	mkdir "$BATS_TEST_TMPDIR/dir"
	run --separate-stderr "$TOP/scripts/evidence" --rows "$BATS_TEST_TMPDIR/rec" "r1 vx_ $BATS_TEST_TMPDIR/none/app" "r2 vx_ $BATS_TEST_TMPDIR/dir"
	assert_equal "$status" 2
	assert_output ''
	assert_equal "$stderr" "evidence: row r2: no program $BATS_TEST_TMPDIR/dir"
}
