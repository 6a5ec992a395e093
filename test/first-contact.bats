#!/usr/bin/env bats
# First contact: the README's first command on a machine that has only apt,
# make and git. Such a machine is made here from this one's commands, on a
# PATH of its own: gcc taken away, and (for the install) dpkg-query, id and
# apt-get replaced by small stand-ins, so the test runs as root or as a
# user and installs nothing for real. scripts/check-fresh does the same on
# a real fresh Debian root.
load helpers

setup() {
	bare=$BATS_TEST_TMPDIR/bin
	mkdir -p "$bare"
	ln -s /usr/bin/* "$bare/" 2>/dev/null || true
	ln -s /usr/sbin/* "$bare/" 2>/dev/null || true   # a name in both: the first
	rm -f "$bare/gcc"
	b=$BATS_TEST_TMPDIR/b
}

# stand_in NAME BODY: a script NAME on the bare PATH.
stand_in() { rm -f "$bare/$1"; printf '#!/bin/sh\n%s\n' "$2" > "$bare/$1"; chmod +x "$bare/$1"; }
# not_installed: dpkg-query knows none of the packages.
not_installed() { stand_in dpkg-query 'echo "unknown ok not-installed"'; }

@test "first contact: without gcc, make -n matrix prints the install step and runs nothing" {
	run env PATH="$bare" make -n -C "$TOP" --no-print-directory B="$b" matrix
	assert_success
	assert_output --partial "mk/first-run 'gcc' 'bfd' 'matrix'"
	[ ! -e "$b" ] || fail "make -n wrote $b"
}

@test "first contact: without gcc, a user's make matrix prints the apt line to run as root (no sudo), exits non-zero, builds nothing" {
	not_installed
	stand_in id '[ "$1" = -u ] && echo 1000 || exec /usr/bin/id "$@"'
	run env PATH="$bare" make -s -C "$TOP" --no-print-directory B="$b" matrix
	assert_failure
	assert_line "deps: missing Debian packages for make matrix: gcc binutils libc6-dev -- run as root: apt-get install -y --no-install-recommends gcc binutils libc6-dev"
	refute_output --partial sudo
	[ ! -e "$b" ] || fail "a refused make matrix wrote $b"
}

@test "first contact: without gcc, root's make matrix installs it in one announced step with apt's progress, then runs the row" {
	not_installed
	stand_in id '[ "$1" = -u ] && echo 0 || exec /usr/bin/id "$@"'
	# apt-get: update does nothing; a dry run lists two packages; the
	# install reports its progress on APT::Status-Fd (3), is quiet for 16 s
	# (dpkg long on one package), and puts gcc back.
	stand_in apt-get "case \$* in
	update*) exit 0 ;;
	*' -s') echo 'Inst gcc'; echo 'Inst libc6-dev' ;;
	*Status-Fd=3*) echo 'dlstatus:1:50.0:Retrieving' >&3; echo 'pmstatus:gcc:60.0:Unpacking gcc (amd64)' >&3
		sleep 16; ln -s /usr/bin/gcc '$bare/gcc' ;;
	*) exit 100 ;;
	esac"
	run env PATH="$bare" make -s -C "$TOP" --no-print-directory B="$b" matrix ROW=A
	assert_success
	assert_line --index 0 "deps: installing gcc binutils libc6-dev for make matrix (as root, with apt-get)"
	assert_line --regexp "^deps: package lists updated \\([0-9]+ s\\)$"
	assert_line "deps: 2 packages to download and install (with their dependencies)"
	assert_line --regexp '^deps: downloading, 50% \([0-9]+ s\)$'
	assert_line --regexp '^deps: installing, 60%: Unpacking gcc \(amd64\) \([0-9]+ s\)$'
	assert_line --regexp '^deps: installing, still at 60% \([0-9]+ s\)$'
	assert_line --regexp '^deps: installed gcc binutils libc6-dev \([0-9]+ s\)$'
	# then the same make again: the row asked for, and only it
	assert_equal "$(printf '%s\n' "${lines[@]}" | grep -c '^== ')" 1
	assert_line --regexp '^== A: '
	assert_line --regexp '^verdict: '
}

@test "run-bats: a line as each file ends, in the order they end, and one naming the files still running after a quiet spell" {
	d=$BATS_TEST_TMPDIR/files
	mkdir -p "$d"
	printf '@test "quick" { true; }\n' > "$d/quick.bats"
	printf '@test "slow" { sleep 4; }\n@test "skipped" { skip "a reason"; }\n' > "$d/slow.bats"
	RUN_BATS_QUIET=1 BATS_JOBS=2 run "$TOP/scripts/run-bats" "$d/slow.bats" "$d/quick.bats"
	assert_success
	assert_line --index 0 "run-bats: 2 files, 2 at a time"
	assert_line --regexp "^run-bats: still running: $d/slow.bats \\([0-9]+ s\\)$"
	quick=$(printf '%s\n' "${lines[@]}" | grep -nE "^run-bats: $d/quick.bats: 1 passed, 0 failed \\([0-9]+ s; 1 of 2 files done\\)$" | cut -d: -f1)
	slow=$(printf '%s\n' "${lines[@]}" | grep -nE "^run-bats: $d/slow.bats: 1 passed, 0 failed, 1 skipped \\([0-9]+ s; 2 of 2 files done\\)$" | cut -d: -f1)
	[ -n "$quick" ] && [ -n "$slow" ] && [ "$quick" -lt "$slow" ] || fail "no line per file in the order they ended: $output"
	assert_line "ok 1 slow"
	assert_line --index $((${#lines[@]} - 1)) "2 passed, 0 failed, 1 skipped"
}

@test "first contact: a user's PATH has no /sbin; make still finds ldconfig (loader-errors' SONAME link row)" {
	[ ! -x /usr/bin/ldconfig ] || skip "ldconfig is in /usr/bin here: every PATH finds it"
	run env PATH=/usr/local/bin:/usr/bin:/bin make -s -C "$TOP" --no-print-directory B="$b" loader-errors ROW=missing-soname-link-fix
	assert_success
	assert_line --regexp '^== missing-soname-link-fix: '
	[ -L "$b/loader-errors/missing-soname-link-fix/lib/libaccel.so.1" ] || fail "no SONAME link made"
}

@test "run-bats: a test file whose run is killed is named, and the run fails" {
	command -v parallel > /dev/null || skip "needs GNU parallel (bats files side by side)"
	d=$BATS_TEST_TMPDIR/files
	mkdir -p "$d"
	printf '@test "quick" { true; }\n' > "$d/quick.bats"
	# GNU parallel gives each file's run a process group: all of it killed
	printf '@test "killed" { kill -KILL -- -$(ps -o pgid= -p $$ | tr -d " "); }\n' > "$d/killed.bats"
	# the killed file's bats cannot remove its bats-run-* directory: it goes
	# in this test's own directory (bats removes that), not in /tmp
	mkdir -p "$BATS_TEST_TMPDIR/tmp"
	TMPDIR="$BATS_TEST_TMPDIR/tmp" BATS_JOBS=2 run "$TOP/scripts/run-bats" "$d/quick.bats" "$d/killed.bats"
	assert_failure
	assert_line "run-bats: 1 of 2 files never ended: $d/killed.bats "
	assert_line --index $((${#lines[@]} - 1)) "1 passed, 0 failed"
}
