#!/usr/bin/env bats
# check-fresh's per-pass line (scripts/fresh-tally): a pass is green only
# when make test ran tests, none failed, and the tree was checked and found
# clean; a pass that checked nothing fails.
load helpers

# log LINES...: a pass's log made of these lines.
log() { printf '%s\n' "$@" > "$BATS_TEST_TMPDIR/log"; }
tally() { run "$TOP/scripts/fresh-tally" chroot "$BATS_TEST_TMPDIR/log" "$1"; }

@test "fresh-tally: a pass with tests, no failure and a clean tree is one line, exit 0" {
	log 'run-bats: test/a.bats: 3 passed, 0 failed (1 s; 1 of 2 files done)' '5 passed, 0 failed, 2 skipped' \
		'check-fresh: chroot: tree clean' 'check-fresh: chroot: tree clean: exit 0 (0 s)'
	tally 0
	assert_success
	assert_output 'chroot: 5 passed, 0 failed, 2 skipped, tree clean, exit 0'
	log '5 passed, 0 failed' 'check-fresh: chroot: tree clean: exit 0 (0 s)'
	tally 0
	assert_success
	assert_output 'chroot: 5 passed, 0 failed, 0 skipped, tree clean, exit 0'
}

@test "fresh-tally: a pass that ran no test, or whose tree was not checked, fails" {
	log 'check-fresh: chroot: make matrix: exit 2 (3 s)'
	tally 2
	assert_failure 1
	assert_output 'chroot: no test ran: check-fresh: chroot: make matrix: exit 2 (3 s), exit 2'
	log '0 passed, 0 failed' 'check-fresh: chroot: tree clean: exit 0 (0 s)'
	tally 0
	assert_failure 1
	log '5 passed, 0 failed' 'check-fresh: chroot: make test: exit 0 (9 s)'
	tally 0
	assert_failure 1
	assert_output 'chroot: 5 passed, 0 failed, 0 skipped, tree not checked, exit 0'
}

@test "fresh-tally: a failed test, a path left in the tree or a non-zero exit fails the pass" {
	log '4 passed, 1 failed, 2 skipped' 'check-fresh: chroot: tree clean: exit 0 (0 s)'
	tally 0
	assert_failure 1
	log '5 passed, 0 failed' 'check-fresh: chroot: left in the tree: ?? survey/__pycache__/' \
		'check-fresh: chroot: tree clean: exit 1 (0 s)'
	tally 1
	assert_failure 1
	assert_output 'chroot: 5 passed, 0 failed, 0 skipped, 1 path(s) left in the tree, exit 1'
	log '5 passed, 0 failed' 'check-fresh: chroot: tree clean: exit 0 (0 s)'
	tally 2
	assert_failure 1
	run "$TOP/scripts/fresh-tally" chroot
	assert_failure 2
}
